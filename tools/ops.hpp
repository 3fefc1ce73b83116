// tools/ops.hpp -- the layout operations by name, shared by `tessera batch` and the human verbs.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace tessera::tools {

struct OpResult {
  std::string result;                          // notation or integer tuple
  std::optional<std::vector<int64_t>> image;   // values at flat indices 0..size-1, if a layout
  std::string layout;                          // the result as a plain layout, for tables ("" if none)
};

// The op names of the oracle format: size, cosize, rank, depth, crd2idx, idx2crd, coalesce, filter,
// composition, complement, right_inverse, left_inverse, {logical,zipped,tiled,flat}_{divide,product},
// blocked_product, raked_product, swizzle, swizzle_layout; and nullspace, upcast, downcast,
// recast_layout, max_common_layout, max_common_vector, make_ordered_layout, make_layout_like,
// compact_col_major, compact_row_major, tile_to_shape, layout_add (include/tessera/layout_ops.hpp).
std::vector<std::string> const& op_names();

// Runs one op on oracle-style arguments (strings, integers, or lists of tiler entries).
// Throws tessera::Error (rejected op or malformed input) or std::invalid_argument (bad arguments).
OpResult run_op(std::string const& op, nlohmann::json const& args);

}  // namespace tessera::tools
