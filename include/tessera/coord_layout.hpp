// tessera/coord_layout.hpp -- layouts whose strides are coordinates (CuTe's basis strides E<i>).
//
// The bridge from static algebra to tensors with run-time strides. The algebra (tiling,
// partitioning) runs on a static tile: its compact column-major index space, e.g. (128,8):(1,128).
// A layout over that space sends a thread or value to an index; a coordinate layout sends it to
// the tile *coordinate* instead, as a vector of R integers, so that any tensor over that tile --
// whatever its strides, static or run-time -- evaluates it with one dot product:
//
//   offset(i) = sum_j C(i)_j * stride_j          (a data tensor; stride_j may be run-time)
//   coord(i)  = origin + C(i)                    (an identity tensor: predicates elem_less)
//
// Each leaf s:d of the index layout becomes s:c with c = the coordinate of index d in the tile
// (d = sum_j c_j P_j, P the tile's prefix products). That is exact only when no sum of leaves
// carries from one tile mode into the next; a leaf that runs down one mode and on into the next
// is split first at the mode boundary:
//
//   tile (128,8):   256:4  ->  (32,8):(4,128)  ->  (32,8):((4,0),(0,1))
//   step 1's C thread layout (16,16):(4,512) in (128,128)  ->  (16,16):((4,0),(0,4))
//
// The lowered form is flat, as a kernel evaluates it (one term per leaf with a non-zero
// stride, i / div % mod * c; the last leaf takes the rest of the index, i / div * c, as in
// Layout::operator()), so a static constexpr CoordLayout folds to the hand-written arithmetic.
#pragma once

#include "layout.hpp"

namespace tessera {

// A coordinate in a rank-R tile: R integers, added and compared element-wise.
template <int R>
struct Coord {
  int64_t v[R] = {};
  TESSERA_HD constexpr int64_t operator[](int j) const { return v[j]; }
  TESSERA_HD constexpr int64_t& operator[](int j) { return v[j]; }
  TESSERA_HD constexpr Coord operator+(Coord const& o) const {
    Coord r;
    for (int j = 0; j < R; ++j) r.v[j] = v[j] + o.v[j];
    return r;
  }
  TESSERA_HD constexpr Coord operator-(Coord const& o) const {
    Coord r;
    for (int j = 0; j < R; ++j) r.v[j] = v[j] - o.v[j];
    return r;
  }
  TESSERA_HD constexpr Coord operator*(int64_t k) const {
    Coord r;
    for (int j = 0; j < R; ++j) r.v[j] = v[j] * k;
    return r;
  }
  TESSERA_HD constexpr bool operator==(Coord const& o) const {
    for (int j = 0; j < R; ++j)
      if (v[j] != o.v[j]) return false;
    return true;
  }
};

// CuTe's elem_less: every entry of a below the matching entry of b (a coordinate inside a shape).
template <int R>
TESSERA_HD constexpr bool elem_less(Coord<R> const& a, Coord<R> const& b) {
  bool in = true;
  for (int j = 0; j < R; ++j) in = in && a.v[j] < b.v[j];
  return in;
}

template <int R>
struct CoordLayout {
  static constexpr int kMaxTerms = 16;
  int terms = 0;  // leading leaves: i / div % mod * stride
  int64_t div[kMaxTerms] = {}, mod[kMaxTerms] = {};
  Coord<R> stride[kMaxTerms] = {};
  int64_t last_div = 1;  // the last leaf: i / last_div * last_stride
  Coord<R> last_stride = {};
  int64_t size = 1;

