// tools/ops.hpp -- the layout operations by name, shared by `tessera batch` and the human verbs.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>
#include <tessera.hpp>

namespace tessera::tools {

struct OpResult {
  std::string result;                          // notation or integer tuple
  std::optional<std::vector<int64_t>> image;   // values at flat indices 0..size-1, if a layout
  std::string layout;                          // the result as a (swizzled) layout, for tables ("" if none)
  std::string note;                            // where CuTe defines a result past the usual domain ("" if none)
  std::string cute;                            // the result as CuTe prints it: static _4, run-time 4
};

// The op names of the oracle format: size, cosize, rank, depth, crd2idx, idx2crd, coalesce, filter,
// composition, complement, right_inverse, left_inverse, {logical,zipped,tiled,flat}_{divide,product},
// blocked_product, raked_product, swizzle, swizzle_layout; and nullspace, upcast, downcast,
// recast_layout, max_common_layout, max_common_vector, make_ordered_layout, make_layout_like,
// compact_col_major, compact_row_major, tile_to_shape, layout_add (include/tessera/layout_ops.hpp).
std::vector<std::string> const& op_names();

// Runs one op on oracle-style arguments (strings, integers, or lists of tiler entries).
// Throws tessera::Error (rejected op or malformed input) or std::invalid_argument (bad arguments).
// `runtime`: bare integers of the arguments are run-time ones (CuTe's int), as the CLI's --runtime;
// a leaf written _4 is static either way (tessera/notation.hpp).
OpResult run_op(std::string const& op, nlohmann::json const& args, bool runtime = false);

// A layout where the CLI expects one: CuTe notation "(4,3):(1,8)", or a bare shape "(4,3)" / "4"
// meaning its compact column-major layout (4,3):(1,4).
Layout layout_arg(std::string const& text, bool runtime = false);
// The same, or a swizzled layout "Sw<3,4,3> o 0 o (8,64):(64,1)".
SwizzledLayout any_layout_arg(std::string const& text);
bool is_swizzled(std::string const& text);

}  // namespace tessera::tools
