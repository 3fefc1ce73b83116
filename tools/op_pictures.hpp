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
#include <vector>

#include "ops.hpp"

namespace tessera::tools {

// {"pictures": [{"title", "role" ("input" | "result"), "rows", "cols", "values", "tile",
//                "element"}],
//  "tiles": the number of tiles, "tile_kind": what a tile is ("tile", "copy", ...)}.
// A picture's cells are row-major: cell (r, c) is the layout's colexicographic index r + c*rows
// (mode 0 down, the rest across, as layout_page_data folds a layout); "tile" is -1 for none.
// "element" names the element of the op's first input A a cell shows (A's colexicographic
// index; -1 none): A's cell x is x; a divide's result cell j is Rd(j) (above); a product's
// result cell holds A's element a of its copy; composition's cells the element they reach. The
// page links the cells of one element across the pictures (hover one, all are marked).
nlohmann::json op_pictures(std::string const& op, nlohmann::json const& args, OpResult const& r);

// The tile tiler T assigns each element of a layout of `shape` (per colexicographic index x:
// the column of zipped_divide(D, T) holding x, D the compact column-major layout of `shape`,
// as the divides number their tiles; -1 for none), and the number of tiles.
// (8,16) by (2,4): element (r, c) lies in tile r/2 + 4 (c/4), 16 tiles.
struct ElementTiles {
  std::vector<int64_t> tile;
  int64_t tiles = 0;
};
ElementTiles element_tiles(IntTuple const& shape, Tiler const& t);

// The 4-byte shared-memory bank of the element at `offset` of `elem_bits` bits:
// floor(offset * elem_bits / 32) mod 32 (16-bit elements: offset 70 is word 35, bank 3).
int64_t smem_bank(int64_t offset, int64_t elem_bits);

// The pictures of op_pictures (`data`: "pictures", "tiles", "tile_kind", "elem_bits") as one SVG
// document: the call on top, inputs in a row, results below, a legend under them (the axes,
// what the colours say with swatches, the lines); per picture a <g class="picture" data-role
// data-title>: its title, <g class="ticks"> (column indices above the cells, row indices left),
// one <g class="tile" data-tile="k"> per tile (its <rect class="cell" data-value data-row
// data-col> cells), untagged cells in <g class="untiled">, the tile boundaries as one
// <path class="boundary">, and the values as labels where they fit. `colour`: "tile" (each
// tile's colour; untagged cells by value), "value" (the value gradient) or "bank" (smem_bank of
// the value at data's "elem_bits", default 16). Every text and rect lies inside the viewBox.
// `data` may also be the pictures alone (a list): their tiles are then named "tile".
std::string op_svg(std::string const& call, nlohmann::json const& data,
                   std::string const& colour = "tile");

// The colour of tile k, as the page draws it ("rgb(r,g,b)"); of bank k, as the page's idColor.
std::string tile_color(int64_t k);
std::string bank_color(int64_t k);

}  // namespace tessera::tools
