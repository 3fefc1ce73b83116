// tessera/algebra.hpp -- coalesce, composition, complement, inverses, divides and products.
//
// The math, for a flat layout A = (s0,s1,..):(d0,d1,..) and a single mode B = s:d:
//
//   coalesce     merges neighbours with d_{i+1} = s_i*d_i and drops size-1 modes; same function.
//   composition  (A o B)(i) = A(B(i)). Walk A's coalesced modes: skip the first d of each mode
//                ("divide out" the stride, requires s_i % d == 0 or d % s_i == 0), keep the next
//                s elements ("mod out" the shape, requires the kept count to divide s). A tuple B
//                composes mode by mode, so the result has B's nesting.
//                (4,3):(1,8) o 6:2 = (2,3):(2,8)
//   complement   the layout that fills the offsets [0, M) that A leaves free, ordered:
//                A* = (d0, d1/(s0 d0), ..., M/(sn dn)) : (1, s0 d0, ..., sn dn) after sorting A
//                by stride. complement(4:1, 12) = 3:4. Overlapping modes (not injective) fail.
//   divide       A / B = A o (B, B*_{size A}): mode 0 is one tile, mode 1 walks the tiles.
//                logical_divide((4,6):(1,4), (2,3)) = ((2,2),(3,2)):((1,2),(4,12))
//   product      A x B = (A, A*_{size A * cosize B} o B): mode 1 replicates A as B says.
//                logical_product(4:1, 3:1) = (4,3):(1,4)
//
// Zipped, tiled and flat variants regroup the modes of a divide or product (the worked examples of
// the tiled GEMM):
//   logical ((t0,r0),(t1,r1))  zipped ((t0,t1),(r0,r1))  tiled ((t0,t1),r0,r1)  flat (t0,t1,r0,r1)
//
// The results, their nesting and their rejections are those of CuTe; the tests compare every case
// of NVIDIA's oracle vectors.
#pragma once

#include <type_traits>

#include "layout.hpp"

namespace tessera {

// ---------------------------------------------------------------------------------------------
// Compact strides, as CuTe's compact_col_major / compact_row_major: the exclusive prefix product
// of the extents from the left (column-major) or from the right (row-major), starting at
// `current`; a mode of extent 1 gets stride 0 (CuTe's static _1 mode), so the result prints as
// CuTe's does:  compact_col_major((2,1,4)) = (1,0,2)   compact_row_major((2,(3,4))) = (12,(4,1))
// A run-time extent 1 keeps its stride (CuTe cannot know it is 1), and a run-time extent makes the
// later strides run-time.
namespace detail {
TESSERA_HD constexpr IntTuple compact(IntTuple const& shape, Int current, bool row_major) {
  IntTuple r = shape;
  for (int k = 0; k < r.n; ++k) {
    int i = row_major ? r.n - 1 - k : k;
    if (r.tup[i]) continue;
    Int s = leaf(shape, i);
    Int d = s.is_static(1) ? Int{0} : current;
    r.v[i] = d.v;
    r.dyn[i] = d.dyn;
    current = current * s;
  }
  return r;
}
}  // namespace detail
TESSERA_HD constexpr IntTuple compact_col_major(IntTuple const& shape, int64_t current = 1) {
  return detail::compact(shape, Int{current}, false);
}
TESSERA_HD constexpr IntTuple compact_row_major(IntTuple const& shape, int64_t current = 1) {
  return detail::compact(shape, Int{current}, true);
}
// The compact layouts of a shape: make_layout(shape) and make_layout(shape, LayoutRight) in CuTe.
//   make_col_major((4,1,3)) = (4,1,3):(1,0,4)      make_row_major((4,3)) = (4,3):(3,1)
TESSERA_HD constexpr Layout make_col_major(IntTuple const& shape) {
  return Layout(shape, compact_col_major(shape), Layout::Trusted{});
}
TESSERA_HD constexpr Layout make_row_major(IntTuple const& shape) {
  return Layout(shape, compact_row_major(shape), Layout::Trusted{});
}

// ---------------------------------------------------------------------------------------------
// Tilers: a single layout, or a tuple with one entry per mode: a layout, `_` to keep the mode, or a
// shape, which is itself a by-mode tiler of that mode, as in CuTe: the tiler (2,(4,2)) divides
// mode 0 by 2:1 and the sub-modes of mode 1 by 4:1 and 2:1.
struct Underscore {};
inline constexpr Underscore _{};

struct Tiler {
  static constexpr int kMaxModes = 8;
  bool by_mode = false;        // a tuple of per-mode tilers
  int n = 1;                   // entries (1 for a single layout)
  Layout mode[kMaxModes] = {};
  bool keep[kMaxModes] = {};   // the entry is `_`
  bool nested[kMaxModes] = {}; // the entry is the by-mode tiler mode[i].shape (a tuple shape)

