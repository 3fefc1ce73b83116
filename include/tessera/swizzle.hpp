// tessera/swizzle.hpp -- Swizzle<B,M,S> and swizzled (composed) layouts.
//
// Sw<B,M,S> XORs B bits of an offset into B lower bits, to spread accesses over shared-memory
// banks. With S > 0 the bits [M+S, M+S+B) are XORed into [M, M+B); S < 0 mirrors the direction:
//
//   Sw<B,M,S>(x) = x ^ ((x & yyy) >> S)   yyy = (2^B - 1) << (M + max(0,S))
//
//   Sw<3,4,3> on 16-byte chunks of a 128-byte row (the 128B swizzle): offset 0x80 (row 1,
//   chunk 0) -> 0x90 (row 1, chunk 1). |S| >= B is required so the two bit ranges do not overlap.
//
// A swizzled layout applies a plain layout, adds an offset, then swizzles: Sw o offset o L,
// written `Sw<B,M,S> o 0 o (8,8):(8,1)`.
#pragma once

#include "algebra.hpp"

namespace tessera {

struct Swizzle {
  int bits = 0, base = 0, shift = 0;  // B, M, S

  constexpr Swizzle() = default;
  TESSERA_HD constexpr Swizzle(int b, int m, int s) : bits(b), base(m), shift(s) {
    if (b < 0 || m < 0 || abs64(s) < b) {
      Text t;
      t << "swizzle: Sw<" << b << ',' << m << ',' << s
        << "> needs B >= 0, M >= 0 and |S| >= B";
      fail(t);
    }
    if (b + m + abs64(s) > 62) fail("swizzle: B + M + |S| must stay below 63 bits");
  }
  TESSERA_HD constexpr int64_t yyy_mask() const {
    return ((int64_t(1) << bits) - 1) << (base + max64(0, shift));
  }
  TESSERA_HD constexpr int64_t zzz_mask() const {
    return ((int64_t(1) << bits) - 1) << (base - min64(0, shift));
  }
  TESSERA_HD constexpr int64_t operator()(int64_t x) const {
    int64_t y = x & yyy_mask();
    return x ^ (shift >= 0 ? y >> shift : y << -shift);
  }
  // The same on 32-bit offsets (shared memory: cheaper shifts and masks in device code).
  TESSERA_HD constexpr uint32_t apply32(uint32_t x) const {
    const uint32_t y = x & uint32_t(yyy_mask());
    return x ^ (shift >= 0 ? y >> shift : y << -shift);
  }
  // The offsets a swizzle permutes: [0, 2^(B+M+|S|)).
  TESSERA_HD constexpr int64_t span() const { return int64_t(1) << (bits + base + abs64(shift)); }
  constexpr bool operator==(Swizzle const&) const = default;
};

struct SwizzledLayout {
  Swizzle swizzle;
  int64_t offset = 0;
  Layout layout;

