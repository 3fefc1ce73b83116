// tessera/algorithm/fused_epilogue.hpp -- a GEMM epilogue that applies a user functor to every
// accumulator with its coordinate in C (bias, activation, scaling: CUTLASS's epilogue visitor),
// storing through registers.
//
//   epilogue_store<Cfg>(acc, t, C, m0, n0, [&](float x, int64_t row, int64_t col) {
//     return gelu(alpha * x + bias[col]);      // any element-wise function of (value, row, col)
//   });
//
// Thread t of the TiledMMA Cfg::kMma holds value v of its C partition at (row, col) = first(t) +
// frg(v) of the (BM, BN) tile (make_coord_layout of partition_C's thread and fragment layouts:
// coord_layout.hpp); the tile starts at (m0, n0) of C. A value outside C's (rows, cols) is
// skipped (residues). Two values adjacent along C's unit stride (v0 of the wgmma and mma.sync
// accumulators: columns 2 t0, 2 t0 + 1) go out as one store of two elements when C's layout allows.
#pragma once

#include <cstdint>

#include "../coord_layout.hpp"
#include "../fragment.hpp"
#include "../tiled_mma.hpp"

namespace tessera {

// A (rows, cols) matrix of T in global memory at strides (row_stride, col_stride).
template <class T>
struct MatrixRef {
  T* ptr;
  int64_t rows, cols, row_stride, col_stride;
};

namespace detail {
// C's coordinates of a TiledMMA's (BM, BN) tile: thread -> its first (row, col), value -> offset.
template <class Cfg>
struct EpilogueCoords {
  static constexpr Layout kTile =
      Layout(make_tuple(Cfg::kMma.tile_size(0), Cfg::kMma.tile_size(1)));
  static constexpr ThreadPartition kP = Cfg::kMma.partitioner(Operand::kC, kTile);
  static constexpr Coord<2> kExtent{{Cfg::kMma.tile_size(0), Cfg::kMma.tile_size(1)}};
  static constexpr CoordLayout<2> kThr = make_coord_layout(kP.thread, kExtent);
  static constexpr CoordLayout<2> kFrg = make_coord_layout(kP.fragment, kExtent);
  // Values 2j, 2j + 1 are neighbours along the columns for every j.
  static constexpr bool column_pairs() {
    if (kP.fragment.size() % 2 != 0) return false;
    for (int64_t v = 0; v < kP.fragment.size(); v += 2)
      if (kFrg(v + 1)[0] != kFrg(v)[0] || kFrg(v + 1)[1] != kFrg(v)[1] + 1) return false;
    return true;
  }
};
template <class T>
struct alignas(2 * sizeof(T)) Pair {
  T lo, hi;
};
}  // namespace detail

// C(m0 + row, n0 + col) = f(acc(v), m0 + row, n0 + col) for every value v of thread `thread`'s
// accumulators (Cfg::kMma's C partition of its (BM, BN) tile), inside C only.
TESSERA_CALLS_USER_CODE
template <class Cfg, class T, Layout kL, class F>
TESSERA_HD inline void epilogue_store(Fragment<float, kL> const& acc, int thread,
                                      MatrixRef<T> const& c, int64_t m0, int64_t n0, F const& f) {
  using E = detail::EpilogueCoords<Cfg>;
  static constexpr CoordLayout<2> kThr = E::kThr;
  static constexpr CoordLayout<2> kFrg = E::kFrg;
  constexpr int kValues = int(Fragment<float, kL>::size());
  static_assert(
      kValues == E::kP.fragment.size(),
      "rule::fragment_is_not_the_partition_of_c: epilogue_store takes the TiledMMA's accumulators");
  const Coord<2> first = kThr(thread);
  const int64_t r0 = m0 + first[0], c0 = n0 + first[1];
  // Pairs: unit column stride, both elements' addresses aligned as one pair.
  const bool pairs = E::column_pairs() && c.col_stride == 1 && c.row_stride % 2 == 0 &&
                     c0 % 2 == 0 && reinterpret_cast<uintptr_t>(c.ptr) % (2 * sizeof(T)) == 0;
  TESSERA_UNROLL
  for (int v = 0; v < kValues; v += (E::column_pairs() ? 2 : 1)) {
    const int64_t r = r0 + kFrg(v)[0], col = c0 + kFrg(v)[1];
    if (r >= c.rows) continue;
    T* p = c.ptr + r * c.row_stride + col * c.col_stride;
    // NOTE: f once per value, the branches only around the stores: the loop is unrolled over
    // every value, and a functor inlined into each branch would multiply the code.
    const T lo = T(f(acc(v), r, col));
    if constexpr (E::column_pairs()) {
      const T hi = T(f(acc(v + 1), r, col + 1));
      if (pairs && col + 1 < c.cols) {
        *reinterpret_cast<detail::Pair<T>*>(p) = {lo, hi};
        continue;
      }
      if (col + 1 < c.cols) p[c.col_stride] = hi;
    }
    if (col < c.cols) *p = lo;
  }
}

}  // namespace tessera
