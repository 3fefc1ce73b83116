// tessera/algorithm/copy_vector.hpp -- what a vector copy needs of its two sides.
//
// A copy moves values v = 0..n-1 of src to dst, in order. It moves them kVec at a time where
// both sides hold every group v..v+kVec-1 (v a multiple of kVec) as kVec consecutive elements
// starting at a multiple of kVec: the largest such kVec (up to 16 bytes) is the two layouts'
// max_common_vector.
//   global (TensorView): the group runs along one mode of the tensor whose stride is the static
//     unit (a run-time stride is never vectorized along: its value may be anything), from a
//     coordinate that is a multiple of kVec; every other mode keeps the alignment (static
//     strides: checked here; run-time strides: tested once per copy);
//   shared (OffsetView): the group's offsets are consecutive from a multiple of kVec, and the
//     swizzle leaves the low bits that address inside a vector alone (kVec <= 2^base: the
//     swizzle only XORs bits from `base` up);
//   registers: any group (a vector is unpacked into kVec registers).
// Worked example: the transpose's load, a (64,64) f32 tile read by 16 x 16 threads with 4
// values along M each: the partition's values are runs of 4 along M (mode 0, stride unit), so
// global -> registers moves 16-byte vectors; with make_stride(lda, unit) the runs would lie
// along a run-time stride and the copy goes element by element (an explicit 128-bit atom is a
// compile error naming the rule).
#pragma once

#include <cstdint>
#include <type_traits>

#include "../tensor_view.hpp"
#include "../thr_copy.hpp"

