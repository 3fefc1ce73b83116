// tessera/fragment_views.hpp -- an accumulator seen as another MMA's operand, or as (rows, cols),
// and which lanes share a row: derived from the partitions, never written per kernel.
//
// Every partition is a (thread, value) -> tile index layout TV = (thread, fragment) over the
// tile's compact column-major index space. For an accumulator tile (BM,BN) read by a second MMA
// as its A operand (M,K) = (BM,BN) (attention: P = softmax(S) times V):
//
//   inv  = right_inverse(TV_C)            tile index -> t + T*i   (C's thread t, value i)
//   m    = inv o TV_A                     (t, j) -> t' + T*i
//
// The view exists when every thread owns, as A, exactly the elements it holds as C: m(t, j) = t +
// T*i(j) for every t, i.e. m's thread mode is the identity and its value mode a multiple of T.
// Then i(j) = m[1](j) / T is a layout over A's fragment shape (V,M,K) into C's values.
//
//   SM80 m16n8k16, f32 C ((2,2),M,N) -> A ((2,2,2),M,N/2): j = (v0,v1,v2) -> i = v0 + 2 v1 + 4 v2
//   (v2 = the second n-atom), FlashAttention's convert_layout_acc_Aregs; likewise tf32
//   m16n8k8 and wgmma RS.
//
// The (row, col) view keeps the same registers and splits the value leaves by where they move in
// the tile: a leaf of stride d is a column leaf when d is a multiple of BM, a row leaf when its
// whole extent stays inside one column ((s-1) d < BM). SM80 C ((2,2),M,N):((BM,8),16,8 BM) per
// thread -> ((2,M),(2,N)): row r = v1 + 2m, col c = v0 + 2n.
//
// Lanes sharing a row: the thread layout's leaves that move only along columns; a leaf of shape s
// at thread stride p (a power of 2 each) gives shuffle xor distances p, 2p, .. p s/2 (SM80 C: t0
// of (4,8):(2 BM, 1) -> xor 1, 2: the quad).
#pragma once

#include "algebra.hpp"
#include "fragment.hpp"
#include "thr_mma.hpp"
#include "tiled_copy.hpp"
#include "tiled_mma.hpp"

