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

}  // namespace tessera
