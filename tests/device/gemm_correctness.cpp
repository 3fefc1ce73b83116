// tests/device/gemm_correctness.cpp -- every kernel of the ladder through the C ABI, on the GPU.
//
// For each size (odd ones and non-multiples of the 128x128x8/16 tiles in every dimension), each
// op(A), op(B) in {N,T}^2, each kernel: fresh random inputs in [-1,1) (never zeros), C poisoned
// with NaN before a beta = 0 run (every element must be written, C must not be read) or random
// for a beta = 0.5 run, leading dimensions padded by 0 or 3 (the latter forces the unaligned
// paths). Reference: cublasDgemm on the float64 copies; the error of each element is
// |out - ref| / (|alpha| sum_k |a||b| + |beta c|), which fp32 keeps under ~k * 2^-24.
// Also the BLAS quick returns (m, n, k = 0) and the argument checks through the same ABI.
//
//   gemm_correctness [--small | --tiny]   --small: the first list only, m and n <= 300 (for
//                                        memcheck), --tiny: three sizes (for racecheck)
// Exit status 0 when everything passed; prints one line per failure and a summary.
#include <cmath>
#include <cstdio>
#include <cstring>
#include <random>
#include <vector>

#include <cublas_v2.h>
#include <cuda_runtime.h>
#include <tessera/gemm.h>
#include "harness.cuh"


struct Size { int64_t m, n, k; };

static std::mt19937_64 rng(20261121);

static std::vector<float> random_matrix(int64_t count) {
  std::uniform_real_distribution<float> u(-1.0f, 1.0f);
  std::vector<float> v(size_t(count > 0 ? count : 1));
  for (auto& x : v) {
    x = u(rng);
    if (x == 0.0f) x = 0.5f;  // never zeros
  }
  return v;
}

template <class T>
static T* to_device(std::vector<T> const& h) {
  T* d = nullptr;
  CHECK_CUDA(cudaMalloc(&d, h.size() * sizeof(T)));
  CHECK_CUDA(cudaMemcpy(d, h.data(), h.size() * sizeof(T), cudaMemcpyHostToDevice));
  return d;
}

// The problem sizes of a run: odd and edge sizes always, large ones unless --small or --tiny.
static std::vector<Size> correctness_sizes(bool small, bool tiny) {
  if (tiny) return {{7, 7, 7}, {129, 127, 129}, {257, 1, 300}};  // (gemv_columns' shared sums)
  std::vector<Size> sizes = {{1, 1, 1},     {7, 7, 7},       {1, 128, 7},    {127, 129, 17},
                             {128, 128, 128}, {129, 127, 129}, {33, 65, 1},   {257, 1, 300},
                             {300, 1, 4100},  {1, 257, 2100}};  // the GEMV with K split
  if (!small) {
    sizes.push_back({1000, 1000, 1000});
    sizes.push_back({4095, 4097, 511});
    sizes.push_back({4095, 129, 4095});
    sizes.push_back({513, 1025, 2049});
    sizes.push_back({4093, 31, 1023});  // 03's thin tile (128 x 32), split-K
    sizes.push_back({17, 3001, 515});   // the same on the transposed problem
  }
  return sizes;
}

// What a run has seen so far.
struct Tally {
  int runs = 0, failures = 0;
  double worst = 0;
};

// One problem on the host: op(A), op(B) and C's starting value C0 in padded column-major
// buffers, and the float64 reference alpha op(A) op(B) + beta C0 with its bound |alpha| |op(A)|
// |op(B)| + |beta| |C0|.
struct Case {
  Size s;
  char ta, tb;
  float alpha, beta;
  int64_t lda, ldb, ldc;
  std::vector<float> A, B, C0;
  std::vector<double> ref, bound;
};

// The reference and the bound of the case, by cublasDgemm on float64 copies.
static void references(cublasHandle_t handle, Case& c) {
  std::vector<double> dA(c.A.begin(), c.A.end()), dB(c.B.begin(), c.B.end()),
      dC(c.C0.begin(), c.C0.end());
  std::vector<double> aA(dA.size()), aB(dB.size()), aC(dC.size());
  for (size_t i = 0; i < dA.size(); ++i) aA[i] = std::fabs(dA[i]);
  for (size_t i = 0; i < dB.size(); ++i) aB[i] = std::fabs(dB[i]);
  for (size_t i = 0; i < dC.size(); ++i) aC[i] = std::fabs(dC[i]);
  double *gA = to_device(dA), *gB = to_device(dB), *gC = to_device(dC);
  double *gaA = to_device(aA), *gaB = to_device(aB), *gaC = to_device(aC);
  const double al = c.alpha, be = c.beta, aal = std::fabs(c.alpha), abe = std::fabs(c.beta);
  auto op = [](char t) { return t == 'N' ? CUBLAS_OP_N : CUBLAS_OP_T; };
  const int m = int(c.s.m), n = int(c.s.n), k = int(c.s.k);
  CHECK_CUBLAS(cublasDgemm(handle, op(c.ta), op(c.tb), m, n, k, &al, gA, int(c.lda), gB,
                           int(c.ldb), &be, gC, int(c.ldc)));
  CHECK_CUBLAS(cublasDgemm(handle, op(c.ta), op(c.tb), m, n, k, &aal, gaA, int(c.lda), gaB,
                           int(c.ldb), &abe, gaC, int(c.ldc)));
  c.ref.resize(dC.size()), c.bound.resize(dC.size());
  CHECK_CUDA(cudaMemcpy(c.ref.data(), gC, c.ref.size() * 8, cudaMemcpyDeviceToHost));
  CHECK_CUDA(cudaMemcpy(c.bound.data(), gaC, c.bound.size() * 8, cudaMemcpyDeviceToHost));
  for (double* p : {gA, gB, gC, gaA, gaB, gaC}) CHECK_CUDA(cudaFree(p));
}

