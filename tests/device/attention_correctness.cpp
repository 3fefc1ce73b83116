// tests/device/attention_correctness.cpp -- tessera_attention (include/tessera/attention.h) on the
// GPU against a float64 CPU reference, then its speed.
//
// Every case: fresh random Q, K, V in [-1, 1) (rounded to the dtype; the reference reads the
// rounded values), each tensor inside a larger buffer with padded strides (rows of D + 8
// elements, gaps between heads and batches, guards before and after). The inputs' padding holds
// NaN, so a read outside the blocks shows in O; O's padding holds a byte pattern that must
// survive, O's block is NaN-poisoned first (every element must be written), LSE likewise. Q, K
// and V must come back unchanged. Sequence lengths 1, 7, 100, 1000, 4097, seqlen_q != seqlen_k
// both ways, head dims 64, 128, 256, f16 and bf16, causal and not, GQA and MQA, (B,H,S,D) and
// (B,S,H,D) storage of O. Long rows are checked on a sample of rows (first, last, spread).
//
//   attention_correctness                the full suite, then the benchmark
//   attention_correctness --quick        small lengths only, no benchmark (memcheck)
//   attention_correctness --tiny         one length pair per dtype, head dim, mask (racecheck)
//   attention_correctness --bench-only   the benchmark only
//   ... --kernel fa2_sm80                the SM80 kernel on any device (the library picks
//                                        fa3_sm90 on an sm_90 device otherwise)
// Each line names the kernel that ran (the plan's first word).
// The benchmark prints TFLOP/s = 4 B H Sq Sk D / time (halved when causal), CUDA events over 20
// launches after 3 warm-ups. Exit status 0 when every check passed.
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_runtime.h>
#include <tessera/attention.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "harness.cuh"

