// tessera/strings.hpp -- host conveniences over std::string: parse from a std::string_view,
// print to a std::string. Part of <tessera.hpp>; kept apart from notation.hpp because <string>
// costs the host pass of every CUDA file that includes it ~0.4 s (nvcc 13: cudafe++ and g++), and
// the GEMM kernels (kernels/gemm/common.cuh) include the library without it.
//
//   tessera::parse_layout(std::string("(4,2):(1,64)"))   // Layout
//   tessera::to_string(layout)                           // "(4,2):(1,64)"
//   std::cout << layout;                                 // (4,2):(1,64)
#pragma once

#include "notation.hpp"

#if !defined(__CUDA_ARCH__)
#include <ostream>
#include <string>
#include <string_view>

namespace tessera {

// Host conveniences over std::string.
// `runtime`: bare integers are run-time (notation.hpp); _4 is static either way.
inline IntTuple parse_int_tuple(std::string_view s, bool runtime = false) {
  return Parser(s.data(), int(s.size()), runtime).int_tuple();
}
inline Layout parse_layout(std::string_view s, bool runtime = false) {
  return Parser(s.data(), int(s.size()), runtime).layout();
}
inline Tiler parse_tiler(std::string_view s, bool runtime = false) {
  return Parser(s.data(), int(s.size()), runtime).tiler();
}
inline SwizzledLayout parse_swizzled_layout(std::string_view s, bool runtime = false) {
  return Parser(s.data(), int(s.size()), runtime).swizzled_layout();
}
inline Swizzle parse_swizzle(std::string_view s) {
  return Parser(s.data(), int(s.size())).swizzle();
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