// Kernel `kname` on the case (operands fA, fB and C fC on the device): C poisoned with NaN for
// beta = 0, else C0; then every element within k-proportional fp32 error, padding untouched.
static void check_kernel(Case const& c, std::string const& kname, float* fA, float* fB, float* fC,
                         Tally& tally) {
  const Size s = c.s;
  if (c.beta == 0.0f) {
    std::vector<float> poison(c.C0.size(), std::nanf(""));
    CHECK_CUDA(cudaMemcpy(fC, poison.data(), poison.size() * 4, cudaMemcpyHostToDevice));
  } else {
    CHECK_CUDA(cudaMemcpy(fC, c.C0.data(), c.C0.size() * 4, cudaMemcpyHostToDevice));
  }
  int st = tessera_gemm_named(kname.c_str(), TESSERA_F32, c.ta, c.tb, s.m, s.n, s.k, c.alpha, fA,
                              c.lda, fB, c.ldb, c.beta, fC, c.ldc, nullptr);
  CHECK_CUDA(cudaDeviceSynchronize());
  ++tally.runs;
  if (st != TESSERA_SUCCESS) {
    std::printf("FAIL %s %c%c m=%ld n=%ld k=%ld: status %d (%s)\n", kname.c_str(), c.ta, c.tb,
                long(s.m), long(s.n), long(s.k), st, tessera_status_string(st));
    ++tally.failures;
    return;
  }
  std::vector<float> out(c.C0.size());
  CHECK_CUDA(cudaMemcpy(out.data(), fC, out.size() * 4, cudaMemcpyDeviceToHost));
  const double tol = 8.0 * double(s.k + 2) * std::ldexp(1.0, -24);
  double err = 0;
  int64_t bad = -1;
  bool pad_ok = true;
  for (int64_t j = 0; j < s.n; ++j) {
    for (int64_t i = 0; i < c.ldc; ++i) {
      size_t idx = size_t(i + j * c.ldc);
      if (i >= s.m) {  // padding rows of C must be untouched
        bool same = c.beta == 0.0f ? std::isnan(out[idx]) : out[idx] == c.C0[idx];
        pad_ok = pad_ok && same;
        continue;
      }
      double e = std::fabs(double(out[idx]) - c.ref[idx]) / (c.bound[idx] > 0 ? c.bound[idx] : 1);
      if (!(e <= err)) {  // NaN counts as the worst
        err = std::isnan(e) ? INFINITY : e;
        bad = int64_t(idx);
      }
    }
  }
  tally.worst = std::fmax(tally.worst, err);
  if (!(err <= tol) || !pad_ok) {
    ++tally.failures;
    std::printf(
        "FAIL %s %c%c m=%ld n=%ld k=%ld lda=%ld beta=%g: max err %.3g (tol %.3g) at "
        "(%ld,%ld) got %g want %g%s\n",
        kname.c_str(), c.ta, c.tb, long(s.m), long(s.n), long(s.k), long(c.lda), c.beta, err, tol,
        long(bad % c.ldc), long(bad / c.ldc), bad >= 0 ? out[bad] : 0.0,
        bad >= 0 ? c.ref[bad] : 0.0, pad_ok ? "" : " (padding of C was written)");
  }
}

