// tessera/layout_ops.hpp -- the layout constructions and utilities beside the core algebra, with
// CuTe's C++ semantics, for static and run-time integers alike (the marks of IntTuple::dyn):
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
// nullspace: the static stride-0 leaves of L, in order, each with its index stride in L's domain
// (compact column-major over all of L's leaves). 1:0 when L has none. A run-time stride 0 is not
// taken (CuTe cannot know it is 0; filter keeps it too).
//   L = (7,5,16):(3,1,0): leaf 16 has stride 0 and index stride 7*5 = 35, so nullspace = 16:35.
TESSERA_HD constexpr Layout nullspace(Layout const& l) {
  Modes m = leaves(l);
  IntTuple index = compact_col_major(flatten(l.shape));
  Modes r;
  for (int i = 0; i < m.n; ++i)
    if (m.stride(i).is_static(0)) r.push(m.shape(i), leaf(index, index.is_int() ? 0 : i + 1));
  return r.layout();
}

// ---------------------------------------------------------------------------------------------
// upcast: each leaf s:d, d != 0, over elements n times wider. Requires d % n == 0 or n % d == 0.
//   d >= n: s : d/n                   d < n: ceil(s / (n/d)) : 1 (n/d old elements make one)
// The marks follow CuTe: d/n has d's kind, a shape divided by nothing keeps its own. (CuTe takes a
// run-time d to be a multiple of n; tessera knows the value and uses the d < n rule where it is
// not, docs/differences.md.)
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
    Int step{d, r.stride.dyn[i]}, per = ceil_div(Int{n}, step);
    Int s = per.v == 1 ? leaf(r.shape, i) : ceil_div(leaf(r.shape, i), per);
    Int t = Int{sign64(r.stride.v[i])} * ceil_div(step, Int{n});
    r.shape.v[i] = s.v, r.shape.dyn[i] = s.dyn;
    r.stride.v[i] = t.v, r.stride.dyn[i] = t.dyn;
  }
  return r;
}

