// tessera/algorithm/copy.hpp -- copy and copy_if between any two of global, shared and registers.
//
//   copy(src, dst)                     the widest vector both layouts allow (copy_vector.hpp);
//                                      where a pointer or a run-time stride is not aligned (tested
//                                      once per call), element by element, converting the type
//   copy_if(pred, src, dst)            the same where pred(v) is inside the tensor (pred: the
//                                      identity tensor partitioned like the global side); other
//                                      destination values are left as they are
//   copy(thr_copy, src, dst)           the TiledCopy's atom: a vector of exactly the atom's width
//   copy_if(thr_copy, pred, src, dst)  (static checks name the rule it breaks), ldmatrix (shared
//                                      -> registers), stmatrix (registers -> shared), cp.async
//   copy(thr_copy, src, dst, pred)     (global -> shared; outside the tensor: zero-filled)
//
// The rules an atom copy checks at compile time (each a static_assert naming it):
//   rule::vector_elements_are_not_consecutive, rule::vector_along_a_runtime_stride,
//   rule::vector_is_misaligned, rule::swizzle_splits_the_vector (both sides, the atom's width),
//   rule::ldmatrix_rows_are_16_contiguous_bytes, rule::ldmatrix_moves_16_bit_elements,
//   rule::cp_async_copies_4_8_or_16_bytes, rule::copy_sizes_differ,
//   rule::copy_element_size_differs_from_the_atom.
// What only run-time values decide (a pointer's or a leading dimension's alignment for the
// atom's vector) traps under TESSERA_DEBUG with the rule's name printed.
#pragma once

#include <cstdint>
#include <type_traits>

#include "../atom/copy.hpp"
#include "../fragment.hpp"
#include "../tensor_view.hpp"
#include "../thr_copy.hpp"
#include "copy_vector.hpp"