namespace tessera {

namespace detail {
// A layout with every stride divided by k (exact: the caller checked divisibility).
TESSERA_HD constexpr Layout divide_strides(Layout l, int64_t k) {
  for (int i = 0; i < l.stride.n; ++i)
    if (!l.stride.tup[i]) l.stride.v[i] /= k;
  return l;
}
// The layout of leaves (s[k], d[k]) for k in `pick` (n of them): a leaf, a tuple, or 1:0.
TESSERA_HD constexpr Layout leaves_layout(Modes const& m, const int* pick, int n) {
  if (n == 0) return Layout(1, 0);
  if (n == 1) return Layout(m.s[pick[0]], m.d[pick[0]]);
  TupleBuilder s, d;
  for (int k = 0; k < n; ++k) s.add(IntTuple(m.s[pick[k]])), d.add(IntTuple(m.d[pick[k]]));
  return Layout(s.get(), d.get());
}
TESSERA_HD constexpr bool power_of_2(int64_t x) { return x > 0 && (x & (x - 1)) == 0; }
}  // namespace detail

// The layout that reads a (BM,BN) accumulator of c_mma (registers c_regs over its (V,M,N)
// fragment) as the A operand (V,M,K) of a_mma, (M,K) = (BM,BN): A value j is register
// acc_as_operand(..)(j). Fails, naming the rule, when a thread's A elements are not its C elements.
TESSERA_HD constexpr Layout acc_as_operand(TiledMMA const& c_mma, TiledMMA const& a_mma,
                                           Layout const& tile, Layout const& c_regs) {
  const ThreadPartition pc = c_mma.partitioner(Operand::kC, tile),
                        pa = a_mma.partitioner(Operand::kA, tile);
  const int64_t threads = c_mma.threads();
  if (a_mma.threads() != threads) {
    Text t;
    t << "acc_as_operand: the accumulator's TiledMMA has " << threads << " threads, the operand's "
      << a_mma.threads() << ": the same threads must hold both";
    fail(t);
  }
  if (c_regs.size() != pc.fragment.size()) {
    Text t;
    t << "acc_as_operand: the accumulator fragment " << c_regs << " is not the (V,M,N) partition "
      << pc.fragment << " of the tile " << tile;
    fail(t);
  }
  const Layout m = composition(right_inverse(make_layout(pc.thread, pc.fragment)),
                               make_layout(pa.thread, pa.fragment));  // (t, j) -> t' + T*i
  for (int64_t t = 0; t < threads; ++t)
    if (m[0](t) != t) {
      Text e;
      e << "acc_as_operand: a thread must hold as the operand exactly the elements it holds as the "
           "accumulator (the same thread owns the same (row,col)); thread "
        << t << "'s first operand element is thread " << m[0](t) % threads << "'s accumulator (C "
        << pc.fragment << ", A " << pa.fragment << ", tile " << tile << ")";
      fail(e);
    }
  for (int64_t j = 0; j < m[1].size(); ++j)
    if (m[1](j) % threads != 0) {
      Text e;
      e << "acc_as_operand: a thread must hold as the operand exactly the elements it holds as the "
           "accumulator (the same thread owns the same (row,col)); operand value "
        << j << " of thread 0 is another thread's accumulator (C " << pc.fragment << ", A "
        << pa.fragment << ", tile " << tile << ")";
      fail(e);
    }
  const Layout values = detail::divide_strides(m[1], threads);  // A value -> C value
  return c_regs == Layout(c_regs.shape) ? values : composition(c_regs, values);
}

// The (rows, cols) view of a (BM,BN) accumulator of `mma` (registers c_regs over its fragment):
// ((row leaves), (col leaves)) -> register, rows and columns each in increasing tile order.
TESSERA_HD constexpr Layout acc_rowcol(TiledMMA const& mma, Layout const& tile,
                                       Layout const& c_regs) {
  const Layout frg = mma.partitioner(Operand::kC, tile).fragment;
  const Modes f = leaves(frg), r = leaves(c_regs);
  bool same = f.n == r.n;
  for (int k = 0; same && k < f.n; ++k) same = f.s[k] == r.s[k];
  if (!same) {
    Text t;
    t << "acc_rowcol: the registers' layout " << c_regs << " is not of the accumulator's shape "
      << frg.shape;
    fail(t);
  }
  const int64_t bm = tile[0].size();
  int rows[kMaxNodes] = {}, cols[kMaxNodes] = {}, nr = 0, nc = 0;
  for (int k = 0; k < f.n; ++k) {
    if (f.s[k] == 1) continue;
    const bool col = f.d[k] % bm == 0, row = (f.s[k] - 1) * f.d[k] < bm;
    if (!col && !row) {
      Text t;
      t << "acc_rowcol: value leaf " << f.s[k] << ':' << f.d[k] << " of the accumulator " << frg
        << " moves across rows and columns of the tile " << tile;
      fail(t);
    }
    // Insert in increasing tile stride (insertion sort: a handful of leaves).
    int* at = col ? cols : rows;
    int& n = col ? nc : nr;
    int p = n++;
    while (p > 0 && f.d[at[p - 1]] > f.d[k]) at[p] = at[p - 1], --p;
    at[p] = k;
  }
  return make_layout(detail::leaves_layout(r, rows, nr), detail::leaves_layout(r, cols, nc));
}

// Shuffle xor distances of a warp-level reduction.
struct LaneShuffles {
  int n = 0;
  int xor_mask[5] = {};
};

// The lanes that share a thread's elements of tile mode 1-mode (rows, for mode = 1: a row
// reduction), for a partition whose thread layout `thread` maps thread index -> tile index (compact
// column-major over `tile`, rank 2): the thread leaves that move only along `mode` (stride-0
// leaves are replicas and take no part). Each such leaf must be a power of 2 at a power-of-2
// thread stride inside one warp.
TESSERA_HD constexpr LaneShuffles shuffles_along(Layout const& thread, Layout const& tile,
                                                 int mode) {
  const Modes t = leaves(thread);
  const int64_t bm = tile[0].size();
  LaneShuffles r;
  int64_t p = 1;  // the leaf's thread stride (colexicographic)
  for (int k = 0; k < t.n; p *= t.s[k], ++k) {
    if (t.s[k] == 1 || t.d[k] == 0) continue;
    const bool col = t.d[k] % bm == 0, row = (t.s[k] - 1) * t.d[k] < bm;
    if (!col && !row) {
      Text e;
      e << "shuffles_along: thread leaf " << t.s[k] << ':' << t.d[k] << " of " << thread
        << " moves across both modes of the tile " << tile;
      fail(e);
    }
    if (col != (mode == 1)) continue;
    if (!detail::power_of_2(t.s[k]) || !detail::power_of_2(p) || p * t.s[k] > 32) {
      Text e;
      e << "shuffles_along: the threads sharing a " << (mode == 1 ? "row" : "column")
        << " differ in thread leaf " << t.s[k] << ':' << t.d[k] << " of " << thread
        << ", which is not a power of 2 inside one warp (a reduction across warps is not "
           "supported)";
      fail(e);
    }
    for (int64_t x = p; x < p * t.s[k]; x *= 2) {
      if (r.n == 5) fail("shuffles_along: more than 5 shuffle distances");
      r.xor_mask[r.n++] = int(x);
    }
  }
  return r;
}
// The lanes sharing a row of an MMA's accumulator tile, and of a TiledCopy's destination tile.
TESSERA_HD constexpr LaneShuffles row_shuffles(TiledMMA const& mma, Layout const& tile) {
  return shuffles_along(mma.partitioner(Operand::kC, tile).thread, tile, 1);
}
TESSERA_HD constexpr LaneShuffles row_shuffles(TiledCopy const& copy, Layout const& tile) {
  return shuffles_along(copy.tidfrg(tile, true)[0], tile, 1);
}

// ---------------------------------------------------------------------------------------------
// The views on fragments (device code): the same registers through the derived layouts.

// The (BM,BN) tile of a (V,M,N) accumulator fragment of Cfg's TiledMMA: its M and N modes count
// the tiles of atoms times threads (a larger permutation tile adds values to them, not tiles).
template <class Cfg, class F>
TESSERA_HD constexpr Layout acc_tile() {
  static_assert(F::kLayout.rank() == 3, "acc: the accumulator fragment must be (V,M,N)");
  constexpr TiledMMA kMma = Cfg::kMma;
  return Layout(make_tuple(F::kLayout[1].size() * kMma.atom.m * kMma.thr_vmnk[1].size(),
                           F::kLayout[2].size() * kMma.atom.n * kMma.thr_vmnk[2].size()));
}

// The accumulator of thr_mma (Cfg), any value type (e.g. convert<__half>(acc)), as the A operand
// of CfgA's TiledMMA: a FragmentView (V,M,K) over the same registers (FlashAttention's
// convert_layout_acc_Aregs): gemm(thr_mma_a, acc_as_A<CfgA>(thr_mma, p)(_, _, k), ...).
template <class CfgA, class Cfg, class F>
TESSERA_HD inline auto acc_as_A(ThrMMA<Cfg> const&, F&& acc) {
  using FF = std::remove_cvref_t<F>;
  static constexpr Layout kL =
      acc_as_operand(Cfg::kMma, CfgA::kMma, acc_tile<Cfg, FF>(), FF::kLayout);
  return make_tensor<kL>(acc.data());
}

// The accumulator as (rows, cols) of this thread (FlashAttention's convert_layout_acc_rowcol):
// rc(r, c) is the element in the thread's r-th row and c-th column, both in tile order.
template <class Cfg, class F>
TESSERA_HD inline auto acc_rowcol(ThrMMA<Cfg> const&, F&& acc) {
  using FF = std::remove_cvref_t<F>;
  static constexpr Layout kL = acc_rowcol(Cfg::kMma, acc_tile<Cfg, FF>(), FF::kLayout);
  return make_tensor<kL>(acc.data());
}

// The lanes that share the rows of Cfg's accumulator fragment F.
template <class Cfg, class F>
TESSERA_HD constexpr LaneShuffles acc_row_shuffles() {
  return row_shuffles(Cfg::kMma, acc_tile<Cfg, F>());
}

}  // namespace tessera
