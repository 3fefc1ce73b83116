// bench/gemm_bench.cu -- tessera-bench: the ladder against cuBLAS SGEMM, same process, same data.
//
// For each size and kernel: CUDA events around each launch (GPU time: tests/device/harness.cuh),
// 5 warm-ups, the median of --reps (default 30) timed launches, the host's time per call beside
// it, tessera's and cuBLAS's alternating (so both see the same clocks and power state); inputs
// rotated over enough sets (A, B, C) that the working set is at least 4x the L2, so caches do not
// flatter; TFLOP/s = 2mnk / time. cuBLAS runs in its default fp32 math mode (CUBLAS_DEFAULT_MATH:
// no TF32). The error is max |tessera - cuBLAS| / max |cuBLAS| on the first input set.
//
//   tessera-bench [--kernels 01_simt_global,03_simt_pipelined] [--sizes 4096x4096x4096,...]
//                 [--trans NN] [--reps 30] [--json out.json] [--md out.md]
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include <cublas_v2.h>
#include <cuda_runtime.h>
#include <tessera/gemm.h>
#include "../tests/device/harness.cuh"

struct Size { int64_t m, n, k; };
struct Row {
  std::string kernel;
  Size s;
  char ta, tb;
  double ms, tflops, cublas_ms, cublas_tflops, err, host_us, cublas_host_us;
};

__global__ void fill_uniform(float* p, int64_t n, uint64_t seed) {
  for (int64_t i = int64_t(blockIdx.x) * blockDim.x + threadIdx.x; i < n;
       i += int64_t(gridDim.x) * blockDim.x) {
    uint64_t x = (uint64_t(i) + 1) * 0x9E3779B97F4A7C15ull ^ seed;
    x ^= x >> 31, x *= 0xBF58476D1CE4E5B9ull, x ^= x >> 29;
    float u = float(x >> 40) * (1.0f / 16777216.0f);  // [0,1)
    p[i] = u * 2.0f - 1.0f + (u == 0.5f ? 0.25f : 0.0f);
  }
}

struct Options {
  std::string kernels = tessera_gemm_kernels_for(TESSERA_F32);
  std::string sizes = "4096x4096x4096,8192x8192x8192,5120x5120x4096,1000x1000x1000,4095x4097x511";
  std::string trans = "NN", json_path, md_path;
  int reps = 30;
};

// The options (see the top of this file); false on an unknown one.
bool parse_options(int argc, char** argv, Options& o) {
  for (int i = 1; i + 1 < argc; i += 2) {
    std::string k = argv[i], v = argv[i + 1];
    if (k == "--kernels") o.kernels = v;
    else if (k == "--sizes") o.sizes = v;
    else if (k == "--trans") o.trans = v;
    else if (k == "--reps") o.reps = std::max(1, std::atoi(v.c_str()));
    else if (k == "--json") o.json_path = v;
    else if (k == "--md") o.md_path = v;
    else { std::fprintf(stderr, "unknown option %s\n", k.c_str()); return false; }
  }
  return true;
}

// The input sets of one problem: enough (A, B, C) that they fill at least 4x the L2, at most 16.
struct Inputs {
  std::vector<float*> A, B, C;
  Inputs(Size s, int l2_bytes) {
    const int64_t per_set = (s.m * s.k + s.k * s.n + s.m * s.n) * 4;
    const int sets = input_sets(per_set, l2_bytes);
    A.resize(sets), B.resize(sets), C.resize(sets);
    for (int i = 0; i < sets; ++i) {
      CHECK_CUDA(cudaMalloc(&A[i], s.m * s.k * 4));
      CHECK_CUDA(cudaMalloc(&B[i], s.k * s.n * 4));
      CHECK_CUDA(cudaMalloc(&C[i], s.m * s.n * 4));
      fill_uniform<<<1024, 256>>>(A[i], s.m * s.k, 1 + 3 * i);
      fill_uniform<<<1024, 256>>>(B[i], s.k * s.n, 2 + 3 * i);
    }
  }
  ~Inputs() {
    for (size_t i = 0; i < A.size(); ++i) {
      CHECK_CUDA(cudaFree(A[i]));
      CHECK_CUDA(cudaFree(B[i]));
      CHECK_CUDA(cudaFree(C[i]));
    }
  }
  int sets() const { return int(A.size()); }
};

