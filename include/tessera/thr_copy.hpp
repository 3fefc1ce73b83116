// tessera/thr_copy.hpp -- one thread's slice of a TiledCopy: partition_S/D, retile_D.
#pragma once

#include <cstdio>

#include "fragment.hpp"
#include "tensor_view.hpp"
#include "tiled_copy.hpp"
#include "tiled_mma.hpp"

namespace tessera {

// Equal partitions, value by value, for every thread: how a copy into registers (its
// destination; retile_D) is checked against the MMA's fragment, as functions of the tile's
// coordinates. Each side is (thread -> offset) + (value -> offset), so c_thr(t) + c_frg(i) ==
// m_thr(t) + m_frg(i) for every (t, i) exactly when the thread offsets differ by one constant for
// every t and the value offsets by its opposite for every i (take i = 0, then t = 0): threads +
// values evaluations instead of threads x values. NOTE: the product form cost every front end (EDG
// twice, g++ once) seconds per configuration.
TESSERA_HD constexpr bool same_partition(TiledCopy const& copy, TiledMMA const& mma, Operand op,
                                         Layout const& tile) {
  Layout c_thr = copy.tidfrg(tile, true)[0], c_frg = copy.partition_D(tile, 0).layout;
  Layout m_thr = mma.partitioner(op, tile).thread, m_frg = mma.partitioner(op, tile).fragment;
  if (c_frg.size() != m_frg.size()) return false;
  const int64_t delta = c_thr(0) - m_thr(0);
  for (int64_t t = 0; t < mma.threads(); ++t)
    if (c_thr(t) - m_thr(t) != delta) return false;
  for (int64_t i = 0; i < c_frg.size(); ++i)
    if (c_frg(i) - m_frg(i) != -delta) return false;
  return true;
}

// A rule only run-time values decide (a pointer's alignment, the launch's thread count), checked
// under TESSERA_DEBUG: the device prints the rule and traps, the host throws it.
TESSERA_HD inline void debug_require(bool ok, const char* rule) {
#if defined(TESSERA_DEBUG)
  if (!ok) {
#if defined(__CUDA_ARCH__)
    printf("tessera: %s\n", rule);
    __trap();
#else
    fail(rule);
#endif
  }
#else
  (void)ok, (void)rule;
#endif
}

// Whether a TiledCopy's tile divides a tile of shape t, mode by mode (tidfrg's precondition).
TESSERA_HD constexpr bool copy_tile_divides(TiledCopy const& copy, IntTuple const& t) {
  for (int i = 0; i < copy.tiler.rank(); ++i)
    if (i >= t.rank() || product(t[i]) % product(copy.tiler[i]) != 0) return false;
  return true;
}

// One thread's slice of a TiledCopy (`Cfg::kCopy`): partition_S of the source tile and
// partition_D of the destination, each (CPY, CPY_M, CPY_N) with the atom's values first.
template <class Cfg>
struct ThrCopy {
  int64_t thread;

  template <class V>
  TESSERA_HD inline auto partition_S(V const& v) const { return partition<false>(v); }
  template <class V>
  TESSERA_HD inline auto partition_D(V const& v) const { return partition<true>(v); }

  // A register fragment seen in the copy's value order (CuTe's retile_S / retile_D): the same
  // registers through retile(kCopy, F::kLayout), (CPY,CPY_M,CPY_N,...) like partition_S/D, so
  // that copy(thr_copy, tXsA(_, _, k), tXrA(_, _, k)) pairs source and register value by value.
  // A copy configuration that names the TiledMMA and operand it fills (kMma, kOperand: the
  // registers of make_tiled_copy_A/B/C) is checked at compile time: the fragment is that
  // operand's partition (mode 0 one instruction's values) and the copy gives each thread the
  // elements the MMA's fragment holds, value by value (same_partition).
  template <class F>
  TESSERA_HD static inline auto retile_S(F&& fragment) { return retile_D(fragment); }
  template <class F>
  TESSERA_HD static inline auto retile_D(F&& fragment) {
    constexpr bool kFits = retile_fits<std::remove_cvref_t<F>>();
    if constexpr (kFits) {
      static constexpr Layout kR = retile(Cfg::kCopy, std::remove_cvref_t<F>::kLayout);
      return make_tensor<kR>(fragment.data());
    } else {
      return fragment(_);  // (only the message of retile_fits)
    }
  }

