// tessera/tile_scheduler.hpp -- which C tile a CTA (or a cluster) computes, and in what order
// (CUTLASS's tile schedulers): the grouped order of a grid of tiles, and the persistent walk of a
// grid of one CTA per slot of the GPU over it. Stream-K and split-K (work below whole tiles):
// stream_k.hpp. Host and device, no CUDA.
//
//   PersistentTileScheduler sched(GroupedOrder(tiles_m, tiles_n, 8), gridDim.x);
//   for (int32_t b = sched.first(blockIdx.x); sched.valid(b); b = sched.next(b)) {
//     const auto [tm, tn] = sched.tile(b);      // grouped (L2-friendly) order
//     ...
//   }
#pragma once

#include <cstdint>

#include "config.hpp"

namespace tessera {

// n / d for 0 <= n < 2^31 by a multiply-high, an add and a shift (Granlund and
// Montgomery's round-up method): with l = ceil(log2 d) and mul = floor(2^32 (2^l - d) / d) + 1,
// n / d = (mulhi(n, mul) + n) >> l (mulhi <= n, so the sum stays below 2^32). The host finds mul
// once per divisor; on the GPU a 32-bit division is a subroutine of ~25 dependent instructions
// (a persistent kernel divides before its first load). E.g. d = 3: l = 2,
// mul = 1431655766; n = 7: mulhi = 2, (2 + 7) >> 2 = 2.
struct FastDiv {
  uint32_t d = 1, mul = 1, shift = 0;
  constexpr FastDiv() = default;
  TESSERA_HD constexpr explicit FastDiv(uint32_t divisor) : d(divisor) {
    while ((uint64_t(1) << shift) < d) ++shift;
    mul = uint32_t((uint64_t(1) << 32) * ((uint64_t(1) << shift) - d) / d + 1);
  }
  TESSERA_HD constexpr uint32_t div(uint32_t n) const {
    return (uint32_t((uint64_t(n) * mul) >> 32) + n) >> shift;
  }
};

// n / d by the division instruction sequence (a kernel that finds its tile once per CTA).
struct PlainDiv {
  uint32_t d = 1;
  constexpr PlainDiv() = default;
  TESSERA_HD constexpr explicit PlainDiv(uint32_t divisor) : d(divisor) {}
  TESSERA_HD constexpr uint32_t div(uint32_t n) const { return n / d; }
};

// The grouped (L2-friendly) order of a tiles_m x tiles_n grid of tiles: tile b is in group
// b / (group_m tiles_n) of group_m tile-rows (the last group may have fewer), walked column by
// column inside its group, so that tiles computed at the same time share rows of A and columns of
// B in L2. Div divides: FastDiv (divisors the host makes once per problem) or PlainDiv (a
// division per call, where the tile is found once per CTA).
//   tiles_m = 5, tiles_n = 3, group_m = 2: tiles 0-5 are rows 0-1 (0 -> (0,0), 1 -> (1,0), 2 ->
//   (0,1),
//   ...), 6-11 rows 2-3, 12-14 row 4 (12 -> (4,0), 13 -> (4,1), 14 -> (4,2)).
template <class Div>
struct GroupedOrderOf {
  uint32_t tiles_m = 1;
  Div group, rows, last_rows;  // by group_m tiles_n; by group_m (rows.d); by the last group's rows
  constexpr GroupedOrderOf() = default;
  TESSERA_HD constexpr GroupedOrderOf(int64_t tiles_m_, int64_t tiles_n, int64_t group_m)
      : tiles_m(uint32_t(tiles_m_)),
        group(uint32_t(min64(group_m, tiles_m_) * tiles_n)),
        rows(uint32_t(min64(group_m, tiles_m_))),
        last_rows(tiles_m % rows.d == 0 ? rows.d : tiles_m % rows.d) {}
  struct Tile {
    int32_t m, n;
  };
  // Tile b's (row, column).
  TESSERA_HD constexpr Tile tile(int32_t b) const {
    const uint32_t u = uint32_t(b), g = group.div(u), in_group = u - g * group.d,
                   first_m = g * rows.d;
    Div const& r = tiles_m - first_m < rows.d ? last_rows : rows;
    const uint32_t col = r.div(in_group);
    return {int32_t(first_m + in_group - col * r.d), int32_t(col)};
  }
};
using GroupedOrder = GroupedOrderOf<FastDiv>;

// The persistent walk: `workers` CTAs (or clusters), worker w takes tiles w, w + workers, ...
// of `order` (a GroupedOrderOf), in that order.
template <class Order>
struct PersistentTileSchedulerOf {
  Order order;
  int32_t workers = 1;
  int32_t tiles = 0;  // tiles_m x tiles_n
  constexpr PersistentTileSchedulerOf() = default;
  TESSERA_HD constexpr PersistentTileSchedulerOf(Order const& o, int64_t tiles_m, int64_t tiles_n,
                                                 int64_t w)
      : order(o), workers(int32_t(w)), tiles(int32_t(tiles_m * tiles_n)) {}
  TESSERA_HD constexpr int32_t first(int64_t worker) const { return int32_t(worker); }
  TESSERA_HD constexpr int32_t next(int32_t b) const { return b + workers; }
  TESSERA_HD constexpr bool valid(int32_t b) const { return b < tiles; }
  TESSERA_HD constexpr auto tile(int32_t b) const { return order.tile(b); }
};
using PersistentTileScheduler = PersistentTileSchedulerOf<GroupedOrder>;
// A scheduler over a tiles_m x tiles_n grid in grouped order (group_m tile-rows per group).
TESSERA_HD constexpr PersistentTileScheduler make_persistent_scheduler(int64_t tiles_m,
                                                                       int64_t tiles_n,
                                                                       int64_t group_m,
                                                                       int64_t workers) {
  return {GroupedOrder(tiles_m, tiles_n, group_m), tiles_m, tiles_n, workers};
}

}  // namespace tessera
