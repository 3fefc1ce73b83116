// kernels/attention/attention_abi.cu -- the C ABI of include/tessera/attention.h: argument checks
// (before any CUDA call), the choice of kernel, the plan's description, the launch of the head
// dim's kernel.
#include <cuda_runtime.h>
#include <tessera/attention.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "args.hpp"
#include "launch.hpp"

namespace {

using tessera::attention::AttnArgs;
using tessera::attention::fa2_sm80_tiles;
using tessera::attention::fa3_sm90_tiles;

const char* const kMessages[] = {
    "success",
    "tessera_attention: params, Q, K, V or O is NULL",
    "tessera_attention: a size is negative, or seqlen_k is 0 (a softmax over no keys)",
    "tessera_attention: head_dim must be 64, 128 or 256",
    "tessera_attention: heads_kv must be >= 1 and divide heads_q (GQA groups)",
    "tessera_attention: a stride is negative or not a multiple of 8 elements (16-byte vectors), "
    "or O's (batch, head, seq) rows overlap",
    "tessera_attention: Q, K, V and O must be 16-byte aligned, LSE 4-byte aligned",
    "tessera_attention: scale must be finite and > 0",
    "tessera_attention: dtype must be TESSERA_ATTENTION_F16 or TESSERA_ATTENTION_BF16",
    "tessera_attention: heads_q and batch must be at most 65535 (grid limits)",
    "tessera_attention: the CUDA runtime reported an error",
};

// A stride of a mode of extent > 1 must be >= 0 and a multiple of 8 elements.
bool stride_ok(int64_t extent, int64_t stride) {
  return extent <= 1 || (stride >= 0 && stride % 8 == 0);
}

// O's (batch, head, seq) rows of head_dim elements do not overlap: sorted by stride, each mode's
// stride reaches past the previous modes' whole extent (starting from the row of head_dim).
bool disjoint_rows(const int64_t extent[3], const int64_t stride[3], int64_t head_dim) {
  int order[3] = {0, 1, 2};
  for (int i = 1; i < 3; ++i)  // insertion sort by stride
    for (int j = i; j > 0 && stride[order[j]] < stride[order[j - 1]]; --j) {
      const int t = order[j];
      order[j] = order[j - 1], order[j - 1] = t;
    }
  int64_t span = head_dim;  // elements covered by the modes so far
  for (int i = 0; i < 3; ++i) {
    const int m = order[i];
    if (extent[m] <= 1) continue;
    if (stride[m] < span) return false;
    span = stride[m] * extent[m];
  }
  return true;
}

bool aligned(const void* p, uintptr_t bytes) { return reinterpret_cast<uintptr_t>(p) % bytes == 0; }

// The checks, in the order of the status codes' precedence; `work` is false for a problem with
// nothing to do (then the pointers and strides are not looked at).
int check(int dtype, const tessera_attention_params* p, bool* work) {
  *work = false;
  if (dtype != TESSERA_ATTENTION_F16 && dtype != TESSERA_ATTENTION_BF16)
    return TESSERA_ATTENTION_ERROR_UNKNOWN_DTYPE;
  if (p == nullptr) return TESSERA_ATTENTION_ERROR_NULL_POINTER;
  if (p->batch < 0 || p->heads_q < 0 || p->heads_kv < 0 || p->seqlen_q < 0 || p->seqlen_k < 0 ||
      p->head_dim < 0)
    return TESSERA_ATTENTION_ERROR_INVALID_SIZE;
  if (p->head_dim != 64 && p->head_dim != 128 && p->head_dim != 256)
    return TESSERA_ATTENTION_ERROR_HEAD_DIM;
  if (p->heads_kv < 1 || p->heads_q % p->heads_kv != 0) return TESSERA_ATTENTION_ERROR_HEADS;
  if (!(std::isfinite(p->scale) && p->scale > 0.0f)) return TESSERA_ATTENTION_ERROR_SCALE;
  if (p->batch == 0 || p->heads_q == 0 || p->seqlen_q == 0) return TESSERA_ATTENTION_SUCCESS;
  if (p->seqlen_k == 0) return TESSERA_ATTENTION_ERROR_INVALID_SIZE;
  if (p->batch > 65535 || p->heads_q > 65535) return TESSERA_ATTENTION_ERROR_TOO_LARGE;
  if (!p->q || !p->k || !p->v || !p->o) return TESSERA_ATTENTION_ERROR_NULL_POINTER;
  const int64_t q_ext[3] = {p->batch, p->heads_q, p->seqlen_q},
                kv_ext[3] = {p->batch, p->heads_kv, p->seqlen_k};
  for (int j = 0; j < 3; ++j)
    if (!stride_ok(q_ext[j], p->q_strides[j]) || !stride_ok(q_ext[j], p->o_strides[j]) ||
        !stride_ok(kv_ext[j], p->k_strides[j]) || !stride_ok(kv_ext[j], p->v_strides[j]))
      return TESSERA_ATTENTION_ERROR_STRIDE;
  if (!disjoint_rows(q_ext, p->o_strides, p->head_dim)) return TESSERA_ATTENTION_ERROR_STRIDE;
  if (!aligned(p->q, 16) || !aligned(p->k, 16) || !aligned(p->v, 16) || !aligned(p->o, 16) ||
      !aligned(p->lse, 4))
    return TESSERA_ATTENTION_ERROR_MISALIGNED;
  *work = true;
  return TESSERA_ATTENTION_SUCCESS;
}

// The kernel's arguments (checked parameters): strides of extent-1 modes are 0.
AttnArgs make_args(const tessera_attention_params& p) {
  AttnArgs a;
  a.q = p.q, a.k = p.k, a.v = p.v, a.o = p.o, a.lse = p.lse;
  a.batch = p.batch, a.heads_q = p.heads_q, a.heads_kv = p.heads_kv;
  a.seqlen_q = p.seqlen_q, a.seqlen_k = p.seqlen_k, a.head_dim = p.head_dim;
  const int64_t q_ext[3] = {p.batch, p.heads_q, p.seqlen_q},
                kv_ext[3] = {p.batch, p.heads_kv, p.seqlen_k};
  int64_t* dst[4][3] = {{&a.q_sb, &a.q_sh, &a.q_ss},
                        {&a.k_sb, &a.k_sh, &a.k_ss},
                        {&a.v_sb, &a.v_sh, &a.v_ss},
                        {&a.o_sb, &a.o_sh, &a.o_ss}};
  const int64_t* src[4] = {p.q_strides, p.k_strides, p.v_strides, p.o_strides};
  for (int t = 0; t < 4; ++t)
    for (int j = 0; j < 3; ++j)
      *dst[t][j] = (t == 1 || t == 2 ? kv_ext[j] : q_ext[j]) > 1 ? src[t][j] : 0;
  a.lse_sb = p.heads_q * p.seqlen_q, a.lse_sh = p.seqlen_q;
  a.group = p.heads_q / p.heads_kv;
  a.scale = p.scale, a.scale_log2 = float(double(p.scale) * 1.4426950408889634);
  a.causal = p.causal != 0;
  return a;
}

// The kernel for checked arguments: the Hopper one (fa3_sm90) on an sm_90 device where its tensor
// maps can address Q, K and V, else the SM80 one. TESSERA_ATTENTION_KERNEL=fa2_sm80 in the
// environment forces the SM80 kernel (tests compare the two on one device).
enum class Kernel { kFa2Sm80, kFa3Sm90 };
Kernel choose(AttnArgs const& a) {
  const char* force = std::getenv("TESSERA_ATTENTION_KERNEL");
  if (force != nullptr && std::strcmp(force, "fa2_sm80") == 0) return Kernel::kFa2Sm80;
  int dev = 0, major = 0, minor = 0;
  if (cudaGetDevice(&dev) != cudaSuccess ||
      cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, dev) != cudaSuccess ||
      cudaDeviceGetAttribute(&minor, cudaDevAttrComputeCapabilityMinor, dev) != cudaSuccess) {
    cudaGetLastError();  // no device (a CPU-only plan): the SM80 kernel's description
    return Kernel::kFa2Sm80;
  }
  return major == 9 && minor == 0 && tessera::attention::fa3_sm90_addressable(a) ? Kernel::kFa3Sm90
                                                                                 : Kernel::kFa2Sm80;
}

