// kernels/gemm/grouped_order.hpp -- the order in which the GEMM kernels walk their C tiles
// (tessera/tile_scheduler.hpp: FastDiv, PlainDiv, GroupedOrder), and the tile of a CTA of 03 and
// 04.
#pragma once

#include <cstdint>
#include <tessera/tile_scheduler.hpp>

namespace tessera::ladder {

using tessera::FastDiv;
using tessera::GroupedOrder;
using tessera::GroupedOrderOf;
using tessera::PlainDiv;

// The tile of CTA `bid` in the grouped order (kernels 03 and 04), as 64-bit coordinates.
struct TileIndex {
  int64_t m, n;
};
TESSERA_HD constexpr TileIndex grouped_tile(int64_t bid, int64_t tiles_m, int64_t tiles_n,
                                            int64_t group_m) {
  const auto t = GroupedOrderOf<PlainDiv>(tiles_m, tiles_n, group_m).tile(int32_t(bid));
  return {t.m, t.n};
}

}  // namespace tessera::ladder