// The problem (s, ta, tb, beta) on fresh random inputs, leading dimensions padded by `pad`,
// for every kernel.
static void check_problem(cublasHandle_t handle, Size s, char ta, char tb, float beta,
                          int64_t pad, std::vector<std::string> const& kernels, Tally& tally) {
  Case c{s, ta, tb, 1.25f, beta};
  const int64_t ra = ta == 'N' ? s.m : s.k, ca = ta == 'N' ? s.k : s.m;
  const int64_t rb = tb == 'N' ? s.k : s.n, cb = tb == 'N' ? s.n : s.k;
  c.lda = ra + pad, c.ldb = rb + pad, c.ldc = s.m + pad;
  c.A = random_matrix(c.lda * ca), c.B = random_matrix(c.ldb * cb);
  c.C0 = random_matrix(c.ldc * s.n);
  references(handle, c);
  float *fA = to_device(c.A), *fB = to_device(c.B), *fC = nullptr;
  CHECK_CUDA(cudaMalloc(&fC, c.C0.size() * 4));
  for (auto const& kname : kernels) check_kernel(c, kname, fA, fB, fC, tally);
  CHECK_CUDA(cudaFree(fA));
  CHECK_CUDA(cudaFree(fB));
  CHECK_CUDA(cudaFree(fC));
}

// BLAS quick returns through the ABI: k = 0 scales by beta (beta = 0 writes zeros over NaN),
// m = 0 / n = 0 touch nothing.
static bool check_quick_returns(std::string const& kname, float* fC, std::vector<float> const& hC) {
  const int64_t m = 37, n = 5, ldc = 40;
  std::vector<float> out(hC.size());
  CHECK_CUDA(cudaMemcpy(fC, hC.data(), hC.size() * 4, cudaMemcpyHostToDevice));
  int st = tessera_gemm_named(kname.c_str(), TESSERA_F32, 'N', 'N', m, n, 0, 1.0f, nullptr, m,
                              nullptr, 1, 0.5f, fC, ldc, nullptr);
  CHECK_CUDA(cudaDeviceSynchronize());
  CHECK_CUDA(cudaMemcpy(out.data(), fC, out.size() * 4, cudaMemcpyDeviceToHost));
  bool ok = st == 0;
  for (int64_t j = 0; j < n; ++j)
    for (int64_t i = 0; i < ldc; ++i) {
      size_t x = size_t(i + j * ldc);
      ok = ok && out[x] == (i < m ? 0.5f * hC[x] : hC[x]);
    }
  std::vector<float> poison(hC.size(), std::nanf(""));
  CHECK_CUDA(cudaMemcpy(fC, poison.data(), poison.size() * 4, cudaMemcpyHostToDevice));
  st = tessera_gemm_named(kname.c_str(), TESSERA_F32, 'T', 'T', m, n, 0, 1.0f, nullptr, 1,
                          nullptr, n, 0.0f, fC, ldc, nullptr);
  CHECK_CUDA(cudaDeviceSynchronize());
  CHECK_CUDA(cudaMemcpy(out.data(), fC, out.size() * 4, cudaMemcpyDeviceToHost));
  ok = ok && st == 0;
  for (int64_t j = 0; j < n; ++j)
    for (int64_t i = 0; i < m; ++i) ok = ok && out[size_t(i + j * ldc)] == 0.0f;
  // m = 0: nothing is touched (B must still be a pointer: it is 7 x n).
  st = tessera_gemm_named(kname.c_str(), TESSERA_F32, 'N', 'N', 0, n, 7, 1.0f, nullptr, 1, fC, 7,
                          0.0f, nullptr, 1, nullptr);
  return ok && st == 0;
}

int main(int argc, char** argv) {
  bool small = argc > 1 && !std::strcmp(argv[1], "--small");
  bool tiny = argc > 1 && !std::strcmp(argv[1], "--tiny");
  int devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
    std::printf("SKIPPED: no CUDA device\n");
    return 77;
  }
  cublasHandle_t handle;
  CHECK_CUBLAS(cublasCreate(&handle));
  // Kernel names from the library itself: those that run fp32 (tensor-core kernels are
  // checked by gemm_tensorcore).
  const std::vector<std::string> kernels = split(tessera_gemm_kernels_for(TESSERA_F32));

  Tally tally;
  int variant = 0;
  for (Size s : correctness_sizes(small, tiny))
    for (char ta : {'N', 'T'})
      for (char tb : {'N', 'T'})
        for (float beta : {0.0f, 0.5f})
          check_problem(handle, s, ta, tb, beta, (variant++ % 2) ? 3 : 0, kernels, tally);

  {
    auto hC = random_matrix(40 * 5);  // C of the quick returns: 37 x 5 in a 40 x 5 buffer
    float* fC = to_device(hC);
    for (auto const& kname : kernels) {
      ++tally.runs;
      if (!check_quick_returns(kname, fC, hC)) {
        ++tally.failures;
        std::printf("FAIL %s: BLAS quick returns (k = 0 scaling, m = 0)\n", kname.c_str());
      }
    }
    CHECK_CUDA(cudaFree(fC));
  }
  CHECK_CUDA(cudaGetLastError());
  cublasDestroy(handle);
  std::printf("gemm_correctness: %d runs, %d failures, worst normalised error %.3g%s\n",
              tally.runs, tally.failures, tally.worst,
              small ? " (--small)" : tiny ? " (--tiny)" : "");
  return tally.failures ? 1 : 0;
}
