// tessera/layout.hpp -- Layout = Shape:Stride, a function from coordinates to offsets.
//
// Shape and Stride are congruent integer tuples. A coordinate c (nested, a rank-level tuple, or a
// plain integer) maps to the offset sum_k c_k * d_k over the leaves. An integer index is first
// split colexicographically over the leaves; the last leaf takes what is left, so indices past
// size() extend the last mode as in CuTe.
//
//   L = (4,(3,2)):(2,(8,1))      L(0)=0  L(1)=2  L(4)=8  L(12)=1  L(3,(1,1)) = 6+8+1 = 15
//   size(L) = 24, cosize(L) = L(23)+1 = 24, rank(L) = 2, depth(L) = 2
#pragma once

#include <type_traits>

#include "int_tuple.hpp"

namespace tessera {

struct Layout {
  IntTuple shape;
  IntTuple stride;

  // 1:0, the trivial layout.
  TESSERA_HD constexpr Layout() : shape(1), stride(0) {}
  TESSERA_HD constexpr Layout(IntTuple const& s, IntTuple const& d) : shape(s), stride(d) {
    if (!congruent(s, d)) {
      Text t;
      t << "layout: shape " << s << " and stride " << d << " are not congruent";
      fail(t);
    }
    check_extents(s);
  }
  // For shape and stride known to be congruent and positive (a mode of a layout, the modes of
  // layouts concatenated): skips the checks, which dominate the cost of the algebra otherwise.
  struct Trusted {};
  TESSERA_HD constexpr Layout(IntTuple const& s, IntTuple const& d, Trusted)
      : shape(s), stride(d) {}
  // Compact column-major layout of a shape: make_layout((4,(3,2))) = (4,(3,2)):(1,(4,12)).
  TESSERA_HD constexpr explicit Layout(IntTuple const& s) : shape(s), stride(prefix_product(s)) {
    check_extents(s);
  }
  TESSERA_HD static constexpr void check_extents(IntTuple const& s) {
    for (int i = 0; i < s.n; ++i) {
      if (!s.tup[i] && s.v[i] < 1) {
        Text t;
        t << "layout: shape " << s << " has an extent below 1";
        fail(t);
      }
    }
  }

  TESSERA_HD constexpr int rank() const { return shape.rank(); }
  TESSERA_HD constexpr int64_t size() const { return product(shape); }
  TESSERA_HD constexpr int depth() const { return tessera::depth(shape); }
  // Mode k as a layout; an integer layout's only mode is itself.
  TESSERA_HD constexpr Layout operator[](int k) const {
    // An integer, or a k out of range (IntTuple::operator[] then fails with the message).
    if (shape.is_int() || k < 0 || k >= shape.rank()) return Layout(shape[k], stride[k], Trusted{});
    // Shape and stride are congruent: the mode is the same node range in both. Copied straight
    // into the result (this is the algebra's most frequent operation).
    int begin = shape.child_node(0, k), end = shape.subtree_end(begin);
    Layout r;
    r.shape.n = r.stride.n = end - begin;
    for (int i = begin; i < end; ++i) {
      r.shape.v[i - begin] = shape.v[i];
      r.stride.v[i - begin] = stride.v[i];
      r.shape.tup[i - begin] = r.stride.tup[i - begin] = shape.tup[i];
      r.shape.dyn[i - begin] = shape.dyn[i];
      r.stride.dyn[i - begin] = stride.dyn[i];
    }
    return r;
  }

  // Offset of the integer (1-D) coordinate `idx`.
  TESSERA_HD constexpr int64_t operator()(int64_t idx) const {
    return index_offset<false>(idx, 0, shape.n);
  }
  template <class I>
    requires(std::is_integral_v<I> && !std::is_same_v<I, int64_t>)
  TESSERA_HD constexpr int64_t operator()(I idx) const {
    return (*this)(int64_t(idx));
  }

  // Offset of a coordinate: an integer, a tuple with one entry per mode, or fully nested.
  TESSERA_HD constexpr int64_t operator()(IntTuple const& crd) const { return crd2idx(crd, 0, 0); }

