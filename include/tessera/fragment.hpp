// tessera/fragment.hpp -- register fragments: a thread's values of a partition, in registers.
#pragma once

#include "config.hpp"
#include "tensor_view.hpp"

namespace tessera {

// A register fragment: N values of T, compact (CuTe's make_fragment_like / make_tensor<T>), in
// kSlices equal slices along its last mode (a k-block each for an MMA operand):
// fragment(_, _, k) is slice k, a reference to N / kSlices of the same registers.
template <class T, int N, int kSlices = 1>
struct FragmentRef {
  static_assert(N % kSlices == 0, "Fragment: the slices must divide the values");
  T* v;
  TESSERA_HD constexpr T& operator()(int i) const { return v[i]; }
  TESSERA_HD static constexpr int size() { return N; }
  TESSERA_HD constexpr FragmentRef<T, N / kSlices> operator()(Underscore, Underscore, int k) const {
    return {v + k * (N / kSlices)};
  }
};
template <class T, int N, int kSlices = 1>
struct Fragment {
  static_assert(N % kSlices == 0, "Fragment: the slices must divide the values");
  T v[N];
  TESSERA_HD constexpr T& operator()(int i) { return v[i]; }
  TESSERA_HD constexpr T const& operator()(int i) const { return v[i]; }
  TESSERA_HD static constexpr int size() { return N; }
  TESSERA_HD constexpr FragmentRef<T, N / kSlices> operator()(Underscore, Underscore, int k) {
    return {v + k * (N / kSlices)};
  }
  TESSERA_HD constexpr FragmentRef<T const, N / kSlices> operator()(Underscore, Underscore, int k) const {
    return {v + k * (N / kSlices)};
  }
  // The same registers as a view (what a copy writes through: `auto` of it does not copy them).
  TESSERA_HD constexpr FragmentRef<T, N, kSlices> ref() { return {v}; }
};
template <class T, class V>
TESSERA_HD constexpr Fragment<T, int(V::size())> make_fragment_like(V const&) {
  return {};
}
// Every value of a fragment set to zero.
template <class F>
TESSERA_HD constexpr void clear(F& f) {
TESSERA_UNROLL
  for (int i = 0; i < F::size(); ++i) f(i) = {};
}

}  // namespace tessera
