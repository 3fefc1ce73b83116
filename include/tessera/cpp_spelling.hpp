// tessera/cpp_spelling.hpp -- CuTe's C++ spellings of layouts, shapes, tiles and swizzles read
// as tessera's notation (host only: the CLI, Python and the page parse through strings.hpp).
//
//   Layout<Shape<_4,_8>,Stride<_8,_1>>               -> (_4,_8):(_8,_1)      i.e. (4,8):(8,1)
//   make_layout(make_shape(4,8), make_stride(8,1))   -> (4,8):(8,1)
//   make_layout(make_shape(Int<4>{}, 8))             -> (_4,8):(_1,_4)       compact, column-major
//   Tile<_32,_32,_16>                                -> (_32,_32,_16)
//   composition(Swizzle<3,4,3>{}, make_layout(...)) -> Sw<3,4,3> o 0 o ...
//   ComposedLayout<Swizzle<3,4,3>,_0,Layout<...>>    -> the same
//
// Int<4>{}, _4 and C<4>{} are static leaves (_4); a bare 4 stays 4, and strings.hpp's parse
// functions read it as C++ does, a run-time int. Spaces, `cute::` and trailing `{}` / `()` are
// ignored. Anything else is an error naming what tessera reads.
#pragma once

#include "notation.hpp"

#if !defined(__CUDA_ARCH__)
#include <cctype>
#include <string>
#include <string_view>
#include <vector>

namespace tessera {

namespace detail {

class CppSpelling {
 public:
  explicit CppSpelling(std::string_view s) : s_(strip(s)) {}

  std::string translate() {
    std::string out = expr();
    if (pos_ != s_.size()) error("unexpected text after the end");
    return out;
  }

 private:
  std::string s_;
  size_t pos_ = 0;

