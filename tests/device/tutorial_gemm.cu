// tests/device/tutorial_gemm.cu -- the host driver of docs/writing-a-kernel.md (GPU).
//
// Runs the tutorial's kernel (kernels/tutorial/tutorial_gemm.cu, C = alpha A B^T + beta C,
// column-major, cuBLAS's gemm(N, T)):
//   1. correctness on fresh random inputs in [-1, 1) (never zero; the seed is printed, --seed
//      repeats it), odd sizes, k = 0, beta 0 (C starts as NaN: every element must be written and
//      none read) and beta 0.75; A, B and C sit inside larger buffers: A's and B's rows between
//      m (n) and lda (ldb) and the guard columns around them hold NaN (a kernel that reads them
//      produces NaN), C's rows between m and ldc and its guard columns hold a sentinel that must
//      be intact bit for bit afterwards. Reference: float64 on the host; an element passes when
//      |out - ref| <= 1e-5 * (|alpha| sum_k |a||b| + |beta c|);
//   2. the launcher's refusals (misaligned lda, ldb < n): cudaErrorInvalidValue, C untouched;
//   3. speed against cuBLAS SGEMM (N, T; CUBLAS_DEFAULT_MATH, no TF32) in the same run: CUDA
//      events, launches alternating, median of 30, inputs rotated over enough sets to exceed
//      4x L2; the max relative error to cuBLAS, max |tessera - cuBLAS| / max |cuBLAS|.
//
//   tutorial_gemm [--small] [--seed S] [--sizes MxNxK,...|none] [--md FILE]   exit 0: all passed
//   (--small: the correctness cases under 10^6 m*n*k and no benchmark, for compute-sanitizer)
//
// Build: nvcc -std=c++20 -O3 -arch=sm_90a -Iinclude tests/device/tutorial_gemm.cu -lcublas
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include <cublas_v2.h>

#include "../../kernels/tutorial/tutorial_gemm.cu"
#include "harness.cuh"