  // L(i, j, ...) with one integer per top-level mode.
  template <class... Is>
    requires(sizeof...(Is) >= 2)
  TESSERA_HD constexpr int64_t operator()(Is... is) const {
    return (*this)(make_tuple(int64_t(is)...));
  }

  // cosize = L(size-1) + 1: the extent of the codomain (overflow is an error here).
  TESSERA_HD constexpr int64_t cosize() const { return checked_add(checked_at(size() - 1), 1); }

  // L(idx) with every product and sum checked for overflow: for untrusted input (the CLI).
  TESSERA_HD constexpr int64_t checked_at(int64_t idx) const {
    return index_offset<true>(idx, 0, shape.n);
  }

  TESSERA_HD constexpr bool operator==(Layout const& o) const {
    return shape == o.shape && stride == o.stride;
  }

  // Offset of the coordinate subtree at crd node `ci` in the mode subtree at node `si`. Checked
  // for overflow: nested coordinates come from users; kernels use the integer path above.
  TESSERA_HD constexpr int64_t crd2idx(IntTuple const& crd, int ci, int si) const {
    if (crd.tup[ci]) {
      if (!shape.tup[si] || shape.v[si] != crd.v[ci]) {
        Text t;
        t << "crd2idx: coordinate " << crd << " does not match the modes of " << shape << ':'
          << stride;
        fail(t);
      }
      int64_t off = 0;
      int c = ci + 1, s = si + 1;
      for (int k = 0; k < crd.v[ci]; ++k) {
        off = checked_add(off, crd2idx(crd, c, s));
        c = crd.subtree_end(c);
        s = shape.subtree_end(s);
      }
      return off;
    }
    // An integer coordinate over the mode subtree.
    return index_offset<true>(crd.v[ci], si, shape.subtree_end(si));
  }

  // The one index split: the offset of integer index `idx` over the leaves of nodes [first, end)
  // (a mode subtree, or the whole layout), colexicographic, the last leaf taking what is left (an
  // index past the size extends the last mode, as in CuTe): (4,(3,2)):(2,(8,1)) at 13 is
  // 13 % 4 * 2 + 13 / 4 % 3 * 8 + 13 / 12 * 1 = 2 + 0 + 1 = 3. kChecked: every product and sum
  // checked for overflow (user input); unchecked in kernels and the algebra's inner loops.
  template <bool kChecked>
  TESSERA_HD constexpr int64_t index_offset(int64_t idx, int first, int end) const {
    int last = end - 1;
    while (shape.tup[last]) --last;  // a mode always has a leaf
    int64_t off = 0;
    for (int i = first; i < last; ++i) {
      if (shape.tup[i]) continue;
      if constexpr (kChecked) off = checked_add(off, checked_mul(idx % shape.v[i], stride.v[i]));
      else off += (idx % shape.v[i]) * stride.v[i];
      idx /= shape.v[i];
    }
    if constexpr (kChecked) return checked_add(off, checked_mul(idx, stride.v[last]));
    else return off + idx * stride.v[last];
  }
};

TESSERA_HD constexpr int rank(Layout const& l) { return l.rank(); }
TESSERA_HD constexpr int64_t size(Layout const& l) { return l.size(); }
TESSERA_HD constexpr int64_t cosize(Layout const& l) { return l.cosize(); }
TESSERA_HD constexpr int depth(Layout const& l) { return l.depth(); }

// Concatenates layouts as the modes of a new layout: make_layout(4:1, 3:4) = (4,3):(1,4).
struct LayoutBuilder {
  TupleBuilder shape, stride;
  TESSERA_HD constexpr LayoutBuilder& add(Layout const& m) {
    shape.add(m.shape);
    stride.add(m.stride);
    return *this;
  }
  TESSERA_HD constexpr int size() const { return shape.size(); }
  TESSERA_HD constexpr Layout get() const {
    return Layout(shape.get(), stride.get(), Layout::Trusted{});  // modes of layouts: congruent
  }
};

template <class... Ls>
TESSERA_HD constexpr Layout make_layout(Layout const& first, Ls const&... rest) {
  LayoutBuilder b;
  b.add(first);
  (b.add(rest), ...);
  return b.get();
}

// The leaves of a layout as parallel arrays: the working form of the flat algorithms, with the
// run-time marks of each shape (ds) and stride (dd).
struct Modes {
  int n = 0;
  int64_t s[kMaxNodes] = {};
  int64_t d[kMaxNodes] = {};
  bool ds[kMaxNodes] = {};
  bool dd[kMaxNodes] = {};

