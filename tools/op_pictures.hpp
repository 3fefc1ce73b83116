// tools/op_pictures.hpp -- an algebra op drawn as a lesson: its inputs and its result side by
// side, every cell tagged with the tile it belongs to, computed here (the page and the SVG only
// draw what this says).
//
// The tile of a cell, per op:
//   divides (logical, zipped, tiled, flat): tile k is the k-th tile of A, numbered as the rest
//     mode of zipped_divide(A, T) numbers it; A's cell and the result's cell of one element of A
//     carry the same tile. logical_divide((8,16):(16,1), (2,4)) has 16 tiles of 2 x 4.
//   products (logical, zipped, tiled, flat, blocked, raked): copy k of A is the one B's element k
//     (B's column-major index) places; B's cell k and the result's cells of copy k carry k.
//   composition A o B: the element of A a cell reaches (A's column-major index).
//   complement: copy k of A sits at offset R(k) of the complement R; the codomain's offsets carry
//     the copy that reaches them.
//   swizzle Sw<B,M,S>: the row-major (2^B, 2^(M+|S|)) block before and after the swizzle, each
//     cell tagged by its offset's ZZZ bits (the bits the YYY bits are XORed into): before, the
//     tags run in stripes; after, each row's stripes are permuted by the XOR.
// Other ops draw their layout inputs and result untagged (-1).
#pragma once

#include <nlohmann/json.hpp>
#include <string>

#include "ops.hpp"

namespace tessera::tools {

// {"pictures": [{"title", "role" ("input" | "result"), "rows", "cols", "values", "tile"}],
//  "tiles": the number of tiles, "tile_kind": what a tile is ("tile", "copy", ...)}.
// A picture's cells are row-major: cell (r, c) is the layout's colexicographic index r + c*rows
// (mode 0 down, the rest across, as layout_page_data folds a layout); "tile" is -1 for none.
nlohmann::json op_pictures(std::string const& op, nlohmann::json const& args, OpResult const& r);

// The pictures of op_pictures as one SVG document: inputs in a row, results below; per picture a
// <g class="picture" data-role data-title>, in it one <g class="tile" data-tile="k"> per tile
// (its <rect class="cell" data-value data-row data-col> cells), untagged cells in
// <g class="untiled">, and the tile boundaries as one <path class="boundary">.
std::string op_svg(std::string const& call, nlohmann::json const& pictures);

// The colour of tile k, as the page draws it ("rgb(r,g,b)").
std::string tile_color(int64_t k);

}  // namespace tessera::tools