namespace {

std::mt19937_64 rng;
float random_value() {
  float x = std::uniform_real_distribution<float>(-1.0f, 1.0f)(rng);
  return x == 0.0f ? 0.5f : x;
}

// A rows x cols column-major block with leading dimension ld inside a buffer: `lead` elements
// before it (a multiple of 4: 16-byte aligned) and one guard column after it.
struct Embedded {
  int64_t rows, cols, ld, lead, total;
  Embedded(int64_t r, int64_t c, int64_t l)
      : rows(r), cols(c), ld(l), lead((l + 3) / 4 * 4), total(lead + l * (c + 1)) {}
  bool inside(int64_t i) const {
    const int64_t x = i - lead;
    return x >= 0 && x < ld * cols && x % ld < rows;
  }
  int64_t at(int64_t r, int64_t c) const { return lead + r + c * ld; }
};

constexpr uint32_t kSentinel = 0x5a5a1234u;
uint32_t bits(float x) {
  uint32_t u;
  std::memcpy(&u, &x, 4);
  return u;
}

struct Device {
  float* p = nullptr;
  explicit Device(std::vector<float> const& h) {
    CHECK_CUDA(cudaMalloc(&p, h.size() * 4 + 16));
    CHECK_CUDA(cudaMemcpy(p, h.data(), h.size() * 4, cudaMemcpyHostToDevice));
  }
  ~Device() { cudaFree(p); }
  std::vector<float> get(size_t n) const {
    std::vector<float> h(n);
    CHECK_CUDA(cudaMemcpy(h.data(), p, n * 4, cudaMemcpyDeviceToHost));
    return h;
  }
};

// One case; returns the number of failures (0 or 1) and prints the worst error.
int check_case(int64_t m, int64_t n, int64_t k, int64_t lda, int64_t ldb, int64_t ldc, float beta) {
  const float alpha = 1.25f, nan = std::nanf("");
  const Embedded ea(m, k, lda), eb(n, k, ldb), ec(m, n, ldc);
  std::vector<float> a(size_t(ea.total), nan), b(size_t(eb.total), nan), c(size_t(ec.total), 0.0f);
  for (auto& x : c) std::memcpy(&x, &kSentinel, 4);
  for (int64_t j = 0; j < k; ++j)
    for (int64_t i = 0; i < m; ++i) a[size_t(ea.at(i, j))] = random_value();
  for (int64_t j = 0; j < k; ++j)
    for (int64_t i = 0; i < n; ++i) b[size_t(eb.at(i, j))] = random_value();
  for (int64_t j = 0; j < n; ++j)
    for (int64_t i = 0; i < m; ++i) c[size_t(ec.at(i, j))] = beta == 0.0f ? nan : random_value();
  Device da(a), db(b), dc(c);
  const cudaError_t e = tutorial::gemm_nt(m, n, k, alpha, da.p + ea.lead, lda, db.p + eb.lead, ldb,
                                          beta, dc.p + ec.lead, ldc);
  CHECK_CUDA(cudaDeviceSynchronize());
  const std::vector<float> out = dc.get(c.size());
  char what[200] = "";
  double worst = 0;
  long long guards = 0, bad = 0;
  for (int64_t i = 0; i < ec.total; ++i)
    if (!ec.inside(i) && bits(out[size_t(i)]) != kSentinel) ++guards;
  for (int64_t j = 0; j < n && e == cudaSuccess; ++j)
    for (int64_t i = 0; i < m; ++i) {
      double ref = 0, mag = 0;
      for (int64_t p = 0; p < k; ++p) {
        const double x = a[size_t(ea.at(i, p))], y = b[size_t(eb.at(j, p))];
        ref += x * y, mag += std::fabs(x * y);
      }
      const double c0 = beta == 0.0f ? 0.0 : double(c[size_t(ec.at(i, j))]);
      ref = alpha * ref + beta * c0, mag = std::fabs(alpha) * mag + std::fabs(beta * c0);
      const double err = std::fabs(double(out[size_t(ec.at(i, j))]) - ref) / (mag > 0 ? mag : 1);
      if (!(err <= 1e-5)) ++bad;  // NaN fails too
      if (!(err <= worst)) worst = err;
    }
  if (e != cudaSuccess) std::snprintf(what, sizeof what, "launcher: %s", cudaGetErrorString(e));
  else if (guards)
    std::snprintf(what, sizeof what, "%lld elements outside C's block written", guards);
  else if (bad) std::snprintf(what, sizeof what, "%lld elements wrong", bad);
  std::printf(
      "%-4s m=%-5ld n=%-5ld k=%-5ld lda=%-5ld ldb=%-5ld ldc=%-5ld beta=%-4g worst %.2e %s\n",
      *what ? "FAIL" : "ok", long(m), long(n), long(k), long(lda), long(ldb), long(ldc), beta,
      worst, what);
  return *what ? 1 : 0;
}

// The launcher refuses what its 16-byte copies cannot do, and then launches nothing.
int check_refusal(int64_t m, int64_t n, int64_t k, int64_t lda, int64_t ldb, int64_t shift_a,
                  const char* why) {
  std::vector<float> a(size_t(lda * k + 8), 1.0f), b(size_t(ldb * k + 8), 1.0f),
      c(size_t(m * n), 7.0f);
  Device da(a), db(b), dc(c);
  const cudaError_t e =
      tutorial::gemm_nt(m, n, k, 1.0f, da.p + shift_a, lda, db.p, ldb, 0.0f, dc.p, m);
  CHECK_CUDA(cudaDeviceSynchronize());
  const bool untouched = dc.get(c.size()) == c;
  const bool ok = e == cudaErrorInvalidValue && untouched;
  std::printf("%-4s refused: %s (%s)\n", ok ? "ok" : "FAIL", why, cudaGetErrorString(e));
  return ok ? 0 : 1;
}

struct Speed {
  int64_t m, n, k;
  double ms, ms_cublas, rel_err;
};

Speed bench(cublasHandle_t h, int64_t m, int64_t n, int64_t k) {
  int l2 = 0;
  CHECK_CUDA(cudaDeviceGetAttribute(&l2, cudaDevAttrL2CacheSize, 0));
  const size_t per_set = size_t(m * k + n * k) * 4;
  const int sets = int(std::max<size_t>(1, (4 * size_t(l2) + per_set - 1) / per_set));
  std::vector<float> a(size_t(m * k) * sets), b(size_t(n * k) * sets);
  for (auto& x : a) x = random_value();
  for (auto& x : b) x = random_value();
  Device da(a), db(b), dc(std::vector<float>(size_t(m * n), 0.0f)),
      dr(std::vector<float>(size_t(m * n), 0.0f));
  const float alpha = 1.0f, beta = 0.0f;
  auto mine = [&](int s) {
    CHECK_CUDA(tutorial::gemm_nt(m, n, k, alpha, da.p + size_t(m * k) * s, m,
                                 db.p + size_t(n * k) * s, n, beta, dc.p, m));
  };
  auto theirs = [&](int s) {
    CHECK_CUBLAS(cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_T, int(m), int(n), int(k), &alpha,
                             da.p + size_t(m * k) * s, int(m), db.p + size_t(n * k) * s, int(n),
                             &beta, dr.p, int(m)));
  };
  auto [ms, ms_ref] = median_ms_pair(mine, theirs, 30, sets);
  mine(0), theirs(0);
  CHECK_CUDA(cudaDeviceSynchronize());
  const std::vector<float> out = dc.get(size_t(m * n)), ref = dr.get(size_t(m * n));
  double diff = 0, mag = 0;
  for (size_t i = 0; i < out.size(); ++i)
    diff = std::max(diff, double(std::fabs(out[i] - ref[i]))),
    mag = std::max(mag, double(std::fabs(ref[i])));
  return {m, n, k, ms, ms_ref, diff / mag};
}

}  // namespace

