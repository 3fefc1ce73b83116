// tessera/layout_ops.hpp -- the layout constructions and utilities beside the core algebra, with
// CuTe's C++ semantics (all integers static):
//
//   nullspace(L)            the coordinates L sends to 0: its stride-0 leaves, indexed compactly
//                           nullspace((2,2,2):(1,0,2)) = 2:2
//   upcast(L, n)            L over elements n times wider: a stride d becomes ceil(d/n), and a
//                           mode of stride d < n keeps ceil(s/ceil(n/d)) elements
//                           upcast((4,8):(1,4), 2) = (2,8):(1,2)
//   downcast(L, n)          n times narrower: the stride-1 mode grows n-fold, other strides scale
//                           downcast((4,8):(1,4), 2) = (8,8):(1,8)
//   recast_layout(L, old_bits, new_bits)    upcast and/or downcast by the ratio of the widths
//   max_common_layout(A, B) the largest R with A(R(i)) = B(R(i)) = i: the contiguous run both
//                           lay out identically;  max_common_vector(A, B) = size of that run
//   make_ordered_layout(shape, order)       compact, the modes laid out in increasing `order`
//                           make_ordered_layout((2,2,2,2), (0,2,3,1)) = (2,2,2,2):(1,4,8,2)
//   make_layout_like(L)     compact, the modes in the order of L's strides, stride-0 modes kept
//                           make_layout_like((2,2,2,2):(0,2,4,1)) = (2,2,2,2):(0,2,4,1)
//   tile_to_shape(L, shape[, order])        L repeated (blocked_product) to fill `shape`
//                           tile_to_shape((2,2):(1,2), (4,6)) = ((2,2),(2,3)):((1,4),(2,8))
//   layout_add(A, B)        R(i) = A(i) + B(i), over the common refinement of the two shapes
//                           layout_add((4,3):(1,4), (4,3):(3,1)) = (4,3):(4,5)
//
// make_col_major / make_row_major (compact_col_major / compact_row_major strides) live in
// algebra.hpp, which uses them for shape tilers.
#pragma once

#include "swizzle.hpp"