// The Hopper kernel's key block (fa3_sm90_narrow_keys). TESSERA_ATTENTION_KEYS=narrow or wide
// in the environment forces one (benchmarks compare the two on one shape).
bool narrow_keys(AttnArgs const& a) {
  const char* force = std::getenv("TESSERA_ATTENTION_KEYS");
  if (force != nullptr && std::strcmp(force, "narrow") == 0) return true;
  if (force != nullptr && std::strcmp(force, "wide") == 0) return false;
  return tessera::attention::fa3_sm90_narrow_keys(a.head_dim, a.seqlen_k, a.causal != 0);
}

// The Hopper unit of the head dim for element type T (one unit per head dim and dtype).
template <class T>
cudaError_t launch_fa3(AttnArgs const& a, T tag, cudaStream_t st) {
  namespace ta = tessera::attention;
  const bool narrow = narrow_keys(a);
  return a.head_dim == 64    ? ta::launch_fa3_sm90_d64(a, tag, narrow, st)
         : a.head_dim == 128 ? ta::launch_fa3_sm90_d128(a, tag, narrow, st)
                             : ta::launch_fa3_sm90_d256(a, tag, narrow, st);
}

}  // namespace

extern "C" {

const char* tessera_attention_status_string(int status) {
  if (status < 0 || status >= int(sizeof(kMessages) / sizeof(kMessages[0])))
    return "tessera_attention: unknown status";
  return kMessages[status];
}

int tessera_attention_plan(tessera_attention_dtype dtype, const tessera_attention_params* p,
                           char* text, size_t text_size) {
  bool work = false;
  const int s = check(int(dtype), p, &work);
  if (text == nullptr || text_size == 0) return s;
  if (s != TESSERA_ATTENTION_SUCCESS) {
    std::snprintf(text, text_size, "%s", tessera_attention_status_string(s));
    return s;
  }
  if (!work) {
    std::snprintf(text, text_size, "nothing to do (batch, heads_q or seqlen_q is 0)");
    return s;
  }
  const char* mask = p->causal ? "causal (top-left aligned)" : "not causal";
  const char* dt = dtype == TESSERA_ATTENTION_BF16 ? "bf16" : "f16";
  if (choose(make_args(*p)) == Kernel::kFa3Sm90) {
    const AttnArgs a = make_args(*p);
    const auto t = fa3_sm90_tiles(p->head_dim, narrow_keys(a));
    int dev = 0, sms = 1;
    if (cudaGetDevice(&dev) != cudaSuccess ||
        cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev) != cudaSuccess)
      cudaGetLastError();
    const long long q_blocks = (p->seqlen_q + t.bm - 1) / t.bm,
                    ctas = tessera::attention::fa3_sm90_ctas(a, sms),
                    units = tessera::attention::fa3_sm90_walk(a, ctas).units;
    const char* unit = p->causal ? "units of two (u, last - u)" : "units of one";
    std::snprintf(
        text, text_size,
        "fa3_sm90: wgmma m64n%lldk16 SS (S) and m64n%lldk16 RS (P V) %s in, f32 "
        "accumulate; head_dim %lld; CTA %lld query rows x %lld keys, 1 producer + 2 "
        "consumer warpgroups, %lld Q and %lld (K,V) stages by TMA, O %s, %lld KB shared; %lld x "
        "%lld x %lld query blocks in %lld %s, walked by %lld CTAs; %s; GQA group %lld; LSE %s",
        (long long)t.bn, (long long)p->head_dim, dt, (long long)p->head_dim, (long long)t.bm,
        (long long)t.bn, (long long)t.q_stages, (long long)t.stages,
        t.o_staged ? "staged for TMA stores" : "stored from registers",
        (long long)(t.smem_bytes / 1024), q_blocks, (long long)p->heads_q, (long long)p->batch,
        units, unit, ctas, mask, (long long)(p->heads_q / p->heads_kv),
        p->lse ? "written" : "not written");
    return s;
  }
  const auto t = fa2_sm80_tiles(p->head_dim);
  std::snprintf(text, text_size,
                "fa2_sm80: mma.sync m16n8k16 %s in, f32 accumulate; head_dim %lld; CTA %lld query "
                "rows x %lld keys, %lld warps, %lld (K,V) stages by cp.async, %lld KB shared; "
                "grid %lld x %lld x %lld; %s; GQA group %lld; LSE %s",
                dt, (long long)p->head_dim, (long long)t.bm, (long long)t.bn,
                (long long)(t.threads / 32), (long long)t.stages, (long long)(t.smem_bytes / 1024),
                (long long)((p->seqlen_q + t.bm - 1) / t.bm), (long long)p->heads_q,
                (long long)p->batch, mask, (long long)(p->heads_q / p->heads_kv),
                p->lse ? "written" : "not written");
  return s;
}

int tessera_attention(tessera_attention_dtype dtype, const tessera_attention_params* p,
                      void* stream) {
  bool work = false;
  const int s = check(int(dtype), p, &work);
  if (s != TESSERA_ATTENTION_SUCCESS || !work) return s;
  const AttnArgs a = make_args(*p);
  const bool bf16 = dtype == TESSERA_ATTENTION_BF16;
  const auto st = static_cast<cudaStream_t>(stream);
  namespace ta = tessera::attention;
  // The kernel the plan names, and no other (a tensor map the driver refuses is an error).
  const cudaError_t e =
      choose(a) == Kernel::kFa3Sm90
          ? (bf16 ? launch_fa3(a, __nv_bfloat16{}, st) : launch_fa3(a, __half{}, st))
          : (p->head_dim == 64    ? ta::launch_fa2_sm80_d64(a, bf16, st)
             : p->head_dim == 128 ? ta::launch_fa2_sm80_d128(a, bf16, st)
                                  : ta::launch_fa2_sm80_d256(a, bf16, st));
  return e == cudaSuccess ? TESSERA_ATTENTION_SUCCESS : TESSERA_ATTENTION_ERROR_CUDA;
}

}  // extern "C"
