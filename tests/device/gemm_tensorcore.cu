// tests/device/gemm_tensorcore.cu -- the tensor-core kernels (TF32, F16, BF16) through the C ABI,
// on the GPU: correctness (default) and the benchmark against cuBLAS (--bench).
//
// Correctness. For each dtype, size (odd ones, non-multiples of the 128x128x32 tile in every
// dimension, odd K), op(A), op(B) in {N,T}^2 and beta in {0, 0.5}: fresh random inputs in [-1,1)
// (never zeros) generated on the device in the dtype, C poisoned with NaN before a beta = 0 run
// (every element must be written, C must not be read) or random for beta = 0.5; leading
// dimensions rounded up to 8 elements (16-byte aligned: the cp.async path) or padded by 3 (the
// element-by-element path). Reference: cublasDgemm on float64 copies of the rounded inputs. The
// error of each element is |out - ref| / (|alpha| sum_k |a||b| + |beta c|); the run passes when
// the largest is under the dtype's bound (bf16 1e-2: 8 bits of output; f16 and tf32 1e-3), no
// element is NaN and C's padding rows are untouched. ||out - ref|| / ||ref|| is reported too.
// Every other run asks for the kernel by name, the others take the built-in choice.
//
//   gemm_tensorcore [--small | --tiny]     --small: sizes <= 300 (memcheck), --tiny: two sizes
//   gemm_tensorcore --bench [--dtypes f16,bf16,tf32] [--sizes 4096x4096x4096,..] [--trans NN,..]
//                   [--kernels 04_mma_sync,05_wgmma_tma,auto] [--reps 30] [--md out.md] [--json
//                   out.json] (auto: the built-in choice)
// Benchmark: CUDA events per launch (GPU time: harness.cuh), 5 warm-ups, median of --reps, the
// host's time per call beside it, tessera and cuBLAS launches alternating (a long GEMM lowers
// the clock for whatever follows); inputs rotated over enough sets to exceed 4x the L2; cuBLAS
// (cublasGemmEx: F16/BF16 in and out with F32 compute, TF32 as CUBLAS_COMPUTE_32F_FAST_TF32) on
// the same data in the same process; error max |out - cuBLAS| / max |cuBLAS|. Exit status 0
// when everything passed.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <map>
#include <string>
#include <vector>

#include <cublas_v2.h>
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_runtime.h>
#include <tessera/gemm.h>
#include "harness.cuh"


