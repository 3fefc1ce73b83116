// tessera/tma_partition.hpp -- a global matrix behind a TMA tensor map as a tensor of tile
// coordinates: local_tile picks a CTA's row of tiles, gA(_, _, k) is k-tile k's box origin, and
// copy(gA(_, _, k), sA(_, _, stage), bar) loads it into a stage (CuTe: get_tma_tensor,
// local_tile, tma_partition, copy(tma.with(bar), tAgA(_, k), tAsA(_, stage))).
//
//   const auto mA = make_tma_tensor<kA.tma>(&map_a, M, K);   // (M,K): the map, its extents
//   const auto gA = local_tile<kBM, kBK>(mA, tm);            // (kBM,kBK,k): row of tiles tm
//   auto [tAgA, tAsA] = tma_partition(gA, smem.a);           // the same tiles, checked
//   copy(tAgA(_, _, k), tAsA(_, _, stage), full, rank);      // box origin (tm * kBM, k * kBK)
//
// Coordinates only: TMA clips a box at the matrix's extents (out-of-bounds elements read as 0),
// so a residue tile needs no predicate.
#pragma once

#include <cstdint>
#include <type_traits>

#include "algebra.hpp"
#include "coord_layout.hpp"
#include "staged_smem.hpp"
#include "tma.hpp"

namespace tessera {

// The (rows, cols) matrix behind tensor map `map`, whose boxes are kT's.
template <TmaTile kT>
struct TmaTensor {
  void const* map;
  int64_t rows, cols;
};
// One box load: tile coordinate `origin` of the matrix behind `map` (gA(_, _, k)).
template <TmaTile kT>
struct TmaTileCoord {
  void const* map;
  Coord<2> origin;
};
// A row of (kRows, kCols) tiles of a TmaTensor: tile (row, k) for k = 0, 1, ...
template <TmaTile kT, int64_t kRows, int64_t kCols>
struct TmaTiles {
  void const* map;
  int64_t row0;  // the tile row's first matrix row
  static constexpr int64_t kTileRows = kRows, kTileCols = kCols;
  TESSERA_HD constexpr TmaTileCoord<kT> operator()(Underscore, Underscore, int64_t k) const {
    return {map, Coord<2>{{row0, k * kCols}}};
  }
};

template <TmaTile kT>
TESSERA_HD constexpr TmaTensor<kT> make_tma_tensor(void const* map, int64_t rows, int64_t cols) {
  return {map, rows, cols};
}
// Tile row `m` of (kRows, kCols) tiles of mA (CuTe: local_tile(mA, make_tile(kRows, kCols),
// make_coord(m, _))).
template <int64_t kRows, int64_t kCols, TmaTile kT>
TESSERA_HD constexpr TmaTiles<kT, kRows, kCols> local_tile(TmaTensor<kT> const& m, int64_t row) {
  return {m.map, row * kRows};
}

// The source and destination of a TMA copy: the global tiles and the stages they fill, checked
// to be the same tile (the map's boxes are the stage tile's; the tile's extents are the stage's).
template <class G, class S>
struct TmaPartition {
  G src;
  S& dst;
};
template <TmaTile kT, int64_t kRows, int64_t kCols, class T, StagedTile kS,
          template <class, StagedTile> class Stages>
TESSERA_HD constexpr auto tma_partition(TmaTiles<kT, kRows, kCols> const& g, Stages<T, kS>& s) {
  static_assert(
      std::is_same_v<TmaTileCoord<kT>, TmaTileCoord<kS.tma>>,
      "rule::tma_box_is_not_the_stage_tile: the tensor map's boxes are not the stage tile's");
  static_assert(kRows == kS.rows && kCols == kS.cols,
                "rule::tma_box_is_not_the_stage_tile: local_tile's tile is not the stage tile");
  return TmaPartition<TmaTiles<kT, kRows, kCols>, Stages<T, kS>>{g, s};
}

}  // namespace tessera

#if defined(__CUDACC__)
namespace tessera {

// Loads one box into a stage: this CTA's share (`loader` of kT.loaders, multicast to the
// cluster) completes on `bar`; the caller announced the stage's bytes (producer_acquire).
template <TmaTile kT, class T, StagedTile kS>
__device__ __forceinline__ void copy(TmaTileCoord<kT> const& src, StageTensor<T, kS> const& dst,
                                     uint64_t* bar, int loader = 0) {
  static_assert(
      std::is_same_v<TmaTileCoord<kT>, TmaTileCoord<kS.tma>>,
      "rule::tma_box_is_not_the_stage_tile: the tensor map's boxes are not the stage tile's");
  copy(TmaLoad<kT>{src.map}, src.origin, dst.ptr, bar, loader);
}

}  // namespace tessera
#endif
