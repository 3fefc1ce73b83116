// tessera/notation.hpp -- print and parse CuTe's notation, one parser for run time and compile
// time.
//
//   integer tuple   4   (4)   (2,(3,4))        spaces allowed between tokens, none printed
//   layout          (4,2):(1,64)   8:1   ((2,2),(3,2)):((1,2),(4,12))
//   swizzle         Sw<3,4,3>
//   swizzled layout Sw<3,4,3> o 0 o (8,64):(64,1)   (CuTe prints the offset _0; the short form
//                   Sw<3,4,3> o (8,64):(64,1) has offset 0)
//   tiler           a layout; a shape such as (2,3) meaning (2:1,3:1), (2,(4,2)) nesting by mode;
//                   or a tuple of layouts, shapes and `_` such as (3:3,_,(2,4):(1,8))
//
// Static and run-time integers (CuTe's Int<4> and int; int_tuple.hpp): print writes the notation
// contract's form, without marks; cute_form(x) writes CuTe's own print, a static leaf as _4 and a
// run-time one as 4. The parser reads both. A leaf written _4 is static; a bare 4 is static too,
// unless the text is in CuTe's form (some leaf is written with `_`, so the bare ones are the
// run-time ones, as CuTe prints them) or the caller asks for run-time bare leaves:
//
//   "(4,2):(1,64)"            all static              (the notation contract)
//   "((_2,_2),4):((_1,8),64)" 4 and 64 run-time, the rest static
//   Parser(s, n, true) on "(128,128):(128,1)": all run-time (the CLI's --runtime)
//
// parse(print(x)) == x for every value, and parse(cute_form(x)) keeps every mark (given `true`
// where x has no static leaf). A malformed string is an error naming the character
// position; in a constant expression (the _layout, _tuple and _tiler literals) it fails
// compilation:
//
//   constexpr auto L = "(4,2):(1,64)"_layout;   // a Layout, usable as a template argument
//
// The host conveniences over std::string (parse_*(std::string_view), to_string) are in
// tessera/strings.hpp, so that device code (the GEMM kernels) does not pay for <string>.
#pragma once

#include "swizzle.hpp"

namespace tessera {

class Parser {
 public:
  // `runtime`: bare integers are run-time ones. Text in CuTe's form (a leaf such as _4) reads so
  // in any case.
  TESSERA_HD constexpr Parser(const char* s, int n, bool runtime = false)
      : s_(s), n_(n), runtime_(runtime) {
    for (int i = 0; i < n; ++i) runtime_ |= static_leaf_at(i);
  }

  TESSERA_HD constexpr IntTuple int_tuple() {
    IntTuple t = tuple();
    finish();
    return t;
  }
  TESSERA_HD constexpr Layout layout() {
    Layout l = plain_layout();
    finish();
    return l;
  }
  TESSERA_HD constexpr Swizzle swizzle() {
    Swizzle sw = swizzle_token();
    finish();
    return sw;
  }
  // A swizzled layout; a plain layout reads as Sw<0,0,0> o 0 o L (the identity swizzle).
  TESSERA_HD constexpr SwizzledLayout swizzled_layout() {
    SwizzledLayout r;
    skip_spaces();
    if (at('S')) {
      r.swizzle = swizzle_token();
      keyword('o');
      // The offset (CuTe prints it _0), or straight the layout: Sw<3,4,3> o (8,64):(64,1).
      skip_spaces();
      int start = pos_;
      if (static_leaf_at(pos_)) ++pos_;
      IntTuple first = tuple();
      skip_spaces();
      if (at(':')) {
        r.layout = layout_from(first, start);
        finish();
        return r;
      }
      if (first.n != 1 || first.tup[0]) {
        pos_ = start;
        error("expected the offset (an integer) or a layout after 'o'");
      }
      r.offset = first.v[0];
      keyword('o');
    }
    r.layout = plain_layout();
    finish();
    return r;
  }
  TESSERA_HD constexpr Tiler tiler() {
    skip_spaces();
    Tiler t = at('(') ? tuple_tiler() : scalar_tiler();
    finish();
    return t;
  }

 private:
  const char* s_;
  int n_;
  int pos_ = 0;
  bool runtime_ = false;  // bare integers are run-time

