// tessera/fragment.hpp -- register tensors: a thread's values in registers, with a static layout.
//
// A fragment is a tensor (CuTe's register tensor): registers `T v[cosize(L)]` and a static layout
// L from the fragment's coordinates to register indices. Element i (the colexicographic index
// over L's shape) is register L(i); natural coordinates (c0, c1, ...) are register
// sum_j L_j(c_j); a slice with `_` keeps those modes and folds the others into the pointer:
//
//   tCrA = thr_mma.partition_fragment_A(sA)   // ((2,2,2),4,2):((1,2,4),8,32), 64 halves
//   tCrA(_, _, 1)                             // ((2,2,2),4):((1,2,4),8) at register 32
//   tCrA(3, 2, 1)                             // register 3 + 8*2 + 32*1 = 51 (a T&)
//
// Fragment<T, L> owns the registers; FragmentView<T, L> is a T* (the slice's register 0) with the
// same interface. f.data() is a RegPtr (CuTe's rmem_ptr): make_tensor<L2>(f.data()) views the same
// registers through another layout (a shared-memory pointer makes an OffsetView instead).
//
// Folding: L is a template argument and every index a constant after unrolling, so each access
// is one fixed register; an index known only at run time would put the array in local memory.
#pragma once

#include <type_traits>
#include <utility>

#include "algebra.hpp"
#include "config.hpp"
#include "tensor_view.hpp"