 private:
  static constexpr TiledCopy kCopy = Cfg::kCopy;
  template <bool kDivides>
  TESSERA_HD static constexpr void check_tile() {
    static_assert(kDivides,
                  "rule::tile_does_not_divide: partition_S/D: the TiledCopy's tile must divide "
                  "the tile it partitions, mode by mode");
  }
  // The fragment against the copy configuration's TiledMMA operand, where it names one.
  template <class F>
  TESSERA_HD static constexpr bool retile_fits() {
    if constexpr (requires { Cfg::kMma; Cfg::kOperand; }) {
      constexpr Layout kTile = Layout(kCopy.tiler);
      constexpr Layout kFrg = Cfg::kMma.partitioner(Cfg::kOperand, kTile).fragment;
      constexpr bool kIsOperand = F::kLayout.rank() == kFrg.rank() &&
                                  F::kLayout[0].size() == kFrg[0].size();
      static_assert(kIsOperand,
                    "rule::fragment_is_not_the_partition_of_the_copy_s_mma: retile_D: the "
                    "fragment is not the (V,M,K) / (V,N,K) / (V,M,N) partition of the operand "
                    "the copy fills (mode 0: one instruction's values)");
      constexpr bool kSame = same_partition(kCopy, Cfg::kMma, Cfg::kOperand, kTile);
      static_assert(kSame,
                    "rule::copy_is_not_the_mma_s_partition: retile_D: the TiledCopy does not give "
                    "each thread the elements the TiledMMA's fragment holds (make it with "
                    "make_tiled_copy_A/B/C of that TiledMMA)");
      return kIsOperand && kSame;
    } else {
      return true;
    }
  }
  TESSERA_HD void check_thread() const {
    constexpr int64_t kThreads = kCopy.threads();
    debug_require(thread >= 0 && thread < kThreads,
                  "rule::thread_outside_the_tiled_operation: partition_S/D: the thread index is "
                  "outside the TiledCopy's threads (launch as many threads as the TiledCopy has)");
  }
  template <bool kDst, class T, int R, StaticStrides<R> kFix, Spec<R> kS>
  TESSERA_HD inline auto partition(TensorView<T, R, kFix, kS> const& v) const {
    static_assert(kS.frg == kS.compact(),
                  "partition_S/D: the view must be a whole tile (local_tile)");
    constexpr bool kDivides = copy_tile_divides(kCopy, kS.compact().shape);
    check_tile<kDivides>();
    check_thread();
    if constexpr (kDivides) {
      static constexpr ThreadParts<R> kP =
          thread_parts(kS, kCopy.tidfrg(kS.compact(), kDst)[0],
                       kCopy.partition(kS.compact(), 0, kDst).layout);
      return v.template moved<kP.frg>(kP.thr(thread));
    } else {
      return v;
    }
  }
  template <bool kDst, class T, Layout kL, Swizzle kSw, int64_t kA>
  TESSERA_HD inline auto partition(OffsetView<T, kL, kSw, kA> const& v) const {
    constexpr bool kDivides = copy_tile_divides(kCopy, product_each(kL.shape));
    check_tile<kDivides>();
    check_thread();
    if constexpr (kDivides) {
      return thread_offset_view<kCopy.partition(kL, 0, kDst).layout, kCopy.tidfrg(kL, kDst)[0]>(
          v, thread);
    } else {
      return v;
    }
  }
};

}  // namespace tessera