namespace tessera {

// ---------------------------------------------------------------------------------------------
// nullspace: the stride-0 leaves of L, in order, each with its index stride in L's domain
// (compact column-major over all of L's leaves). 1:0 when L has no stride-0 leaf.
//   L = (7,5,16):(3,1,0): leaf 16 has stride 0 and index stride 7*5 = 35, so nullspace = 16:35.
TESSERA_HD constexpr Layout nullspace(Layout const& l) {
  Modes m = leaves(l);
  Modes r;
  int64_t index_stride = 1;
  for (int i = 0; i < m.n; ++i) {
    if (m.d[i] == 0) r.push(m.s[i], m.s[i] == 1 ? 0 : index_stride);
    index_stride = checked_mul(index_stride, m.s[i]);
  }
  return r.layout();
}

// ---------------------------------------------------------------------------------------------
// upcast: each leaf s:d, d != 0, over elements n times wider. Requires d % n == 0 or n % d == 0.
//   d >= n: s : d/n                   d < n: ceil(s / (n/d)) : 1 (n/d old elements make one)
TESSERA_HD constexpr Layout upcast(Layout const& l, int64_t n) {
  if (n < 1) {
    Text t;
    t << "upcast: the factor " << n << " for " << l << " must be positive";
    fail(t);
  }
  Layout r = l;
  for (int i = 0; i < r.shape.n; ++i) {
    if (r.shape.tup[i] || r.stride.v[i] == 0) continue;
    int64_t d = abs64(r.stride.v[i]);
    if (d % n != 0 && n % d != 0) {
      Text t;
      t << "upcast: divisibility fails: stride " << r.stride.v[i] << " of " << l
        << " and the factor " << n << " do not divide one another";
      fail(t);
    }
    r.shape.v[i] = ceil_div(r.shape.v[i], ceil_div(n, d));
    r.stride.v[i] = sign64(r.stride.v[i]) * ceil_div(d, n);
  }
  return r;
}

// downcast: over elements n times narrower. The stride-1 (or -1) leaves grow n-fold, every other
// stride is scaled by n. Requires a stride-1 leaf (adjacent elements to split).
TESSERA_HD constexpr Layout downcast(Layout const& l, int64_t n) {
  bool adjacent = false;
  for (int i = 0; i < l.stride.n; ++i) adjacent |= !l.stride.tup[i] && abs64(l.stride.v[i]) == 1;
  if (n < 1 || !adjacent) {
    Text t;
    t << "downcast: " << l << " needs a stride-1 mode and a positive factor, got " << n;
    fail(t);
  }
  Layout r = l;
  for (int i = 0; i < r.shape.n; ++i) {
    if (r.shape.tup[i]) continue;
    if (abs64(r.stride.v[i]) == 1) r.shape.v[i] = checked_mul(r.shape.v[i], n);
    else r.stride.v[i] = checked_mul(r.stride.v[i], n);
  }
  return r;
}

namespace detail {
TESSERA_HD constexpr int64_t gcd64(int64_t a, int64_t b) {
  a = abs64(a), b = abs64(b);
  while (b) {
    int64_t t = a % b;
    a = b, b = t;
  }
  return a;
}
}  // namespace detail

// recast_layout: L over elements of old_bits reinterpreted as elements of new_bits. With
// new/old = num/den in lowest terms: upcast by num, then downcast by den.
//   recast_layout((4,8):(1,4), 16, 32) = upcast by 2 = (2,8):(1,2)
TESSERA_HD constexpr Layout recast_layout(Layout const& l, int64_t old_bits, int64_t new_bits) {
  if (old_bits < 1 || new_bits < 1) {
    Text t;
    t << "recast_layout: element widths " << old_bits << " and " << new_bits << " for " << l
      << " must be positive";
    fail(t);
  }
  int64_t g = detail::gcd64(old_bits, new_bits), num = new_bits / g, den = old_bits / g;
  Layout r = num == 1 ? l : upcast(l, num);
  return den == 1 ? r : downcast(r, den);
}

// ---------------------------------------------------------------------------------------------
// max_common_layout: with Binv = right_inverse(B) and C = coalesce(A o Binv), the run of C's
// first mode when its stride is 1 (A and B agree there), mapped back through Binv; else 1:0.
//   A = (4,8):(1,4), B = (4,8):(1,4): Binv = 32:1, C = 32:1, result 32:1.
TESSERA_HD constexpr Layout max_common_layout(Layout const& a, Layout const& b) {
  Layout inv_b = right_inverse(b);
  Layout common = coalesce(composition(a, inv_b));
  Layout first = common[0];
  if (first.stride.value() != 1) return Layout();
  return composition(inv_b, first);
}
TESSERA_HD constexpr int64_t max_common_vector(Layout const& a, Layout const& b) {
  Layout common = coalesce(composition(a, right_inverse(b)));
  Layout first = common[0];
  return first.stride.value() == 1 ? first.shape.value() : 1;
}

// ---------------------------------------------------------------------------------------------
// make_ordered_layout: a compact layout of `shape` whose modes follow `order`. `order` has the
// profile of `shape` or a coarser one (an order leaf then orders a whole sub-shape); a leaf's
// starting stride is the product of the extents with a smaller order (ties start together),
// inside it the sub-shape is compact column-major (a mode of extent 1 gets stride 0).
//   make_ordered_layout((2,3,4), (1,2,0)) = (2,3,4):(4,8,1)
TESSERA_HD constexpr Layout make_ordered_layout(IntTuple const& shape, IntTuple const& order) {
  // The (sub-shape, order) pairs: walk order in preorder beside shape.
  int node_of[kMaxNodes] = {};  // shape node where order leaf k's sub-shape starts
  int64_t ord[kMaxNodes] = {}, extent[kMaxNodes] = {};
  int k = 0;
  int si = 0;
  for (int oi = 0; oi < order.n; ++oi) {
    if (order.tup[oi]) {
      if (!shape.tup[si] || shape.v[si] != order.v[oi]) {
        Text t;
        t << "make_ordered_layout: the order " << order << " does not match the modes of the shape "
          << shape;
        fail(t);
      }
      ++si;
      continue;
    }
    node_of[k] = si;
    ord[k] = order.v[oi];
    extent[k] = product(shape.subtree(si));
    si = shape.subtree_end(si);
    ++k;
  }
  IntTuple stride = shape;
  for (int j = 0; j < k; ++j) {
    int64_t start = 1;
    for (int i = 0; i < k; ++i)
      if (ord[i] < ord[j]) start = checked_mul(start, extent[i]);
    IntTuple sub = compact_col_major(shape.subtree(node_of[j]), start);
    for (int i = 0; i < sub.n; ++i) stride.v[node_of[j] + i] = sub.v[i];
  }
  return Layout(shape, stride, Layout::Trusted{});
}

// make_layout_like: compact, the modes ordered as L's strides order them; a stride-0 mode keeps
// stride 0 (it counts as extent 1).
//   make_layout_like((2,3,4):(12,1,3)) = (2,3,4):(12,1,3)   make_layout_like((4,3):(0,5)) = (4,3):(0,1)
TESSERA_HD constexpr Layout make_layout_like(Layout const& l) {
  IntTuple shape = l.shape;  // filter_zeros: the extent of a stride-0 leaf counts as 1
  for (int i = 0; i < shape.n; ++i)
    if (!shape.tup[i] && l.stride.v[i] == 0) shape.v[i] = 1;
  Layout r = make_ordered_layout(shape, l.stride);
  return Layout(l.shape, r.stride, Layout::Trusted{});
}

// ---------------------------------------------------------------------------------------------
// tile_to_shape: repeat the block L over `shape` (blocked_product): pad L to rank(shape) with
// 1:0 modes; each mode's block extent must divide the target's; the copies are laid out column-
// major over the modes (row_major = true: the last mode fastest).
TESSERA_HD constexpr Layout tile_to_shape(Layout const& block, IntTuple const& shape,
                                          bool row_major = false) {
  int r = shape.rank();
  if (block.rank() > r) {
    Text t;
    t << "tile_to_shape: " << block << " has more modes than the target shape " << shape;
    fail(t);
  }
  Layout padded = detail::append_to_rank(block, r);
  TupleBuilder reps;
  for (int i = 0; i < r; ++i) {
    int64_t want = product(shape[i]), have = padded[i].size();
    if (want % have != 0) {
      Text t;
      t << "tile_to_shape: the block " << block << " (mode " << i << " of " << have
        << " elements) does not divide the target shape " << shape;
      fail(t);
    }
    reps.add(IntTuple(want / have));
  }
  Layout copies = row_major ? make_row_major(reps.get()) : make_col_major(reps.get());
  return blocked_product(padded, copies);
}
// A swizzled block keeps its swizzle outside: Sw o off o tile_to_shape(L, shape).
TESSERA_HD constexpr SwizzledLayout tile_to_shape(SwizzledLayout const& block, IntTuple const& shape,
                                                  bool row_major = false) {
  return SwizzledLayout{block.swizzle, block.offset, tile_to_shape(block.layout, shape, row_major)};
}

// ---------------------------------------------------------------------------------------------
// layout_add: R(i) = A(i) + B(i). Both are cut into their common refinement (walk the leaves of
// both, splitting the longer leaf where the shorter ends; one extent must divide the other) and
// the strides add leaf by leaf; the result is coalesced.
//   A = 12:2, B = (4,3):(3,1): 4 of A's 12 (stride 2) meet 4:3, the rest 3 (stride 8) meets 3:1,
//   R = (4,3):(5,9).
TESSERA_HD constexpr Layout layout_add(Layout const& a, Layout const& b) {
  if (a.size() != b.size()) {
    Text t;
    t << "layout_add: " << a << " and " << b << " have different sizes " << a.size() << " and "
      << b.size();
    fail(t);
  }
  Modes x = leaves(a), y = leaves(b), r;
  int i = 0, j = 0;
  int64_t rx = 1, dx = 0, ry = 1, dy = 0;  // what is left of the current leaf, and its stride
  while (true) {
    while (rx == 1 && i < x.n) rx = x.s[i], dx = x.d[i], ++i;
    while (ry == 1 && j < y.n) ry = y.s[j], dy = y.d[j], ++j;
    if (rx == 1 || ry == 1) break;  // equal sizes: both run out together
    int64_t e = rx % ry == 0 ? ry : ry % rx == 0 ? rx : 0;
    if (e == 0) {
      Text t;
      t << "layout_add: " << a << " and " << b << " have no common refinement: extents " << rx
        << " and " << ry << " do not divide one another";
      fail(t);
    }
    r.push(e, checked_add(dx, dy));
    rx /= e, ry /= e;
    dx = checked_mul(dx, e), dy = checked_mul(dy, e);
  }
  return coalesce(r.layout());
}

}  // namespace tessera
