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


int main(int argc, char** argv) {
  std::string kernels_arg = tessera_gemm_kernels_for(TESSERA_F32), sizes_arg =
      "4096x4096x4096,8192x8192x8192,5120x5120x4096,1000x1000x1000,4095x4097x511",
      trans_arg = "NN", json_path, md_path;
  int reps = 30;
  for (int i = 1; i + 1 < argc; i += 2) {
    std::string k = argv[i], v = argv[i + 1];
    if (k == "--kernels") kernels_arg = v;
    else if (k == "--sizes") sizes_arg = v;
    else if (k == "--trans") trans_arg = v;
    else if (k == "--reps") reps = std::max(1, std::atoi(v.c_str()));
    else if (k == "--json") json_path = v;
    else if (k == "--md") md_path = v;
    else { std::fprintf(stderr, "unknown option %s\n", k.c_str()); return 2; }
  }
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
  std::vector<std::string> kernels = split(kernels_arg);
  for (auto const& ss : split(sizes_arg)) {
    Size s{};
    if (std::sscanf(ss.c_str(), "%ldx%ldx%ld", &s.m, &s.n, &s.k) != 3) return 2;
    for (auto const& tt : split(trans_arg)) {
      const char ta = tt[0], tb = tt[1];
      const int64_t lda = ta == 'N' ? s.m : s.k, ldb = tb == 'N' ? s.k : s.n, ldc = s.m;
      const int64_t per_set = (s.m * s.k + s.k * s.n + s.m * s.n) * 4;
      const int sets = int(
          std::min<int64_t>(16, std::max<int64_t>(1, 4 * int64_t(prop.l2CacheSize) / per_set + 1)));
      std::vector<float*> A(sets), B(sets), C(sets);
      for (int i = 0; i < sets; ++i) {
        CHECK_CUDA(cudaMalloc(&A[i], s.m * s.k * 4));
        CHECK_CUDA(cudaMalloc(&B[i], s.k * s.n * 4));
        CHECK_CUDA(cudaMalloc(&C[i], s.m * s.n * 4));
        fill_uniform<<<1024, 256>>>(A[i], s.m * s.k, 1 + 3 * i);
        fill_uniform<<<1024, 256>>>(B[i], s.k * s.n, 2 + 3 * i);
      }
      float* Cref = nullptr;
      CHECK_CUDA(cudaMalloc(&Cref, s.m * s.n * 4));
      const float alpha = 1.0f, beta = 0.0f;
      auto op = [](char t) { return t == 'N' ? CUBLAS_OP_N : CUBLAS_OP_T; };
      auto run_cublas = [&](int i, float* c) {
        if (cublasSgemm(handle, op(ta), op(tb), int(s.m), int(s.n), int(s.k), &alpha, A[i],
                        int(lda), B[i], int(ldb), &beta, c, int(ldc)) != CUBLAS_STATUS_SUCCESS)
          std::exit(3);
      };
      run_cublas(0, Cref);
      std::vector<float> ref(size_t(s.m * s.n)), out(ref.size());
      CHECK_CUDA(cudaMemcpy(ref.data(), Cref, ref.size() * 4, cudaMemcpyDeviceToHost));
      double ref_max = 0;
      for (float x : ref) ref_max = std::max(ref_max, double(std::fabs(x)));
      const double flop = 2.0 * double(s.m) * double(s.n) * double(s.k);
      for (auto const& kname : kernels) {
        auto run = [&](int i) {
          int st = tessera_gemm_named(kname == "auto" ? nullptr : kname.c_str(), TESSERA_F32, ta,
                                      tb, s.m, s.n, s.k, alpha, A[i], lda, B[i], ldb, beta, C[i],
                                      ldc, nullptr);
          if (st) {
            std::fprintf(stderr, "%s: %s\n", kname.c_str(), tessera_status_string(st));
            std::exit(3);
          }
        };
        CHECK_CUDA(cudaMemset(C[0], 0xff, s.m * s.n * 4));  // NaN poison
        run(0);
        CHECK_CUDA(cudaDeviceSynchronize());
        CHECK_CUDA(cudaMemcpy(out.data(), C[0], out.size() * 4, cudaMemcpyDeviceToHost));
        double err = 0;
        for (size_t i = 0; i < out.size(); ++i) {
          double e = std::fabs(double(out[i]) - double(ref[i]));
          err = std::isnan(e) ? INFINITY : std::max(err, e);
        }
        err /= ref_max > 0 ? ref_max : 1;
        // tessera and cuBLAS alternately, launch by launch (same clocks and power state).
        const auto [ms, cublas_ms] = median_ms_pair(
            run, [&](int i) { run_cublas(i, C[i]); }, reps, sets);
        const double host_us = host_us_per_call(run, sets);
        const double cublas_host_us = host_us_per_call([&](int i) { run_cublas(i, C[i]); }, sets);
        rows.push_back({kname, s, ta, tb, ms, flop / ms * 1e-9, cublas_ms, flop / cublas_ms * 1e-9,
                        err, host_us, cublas_host_us});
        std::fprintf(stderr,
                     "  %-18s %5ldx%5ldx%5ld %c%c  %8.3f ms %6.2f TFLOP/s | cuBLAS %8.3f ms %6.2f "
                     "TFLOP/s | %.3fx | err %.2e | host %.1f / %.1f us\n",
                     kname.c_str(), long(s.m), long(s.n), long(s.k), ta, tb, ms, flop / ms * 1e-9,
                     cublas_ms, flop / cublas_ms * 1e-9, cublas_ms / ms, err, host_us,
                     cublas_host_us);
      }
      for (int i = 0; i < sets; ++i) {
        CHECK_CUDA(cudaFree(A[i]));
        CHECK_CUDA(cudaFree(B[i]));
        CHECK_CUDA(cudaFree(C[i]));
      }
      CHECK_CUDA(cudaFree(Cref));
    }
  }
  cublasDestroy(handle);

  // The table: markdown on stdout (and --md), JSON on request.
  std::string md =
      "| kernel | M | N | K | op | tessera ms | tessera TFLOP/s | cuBLAS ms | cuBLAS TFLOP/s | "
      "ratio | max rel err |\n"
      "| --- | ---: | ---: | ---: | --- | ---: | ---: | ---: | ---: | ---: | ---: |\n";
  std::string json = "{\"gpu\": \"" + std::string(prop.name) +
                     "\", \"reps\": " + std::to_string(reps) + ", \"rows\": [\n";
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
  std::printf("GPU: %s (%d SMs, L2 %d MB)\n%s", prop.name, prop.multiProcessorCount,
              prop.l2CacheSize >> 20, md.c_str());
  if (!md_path.empty())
    if (FILE* f = std::fopen(md_path.c_str(), "w")) {
      std::fputs(md.c_str(), f);
      std::fclose(f);
    }
  if (!json_path.empty())
    if (FILE* f = std::fopen(json_path.c_str(), "w")) {
      std::fputs(json.c_str(), f);
      std::fclose(f);
    }
  return 0;
}