namespace tessera {

// A pointer into registers, tagged (CuTe's rmem_ptr): make_tensor<L>(p) is a FragmentView.
// kRegs: how many registers lie behind it (checked against the view's cosize).
template <class T, int64_t kRegs>
struct RegPtr {
  T* ptr;
};

template <class T, Layout kL>
struct FragmentView;

namespace detail {
// The register of index i of layout kL (a constant where i is).
// NOTE: a layout that coalesces to one leaf s:d (every compact fragment, most single modes) is
// i * d; only the others evaluate their lowered form. Both fold, but the short form keeps the
// optimizer's work per access small (a kernel makes thousands of accesses).
template <Layout kL>
TESSERA_HD inline int64_t reg_offset(int64_t i) {
  static constexpr Layout kC = coalesce(kL);
  if constexpr (kC.shape.is_int()) {
    return i * kC.stride.value();
  } else {
    static constexpr CoordLayout<1> kF = make_offset_layout(kL);
    return kF(i)[0];
  }
}
// The layout of the modes kept by a slice (mask bit j: mode j is `_`).
TESSERA_HD constexpr Layout kept_modes(Layout const& l, unsigned mask) {
  LayoutBuilder b;
  for (int j = 0; j < l.rank(); ++j)
    if (mask >> j & 1u) b.add(l[j]);
  return b.get();
}
TESSERA_HD constexpr bool is_fragment_layout(Layout const& l) {
  return !any_runtime(l.shape) && l.size() >= 1;
}

template <class C>
inline constexpr bool kIsUnderscore = std::is_same_v<std::remove_cvref_t<C>, Underscore>;

// The register offset of coordinate c in mode J of kL (0 for `_`); a run-time coordinate out of
// the mode traps under TESSERA_DEBUG, a std::integral_constant one fails to compile.
template <Layout kL, int J, class C>
TESSERA_HD inline int64_t mode_offset(C c) {
  if constexpr (kIsUnderscore<C>) {
    return 0;
  } else {
    static constexpr int64_t kExtent = kL[J].size();
    if constexpr (requires { C::value; }) {
      static_assert(C::value >= 0 && C::value < kExtent,
                    "fragment: a static slice index is outside its mode");
    }
#if defined(TESSERA_DEBUG)
    if (int64_t(c) < 0 || int64_t(c) >= kExtent)
      fail("fragment: a slice index is outside its mode");
#endif
    return reg_offset<kL[J]>(int64_t(c));
  }
}

// Element (no `_`) or sub-view (some `_`) of the registers at v for coordinates cs.
template <class T, Layout kL, class... Cs, size_t... J>
TESSERA_HD inline decltype(auto) at_coords(T* v, std::index_sequence<J...>, Cs... cs) {
  static_assert(sizeof...(Cs) == size_t(kL.rank()),
                "fragment: one coordinate (or `_`) per mode of the fragment's layout");
  const int64_t off = (int64_t(0) + ... + mode_offset<kL, int(J)>(cs));
  constexpr unsigned kMask = ((unsigned(kIsUnderscore<Cs>) << J) | ... | 0u);
  if constexpr (kMask == 0) {
    return v[off];
  } else {
    return FragmentView<T, kept_modes(kL, kMask)>{v + off};
  }
}
}  // namespace detail

// The static interface of Fragment and FragmentView.
#define TESSERA_FRAGMENT_TRAITS(T, kL)                                \
  static_assert(detail::is_fragment_layout(kL),                       \
                "fragment: the layout must be static, of size >= 1"); \
  static constexpr Layout kLayout = kL;                               \
  static constexpr int64_t kCosize = kL.cosize();                     \
  using Element = T;                                                  \
  TESSERA_HD static constexpr int64_t size() { return kL.size(); }    \
  TESSERA_HD static constexpr int rank() { return kL.rank(); }

// A view of registers through a static layout (a slice, a retile, make_tensor(f.data(), L)).
// Copies of it refer to the same registers.
template <class T, Layout kL>
struct FragmentView {
  TESSERA_FRAGMENT_TRAITS(T, kL)
  T* v;
  // Element i: the colexicographic index over the shape (all modes together).
  TESSERA_HD inline T& operator()(int64_t i) const { return v[detail::reg_offset<kL>(i)]; }
  TESSERA_HD inline FragmentView operator()(Underscore) const { return *this; }
  // Natural coordinates, one per mode; `_` keeps a mode: f(_, m, _) is a FragmentView.
  template <class C0, class C1, class... Cs>
  TESSERA_HD inline decltype(auto) operator()(C0 c0, C1 c1, Cs... cs) const {
    return detail::at_coords<T, kL>(v, std::make_index_sequence<2 + sizeof...(Cs)>{}, c0, c1,
                                    cs...);
  }
  // Mode kMode fixed at k (the other modes kept).
  template <int kMode>
  TESSERA_HD inline auto slice(int64_t k) const {
    static_assert(kMode >= 0 && kMode < kL.rank(),
                  "fragment: slice of a mode the layout does not have");
    return FragmentView<T, detail::kept_modes(kL, ((1u << kL.rank()) - 1) & ~(1u << kMode))>{
        v + detail::mode_offset<kL, kMode>(k)};
  }
  TESSERA_HD inline RegPtr<T, kL.cosize()> data() const { return {v}; }
};

// A fragment that owns its registers (CuTe's make_tensor<T>(layout) in registers).
template <class T, Layout kL>
struct Fragment {
  TESSERA_FRAGMENT_TRAITS(T, kL)
  // NOTE: 4-byte aligned at least, so that pairs of 16-bit values read as one 32-bit register
  // (the mma.sync and ldmatrix operands).
  alignas(alignof(T) > 4 ? alignof(T) : 4) T v[kL.cosize()];

