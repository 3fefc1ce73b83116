// tessera/sm90_mainloop.hpp -- the two halves of a warp-specialized Hopper GEMM's k-loop over one
// C tile (CUTLASS's CollectiveMma: load and mma), on a StagePipeline ring of staged tiles.
//
//   producer (one elected thread):                 consumer warpgroup:
//     for k: acquire(stage) -> TMA A, B -> advance     for k: wait(stage) -> gemm (commit)
//                                                            -> warpgroup_wait<1> -> release the
//                                                            stage before -> advance
//                                                      warpgroup_wait<0> -> release the last
//
// The consumer keeps one k-tile of wgmmas in flight: the stage of k-tile k - 1 is released once
// k-tile k is issued and k - 1 retired. Both sides walk the stages in the same order, so one
// PipelineState per role carries over from tile to tile (a persistent kernel's producer runs
// ahead into the next tile while the consumers store the last).
#pragma once

#include <cstdint>

#if defined(__CUDACC__)
#include "pipeline.hpp"
#include "staged_smem.hpp"
#include "tma_partition.hpp"
#include "warpgroup_mma.hpp"

namespace tessera {

// Producer: k-tiles [k_begin, k_end) of gA and gB into the ring (sA, sB), one stage each.
// `rank`: this CTA's share of multicast boxes (kS.tma.loaders CTAs load one tile together).
template <class Pipe, int kStages, class GA, class SA, class GB, class SB>
__device__ __forceinline__ void mainloop_load(Pipe const& pipe, PipelineState<kStages>& write,
                                              GA const& gA, SA& sA, GB const& gB, SB& sB,
                                              int64_t k_begin, int64_t k_end, int rank = 0) {
  constexpr uint32_t kBytes = uint32_t(SA::kStaged.stage_bytes() + SB::kStaged.stage_bytes());
  for (int64_t k = k_begin; k < k_end; ++k) {
    uint64_t* full = pipe.producer_acquire(write, kBytes);
    copy(gA(_, _, k), sA(_, _, write.stage), full);
    copy(gB(_, _, k), sB(_, _, write.stage), full, rank);
    write.advance();
  }
}

// Consumer: acc = sum over k_tiles >= 1 stages of A B (acc is overwritten: the first k-tile
// does not accumulate; K = 0 is the caller's: no stage to wait for). On return acc holds the
// tile and every stage it read is released.
template <class Cfg, class Pipe, int kStages, class SA, class SB, class Acc>
__device__ __forceinline__ void mainloop_mma(WarpgroupMMA<Cfg> const& mma, Pipe const& pipe,
                                             PipelineState<kStages>& read, SA& sA, SB& sB, Acc& acc,
                                             int64_t k_tiles) {
  int previous = -1;
  for (int64_t k = 0; k < k_tiles; ++k) {
    pipe.consumer_wait(read);
    gemm(mma, mma.partition_A(sA(_, _, read.stage)), mma.partition_B(sB(_, _, read.stage)), acc,
         k > 0);
    warpgroup_wait<1>(acc);  // k-tile k - 1 is done: its stage is free
    if (previous >= 0) pipe.consumer_release(previous);
    previous = read.stage;
    read.advance();
  }
  warpgroup_wait<0>(acc);
  pipe.consumer_release(previous);
}

}  // namespace tessera
#endif
