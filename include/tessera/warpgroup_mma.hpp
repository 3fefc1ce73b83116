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
// and value in tests/test_warpgroup_mma.cpp).
//
// A from registers (RS, FlashAttention-3's O += P V): a second WarpgroupMMA whose TiledMMA has
// the RS atom takes the first one's accumulators, converted to 16-bit, as its A operand:
//
//   auto p = convert<__half>(acc_s);                     // S's accumulators, softmaxed
//   gemm(mma_o, acc_as_A<CfgO>(mma_s, p), mma_o.partition_B(sV(_, _, s)), acc_o, true);
#pragma once

#include <cstdint>
#include <type_traits>

#include "fragment.hpp"
#include "fragment_views.hpp"
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

namespace detail {
// Whether a TiledMMA's wgmma atom is an FP8 one (m64nNk32: 32 one-byte elements of K).
TESSERA_HD constexpr bool is_fp8_wgmma(TiledMMA const& mma) { return mma.atom.k == 32; }
// Whether the FP8 formats an atom's name spells (CuTe's "..._F32E4M3E5M2_SS_TN": A, then B) are
// TA and TB; true for a name that spells none.
template <class TA, class TB>
TESSERA_HD constexpr bool names_formats(MmaAtom const& a) {
  const char* p = a.name;
  while (*p && !(p[0] == 'F' && p[1] == '3' && p[2] == '2' && p[3] == 'E')) ++p;
  if (!*p) return true;
  auto is_e4m3 = [](const char* f) { return f[1] == '4' && f[2] == 'M' && f[3] == '3'; };
  return is_e4m3(p + 3) == std::is_same_v<TA, __nv_fp8_e4m3> &&
         is_e4m3(p + 7) == std::is_same_v<TB, __nv_fp8_e4m3>;
}
}  // namespace detail

// acc += A B over one k-tile (all K blocks of the stage): one wgmma per 32 bytes of K, one commit
// group. `accumulate` false overwrites acc at the first instruction. Checked at compile time: A,
// B and the accumulators are partitions of this TiledMMA; A and B are element types one wgmma
// multiplies (one 16-bit type or tf32, or FP8 in any pair: e4m3 x e5m2), FP8 tiles exactly for
// a TiledMMA of an FP8 atom (sm90_64xNx32_f8).
template <class Cfg, class CfgA, class CfgB, class TA, GmmaOperand kA, class TB, GmmaOperand kB,
          Layout kL>
__device__ __forceinline__ void gemm(WarpgroupMMA<Cfg> const&, GmmaSlice<CfgA, TA, kA> const& a,
                                     GmmaSlice<CfgB, TB, kB> const& b, Fragment<float, kL>& acc,
                                     bool accumulate) {
  constexpr bool kSameMma = std::is_same_v<Cfg, CfgA> && std::is_same_v<Cfg, CfgB>;
  static_assert(
      kSameMma,
      "rule::operands_of_another_tiled_mma: A and B must be partitioned by this WarpgroupMMA");
  constexpr bool kIsC = std::is_same_v<Fragment<float, kL>, typename WarpgroupMMA<Cfg>::FragmentC>;
  static_assert(kIsC,
                "rule::fragment_is_not_the_partition_of_c: the accumulators must be "
                "WarpgroupMMA::partition_fragment_C()'s (the wgmma atom's N/2 floats)");
  constexpr bool kTakes = kWgmmaTakes<TA, TB>;
  static_assert(kTakes,
                "rule::wgmma_cannot_mix_these_element_types: A and B stages of one type (__half, "
                "__nv_bfloat16, float as tf32) or two FP8 formats (__nv_fp8_e4m3, __nv_fp8_e5m2)");
  constexpr bool kAtomFits = detail::is_fp8_wgmma(Cfg::kMma) == kWgmmaFp8<TA>;
  static_assert(kAtomFits,
                "rule::element_type_is_not_the_instructions: FP8 stages need a TiledMMA of an FP8 "
                "wgmma atom (m64nNk32, atom::sm90_64xNx32_f8), and an FP8 atom FP8 stages");
  constexpr bool kFormats = !kWgmmaFp8<TA> || detail::names_formats<TA, TB>(Cfg::kMma.atom);
  static_assert(kFormats,
                "rule::element_type_is_not_the_instructions: the stages' FP8 formats (A, B) are "
                "not the ones the TiledMMA's atom names (E4M3 = __nv_fp8_e4m3, E5M2 = "
                "__nv_fp8_e5m2)");
  if constexpr (kSameMma && kIsC && kTakes && kAtomFits && kFormats)
    gemm<int(WarpgroupMMA<Cfg>::kN), TA>(a.tensor, a.block, b.tensor, b.block, acc.v, accumulate);
}

// The accumulators of this WarpgroupMMA (any value type: convert<__half>(acc)) as the A operand
// (V,M,K) of CfgA's RS TiledMMA, over the same registers (acc_as_operand derives the layout and
// fails, naming the rule, where a thread's A elements are not its accumulators).
template <class CfgA, class Cfg, class F>
__device__ __forceinline__ auto acc_as_A(WarpgroupMMA<Cfg> const&, F&& acc) {
  using FF = std::remove_cvref_t<F>;
  static constexpr Layout kL =
      acc_as_operand(Cfg::kMma, CfgA::kMma, acc_tile<Cfg, FF>(), FF::kLayout);
  return make_tensor<kL>(acc.data());
}

