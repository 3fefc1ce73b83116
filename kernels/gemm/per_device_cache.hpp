// kernels/gemm/per_device_cache.hpp -- a number worked out once per GPU of the process (the CTAs a
// kernel keeps resident, the clusters it can launch at once) and remembered.
//
//   int n = per_device([](int device) { ... return answer; });   // 0: not known (no GPU, an error)
//
// Each call site's lambda has its own type, so it gets its own table. A positive answer is kept;
// 0 is not, so the next call asks again. Threads that race on a first call may each ask: they get
// the same answer and store it, and the table's entries are atomics, so no one reads a torn value.
#pragma once

#include <cuda_runtime.h>

#include <atomic>

namespace tessera::ladder {

inline constexpr int kMaxDevices = 64;

// ask(device) -> the value for the current device (> 0), or 0 where it cannot be known.
template <class Ask>
int per_device(Ask ask) {
  static std::atomic<int> known[kMaxDevices] = {};
  int device = 0;
  if (cudaGetDevice(&device) != cudaSuccess || device < 0 || device >= kMaxDevices) return 0;
  int value = known[device].load(std::memory_order_relaxed);
  if (value == 0) {
    value = ask(device);
    if (value > 0) known[device].store(value, std::memory_order_relaxed);
  }
  return value;
}

}  // namespace tessera::ladder