// max |out - ref| / max |ref| (infinite where out holds a NaN).
double max_rel_err(std::vector<float> const& out, std::vector<float> const& ref) {
  double ref_max = 0, err = 0;
  for (float x : ref) ref_max = std::max(ref_max, double(std::fabs(x)));
  for (size_t i = 0; i < out.size(); ++i) {
    double e = std::fabs(double(out[i]) - double(ref[i]));
    err = std::isnan(e) ? INFINITY : std::max(err, e);
  }
  return err / (ref_max > 0 ? ref_max : 1);
}

// Every kernel on problem s in operation ta, tb: its error against cuBLAS on the first input
// set, then both timed; a row each.
void bench_problem(cublasHandle_t handle, cudaDeviceProp const& prop, Size s, char ta, char tb,
                   Options const& o, std::vector<Row>& rows) {
  const int64_t lda = ta == 'N' ? s.m : s.k, ldb = tb == 'N' ? s.k : s.n, ldc = s.m;
  Inputs in(s, prop.l2CacheSize);
  const float alpha = 1.0f, beta = 0.0f;
  auto op = [](char t) { return t == 'N' ? CUBLAS_OP_N : CUBLAS_OP_T; };
  auto run_cublas = [&](int i, float* c) {
    if (cublasSgemm(handle, op(ta), op(tb), int(s.m), int(s.n), int(s.k), &alpha, in.A[i], int(lda),
                    in.B[i], int(ldb), &beta, c, int(ldc)) != CUBLAS_STATUS_SUCCESS)
      std::exit(3);
  };
  float* Cref = nullptr;
  CHECK_CUDA(cudaMalloc(&Cref, s.m * s.n * 4));
  run_cublas(0, Cref);
  std::vector<float> ref(size_t(s.m * s.n)), out(ref.size());
  CHECK_CUDA(cudaMemcpy(ref.data(), Cref, ref.size() * 4, cudaMemcpyDeviceToHost));
  CHECK_CUDA(cudaFree(Cref));
  const double flop = 2.0 * double(s.m) * double(s.n) * double(s.k);
  for (auto const& kname : split(o.kernels)) {
    auto run = [&](int i) {
      int st = tessera_gemm_named(kname == "auto" ? nullptr : kname.c_str(), TESSERA_F32, ta, tb,
                                  s.m, s.n, s.k, alpha, in.A[i], lda, in.B[i], ldb, beta, in.C[i],
                                  ldc, nullptr);
      if (st) {
        std::fprintf(stderr, "%s: %s\n", kname.c_str(), tessera_status_string(st));
        std::exit(3);
      }
    };
    CHECK_CUDA(cudaMemset(in.C[0], 0xff, s.m * s.n * 4));  // NaN poison
    run(0);
    CHECK_CUDA(cudaDeviceSynchronize());
    CHECK_CUDA(cudaMemcpy(out.data(), in.C[0], out.size() * 4, cudaMemcpyDeviceToHost));
    const double err = max_rel_err(out, ref);
    // tessera and cuBLAS alternately, launch by launch (same clocks and power state).
    const auto [ms, cublas_ms] = median_ms_pair(
        run, [&](int i) { run_cublas(i, in.C[i]); }, o.reps, in.sets());
    const double host_us = host_us_per_call(run, in.sets());
    const double cublas_host_us =
        host_us_per_call([&](int i) { run_cublas(i, in.C[i]); }, in.sets());
    rows.push_back({kname, s, ta, tb, ms, flop / ms * 1e-9, cublas_ms, flop / cublas_ms * 1e-9, err,
                    host_us, cublas_host_us});
    std::fprintf(stderr,
                 "  %-18s %5ldx%5ldx%5ld %c%c  %8.3f ms %6.2f TFLOP/s | cuBLAS %8.3f ms %6.2f "
                 "TFLOP/s | %.3fx | err %.2e | host %.1f / %.1f us\n",
                 kname.c_str(), long(s.m), long(s.n), long(s.k), ta, tb, ms, flop / ms * 1e-9,
                 cublas_ms, flop / cublas_ms * 1e-9, cublas_ms / ms, err, host_us, cublas_host_us);
  }
}

