// tests/device/gemm_correctness.cu -- every kernel of the ladder through the C ABI, on the GPU.
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

  std::vector<Size> sizes = {{1, 1, 1},     {7, 7, 7},       {1, 128, 7},    {127, 129, 17},
                             {128, 128, 128}, {129, 127, 129}, {33, 65, 1},   {257, 1, 300},
                             {300, 1, 4100},  {1, 257, 2100}};  // the GEMV with K split
  if (tiny)
    sizes = {{7, 7, 7}, {129, 127, 129}, {257, 1, 300}};  // (gemv_columns' shared-memory sums)
  if (!small && !tiny) {
    sizes.push_back({1000, 1000, 1000});
    sizes.push_back({4095, 4097, 511});
    sizes.push_back({4095, 129, 4095});
    sizes.push_back({513, 1025, 2049});
    sizes.push_back({4093, 31, 1023});  // 03's thin tile (128 x 32), split-K
    sizes.push_back({17, 3001, 515});   // the same on the transposed problem
  }
  // Kernel names from the library itself: those that run fp32 (tensor-core kernels are
  // checked by gemm_tensorcore).
  std::vector<std::string> kernels;
  {
    std::string all = tessera_gemm_kernels_for(TESSERA_F32);
    size_t p = 0;
    while (p <= all.size()) {
      size_t q = all.find(',', p);
      if (q == std::string::npos) q = all.size();
      kernels.push_back(all.substr(p, q - p));
      p = q + 1;
    }
  }

  int runs = 0, failures = 0;
  double worst = 0;
  const float qnan = std::nanf("");
  int variant = 0;
  for (Size s : sizes) {
    for (char ta : {'N', 'T'}) {
      for (char tb : {'N', 'T'}) {
        for (float beta : {0.0f, 0.5f}) {
          const int64_t pad = (variant++ % 2) ? 3 : 0;
          const int64_t ra = ta == 'N' ? s.m : s.k, ca = ta == 'N' ? s.k : s.m;
          const int64_t rb = tb == 'N' ? s.k : s.n, cb = tb == 'N' ? s.n : s.k;
          const int64_t lda = ra + pad, ldb = rb + pad, ldc = s.m + pad;
          const float alpha = 1.25f;
          auto hA = random_matrix(lda * ca), hB = random_matrix(ldb * cb);
          auto hC0 = random_matrix(ldc * s.n);
          // float64 reference and the abs-product bound, by cublasDgemm.
          std::vector<double> dA(hA.begin(), hA.end()), dB(hB.begin(), hB.end()),
              dC(hC0.begin(), hC0.end());
          std::vector<double> aA(dA.size()), aB(dB.size()), aC(dC.size());
          for (size_t i = 0; i < dA.size(); ++i) aA[i] = std::fabs(dA[i]);
          for (size_t i = 0; i < dB.size(); ++i) aB[i] = std::fabs(dB[i]);
          for (size_t i = 0; i < dC.size(); ++i) aC[i] = std::fabs(dC[i]);
          double *gA = to_device(dA), *gB = to_device(dB), *gC = to_device(dC);
          double *gaA = to_device(aA), *gaB = to_device(aB), *gaC = to_device(aC);
          const double al = alpha, be = beta, aal = std::fabs(alpha), abe = std::fabs(beta);
          auto op = [](char t) { return t == 'N' ? CUBLAS_OP_N : CUBLAS_OP_T; };
          CHECK_CUBLAS(cublasDgemm(handle, op(ta), op(tb), int(s.m), int(s.n), int(s.k), &al, gA,
                                   int(lda), gB, int(ldb), &be, gC, int(ldc)));
          CHECK_CUBLAS(cublasDgemm(handle, op(ta), op(tb), int(s.m), int(s.n), int(s.k), &aal, gaA,
                                   int(lda), gaB, int(ldb), &abe, gaC, int(ldc)));
          std::vector<double> ref(dC.size()), bound(dC.size());
          CHECK_CUDA(cudaMemcpy(ref.data(), gC, ref.size() * 8, cudaMemcpyDeviceToHost));
          CHECK_CUDA(cudaMemcpy(bound.data(), gaC, bound.size() * 8, cudaMemcpyDeviceToHost));
          for (double* p : {gA, gB, gC, gaA, gaB, gaC}) CHECK_CUDA(cudaFree(p));

          float *fA = to_device(hA), *fB = to_device(hB), *fC = nullptr;
          CHECK_CUDA(cudaMalloc(&fC, hC0.size() * 4));
          const double tol = 8.0 * double(s.k + 2) * std::ldexp(1.0, -24);
          std::vector<float> out(hC0.size());
          for (auto const& kname : kernels) {
            if (beta == 0.0f) {
              std::vector<float> poison(hC0.size(), qnan);
              CHECK_CUDA(cudaMemcpy(fC, poison.data(), poison.size() * 4, cudaMemcpyHostToDevice));
            } else {
              CHECK_CUDA(cudaMemcpy(fC, hC0.data(), hC0.size() * 4, cudaMemcpyHostToDevice));
            }
            int st = tessera_gemm_named(kname.c_str(), TESSERA_F32, ta, tb, s.m, s.n, s.k, alpha,
                                        fA, lda, fB, ldb, beta, fC, ldc, nullptr);
            CHECK_CUDA(cudaDeviceSynchronize());
            ++runs;
            if (st != TESSERA_SUCCESS) {
              std::printf("FAIL %s %c%c m=%ld n=%ld k=%ld: status %d (%s)\n", kname.c_str(), ta, tb,
                          long(s.m), long(s.n), long(s.k), st, tessera_status_string(st));
              ++failures;
              continue;
            }
            CHECK_CUDA(cudaMemcpy(out.data(), fC, out.size() * 4, cudaMemcpyDeviceToHost));
            double err = 0;
            int64_t bad = -1;
            bool pad_ok = true;
            for (int64_t j = 0; j < s.n; ++j) {
              for (int64_t i = 0; i < ldc; ++i) {
                size_t idx = size_t(i + j * ldc);
                if (i >= s.m) {  // padding rows of C must be untouched
                  bool same = beta == 0.0f ? std::isnan(out[idx]) : out[idx] == hC0[idx];
                  pad_ok = pad_ok && same;
                  continue;
                }
                double e =
                    std::fabs(double(out[idx]) - ref[idx]) / (bound[idx] > 0 ? bound[idx] : 1);
                if (!(e <= err)) {  // NaN counts as the worst
                  err = std::isnan(e) ? INFINITY : e;
                  bad = int64_t(idx);
                }
              }
            }
            worst = std::fmax(worst, err);
            if (!(err <= tol) || !pad_ok) {
              ++failures;
              std::printf(
                  "FAIL %s %c%c m=%ld n=%ld k=%ld lda=%ld beta=%g: max err %.3g (tol %.3g) at "
                  "(%ld,%ld) got %g want %g%s\n",
                  kname.c_str(), ta, tb, long(s.m), long(s.n), long(s.k), long(lda), beta, err, tol,
                  long(bad % ldc), long(bad / ldc), bad >= 0 ? out[bad] : 0.0,
                  bad >= 0 ? ref[bad] : 0.0, pad_ok ? "" : " (padding of C was written)");
            }
          }
          CHECK_CUDA(cudaFree(fA));
          CHECK_CUDA(cudaFree(fB));
          CHECK_CUDA(cudaFree(fC));
        }
      }
    }
  }

  // BLAS quick returns through the ABI: k = 0 scales by beta (beta = 0 writes zeros over NaN),
  // m = 0 / n = 0 touch nothing.
  {
    const int64_t m = 37, n = 5, ldc = 40;
    auto hC = random_matrix(ldc * n);
    float* fC = to_device(hC);
    std::vector<float> out(hC.size());
    for (auto const& kname : kernels) {
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
      std::vector<float> poison(hC.size(), qnan);
      CHECK_CUDA(cudaMemcpy(fC, poison.data(), poison.size() * 4, cudaMemcpyHostToDevice));
      st = tessera_gemm_named(kname.c_str(), TESSERA_F32, 'T', 'T', m, n, 0, 1.0f, nullptr, 1,
                              nullptr, n, 0.0f, fC, ldc, nullptr);
      CHECK_CUDA(cudaDeviceSynchronize());
      CHECK_CUDA(cudaMemcpy(out.data(), fC, out.size() * 4, cudaMemcpyDeviceToHost));
      ok = ok && st == 0;
      for (int64_t j = 0; j < n; ++j)
        for (int64_t i = 0; i < m; ++i) ok = ok && out[size_t(i + j * ldc)] == 0.0f;
      // m = 0: nothing is touched (B must still be a pointer: it is 7 x n).
      st = tessera_gemm_named(kname.c_str(), TESSERA_F32, 'N', 'N', 0, n, 7, 1.0f, nullptr, 1,
                              fC, 7, 0.0f, nullptr, 1, nullptr);
      ok = ok && st == 0;
      ++runs;
      if (!ok) {
        ++failures;
        std::printf("FAIL %s: BLAS quick returns (k = 0 scaling, m = 0)\n", kname.c_str());
      }
    }
    CHECK_CUDA(cudaFree(fC));
  }
  CHECK_CUDA(cudaGetLastError());
  cublasDestroy(handle);
  std::printf("gemm_correctness: %d runs, %d failures, worst normalised error %.3g%s\n", runs,
              failures, worst, small ? " (--small)" : tiny ? " (--tiny)" : "");
  return failures ? 1 : 0;
}
