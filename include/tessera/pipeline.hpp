// tessera/pipeline.hpp -- the producer/consumer ring of shared-memory stages on mbarriers (SM90).
//
// kStages stages, each with a `full` barrier (the producer's one arrival, plus the bytes its TMA
// loads complete and the arrivals of its cp.async copies) and an `empty` barrier (one arrival
// per consumer warpgroup, or per warp, of every CTA that reads the stage: with multicast, a CTA's
// stage is written by its peers too, so it is free only when the consumers of every CTA of the
// cluster are done with it). A barrier's phase completes
// when its arrivals and expected bytes are in; waiters name the parity of the phase they wait
// for, which flips each time the ring wraps:
//
//   producer, round r of stage s:  wait(empty[s], parity (r & 1) ^ 1)   (round 0 passes at once)
//                                  cp.async copies arriving on full[s] (producer_copy4), then
//                                  arrive_expect_tx(full[s], bytes); TMA loads complete on full[s]
//   consumer, round r of stage s:  wait(full[s], parity r & 1) ... release(s): arrive on empty[s]
//                                  of every CTA of the cluster
//   producer, after its last load:  wait(empty[s]) once more for each of the last kStages stages
//                                  (producer_tail): every arrival on this CTA's barriers is in
//
// PipelineState carries (stage, parity) for one role; both roles walk the stages in the same
// order, so the producer runs up to kStages stages ahead.
#pragma once

#include <cstdint>

#if defined(__CUDACC__)
#include "atom/copy.hpp"
#include "atom/sm90.hpp"

namespace tessera {

// Where one role is in the ring: the stage it works on and the parity of that stage's phase.
template <int kStages>
struct PipelineState {
  int stage = 0;
  uint32_t phase = 0;
  __device__ __forceinline__ void advance() {
    if (++stage == kStages) stage = 0, phase ^= 1;
  }
};

// The barriers of a ring of kStages stages, kept in shared memory (2 x kStages x 8 bytes), read
// by kConsumers warpgroups in each of kCluster CTAs. kReleasers: the threads of a consumer that
// release a stage together, 128 (the warpgroup, whose wgmmas read the stage: their wait orders
// the reads) or 32 (each warp, which also reads the stage itself).
template <int kStages, int kConsumers, int kCluster = 1, int kReleasers = 128>
struct StagePipeline {
  static_assert(kReleasers == 128 || kReleasers == 32,
                "pipeline: a stage is released by each consumer warpgroup or each of its warps");
  uint64_t* full;   // [kStages]
  uint64_t* empty;  // [kStages]
  static constexpr int kBarrierBytes = 2 * kStages * 8;

  // One thread per CTA, before the cluster synchronizes (cluster_sync) and any load is issued.
  __device__ __forceinline__ void init() const {
    for (int s = 0; s < kStages; ++s) {
      ptx::mbarrier_init(&full[s], 1);                        // the producer's arrive (+ TMA bytes)
      // every consumer (warpgroup or warp) of the cluster
      ptx::mbarrier_init(&empty[s], kConsumers * kCluster * (128 / kReleasers));
    }
    ptx::fence_barrier_init();
  }
  // Producer (one thread): waits until the stage is free, then announces `bytes` of TMA loads;
  // returns the barrier the loads complete on.
  __device__ __forceinline__ uint64_t* producer_acquire(PipelineState<kStages> const& p,
                                                        uint32_t bytes) const {
    producer_wait(p);
    return producer_expect(p, bytes);
  }
  // producer_acquire in two steps, for copies between them whose completion arrives on the
  // stage's `full` barrier (returned; cp.async: cp_async_arrive), which must be counted before
  // the producer's own arrive lets the phase complete.
  __device__ __forceinline__ uint64_t* producer_wait(PipelineState<kStages> const& p) const {
    ptx::mbarrier_wait(&empty[p.stage], p.phase ^ 1);
    return &full[p.stage];
  }
  __device__ __forceinline__ uint64_t* producer_expect(PipelineState<kStages> const& p,
                                                       uint32_t bytes) const {
    ptx::mbarrier_arrive_expect_tx(&full[p.stage], bytes);
    return &full[p.stage];
  }
  // Producer, between the two: 4 bytes from global `src` to shared `dst` by cp.async (zeros
  // without reading `src` where `inside` is false), which the stage's `full` barrier awaits too
  // (for what TMA does not copy: 1-D boxes starting off a 16-byte boundary stopped a kernel on
  // the H100).
  __device__ __forceinline__ void producer_copy4(PipelineState<kStages> const& p, void* dst,
                                                 void const* src, bool inside = true) const {
    ptx::cp_async_zfill<4>(ptx::smem_address(dst), src, inside ? 4 : 0);
    ptx::cp_async_arrive(&full[p.stage]);
  }
  // Producer, after its last load: waits until the consumers of every CTA of the cluster have
  // released the last kStages stages it filled (a stage never filled passes at once). Then no peer
  // will arrive on this CTA's barriers or write its stages again, and the CTA may exit without a
  // cluster synchronization (measured on the H100: the exit's cluster_sync took ~800 cycles after
  // the last store).
  __device__ __forceinline__ void producer_tail(PipelineState<kStages> p) const {
    for (int i = 0; i < kStages; ++i, p.advance()) ptx::mbarrier_wait(&empty[p.stage], p.phase ^ 1);
  }
  // Consumer: waits until the stage's loads have landed.
  __device__ __forceinline__ void consumer_wait(PipelineState<kStages> const& c) const {
    ptx::mbarrier_wait(&full[c.stage], c.phase);
  }
  // Consumer warpgroup or warp (its first thread arrives): frees `stage` in every CTA of the
  // cluster. NOTE: the default (CTA-scope release) arrive on the peers' barriers: a release at
  // cluster scope per k-tile cost 40% of the GEMM on the H200 (docs/design-notes.md); the wgmma
  // wait before it already orders wgmma's reads of the stage, __syncwarp a warp's own.
  __device__ __forceinline__ void consumer_release(int stage) const {
    if constexpr (kReleasers == 32) __syncwarp();  // (the warp's reads before its first lane's)
    if (threadIdx.x % kReleasers != 0) return;
    if constexpr (kCluster == 1) {
      ptx::mbarrier_arrive(&empty[stage]);
    } else {
#pragma unroll
      for (int r = 0; r < kCluster; ++r) ptx::mbarrier_arrive_cluster(&empty[stage], uint32_t(r));
    }
  }
};

// ---- CTA and cluster -------------------------------------------------------------------------
// This CTA's rank in its cluster.
__device__ __forceinline__ int cluster_rank() { return int(ptx::cluster_ctarank()); }
// Every thread of every CTA of the cluster (orders barrier initialization before remote use, and
// keeps a CTA resident while its peers may still arrive on its barriers).
__device__ __forceinline__ void cluster_sync() { ptx::cluster_sync(); }
// The cluster synchronization right after init() (every barrier's initialization is already
// released to the cluster by init's fence, so the arrive need not order memory).
__device__ __forceinline__ void cluster_sync_after_init() { ptx::cluster_sync_relaxed(); }
// The first address at or after p whose shared-memory address is a multiple of kAlign (the
// swizzle period of the stage tiles), as an offset from p so that the compiler still sees
// shared memory.
template <int kAlign>
__device__ __forceinline__ uint8_t* align_shared(uint8_t* p) {
  return p + (kAlign - ptx::smem_u32(p) % kAlign) % kAlign;
}

}  // namespace tessera
#endif
