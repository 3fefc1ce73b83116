// tests/codegen/kernel_check.cu -- the kernel `tessera codegen --kernel` writes, on the GPU,
// against the vocabulary kernel of the same configuration (the step 1 kernel,
// kernels/gemm/01_simt_global.cu, launch_01) and a float64 reference.
//
// Built and run by `scripts/gpu.sh codegen`:
//   tessera codegen --preset step1 --kernel --namespace gen -o DIR/gen.cuh
//   nvcc -std=c++20 -O3 -arch=sm_80 -Iinclude -Ikernels/gemm -IDIR tests/codegen/kernel_check.cu
//        kernels/gemm/01_simt_global.cu
// Random ragged problems (M, N, K not multiples of the tile; M-/K-major A, N-/K-major B;
// alpha, beta), A, B and C inside larger buffers whose guard regions hold NaN (A, B: a kernel
// that reads them produces NaN) and a sentinel (C: must be unchanged). Both kernels must agree
// with the reference within float rounding, and with each other exactly (the same FMAs in the
// same order per element). Exits 1 on any failure.
#include <cuda_runtime.h>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <random>
#include <vector>

#include "args.hpp"
#include "gen.cuh"

namespace tessera::ladder {
cudaError_t launch_01(GemmArgs const&, cudaStream_t);
}

#define CHECK_CUDA(x)                                                                    \
  do {                                                                                   \
    cudaError_t e_ = (x);                                                                \
    if (e_ != cudaSuccess) {                                                             \
      std::printf("CUDA error %s at %s:%d\n", cudaGetErrorString(e_), __FILE__, __LINE__); \
      std::exit(1);                                                                      \
    }                                                                                    \
  } while (0)