int main(int argc, char** argv) {
  unsigned long long seed = std::random_device{}();
  std::string sizes = "4096x4096x4096,8192x8192x8192", md;
  bool small = false;
  for (int i = 1; i < argc; ++i) {
    const bool value = i + 1 < argc;
    if (!std::strcmp(argv[i], "--small")) small = true;
    else if (!std::strcmp(argv[i], "--seed") && value) seed = std::strtoull(argv[++i], nullptr, 10);
    else if (!std::strcmp(argv[i], "--sizes") && value) sizes = argv[++i];
    else if (!std::strcmp(argv[i], "--md") && value) md = argv[++i];
    else {
      std::printf(
          "usage: tutorial_gemm [--small] [--seed S] [--sizes MxNxK,...|none] [--md FILE]\n");
      return 2;
    }
  }
  if (small) sizes = "none";
  rng.seed(seed);
  std::printf("tutorial GEMM (kernels/tutorial/tutorial_gemm.cu), seed %llu\n", seed);
  int failures = 0, cases = 0;
  // m, n, k, lda, ldb, ldc (lda, ldb multiples of 4), beta
  const int64_t shapes[][6] = {{1, 1, 1, 4, 4, 1},           {1, 1, 0, 4, 4, 3},
                               {5, 3, 7, 8, 4, 5},           {128, 128, 8, 128, 128, 128},
                               {127, 129, 9, 128, 132, 131}, {129, 257, 17, 132, 260, 130},
                               {255, 1, 33, 256, 4, 255},    {1, 300, 65, 4, 300, 2},
                               {64, 64, 1000, 64, 68, 65},   {333, 517, 1001, 336, 520, 335},
                               {130, 3, 16, 136, 8, 131},    {1024, 1024, 1024, 1024, 1024, 1024}};
  for (auto const& s : shapes)
    if (!small || s[0] * s[1] * s[2] < 1000000)
      for (float beta : {0.0f, 0.75f})
        failures += check_case(s[0], s[1], s[2], s[3], s[4], s[5], beta), ++cases;
  failures += check_refusal(5, 3, 7, 5, 4, 0, "lda = 5, not a multiple of 4"), ++cases;
  failures += check_refusal(5, 3, 7, 8, 4, 1, "A not 16-byte aligned"), ++cases;
  failures += check_refusal(5, 9, 7, 8, 8, 0, "ldb = 8 < n = 9"), ++cases;

  cublasHandle_t h;
  CHECK_CUBLAS(cublasCreate(&h));
  CHECK_CUBLAS(cublasSetMathMode(h, CUBLAS_DEFAULT_MATH));
  std::string table =
      "| M x N x K | tutorial TFLOP/s | cuBLAS SGEMM TFLOP/s | ratio | max rel err |\n| --- | --- "
      "| --- | --- | --- |\n";
  for (size_t p = 0; sizes != "none" && p < sizes.size();) {
    size_t q = sizes.find(',', p);
    if (q == std::string::npos) q = sizes.size();
    long long m = 0, n = 0, k = 0;
    if (std::sscanf(sizes.substr(p, q - p).c_str(), "%lldx%lldx%lld", &m, &n, &k) != 3) {
      std::printf("bad size\n");
      return 2;
    }
    p = q + 1;
    const Speed s = bench(h, m, n, k);
    const double flop = 2.0 * double(m) * double(n) * double(k);
    char row[200];
    std::snprintf(row, sizeof row, "| %lldx%lldx%lld | %.1f | %.1f | %.2f | %.1e |\n", m, n, k,
                  flop / s.ms / 1e9, flop / s.ms_cublas / 1e9, s.ms_cublas / s.ms, s.rel_err);
    table += row;
    if (!(s.rel_err < 1e-4)) ++failures;  // summation order differs from cuBLAS
    ++cases;
  }
  CHECK_CUBLAS(cublasDestroy(h));
  std::printf("\n%s\n", table.c_str());
  if (!md.empty())
    if (FILE* f = std::fopen(md.c_str(), "w")) std::fputs(table.c_str(), f), std::fclose(f);
  std::printf("%s: %d of %d checks failed (seed %llu)\n", failures ? "FAILED" : "PASSED", failures,
              cases, seed);
  return failures ? 1 : 0;
}