// downcast: over elements n times narrower. The static stride-1 (or -1) leaves grow n-fold, every
// other stride is scaled by n (a run-time 1 too: CuTe cannot know it is 1). Requires a static
// stride-1 leaf (adjacent elements to split), as CuTe does.
TESSERA_HD constexpr Layout downcast(Layout const& l, int64_t n) {
  auto unit = [&l](int i) {
    return !l.stride.tup[i] && !l.stride.dyn[i] && abs64(l.stride.v[i]) == 1;
  };
  bool adjacent = false, runtime_unit = false;
  for (int i = 0; i < l.stride.n; ++i) {
    adjacent |= unit(i);
    runtime_unit |= !l.stride.tup[i] && l.stride.dyn[i] && abs64(l.stride.v[i]) == 1;
  }
  if (n < 1 || !adjacent) {
    Text t;
    t << "downcast: " << l << " needs a stride-1 mode and a positive factor, got " << n;
    if (runtime_unit) t << " (its stride 1 is a run-time integer, which CuTe cannot know is 1)";
    fail(t);
  }
  Layout r = l;
  for (int i = 0; i < r.shape.n; ++i) {
    if (r.shape.tup[i]) continue;
    Int x = unit(i) ? leaf(r.shape, i) * Int{n} : leaf(r.stride, i) * Int{n};
    (unit(i) ? r.shape : r.stride).v[i] = x.v;
    (unit(i) ? r.shape : r.stride).dyn[i] = x.dyn;
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
// first mode when its extent is static and its stride a static 1 (A and B agree there), mapped
// back through Binv; else 1:0. (CuTe keeps only a static run: a vector width is a static value.)
//   A = (4,8):(1,4), B = (4,8):(1,4): Binv = 32:1, C = 32:1, result 32:1.
namespace detail {
TESSERA_HD constexpr bool static_unit_run(Layout const& first) {
  return !first.shape.dyn[0] && leaf(first.stride, 0).is_static(1);
}
}  // namespace detail
TESSERA_HD constexpr Layout max_common_layout(Layout const& a, Layout const& b) {
  Layout inv_b = right_inverse(b);
  Layout common = coalesce(composition(a, inv_b));
  Layout first = common[0];
  if (!detail::static_unit_run(first)) return Layout();
  return composition(inv_b, first);
}
TESSERA_HD constexpr int64_t max_common_vector(Layout const& a, Layout const& b) {
  Layout common = coalesce(composition(a, right_inverse(b)));
  Layout first = common[0];
  return detail::static_unit_run(first) ? first.shape.value() : 1;
}

// ---------------------------------------------------------------------------------------------
// make_ordered_layout: a compact layout of `shape` whose modes follow `order`. `order` has the
// profile of `shape` or a coarser one (an order leaf then orders a whole sub-shape); a leaf's
// starting stride is the product of the extents with a smaller order (ties start together),
// inside it the sub-shape is compact column-major (a mode of extent 1 gets stride 0).
// A run-time order value counts as larger than every static one, the run-time ones in their
// order from left to right (CuTe's rule: their values are not known when it compiles).
//   make_ordered_layout((2,3,4), (1,2,0)) = (2,3,4):(4,8,1)
TESSERA_HD constexpr Layout make_ordered_layout(IntTuple const& shape, IntTuple const& order) {
  // The (sub-shape, order) pairs: walk order in preorder beside shape.
  int node_of[kMaxNodes] = {};  // shape node where order leaf k's sub-shape starts
  int64_t ord[kMaxNodes] = {};
  Int extent[kMaxNodes] = {};
  int64_t max_static = 0;
  for (int oi = 0; oi < order.n; ++oi)
    if (!order.tup[oi] && !order.dyn[oi]) max_static = max64(max_static, order.v[oi]);
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
    ord[k] = order.dyn[oi] ? max_static + 1 + k : order.v[oi];
    extent[k] = Int{1};
    for (int i = si, e = shape.subtree_end(si); i < e; ++i)
      if (!shape.tup[i]) extent[k] = extent[k] * leaf(shape, i);
    si = shape.subtree_end(si);
    ++k;
  }
  IntTuple stride = shape;
  for (int j = 0; j < k; ++j) {
    Int start{1};
    for (int i = 0; i < k; ++i)
      if (ord[i] < ord[j]) start = start * extent[i];
    IntTuple sub = detail::compact(shape.subtree(node_of[j]), start, false);
    for (int i = 0; i < sub.n; ++i) {
      stride.v[node_of[j] + i] = sub.v[i];
      stride.dyn[node_of[j] + i] = sub.dyn[i];
    }
  }
  return Layout(shape, stride, Layout::Trusted{});
}

// make_layout_like: compact, the modes ordered as L's strides order them; a static stride-0 mode
// keeps stride 0 (it counts as a static extent 1). Run-time strides order as run-time order values.
//   make_layout_like((2,3,4):(12,1,3)) = (2,3,4):(12,1,3)   make_layout_like((4,3):(0,5)) =
//   (4,3):(0,1)
TESSERA_HD constexpr Layout make_layout_like(Layout const& l) {
  IntTuple shape = l.shape;  // filter_zeros: the extent of a static stride-0 leaf counts as _1
  for (int i = 0; i < shape.n; ++i)
    if (!shape.tup[i] && leaf(l.stride, i).is_static(0)) shape.v[i] = 1, shape.dyn[i] = false;
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
    Int want{1}, have{1};  // the extents, run-time where one of their integers is
    IntTuple target = shape[i], block_shape = padded[i].shape;
    for (int j = 0; j < target.n; ++j)
      if (!target.tup[j]) want = want * leaf(target, j);
    for (int j = 0; j < block_shape.n; ++j)
      if (!block_shape.tup[j]) have = have * leaf(block_shape, j);
    if (want.v % have.v != 0) {
      Text t;
      t << "tile_to_shape: the block " << block << " (mode " << i << " of " << have.v
        << " elements) does not divide the target shape " << shape;
      fail(t);
    }
    reps.add(to_tuple(want / have));
  }
  Layout copies = row_major ? make_row_major(reps.get()) : make_col_major(reps.get());
  return blocked_product(padded, copies);
}
// A swizzled block keeps its swizzle outside: Sw o off o tile_to_shape(L, shape).
TESSERA_HD constexpr SwizzledLayout tile_to_shape(SwizzledLayout const& block,
                                                  IntTuple const& shape, bool row_major = false) {
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
