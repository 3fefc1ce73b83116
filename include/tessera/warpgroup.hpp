// tessera/warpgroup.hpp -- warpgroup roles of a warp-specialized Hopper kernel (sm_90a).
//
// A CTA of 128 (P + C) threads is P producer warpgroups then C consumer warpgroups:
//
//   const int wg = canonical_warp_group_idx();          // 0 .. P + C - 1, uniform in the warp
//   if (wg == 0) {
//     producer_role<40>();                              // give registers up (setmaxnreg.dec)
//     if (canonical_warp_idx_in_group() == 0 && elect_one_sync()) { ... TMA loads ... }
//   } else {
//     consumer_role<232>();                             // take them (setmaxnreg.inc)
//     const int consumer = wg - 1;  ...
//   }
//
// NOTE: setmaxnreg takes effect only when the kernel has a register cap at entry
// (__launch_bounds__(threads, 1)) and each role is one branch of a single if/else (ptxas warns
// C7508 otherwise). The indices are read through a warp shuffle so that the compiler knows they
// are uniform in the warp (one branch per warp, no divergence bookkeeping).
#pragma once

#include <cstdint>

#if defined(__CUDACC__)
#include "atom/sm90.hpp"

namespace tessera {

inline constexpr int kWarpGroupThreads = 128;

// The warp's index in the CTA (uniform in the warp).
__device__ __forceinline__ int canonical_warp_idx() {
  return __shfl_sync(0xffffffffu, int(threadIdx.x) / 32, 0);
}
// The warpgroup's index in the CTA (uniform in the warp).
__device__ __forceinline__ int canonical_warp_group_idx() {
  return __shfl_sync(0xffffffffu, int(threadIdx.x) / kWarpGroupThreads, 0);
}
// The warp's index in its warpgroup (0 .. 3).
__device__ __forceinline__ int canonical_warp_idx_in_group() { return canonical_warp_idx() % 4; }
// This thread in its warpgroup (0 .. 127).
__device__ __forceinline__ int thread_idx_in_warp_group() {
  return int(threadIdx.x) % kWarpGroupThreads;
}
// One lane of the warp (elect.sync): the one that issues a warp's single-thread work (TMA,
// barrier arrives) while the others skip it.
__device__ __forceinline__ bool elect_one_sync() { return ptx::elect_one_sync(); }

// The roles' register budgets: every warp of the warpgroup executes it, kRegs per thread a
// multiple of 8 in [24, 256]; producer + consumers * kConsumerRegs fit the 64K registers.
template <int kRegs>
__device__ __forceinline__ void producer_role() {
  static_assert(kRegs % 8 == 0 && kRegs >= 24 && kRegs <= 256,
                "setmaxnreg: a multiple of 8 in [24, 256]");
  ptx::setmaxnreg_dec<kRegs>();
}
template <int kRegs>
__device__ __forceinline__ void consumer_role() {
  static_assert(kRegs % 8 == 0 && kRegs >= 24 && kRegs <= 256,
                "setmaxnreg: a multiple of 8 in [24, 256]");
  ptx::setmaxnreg_inc<kRegs>();
}

// Consumer warpgroups taking turns to issue their wgmmas (FlashAttention-3's ping-pong): a
// warpgroup waits for its turn, issues its products, passes the turn to the next warpgroup and
// then does its other work (a softmax) while the next one's products run. Warpgroup w's turn is
// named barrier kFirstBarrier + w over 256 threads: its own 128 waiting and the previous
// warpgroup's 128 arriving. The first warpgroup gives itself its first turn (start):
//
//   const WarpgroupTurns<2> turns{consumer};   turns.start();
//   for (...) { turns.wait(); gemm(...); gemm(...); turns.pass(); softmax ...; }
//
// Every warpgroup takes the same number of turns; the last pass leaves one arrival pending on
// the first warpgroup's barrier, which the CTA's exit discards.
template <int kWarpgroups, int kFirstBarrier = 1>
struct WarpgroupTurns {
  static_assert(kWarpgroups >= 2 && kFirstBarrier >= 1 && kFirstBarrier + kWarpgroups <= 16,
                "WarpgroupTurns: 2 or more warpgroups, named barriers 1 to 15 (0 is "
                "__syncthreads')");
  static constexpr uint32_t kThreads = 2 * kWarpGroupThreads;
  int warpgroup;  // 0 .. kWarpgroups - 1
  __device__ __forceinline__ void start() const {
    if (warpgroup == 0) ptx::named_barrier_arrive(kFirstBarrier, kThreads);
  }
  __device__ __forceinline__ void wait() const {
    ptx::named_barrier_sync(uint32_t(kFirstBarrier + warpgroup), kThreads);
  }
  __device__ __forceinline__ void pass() const {
    ptx::named_barrier_arrive(uint32_t(kFirstBarrier + (warpgroup + 1) % kWarpgroups), kThreads);
  }
};

// Two warpgroups reading the same stages, kept out of step: the second starts a tile once the
// first has issued its first products, so that their products queue one after the other on the
// tensor pipe and each one's other work (a promotion of its sums) runs while the other's products
// do; in step, both would do that work at once and leave the pipe idle. Named barrier kBarrier
// over the two warpgroups' 256 threads; each follow() is matched by one lead():
//
//   const WarpgroupStagger<3> stagger{consumer};
//   stagger.follow();            // the second waits ...
//   gemm(...); stagger.lead();   // ... until the first has issued
template <int kBarrier>
struct WarpgroupStagger {
  static_assert(kBarrier >= 1 && kBarrier <= 15,
                "WarpgroupStagger: named barriers 1 to 15 (0 is __syncthreads')");
  static constexpr uint32_t kThreads = 2 * kWarpGroupThreads;
  int warpgroup;  // 0 leads, 1 follows
  __device__ __forceinline__ void follow() const {
    if (warpgroup == 1) ptx::named_barrier_sync(kBarrier, kThreads);
  }
  __device__ __forceinline__ void lead() const {
    if (warpgroup == 0) ptx::named_barrier_arrive(kBarrier, kThreads);
  }
};

}  // namespace tessera
#endif
