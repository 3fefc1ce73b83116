// tessera/tiled_copy.hpp -- TiledCopy: a copy atom replicated over a thread layout.
//
// make_tiled_copy_tv(atom, thr, val) arranges `thr` threads, each copying a `val` block, as a
// raked product: layout_mn = raked_product(thr, val) maps a tile coordinate to (thread, value)
// and its right inverse, reshaped to (threads, values), is the TV layout of the tile.
//
//   The tiled GEMM's B loads: cp.async of 4 floats, thr (32,8):(1,32), val (4,1)
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
        m << "TiledCopy: the tile " << tiler << " does not divide the tensor " << t << " (mode "
          << i << ')';
        fail(m);
      }
    }
    Layout atom_tv =
        zipped_divide(layout_tv, make_tile(Layout(atom.threads()), Layout(atom.values())));
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
    return slice(tidfrg(t, dst), thread);
  }
  // A thread's offset and fragment (value, rest...) from the tidfrg layout `r`: computing `r`
  // once and slicing it per thread gives every thread's partition for the price of one.
  TESSERA_HD constexpr View slice(Layout const& r, int64_t thread) const {
    if (thread < 0 || thread >= threads()) {
      Text m;
      m << "TiledCopy: thread " << thread << " is outside [0, " << threads() << ")";
      fail(m);
    }
    LayoutBuilder out;
    out.add(r[1]);
    Layout rest = r[2];
    for (int i = 0; i < rest.rank(); ++i) out.add(rest[i]);
    return View{r[0](thread), out.get()};
  }
  TESSERA_HD constexpr View partition_S(Layout const& s, int64_t thread) const {
    return partition(s, thread, false);
  }
  TESSERA_HD constexpr View partition_D(Layout const& d, int64_t thread) const {
    return partition(d, thread, true);
  }
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

TESSERA_HD constexpr TiledCopy make_tiled_copy(CopyAtom const& atom, TiledMMA const& mma,
                                               Operand op) {
  Layout tv = mma_layout_tv(mma, op);
  if (tv[1].size() % atom.values() != 0) {
    Text t;
    t << "make_tiled_copy_" << operand_name(op) << ": the " << tv[1].size()
      << " values per thread of the MMA are not a multiple of the " << atom.values() << " of "
      << atom.name;
    fail(t);
  }
  int i0 = TiledMMA::mode0(op), i1 = TiledMMA::mode1(op);
  return TiledCopy{atom, tv, make_tuple(mma.tile_size(i0), mma.tile_size(i1))};
}
TESSERA_HD constexpr TiledCopy make_tiled_copy_A(CopyAtom const& atom, TiledMMA const& mma) {
  return make_tiled_copy(atom, mma, Operand::kA);
}
TESSERA_HD constexpr TiledCopy make_tiled_copy_B(CopyAtom const& atom, TiledMMA const& mma) {
  return make_tiled_copy(atom, mma, Operand::kB);
}
TESSERA_HD constexpr TiledCopy make_tiled_copy_C(CopyAtom const& atom, TiledMMA const& mma) {
  return make_tiled_copy(atom, mma, Operand::kC);
}

// ---------------------------------------------------------------------------------------------
// Retiling: a thread's register fragment, laid out as the MMA partitions it, regrouped in the
// copy's value order. CuTe's ThrCopy::retile_S / retile_D (both are the same function).
//
// A TiledCopy gives each thread W = size(TV[1]) values per tile, value v at tile index TV(t, v);
// an MMA fragment F = (V, F_M, F_N, ...) holds the same elements in the MMA's order: V values of
// one block in mode 0, then the blocks across the tile and across tiles. Write v = v0 + V*b:
//
//   mn2b     = upcast<N*V>(right_inverse(TV) o (tile)) (m,n) -> b: which V-block of its thread
//              holds tile element (m,n); per mode, s:d -> shape_div(s, shape_div(N*V, d)) :
//              shape_div(d, N*V), so thread and in-block strides (d < N*V) collapse to 1:1.
//              Its size per tile mode, T = (T_M, T_N), is the blocks a thread has along that mode.
//   frg_v    = zipped_divide(logical_product(V, right_inverse(mn2b)), A)
//              ((atom_val),(rest_val)) -> (v0, T_M, T_N) index: copy value v -> its register
//   retile   = (zipped_divide(F, (V, T_M, T_N))[0] o frg_v, F_M/T_M, F_N/T_N, ...)
//
// Semantics: for every thread t, copy value i = (a, w) of atom value a and atom repetition w,
// and tile repetition r, retile(F)(i, r) is the register (F's offset) that holds tile element
// TV(t, a + A*w) of tile r: the element the copy moves there in the copy's reference frame, which
// is partition_D(X, t)(i, r) of a tensor X (for a register destination, the element that arrives;
// partition_S gives the same element where the atom's source and reference layouts agree, e.g.
// UniversalCopy, but for ldmatrix a lane's source values are the row it addresses, which other
// lanes receive). It is one layout for all threads, like CuTe's. Required: rank(F) >= 1 + rank
// of the tile, V * T_M * T_N == W (the fragment's blocks make up the copy's values), and T_M,
// T_N divide F_M, F_N; otherwise tessera::fail names the layouts (CuTe does not check).
//
//   step4() + make_tiled_copy_A(ldmatrix x4): N = 128 threads, W = 8, A = 8, tile (32,16).
//   tCrA ((2,2,2),4,2):((1,2,4),16,8): V = 8 = W, every stride of right_inverse(TV) is < 1024,
//   so mn2b is all 1:1, T = (1,1) and frg_v = (8,1):(1,0); the 8 registers of mode 0
//   become one ldmatrix x4 (its 8 values): retile = ((8,1),4,2):((1,0),16,8), as CuTe prints.
//   step1() + make_tiled_copy_C(128-bit UniversalCopy of floats): tile (64,64), W = 16, A = 4;
//   tCrC (1,(4,2),(4,2)) has V = 1, T = (4,4): retile = ((4,4),2,2), 4 registers per copy.
namespace detail {
// CuTe's shape_div of integers: a / b, or +-1 when |a| < |b|; one must divide the other.
TESSERA_HD constexpr int64_t shape_div(int64_t a, int64_t b, Layout const& tv, int64_t v) {
  if (b == 0 || (a % b != 0 && b % a != 0)) {
    Text t;
    t << "retile: " << a << " and " << b << " do not divide one another: a " << v
      << "-value fragment block does not fit the TiledCopy's TV layout " << tv;
    fail(t);
  }
  return a / b != 0 ? a / b : sign64(a) * sign64(b);
}

}  // namespace detail

