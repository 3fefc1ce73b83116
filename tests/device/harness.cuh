// tests/device/harness.cuh -- what every GPU test and benchmark program shares: fatal checks of
// CUDA and cuBLAS calls, and the timing rule (CUDA events, 5 warm-ups, median, GPU time unless
// TESSERA_BENCH_TIMING=call; the host's time per call apart).
#pragma once

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <utility>
#include <vector>

#include <cuda_profiler_api.h>
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

// How many input sets (A, B, C) a benchmark rotates over: enough to fill 4x the L2, so that the
// caches do not flatter, and at most 16.
inline int input_sets(int64_t bytes_per_set, int l2_bytes) {
  return int(
      std::min<int64_t>(16, std::max<int64_t>(1, 4 * int64_t(l2_bytes) / bytes_per_set + 1)));
}

// Prints a results table on stdout after the GPU's name and writes it, and its JSON form, to the
// files named (an empty name: not written).
inline void write_tables(cudaDeviceProp const& prop, std::string const& md, std::string const& json,
                         std::string const& md_path, std::string const& json_path) {
  std::printf("GPU: %s (%d SMs, L2 %d MB)\n%s", prop.name, prop.multiProcessorCount,
              prop.l2CacheSize >> 20, md.c_str());
  for (auto const& [path, text] : {std::pair{&md_path, &md}, std::pair{&json_path, &json}})
    if (!path->empty())
      if (FILE* f = std::fopen(path->c_str(), "w")) {
        std::fputs(text->c_str(), f);
        std::fclose(f);
      }
}

// Whether the environment variable `name` is set to `value`.
inline bool env_is(const char* name, const char* value) {
  const char* v = std::getenv(name);
  return v && std::string(v) == value;
}

// What timing a benchmark takes: TESSERA_BENCH_TIMING=call times each launch from an idle GPU, so
// that the host's work for the call (argument checks, tensor maps, launch) is in the time; the
// default, gpu, puts a 100 us busy wait before each timed pair, so that the host has queued both
// launches before the GPU starts them and the time is the GPU's (host time: host_us_per_call).
inline bool timing_includes_host() {
  static const bool call = env_is("TESSERA_BENCH_TIMING", "call");
  return call;
}

#ifdef __CUDACC__  // the timing below launches a kernel; host programs (.cpp) go without it

// Keeps the GPU busy for `us` microseconds (its global timer), so that the host can queue the
// launches after it before the GPU reaches them.
static __global__ void busy_wait_kernel(unsigned long long us) {
  unsigned long long t0, t;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t0));
  do asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t)); while (t - t0 < us * 1000);
}
inline void busy_wait(unsigned long long us) {
  busy_wait_kernel<<<1, 1>>>(us);
  CHECK_CUDA(cudaGetLastError());
}

// Host microseconds per call of `launch`: 16 calls queued behind a busy GPU (none waits for the
// GPU), the median of 5 such rounds. 0 without measuring under TESSERA_BENCH_HOST=0 (profiler
// runs).
template <class F>
double host_us_per_call(F&& launch, int sets) {
  if (env_is("TESSERA_BENCH_HOST", "0")) return 0;
  std::vector<double> t;
  for (int round = 0; round < 5; ++round) {
    busy_wait(2000);
    const auto t0 = std::chrono::steady_clock::now();
    for (int i = 0; i < 16; ++i) launch(i % sets);
    const auto t1 = std::chrono::steady_clock::now();
    CHECK_CUDA(cudaDeviceSynchronize());
    t.push_back(std::chrono::duration<double, std::micro>(t1 - t0).count() / 16);
  }
  std::sort(t.begin(), t.end());
  return t[t.size() / 2];
}

// Two launchers timed alternately (a b, b a, a b, ...), so that both see the same clocks and
// power state (a long GEMM can lower the clock of whatever runs after it); medians of each.
// TESSERA_BENCH_PROFILE=1: after the warm-ups, one call of each (a, then b) between
// cudaProfilerStart and cudaProfilerStop, for a profiler run with --profile-from-start off
// (bench/profile_misses.sh): the pair's kernels and nothing else.
template <class F, class G>
std::pair<double, double> median_ms_pair(F&& launch_a, G&& launch_b, int reps, int sets) {
  cudaEvent_t e[3];
  for (auto& x : e) CHECK_CUDA(cudaEventCreate(&x));
  for (int i = 0; i < 5; ++i) launch_a(i % sets), launch_b(i % sets);
  CHECK_CUDA(cudaDeviceSynchronize());
  if (env_is("TESSERA_BENCH_PROFILE", "1")) {
    CHECK_CUDA(cudaProfilerStart());
    launch_a(0);
    CHECK_CUDA(cudaDeviceSynchronize());
    launch_b(0);
    CHECK_CUDA(cudaDeviceSynchronize());
    CHECK_CUDA(cudaProfilerStop());
  }
  std::vector<float> ta(size_t(reps), 0.0f), tb(size_t(reps), 0.0f);
  for (int i = 0; i < reps; ++i) {
    const bool a_first = i % 2 == 0;
    if (!timing_includes_host()) busy_wait(100);
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

#endif  // __CUDACC__
