// tessera/tensor.hpp -- views: an iterator plus a layout, tiles of them, and coordinate tensors.
//
// A tensor is a base (a pointer, or an offset for coordinate tensors) and a layout; element c is
// base[L(c)]. Everything here is layout algebra on the view's layout, so a tile or a thread's
// partition is again a view: an offset added to the base and a new layout.
//
//   local_tile((256,32):(1,256), tile (128,128,8), coord (0,0,_), proj (1,_,1))
//     drops mode N of the tiler (proj), divides by (128,8) and keeps every K tile:
//     offset 0, layout (128,8,4):(1,256,2048)          // (BM,BK,k)
//
// Coordinate (identity) tensors hold coordinates instead of data: partition one exactly like
// the data tensor and each element says which (m,n) it is, which gives residue predicates:
//   pred(i) = elem_less(tCcC(i), (M - m0, N - n0))
#pragma once

#include "algebra.hpp"

namespace tessera {

// One entry per mode: an index, or `_` (keep the mode; for proj: drop the mode).
struct TileCoord {
  static constexpr int kMax = 8;
  int n = 0;
  int64_t v[kMax] = {};
  bool all[kMax] = {};
  TESSERA_HD constexpr TileCoord& add(int64_t x) {
    if (n == kMax) fail("capacity: a tile coordinate has at most 8 modes");
    v[n++] = x;
    return *this;
  }
  TESSERA_HD constexpr TileCoord& add(Underscore) {
    if (n == kMax) fail("capacity: a tile coordinate has at most 8 modes");
    all[n++] = true;
    return *this;
  }
};

template <class... Ts>
TESSERA_HD constexpr TileCoord make_coord(Ts const&... xs) {
  TileCoord c;
  auto add = [&](auto const& x) {
    if constexpr (std::is_same_v<std::decay_t<decltype(x)>, Underscore>) c.add(_);
    else c.add(int64_t(x));
  };
  (add(xs), ...);
  return c;
}

// An offset into a view and the layout of the elements from there.
struct View {
  int64_t offset = 0;
  Layout layout;
  TESSERA_HD constexpr int64_t operator()(int64_t i) const { return offset + layout(i); }
};

// The coordinate in a thread layout whose value is `idx` (CuTe's get_flat_coord of a thread
// layout): per mode, the mode-local index sum_k ((idx / d_k) % s_k) * prefix_k over its leaves,
// and 0 where a stride is 0. Thread 16 in (1,16,16,1):(0,16,1,0) is (0,1,0,0).
TESSERA_HD constexpr IntTuple thread_coord(Layout const& thr, int64_t idx) {
  TupleBuilder b;
  for (int m = 0; m < thr.rank(); ++m) {
    Modes leaf = leaves(thr[m]);
    int64_t c = 0, prefix = 1;
    for (int k = 0; k < leaf.n; ++k) {
      if (leaf.d[k] != 0) c += ((idx / leaf.d[k]) % leaf.s[k]) * prefix;
      prefix *= leaf.s[k];
    }
    b.add(IntTuple(c));
  }
  return b.get();
}

// The CTA's tile of a tensor layout. `tiler` is a shape (one tile extent per mode), `coord` the
// tile index per mode (`_` keeps all tiles of that mode as a trailing mode), `proj` selects the
// tiler modes that apply to this tensor (`_` drops one; default all).
TESSERA_HD constexpr View local_tile(Layout const& l, IntTuple const& tiler, TileCoord const& coord,
                                     TileCoord proj = {}) {
  if (proj.n == 0)
    for (int i = 0; i < tiler.rank(); ++i) proj.add(1);
  if (proj.n != tiler.rank() || coord.n != tiler.rank()) {
    Text t;
    t << "local_tile: tiler " << tiler << " needs one coordinate and one proj entry per mode";
    fail(t);
  }
  TupleBuilder shape;
  TileCoord c;
  for (int i = 0; i < tiler.rank(); ++i) {
    if (proj.all[i]) continue;
    shape.add(tiler[i]);
    if (coord.all[i]) c.add(_);
    else c.add(coord.v[i]);
  }
  Layout z = zipped_divide(l, Tiler(shape.get()));  // ((tile..),(rest..))
  LayoutBuilder out;
  Layout tile = z[0], rest = z[1];
  for (int i = 0; i < tile.rank(); ++i) out.add(tile[i]);
  int64_t offset = 0;
  for (int i = 0; i < rest.rank(); ++i) {
    if (i < c.n && !c.all[i]) offset += rest[i](c.v[i]);
    else out.add(rest[i]);
  }
  return View{offset, out.get()};
}

// A tensor of coordinates: element i is the natural coordinate, in `shape`, of offset
// base + L(i) of the compact column-major layout of `shape`. Partitioned like a data tensor it
// tells each thread which coordinates it owns.
struct CoordTensor {
  IntTuple shape;
  int64_t base = 0;
  Layout layout;
  TESSERA_HD constexpr IntTuple operator()(int64_t i) const {
    return idx2crd(base + layout(i), shape);
  }
  TESSERA_HD constexpr int64_t size() const { return layout.size(); }
};

TESSERA_HD constexpr CoordTensor make_identity_tensor(IntTuple const& shape) {
  return CoordTensor{shape, 0, Layout(shape)};
}
TESSERA_HD constexpr CoordTensor make_tensor(CoordTensor const& t, View const& v) {
  return CoordTensor{t.shape, t.base + v.offset, v.layout};
}

// A register fragment's layout: the compact column-major layout of the same shape.
TESSERA_HD constexpr Layout make_fragment_like(Layout const& l) { return Layout(l.shape); }

}  // namespace tessera
