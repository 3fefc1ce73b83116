// tessera/tiled_copy.hpp -- TiledCopy: a copy atom replicated over a thread layout.
//
// make_tiled_copy_tv(atom, thr, val) arranges `thr` threads, each copying a `val` block, as a
// raked product: layout_mn = raked_product(thr, val) maps a tile coordinate to (thread, value)
// and its right inverse, reshaped to (threads, values), is the TV layout of the tile.
//
//   Seed 004, B loads: cp.async of 4 floats, thr (32,8):(1,32), val (4,1)
//     tile (128,8), TV (256,4):(4,1): thread t copies elements 4t..4t+3 of the tile
//
// partition_S/D(tensor, t) divide the tensor by the tile and give thread t its values:
// (CPY, CPY_M, CPY_N, ...) -- the atom's values, then one mode per tile repetition.
#pragma once

#include "atom/copy.hpp"
#include "tensor.hpp"
#include "tiled_mma.hpp"

namespace tessera {

struct TiledCopy {
  CopyAtom atom;
  Layout layout_tv;  // (thread, value) -> column-major index in the tile
  IntTuple tiler;    // the tile's shape

  TESSERA_HD constexpr int64_t threads() const { return layout_tv[0].size(); }

  // (thread, value, rest) for a tensor layout, as source (dst = false) or destination.
  TESSERA_HD constexpr Layout tidfrg(Layout const& t, bool dst) const {
    // The tile must divide the tensor: a partial tile would address outside it.
    for (int i = 0; i < tiler.rank(); ++i) {
      if (i >= t.rank() || t[i].size() % product(tiler[i]) != 0) {
        Text m;
        m << "TiledCopy: the tile " << tiler << " does not divide the tensor " << t << " (mode " << i << ')';
        fail(m);
      }
    }
    Layout atom_tv = zipped_divide(layout_tv, make_tile(Layout(atom.threads()), Layout(atom.values())));
    Layout ref2trg = composition(right_inverse(atom.ref_tv), dst ? atom.dst_tv : atom.src_tv);
    Layout trg_tv = make_layout(composition(atom_tv[0], ref2trg), atom_tv[1]);
    // ((atom_thr,atom_val),(rest_thr,rest_val)) -> ((thr),(atom_val,rest_val))
    Layout thr = coalesce(make_layout(trg_tv[0][0], trg_tv[1][0]));
    Layout val = make_layout(coalesce(trg_tv[0][1]), coalesce(trg_tv[1][1]));
    Layout tiles = zipped_divide(t, Tiler(tiler));  // ((TileM,TileN),(RestM,RestN,...))
    Layout tv = composition(tiles[0], make_layout(thr, val));
    return make_layout(tv[0], tv[1], tiles[1]);
  }

  TESSERA_HD constexpr View partition(Layout const& t, int64_t thread, bool dst) const {
    if (thread < 0 || thread >= threads()) {
      Text m;
      m << "TiledCopy: thread " << thread << " is outside [0, " << threads() << ")";
      fail(m);
    }
    Layout r = tidfrg(t, dst);
    LayoutBuilder out;
    out.add(r[1]);
    Layout rest = r[2];
    for (int i = 0; i < rest.rank(); ++i) out.add(rest[i]);
    return View{r[0](thread), out.get()};
  }
  TESSERA_HD constexpr View partition_S(Layout const& s, int64_t thread) const { return partition(s, thread, false); }
  TESSERA_HD constexpr View partition_D(Layout const& d, int64_t thread) const { return partition(d, thread, true); }
};

// The tile shape of a layout: the size of each top-level mode.
TESSERA_HD constexpr IntTuple product_each(IntTuple const& shape) {
  if (shape.is_int()) return shape;
  TupleBuilder b;
  for (int i = 0; i < shape.rank(); ++i) b.add(IntTuple(product(shape[i])));
  return b.get();
}

TESSERA_HD constexpr TiledCopy make_tiled_copy_tv(CopyAtom const& atom, Layout const& thr,
                                                  Layout const& val) {
  Layout layout_mn = raked_product(thr, val);
  Layout tv_shape(make_tuple(thr.size(), val.size()), make_tuple(1, thr.size()));
  Layout layout_tv = composition(right_inverse(layout_mn), tv_shape);
  if (layout_tv.size() != layout_mn.size()) {
    Text t;
    t << "make_tiled_copy_tv: raked_product(" << thr << ", " << val << ") = " << layout_mn
      << " is not invertible (threads and values must tile the block without overlap)";
    fail(t);
  }
  if (val.size() % atom.values() != 0) {
    Text t;
    t << "make_tiled_copy_tv: " << val.size() << " values per thread is not a multiple of the "
      << atom.values() << " values of " << atom.name;
    fail(t);
  }
  return TiledCopy{atom, layout_tv, product_each(layout_mn.shape)};
}

// A TiledCopy whose threads own exactly what a TiledMMA's threads own for one operand, so a
// copy atom (ldmatrix, a vector store) moves each thread's MMA fragment: the TV layout is the
// MMA's partition of the operand's tile (thread -> offset, value -> offset) in the compact
// column-major frame of that tile. CuTe's make_tiled_copy_A/B/C.
TESSERA_HD constexpr Layout mma_layout_tv(TiledMMA const& mma, Operand op) {
  int i0 = TiledMMA::mode0(op), i1 = TiledMMA::mode1(op);
  Layout tile(make_tuple(mma.tile_size(i0), mma.tile_size(i1)));
  ThreadPartition p = mma.partitioner(op, tile);
  return make_layout(p.thread, p.fragment);
}

TESSERA_HD constexpr TiledCopy make_tiled_copy(CopyAtom const& atom, TiledMMA const& mma, Operand op) {
  Layout tv = mma_layout_tv(mma, op);
  if (tv[1].size() % atom.values() != 0) {
    Text t;
    t << "make_tiled_copy_" << operand_name(op) << ": the " << tv[1].size()
      << " values per thread of the MMA are not a multiple of the " << atom.values() << " of " << atom.name;
    fail(t);
  }
  int i0 = TiledMMA::mode0(op), i1 = TiledMMA::mode1(op);
  return TiledCopy{atom, tv, make_tuple(mma.tile_size(i0), mma.tile_size(i1))};
}
TESSERA_HD constexpr TiledCopy make_tiled_copy_A(CopyAtom const& atom, TiledMMA const& mma) { return make_tiled_copy(atom, mma, Operand::kA); }
TESSERA_HD constexpr TiledCopy make_tiled_copy_B(CopyAtom const& atom, TiledMMA const& mma) { return make_tiled_copy(atom, mma, Operand::kB); }
TESSERA_HD constexpr TiledCopy make_tiled_copy_C(CopyAtom const& atom, TiledMMA const& mma) { return make_tiled_copy(atom, mma, Operand::kC); }

}  // namespace tessera