  TESSERA_HD inline T& operator()(int64_t i) { return v[detail::reg_offset<kL>(i)]; }
  TESSERA_HD inline T const& operator()(int64_t i) const { return v[detail::reg_offset<kL>(i)]; }
  TESSERA_HD inline FragmentView<T, kL> operator()(Underscore) { return view(); }
  template <class C0, class C1, class... Cs>
  TESSERA_HD inline decltype(auto) operator()(C0 c0, C1 c1, Cs... cs) {
    return detail::at_coords<T, kL>(v, std::make_index_sequence<2 + sizeof...(Cs)>{}, c0, c1,
                                    cs...);
  }
  template <class C0, class C1, class... Cs>
  TESSERA_HD inline decltype(auto) operator()(C0 c0, C1 c1, Cs... cs) const {
    return detail::at_coords<T const, kL>(v, std::make_index_sequence<2 + sizeof...(Cs)>{}, c0, c1,
                                          cs...);
  }
  template <int kMode>
  TESSERA_HD inline auto slice(int64_t k) {
    return view().template slice<kMode>(k);
  }
  template <int kMode>
  TESSERA_HD inline auto slice(int64_t k) const {
    return view().template slice<kMode>(k);
  }
  // The same registers as a view (what a copy writes through: a copy of the view shares them).
  TESSERA_HD inline FragmentView<T, kL> view() { return {v}; }
  TESSERA_HD inline FragmentView<T const, kL> view() const { return {v}; }
  TESSERA_HD inline RegPtr<T, kL.cosize()> data() { return {v}; }
  TESSERA_HD inline RegPtr<T const, kL.cosize()> data() const { return {v}; }
};

// The registers behind p through layout kL (CuTe's make_tensor(frag.data(), layout)).
template <Layout kL, class T, int64_t kRegs>
TESSERA_HD inline FragmentView<T, kL> make_tensor(RegPtr<T, kRegs> p) {
  static_assert(detail::is_fragment_layout(kL),
                "make_tensor: a register view's layout must be static");
  static_assert(kL.cosize() <= kRegs,
                "make_tensor: the layout's cosize exceeds the registers behind the pointer");
  return {p.ptr};
}

// A compact fragment of shape kShape (column-major registers): make_fragment<float, kShape>().
template <class T, IntTuple kShape>
TESSERA_HD constexpr Fragment<T, Layout(kShape)> make_fragment() {
  return {};
}

namespace detail {
// The fragment shape of a view: a tensor view's Spec, a static or register view's layout.
template <class V>
TESSERA_HD constexpr IntTuple fragment_shape() {
  if constexpr (requires { V::kSpec; })
    return V::kSpec.frg.shape;
  else
    return V::kLayout.shape;
}
template <class V>
using element_of = std::remove_const_t<typename V::Element>;
}  // namespace detail

// Registers for the elements of a view, compact in its shape (CuTe's make_fragment_like):
// make_fragment_like<float>(tCgC) for a global partition, make_fragment_like(tCrA(_, _, 0)).
template <class T, class V>
TESSERA_HD constexpr auto make_fragment_like(V const&) {
  return Fragment<T, Layout(detail::fragment_shape<V>())>{};
}
template <class V>
requires(!std::is_void_v<typename V::Element>) TESSERA_HD
    constexpr auto make_fragment_like(V const&) {
  return Fragment<detail::element_of<V>, Layout(detail::fragment_shape<V>())>{};
}

// Every value of a fragment set to zero.
template <class F>
TESSERA_HD constexpr void clear(F&& f) {
  using T = std::remove_const_t<typename std::remove_cvref_t<F>::Element>;
TESSERA_UNROLL
  for (int64_t i = 0; i < std::remove_cvref_t<F>::size(); ++i) f(i) = T();  // value-initialized: 0
}
// f(i) = op(src(i)) for every element (same shape; layouts may differ).
TESSERA_CALLS_USER_CODE
template <class Src, class Dst, class Op>
TESSERA_HD constexpr void transform(Src const& src, Dst&& dst, Op const& op) {
  static_assert(Src::size() == std::remove_cvref_t<Dst>::size(),
                "transform: source and destination sizes differ");
TESSERA_UNROLL
  for (int64_t i = 0; i < Src::size(); ++i) dst(i) = op(src(i));
}
TESSERA_CALLS_USER_CODE
template <class F, class Op>
TESSERA_HD constexpr void transform(F&& f, Op const& op) {
TESSERA_UNROLL
  for (int64_t i = 0; i < std::remove_cvref_t<F>::size(); ++i) f(i) = op(f(i));
}
// A fragment of U with src's layout, each value converted (convert<__half>(acc)).
template <class U, class F>
TESSERA_HD constexpr auto convert(F const& src) {
  Fragment<U, F::kLayout> r;
TESSERA_UNROLL
  for (int64_t i = 0; i < F::kCosize; ++i) r.v[i] = U(src.v[i]);
  return r;
}

#undef TESSERA_FRAGMENT_TRAITS

}  // namespace tessera