  // `_` followed by a digit or '-': a static leaf in CuTe's form (a lone `_` keeps a tiler mode).
  TESSERA_HD constexpr bool static_leaf_at(int i) const {
    return i + 1 < n_ && s_[i] == '_' &&
           ((s_[i + 1] >= '0' && s_[i + 1] <= '9') || s_[i + 1] == '-');
  }

  // Not constexpr: reaching it in a constant expression stops compilation at the bad character.
  [[noreturn]] TESSERA_HD void error(const char* what) const {
    Text t;
    t << "parse: " << what << " at position " << pos_ << " in \"";
    for (int i = 0; i < n_; ++i) t << s_[i];
    t << '"';
    fail(t);
  }
  TESSERA_HD constexpr void skip_spaces() {
    while (pos_ < n_ && (s_[pos_] == ' ' || s_[pos_] == '\t')) ++pos_;
  }
  TESSERA_HD constexpr bool at(char c) const { return pos_ < n_ && s_[pos_] == c; }
  TESSERA_HD constexpr void expect(char c, const char* what) {
    skip_spaces();
    if (!at(c)) error(what);
    ++pos_;
  }
  TESSERA_HD constexpr void keyword(char c) {
    skip_spaces();
    if (!at(c)) error("expected 'o' (composition) in a swizzled layout");
    ++pos_;
  }
  TESSERA_HD constexpr void finish() {
    skip_spaces();
    if (pos_ != n_) error("unexpected character after the end");
  }

  TESSERA_HD constexpr int64_t integer() {
    skip_spaces();
    bool negative = at('-');
    if (negative) ++pos_;
    if (!(pos_ < n_ && s_[pos_] >= '0' && s_[pos_] <= '9')) error("expected an integer");
    int64_t v = 0;
    while (pos_ < n_ && s_[pos_] >= '0' && s_[pos_] <= '9') {
      int digit = s_[pos_] - '0';
      if (v > (INT64_MAX - digit) / 10) error("integer does not fit in 64 bits");
      v = v * 10 + digit;
      ++pos_;
    }
    return negative ? -v : v;
  }

  // tuple := integer | '(' tuple (',' tuple)* ')'
  // Parsed into one IntTuple in preorder; `open` holds the node of each tuple not yet closed,
  // whose child count grows as its elements complete.
  TESSERA_HD constexpr IntTuple tuple() {
    IntTuple t;
    t.n = 0;
    int open[kMaxNodes] = {};
    int depth = 0;
    while (true) {
      skip_spaces();
      if (t.n == kMaxNodes) error("tuple exceeds the capacity of 32 nodes");
      if (at('(')) {
        t.tup[t.n] = true;
        t.v[t.n] = 0;
        open[depth++] = t.n++;
        ++pos_;
        continue;
      }
      bool marked_static = static_leaf_at(pos_);
      if (marked_static) ++pos_;
      t.dyn[t.n] = runtime_ && !marked_static;
      t.v[t.n++] = integer();
      // An element is complete: count it in its tuple, then a ',' starts the next element or a
      // ')' completes the tuple itself (an element of the tuple around it).
      while (true) {
        if (depth == 0) return t;
        t.v[open[depth - 1]] += 1;
        skip_spaces();
        if (at(',')) {
          ++pos_;
          break;
        }
        if (!at(')')) error("expected ',' or ')'");
        ++pos_;
        --depth;
      }
    }
  }

  TESSERA_HD constexpr Layout layout_from(IntTuple const& shape, int shape_pos) {
    check_positive(shape, shape_pos);
    expect(':', "expected ':' between shape and stride");
    int stride_pos = pos_;
    IntTuple stride = tuple();
    if (!congruent(shape, stride)) {
      pos_ = stride_pos;
      error("stride is not congruent to the shape");
    }
    return Layout(shape, stride);
  }
  TESSERA_HD constexpr Layout plain_layout() {
    skip_spaces();
    int start = pos_;
    IntTuple shape = tuple();
    return layout_from(shape, start);
  }

