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
// Zipped, tiled and flat variants regroup the modes of a divide or product (see seed 004):
//   logical ((t0,r0),(t1,r1))  zipped ((t0,t1),(r0,r1))  tiled ((t0,t1),r0,r1)  flat (t0,t1,r0,r1)
//
// The results, their nesting and their rejections are those of CuTe; the tests compare every case
// of NVIDIA's oracle vectors.
#pragma once

#include <type_traits>

#include "layout.hpp"

namespace tessera {

// ---------------------------------------------------------------------------------------------
// Tilers: a single layout, or a tuple with one entry per mode (a layout, or `_` to keep the mode).
struct Underscore {};
inline constexpr Underscore _{};

struct Tiler {
  static constexpr int kMaxModes = 8;
  bool by_mode = false;        // a tuple of per-mode tilers
  int n = 1;                   // entries (1 for a single layout)
  Layout mode[kMaxModes] = {};
  bool keep[kMaxModes] = {};   // the entry is `_`

  constexpr Tiler() = default;
  // A single layout tiler.
  TESSERA_HD constexpr Tiler(Layout const& l) { mode[0] = l; }
  // A shape is a by-mode tiler of compact layouts: (2,3) means (2:1, 3:1); an integer 4 is 4:1.
  TESSERA_HD constexpr Tiler(IntTuple const& shape) {
    if (shape.is_int()) {
      mode[0] = Layout(shape);
      return;
    }
    by_mode = true;
    n = 0;
    for (int i = 0; i < shape.rank(); ++i) add(Layout(shape[i]));
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
    else t.add(Layout(x));
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

// Applies f(mode of A, layout) for each tiler entry (a `_` entry keeps the mode); a single
// layout tiler applies to the whole of A.
template <class F>
TESSERA_HD constexpr Layout by_mode(const char* op, Layout const& a, Tiler const& t, F f) {
  if (!t.by_mode) return f(a, t.mode[0]);
  check_tiler_rank(op, a, t);
  LayoutBuilder r;
  for (int i = 0; i < a.rank(); ++i) r.add(i < t.n && !t.keep[i] ? f(a[i], t.mode[i]) : a[i]);
  return r.get();
}
}  // namespace detail

// ---------------------------------------------------------------------------------------------
// coalesce: flatten and merge modes while keeping the function of integer indices.
// coalesce((2,(1,6)):(1,(7,2))) = 12:1
TESSERA_HD constexpr Layout coalesce(Layout const& a) {
  Modes in = leaves(a);
  Modes r;
  r.push(1, 0);
  for (int i = 0; i < in.n; ++i) {
    int64_t s = in.s[i], d = in.d[i];
    int k = r.n - 1;
    if (s == 1) continue;
    if (r.s[k] == 1) {
      r.s[k] = s;
      r.d[k] = d;
    } else if (checked_mul(r.s[k], r.d[k]) == d) {
      r.s[k] = checked_mul(r.s[k], s);
    } else {
      r.push(s, d);
    }
  }
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
TESSERA_HD constexpr Layout filter(Layout const& a) {
  Modes in = leaves(a);
  Modes r;
  for (int i = 0; i < in.n; ++i)
    if (in.s[i] != 1 && in.d[i] != 0) r.push(in.s[i], in.d[i]);
  if (r.n == 0) return Layout();
  return coalesce(r.layout());
}

// ---------------------------------------------------------------------------------------------
namespace detail {
// A o B for B's mode subtree, with A already flattened and coalesced (done once per composition).
TESSERA_HD constexpr Layout compose_flat(Layout const& a, Modes const& flat, Layout const& b) {
  if (b.shape.is_tuple()) {
    LayoutBuilder r;
    for (int i = 0; i < b.rank(); ++i) r.add(compose_flat(a, flat, b[i]));
    return r.get();
  }
  int64_t rest_shape = b.shape.value(), rest_stride = b.stride.value();
  if (rest_stride == 0) return Layout(rest_shape, 0);

  Modes r;
  for (int k = 0; k + 1 < flat.n; ++k) {
    int64_t s = flat.s[k], d = flat.d[k];
    // Divide out the stride: B's stride must skip whole modes of A or stay inside one.
    if (s % rest_stride != 0 && rest_stride % s != 0) {
      Text m;
      m << "composition: stride divisibility fails: shape " << s << " of " << a
        << " and stride " << abs64(rest_stride) << " of " << b << " do not divide one another";
      fail(m);
    }
    int64_t new_shape = min64(max64(1, s / rest_stride), rest_shape);
    if (new_shape != 1) {
      // Mod out the shape: the elements kept in this mode must divide what B still needs.
      if (rest_shape % new_shape != 0) {
        Text m;
        m << "composition: shape divisibility fails: " << new_shape << " elements of mode "
          << s << ':' << d << " of " << a << " do not divide the remaining size "
          << rest_shape << " of " << b;
        fail(m);
      }
      r.push(new_shape, checked_mul(rest_stride, d));
    }
    rest_shape /= new_shape;
    rest_stride = ceil_div(abs64(rest_stride), s) * sign64(rest_stride);
  }
  if (rest_shape != 1 || r.n == 0) r.push(rest_shape, checked_mul(rest_stride, flat.d[flat.n - 1]));
  return r.layout();
}
}  // namespace detail

// composition: R(c) = A(B(c)) for every coordinate c of B; R has B's shape (up to coalescing of
// each integer mode of B).
TESSERA_HD constexpr Layout composition(Layout const& a, Layout const& b) {
  if (b.shape.is_int() && b.stride.value() == 0) return Layout(b.shape, 0);
  return detail::compose_flat(a, leaves(coalesce(a)), b);
}

// By-mode composition: entry i of the tiler composes with mode i of A, `_` keeps it.
TESSERA_HD constexpr Layout composition(Layout const& a, Tiler const& t) {
  return detail::by_mode("composition", a, t,
                         [](Layout const& x, Layout const& y) { return composition(x, y); });
}

// ---------------------------------------------------------------------------------------------
// complement: the ordered layout of the offsets in [0, cotarget) that A does not reach.
// complement((2,2):(1,6), 24) = (3,2):(2,12)
TESSERA_HD constexpr Layout complement(Layout const& a, int64_t cotarget = 1) {
  if (cotarget < 1) {
    Text t;
    t << "complement: the cotarget " << cotarget << " of " << a << " must be positive";
    fail(t);
  }
  Modes m = leaves(a);
  // Sort the modes by (stride, shape); insertion sort over at most kMaxNodes entries.
  for (int i = 1; i < m.n; ++i) {
    for (int j = i; j > 0; --j) {
      bool less = m.d[j] < m.d[j - 1] || (m.d[j] == m.d[j - 1] && m.s[j] < m.s[j - 1]);
      if (!less) break;
      int64_t ts = m.s[j], td = m.d[j];
      m.s[j] = m.s[j - 1], m.d[j] = m.d[j - 1];
      m.s[j - 1] = ts, m.d[j - 1] = td;
    }
  }
  Modes r;
  int64_t covered = 1;  // A's modes so far cover [0, covered) with gaps of the earlier results
  for (int i = 0; i < m.n; ++i) {
    int64_t s = m.s[i], d = m.d[i];
    if (d == 0 || s == 1) continue;
    if (d < covered) {
      Text t;
      t << "complement: " << a << " is not injective: mode " << s << ':' << d
        << " starts inside the extent " << covered << " of the smaller modes";
      fail(t);
    }
    r.push(d / covered, covered);
    covered = checked_mul(s, d);
  }
  r.push(ceil_div(cotarget, covered), covered);
  return coalesce(r.layout());
}

// ---------------------------------------------------------------------------------------------
// right_inverse: the largest R with A(R(i)) = i. right_inverse((4,2):(2,1)) = (2,4):(4,1)
TESSERA_HD constexpr Layout right_inverse(Layout const& a) {
  Modes m = leaves(a);
  int64_t pre[kMaxNodes] = {};  // prefix product of the shape: the index stride of each mode
  int64_t p = 1;
  for (int i = 0; i < m.n; ++i) {
    pre[i] = p;
    p = checked_mul(p, m.s[i]);
  }
  int order[kMaxNodes] = {};
  for (int i = 0; i < m.n; ++i) order[i] = i;
  for (int i = 1; i < m.n; ++i) {  // sort by (stride, shape, prefix)
    for (int j = i; j > 0; --j) {
      int x = order[j], y = order[j - 1];
      bool less = m.d[x] < m.d[y] || (m.d[x] == m.d[y] && (m.s[x] < m.s[y] ||
                                                             (m.s[x] == m.s[y] && pre[x] < pre[y])));
      if (!less) break;
      order[j] = y, order[j - 1] = x;
    }
  }
  Modes r;
  int64_t next = 1;  // the offset the inverse must reach next
  for (int k = 0; k < m.n; ++k) {
    int i = order[k];
    // Size-1 and broadcast (stride-0) modes reach no new offset: skip them, as CuTe's C++ does
    // (pycute stops at a stride-0 mode: right_inverse((2,4):(0,1)) is 4:2 here, 1:0 there).
    if (m.s[i] == 1 || m.d[i] == 0) continue;
    if (m.d[i] != next) break;
    r.push(m.s[i], pre[i]);
    next = checked_mul(m.s[i], m.d[i]);
  }
  return coalesce(r.layout());
}

// left_inverse: L with L(A(i)) = i for every i < size(A), for injective A.
TESSERA_HD constexpr Layout left_inverse(Layout const& a) {
  return right_inverse(make_layout(a, complement(a)));
}

// ---------------------------------------------------------------------------------------------
// Divides.
TESSERA_HD constexpr Layout logical_divide(Layout const& a, Layout const& b) {
  return composition(a, make_layout(b, complement(b, a.size())));
}
TESSERA_HD constexpr Layout logical_divide(Layout const& a, Tiler const& t) {
  return detail::by_mode("logical_divide", a, t,
                         [](Layout const& x, Layout const& y) { return logical_divide(x, y); });
}

// Products.
TESSERA_HD constexpr Layout logical_product(Layout const& a, Layout const& b) {
  return make_layout(a, composition(complement(a, checked_mul(a.size(), b.cosize())), b));
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
    Layout s = t.keep[i] ? make_layout(Layout(), a[i]) : split(a[i], t.mode[i]);
    tiles.add(s[0]);
    rests.add(s[1]);
  }
  for (int i = t.n; i < a.rank(); ++i) rests.add(a[i]);
  return make_layout(tiles.get(), rests.get());
}

// ((t..),(r0,r1,..)) -> ((t..),r0,r1,..)
TESSERA_HD constexpr Layout unpack_second(Layout const& z) {
  LayoutBuilder r;
  r.add(z[0]);
  Layout rest = z[1];
  for (int i = 0; i < rest.rank(); ++i) r.add(rest[i]);
  return r.get();
}

// ((t0,t1,..),(r0,r1,..)) -> (t0,t1,..,r0,r1,..)
TESSERA_HD constexpr Layout unpack_both(Layout const& z) {
  LayoutBuilder r;
  for (int k = 0; k < 2; ++k) {
    Layout half = z[k];
    for (int i = 0; i < half.rank(); ++i) r.add(half[i]);
  }
  return r.get();
}

// Pads a layout with 1:0 modes to rank r, always as a tuple: (4:1, r=2) -> (4,1):(1,0).
TESSERA_HD constexpr Layout append_to_rank(Layout const& a, int r) {
  LayoutBuilder b;
  for (int i = 0; i < r; ++i) b.add(i < a.rank() ? a[i] : Layout());
  return b.get();
}

// ((a0,a1,..),(b0,b1,..)) -> ((a0,b0),(a1,b1),..), or with the halves swapped.
TESSERA_HD constexpr Layout zip_modes(Layout const& p, bool swap) {
  Layout x = p[swap ? 1 : 0], y = p[swap ? 0 : 1];
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
