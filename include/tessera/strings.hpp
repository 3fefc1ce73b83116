// tessera/strings.hpp -- host conveniences over std::string: parse from a std::string_view,
// print to a std::string. Part of <tessera.hpp>; kept apart from notation.hpp because <string>
// costs the host pass of every CUDA file that includes it ~0.4 s (nvcc 13: cudafe++ and g++), and
// the GEMM kernels (kernels/gemm/common.cuh) include the library without it.
//
//   tessera::parse_layout(std::string("(4,2):(1,64)"))   // Layout
//   tessera::to_string(layout)                           // "(4,2):(1,64)"
//   std::cout << layout;                                 // (4,2):(1,64)
#pragma once

#include "cpp_spelling.hpp"
#include "notation.hpp"

#if !defined(__CUDA_ARCH__)
#include <ostream>
#include <string>
#include <string_view>
#include <utility>

namespace tessera {

// Host conveniences over std::string. Text in CuTe's C++ spelling (Layout<Shape<..>,Stride<..>>,
// make_layout(..), Tile<..>, Swizzle<..>: cpp_spelling.hpp) is read as its notation, its bare
// integers as run-time ints.
// `runtime`: bare integers are run-time (notation.hpp); _4 is static either way.
namespace detail {
// The notation of s and whether its bare integers are run-time: C++ spellings translated, where
// a bare integer is an int (run-time) as in C++.
inline std::pair<std::string, bool> notation_of(std::string_view s, bool runtime) {
  if (!is_cpp_spelling(s)) return {std::string(s), runtime};
  return {from_cpp_spelling(s), true};
}
}  // namespace detail

inline IntTuple parse_int_tuple(std::string_view s, bool runtime = false) {
  const auto [t, rt] = detail::notation_of(s, runtime);
  return Parser(t.data(), int(t.size()), rt).int_tuple();
}
inline Layout parse_layout(std::string_view s, bool runtime = false) {
  const auto [t, rt] = detail::notation_of(s, runtime);
  return Parser(t.data(), int(t.size()), rt).layout();
}
inline Tiler parse_tiler(std::string_view s, bool runtime = false) {
  const auto [t, rt] = detail::notation_of(s, runtime);
  return Parser(t.data(), int(t.size()), rt).tiler();
}
inline SwizzledLayout parse_swizzled_layout(std::string_view s, bool runtime = false) {
  const auto [t, rt] = detail::notation_of(s, runtime);
  return Parser(t.data(), int(t.size()), rt).swizzled_layout();
}
inline Swizzle parse_swizzle(std::string_view s) {
  const std::string t = from_cpp_spelling(s);
  return Parser(t.data(), int(t.size())).swizzle();
}

// CuTe's printed form: to_cute_string(L) = "((_2,_2),4):((_1,8),64)".
template <class T>
std::string to_cute_string(T const& x) {
  Text t;
  t << cute_form(x);
  return std::string(t.s, t.n);
}

template <class T>
std::string to_string(T const& x) {
  Text t;
  t << x;
  return std::string(t.s, t.n);
}

// Streams print the notation, as to_string does.
inline std::ostream& operator<<(std::ostream& o, IntTuple const& x) { return o << to_string(x); }
inline std::ostream& operator<<(std::ostream& o, Layout const& x) { return o << to_string(x); }
inline std::ostream& operator<<(std::ostream& o, Tiler const& x) { return o << to_string(x); }
inline std::ostream& operator<<(std::ostream& o, Swizzle const& x) { return o << to_string(x); }
inline std::ostream& operator<<(std::ostream& o, SwizzledLayout const& x) {
  return o << to_string(x);
}

}  // namespace tessera
#endif