  constexpr Tiler() = default;
  // A single layout tiler.
  TESSERA_HD constexpr Tiler(Layout const& l) { mode[0] = l; }
  // A shape is a by-mode tiler of compact layouts: (2,3) means (2:1, 3:1); an integer 4 is 4:1.
  TESSERA_HD constexpr Tiler(IntTuple const& shape) {
    if (shape.is_int()) {
      mode[0] = make_col_major(shape);
      return;
    }
    by_mode = true;
    n = 0;
    for (int i = 0; i < shape.rank(); ++i) add_shape(shape[i]);
  }
  // A shape entry: an integer n is the layout n:1, a tuple a nested by-mode tiler.
  TESSERA_HD constexpr Tiler& add_shape(IntTuple const& s) {
    add(make_col_major(s));
    nested[n - 1] = s.is_tuple();
    return *this;
  }
  // Entry i as a tiler of its own (only for a layout or nested entry).
  TESSERA_HD constexpr Tiler entry(int i) const {
    return nested[i] ? Tiler(mode[i].shape) : Tiler(mode[i]);
  }
  TESSERA_HD constexpr Tiler& add(Layout const& l) {
    grow();
    mode[n - 1] = l;
    return *this;
  }
  TESSERA_HD constexpr Tiler& add(Underscore) {
    grow();
    keep[n - 1] = true;
    return *this;
  }
  TESSERA_HD constexpr void grow() {
    if (!by_mode) {
      by_mode = true;
      n = 0;
    }
    if (n == kMaxModes) fail("capacity: a tiler has at most 8 modes");
    ++n;
  }
};

// make_tile(a, b, ...): a by-mode tiler; each entry a Layout, an IntTuple shape or `_`.
template <class... Ts>
TESSERA_HD constexpr Tiler make_tile(Ts const&... xs) {
  Tiler t;
  t.by_mode = true;
  t.n = 0;
  auto add = [&](auto const& x) {
    if constexpr (std::is_same_v<std::decay_t<decltype(x)>, Underscore>) t.add(_);
    else if constexpr (std::is_same_v<std::decay_t<decltype(x)>, Layout>) t.add(x);
    else t.add_shape(IntTuple(x));
  };
  (add(xs), ...);
  return t;
}

TESSERA_HD constexpr Text& operator<<(Text& out, Tiler const& t) {
  if (!t.by_mode) return out << t.mode[0];
  out << '(';
  for (int i = 0; i < t.n; ++i) {
    if (i) out << ',';
    if (t.keep[i]) out << '_';
    else if (t.nested[i]) out << t.mode[i].shape;
    else out << t.mode[i];
  }
  return out << ')';
}

namespace detail {
// The rank check shared by every by-mode operation.
TESSERA_HD constexpr void check_tiler_rank(const char* op, Layout const& a, Tiler const& t) {
  if (t.n > a.rank()) {
    Text m;
    m << op << ": the tiler " << t << " has " << t.n << " modes but " << a << " has rank "
      << a.rank();
    fail(m);
  }
}

// Applies f(mode of A, layout) for each tiler entry (a `_` entry keeps the mode, a nested entry
// recurses into the sub-modes); a single layout tiler applies to the whole of A.
template <class F>
TESSERA_HD constexpr Layout by_mode(const char* op, Layout const& a, Tiler const& t, F f) {
  if (!t.by_mode) return f(a, t.mode[0]);
  check_tiler_rank(op, a, t);
  LayoutBuilder r;
  for (int i = 0; i < a.rank(); ++i) {
    if (i >= t.n || t.keep[i]) r.add(a[i]);
    else if (t.nested[i]) r.add(by_mode(op, a[i], t.entry(i), f));
    else r.add(f(a[i], t.mode[i]));
  }
  return r.get();
}
}  // namespace detail

// ---------------------------------------------------------------------------------------------
// coalesce: flatten and merge modes while keeping the function of integer indices.
// coalesce((2,(1,6)):(1,(7,2))) = 12:1
//
// As CuTe's C++, from the last leaf to the first: a leaf s:d joins the front mode s':d' of the
// result when d' = s*d, all of them static; a static extent 1 is dropped. Run-time integers never
// merge and a run-time extent 1 stays (CuTe cannot know the value when it compiles):
//   coalesce((_2,_4):(_1,_2)) = _8:_1     coalesce((2,4):(1,2)) = (2,4):(1,2)
namespace detail {
// `last` is the extent the last leaf starts with (coalesce_x passes 2 for a static 1).
TESSERA_HD constexpr Modes bw_coalesce(Modes const& in, Int last) {
  Int s[kMaxNodes] = {}, d[kMaxNodes] = {};  // the kept modes, filled from the back
  int k = kMaxNodes - 1;
  s[k] = last;
  d[k] = in.stride(in.n - 1);
  for (int i = in.n - 2; i >= 0; --i) {
    Int si = in.shape(i), di = in.stride(i);
    if (si.is_static(1)) continue;
    if (k == kMaxNodes - 1 && s[k].is_static(1)) {  // replace a leading static 1
      s[k] = si, d[k] = di;
      continue;
    }
    Int span = si * di;
    if (!s[k].dyn && !span.dyn && !d[k].dyn && span.v == d[k].v) {
      s[k] = si * s[k];
      d[k] = di;
    } else {
      --k;
      s[k] = si, d[k] = di;
    }
  }
  Modes r;
  for (int i = k; i < kMaxNodes; ++i) r.push(s[i], d[i]);
  return r;
}
}  // namespace detail

TESSERA_HD constexpr Layout coalesce(Layout const& a) {
  Modes in = leaves(a);
  Modes r = detail::bw_coalesce(in, in.shape(in.n - 1));
  if (r.n == 1 && r.shape(0).is_static(1)) return Layout();  // CuTe's _1:_0
  return r.layout();
}

// coalesce by mode: a tuple profile coalesces each mode i < rank(profile) on its own and keeps
// the rest; an integer profile coalesces the whole layout.
TESSERA_HD constexpr Layout coalesce(Layout const& a, IntTuple const& profile) {
  if (profile.is_int()) return coalesce(a);
  if (profile.rank() > a.rank()) {
    Text m;
    m << "coalesce: profile " << profile << " has more modes than " << a;
    fail(m);
  }
  LayoutBuilder b;
  for (int i = 0; i < a.rank(); ++i)
    b.add(i < profile.rank() ? coalesce(a[i], profile[i]) : a[i]);
  return b.get();
}

// filter: drop stride-0 and size-1 modes, then coalesce. filter((4,2):(0,3)) = 2:3
// A static stride 0 is dropped; a run-time one stays (CuTe cannot know it is 0).
TESSERA_HD constexpr Layout filter(Layout const& a) {
  Modes in = leaves(a);
  for (int i = 0; i < in.n; ++i)
    if (in.stride(i).is_static(0)) in.set(i, Int{1}, in.stride(i));
  Layout l = in.layout();
  return coalesce(l);
}

// ---------------------------------------------------------------------------------------------
namespace detail {
// coalesce_x: coalesce that keeps A's function past size(A) as well, which is what composition
// reads when B reaches beyond A. A(i) for i >= size(A) extends A's last leaf; plain coalesce drops
// a trailing size-1 leaf and with it that extension. So a trailing size-1 leaf is kept, as the
// placeholder extent 2 with its stride (only the stride of the last mode is ever read):
//   coalesce_x((4,3,1):(3,1,0)) = (4,3,2):(3,1,0)     coalesce gives (4,3):(3,1)
//   coalesce_x((1):(1))          = 2:1                 coalesce gives 1:0
// Merges right to left, like CuTe's C++: a leaf s:d joins the next kept mode s':d' when d' = s*d.
TESSERA_HD constexpr Modes coalesce_x(Layout const& a) {
  Modes in = leaves(a);
  Int last = in.shape(in.n - 1);
  return bw_coalesce(in, last.is_static(1) ? Int{2} : last);
}

// A o B for B's mode subtree, with A already flattened by coalesce_x (done once per composition).
// For each integer mode n:r of B, walk A's modes s_k:d_k but the last, as CuTe's C++ does:
//   - stride condition: r is a multiple of s_k, or smaller than s_k;
//   - the mode keeps m = min(ceil(s_k / r), n) elements with stride r*d_k (none if m = 1);
//   - shape condition: m divides n; then n /= m and r = ceil(r / s_k);
//   - A's last mode takes whatever is left: n:(r*d_last), its extension past size(A).
// When r is smaller than s_k without dividing it, B must end inside that mode (m = n): stepping
// on to the next mode would be wrong, e.g. (4,6,8):(2,3,5) o 6:3 (CuTe's C++ returns
// (2,3):(6,3) there, which is not A(B(i)) at i = 2; see docs/differences.md).
//   (8,8):(8,1) o 2:3 = 2:24        (4,3):(1,8) o 6:2 = (2,3):(2,8)        1:2 o 3:3 = 3:6
TESSERA_HD constexpr Layout compose_flat(Layout const& a, Modes const& flat, Layout const& b) {
  if (b.shape.is_tuple()) {
    LayoutBuilder r;
    for (int i = 0; i < b.rank(); ++i) r.add(compose_flat(a, flat, b[i]));
    return r.get();
  }
  // With run-time integers, as CuTe's C++: a mode is skipped only where the kept count or what B
  // still needs is a static 1, and the rest is appended unless it is a static 1. The conditions
  // are checked on the values whatever their kind (CuTe checks only static ones).
  Int rest_shape = leaf(b.shape, 0), rest_stride = leaf(b.stride, 0);
  if (rest_stride.v == 0) return b;

  Modes r;
  for (int k = 0; k + 1 < flat.n; ++k) {
    Int s = flat.shape(k), d = flat.stride(k);
    Int step{abs64(rest_stride.v), rest_stride.dyn};
    if (step.v % s.v != 0 && step.v >= s.v) {
      Text m;
      m << "composition: stride divisibility fails: stride " << step.v << " of " << b
        << " is neither a multiple of nor smaller than shape " << s.v << " of " << a;
      fail(m);
    }
    Int next_shape = ceil_div(s, step);
    Int next_stride = ceil_div(step, s) * Int{sign64(rest_stride.v)};
    if (!next_shape.is_static(1) && !rest_shape.is_static(1)) {
      Int new_shape = min(next_shape, rest_shape);
      // Mod out the shape: the elements kept in this mode must divide what B still needs.
      if (rest_shape.v % new_shape.v != 0) {
        Text m;
        m << "composition: shape divisibility fails: " << new_shape.v << " elements of mode "
          << s.v << ':' << d.v << " of " << a << " do not divide the remaining size "
          << rest_shape.v << " of " << b;
        fail(m);
      }
      // (r >= s keeps one element, a run-time extent 1 where CuTe cannot see it is 1: not a check)
      if (step.v < s.v && s.v % step.v != 0 && new_shape.v != rest_shape.v) {
        Text m;
        m << "composition: stride " << step.v << " of " << b << " does not divide shape " << s.v
          << " of " << a << ", so B must end inside that mode, but it needs " << rest_shape.v
          << " elements and the mode holds " << new_shape.v;
        fail(m);
      }
      r.push(new_shape, rest_stride * d);
      rest_shape = rest_shape / new_shape;
    }
    rest_stride = next_stride;
  }
  if (!rest_shape.is_static(1) || r.n == 0)
    r.push(rest_shape, rest_stride * flat.stride(flat.n - 1));
  return r.layout();
}
}  // namespace detail

// composition: R(c) = A(B(c)) for every coordinate c of B; R has B's shape (up to coalescing of
// each integer mode of B). Where B reaches past size(A), A extends its last mode.
TESSERA_HD constexpr Layout composition(Layout const& a, Layout const& b) {
  if (b.shape.is_int() && b.stride.value() == 0) return b;
  return detail::compose_flat(a, detail::coalesce_x(a), b);
}

// By-mode composition: entry i of the tiler composes with mode i of A, `_` keeps it.
TESSERA_HD constexpr Layout composition(Layout const& a, Tiler const& t) {
  return detail::by_mode("composition", a, t,
                         [](Layout const& x, Layout const& y) { return composition(x, y); });
}

// ---------------------------------------------------------------------------------------------
// complement: the ordered layout of the offsets in [0, cotarget) that A does not reach.
// complement((2,2):(1,6), 24) = (3,2):(2,12)
namespace detail {
// The complement's modes for a cotarget given as its extents `cot` (an integer or a shape):
// the gaps between A's modes, then the rest up to the cotarget, whose extent is the product of
// the per-extent ceilings (CuTe's ceil_div of a shape by an integer, coalesced):
//   rest((3,5,3) / 9) = ceil(3/9) * ceil(5/ceil(9/3)) * ceil(3/ceil(3/5)) = 1 * 2 * 3 = 6.
// For an integer cotarget M that is ceil(M / covered).
TESSERA_HD constexpr Layout complement_impl(Layout const& a, IntTuple const& cot) {
  int64_t cotarget = product(cot);
  if (cotarget < 1) {
    Text t;
    t << "complement: the cotarget " << cotarget << " of " << a << " must be positive";
    fail(t);
  }
  // CuTe's C++ filters A first (static stride 0 and static extent 1 leave), which coalesces it.
  Modes m = leaves(filter(a));
  // Sort the modes by (stride, shape); insertion sort over at most kMaxNodes entries.
  for (int i = 1; i < m.n; ++i) {
    for (int j = i; j > 0; --j) {
      bool less = m.d[j] < m.d[j - 1] || (m.d[j] == m.d[j - 1] && m.s[j] < m.s[j - 1]);
      if (!less) break;
      Int ts = m.shape(j), td = m.stride(j);
      m.set(j, m.shape(j - 1), m.stride(j - 1));
      m.set(j - 1, ts, td);
    }
  }
  Modes r;
  Int covered{1};  // A's modes so far cover [0, covered) with gaps of the earlier results
  for (int i = 0; i < m.n; ++i) {
    Int s = m.shape(i), d = m.stride(i);
    // filter left no static 0 stride and no static extent 1. A run-time extent 1 is a mode as any
    // other, as in CuTe (it leaves the gap below its stride to the complement): complement(1:4, 8)
    // = (4,2):(_1,4) where complement(_1:_4, 8) = 8:_1; both are complements. A run-time stride
    // 0 is passed over (CuTe would make an extent 0 of it).
    if (d.v == 0) continue;
    if (d.v < 0) {
      Text t;
      t << "complement: " << a << " has the negative stride " << d.v << " (mode " << s.v << ':'
        << d.v << "); complement is defined for layouts with positive strides";
      fail(t);
    }
    if (d.v < covered.v) {
      Text t;
      t << "complement: " << a << " is not injective: mode " << s.v << ':' << d.v
        << " starts inside the extent " << covered.v << " of the smaller modes";
      fail(t);
    }
    r.push(d / covered, covered);
    covered = s * d;
  }
  // The rest: fold the extents of the cotarget (ceil(c / left) each), then multiply neighbours
  // of the same kind (CuTe's coalesce of a shape) and give them compact strides from `covered`.
  Int rest[kMaxNodes] = {};
  int nrest = 0;
  Int left = covered;
  for (int i = 0; i < cot.n; ++i) {
    if (cot.tup[i]) continue;
    Int c = leaf(cot, i), e = ceil_div(c, left);
    left = ceil_div(left, c);
    if (nrest > 0 && rest[nrest - 1].dyn == e.dyn) rest[nrest - 1] = rest[nrest - 1] * e;
    else rest[nrest++] = e;
  }
  for (int i = 0; i < nrest; ++i) {
    r.push(rest[i], rest[i].is_static(1) ? Int{0} : covered);
    covered = covered * rest[i];
  }
  return coalesce(r.layout());
}
}  // namespace detail

TESSERA_HD constexpr Layout complement(Layout const& a, int64_t cotarget = 1) {
  return detail::complement_impl(a, IntTuple(cotarget));
}
// complement(A, shape): the cotarget as a shape, e.g. the shape of the layout being divided.
TESSERA_HD constexpr Layout complement(Layout const& a, IntTuple const& cotarget) {
  return detail::complement_impl(a, cotarget);
}

// ---------------------------------------------------------------------------------------------
// Where an answer built the way CuTe's C++ builds it is right only in some cases (overlapping
// modes in left_inverse, swizzles moved through a layout), it is checked by brute force against
// the operation's definition, over at most this many indices; larger cases are rejected.
inline constexpr int64_t kMaxBruteForce = int64_t(1) << 18;

namespace detail {
// The working form of both inverses: coalesce(A)'s modes, their index strides (prefix products of
// the shape) and the order of the modes by stride (stable: ties keep their order).
struct SortedModes {
  Modes m;
  Int pre[kMaxNodes] = {};
  int order[kMaxNodes] = {};
};
TESSERA_HD constexpr SortedModes sorted_by_stride(Layout const& a) {
  SortedModes r;
  r.m = leaves(coalesce(a));
  Int p{1};
  for (int i = 0; i < r.m.n; ++i) {
    r.pre[i] = p;
    p = p * r.m.shape(i);
    r.order[i] = i;
  }
  for (int i = 1; i < r.m.n; ++i)  // insertion sort by stride
    for (int j = i; j > 0 && r.m.d[r.order[j]] < r.m.d[r.order[j - 1]]; --j) {
      int x = r.order[j];
      r.order[j] = r.order[j - 1], r.order[j - 1] = x;
    }
  return r;
}
}  // namespace detail

// right_inverse: the largest R with A(R(i)) = i. right_inverse((4,2):(2,1)) = (2,4):(4,1)
// Over coalesce(A)'s modes by increasing stride, keep each mode whose stride is the offset reached
// so far (starting at 1) and give it its index stride; modes that do not continue the chain
// (stride 0, gaps, overlaps) are passed over. As in CuTe, the chain is followed only over static
// strides and static offsets: a run-time stride is passed over, and a run-time extent ends it.
TESSERA_HD constexpr Layout right_inverse(Layout const& a) {
  detail::SortedModes sm = detail::sorted_by_stride(a);
  Modes r;
  Int next{1};  // the offset the inverse must reach next
  for (int k = 0; k < sm.m.n; ++k) {
    int i = sm.order[k];
    if (next.dyn || sm.m.dd[i] || sm.m.d[i] != next.v) continue;
    r.push(sm.m.shape(i), sm.pre[i]);
    next = sm.m.shape(i) * sm.m.stride(i);
  }
  return coalesce(r.layout());
}

// left_inverse: L with L(A(i)) = i for every i < size(A) when A is injective (for any A,
// A(L(A(i))) = A(i)). Over coalesce(A)'s modes s_k:d_k by increasing stride, skipping stride 0:
// the offsets below d_0 go to 0, each next mode starts at d_k and runs d_{k+1}/d_k offsets with
// index stride pre_k, and the last mode runs its own extent:
//   L = (d_0, d_1/d_0, .., d_n/d_{n-1}, s_n) : (0, pre_0, .., pre_{n-1}, pre_n), coalesced.
//   left_inverse((4,2):(1,5)) = (1,5,2):(0,1,4) = (5,2):(1,4)
// Each d_{k+1} must be a multiple of d_k (the left-inverse divisibility condition).
TESSERA_HD constexpr Layout left_inverse(Layout const& a) {
  detail::SortedModes sm = detail::sorted_by_stride(a);
  Modes r;
  r.push(1, 0);
  int64_t reached = 1;  // the product of the result's extents so far
  for (int k = 0; k < sm.m.n; ++k) {
    int i = sm.order[k];
    int64_t d = sm.m.d[i];
    if (d == 0) continue;
    if (d < 0) {  // CuTe's C++ returns a negative extent here, e.g. (-1,4):(0,1) for (4):(-1)
      Text m;
      m << "left_inverse: stride " << d << " of " << a
        << " is negative: its offsets lie below 0, where a layout has no index";
      fail(m);
    }
    if (d % reached != 0) {
      Text m;
      m << "left_inverse: divisibility fails: stride " << d << " of " << a
        << " is not a multiple of the extent " << reached << " reached by its smaller strides";
      fail(m);
    }
    r.s[r.n - 1] = d / reached;  // the gap before this mode ..
    r.push(1, sm.pre[i].v);      // .. then the mode itself, extent set by the next one
    reached = d;
  }
  r.s[r.n - 1] = sm.m.s[sm.order[sm.m.n - 1]];
  Layout inv = coalesce(r.layout());
  // Overlapping modes (a stride inside the span of a smaller one: A is not injective beyond its
  // stride-0 modes) can break even the quasi-inverse property, e.g. (2,3):(2,1), where CuTe's C++
  // returns (2,2):(2,1) all the same; check it there (docs/differences.md).
  bool overlap = false;
  int64_t span = 0;
  for (int k = 0; k < sm.m.n; ++k) {
    int i = sm.order[k];
    if (sm.m.d[i] == 0) continue;
    overlap |= sm.m.d[i] < span;
    span = checked_mul(sm.m.s[i], sm.m.d[i]);
  }
  if (overlap && a.size() > kMaxBruteForce) {
    Text m;
    m << "left_inverse: " << a << " has overlapping modes and " << a.size()
      << " elements, more than the " << kMaxBruteForce << " its quasi-inverse check covers";
    fail(m);
  }
  for (int64_t i = 0; overlap && i < a.size(); ++i) {
    if (a(inv(a(i))) != a(i)) {
      Text m;
      m << "left_inverse: " << a << " is not injective and " << inv
        << " is no quasi-inverse of it: A(L(A(" << i << "))) != A(" << i << ")";
      fail(m);
    }
  }
  return inv;
}

// ---------------------------------------------------------------------------------------------
// Divides.
// The complement's cotarget is the shape of coalesce(A), as in CuTe's C++: where B does not
// divide A, the rest rounds up per extent (CuTe pads past A's end rather than reject).
TESSERA_HD constexpr Layout logical_divide(Layout const& a, Layout const& b) {
  return composition(a, make_layout(b, complement(b, coalesce(a).shape)));
}
TESSERA_HD constexpr Layout logical_divide(Layout const& a, Tiler const& t) {
  return detail::by_mode("logical_divide", a, t,
                         [](Layout const& x, Layout const& y) { return logical_divide(x, y); });
}

// Products.
TESSERA_HD constexpr Layout logical_product(Layout const& a, Layout const& b) {
  // size(A) * cosize(B) is run-time when any integer of A's shape or of B is.
  bool runtime = any_runtime(a.shape) || any_runtime(b.shape) || any_runtime(b.stride);
  IntTuple cotarget = to_tuple(Int{checked_mul(a.size(), b.cosize()), runtime});
  return make_layout(a, composition(complement(a, cotarget), b));
}
TESSERA_HD constexpr Layout logical_product(Layout const& a, Tiler const& t) {
  return detail::by_mode("logical_product", a, t,
                         [](Layout const& x, Layout const& y) { return logical_product(x, y); });
}

namespace detail {
enum class Split { kDivide, kProduct };

// Applies the split per mode and gathers ((t0,r0),(t1,r1),rest) into ((t0,t1),(r0,r1,rest)).
// A `_` entry contributes the trivial tile 1:0 and keeps the whole mode in the rest.
TESSERA_HD constexpr Layout zip_split(Split op, Layout const& a, Tiler const& t) {
  auto split = [op](Layout const& x, Layout const& y) {
    return op == Split::kDivide ? logical_divide(x, y) : logical_product(x, y);
  };
  if (!t.by_mode) return split(a, t.mode[0]);
  check_tiler_rank(op == Split::kDivide ? "zipped_divide" : "zipped_product", a, t);
  LayoutBuilder tiles, rests;
  for (int i = 0; i < t.n; ++i) {
    Layout s = t.keep[i]     ? make_layout(Layout(), a[i])
               : t.nested[i] ? zip_split(op, a[i], t.entry(i))
                             : split(a[i], t.mode[i]);
    tiles.add(s[0]);
    rests.add(s[1]);
  }
  for (int i = t.n; i < a.rank(); ++i) rests.add(a[i]);
  return make_layout(tiles.get(), rests.get());
}

// Adds the modes of a half of a zipped layout; a half of rank 1 (an integer or a one-mode tuple
// such as (2)) stays whole, as CuTe's C++ slices it (repeat<1>(_) is `_`, not (_)).
TESSERA_HD constexpr void add_unpacked(LayoutBuilder& r, Layout const& half) {
  if (half.rank() == 1) {
    r.add(half);
    return;
  }
  for (int i = 0; i < half.rank(); ++i) r.add(half[i]);
}

// ((t..),(r0,r1,..)) -> ((t..),r0,r1,..)
TESSERA_HD constexpr Layout unpack_second(Layout const& z) {
  LayoutBuilder r;
  r.add(z[0]);
  add_unpacked(r, z[1]);
  return r.get();
}

// ((t0,t1,..),(r0,r1,..)) -> (t0,t1,..,r0,r1,..)
TESSERA_HD constexpr Layout unpack_both(Layout const& z) {
  LayoutBuilder r;
  add_unpacked(r, z[0]);
  add_unpacked(r, z[1]);
  return r.get();
}

// Pads a layout with 1:0 modes to rank r: (4:1, r=2) -> (4,1):(1,0); a layout of rank r or more
// stays as it is (4:1 for r = 1), as CuTe's append<R>.
TESSERA_HD constexpr Layout append_to_rank(Layout const& a, int r) {
  if (a.rank() >= r) return a;
  LayoutBuilder b;
  for (int i = 0; i < r; ++i) b.add(i < a.rank() ? a[i] : Layout());
  return b.get();
}

// ((a0,a1,..),(b0,b1,..)) -> ((a0,b0),(a1,b1),..), or with the halves swapped.
// An integer first half pairs with the whole second half, as CuTe's zip: (8, (2)) -> ((8,(2))).
TESSERA_HD constexpr Layout zip_modes(Layout const& p, bool swap) {
  Layout x = p[swap ? 1 : 0], y = p[swap ? 0 : 1];
  if (x.shape.is_int()) return make_layout(make_layout(x, y));
  LayoutBuilder b;
  for (int i = 0; i < x.rank(); ++i) b.add(make_layout(x[i], y[i]));
  return b.get();
}
}  // namespace detail

TESSERA_HD constexpr Layout zipped_divide(Layout const& a, Tiler const& t) {
  return detail::zip_split(detail::Split::kDivide, a, t);
}
TESSERA_HD constexpr Layout tiled_divide(Layout const& a, Tiler const& t) {
  return detail::unpack_second(zipped_divide(a, t));
}
TESSERA_HD constexpr Layout flat_divide(Layout const& a, Tiler const& t) {
  return detail::unpack_both(zipped_divide(a, t));
}
TESSERA_HD constexpr Layout zipped_product(Layout const& a, Tiler const& t) {
  return detail::zip_split(detail::Split::kProduct, a, t);
}
TESSERA_HD constexpr Layout tiled_product(Layout const& a, Tiler const& t) {
  return detail::unpack_second(zipped_product(a, t));
}
TESSERA_HD constexpr Layout flat_product(Layout const& a, Tiler const& t) {
  return detail::unpack_both(zipped_product(a, t));
}

// blocked_product: each copy of A stays a contiguous block, ((a0,b0),(a1,b1),..).
// blocked_product((2,5):(5,1), (3,4):(1,3)) = ((2,3),(5,4)):((5,10),(1,30))
TESSERA_HD constexpr Layout blocked_product(Layout const& a, Layout const& b) {
  int r = max64(a.rank(), b.rank());
  return detail::zip_modes(logical_product(detail::append_to_rank(a, r),
                                           detail::append_to_rank(b, r)), false);
}
// raked_product: the copies interleave inside each mode, ((b0,a0),(b1,a1),..).
TESSERA_HD constexpr Layout raked_product(Layout const& a, Layout const& b) {
  int r = max64(a.rank(), b.rank());
  return detail::zip_modes(logical_product(detail::append_to_rank(a, r),
                                           detail::append_to_rank(b, r)), true);
}

}  // namespace tessera
