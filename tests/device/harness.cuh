// tests/device/harness.cuh -- what every GPU test and benchmark program shares: fatal checks of
// CUDA and cuBLAS calls, and the timing rule (CUDA events, 5 warm-ups, median).
#pragma once

#include <algorithm>
#include <cstdio>
#include <cstdlib>
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
