// kernels/gemm/per_device_cache.hpp -- a number worked out once per GPU of the process (the CTAs a
// kernel keeps resident, the clusters it can launch at once) and remembered.
//
//   int n = per_device([](int device) { ... return answer; });   // 0: not known (no GPU, an error)
//
// Each call site's lambda has its own type, so it gets its own table. A positive answer is kept;
// 0 is not, so the next call asks again. Threads that race on a first call may each ask: they get
// the same answer and store it; the table's entries are read and written atomically, so no one
// reads a torn value.
// NOTE: the GCC/Clang atomic builtins rather than <atomic>: in C++20, <atomic> brings <mutex>,
// <system_error> and <string> into every kernel unit that includes this (check_kernel_includes.py).
#pragma once

#include <cuda_runtime.h>

namespace tessera::ladder {

inline constexpr int kMaxDevices = 64;

// ask(device) -> the value for the current device (> 0), or 0 where it cannot be known.
template <class Ask>
int per_device(Ask ask) {
  static int known[kMaxDevices] = {};
  int device = 0;
  if (cudaGetDevice(&device) != cudaSuccess || device < 0 || device >= kMaxDevices) return 0;
  int value = __atomic_load_n(&known[device], __ATOMIC_RELAXED);
  if (value == 0) {
    value = ask(device);
    if (value > 0) __atomic_store_n(&known[device], value, __ATOMIC_RELAXED);
  }
  return value;
}

}  // namespace tessera::ladder
