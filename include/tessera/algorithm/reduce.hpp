// tessera/algorithm/reduce.hpp -- reductions of register fragments: over a mode in a thread, then
// across the lanes that share the result (shuffle xor distances from the partition).
//
//   auto rc  = acc_rowcol(thr_mma, acc);                 // (rows, cols) of this thread
//   auto mx  = reduce<1>(rc, max_op);                    // (rows): this thread's row maxima
//   reduce_lanes<acc_row_shuffles<Cfg, decltype(acc)>()>(mx, max_op);   // the whole row's
//
// or reduce_rows(thr_mma, acc, op) for the three steps.
#pragma once

#include <type_traits>

#include "../fragment.hpp"
#include "../fragment_views.hpp"

namespace tessera {

// The fragment of f reduced over mode kMode with op (op(a, b), associative): shape without that
// mode, r(o) = op(f(o with c = 0), f(o with c = 1), ...).
TESSERA_CALLS_USER_CODE
template <int kMode, class F, class Op>
TESSERA_HD inline auto reduce(F const& f, Op const& op) {
  static constexpr Layout kL = F::kLayout;
  static_assert(kMode >= 0 && kMode < kL.rank(), "reduce: the fragment has no such mode");
  static constexpr Layout kOut =
      Layout(detail::kept_modes(kL, ((1u << kL.rank()) - 1) & ~(1u << kMode)).shape);
  constexpr int64_t kExtent = kL[kMode].size();
  constexpr int64_t kInner = [] {
    int64_t n = 1;
    for (int j = 0; j < kMode; ++j) n *= kL[j].size();
    return n;
  }();
  Fragment<std::remove_const_t<typename F::Element>, kOut> r;
TESSERA_UNROLL
  for (int64_t o = 0; o < kOut.size(); ++o) {
    const int64_t base = o % kInner + kInner * kExtent * (o / kInner);  // index of c = 0
    auto acc = f(base);
TESSERA_UNROLL
    for (int64_t c = 1; c < kExtent; ++c) acc = op(acc, f(base + kInner * c));
    r(o) = acc;
  }
  return r;
}

#if defined(__CUDACC__)
// Every value of f combined with the same value of the lanes at the xor distances of kX
// (butterfly: afterwards every lane of a group holds the group's result).
template <LaneShuffles kX, class F, class Op>
__device__ inline void reduce_lanes(F&& f, Op const& op) {
TESSERA_UNROLL
  for (int s = 0; s < kX.n; ++s)
TESSERA_UNROLL
    for (int64_t i = 0; i < std::remove_cvref_t<F>::size(); ++i)
      f(i) = op(f(i), __shfl_xor_sync(0xffffffffu, f(i), kX.xor_mask[s]));
}

// The rows of an accumulator reduced with op over the whole row of the tile (this thread's
// columns, then the lanes sharing the row): a (rows) fragment, FlashAttention's reduce_max/sum.
template <class Cfg, class F, class Op>
__device__ inline auto reduce_rows(ThrMMA<Cfg> const& thr_mma, F&& acc, Op const& op) {
  auto r = reduce<1>(acc_rowcol(thr_mma, acc), op);
  reduce_lanes<acc_row_shuffles<Cfg, std::remove_cvref_t<F>>()>(r, op);
  return r;
}
#endif

}  // namespace tessera
