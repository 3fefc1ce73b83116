// tessera/warpgroup_mma.hpp -- one consumer warpgroup's slice of a Hopper TiledMMA (wgmma):
// partition_A / partition_B of staged shared tiles, the accumulators as the register tensor
// partition_fragment_C returns, and gemm on them.
//
// A TiledMMA of W wgmma atoms m64nNk16 along M, (W,1,1), covers a (64 W, N) tile; warpgroup w
// computes rows [64 w, 64 w + 64). Its operands come from shared memory (SS): A's stage tile
// holds W wgmma blocks of 64 rows (block w is warpgroup w's), B's one block of N rows:
//
//   const WarpgroupMMA<Cfg> mma{consumer};              // Cfg::kMma: the TiledMMA
//   auto acc = mma.partition_fragment_C();              // ((2,2,N/8),1,1) floats per thread
//   gemm(mma, mma.partition_A(sA(_, _, s)), mma.partition_B(sB(_, _, s)), acc, accumulate);
//   warpgroup_wait<0>(acc);
//
// The accumulators are the TiledMMA's C partition (ThrMMA::partition_fragment_C: the same
// type): thread t = t0 + 4 t1 + 32 w (lane t0 + 4 t1 of warp w of the warpgroup) holds value
// i = v0 + 2 v1 + 4 v2 at row 16 w + t1 + 8 v1, column 2 t0 + v0 + 8 v2 of its 64 x N block,
// which is register i of wgmma's D (PTX ISA, "wgmma D matrix fragment"; checked for every thread
// and value in test_warpgroup_mma).
#pragma once

#include <cstdint>
#include <type_traits>

#include "fragment.hpp"
#include "thr_mma.hpp"
#include "tiled_mma.hpp"

namespace tessera {

// The C fragment layout of a Hopper TiledMMA's (BM, BN) tile: (V, M, N) of one thread.
TESSERA_HD constexpr Layout warpgroup_fragment_c(TiledMMA const& mma) {
  return mma.partitioner(Operand::kC, Layout(make_tuple(mma.tile_size(0), mma.tile_size(1))))
      .fragment;
}

}  // namespace tessera

#if defined(__CUDACC__)
#include "gmma.hpp"
#include "staged_smem.hpp"

namespace tessera {

// A warpgroup's operand block of a stage: the tile's descriptors and the block along MN.
template <class Cfg, class T, GmmaOperand kOp>
struct GmmaSlice {
  GmmaTensor<T, kOp> tensor;
  int block;
};

template <class Cfg>
struct WarpgroupMMA {
  static constexpr TiledMMA kMma = Cfg::kMma;
  static_assert(kMma.atom.m == 64 && kMma.atom.threads() == 128,
                "rule::not_a_warpgroup_mma: WarpgroupMMA takes a TiledMMA of wgmma atoms (m64nNk, "
                "128 threads)");
  static constexpr int kWarpgroups = int(kMma.threads() / 128);
  static constexpr int64_t kN = kMma.atom.n;
  static constexpr Layout kFrgC = warpgroup_fragment_c(kMma);
  using FragmentC = Fragment<float, Layout(kFrgC.shape)>;
  static_assert(FragmentC::size() == kN / 2,
                "rule::not_a_warpgroup_mma: one atom's N/2 accumulators per thread");

  int warpgroup;  // this warpgroup's index along M, 0 .. kWarpgroups - 1

  // A: this warpgroup's 64-row block of the stage (the TiledMMA's atoms along M are the tile's
  // wgmma blocks along M, one each).
  template <class T, StagedTile kS>
  __device__ __forceinline__ GmmaSlice<Cfg, T, kS.mma> partition_A(
      StageTensor<T, kS> const& s) const {
    static_assert(
        kS.mma.mn == 64 && kS.mma.blocks[0].size() == kWarpgroups,
        "rule::operand_tile_is_not_the_tiled_mma_s: A's stage tile must be one 64-row wgmma block "
        "per warpgroup of the TiledMMA");
    return {s.gmma(), warpgroup};
  }
  // B: the whole stage, one wgmma block of N rows.
  template <class T, StagedTile kS>
  __device__ __forceinline__ GmmaSlice<Cfg, T, kS.mma> partition_B(
      StageTensor<T, kS> const& s) const {
    static_assert(
        kS.mma.mn == kN && kS.mma.blocks[0].size() == 1,
        "rule::operand_tile_is_not_the_tiled_mma_s: B's stage tile must be one wgmma block of the "
        "atom's N rows");
    return {s.gmma(), 0};
  }
  // The accumulators (CuTe: thr_mma.partition_fragment_C(gC)).
  __device__ __forceinline__ static FragmentC partition_fragment_C() { return {}; }
};

// acc += A B over one k-tile (all K blocks of the stage): one wgmma per 32 bytes of K, one commit
// group. `accumulate` false overwrites acc at the first instruction. Checked at compile time: A,
// B and the accumulators are partitions of this TiledMMA.
template <class Cfg, class CfgA, class CfgB, class T, GmmaOperand kA, GmmaOperand kB, Layout kL>
__device__ __forceinline__ void gemm(WarpgroupMMA<Cfg> const&, GmmaSlice<CfgA, T, kA> const& a,
                                     GmmaSlice<CfgB, T, kB> const& b, Fragment<float, kL>& acc,
                                     bool accumulate) {
  constexpr bool kSameMma = std::is_same_v<Cfg, CfgA> && std::is_same_v<Cfg, CfgB>;
  static_assert(
      kSameMma,
      "rule::operands_of_another_tiled_mma: A and B must be partitioned by this WarpgroupMMA");
  constexpr bool kIsC = std::is_same_v<Fragment<float, kL>, typename WarpgroupMMA<Cfg>::FragmentC>;
  static_assert(kIsC,
                "rule::fragment_is_not_the_partition_of_c: the accumulators must be "
                "WarpgroupMMA::partition_fragment_C()'s (the wgmma atom's N/2 floats)");
  if constexpr (kSameMma && kIsC)
    gemm<int(WarpgroupMMA<Cfg>::kN), T>(a.tensor, a.block, b.tensor, b.block, acc.v, accumulate);
}

// Waits until at most kPending commit groups of this warpgroup are in flight (then acc is read).
template <int kPending, class T, Layout kL>
__device__ __forceinline__ void warpgroup_wait(Fragment<T, kL>& acc) {
  warpgroup_wait<kPending>(acc.v);
}

}  // namespace tessera
#endif
