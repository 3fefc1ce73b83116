// tests/cuda/twins/hand_common.cuh -- what the hand-indexed twins share beyond the kernels'
// common.cuh: tile coordinates as Layouts (TileCoords), layouts lowered to integer arithmetic
// (FlatLayout, FlatCoords) and the predicated epilogue store_c, the way the ladder's kernels were
// written before the device vocabulary (tessera/device_tensor.hpp) replaced them. Kept here, with
// the twins, as the reference the vocabulary's SASS is compared with (check_twins.py); no kernel
// of the library uses them.
#pragma once

#include "../../../kernels/gemm/common.cuh"

namespace tessera::ladder {

// ---------------------------------------------------------------------------------------------
// Tile coordinates as Layouts (the kernels now use coord_layout.hpp's CoordLayout instead).

// Row (mode 0) or column (mode 1) coordinate of a layout's offsets in a compact (rows, cols) tile,
// as a flat layout of the same function. A leaf s:d that runs down a column and on into the next
// ones (d | rows, rows | s*d, e.g. a copy's 256:4 in a 128-row tile) is first split into
// (rows/d, s*d/rows):(d, rows); any other leaf must stay in one column or move whole columns.
TESSERA_HD constexpr Layout tile_coord(Layout const& l, int64_t rows, int mode) {
  Modes in = leaves(l), out;
  for (int i = 0; i < in.n; ++i) {
    int64_t s = in.s[i], d = in.d[i];
    if (d > 0 && d < rows && rows % d == 0 && (s * d) % rows == 0 && s * d > rows) {
      out.push(rows / d, d);
      out.push(s * d / rows, rows);
    } else {
      out.push(s, d);
    }
  }
  int64_t reach = 0;  // the largest row offset the in-column leaves reach together
  for (int i = 0; i < out.n; ++i) {
    int64_t s = out.s[i], d = out.d[i];
    bool whole_columns = d % rows == 0;
    bool in_column = d >= 0 && (s - 1) * d < rows;
    if (!whole_columns) reach += (s - 1) * d;
    if ((!whole_columns && !in_column) || reach >= rows) {
      Text t;
      t << "tile_coord: mode " << s << ':' << d << " of " << l << " crosses a column of "
        << rows << " rows; its coordinate is not a layout";
      fail(t);
    }
    out.d[i] = mode == 0 ? (whole_columns ? 0 : d) : (whole_columns ? d / rows : 0);
  }
  return out.layout();
}

// A thread's coordinates in a tile: rows and columns of its base, and of each fragment value.
struct TileCoords {
  Layout thr_row, thr_col;  // thread -> coordinate of its first element
  Layout frg_row, frg_col;  // value  -> coordinate relative to it
};
TESSERA_HD constexpr TileCoords make_coords(Layout const& thr, Layout const& frg, int64_t rows) {
  return {tile_coord(thr, rows, 0), tile_coord(thr, rows, 1), tile_coord(frg, rows, 0),
          tile_coord(frg, rows, 1)};
}

// ---------------------------------------------------------------------------------------------
// Layouts lowered for device code.
//
// A Layout bound as a static constexpr local folds in device code, but cicc gets there by inlining
// Layout::operator() at every call site and unrolling its loops over the 32 nodes (node count,
// tuple flags and extents are loads from the 592-byte constant, folded one round at a time).
// A FlatLayout is the same function prepared in the front end: the leaves with a non-zero stride
// as terms (i / div % mod) * stride of literals, the last leaf as (i / div) * stride (it takes the
// rest of the index, as in Layout::operator()), so a call is a short loop of known trip count:
//
//   (1,(4,2),(4,2)):(0,(1,64),(0,0))  ->  i/1 % 4 * 1 + i/4 % 2 * 64 + i/64 * 0   (step1 C rows)
//
// That is coord_layout.hpp's lowering at rank 1 (make_offset_layout), the one the kernels written
// in the vocabulary use; FlatLayout only returns the offset as an integer. Built from the Layout
// by a constexpr function (the layouts stay the single source of truth), equal to it for every
// integer index (tests/cuda/flat_layout_test.cu). Measured on 04 (nvcc 13): ~0.5 s less cicc
// time, and 20% fewer integer instructions in the 16-bit k-loops than with the same kernels
// evaluating Layouts.
struct FlatLayout {
  static constexpr int kMaxTerms = CoordLayout<1>::kMaxTerms;
  CoordLayout<1> offsets;
  TESSERA_HD constexpr int64_t operator()(int64_t i) const { return offsets(i)[0]; }
};

TESSERA_HD constexpr FlatLayout flat(Layout const& l) { return {make_offset_layout(l)}; }

// TileCoords lowered the same way, for device code.
struct FlatCoords {
  FlatLayout thr_row, thr_col, frg_row, frg_col;
};
TESSERA_HD constexpr FlatCoords flat(TileCoords const& c) {
  return {flat(c.thr_row), flat(c.thr_col), flat(c.frg_row), flat(c.frg_col)};
}

// The predicated epilogue shared by the ladder: C(m,n) = alpha * acc + beta * C(m,n) for each
// value of the thread's fragment whose coordinate is inside the matrix (identity-tensor
// predicate, elem_less((m,n), residue)), C(m,n) = c_tile[m * c_sm + n * c_sn]. With beta == 0
// C is not read (BLAS: it may hold NaN).
// `Info` gives the output type T, from_float and to_float (kernel 04); `crd` the fragment's
// TileCoords or (cheaper to compile) their FlatCoords.
//
// NOTE: a loop over groups of kGroup values, not unrolled: the body handles the group's values
// a[0..kGroup) with compile-time indices, then the values still to store move down by kGroup
// (register moves: a register array indexed at run time would go to local memory). Unrolled,
// 64-128 predicated read-modify-writes were the largest part of a kernel's cicc and ptxas time.
template <class Info, int kValues, class Coords>
__device__ __forceinline__ void store_c_strided(float const (&acc)[kValues], Coords const& crd,
                                                int64_t thr_m, int64_t thr_n, int64_t res_m,
                                                int64_t res_n, typename Info::T* c_tile,
                                                int64_t c_sm, int64_t c_sn, float alpha,
                                                float beta) {
  constexpr int kGroup = kValues % 16 == 0 ? 16 : kValues;
  float a[kValues];
#pragma unroll
  for (int v = 0; v < kValues; ++v) a[v] = acc[v];
#pragma unroll 1
  for (int v0 = 0; v0 < kValues; v0 += kGroup) {
#pragma unroll
    for (int i = 0; i < kGroup; ++i) {
      const int64_t m = thr_m + crd.frg_row(v0 + i), n = thr_n + crd.frg_col(v0 + i);
      if (m < res_m && n < res_n) {
        typename Info::T* p = c_tile + m * c_sm + n * c_sn;
        float r = alpha * a[i];
        if (beta != 0.0f) r += beta * Info::to_float(*p);
        *p = Info::from_float(r);
      }
    }
#pragma unroll
    for (int i = 0; i + kGroup < kValues; ++i) a[i] = a[i + kGroup];
  }
}

// C column-major: C(m,n) = c_tile[m + n * ldc].
template <class Info, int kValues, class Coords>
__device__ __forceinline__ void store_c_as(float const (&acc)[kValues], Coords const& crd,
                                           int64_t thr_m, int64_t thr_n, int64_t res_m,
                                           int64_t res_n, typename Info::T* c_tile, int64_t ldc,
                                           float alpha, float beta) {
  store_c_strided<Info>(acc, crd, thr_m, thr_n, res_m, res_n, c_tile, 1, ldc, alpha, beta);
}

template <int kValues, class Coords>
__device__ __forceinline__ void store_c(float const (&acc)[kValues], Coords const& crd,
                                        int64_t thr_m, int64_t thr_n, int64_t res_m, int64_t res_n,
                                        float* c_tile, int64_t ldc, float alpha, float beta) {
  store_c_as<F32Out>(acc, crd, thr_m, thr_n, res_m, res_n, c_tile, ldc, alpha, beta);
}

}  // namespace tessera::ladder
