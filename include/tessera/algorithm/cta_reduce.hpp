// tessera/algorithm/cta_reduce.hpp -- a value reduced over all threads of a CTA (every thread
// gets the result), for rows longer than a warp holds: a butterfly inside each warp (shuffle xor
// 1, 2, .., 16), then the warps' values through shared memory. Reductions over the lanes of one
// warp that a partition says share a row are reduce_lanes (reduce.hpp).
//
//   __shared__ float red[kThreads / 32];
//   const float row_max = cta_reduce<kThreads>(thread_max, [](float a, float b) { return fmaxf(a,
//   b); }, red);
#pragma once

#include "../config.hpp"

namespace tessera {

#if defined(__CUDACC__)
// kThreads: the CTA's threads (a multiple of 32, at most 1024, all taking part); smem: kThreads /
// 32 values. op(a, b) associative and commutative.
template <int kThreads, class T, class Op>
__device__ inline T cta_reduce(T x, Op const& op, T* smem) {
  static_assert(kThreads % 32 == 0 && kThreads >= 32 && kThreads <= 1024,
                "cta_reduce: the CTA must be whole warps, at most 1024 threads");
  TESSERA_UNROLL
  for (int d = 1; d < 32; d *= 2) x = op(x, __shfl_xor_sync(0xffffffffu, x, d));
  if constexpr (kThreads > 32) {
    constexpr int kWarps = kThreads / 32;
    __syncthreads();  // smem is free: every thread has read an earlier call's values
    if (threadIdx.x % 32 == 0) smem[threadIdx.x / 32] = x;
    __syncthreads();
    x = smem[0];
    TESSERA_UNROLL
    for (int w = 1; w < kWarps; ++w) x = op(x, smem[w]);
  }
  return x;
}
#endif

}  // namespace tessera