  TESSERA_HD constexpr Swizzle swizzle_token() {
    skip_spaces();
    if (!(pos_ + 2 < n_ && s_[pos_] == 'S' && s_[pos_ + 1] == 'w' && s_[pos_ + 2] == '<'))
      error("expected Sw<B,M,S>");
    pos_ += 3;
    int64_t b = integer();
    expect(',', "expected ',' in Sw<B,M,S>");
    int64_t m = integer();
    expect(',', "expected ',' in Sw<B,M,S>");
    int64_t s = integer();
    expect('>', "expected '>' to close Sw<B,M,S>");
    if (b < 0 || m < 0 || abs64(s) < b || b + m + abs64(s) > 62)
      error("Sw<B,M,S> needs B >= 0, M >= 0, |S| >= B and B+M+|S| <= 62");
    return Swizzle(int(b), int(m), int(s));
  }

  TESSERA_HD constexpr void check_positive(IntTuple const& shape, int shape_pos) {
    for (int i = 0; i < shape.n; ++i) {
      if (!shape.tup[i] && shape.v[i] <= 0) {
        pos_ = shape_pos;
        error("shape entries must be positive");
      }
    }
  }

  // An integer tiler n means n:1; a layout is itself.
  TESSERA_HD constexpr Tiler scalar_tiler() {
    int start = pos_;
    IntTuple t = tuple();
    skip_spaces();
    if (at(':')) return Tiler(layout_from(t, start));
    check_positive(t, start);
    return Tiler(t);
  }

  // '(' entries ')' where an entry is `_`, an integer, a shape or a layout. All-shape entries
  // followed by ':' form a layout; all-integer entries form a by-mode shape tiler.
  TESSERA_HD constexpr Tiler tuple_tiler() {
    int start = pos_;
    ++pos_;
    Tiler t;
    t.by_mode = true;
    t.n = 0;
    TupleBuilder shapes;
    bool plain = true;  // no entry is `_` or a layout so far
    do {
      skip_spaces();
      if (t.n == Tiler::kMaxModes) error("a tiler has at most 8 modes");
      if (at('_') && !static_leaf_at(pos_)) {
        ++pos_;
        t.add(_);
        plain = false;
      } else {
        int entry = pos_;
        IntTuple x = tuple();
        skip_spaces();
        if (at(':')) {
          t.add(layout_from(x, entry));
          plain = false;
        } else {
          check_positive(x, entry);
          shapes.add(x);
          t.add_shape(x);  // an integer n is n:1, a tuple a nested by-mode tiler
        }
      }
      skip_spaces();
    } while (at(',') && ++pos_);
    expect(')', "expected ',' or ')' in a tiler");
    skip_spaces();
    if (plain && at(':')) return Tiler(layout_from(shapes.get(), start));
    return t;
  }
};

namespace detail {
TESSERA_HD constexpr int length(const char* s) {
  int n = 0;
  while (s[n]) ++n;
  return n;
}
// A string literal as a class-type template argument, for the compile-time literals.
template <int N>
struct FixedString {
  char s[N] = {};
  constexpr FixedString(const char (&str)[N]) {
    for (int i = 0; i < N; ++i) s[i] = str[i];
  }
};
}  // namespace detail

TESSERA_HD constexpr IntTuple parse_int_tuple(const char* s) {
  return Parser(s, detail::length(s)).int_tuple();
}
TESSERA_HD constexpr Layout parse_layout(const char* s) {
  return Parser(s, detail::length(s)).layout();
}
TESSERA_HD constexpr Tiler parse_tiler(const char* s) {
  return Parser(s, detail::length(s)).tiler();
}
TESSERA_HD constexpr SwizzledLayout parse_swizzled_layout(const char* s) {
  return Parser(s, detail::length(s)).swizzled_layout();
}
TESSERA_HD constexpr Swizzle parse_swizzle(const char* s) {
  return Parser(s, detail::length(s)).swizzle();
}

namespace literals {
template <detail::FixedString S>
consteval Layout operator""_layout() {
  return Parser(S.s, int(sizeof(S.s)) - 1).layout();
}
template <detail::FixedString S>
consteval IntTuple operator""_tuple() {
  return Parser(S.s, int(sizeof(S.s)) - 1).int_tuple();
}
// "(4,(2,8))"_tiler, "(3:3,_,(2,4):(1,8))"_tiler: the tiler argument of the divides and products.
template <detail::FixedString S>
consteval Tiler operator""_tiler() {
  return Parser(S.s, int(sizeof(S.s)) - 1).tiler();
}
}  // namespace literals

}  // namespace tessera