  // Without spaces and `cute::`.
  static std::string strip(std::string_view s) {
    std::string r;
    for (char c : s)
      if (c != ' ' && c != '\t' && c != '\n') r += c;
    for (size_t at; (at = r.find("cute::")) != std::string::npos;) r.erase(at, 6);
    return r;
  }
  [[noreturn]] void error(std::string const& what) const {
    Text t;
    t << "C++ spelling: " << what.c_str() << " at position " << int64_t(pos_) << " in \""
      << s_.c_str() << "\" (tessera reads Layout<S,D>, Shape<..>, Stride<..>, Tile<..>, "
      << "Coord<..>, make_layout/make_shape/make_stride/make_tile/make_coord, Int<n>, _n, "
      << "Swizzle<B,M,S>, composition(swizzle, layout), ComposedLayout<swizzle,_0,layout>)";
    fail(t);
  }
  bool at(char c) const { return pos_ < s_.size() && s_[pos_] == c; }
  void expect(char c) {
    if (!at(c)) error(std::string("expected '") + c + "'");
    ++pos_;
  }
  // An empty `{}` or `()` after a type (a value of it).
  void skip_value_braces() {
    if (s_.compare(pos_, 2, "{}") == 0 || s_.compare(pos_, 2, "()") == 0) pos_ += 2;
  }
  std::string name() {
    size_t start = pos_;
    while (pos_ < s_.size() && (std::isalnum(static_cast<unsigned char>(s_[pos_])) ||
                                s_[pos_] == '_'))
      ++pos_;
    return s_.substr(start, pos_ - start);
  }
  std::string integer() {
    size_t start = pos_;
    if (at('-')) ++pos_;
    while (pos_ < s_.size() && std::isdigit(static_cast<unsigned char>(s_[pos_]))) ++pos_;
    if (pos_ == start || (pos_ == start + 1 && s_[start] == '-')) error("expected an integer");
    return s_.substr(start, pos_ - start);
  }
  // Arguments up to `close`, translated, comma-separated.
  std::vector<std::string> args(char close) {
    std::vector<std::string> r;
    if (at(close)) return ++pos_, r;
    do r.push_back(expr());
    while (at(',') && ++pos_);
    expect(close);
    return r;
  }
  static std::string tuple(std::vector<std::string> const& a) {
    std::string r = "(";
    for (size_t i = 0; i < a.size(); ++i) r += (i ? "," : "") + a[i];
    return r + ")";
  }
  // A compact column-major layout of a shape (CuTe's make_layout(shape)).
  static std::string compact(std::string const& shape) {
    Parser p(shape.data(), int(shape.size()));
    return to_cute_string(Layout(p.int_tuple()));
  }
  std::string expr();
  std::string call(std::string const& fn, char close, size_t start);
  template <class T>
  static std::string to_cute_string(T const& x) {
    Text t;
    t << cute_form(x);
    return std::string(t.s, t.n);
  }
};

inline std::string CppSpelling::expr() {
  auto digit = [&](size_t i) {
    return i < s_.size() && (std::isdigit(static_cast<unsigned char>(s_[i])) || s_[i] == '-');
  };
  if (digit(pos_)) return integer();
  if (at('_') && digit(pos_ + 1)) {  // _4: a static integer
    ++pos_;
    std::string n = integer();
    skip_value_braces();
    return "_" + n;
  }
  if (at('_') && !(pos_ + 1 < s_.size() && std::isalnum(static_cast<unsigned char>(s_[pos_ + 1]))))
    return ++pos_, skip_value_braces(), "_";  // _: a tiler mode kept (CuTe's Underscore)
  if (at('(')) return ++pos_, tuple(args(')'));
  const size_t start = pos_;
  std::string fn = name();
  if (fn.empty()) error("expected a name or an integer");
  if (at('<')) return ++pos_, call(fn, '>', start);
  if (at('(')) return ++pos_, call(fn, ')', start);
  if (fn == "Underscore") return skip_value_braces(), "_";
  error("'" + fn + "' is not a CuTe layout, shape, tile or integer spelling");
}

inline std::string CppSpelling::call(std::string const& fn, char close, size_t start) {
  std::vector<std::string> a = args(close);
  skip_value_braces();
  auto arity = [&](size_t lo, size_t hi) {
    if (a.size() < lo || a.size() > hi)
      error(fn + " takes " + std::to_string(lo) + (lo == hi ? "" : "-" + std::to_string(hi)) +
            " arguments, got " + std::to_string(a.size()));
  };
  if (fn == "Int" || fn == "C") return arity(1, 1), "_" + a[0];
  if (fn == "Shape" || fn == "Stride" || fn == "Tile" || fn == "Coord" || fn == "Step" ||
      fn == "tuple" || fn == "make_shape" || fn == "make_stride" || fn == "make_tile" ||
      fn == "make_coord" || fn == "make_step" || fn == "make_tuple")
    return tuple(a);
  if (fn == "Layout" || fn == "make_layout") {
    arity(1, 2);
    return a.size() == 2 ? a[0] + ":" + a[1] : compact(a[0]);
  }
  if (fn == "Swizzle") return arity(3, 3), "Sw<" + a[0] + "," + a[1] + "," + a[2] + ">";
  if (fn == "composition" || fn == "make_composed_layout" || fn == "ComposedLayout") {
    arity(2, 3);
    if (a[0].rfind("Sw<", 0) != 0) error(fn + ": tessera composes a Swizzle with a layout here");
    std::string offset = a.size() == 3 ? a[1] : "0";
    return a[0] + " o " + offset + " o " + a.back();
  }
  pos_ = start;
  error("'" + fn + "' is not a CuTe layout, shape, tile or integer spelling");
}

}  // namespace detail

// Whether text is written in C++ (a name followed by '<' or '(', or Int<..>): the notation has
// no names but `Sw<`.
inline bool is_cpp_spelling(std::string_view s) {
  for (size_t i = 0; i + 1 < s.size(); ++i) {
    if (!std::isalpha(static_cast<unsigned char>(s[i]))) continue;
    size_t j = i;
    while (j < s.size() && (std::isalnum(static_cast<unsigned char>(s[j])) || s[j] == '_')) ++j;
    std::string_view word = s.substr(i, j - i);
    while (j < s.size() && s[j] == ' ') ++j;
    if (word != "Sw" && word != "o" && j < s.size() && (s[j] == '<' || s[j] == '(' || s[j] == ':'))
      return true;
    i = j;
  }
  return false;
}

// The notation for a C++ spelling (above); text that is not C++ comes back unchanged.
inline std::string from_cpp_spelling(std::string_view s) {
  if (!is_cpp_spelling(s)) return std::string(s);
  return detail::CppSpelling(s).translate();
}

}  // namespace tessera
#endif