  TESSERA_HD constexpr void push(int64_t shape, int64_t stride) { push(Int{shape}, Int{stride}); }
  TESSERA_HD constexpr void push(Int shape, Int stride) {
    if (n == kMaxNodes) fail("capacity: too many modes");
    s[n] = shape.v;
    d[n] = stride.v;
    ds[n] = shape.dyn;
    dd[n] = stride.dyn;
    ++n;
  }
  TESSERA_HD constexpr Int shape(int i) const { return {s[i], ds[i]}; }
  TESSERA_HD constexpr Int stride(int i) const { return {d[i], dd[i]}; }
  TESSERA_HD constexpr void set(int i, Int shape, Int stride) {
    s[i] = shape.v, ds[i] = shape.dyn;
    d[i] = stride.v, dd[i] = stride.dyn;
  }
  // A single mode becomes an integer layout s:d, several a flat tuple, none the layout 1:0.
  // Fills the node arrays directly: the result is congruent by construction.
  TESSERA_HD constexpr Layout layout() const {
    Layout r;
    if (n == 0) return r;
    for (int i = 0; i < n; ++i) {
      if (s[i] < 1) {
        Text t;
        t << "layout: a mode has extent " << s[i] << ", below 1";
        fail(t);
      }
    }
    if (n == 1) {
      r.shape.v[0] = s[0];
      r.stride.v[0] = d[0];
      r.shape.dyn[0] = ds[0];
      r.stride.dyn[0] = dd[0];
      return r;
    }
    if (n + 1 > kMaxNodes) fail("capacity: too many modes");
    r.shape.n = r.stride.n = n + 1;
    r.shape.tup[0] = r.stride.tup[0] = true;
    r.shape.v[0] = r.stride.v[0] = n;
    for (int i = 0; i < n; ++i) {
      r.shape.v[i + 1] = s[i];
      r.stride.v[i + 1] = d[i];
      r.shape.dyn[i + 1] = ds[i];
      r.stride.dyn[i + 1] = dd[i];
    }
    return r;
  }
};

TESSERA_HD constexpr Modes leaves(Layout const& l) {
  Modes m;
  for (int i = 0; i < l.shape.n; ++i)
    if (!l.shape.tup[i]) m.push(leaf(l.shape, i), leaf(l.stride, i));
  return m;
}

// flatten((4,(3,2)):(2,(8,1))) = (4,3,2):(2,8,1)
TESSERA_HD constexpr Layout flatten(Layout const& l) {
  return Layout(flatten(l.shape), flatten(l.stride));
}

// Writes shape:stride in CuTe notation.
TESSERA_HD constexpr Text& operator<<(Text& out, Layout const& l) {
  return out << l.shape << ':' << l.stride;
}
TESSERA_HD constexpr Text& operator<<(Text& out, CuteForm<Layout> f) {
  return out << cute_form(f.x.shape) << ':' << cute_form(f.x.stride);
}
// Same function, structure and run-time marks.
TESSERA_HD constexpr bool same_kinds(Layout const& a, Layout const& b) {
  return same_kinds(a.shape, b.shape) && same_kinds(a.stride, b.stride);
}
// Every leaf run-time (or static): CuTe's make_layout(make_shape(128,128), make_stride(128,1)).
TESSERA_HD constexpr Layout with_kind(Layout const& l, bool runtime) {
  return Layout(with_kind(l.shape, runtime), with_kind(l.stride, runtime), Layout::Trusted{});
}

}  // namespace tessera