namespace detail {
// Whether a TiledMMA's atom reads A from registers (RS): its A threads hold different elements
// (SS atoms read the whole tile from shared memory: thread stride 0).
TESSERA_HD constexpr bool reads_a_from_registers(TiledMMA const& mma) {
  return mma.atom.a_tv[0](1) != mma.atom.a_tv[0](0);
}
// k-step j of an RS A operand (V,1,K) as wgmma's four registers: FP8 values four to a register,
// 16-bit values two (lowest first), tf32 one.
template <class A>
__device__ __forceinline__ void rs_registers(A const& a, int j, uint32_t (&r)[4]) {
  using T = element_of<A>;
TESSERA_UNROLL
  for (int i = 0; i < 4; ++i) {
    alignas(4) T pair[4 / sizeof(T)];  // one register's values, low first
TESSERA_UNROLL
    for (int h = 0; h < int(4 / sizeof(T)); ++h) pair[h] = a(_, 0, j)(i * int(4 / sizeof(T)) + h);
    r[i] = reinterpret_cast<uint32_t const&>(pair);
  }
}
}  // namespace detail

// acc += A B over one k-tile with A from registers (RS): A is a register tensor (V,1,K) of this
// warpgroup's rows in the RS atom's layout, one k-step per K block of B's stage (acc_as_A of
// another WarpgroupMMA's accumulators, or a copy's fragment). B and the accumulators as above.
// Checked at compile time: the TiledMMA is RS, A's shape, its element type and B's.
template <class Cfg, class A, class CfgB, class T, GmmaOperand kB, Layout kL>
requires requires { A::kLayout; }
__device__ __forceinline__ void gemm(WarpgroupMMA<Cfg> const&, A const& a,
                                     GmmaSlice<CfgB, T, kB> const& b, Fragment<float, kL>& acc,
                                     bool accumulate) {
  static constexpr TiledMMA kMma = Cfg::kMma;
  static_assert(std::is_same_v<Cfg, CfgB>,
                "rule::operands_of_another_tiled_mma: B must be partitioned by this WarpgroupMMA");
  constexpr bool kIsC = std::is_same_v<Fragment<float, kL>, typename WarpgroupMMA<Cfg>::FragmentC>;
  static_assert(kIsC,
                "rule::fragment_is_not_the_partition_of_c: the accumulators must be "
                "WarpgroupMMA::partition_fragment_C()'s (the wgmma atom's N/2 floats)");
  static_assert(detail::reads_a_from_registers(kMma),
                "rule::a_is_not_in_registers: this TiledMMA's wgmma atom reads A from shared "
                "memory (SS): pass partition_A of a stage, or make the TiledMMA with the RS atom");
  using TA = detail::element_of<A>;
  constexpr bool kSameType = kWgmmaTakes<TA, T> && detail::is_fp8_wgmma(kMma) == kWgmmaFp8<T> &&
                             (!kWgmmaFp8<T> || detail::names_formats<TA, T>(kMma.atom));
  static_assert(kSameType,
                "rule::element_type_is_not_the_instructions: A's registers and B's stage must hold "
                "the same element type (convert<T>(acc) first), or the two FP8 formats the "
                "TiledMMA's FP8 wgmma atom names");
  static constexpr Layout kA = A::kLayout;
  constexpr int kSteps = int(kB.blocks[1].size());
  constexpr bool kShape = kA.rank() == 3 && kA[0].size() == kMma.atom.a_tv[1].size() &&
                          kA[1].size() == 1 && kA[2].size() == kSteps;
  static_assert(kShape,
                "rule::fragment_is_not_the_partition_of_a: A must be (V,1,K): the RS atom's values "
                "per k-step, one 64-row block, one k-step per K block of B's stage");
  static_assert(kB.mn == WarpgroupMMA<Cfg>::kN && kB.k * int64_t(sizeof(T)) == 32,
                "rule::wgmma_n_does_not_match: B's blocks must be the atom's N rows, 32 bytes "
                "deep");
  static_assert(kWgmmaTransposes<T> || kB.major == GmmaMajor::kK,
                "rule::wgmma_reads_tf32_and_fp8_k_major: tf32 and FP8 wgmma read K-major tiles "
                "only");
  if constexpr (kIsC && kSameType && kShape && std::is_same_v<Cfg, CfgB>) {
    constexpr int kTB = kB.major == GmmaMajor::kMN;
    // NOTE: every k-step's A registers are packed before the fence: a register written between
    // two wgmmas makes ptxas insert a warpgroup.arrive before the second (C7519), serializing them.
    uint32_t r[kSteps][4];
TESSERA_UNROLL
    for (int j = 0; j < kSteps; ++j) detail::rs_registers(a, j, r[j]);
    fence_operands(acc.v);
    ptx::wgmma_fence();
TESSERA_UNROLL
    for (int j = 0; j < kSteps; ++j)
      ptx::wgmma_rs<int(WarpgroupMMA<Cfg>::kN), TA, T, kTB>(
          acc.v, r[j], b.tensor.descriptor(b.block, j), (accumulate || j > 0) ? 1 : 0);
    ptx::wgmma_commit();
  }
}

// Waits until at most kPending commit groups of this warpgroup are in flight (then acc is read).
template <int kPending, class T, Layout kL>
__device__ __forceinline__ void warpgroup_wait(Fragment<T, kL>& acc) {
  warpgroup_wait<kPending>(acc.v);
}

}  // namespace tessera
#endif