namespace {

struct Size { int64_t m, n, k; };

size_t elem_bytes(tessera_dtype d) { return d == TESSERA_F16 || d == TESSERA_BF16 ? 2 : 4; }
const char* dtype_name(tessera_dtype d) {
  return d == TESSERA_F16 ? "f16" : d == TESSERA_BF16 ? "bf16" : d == TESSERA_TF32 ? "tf32" : "f32";
}
double tolerance(tessera_dtype d) { return d == TESSERA_BF16 ? 1e-2 : 1e-3; }
// Kernel 05 (and the built-in choice, which is 05 for most shapes) reads tf32 operands by
// truncation: each operand's relative error is below 2^-10, a product's below 2^-9 (see
// 05_wgmma_tma.cu). Kernel 06 computes TF32 in full fp32, well inside the same bound.
double tolerance(tessera_dtype d, const char* kernel) {
  const bool truncating = !kernel || std::strcmp(kernel, "04_mma_sync") != 0;
  return d == TESSERA_TF32 && truncating ? 1.0 / 512 : tolerance(d);
}

__device__ float load_as_float(const void* p, int64_t i, int d) {
  if (d == TESSERA_F16) return __half2float(static_cast<const __half*>(p)[i]);
  if (d == TESSERA_BF16) return __bfloat162float(static_cast<const __nv_bfloat16*>(p)[i]);
  return static_cast<const float*>(p)[i];
}
__device__ void store_from_float(void* p, int64_t i, int d, float x) {
  if (d == TESSERA_F16) static_cast<__half*>(p)[i] = __float2half_rn(x);
  else if (d == TESSERA_BF16) static_cast<__nv_bfloat16*>(p)[i] = __float2bfloat16_rn(x);
  else static_cast<float*>(p)[i] = x;
}

// Uniform [-1,1), never zero, rounded to the dtype; `dbl` (optional) gets the rounded value.
__global__ void fill_random(void* p, double* dbl, int64_t n, int d, uint64_t seed) {
  for (int64_t i = int64_t(blockIdx.x) * blockDim.x + threadIdx.x; i < n;
       i += int64_t(gridDim.x) * blockDim.x) {
    uint64_t x = (uint64_t(i) + 1) * 0x9E3779B97F4A7C15ull ^ (seed * 0xD1B54A32D192ED03ull);
    x ^= x >> 31, x *= 0xBF58476D1CE4E5B9ull, x ^= x >> 29;
    float u = float(x >> 40) * (1.0f / 16777216.0f) * 2.0f - 1.0f;
    if (u == 0.0f) u = 0.5f;
    store_from_float(p, i, d, u);
    if (dbl) dbl[i] = double(load_as_float(p, i, d));
  }
}
__global__ void fill_nan(void* p, int64_t n, int d) {
  for (int64_t i = int64_t(blockIdx.x) * blockDim.x + threadIdx.x; i < n;
       i += int64_t(gridDim.x) * blockDim.x)
    store_from_float(p, i, d, __int_as_float(0x7fc00000));
}
__global__ void abs_of(const double* x, double* y, int64_t n) {
  for (int64_t i = int64_t(blockIdx.x) * blockDim.x + threadIdx.x; i < n;
       i += int64_t(gridDim.x) * blockDim.x)
    y[i] = fabs(x[i]);
}

struct ErrStats {
  unsigned long long max_err_bits;  // a non-negative double's bits order like the double
  unsigned long long bad_padding, nan_count;
  double diff2, ref2;
  unsigned long long worst_index;
};

// Per element of C (ldc x n): padding rows untouched (bitwise equal to `before`), else the
// normalised error against the float64 reference.
__global__ void compare(const void* out, const void* before, const double* ref, const double* bound,
                        int64_t m, int64_t n, int64_t ldc, int d, ErrStats* st) {
  const size_t eb = d == TESSERA_F16 || d == TESSERA_BF16 ? 2 : 4;
  for (int64_t i = int64_t(blockIdx.x) * blockDim.x + threadIdx.x; i < ldc * n;
       i += int64_t(gridDim.x) * blockDim.x) {
    if (i % ldc >= m) {
      bool same =
          eb == 2 ? static_cast<const uint16_t*>(out)[i] == static_cast<const uint16_t*>(before)[i]
                  : static_cast<const uint32_t*>(out)[i] == static_cast<const uint32_t*>(before)[i];
      if (!same) atomicAdd(&st->bad_padding, 1ull);
      continue;
    }
    double o = load_as_float(out, i, d);
    double e = fabs(o - ref[i]) / (bound[i] > 0 ? bound[i] : 1.0);
    if (!(e == e)) {  // NaN: unwritten or wrong
      atomicAdd(&st->nan_count, 1ull);
      continue;
    }
    unsigned long long bits = __double_as_longlong(e);
    if (atomicMax(&st->max_err_bits, bits) < bits) st->worst_index = i;
    atomicAdd(&st->diff2, (o - ref[i]) * (o - ref[i]));
    atomicAdd(&st->ref2, ref[i] * ref[i]);
  }
}

void* dalloc(size_t bytes) {
  void* p = nullptr;
  CHECK_CUDA(cudaMalloc(&p, bytes > 0 ? bytes : 1));
  return p;
}
unsigned grid_for(int64_t n) {
  return unsigned(std::min<int64_t>(std::max<int64_t>((n + 255) / 256, 1), 4096));
}

tessera_dtype parse_dtype(std::string const& s) {
  return s == "f16"    ? TESSERA_F16
         : s == "bf16" ? TESSERA_BF16
         : s == "tf32" ? TESSERA_TF32
                       : TESSERA_F32;
}

// ---------------------------------------------------------------------------------------------
// The problem sizes of a run: odd and edge sizes always, large ones unless --small or --tiny.
std::vector<Size> correctness_sizes(bool small, bool tiny) {
  if (tiny) return {{7, 7, 7}, {129, 127, 33}};
  std::vector<Size> sizes;
  for (int64_t s : {1, 7, 127, 128, 129}) sizes.push_back({s, s, s});
  for (Size s : {Size{128, 128, 7}, Size{129, 127, 33}, Size{1, 200, 65}, Size{257, 3, 300}})
    sizes.push_back(s);
  if (!small)
    for (Size s : {Size{1000, 1000, 1000}, Size{256, 384, 1001}, Size{1000, 999, 999},
                   Size{4095, 4095, 4095}, Size{4096, 4096, 4096}, Size{8192, 8192, 8192}})
      sizes.push_back(s);
  return sizes;
}

// What a run has seen so far.
struct Tally {
  int runs = 0, failures = 0;
  double worst[4] = {0, 0, 0, 0};
  std::map<std::string, double> worst_of;  // "dtype kernel" -> worst normalised error
};

// One problem on the device: its operands (in the dtype and in float64), C's starting value C0,
// and the float64 references C = alpha op(A) op(B) + beta C0 and its bound |alpha| |op(A)|
// |op(B)| + |beta| |C0|.
struct Case {
  tessera_dtype d;
  Size s;
  char ta, tb;
  float alpha, beta;
  int64_t lda, ldb, ldc;
  void *A, *B, *C, *C0;
  double *ref, *bound;
};

// Runs kernel `kname` (nullptr: the built-in choice) on the case and compares C with the
// reference: error within the dtype's tolerance, no NaN, the padding rows untouched.
void check_kernel(Case const& c, const char* kname, ErrStats* st, Tally& tally) {
  const size_t eb = elem_bytes(c.d);
  const int64_t nc = c.ldc * c.s.n;
  const char* shown = kname ? kname : "(built-in)";
  CHECK_CUDA(cudaMemcpy(c.C, c.C0, nc * eb, cudaMemcpyDeviceToDevice));
  int status = tessera_gemm_named(kname, c.d, c.ta, c.tb, c.s.m, c.s.n, c.s.k, c.alpha, c.A, c.lda,
                                  c.B, c.ldb, c.beta, c.C, c.ldc, nullptr);
  CHECK_CUDA(cudaDeviceSynchronize());
  ++tally.runs;
  if (status != TESSERA_SUCCESS) {
    ++tally.failures;
    std::printf("FAIL %s %s %c%c m=%ld n=%ld k=%ld: status %d (%s)\n", shown, dtype_name(c.d), c.ta,
                c.tb, long(c.s.m), long(c.s.n), long(c.s.k), status, tessera_status_string(status));
    return;
  }
  CHECK_CUDA(cudaMemset(st, 0, sizeof(ErrStats)));
  compare<<<grid_for(nc), 256>>>(c.C, c.C0, c.ref, c.bound, c.s.m, c.s.n, c.ldc, c.d, st);
  ErrStats h;
  CHECK_CUDA(cudaMemcpy(&h, st, sizeof h, cudaMemcpyDeviceToHost));
  double err;
  std::memcpy(&err, &h.max_err_bits, 8);
  const double rel = h.ref2 > 0 ? std::sqrt(h.diff2 / h.ref2) : std::sqrt(h.diff2);
  tally.worst[c.d] = std::max(tally.worst[c.d], err);
  double& w = tally.worst_of[std::string(dtype_name(c.d)) + " " + shown];
  w = std::max(w, err);
  if (!(err <= tolerance(c.d, kname)) || h.nan_count || h.bad_padding) {
    ++tally.failures;
    std::printf(
        "FAIL %s %s %c%c m=%ld n=%ld k=%ld lda=%ld beta=%g: max err %.3g (tol %.0e) at "
        "(%ld,%ld), ||err||/||ref|| %.3g, %llu NaN, %llu padding elements written\n",
        shown, dtype_name(c.d), c.ta, c.tb, long(c.s.m), long(c.s.n), long(c.s.k), long(c.lda),
        c.beta, err, tolerance(c.d, kname), long(h.worst_index % c.ldc),
        long(h.worst_index / c.ldc), rel, h.nan_count, h.bad_padding);
  }
}

// Variant number `variant` of the run: the problem (d, s, ta, tb, beta) on fresh random inputs
// in padded buffers (leading dimensions aligned or not), every tensor-core kernel by name, then
// (every other variant) the built-in choice.
void check_problem(cublasHandle_t handle, ErrStats* st, Case c, int variant, Tally& tally) {
  const size_t eb = elem_bytes(c.d);
  const Size s = c.s;
  // NOTE: beta is the innermost loop, so variant's parity follows beta: alignment alternates every
  // two variants so that beta = 0 (the TMA-store epilogue) meets both aligned and unaligned C
  // (with variant % 2 it met only unaligned C and the TMA store's writes past m went unseen).
  const bool aligned = (variant / 2) % 2 == 0;
  const int64_t ra = c.ta == 'N' ? s.m : s.k, ca = c.ta == 'N' ? s.k : s.m;
  const int64_t rb = c.tb == 'N' ? s.k : s.n, cb = c.tb == 'N' ? s.n : s.k;
  auto ld_of = [&](int64_t rows) { return aligned ? (rows + 7) / 8 * 8 : rows + 3; };
  c.lda = ld_of(ra), c.ldb = ld_of(rb), c.ldc = ld_of(s.m);
  const int64_t na = c.lda * ca, nb = c.ldb * cb, nc = c.ldc * s.n;
  c.A = dalloc(na * eb), c.B = dalloc(nb * eb), c.C = dalloc(nc * eb), c.C0 = dalloc(nc * eb);
  double *dA = static_cast<double*>(dalloc(na * 8)), *dB = static_cast<double*>(dalloc(nb * 8)),
         *dC = static_cast<double*>(dalloc(nc * 8));
  double *aA = static_cast<double*>(dalloc(na * 8)), *aB = static_cast<double*>(dalloc(nb * 8)),
         *aC = static_cast<double*>(dalloc(nc * 8));
  const uint64_t seed = 1000 * uint64_t(variant);
  fill_random<<<grid_for(na), 256>>>(c.A, dA, na, c.d, seed + 1);
  fill_random<<<grid_for(nb), 256>>>(c.B, dB, nb, c.d, seed + 2);
  if (c.beta == 0.0f) {
    fill_nan<<<grid_for(nc), 256>>>(c.C0, nc, c.d);
    CHECK_CUDA(cudaMemset(dC, 0, nc * 8));
  } else {
    fill_random<<<grid_for(nc), 256>>>(c.C0, dC, nc, c.d, seed + 3);
  }
  abs_of<<<grid_for(na), 256>>>(dA, aA, na);
  abs_of<<<grid_for(nb), 256>>>(dB, aB, nb);
  abs_of<<<grid_for(nc), 256>>>(dC, aC, nc);
  const double al = c.alpha, be = c.beta, aal = std::fabs(c.alpha), abe = std::fabs(c.beta);
  auto op = [](char t) { return t == 'N' ? CUBLAS_OP_N : CUBLAS_OP_T; };
  CHECK_CUBLAS(cublasDgemm(handle, op(c.ta), op(c.tb), int(s.m), int(s.n), int(s.k), &al, dA,
                           int(c.lda), dB, int(c.ldb), &be, dC, int(c.ldc)));
  CHECK_CUBLAS(cublasDgemm(handle, op(c.ta), op(c.tb), int(s.m), int(s.n), int(s.k), &aal, aA,
                           int(c.lda), aB, int(c.ldb), &abe, aC, int(c.ldc)));
  c.ref = dC, c.bound = aC;
  // C starts from the same poisoned or random C0 for each kernel.
  std::vector<std::string> knames = split(tessera_gemm_kernels_for(c.d));
  if (variant % 2) knames.push_back("");
  for (std::string const& kn : knames)
    check_kernel(c, kn.empty() ? nullptr : kn.c_str(), st, tally);
  for (void* p : {c.A, c.B, c.C, c.C0}) CHECK_CUDA(cudaFree(p));
  for (double* p : {dA, dB, dC, aA, aB, aC}) CHECK_CUDA(cudaFree(p));
}

// BLAS quick returns: k = 0 scales C by beta (beta = 0 writes zeros over NaN).
bool check_quick_returns(tessera_dtype d) {
  const int64_t m = 37, n = 5, ldc = 40, nc = ldc * n;
  void* C = dalloc(nc * elem_bytes(d));
  double* dC = static_cast<double*>(dalloc(nc * 8));
  fill_random<<<grid_for(nc), 256>>>(C, dC, nc, d, 77);
  std::vector<double> before(nc);
  CHECK_CUDA(cudaMemcpy(before.data(), dC, nc * 8, cudaMemcpyDeviceToHost));
  int s1 = tessera_gemm(d, 'N', 'N', m, n, 0, 1.0f, nullptr, m, nullptr, 1, 0.5f, C, ldc, nullptr);
  CHECK_CUDA(cudaDeviceSynchronize());
  // C's raw bytes, converted here.
  std::vector<unsigned char> raw(nc * elem_bytes(d));
  CHECK_CUDA(cudaMemcpy(raw.data(), C, raw.size(), cudaMemcpyDeviceToHost));
  auto value = [&](int64_t i) -> double {
    if (d == TESSERA_TF32) { float f; std::memcpy(&f, &raw[i * 4], 4); return f; }
    uint16_t h; std::memcpy(&h, &raw[i * 2], 2);
    if (d == TESSERA_BF16) {
      uint32_t u = uint32_t(h) << 16;
      float f;
      std::memcpy(&f, &u, 4);
      return f;
    }
    return double(__half2float(*reinterpret_cast<__half*>(&h)));
  };
  bool ok = s1 == 0;
  for (int64_t j = 0; j < n; ++j)
    for (int64_t i = 0; i < ldc; ++i) {
      const int64_t x = i + j * ldc;
      const double want = i < m ? 0.5 * before[x] : before[x];
      ok = ok && std::fabs(value(x) - want) <= std::fabs(want) * tolerance(d);
    }
  fill_nan<<<grid_for(nc), 256>>>(C, nc, d);
  int s2 = tessera_gemm(d, 'T', 'T', m, n, 0, 1.0f, nullptr, 1, nullptr, n, 0.0f, C, ldc, nullptr);
  CHECK_CUDA(cudaDeviceSynchronize());
  CHECK_CUDA(cudaMemcpy(raw.data(), C, raw.size(), cudaMemcpyDeviceToHost));
  ok = ok && s2 == 0;
  for (int64_t j = 0; j < n; ++j)
    for (int64_t i = 0; i < m; ++i) ok = ok && value(i + j * ldc) == 0.0;
  CHECK_CUDA(cudaFree(C));
  CHECK_CUDA(cudaFree(dC));
  return ok;
}

int run_correctness(bool small, bool tiny) {
  cublasHandle_t handle;
  CHECK_CUBLAS(cublasCreate(&handle));
  const std::vector<Size> sizes = correctness_sizes(small, tiny);
  Tally tally;
  int variant = 0;
  ErrStats* st = static_cast<ErrStats*>(dalloc(sizeof(ErrStats)));
  for (tessera_dtype d : {TESSERA_F16, TESSERA_BF16, TESSERA_TF32}) {
    for (Size s : sizes)
      for (char ta : {'N', 'T'})
        for (char tb : {'N', 'T'})
          for (float beta : {0.0f, 0.5f}) {
            Case c{d, s, ta, tb, 1.25f, beta};
            check_problem(handle, st, c, ++variant, tally);
          }
    for (auto const& [key, w] : tally.worst_of)
      if (key.rfind(std::string(dtype_name(d)) + " ", 0) == 0)
        std::printf("  %s: worst normalised error %.3g\n", key.c_str(), w);
  }
  for (tessera_dtype d : {TESSERA_F16, TESSERA_BF16, TESSERA_TF32}) {
    ++tally.runs;
    if (!check_quick_returns(d)) {
      ++tally.failures;
      std::printf("FAIL %s: BLAS quick returns (k = 0 scaling)\n", dtype_name(d));
    }
  }
  CHECK_CUDA(cudaGetLastError());
  cublasDestroy(handle);
  std::printf(
      "gemm_tensorcore: %d runs, %d failures, worst normalised error f16 %.3g bf16 %.3g tf32 "
      "%.3g%s\n",
      tally.runs, tally.failures, tally.worst[TESSERA_F16], tally.worst[TESSERA_BF16],
      tally.worst[TESSERA_TF32],
      small  ? " (--small)"
      : tiny ? " (--tiny)"
             : "");
  return tally.failures ? 1 : 0;
}


__global__ void max_abs_diff(const void* out, const void* ref, int64_t n, int d, float* res) {
  float e = 0, r = 0;
  for (int64_t i = int64_t(blockIdx.x) * blockDim.x + threadIdx.x; i < n;
       i += int64_t(gridDim.x) * blockDim.x) {
    float o = load_as_float(out, i, d), x = load_as_float(ref, i, d);
    float diff = fabsf(o - x);
    e = diff == diff ? fmaxf(e, diff) : INFINITY;
    r = fmaxf(r, fabsf(x));
  }
  atomicMax(reinterpret_cast<int*>(&res[0]), __float_as_int(e));  // non-negative floats
  atomicMax(reinterpret_cast<int*>(&res[1]), __float_as_int(r));
}

struct BenchOptions {
  std::string dtypes = "f16,bf16,tf32", sizes = "4096x4096x4096,8192x8192x8192,8192x8192x1024";
  std::string trans = "NN", kernels = "04_mma_sync,05_wgmma_tma", md_path, json_path;
  int reps = 30;
};

// The options after --bench; false on an unknown one.
bool parse_bench_options(int argc, char** argv, BenchOptions& o) {
  for (int i = 2; i + 1 < argc; i += 2) {
    std::string k = argv[i], v = argv[i + 1];
    if (k == "--dtypes") o.dtypes = v;
    else if (k == "--sizes") o.sizes = v;
    else if (k == "--trans") o.trans = v;
    else if (k == "--kernels") o.kernels = v;
    else if (k == "--reps") o.reps = std::max(1, std::atoi(v.c_str()));
    else if (k == "--md") o.md_path = v;
    else if (k == "--json") o.json_path = v;
    else { std::fprintf(stderr, "unknown option %s\n", k.c_str()); return false; }
  }
  return true;
}

// The results so far: the markdown table and the JSON rows.
struct BenchTables {
  std::string md, json;
  bool first = true;
};

// One kernel's figures on one problem.
struct Timing {
  double ms, cublas_ms, err, host_us, cublas_host_us;
};

// Adds a row to the tables and prints it on standard error.
void add_row(BenchTables& out, std::string const& kname, std::string const& ds, Size s, char ta,
             char tb, double flop, Timing const& r) {
  const auto [ms, cublas_ms, err, host_us, cublas_host_us] = r;
  char line[512];
  std::snprintf(
      line, sizeof line,
      "| %s | %s | %ld | %ld | %ld | %c%c | %.3f | %.1f | %.3f | %.1f | %.3f | %.1e |\n",
      kname.c_str(), ds.c_str(), long(s.m), long(s.n), long(s.k), ta, tb, ms,
      flop / ms * 1e-9, cublas_ms, flop / cublas_ms * 1e-9, cublas_ms / ms, err);
  out.md += line;
  std::snprintf(line, sizeof line,
                "%s  {\"kernel\": \"%s\", \"dtype\": \"%s\", \"m\": %ld, \"n\": %ld, "
                "\"k\": %ld, \"op\": \"%c%c\", "
                "\"ms\": %.4f, \"tflops\": %.2f, \"cublas_ms\": %.4f, \"cublas_tflops\": "
                "%.2f, \"ratio\": %.4f, "
                "\"max_rel_err\": %.3e, \"host_us\": %.1f, \"cublas_host_us\": %.1f}",
                out.first ? "" : ",\n", kname.c_str(), ds.c_str(), long(s.m), long(s.n),
                long(s.k), ta, tb, ms, flop / ms * 1e-9, cublas_ms, flop / cublas_ms * 1e-9,
                cublas_ms / ms, err, host_us, cublas_host_us);
  out.json += line;
  out.first = false;
  std::fprintf(stderr,
               "  %-12s %-4s %5ldx%5ldx%5ld %c%c %8.3f ms %6.1f TFLOP/s | cuBLAS %8.3f ms "
               "%6.1f TFLOP/s | %.3fx | err %.1e | host %.1f / %.1f us\n",
               kname.c_str(), ds.c_str(), long(s.m), long(s.n), long(s.k), ta, tb, ms,
               flop / ms * 1e-9, cublas_ms, flop / cublas_ms * 1e-9, cublas_ms / ms, err,
               host_us, cublas_host_us);
}

// Every kernel on problem s of dtype ds in operation ta, tb: its error against cuBLAS on the first
// input set, then both timed (inputs rotated over enough sets to fill 4x the L2); a row each.
void bench_problem(cublasHandle_t handle, cudaDeviceProp const& prop, std::string const& ds,
                   Size s, char ta, char tb, BenchOptions const& o, float* res, BenchTables& out) {
  const tessera_dtype d = parse_dtype(ds);
  const size_t eb = elem_bytes(d);
  const cudaDataType_t ct = d == TESSERA_F16    ? CUDA_R_16F
                            : d == TESSERA_BF16 ? CUDA_R_16BF
                                                : CUDA_R_32F;
  const cublasComputeType_t comp =
      d == TESSERA_TF32 ? CUBLAS_COMPUTE_32F_FAST_TF32 : CUBLAS_COMPUTE_32F;
  const int64_t lda = ta == 'N' ? s.m : s.k, ldb = tb == 'N' ? s.k : s.n, ldc = s.m;
  const int64_t per_set = (s.m * s.k + s.k * s.n + s.m * s.n) * int64_t(eb);
  const int sets = input_sets(per_set, prop.l2CacheSize);
  std::vector<void*> A(sets), B(sets), C(sets);
  for (int i = 0; i < sets; ++i) {
    A[i] = dalloc(s.m * s.k * eb), B[i] = dalloc(s.k * s.n * eb), C[i] = dalloc(s.m * s.n * eb);
    fill_random<<<4096, 256>>>(A[i], nullptr, s.m * s.k, d, 1 + 3 * i);
    fill_random<<<4096, 256>>>(B[i], nullptr, s.k * s.n, d, 2 + 3 * i);
  }
  void* Cref = dalloc(s.m * s.n * eb);
  const float alpha = 1.0f, beta = 0.0f;
  auto op = [](char t) { return t == 'N' ? CUBLAS_OP_N : CUBLAS_OP_T; };
  auto run_cublas = [&](int i, void* c) {
    CHECK_CUBLAS(cublasGemmEx(handle, op(ta), op(tb), int(s.m), int(s.n), int(s.k), &alpha, A[i],
                              ct, int(lda), B[i], ct, int(ldb), &beta, c, ct, int(ldc), comp,
                              CUBLAS_GEMM_DEFAULT));
  };
  run_cublas(0, Cref);
  const double flop = 2.0 * double(s.m) * double(s.n) * double(s.k);
  for (auto const& kname : split(o.kernels)) {
    auto run = [&](int i) {
      int st = tessera_gemm_named(kname == "auto" ? nullptr : kname.c_str(), d, ta, tb, s.m, s.n,
                                  s.k, alpha, A[i], lda, B[i], ldb, beta, C[i], ldc, nullptr);
      if (st) {
        std::fprintf(stderr, "%s: %s\n", kname.c_str(), tessera_status_string(st));
        std::exit(3);
      }
    };
    fill_nan<<<4096, 256>>>(C[0], s.m * s.n, d);
    run(0);
    CHECK_CUDA(cudaMemset(res, 0, 8));
    max_abs_diff<<<1024, 256>>>(C[0], Cref, s.m * s.n, d, res);
    float h[2];
    CHECK_CUDA(cudaMemcpy(h, res, 8, cudaMemcpyDeviceToHost));
    const double err = h[1] > 0 ? h[0] / h[1] : h[0];
    // tessera and cuBLAS alternately, launch by launch (same clocks and power state).
    const auto [ms, cublas_ms] = median_ms_pair(
        run, [&](int i) { run_cublas(i, C[i]); }, o.reps, sets);
    const double host_us = host_us_per_call(run, sets);
    const double cublas_host_us = host_us_per_call([&](int i) { run_cublas(i, C[i]); }, sets);
    add_row(out, kname, ds, s, ta, tb, flop, {ms, cublas_ms, err, host_us, cublas_host_us});
  }
  for (int i = 0; i < sets; ++i) {
    CHECK_CUDA(cudaFree(A[i]));
    CHECK_CUDA(cudaFree(B[i]));
    CHECK_CUDA(cudaFree(C[i]));
  }
  CHECK_CUDA(cudaFree(Cref));
}

int run_bench(int argc, char** argv) {
  BenchOptions o;
  if (!parse_bench_options(argc, argv, o)) return 2;
  cudaDeviceProp prop;
  CHECK_CUDA(cudaGetDeviceProperties(&prop, 0));
  cublasHandle_t handle;
  CHECK_CUBLAS(cublasCreate(&handle));
  BenchTables out;
  out.md =
      "| kernel | dtype | M | N | K | op | tessera ms | tessera TFLOP/s | cuBLAS ms | cuBLAS "
      "TFLOP/s | ratio | max rel err |\n"
      "| --- | --- | ---: | ---: | ---: | --- | ---: | ---: | ---: | ---: | ---: | ---: |\n";
  out.json = "{\"gpu\": \"" + std::string(prop.name) + "\", \"reps\": " + std::to_string(o.reps) +
             ", \"rows\": [\n";
  float* res = static_cast<float*>(dalloc(8));
  for (auto const& ds : split(o.dtypes))
    for (auto const& ss : split(o.sizes)) {
      Size s{};
      if (std::sscanf(ss.c_str(), "%ldx%ldx%ld", &s.m, &s.n, &s.k) != 3) return 2;
      for (auto const& tt : split(o.trans))
        bench_problem(handle, prop, ds, s, tt[0], tt[1], o, res, out);
    }
  out.json += "\n]}\n";
  cublasDestroy(handle);
  write_tables(prop, out.md, out.json, o.md_path, o.json_path);
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  int devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
    std::printf("SKIPPED: no CUDA device\n");
    return 77;
  }
  if (argc > 1 && !std::strcmp(argv[1], "--bench")) return run_bench(argc, argv);
  return run_correctness(argc > 1 && !std::strcmp(argv[1], "--small"),
                         argc > 1 && !std::strcmp(argv[1], "--tiny"));
}