// The rows as a markdown table and as JSON.
std::pair<std::string, std::string> tables(std::vector<Row> const& rows, const char* gpu,
                                           int reps) {
  std::string md =
      "| kernel | M | N | K | op | tessera ms | tessera TFLOP/s | cuBLAS ms | cuBLAS TFLOP/s | "
      "ratio | max rel err |\n"
      "| --- | ---: | ---: | ---: | --- | ---: | ---: | ---: | ---: | ---: | ---: |\n";
  std::string json = "{\"gpu\": \"" + std::string(gpu) + "\", \"reps\": " + std::to_string(reps) +
                     ", \"rows\": [\n";
  char line[512];
  for (size_t i = 0; i < rows.size(); ++i) {
    Row const& r = rows[i];
    std::snprintf(line, sizeof line,
                  "| %s | %ld | %ld | %ld | %c%c | %.3f | %.2f | %.3f | %.2f | %.3f | %.1e |\n",
                  r.kernel.c_str(), long(r.s.m), long(r.s.n), long(r.s.k), r.ta, r.tb, r.ms,
                  r.tflops, r.cublas_ms, r.cublas_tflops, r.cublas_ms / r.ms, r.err);
    md += line;
    std::snprintf(line, sizeof line,
                  "  {\"kernel\": \"%s\", \"m\": %ld, \"n\": %ld, \"k\": %ld, \"op\": \"%c%c\", "
                  "\"ms\": %.4f, "
                  "\"tflops\": %.3f, \"cublas_ms\": %.4f, \"cublas_tflops\": %.3f, \"ratio\": "
                  "%.4f, \"max_rel_err\": %.3e, "
                  "\"host_us\": %.1f, \"cublas_host_us\": %.1f}%s\n",
                  r.kernel.c_str(), long(r.s.m), long(r.s.n), long(r.s.k), r.ta, r.tb, r.ms,
                  r.tflops, r.cublas_ms, r.cublas_tflops, r.cublas_ms / r.ms, r.err, r.host_us,
                  r.cublas_host_us, i + 1 < rows.size() ? "," : "");
    json += line;
  }
  json += "]}\n";
  return {md, json};
}

int main(int argc, char** argv) {
  Options o;
  if (!parse_options(argc, argv, o)) return 2;
  int devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
    std::printf("SKIPPED: no CUDA device\n");
    return 77;
  }
  cudaDeviceProp prop;
  CHECK_CUDA(cudaGetDeviceProperties(&prop, 0));
  cublasHandle_t handle;
  if (cublasCreate(&handle) != CUBLAS_STATUS_SUCCESS) return 2;
  cublasSetMathMode(handle, CUBLAS_DEFAULT_MATH);

  std::vector<Row> rows;
  for (auto const& ss : split(o.sizes)) {
    Size s{};
    if (std::sscanf(ss.c_str(), "%ldx%ldx%ld", &s.m, &s.n, &s.k) != 3) return 2;
    for (auto const& tt : split(o.trans)) bench_problem(handle, prop, s, tt[0], tt[1], o, rows);
  }
  cublasDestroy(handle);

  // The table: markdown on stdout (and --md), JSON on request.
  const auto [md, json] = tables(rows, prop.name, o.reps);
  write_tables(prop, md, json, o.md_path, o.json_path);
  return 0;
}