namespace {

constexpr uint32_t kSentinel = 0x7f8abcde;  // a NaN nobody computes
uint32_t bits(float x) {
  uint32_t u;
  std::memcpy(&u, &x, 4);
  return u;
}
float from_bits(uint32_t u) {
  float x;
  std::memcpy(&x, &u, 4);
  return x;
}

struct Problem {
  long long m, n, k;
  bool a_m_major, b_n_major;
  float alpha, beta;
};

// Runs one kernel on the problem; returns C's whole buffer (guards included).
template <class Launch>
std::vector<float> run(Problem const& p, std::vector<float> const& a, std::vector<float> const& b,
                       std::vector<float> const& c0, long long guard, Launch launch) {
  float *da, *db, *dc;
  CHECK_CUDA(cudaMalloc(&da, a.size() * 4));
  CHECK_CUDA(cudaMalloc(&db, b.size() * 4));
  CHECK_CUDA(cudaMalloc(&dc, c0.size() * 4));
  CHECK_CUDA(cudaMemcpy(da, a.data(), a.size() * 4, cudaMemcpyHostToDevice));
  CHECK_CUDA(cudaMemcpy(db, b.data(), b.size() * 4, cudaMemcpyHostToDevice));
  CHECK_CUDA(cudaMemcpy(dc, c0.data(), c0.size() * 4, cudaMemcpyHostToDevice));
  launch(da + guard, db + guard, dc + guard);
  CHECK_CUDA(cudaGetLastError());
  CHECK_CUDA(cudaDeviceSynchronize());
  std::vector<float> out(c0.size());
  CHECK_CUDA(cudaMemcpy(out.data(), dc, out.size() * 4, cudaMemcpyDeviceToHost));
  cudaFree(da), cudaFree(db), cudaFree(dc);
  return out;
}

bool check(Problem const& p, std::mt19937& rng) {
  const long long guard = 64;
  // A (M,K), B (N,K) with a leading dimension one past their extent; C (M,N) column-major, ldc
  // = M + 3; everything outside the blocks is guard.
  const long long lda = (p.a_m_major ? p.m : p.k) + 1, ldb = (p.b_n_major ? p.n : p.k) + 1;
  const long long a_sm = p.a_m_major ? 1 : lda, a_sk = p.a_m_major ? lda : 1;
  const long long b_sn = p.b_n_major ? 1 : ldb, b_sk = p.b_n_major ? ldb : 1;
  const long long ldc = p.m + 3;
  const float nan = std::nanf("");
  std::vector<float> a(size_t(lda * (p.a_m_major ? p.k : p.m) + 2 * guard), nan);
  std::vector<float> b(size_t(ldb * (p.b_n_major ? p.k : p.n) + 2 * guard), nan);
  std::vector<float> c0(size_t(ldc * p.n + 2 * guard), from_bits(kSentinel));
  std::uniform_real_distribution<float> u(-1, 1);
  for (long long m = 0; m < p.m; ++m)
    for (long long k = 0; k < p.k; ++k) a[size_t(guard + m * a_sm + k * a_sk)] = u(rng);
  for (long long n = 0; n < p.n; ++n)
    for (long long k = 0; k < p.k; ++k) b[size_t(guard + n * b_sn + k * b_sk)] = u(rng);
  for (long long n = 0; n < p.n; ++n)
    for (long long m = 0; m < p.m; ++m) c0[size_t(guard + m + n * ldc)] = u(rng);
  auto gen_out = run(p, a, b, c0, guard, [&](float* da, float* db, float* dc) {
    dim3 grid(unsigned((p.m + gen::kBM - 1) / gen::kBM), unsigned((p.n + gen::kBN - 1) / gen::kBN));
    gen::gemm<<<grid, gen::kThreads>>>(p.m, p.n, p.k, p.alpha, da, a_sm, a_sk, db, b_sn, b_sk,
                                       p.beta, dc, 1, ldc);
  });
  auto voc_out = run(p, a, b, c0, guard, [&](float* da, float* db, float* dc) {
    tessera::ladder::GemmArgs g;
    g.m = p.m, g.n = p.n, g.k = p.k, g.alpha = p.alpha, g.beta = p.beta;
    g.a = da, g.a_sm = a_sm, g.a_sk = a_sk, g.b = db, g.b_sn = b_sn, g.b_sk = b_sk;
    g.c = dc, g.ldc = ldc;
    CHECK_CUDA(tessera::ladder::launch_01(g, nullptr));
  });
  double worst = 0, worst_voc = 0;
  long long guards = 0, differ = 0;
  for (long long i = 0; i < (long long)c0.size(); ++i) {
    long long j = i - guard, m = j % ldc, n = j / ldc;
    bool inside = j >= 0 && n < p.n && m < p.m;
    if (!inside) {
      guards += bits(gen_out[size_t(i)]) != kSentinel || bits(voc_out[size_t(i)]) != kSentinel;
      continue;
    }
    double ref = 0, mag = 0;
    for (long long k = 0; k < p.k; ++k) {
      double x = double(a[size_t(guard + m * a_sm + k * a_sk)]) *
                 double(b[size_t(guard + n * b_sn + k * b_sk)]);
      ref += x, mag += std::fabs(x);
    }
    ref = p.alpha * ref + p.beta * double(c0[size_t(i)]);
    mag = std::fabs(p.alpha) * mag + std::fabs(p.beta * double(c0[size_t(i)])) + 1e-30;
    double e = std::fabs(double(gen_out[size_t(i)]) - ref) / mag;
    worst = std::isnan(e) ? INFINITY : std::fmax(worst, e);
    double ev = std::fabs(double(voc_out[size_t(i)]) - ref) / mag;
    worst_voc = std::isnan(ev) ? INFINITY : std::fmax(worst_voc, ev);
    differ += bits(gen_out[size_t(i)]) != bits(voc_out[size_t(i)]);
  }
  bool ok = worst < 1e-5 && worst_voc < 1e-5 && guards == 0;
  std::printf("%s M=%lld N=%lld K=%lld A %s-major B %s-major alpha %g beta %g: error %.3g "
              "(launch_01 %.3g) vs float64, %lld guard elements written, %lld elements differ "
              "from launch_01\n",
              ok ? "ok  " : "FAIL", p.m, p.n, p.k, p.a_m_major ? "M" : "K",
              p.b_n_major ? "N" : "K", p.alpha, p.beta, worst, worst_voc, guards, differ);
  return ok;
}

}  // namespace

int main() {
  std::printf("generated kernel: %d threads, CTA tile %dx%dx%d\n", gen::kThreads, gen::kBM,
              gen::kBN, gen::kBK);
  std::mt19937 rng(2026);
  std::uniform_int_distribution<int> size(1, 700), depth(1, 300);
  std::vector<Problem> problems = {{256, 128, 32, true, true, 1, 0}, {1, 1, 1, true, true, 1, 0}};
  for (int i = 0; i < 24; ++i)
    problems.push_back({size(rng), size(rng), depth(rng), bool(rng() & 1), bool(rng() & 1),
                        (rng() & 1) ? 1.0f : -0.5f, (rng() & 1) ? 0.0f : 0.75f});
  int failed = 0;
  for (auto const& p : problems) failed += !check(p, rng);
  std::printf("%s: %d of %zu problems failed\n", failed ? "FAILED" : "PASSED", failed,
              problems.size());
  return failed ? 1 : 0;
}
