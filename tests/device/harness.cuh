// tests/device/harness.cuh -- what every GPU test and benchmark program shares: fatal checks of
// CUDA and cuBLAS calls, and the timing rule (CUDA events, 5 warm-ups, median).
#pragma once

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <utility>
#include <vector>

#include <cuda_runtime.h>

#define CHECK_CUDA(x)                                                                      \
  do {                                                                                     \
    cudaError_t e_ = (x);                                                                  \
    if (e_ != cudaSuccess) {                                                               \
      std::printf("FATAL %s:%d %s: %s\n", __FILE__, __LINE__, #x, cudaGetErrorString(e_)); \
      std::exit(2);                                                                        \
    }                                                                                      \
  } while (0)

#define CHECK_CUBLAS(x)                                                                     \
  do {                                                                                      \
    auto s_ = (x);                                                                          \
    if (int(s_) != 0) {                                                                     \
      std::printf("FATAL %s:%d %s: cublas status %d\n", __FILE__, __LINE__, #x, int(s_)); \
      std::exit(2);                                                                         \
    }                                                                                       \
  } while (0)

// The items of a comma-separated list ("4096x4096x4096,1000x1000x1000"), empty ones skipped.
inline std::vector<std::string> split(std::string const& s) {
  std::vector<std::string> out;
  for (size_t p = 0; p <= s.size();) {
    size_t q = s.find(',', p);
    if (q == std::string::npos) q = s.size();
    if (q > p) out.push_back(s.substr(p, q - p));
    p = q + 1;
  }
  return out;
}

// Median milliseconds of `reps` launches after 5 warm-ups; launch(i) gets the input set i % sets
// (rotated so that caches do not flatter the timing).
template <class F>
double median_ms(F&& launch, int reps, int sets) {
  cudaEvent_t a, b;
  CHECK_CUDA(cudaEventCreate(&a));
  CHECK_CUDA(cudaEventCreate(&b));
  for (int i = 0; i < 5; ++i) launch(i % sets);
  CHECK_CUDA(cudaDeviceSynchronize());
  std::vector<float> t(size_t(reps), 0.0f);
  for (int i = 0; i < reps; ++i) {
    CHECK_CUDA(cudaEventRecord(a));
    launch(i % sets);
    CHECK_CUDA(cudaEventRecord(b));
    CHECK_CUDA(cudaEventSynchronize(b));
    CHECK_CUDA(cudaEventElapsedTime(&t[size_t(i)], a, b));
  }
  CHECK_CUDA(cudaEventDestroy(a));
  CHECK_CUDA(cudaEventDestroy(b));
  std::sort(t.begin(), t.end());
  return t[t.size() / 2];
}

// Two launchers timed alternately (a b, b a, a b, ...), so that both see the same clocks and
// power state (a long GEMM can lower the clock of whatever runs after it); medians of each.
template <class F, class G>
std::pair<double, double> median_ms_pair(F&& launch_a, G&& launch_b, int reps, int sets) {
  cudaEvent_t e[3];
  for (auto& x : e) CHECK_CUDA(cudaEventCreate(&x));
  for (int i = 0; i < 5; ++i) launch_a(i % sets), launch_b(i % sets);
  CHECK_CUDA(cudaDeviceSynchronize());
  std::vector<float> ta(size_t(reps), 0.0f), tb(size_t(reps), 0.0f);
  for (int i = 0; i < reps; ++i) {
    const bool a_first = i % 2 == 0;
    CHECK_CUDA(cudaEventRecord(e[0]));
    if (a_first) launch_a(i % sets); else launch_b(i % sets);
    CHECK_CUDA(cudaEventRecord(e[1]));
    if (a_first) launch_b(i % sets); else launch_a(i % sets);
    CHECK_CUDA(cudaEventRecord(e[2]));
    CHECK_CUDA(cudaEventSynchronize(e[2]));
    float first = 0, second = 0;
    CHECK_CUDA(cudaEventElapsedTime(&first, e[0], e[1]));
    CHECK_CUDA(cudaEventElapsedTime(&second, e[1], e[2]));
    ta[size_t(i)] = a_first ? first : second;
    tb[size_t(i)] = a_first ? second : first;
  }
  for (auto& x : e) CHECK_CUDA(cudaEventDestroy(x));
  std::sort(ta.begin(), ta.end());
  std::sort(tb.begin(), tb.end());
  return {ta[ta.size() / 2], tb[tb.size() / 2]};
}