namespace tessera {

// copy(src, dst, pred): dst(v) = src(v) where pred(v) is inside the tensor, else zero (CuTe's
// copy_if with a zero-filled destination). `pred` is the identity tensor partitioned like src.
template <class Src, class Dst, class Pred>
requires requires {
  std::remove_cvref_t<Dst>::kCosize;
  Src::size();
}  // to registers; not a ThrCopy
TESSERA_HD inline void copy(Src const& src, Dst&& dst, Pred const& pred) {
  using T = typename std::remove_cvref_t<Dst>::Element;
  constexpr int64_t N = std::remove_cvref_t<Dst>::size();
  static_assert(Src::size() == N && Pred::size() == N,
                "copy: source, destination and predicate sizes differ");
  TESSERA_UNROLL
  for (int64_t v = 0; v < N; ++v) dst(v) = pred.inside(v) ? T(src(v)) : T(0);
}

namespace detail {
struct NoPred {};

template <class S, class D>
TESSERA_HD constexpr void check_sizes() {
  static_assert(std::remove_cvref_t<S>::size() == std::remove_cvref_t<D>::size(),
                "rule::copy_sizes_differ: copy: the source and the destination hold different "
                "numbers of values");
}

// The static rules for one side of a vector of n values (kSrc: the source).
template <class V, int64_t n, bool kSrc>
TESSERA_HD constexpr void check_vector_side() {
  constexpr VectorFault f = vector_fault<V>(n);
  static_assert(
      !kSrc || f != VectorFault::kNotConsecutive,
      "rule::vector_elements_are_not_consecutive: copy: the atom's vector is not consecutive "
      "elements of the source, from a multiple of its width");
  static_assert(
      kSrc || f != VectorFault::kNotConsecutive,
      "rule::vector_elements_are_not_consecutive: copy: the atom's vector is not consecutive "
      "elements of the destination, from a multiple of its width");
  static_assert(
      f != VectorFault::kRuntimeStride,
      "rule::vector_along_a_runtime_stride: copy: the atom's vector runs along a mode whose "
      "stride is not the static unit (make_stride(unit, ld)); a run-time stride is never "
      "vectorized along");
  static_assert(
      f != VectorFault::kMisaligned,
      "rule::vector_is_misaligned: copy: a static stride or offset moves the atom's vector off "
      "a multiple of its width");
  static_assert(
      f != VectorFault::kSwizzleSplits,
      "rule::swizzle_splits_the_vector: copy: the shared tile's swizzle permutes elements "
      "inside the atom's vector (vector > 2^base elements)");
}

// The run-time rules: pointers and run-time strides aligned to the atom's vector.
template <int64_t n, class S, class D>
TESSERA_HD inline void debug_check_aligned(S const& src, D const& dst) {
#if defined(TESSERA_DEBUG)
  debug_require(
      vector_aligned<n>(src) && vector_aligned<n>(dst),
      "rule::vector_is_misaligned: copy: a pointer or a leading dimension is not a multiple "
      "of the atom's vector");
#else
  (void)src, (void)dst;
#endif
}

// Every group of n values: all inside (pred), or the groups inside moved as vectors and the
// others value by value under the predicate.
template <int64_t n, bool kVector, class P, class S, class D>
TESSERA_HD inline void copy_groups(P const& pred, S const& src, D& dst) {
  constexpr int64_t kSize = std::remove_cvref_t<S>::size();
  auto group = [&](int64_t v) {
    if constexpr (kVector)
      move_vector<n>(src, dst, v);
    else
      move_elements<n>(src, dst, v);
  };
  if constexpr (std::is_same_v<P, NoPred>) {
    TESSERA_UNROLL
    for (int64_t v = 0; v < kSize; v += n) group(v);
  } else if (pred.all_inside()) {
    TESSERA_UNROLL
    for (int64_t v = 0; v < kSize; v += n) group(v);
  } else {
    TESSERA_UNROLL
    for (int64_t v = 0; v < kSize; v += n) {
      if (pred.inside(v + n - 1)) {  // a group runs along one mode: its last value decides
        group(v);
      } else {
        TESSERA_UNROLL
        for (int64_t e = 0; e < n; ++e)
          if (pred.inside(v + e)) move_elements<1>(src, dst, v + e);
      }
    }
  }
}

// The widest vector both sides and the predicate allow.
template <class P, class S, class D>
TESSERA_HD constexpr int64_t copy_width() {
  constexpr int64_t n = max_common_vector<S, D>();
  if constexpr (std::is_same_v<P, NoPred>)
    return n;
  else
    return n == 1 || aligned_runs_mode(coords_of(P::kSpec), n) >= 0 ? n : 1;
}

// Whether a view is a global tensor with a static stride 0 (a broadcast, e.g. a bias).
template <class S>
TESSERA_HD constexpr bool is_broadcast() {
  using X = std::remove_cvref_t<S>;
  if constexpr (side_of<X> != CopySide::kGlobal)
    return false;
  else {
    for (int j = 0; j < X::kRank; ++j)
      if (X::kStatic.v[j] == 0) return true;
    return false;
  }
}

// A broadcast source: each distinct element is read once. Value v takes its representative's,
// the first value with the same coordinates in the modes of nonzero stride; the predicate tests
// only those modes (moving along a broadcast mode never leaves the source). A C fragment of a
// 128 x 128 tile per 128 threads holds 128 values in 8 rows x 16 columns: a bias along N,
// make_stride(fixed<0>, unit), is read 16 times.
template <class P, class S, class D>
TESSERA_HD inline void broadcast_copy(P const& pred, S const& src, D& dst) {
  using X = std::remove_cvref_t<S>;
  constexpr int R = X::kRank;
  constexpr int64_t N = X::size();
  struct Reps {
    int64_t r[N];
  };
  static constexpr Reps kRep = [] {
    const CoordLayout<R> c = coords_of(X::kSpec);
    Reps reps{};
    for (int64_t v = 0; v < N; ++v) {
      reps.r[v] = v;
      for (int64_t w = 0; w < v && reps.r[v] == v; ++w) {
        bool same = true;
        for (int j = 0; j < R; ++j) same = same && (X::kStatic.v[j] == 0 || c(v).v[j] == c(w).v[j]);
        if (same) reps.r[v] = w;
      }
    }
    return reps;
  }();
  auto inside = [&](int64_t v) {
    if constexpr (std::is_same_v<P, NoPred>) {
      return true;
    } else {
      static constexpr CoordLayout<P::kRank> kC = coords_of(P::kSpec);
      static constexpr StaticStrides<R> kFix = X::kStatic;
      const Coord<P::kRank> residue = pred.shape - pred.origin;
      bool ok = true;
      TESSERA_UNROLL
      for (int j = 0; j < R; ++j)
        if (kFix.v[j] != 0) ok = ok && kC(v).v[j] < residue.v[j];
      return ok;
    }
  };
  TESSERA_UNROLL
  for (int64_t v = 0; v < N; ++v)
    if (kRep.r[v] == v && inside(v)) move_elements<1>(src, dst, v);
  TESSERA_UNROLL
  for (int64_t v = 0; v < N; ++v)
    if (kRep.r[v] != v) dst(v) = dst(kRep.r[v]);
}

template <class P, class S, class D>
TESSERA_HD inline void auto_copy(P const& pred, S const& src, D& dst) {
  check_sizes<S, D>();
  if constexpr (is_broadcast<S>()) return broadcast_copy(pred, src, dst);
  constexpr int64_t n = copy_width<P, S, D>();
  if constexpr (!is_broadcast<S>() && n > 1) {
    if (vector_aligned<n>(src) && vector_aligned<n>(dst))
      return copy_groups<n, true>(pred, src, dst);
  }
  copy_groups<1, false>(pred, src, dst);
}
}  // namespace detail

template <class S, class D>
TESSERA_HD inline void copy(S const& src, D&& dst) {
  detail::auto_copy(detail::NoPred{}, src, dst);
}
template <class P, class S, class D>
TESSERA_HD inline void copy_if(P const& pred, S const& src, D&& dst) {
  static_assert(P::size() == std::remove_cvref_t<S>::size(),
                "rule::copy_sizes_differ: copy_if: the predicate and the source hold different "
                "numbers of values");
  detail::auto_copy(pred, src, dst);
}

}  // namespace tessera

#include "copy_atoms.hpp"
