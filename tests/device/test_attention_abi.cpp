// tests/device/test_attention_abi.cpp -- the attention C ABI's argument checks and plan, on the
// host (CI, no GPU).
//
// Every tessera_attention call here has a bad argument or nothing to do, so the library must
// answer without touching the GPU: the pointers are fake and never dereferenced, and without a
// GPU any CUDA call would return TESSERA_ATTENTION_ERROR_CUDA instead. tessera_attention_plan
// launches nothing, so it describes good arguments too: the SM80 kernel's plan, which it gives
// without a GPU and, on any device, with TESSERA_ATTENTION_KERNEL=fa2_sm80 (set here).
#include <gtest/gtest.h>
#include <tessera/attention.h>

#include <cmath>
#include <cstdlib>
#include <string>

namespace {

// A valid problem: (2, 8, 100, 128) Q and O, (2, 2, 77, 128) K and V, contiguous (B,H,S,D).
tessera_attention_params good() {
  tessera_attention_params p{};
  p.batch = 2, p.heads_q = 8, p.heads_kv = 2, p.seqlen_q = 100, p.seqlen_k = 77, p.head_dim = 128;
  p.q = reinterpret_cast<const void*>(0x10000);
  p.k = reinterpret_cast<const void*>(0x20000);
  p.v = reinterpret_cast<const void*>(0x30000);
  p.o = reinterpret_cast<void*>(0x40000);
  p.lse = reinterpret_cast<float*>(0x50000);
  const int64_t d = p.head_dim;
  const int64_t q_str[3] = {8 * 100 * d, 100 * d, d}, kv_str[3] = {2 * 77 * d, 77 * d, d};
  for (int j = 0; j < 3; ++j)
    p.q_strides[j] = p.o_strides[j] = q_str[j], p.k_strides[j] = p.v_strides[j] = kv_str[j];
  p.scale = 1.0f / std::sqrt(128.0f);
  return p;
}

std::string plan(tessera_attention_params const& p,
                 tessera_attention_dtype dt = TESSERA_ATTENTION_BF16, int* status = nullptr) {
  char text[512] = {};
  const int s = tessera_attention_plan(dt, &p, text, sizeof(text));
  if (status) *status = s;
  return text;
}

int run(tessera_attention_params const& p, tessera_attention_dtype dt = TESSERA_ATTENTION_F16) {
  const int plan_status = tessera_attention_plan(dt, &p, nullptr, 0);
  const int s = tessera_attention(dt, &p, nullptr);
  EXPECT_EQ(s, plan_status) << "the plan must return the status the call returns";
  return s;
}

TEST(AttentionAbi, GoodArgumentsArePlanned) {
  setenv("TESSERA_ATTENTION_KERNEL", "fa2_sm80", 1);
  int s = -1;
  const std::string text = plan(good(), TESSERA_ATTENTION_BF16, &s);
  EXPECT_EQ(s, TESSERA_ATTENTION_SUCCESS);
  EXPECT_EQ(text,
            "fa2_sm80: mma.sync m16n8k16 bf16 in, f32 accumulate; head_dim 128; CTA 128 query "
            "rows x 32 keys, 4 warps, 2 (K,V) stages by cp.async, 64 KB shared; grid 1 x 8 x 2; "
            "not causal; GQA group 4; LSE written");
  auto p = good();
  p.head_dim = 64, p.causal = 1, p.lse = nullptr, p.seqlen_q = 4097;
  for (int j = 0; j < 3; ++j)
    p.q_strides[j] /= 2, p.o_strides[j] /= 2, p.k_strides[j] /= 2, p.v_strides[j] /= 2;
  p.q_strides[0] = p.o_strides[0] = 8 * 4097 * 64;
  p.q_strides[1] = p.o_strides[1] = 4097 * 64;
  EXPECT_EQ(plan(p, TESSERA_ATTENTION_F16),
            "fa2_sm80: mma.sync m16n8k16 f16 in, f32 accumulate; head_dim 64; CTA 128 query rows "
            "x 64 keys, 4 warps, 2 (K,V) stages by cp.async, 48 KB shared; grid 33 x 8 x 2; "
            "causal (top-left aligned); GQA group 4; LSE not written");
  p = good();
  p.head_dim = 256;
  for (int j = 0; j < 3; ++j)
    p.q_strides[j] *= 2, p.o_strides[j] *= 2, p.k_strides[j] *= 2, p.v_strides[j] *= 2;
  EXPECT_NE(plan(p).find("head_dim 256; CTA 64 query rows x 64 keys"), std::string::npos);
  EXPECT_NE(plan(p).find("160 KB shared; grid 2 x 8 x 2"), std::string::npos);
}

TEST(AttentionAbi, NullPointers) {
  EXPECT_EQ(tessera_attention(TESSERA_ATTENTION_F16, nullptr, nullptr),
            TESSERA_ATTENTION_ERROR_NULL_POINTER);
  for (int which = 0; which < 4; ++which) {
    auto p = good();
    if (which == 0) p.q = nullptr;
    if (which == 1) p.k = nullptr;
    if (which == 2) p.v = nullptr;
    if (which == 3) p.o = nullptr;
    EXPECT_EQ(run(p), TESSERA_ATTENTION_ERROR_NULL_POINTER) << which;
  }
}

TEST(AttentionAbi, Sizes) {
  for (int which = 0; which < 6; ++which) {
    auto p = good();
    int64_t* sizes[6] = {&p.batch, &p.heads_q, &p.heads_kv, &p.seqlen_q, &p.seqlen_k, &p.head_dim};
    *sizes[which] = -1;
    EXPECT_EQ(run(p), TESSERA_ATTENTION_ERROR_INVALID_SIZE) << which;
  }
  auto p = good();
  p.seqlen_k = 0;  // a softmax over no keys
  EXPECT_EQ(run(p), TESSERA_ATTENTION_ERROR_INVALID_SIZE);
  EXPECT_EQ(plan(p),
            "tessera_attention: a size is negative, or seqlen_k is 0 (a softmax over no "
            "keys)");
}

TEST(AttentionAbi, NothingToDoTouchesNothing) {
  // batch, heads_q or seqlen_q = 0: success without looking at pointers (all NULL here).
  for (int which = 0; which < 3; ++which) {
    auto p = good();
    p.q = p.k = p.v = nullptr, p.o = nullptr, p.lse = nullptr;
    (which == 0 ? p.batch : which == 1 ? p.heads_q : p.seqlen_q) = 0;
    EXPECT_EQ(run(p), TESSERA_ATTENTION_SUCCESS) << which;
    EXPECT_EQ(plan(p), "nothing to do (batch, heads_q or seqlen_q is 0)");
  }
}

TEST(AttentionAbi, HeadDim) {
  for (int64_t d : {0, 32, 96, 100, 512}) {
    auto p = good();
    p.head_dim = d;
    EXPECT_EQ(run(p), TESSERA_ATTENTION_ERROR_HEAD_DIM) << d;
  }
}

TEST(AttentionAbi, HeadsKvDividesHeadsQ) {
  for (int64_t hkv : {0, 3, 5, 16}) {
    auto p = good();
    p.heads_kv = hkv;
    EXPECT_EQ(run(p), TESSERA_ATTENTION_ERROR_HEADS) << hkv;
  }
  auto p = good();
  p.heads_kv = 1;  // MQA
  p.k_strides[1] = p.v_strides[1] = 0;
  int s = -1;
  EXPECT_NE(plan(p, TESSERA_ATTENTION_BF16, &s).find("GQA group 8"), std::string::npos);
  EXPECT_EQ(s, TESSERA_ATTENTION_SUCCESS);
}

TEST(AttentionAbi, Strides) {
  auto p = good();
  p.q_strides[2] = 130;  // not a multiple of 8 elements
  EXPECT_EQ(run(p), TESSERA_ATTENTION_ERROR_STRIDE);
  p = good();
  p.k_strides[0] = -8;
  EXPECT_EQ(run(p), TESSERA_ATTENTION_ERROR_STRIDE);
  p = good();
  p.o_strides[2] = 64;  // O's rows of 128 overlap
  EXPECT_EQ(run(p), TESSERA_ATTENTION_ERROR_STRIDE);
  p = good();
  p.o_strides[1] = 128;  // heads overlap the sequence
  EXPECT_EQ(run(p), TESSERA_ATTENTION_ERROR_STRIDE);
  p = good();
  p.q_strides[2] = 0;  // Q and K/V may be broadcast (read only)
  p.v_strides[0] = 0;
  EXPECT_EQ(tessera_attention_plan(TESSERA_ATTENTION_F16, &p, nullptr, 0),
            TESSERA_ATTENTION_SUCCESS);
  p = good();  // (B,S,H,D) storage, torch's transpose(1, 2): head stride D, seq stride H D
  p.o_strides[0] = 100 * 8 * 128, p.o_strides[1] = 128, p.o_strides[2] = 8 * 128;
  EXPECT_EQ(tessera_attention_plan(TESSERA_ATTENTION_F16, &p, nullptr, 0),
            TESSERA_ATTENTION_SUCCESS);
  p = good();  // a mode of extent 1 may have any stride
  p.batch = 1, p.o_strides[0] = 3, p.q_strides[0] = -5;
  EXPECT_EQ(tessera_attention_plan(TESSERA_ATTENTION_F16, &p, nullptr, 0),
            TESSERA_ATTENTION_SUCCESS);
}

TEST(AttentionAbi, Alignment) {
  auto p = good();
  p.v = reinterpret_cast<const void*>(0x30008);
  EXPECT_EQ(run(p), TESSERA_ATTENTION_ERROR_MISALIGNED);
  p = good();
  p.lse = reinterpret_cast<float*>(0x50002);
  EXPECT_EQ(run(p), TESSERA_ATTENTION_ERROR_MISALIGNED);
}

TEST(AttentionAbi, ScaleAndDtype) {
  for (float s : {0.0f, -0.125f, INFINITY, NAN}) {
    auto p = good();
    p.scale = s;
    EXPECT_EQ(run(p), TESSERA_ATTENTION_ERROR_SCALE) << s;
  }
  EXPECT_EQ(run(good(), tessera_attention_dtype(0)), TESSERA_ATTENTION_ERROR_UNKNOWN_DTYPE);
  EXPECT_EQ(run(good(), tessera_attention_dtype(7)), TESSERA_ATTENTION_ERROR_UNKNOWN_DTYPE);
}

TEST(AttentionAbi, GridLimits) {
  auto p = good();
  p.heads_q = 65536 * 2, p.heads_kv = 2;
  EXPECT_EQ(run(p), TESSERA_ATTENTION_ERROR_TOO_LARGE);
}

TEST(AttentionAbi, StatusStrings) {
  for (int s = 0; s <= TESSERA_ATTENTION_ERROR_CUDA; ++s)
    EXPECT_EQ(std::string(tessera_attention_status_string(s)).rfind("tessera_attention: ", 0),
              s == 0 ? std::string::npos : 0u)
        << s;
  EXPECT_STREQ(tessera_attention_status_string(0), "success");
  EXPECT_STREQ(tessera_attention_status_string(99), "tessera_attention: unknown status");
}

}  // namespace