namespace {

// 16-bit values on the host as bits.
float to_float(uint16_t bits, bool bf16) {
  if (bf16) {
    uint32_t u = uint32_t(bits) << 16;
    float f;
    std::memcpy(&f, &u, 4);
    return f;
  }
  __half h;
  std::memcpy(&h, &bits, 2);
  return __half2float(h);
}
uint16_t from_float(float x, bool bf16) {
  uint16_t bits;
  if (bf16) {
    const __nv_bfloat16 b = __float2bfloat16(x);
    std::memcpy(&bits, &b, 2);
  } else {
    const __half h = __float2half(x);
    std::memcpy(&bits, &h, 2);
  }
  return bits;
}
uint16_t nan_bits(bool bf16) { return bf16 ? 0x7fc0 : 0x7e00; }
constexpr uint16_t kGuardBits = 0x3c5a;      // a finite pattern in both types
constexpr uint32_t kLseGuard = 0x7f800001u;  // a NaN

uint64_t g_seed = 12345;
float uniform() {  // [-1, 1)
  g_seed = g_seed * 6364136223846793005ull + 1442695040888963407ull;
  return float(int64_t(g_seed >> 40) - (int64_t(1) << 23)) / float(int64_t(1) << 23);
}

// A (B, H, S, D) tensor inside a larger device buffer of 16-bit values.
struct Tensor4 {
  int64_t B, H, S, D, sb, sh, ss;
  int64_t front = 64, total = 0;
  std::vector<uint16_t> host;  // the whole buffer's image
  uint16_t* dev = nullptr;
  // Padded strides; bshd: (B,S,H,D) storage (head stride D + 8, seq stride H (D + 8)).
  Tensor4(int64_t b, int64_t h, int64_t s, int64_t d, bool bshd) : B(b), H(h), S(s), D(d) {
    if (bshd)
      sh = d + 8, ss = h * (d + 8) + 8, sb = s * ss + 16;
    else
      ss = d + 8, sh = s * ss + 16, sb = h * sh + 32;
    total = front + (b - 1) * sb + (h - 1) * sh + (s - 1) * ss + d + 64;
    CHECK_CUDA(cudaMalloc(&dev, size_t(total) * 2));
  }
  ~Tensor4() { cudaFree(dev); }
  Tensor4(Tensor4 const&) = delete;
  int64_t at(int64_t b, int64_t h, int64_t s, int64_t d) const {
    return front + b * sb + h * sh + s * ss + d;
  }
  const uint16_t* block() const { return dev + front; }
  // Padding = `pad`, the block = random values (or `fill`).
  void make(bool bf16, uint16_t pad, bool random, uint16_t fill = 0) {
    host.assign(size_t(total), pad);
    for (int64_t b = 0; b < B; ++b)
      for (int64_t h = 0; h < H; ++h)
        for (int64_t s = 0; s < S; ++s)
          for (int64_t d = 0; d < D; ++d)
            host[size_t(at(b, h, s, d))] = random ? from_float(uniform(), bf16) : fill;
    CHECK_CUDA(cudaMemcpy(dev, host.data(), size_t(total) * 2, cudaMemcpyHostToDevice));
  }
  std::vector<uint16_t> download() const {
    std::vector<uint16_t> v(static_cast<size_t>(total));
    CHECK_CUDA(cudaMemcpy(v.data(), dev, size_t(total) * 2, cudaMemcpyDeviceToHost));
    return v;
  }
  bool in_block(int64_t i) const {  // whether buffer index i is an element of the block
    for (int64_t b = 0; b < B; ++b)
      for (int64_t h = 0; h < H; ++h) {
        const int64_t o = i - at(b, h, 0, 0);
        if (o >= 0 && o < (S - 1) * ss + D && o % ss < D) return true;
      }
    return false;
  }
};

struct Case {
  bool bf16;
  int64_t d, batch, hq, hkv, sq, sk;
  bool causal, bshd;
  float scale;  // 0: 1 / sqrt(d)
};

// The float64 reference of one row: O(i, :) and LSE(i).
void reference_row(Case const& c, Tensor4 const& q, Tensor4 const& k, Tensor4 const& v, int64_t b,
                   int64_t h, int64_t i, double scale, std::vector<double>& o, double& lse) {
  const int64_t g = h / (c.hq / c.hkv);
  const int64_t keys = c.causal ? std::min(c.sk, i + 1) : c.sk;  // top-left aligned
  std::vector<double> s(static_cast<size_t>(keys));
  double mx = -INFINITY;
  for (int64_t j = 0; j < keys; ++j) {
    double acc = 0;
    for (int64_t d = 0; d < c.d; ++d)
      acc += double(to_float(q.host[size_t(q.at(b, h, i, d))], c.bf16)) *
             double(to_float(k.host[size_t(k.at(b, g, j, d))], c.bf16));
    s[size_t(j)] = acc * scale;
    mx = std::max(mx, s[size_t(j)]);
  }
  double sum = 0;
  for (double& x : s) sum += (x = std::exp(x - mx));
  o.assign(size_t(c.d), 0.0);
  for (int64_t j = 0; j < keys; ++j)
    for (int64_t d = 0; d < c.d; ++d)
      o[size_t(d)] +=
          s[size_t(j)] / sum * double(to_float(v.host[size_t(v.at(b, g, j, d))], c.bf16));
  lse = mx + std::log(sum);
}

// The largest errors of O (absolute) and LSE (relative) over the rows checked: all, or (long
// problems) the first and last 48 and 160 spread between; returns whether all were checked.
bool max_errors(Case const& c, Tensor4 const& q, Tensor4 const& k, Tensor4 const& v,
                Tensor4 const& o, std::vector<uint16_t> const& o_dev,
                std::vector<uint32_t> const& lse_host, double scale, double& err_o,
                double& err_lse) {
  std::vector<int64_t> rows;
  const bool all = c.sq * c.sk * c.d * c.batch * c.hq <= (int64_t(1) << 27);
  for (int64_t i = 0; i < c.sq; ++i)
    if (all || i < 48 || i >= c.sq - 48 || i % std::max<int64_t>(1, c.sq / 160) == 0)
      rows.push_back(i);
  std::vector<double> ref;
  double ref_lse = 0;
  for (int64_t b = 0; b < c.batch; ++b)
    for (int64_t h = 0; h < c.hq; ++h)
      for (int64_t i : rows) {
        reference_row(c, q, k, v, b, h, i, scale, ref, ref_lse);
        for (int64_t d = 0; d < c.d; ++d) {
          const float got = to_float(o_dev[size_t(o.at(b, h, i, d))], c.bf16);
          const double e = std::isfinite(got) ? std::fabs(got - ref[size_t(d)]) : 1e30;
          err_o = std::max(err_o, e);
        }
        float got_lse;
        std::memcpy(&got_lse, &lse_host[size_t(64 + (b * c.hq + h) * c.sq + i)], 4);
        const double e = std::isfinite(got_lse) ? std::fabs(got_lse - ref_lse) : 1e30;
        err_lse = std::max(err_lse, e / std::max(1.0, std::fabs(ref_lse)));
      }
  return all;
}

int g_failed = 0, g_checks = 0;

bool run_case(Case const& c) {
  const bool bf16 = c.bf16;
  const double scale = c.scale > 0 ? c.scale : 1.0 / std::sqrt(double(c.d));
  Tensor4 q(c.batch, c.hq, c.sq, c.d, false), k(c.batch, c.hkv, c.sk, c.d, false),
      v(c.batch, c.hkv, c.sk, c.d, false), o(c.batch, c.hq, c.sq, c.d, c.bshd);
  q.make(bf16, nan_bits(bf16), true);
  k.make(bf16, nan_bits(bf16), true);
  v.make(bf16, nan_bits(bf16), true);
  o.make(bf16, kGuardBits, false, nan_bits(bf16));
  // LSE: (B, Hq, Sq) contiguous between 64-float guards, poisoned.
  const int64_t n_lse = c.batch * c.hq * c.sq;
  std::vector<uint32_t> lse_host(size_t(n_lse + 128), kLseGuard);
  float* lse_dev = nullptr;
  CHECK_CUDA(cudaMalloc(&lse_dev, lse_host.size() * 4));
  CHECK_CUDA(cudaMemcpy(lse_dev, lse_host.data(), lse_host.size() * 4, cudaMemcpyHostToDevice));

  tessera_attention_params p{};
  p.batch = c.batch, p.heads_q = c.hq, p.heads_kv = c.hkv, p.seqlen_q = c.sq, p.seqlen_k = c.sk;
  p.head_dim = c.d;
  p.q = q.block(), p.k = k.block(), p.v = v.block(), p.o = o.dev + o.front, p.lse = lse_dev + 64;
  const Tensor4* t4[4] = {&q, &k, &v, &o};
  int64_t* strides[4] = {p.q_strides, p.k_strides, p.v_strides, p.o_strides};
  for (int t = 0; t < 4; ++t)
    strides[t][0] = t4[t]->sb, strides[t][1] = t4[t]->sh, strides[t][2] = t4[t]->ss;
  p.scale = float(scale);
  p.causal = c.causal;
  char plan[512];
  tessera_attention_plan(bf16 ? TESSERA_ATTENTION_BF16 : TESSERA_ATTENTION_F16, &p, plan,
                         sizeof(plan));
  const int st =
      tessera_attention(bf16 ? TESSERA_ATTENTION_BF16 : TESSERA_ATTENTION_F16, &p, nullptr);
  CHECK_CUDA(cudaDeviceSynchronize());
  const std::vector<uint16_t> o_dev = o.download();
  CHECK_CUDA(cudaMemcpy(lse_host.data(), lse_dev, lse_host.size() * 4, cudaMemcpyDeviceToHost));
  CHECK_CUDA(cudaFree(lse_dev));

  // Guards and inputs.
  int64_t guards = 0, inputs = 0;
  for (int64_t i = 0; i < o.total; ++i)
    if (!o.in_block(i) && o_dev[size_t(i)] != kGuardBits) ++guards;
  for (int64_t i = 0; i < 64; ++i)
    guards += (lse_host[size_t(i)] != kLseGuard) + (lse_host[size_t(64 + n_lse + i)] != kLseGuard);
  for (Tensor4 const* t : {&q, &k, &v}) inputs += t->download() != t->host;

  double err_o = 0, err_lse = 0;
  const bool all = max_errors(c, q, k, v, o, o_dev, lse_host, scale, err_o, err_lse);
  // O: the dtype's rounding of P (relative 2^-8 bf16, 2^-11 f16) and of the output.
  const double tol_o = bf16 ? 2e-2 : 4e-3, tol_lse = 1e-4;
  const bool ok = st == TESSERA_ATTENTION_SUCCESS && err_o <= tol_o && err_lse <= tol_lse &&
                  guards == 0 && inputs == 0;
  ++g_checks;
  g_failed += !ok;
  const std::string kernel = std::string(plan).substr(0, std::string(plan).find(':'));
  std::printf(
      "%s %-4s d=%-3lld B=%lld Hq=%lld Hkv=%lld Sq=%-5lld Sk=%-5lld %-6s %-4s scale=%.3f: "
      "max |O err| %.2e, LSE rel err %.2e, %lld guard changes, %lld inputs changed%s: %s\n",
      kernel.c_str(), bf16 ? "bf16" : "f16", (long long)c.d, (long long)c.batch, (long long)c.hq,
      (long long)c.hkv, (long long)c.sq, (long long)c.sk, c.causal ? "causal" : "full",
      c.bshd ? "bshd" : "bhsd", scale, err_o, err_lse, (long long)guards, (long long)inputs,
      all ? "" : " (sampled rows)", ok ? "ok" : "FAILED");
  if (!ok && st != TESSERA_ATTENTION_SUCCESS)
    std::printf("  status %d: %s\n", st, tessera_attention_status_string(st));
  if (!ok) std::printf("  plan: %s\n", plan);
  return ok;
}

void suite(bool quick, bool tiny) {
  if (tiny) {
    for (bool bf16 : {false, true})
      for (int64_t d : {64, 128, 256})
        for (bool causal : {false, true}) run_case({bf16, d, 1, 2, 1, 100, 130, causal, false, 0});
    return;
  }
  const int64_t lens_full[][2] = {{1, 1},       {7, 7},    {100, 100}, {1000, 1000},
                                  {4097, 4097}, {7, 100},  {100, 7},   {1000, 4097},
                                  {4097, 1000}, {1, 1000}, {1000, 1}};
  const int64_t lens_quick[][2] = {{1, 1}, {7, 7}, {100, 100}, {7, 100}, {100, 7}, {257, 130}};
  for (bool bf16 : {false, true})
    for (int64_t d : {64, 128, 256})
      for (bool causal : {false, true}) {
        if (quick) {
          for (auto const& l : lens_quick)
            run_case({bf16, d, 2, 4, 2, l[0], l[1], causal, l[0] == 257, 0});
          continue;
        }
        for (auto const& l : lens_full) {
          const bool big = l[0] * l[1] > 1000000;
          // GQA (4 heads on 2) for the small ones, one head for the long ones.
          run_case({bf16, d, big ? 1 : 2, big ? 1 : 4, big ? 1 : 2, l[0], l[1], causal, false, 0});
        }
        run_case({bf16, d, 1, 6, 1, 300, 333, causal, true, 0});      // MQA, (B,S,H,D) O
        run_case({bf16, d, 1, 2, 2, 130, 200, causal, false, 2.0f});  // a sharp softmax
      }
}

void bench() {
  std::printf("\nbenchmark: TFLOP/s = 4 B H Sq Sk D / time (halved when causal)\n");
  for (bool bf16 : {true, false})
    for (int64_t d : {64, 128, 256})
      for (int64_t s : {1024, 4096, 16384})
        for (bool causal : {false, true}) {
          const int64_t hq = 2048 / d, batch = std::max<int64_t>(1, 16384 / s);
          Tensor4 q(batch, hq, s, d, false), k(batch, hq, s, d, false), v(batch, hq, s, d, false),
              o(batch, hq, s, d, false);
          // Speed does not depend on the values: every byte 0x2e (0.1 in f16, 4e-11 in bf16).
          for (Tensor4* t : {&q, &k, &v, &o})
            CHECK_CUDA(cudaMemset(t->dev, 0x2e, size_t(t->total) * 2));
          tessera_attention_params p{};
          p.batch = batch, p.heads_q = p.heads_kv = hq, p.seqlen_q = p.seqlen_k = s, p.head_dim = d;
          p.q = q.block(), p.k = k.block(), p.v = v.block(), p.o = o.dev + o.front;
          const Tensor4* t4[4] = {&q, &k, &v, &o};
          int64_t* strides[4] = {p.q_strides, p.k_strides, p.v_strides, p.o_strides};
          for (int t = 0; t < 4; ++t)
            strides[t][0] = t4[t]->sb, strides[t][1] = t4[t]->sh, strides[t][2] = t4[t]->ss;
          p.scale = float(1.0 / std::sqrt(double(d)));
          p.causal = causal;
          const auto dt = bf16 ? TESSERA_ATTENTION_BF16 : TESSERA_ATTENTION_F16;
          char plan[512];
          tessera_attention_plan(dt, &p, plan, sizeof(plan));
          const std::string kernel = std::string(plan).substr(0, std::string(plan).find(':'));
          for (int i = 0; i < 3; ++i) tessera_attention(dt, &p, nullptr);
          cudaEvent_t e0, e1;
          CHECK_CUDA(cudaEventCreate(&e0));
          CHECK_CUDA(cudaEventCreate(&e1));
          const int reps = 20;
          CHECK_CUDA(cudaEventRecord(e0));
          for (int i = 0; i < reps; ++i) tessera_attention(dt, &p, nullptr);
          CHECK_CUDA(cudaEventRecord(e1));
          CHECK_CUDA(cudaEventSynchronize(e1));
          float ms = 0;
          CHECK_CUDA(cudaEventElapsedTime(&ms, e0, e1));
          const double flops = 4.0 * batch * hq * s * s * d * (causal ? 0.5 : 1.0);
          std::printf("%s %-4s d=%-3lld B=%-2lld H=%-2lld S=%-5lld %-6s %8.3f ms  %6.1f TFLOP/s\n",
                      kernel.c_str(), bf16 ? "bf16" : "f16", (long long)d, (long long)batch,
                      (long long)hq, (long long)s, causal ? "causal" : "full", ms / reps,
                      flops / (ms / reps * 1e-3) / 1e12);
          CHECK_CUDA(cudaEventDestroy(e0));
          CHECK_CUDA(cudaEventDestroy(e1));
        }
}

}  // namespace

int main(int argc, char** argv) {
  bool quick = false, tiny = false, bench_only = false;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--quick")
      quick = true;
    else if (a == "--tiny")
      tiny = true;
    else if (a == "--bench-only")
      bench_only = true;
    else if (a == "--kernel" && i + 1 < argc)
      setenv("TESSERA_ATTENTION_KERNEL", argv[++i], 1);
    else {
      std::fprintf(stderr, "usage: %s [--quick | --tiny | --bench-only] [--kernel fa2_sm80]\n",
                   argv[0]);
      return 2;
    }
  }
  int dev = 0;
  cudaDeviceProp prop{};
  if (cudaGetDevice(&dev) != cudaSuccess || cudaGetDeviceProperties(&prop, dev) != cudaSuccess) {
    std::printf("attention_correctness: no GPU\n");
    return 77;
  }
  std::printf("attention_correctness on %s\n", prop.name);
  if (!bench_only) {
    suite(quick, tiny);
    std::printf("attention_correctness: %d of %d checks failed: %s\n", g_failed, g_checks,
                g_failed ? "FAILED" : "PASSED");
  }
  if (!quick && !tiny) bench();
  return g_failed ? 1 : 0;
}