  TESSERA_HD constexpr int64_t operator()(int64_t i) const { return swizzle(offset + layout(i)); }
  TESSERA_HD constexpr int64_t operator()(IntTuple const& c) const {
    return swizzle(offset + layout(c));
  }
  TESSERA_HD constexpr int64_t size() const { return layout.size(); }
  TESSERA_HD constexpr int rank() const { return layout.rank(); }
  constexpr bool operator==(SwizzledLayout const&) const = default;
};

TESSERA_HD constexpr SwizzledLayout composition(Swizzle const& s, Layout const& l) {
  return SwizzledLayout{s, 0, l};
}
// (Sw o off o L) o T = Sw o off o (L o T): tiling a swizzled tile keeps the swizzle outside.
TESSERA_HD constexpr SwizzledLayout composition(SwizzledLayout const& s, Tiler const& t) {
  return SwizzledLayout{s.swizzle, s.offset, composition(s.layout, t)};
}
TESSERA_HD constexpr SwizzledLayout logical_divide(SwizzledLayout const& s, Tiler const& t) {
  return SwizzledLayout{s.swizzle, s.offset, logical_divide(s.layout, t)};
}
TESSERA_HD constexpr SwizzledLayout zipped_divide(SwizzledLayout const& s, Tiler const& t) {
  return SwizzledLayout{s.swizzle, s.offset, zipped_divide(s.layout, t)};
}

TESSERA_HD constexpr Text& operator<<(Text& out, Swizzle const& s) {
  return out << "Sw<" << s.bits << ',' << s.base << ',' << s.shift << '>';
}
TESSERA_HD constexpr Text& operator<<(Text& out, SwizzledLayout const& s) {
  return out << s.swizzle << " o " << s.offset << " o " << s.layout;
}

namespace detail {
TESSERA_HD constexpr int popcount64(int64_t x) {
  int c = 0;
  for (; x; x &= x - 1) ++c;
  return c;
}
TESSERA_HD constexpr int trailing_zeros64(int64_t x) {
  int c = 0;
  while (x && !(x & 1)) x >>= 1, ++c;
  return c;
}
}  // namespace detail

// The swizzle whose source bits are the mask y and whose target bits are the mask z:
// swizzle_from_masks(0b1000, 0b0100) = Sw<1,2,1>. Both masks must be runs of as many bits.
TESSERA_HD constexpr Swizzle swizzle_from_masks(int64_t y, int64_t z) {
  int b = detail::popcount64(y);
  if (b == 0 && z == 0) return Swizzle();
  int ty = detail::trailing_zeros64(y), tz = detail::trailing_zeros64(z);
  int m = ty < tz ? ty : tz, s = ty - tz;
  bool ok = b == detail::popcount64(z) && abs64(s) >= b && b + m + abs64(s) <= 62;
  if (ok) {
    Swizzle sw(b, m, s);
    ok = sw.yyy_mask() == y && sw.zzz_mask() == z;
  }
  if (!ok) {
    Text t;
    t << "swizzle: the bit masks " << y << " (source) and " << z
      << " (target) are not two runs of as many bits: no Sw<B,M,S> has them";
    fail(t);
  }
  return Swizzle(b, m, s);
}

// L o Sw = Sw' o L, where Sw' = swizzle_from_masks(L(yyy), L(zzz)): moving a swizzle through a
// layout to its outside, as CuTe's C++ does. It holds when L maps the swizzle's bits to bits
// (e.g. a permutation of powers of two); callers check the result where it matters.
TESSERA_HD constexpr Swizzle swizzle_through(Layout const& l, Swizzle const& s) {
  return swizzle_from_masks(l(s.yyy_mask()), l(s.zzz_mask()));
}

namespace detail {
// Fails unless f(i) == g(i) for i < n: the check that a swizzle moved through a layout is exact.
template <class F, class G>
TESSERA_HD constexpr void check_same(const char* op, SwizzledLayout const& a, int64_t n, F f, G g) {
  if (n > kMaxBruteForce) {
    Text t;
    t << op << ": " << a << " has " << n << " elements, more than the " << kMaxBruteForce
      << " its swizzle check covers";
    fail(t);
  }
  for (int64_t i = 0; i < n; ++i) {
    if (f(i) != g(i)) {
      Text t;
      t << op << ": the swizzle of " << a << " does not pass through its layout (offset " << i
        << " differs), so the result is not a swizzled layout";
      fail(t);
    }
  }
}
TESSERA_HD constexpr void check_offset0(const char* op, SwizzledLayout const& a) {
  if (a.offset != 0) {
    Text t;
    t << op << ": only a swizzled layout with offset 0 is supported, not " << a;
    fail(t);
  }
}
}  // namespace detail

// right_inverse(Sw o 0 o L) = right_inverse(L) o Sw = Sw' o 0 o right_inverse(L); checked:
// S(R(i)) = i for every i < size(R).
TESSERA_HD constexpr SwizzledLayout right_inverse(SwizzledLayout const& a) {
  detail::check_offset0("right_inverse", a);
  Layout inv = right_inverse(a.layout);
  SwizzledLayout r{swizzle_through(inv, a.swizzle), 0, inv};
  detail::check_same("right_inverse", a, r.size(), [&](int64_t i) { return a(r(i)); },
                     [](int64_t i) { return i; });
  return r;
}
// left_inverse(Sw o 0 o L) = left_inverse(L) o Sw = Sw' o 0 o left_inverse(L); checked:
// S(R(S(i))) = S(i) for every i < size(S) (R(S(i)) = i when S is injective).
TESSERA_HD constexpr SwizzledLayout left_inverse(SwizzledLayout const& a) {
  detail::check_offset0("left_inverse", a);
  Layout inv = left_inverse(a.layout);
  SwizzledLayout r{swizzle_through(inv, a.swizzle), 0, inv};
  detail::check_same("left_inverse", a, a.size(), [&](int64_t i) { return a(r(a(i))); },
                     [&](int64_t i) { return a(i); });
  return r;
}
// A o (Sw o 0 o L) = (A o Sw) o L = Sw' o 0 o (A o L); checked: R(i) = A(S(i)) for i < size(S).
TESSERA_HD constexpr SwizzledLayout composition(Layout const& a, SwizzledLayout const& b) {
  detail::check_offset0("composition", b);
  SwizzledLayout r{swizzle_through(a, b.swizzle), 0, composition(a, b.layout)};
  detail::check_same("composition", b, b.size(), [&](int64_t i) { return r(i); },
                     [&](int64_t i) { return a(b(i)); });
  return r;
}
// (Sw1 o 0 o A) o (Sw2 o 0 o L) = Sw1 o Sw' o 0 o (A o L); two swizzles of the same shift merge
// into one (their masks XOR), others are rejected: the result must be one swizzled layout.
TESSERA_HD constexpr SwizzledLayout composition(SwizzledLayout const& a, SwizzledLayout const& b) {
  detail::check_offset0("composition", a);
  SwizzledLayout inner = composition(a.layout, b);
  Swizzle x = a.swizzle, y = inner.swizzle;
  if (x.bits && y.bits && x.shift != y.shift) {
    Text t;
    t << "composition: the swizzles " << x << " and " << y << " of " << a << " o " << b
      << " have different shifts and do not merge into one";
    fail(t);
  }
  Swizzle sw = !x.bits ? y : !y.bits ? x
               : swizzle_from_masks(x.yyy_mask() ^ y.yyy_mask(), x.zzz_mask() ^ y.zzz_mask());
  SwizzledLayout r{sw, 0, inner.layout};
  detail::check_same("composition", b, b.size(), [&](int64_t i) { return r(i); },
                     [&](int64_t i) { return a(b(i)); });
  return r;
}
}  // namespace tessera