TESSERA_HD constexpr Layout retile(TiledCopy const& copy, Layout const& frag) {
  int64_t v = frag.rank() > 1 ? frag[0].size() : frag.size();
  int64_t nv = checked_mul(copy.threads(), v);
  // (m,n) -> V-block index: with_shape(tile), then upcast<N*V> leaf by leaf.
  Layout mn2b = composition(right_inverse(copy.layout_tv), Layout(copy.tiler));
  for (int i = 0; i < mn2b.shape.n; ++i) {
    if (mn2b.shape.tup[i] || mn2b.stride.v[i] == 0) continue;
    int64_t s = mn2b.shape.v[i], d = mn2b.stride.v[i];
    mn2b.shape.v[i] =
        detail::shape_div(s, detail::shape_div(nv, abs64(d), copy.layout_tv, v), copy.layout_tv, v);
    mn2b.stride.v[i] = detail::shape_div(d, nv, copy.layout_tv, v);
  }
  IntTuple blocks = product_each(mn2b.shape);  // (T_M, T_N, ...)
  int nb = blocks.rank();
  int64_t w = copy.layout_tv[1].size();
  auto mismatch = [&](Text& t) {
    t << "retile: the fragment " << frag << " does not line up with the TiledCopy's " << w
      << " values per thread (TV layout " << copy.layout_tv << ", tile " << copy.tiler << "): ";
  };
  if (frag.rank() < 1 + nb) {
    Text t;
    mismatch(t);
    t << "it needs a value mode and one mode per tile mode, rank >= " << 1 + nb;
    fail(t);
  }
  TupleBuilder tile;
  tile.add(IntTuple(v));
  for (int i = 0; i < nb; ++i) {
    int64_t b = blocks[i].value();
    if (frag[1 + i].size() % b != 0) {
      Text t;
      mismatch(t);
      t << "mode " << 1 + i << " (size " << frag[1 + i].size() << ") is not a multiple of the "
        << b << " blocks of " << v << " values a thread has along tile mode " << i;
      fail(t);
    }
    tile.add(IntTuple(b));
  }
  if (v * product(blocks) != w) {
    Text t;
    mismatch(t);
    t << "its mode 0 holds " << v << " values and a thread has " << blocks
      << " blocks of them per tile, " << v * product(blocks) << " values, not " << w;
    fail(t);
  }
  Layout frg_v = zipped_divide(logical_product(Layout(v), right_inverse(mn2b)),
                               Tiler(Layout(copy.atom.values())));
  Layout t = zipped_divide(frag, Tiler(tile.get()));  // ((V,T_M,T_N),(1,RestM,RestN,...))
  LayoutBuilder out;
  out.add(composition(t[0], frg_v));
  Layout rest = t[1];
  for (int i = 1; i < rest.rank(); ++i) out.add(rest[i]);  // rest mode 0 has size 1: slice at 0
  return out.get();
}
TESSERA_HD constexpr Layout retile_S(TiledCopy const& copy, Layout const& frag) {
  return retile(copy, frag);
}
TESSERA_HD constexpr Layout retile_D(TiledCopy const& copy, Layout const& frag) {
  return retile(copy, frag);
}

}  // namespace tessera