namespace tessera {

// What one side of a copy is: registers (anything else with operator()(int) and size()).
enum class CopySide { kRegisters, kGlobal, kShared };

// Why a side cannot move groups of n values as vectors (kOk: it can).
enum class VectorFault { kOk, kNotConsecutive, kRuntimeStride, kMisaligned, kSwizzleSplits };

namespace detail {
template <class V>
struct SideOf {
  static constexpr CopySide value = CopySide::kRegisters;
};
template <class T, int R, StaticStrides<R> kF, Spec<R> kS>
struct SideOf<TensorView<T, R, kF, kS>> {
  static constexpr CopySide value = CopySide::kGlobal;
};
template <class T, Layout kL, Swizzle kSw, int64_t kA>
struct SideOf<OffsetView<T, kL, kSw, kA>> {
  static constexpr CopySide value = CopySide::kShared;
};
}  // namespace detail
template <class V>
inline constexpr CopySide side_of = detail::SideOf<std::remove_cvref_t<V>>::value;
template <class V>
using element_of = std::remove_cv_t<std::remove_reference_t<decltype(std::declval<V&>()(0))>>;

// A global view's fault for groups of n: c the fragment's coordinates, fix the static strides.
template <int R>
TESSERA_HD constexpr VectorFault global_vector_fault(CoordLayout<R> const& c,
                                                     StaticStrides<R> const& fix, int64_t n) {
  if (n == 1) return VectorFault::kOk;
  const int m = aligned_runs_mode(c, n);
  if (m < 0) return VectorFault::kNotConsecutive;
  if (!fix.is_static(m) || fix.v[m] != 1) return VectorFault::kRuntimeStride;
  for (int64_t v = 0; v < c.size; v += n)
    for (int j = 0; j < R; ++j)
      if (j != m && fix.is_static(j) && (c(v).v[j] - c(0).v[j]) * fix.v[j] % n != 0)
        return VectorFault::kMisaligned;
  return VectorFault::kOk;
}

// A shared view's fault for groups of n: l the fragment's offsets, sw its swizzle, align what
// divides the view's offset from its 16-byte aligned tile pointer (OffsetView::kAligned).
TESSERA_HD constexpr VectorFault shared_vector_fault(Layout const& l, Swizzle const& sw, int64_t n,
                                                     int64_t align) {
  if (n == 1) return VectorFault::kOk;
  if (!runs_of(l, n)) return VectorFault::kNotConsecutive;
  if (align % n != 0) return VectorFault::kMisaligned;
  for (int64_t v = 0; v < l.size(); v += n)
    if (l(v) % n != 0) return VectorFault::kMisaligned;
  if (sw.bits > 0 && n > (int64_t(1) << sw.base)) return VectorFault::kSwizzleSplits;
  return VectorFault::kOk;
}

template <class V>
TESSERA_HD constexpr VectorFault vector_fault(int64_t n) {
  using X = std::remove_cvref_t<V>;
  if constexpr (side_of<X> == CopySide::kGlobal)
    return global_vector_fault(coords_of(X::kSpec), X::kStatic, n);
  else if constexpr (side_of<X> == CopySide::kShared)
    return shared_vector_fault(X::kLayout, X::kSwizzle, n, X::kAligned);
  else
    return n >= 1 ? VectorFault::kOk : VectorFault::kNotConsecutive;
}

// The widest vector (in values, at most 16 bytes) both sides allow: 1 where the element types
// differ (a converting copy) or both sides are registers.
template <class S, class D>
TESSERA_HD constexpr int64_t max_common_vector() {
  using T = element_of<S>;
  if constexpr (!std::is_same_v<T, element_of<D>> || 16 % sizeof(T) != 0)
    return 1;
  else {
    if (side_of<S> == CopySide::kRegisters && side_of<D> == CopySide::kRegisters) return 1;
    int64_t n = int64_t(16 / sizeof(T));
    const int64_t size = std::remove_cvref_t<S>::size();
    for (; n > 1; n /= 2)
      if (size % n == 0 && vector_fault<S>(n) == VectorFault::kOk &&
          vector_fault<D>(n) == VectorFault::kOk)
        break;
    return n;
  }
}

// What the static faults leave to run time: (global) the pointer of the side's first element
// aligned to n values and every run-time stride along which the fragment moves a multiple of n.
// A shared side's alignment is static (OffsetView::kAligned).
template <int64_t n, class V>
TESSERA_HD inline bool vector_aligned(V const& x) {
  using X = std::remove_cvref_t<V>;
  constexpr uintptr_t kBytes = uintptr_t(n) * sizeof(element_of<X>);
  if constexpr (n == 1 || side_of<X> == CopySide::kRegisters) {
    return true;
  } else if constexpr (side_of<X> == CopySide::kShared) {
    // Static (kAligned): only the tile pointer's 16-byte alignment is assumed, and checked here
    // under TESSERA_DEBUG.
    debug_require(
        reinterpret_cast<uintptr_t>(&x(0)) % kBytes == 0,
        "rule::shared_tile_is_not_16_byte_aligned: copy: a shared tile's pointer must be 16-byte "
        "aligned (make_tensor<layout>(smem))");
    return true;
  } else {
    constexpr int R = X::kRank;
    static constexpr CoordLayout<R> kC = coords_of(X::kSpec);
    // The run-time strides the fragment moves along (1: test it).
    static constexpr Coord<R> kTest = [] {
      const Coord<R> last = last_coords(kC);
      Coord<R> t;
      for (int j = 0; j < R; ++j) t.v[j] = !X::kStatic.is_static(j) && last.v[j] != kC(0).v[j];
      return t;
    }();
    bool ok = reinterpret_cast<uintptr_t>(&x(0)) % kBytes == 0;
    TESSERA_UNROLL
    for (int j = 0; j < R; ++j)
      if (kTest.v[j]) ok = ok && x.stride.s[j] % n == 0;
    return ok;
  }
}

// n values as one aligned access.
template <class T, int64_t n>
struct alignas(sizeof(T) * n) Pack {
  T x[n];
};

// Values v..v+n-1 from src to dst as one vector of the memory side's type (registers: n
// scalar moves, converting to the register type, e.g. fp32 -> tf32 rounds).
template <int64_t n, class S, class D>
TESSERA_HD inline void move_vector(S const& src, D& dst, int64_t v) {
  constexpr bool kSrcRegs = side_of<S> == CopySide::kRegisters;
  using T = std::conditional_t<kSrcRegs, element_of<D>, element_of<S>>;
  static_assert(kSrcRegs || side_of<D> == CopySide::kRegisters || std::is_same_v<T, element_of<D>>,
                "rule::copy_element_types_differ: copy: a vector copy between memories needs one "
                "element type");
  Pack<T, n> p;
  if constexpr (kSrcRegs) {
    TESSERA_UNROLL
    for (int64_t e = 0; e < n; ++e) p.x[e] = T(src(v + e));
  } else {
    p = *reinterpret_cast<Pack<T, n> const*>(&src(v));
  }
  if constexpr (side_of<D> == CopySide::kRegisters) {
    TESSERA_UNROLL
    for (int64_t e = 0; e < n; ++e) dst(v + e) = element_of<D>(p.x[e]);
  } else {
    *reinterpret_cast<Pack<T, n>*>(&dst(v)) = p;
  }
}

// Values v..v+n-1 one by one, converted to the destination's type.
template <int64_t n, class S, class D>
TESSERA_HD inline void move_elements(S const& src, D& dst, int64_t v) {
  using U = element_of<D>;
  TESSERA_UNROLL
  for (int64_t e = 0; e < n; ++e) dst(v + e) = U(src(v + e));
}

}  // namespace tessera