  TESSERA_HD constexpr Coord<R> operator()(int64_t i) const {
    Coord<R> c = last_stride * (i / last_div);
TESSERA_UNROLL
    for (int k = 0; k < terms; ++k) c = c + stride[k] * (i / div[k] % mod[k]);
    return c;
  }
};

// The largest coordinate of each mode over all indices (a fragment's far corner).
template <int R>
TESSERA_HD constexpr Coord<R> last_coords(CoordLayout<R> const& c) {
  Coord<R> last = c(0);
  for (int64_t i = 1; i < c.size; ++i)
    for (int j = 0; j < R; ++j) last.v[j] = c(i).v[j] > last.v[j] ? c(i).v[j] : last.v[j];
  return last;
}

// The coordinate one step along mode j.
template <int R>
TESSERA_HD constexpr Coord<R> unit_coord(int j) {
  Coord<R> c;
  c.v[j] = 1;
  return c;
}

namespace detail {
// Appends leaf s:d (an index stride in the compact space of `tile`) to `out`, split at the tile
// mode boundaries it runs across: with P the prefix product just above d, a leaf with d | P,
// P | s*d and s*d > P is (P/d):d then (s*d/P):P.
template <int R>
TESSERA_HD constexpr void split_leaf(Modes& out, int64_t s, int64_t d, Coord<R> const& tile) {
  for (int j = 0; d > 0 && j + 1 < R; ++j) {
    int64_t p = 1;
    for (int i = 0; i <= j; ++i) p *= tile.v[i];
    if (d < p && p % d == 0 && (s * d) % p == 0 && s * d > p) {
      out.push(p / d, d);
      s = s * d / p, d = p;
    }
  }
  out.push(s, d);
}
}  // namespace detail

// The coordinate layouts of `layouts[0..n)`, index layouts over the compact space of the static
// tile `tile`, checked together: the sum of all their leaves must not carry between tile modes
// (per mode j < R-1, sum over leaves of (s-1) c_j < tile_j). Fails with the rule and the layouts.
template <int R>
TESSERA_HD constexpr void make_coord_layouts(Layout const* layouts, CoordLayout<R>* out, int n,
                                             Coord<R> const& tile) {
  Coord<R> reach;
  for (int li = 0; li < n; ++li) {
    Modes in = leaves(layouts[li]), split;
    for (int i = 0; i < in.n; ++i) {
      if (R > 1 && in.d[i] < 0) {  // (rank 1, an offset layout, takes any stride)
        Text t;
        t << "coord_layout: " << layouts[li] << " has a negative stride; tile coordinates need "
          << "non-negative index strides";
        fail(t);
      }
      detail::split_leaf(split, in.s[i], in.d[i], tile);
    }
    CoordLayout<R> c;
    int64_t div = 1;
    for (int i = 0; i < split.n; ++i) {
      // The coordinate of index d in the tile (mixed radix, the last mode unbounded).
      Coord<R> crd;
      int64_t rest = split.d[i];
      for (int j = 0; j + 1 < R; ++j) crd.v[j] = rest % tile.v[j], rest /= tile.v[j];
      crd.v[R - 1] = rest;
      for (int j = 0; j < R; ++j) reach.v[j] += (split.s[i] - 1) * crd.v[j];
      if (i + 1 == split.n) {
        c.last_div = div, c.last_stride = crd;
      } else if (split.d[i] != 0 && split.s[i] != 1) {
        if (c.terms == CoordLayout<R>::kMaxTerms) {
          Text t;
          t << "coord_layout: " << layouts[li] << " has more than " << CoordLayout<R>::kMaxTerms
            << " leaves with a non-zero stride";
          fail(t);
        }
        c.div[c.terms] = div, c.mod[c.terms] = split.s[i], c.stride[c.terms] = crd;
        ++c.terms;
      }
      div = checked_mul(div, split.s[i]);
    }
    c.size = div;
    out[li] = c;
  }
  for (int j = 0; j + 1 < R; ++j) {
    if (reach.v[j] >= tile.v[j]) {
      Text t;
      t << "coord_layout: the leaves of";
      for (int li = 0; li < n; ++li) t << ' ' << layouts[li];
      t << " reach " << reach.v[j] << " in mode " << j << " of a tile of extent " << tile.v[j]
        << ": their sum carries into the next mode, so tile coordinates are not linear in them";
      fail(t);
    }
  }
}

template <int R>
TESSERA_HD constexpr CoordLayout<R> make_coord_layout(Layout const& l, Coord<R> const& tile) {
  CoordLayout<R> out[1];
  make_coord_layouts(&l, out, 1, tile);
  return out[0];
}

// An offset layout lowered the same way (rank 1: the coordinate is the offset), for layouts
// whose strides are static memory offsets (shared-memory tiles).
TESSERA_HD constexpr CoordLayout<1> make_offset_layout(Layout const& l) {
  return make_coord_layout(l, Coord<1>{{1}});
}

}  // namespace tessera
