// examples/common.cuh -- the examples' host harness: guarded device buffers, NaN poison, a CUDA
// error check, timing against cudaMemcpy device-to-device in the same run.
#pragma once

#include <cuda_runtime.h>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#define EX_CHECK(call)                                                                            \
  do {                                                                                            \
    cudaError_t e_ = (call);                                                                      \
    if (e_ != cudaSuccess) {                                                                      \
      std::fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #call, cudaGetErrorString(e_)); \
      std::exit(2);                                                                               \
    }                                                                                             \
  } while (0)

namespace ex {

// A rows x cols column-major block with leading dimension ld >= rows inside a larger device
// buffer: kGuard elements before and after, and the rows between `rows` and `ld` of every
// column, hold a byte pattern that must survive the kernel (nothing outside the block written).
template <class T>
struct Guarded {
  static constexpr int64_t kGuard = 256;
  static constexpr unsigned char kPattern = 0xA5;
  int64_t rows = 0, cols = 0, ld = 0;
  T* base = nullptr;  // the whole allocation
  T* data = nullptr;  // the block's first element

  Guarded(int64_t r, int64_t c, int64_t l) : rows(r), cols(c), ld(l) {
    EX_CHECK(cudaMalloc(&base, bytes()));
    EX_CHECK(cudaMemset(base, kPattern, bytes()));
    data = base + kGuard;
  }
  ~Guarded() { cudaFree(base); }
  Guarded(Guarded const&) = delete;
  size_t elems() const { return size_t(ld * (cols > 0 ? cols : 1) + 2 * kGuard); }
  size_t bytes() const { return elems() * sizeof(T); }
  bool inside(size_t i) const {
    if (i < size_t(kGuard)) return false;
    const int64_t j = int64_t(i) - kGuard;
    return j < ld * cols && j % ld < rows;
  }
  // The block from host values (column-major, leading dimension rows); the guards stay.
  void upload(std::vector<T> const& v) const {
    EX_CHECK(cudaMemcpy2D(data, ld * sizeof(T), v.data(), rows * sizeof(T), rows * sizeof(T), cols,
                          cudaMemcpyHostToDevice));
  }
  std::vector<T> download() const {
    std::vector<T> v(size_t(rows * cols));
    EX_CHECK(cudaMemcpy2D(v.data(), rows * sizeof(T), data, ld * sizeof(T), rows * sizeof(T), cols,
                          cudaMemcpyDeviceToHost));
    return v;
  }
  // Every element of the block NaN (all bits set: a NaN in every floating-point format).
  void poison() const {
    EX_CHECK(cudaMemset2D(data, ld * sizeof(T), 0xFF, rows * sizeof(T), cols));
  }
  // The number of guard bytes that changed.
  int64_t broken_guards() const {
    std::vector<unsigned char> h(bytes());
    EX_CHECK(cudaMemcpy(h.data(), base, bytes(), cudaMemcpyDeviceToHost));
    int64_t bad = 0;
    for (size_t i = 0; i < elems(); ++i)
      if (!inside(i))
        for (size_t b = 0; b < sizeof(T); ++b) bad += h[i * sizeof(T) + b] != kPattern;
    return bad;
  }
};

// Deterministic pseudo-random values in [-1, 1) (never all zeros).
inline float uniform(uint64_t& s) {
  s = s * 6364136223846793005ull + 1442695040888963407ull;
  return float(int64_t(s >> 40) % 2000000) / 1e6f - 1.0f;
}

// n pseudo-random values of T in [-scale, scale) at p (device memory): benchmarks never time zeros.
template <class T>
void fill_random(T* p, size_t n, uint64_t seed, float scale = 1.0f) {
  std::vector<T> h(n);
  for (T& v : h) v = T(scale * uniform(seed));
  EX_CHECK(cudaMemcpy(p, h.data(), n * sizeof(T), cudaMemcpyHostToDevice));
}

// Milliseconds per launch of f, the median of `reps` timed launches after a warm-up.
template <class F>
float time_ms(F const& f, int reps = 20) {
  cudaEvent_t a, b;
  EX_CHECK(cudaEventCreate(&a));
  EX_CHECK(cudaEventCreate(&b));
  f();
  EX_CHECK(cudaDeviceSynchronize());
  std::vector<float> t(size_t(reps), 0.0f);
  for (int i = 0; i < reps; ++i) {
    EX_CHECK(cudaEventRecord(a));
    f();
    EX_CHECK(cudaEventRecord(b));
    EX_CHECK(cudaEventSynchronize(b));
    EX_CHECK(cudaEventElapsedTime(&t[size_t(i)], a, b));
  }
  cudaEventDestroy(a);
  cudaEventDestroy(b);
  for (int i = 1; i < reps; ++i)  // insertion sort: a handful of values
    for (int j = i; j > 0 && t[size_t(j)] < t[size_t(j - 1)]; --j)
      std::swap(t[size_t(j)], t[size_t(j - 1)]);
  return t[size_t(reps / 2)];
}

// Milliseconds of a device-to-device cudaMemcpy of `bytes` (reads and writes `bytes` each).
inline float memcpy_ms(size_t bytes) {
  void *src = nullptr, *dst = nullptr;
  EX_CHECK(cudaMalloc(&src, bytes));
  EX_CHECK(cudaMalloc(&dst, bytes));
  EX_CHECK(cudaMemset(src, 1, bytes));
  const float ms =
      time_ms([&] { EX_CHECK(cudaMemcpyAsync(dst, src, bytes, cudaMemcpyDeviceToDevice)); });
  cudaFree(src);
  cudaFree(dst);
  return ms;
}

// One results row: | example | size | dtype | GB/s | memcpy GB/s | ratio | (bytes moved: read +
// write).
inline void report(const char* name, const char* size, const char* dtype, size_t bytes, float ms,
                   float memcpy) {
  const double gbs = 2.0 * double(bytes) / (ms * 1e6), ref = 2.0 * double(bytes) / (memcpy * 1e6);
  std::printf("| %s | %s | %s | %.0f | %.0f | %.3f |\n", name, size, dtype, gbs, ref, gbs / ref);
}

}  // namespace ex
