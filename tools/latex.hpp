// tools/latex.hpp -- pictures as LaTeX/TikZ documents, as CuTe's print_latex writes them.
//
// Each is a standalone document (\documentclass[convert]{standalone} with tikz) that pdflatex
// compiles alone, in CuTe's coordinates: a tikzpicture with x = (0cm,-1cm) and y = (1cm,0cm),
// so node (m, n) is row m (down) and column n (across), one 1 cm node per cell, a grid drawn over
// the nodes and the row and column numbers at column -1 and row -1. The colours are CuTe's
// (grid_picture.hpp): a layout's cell is grey by offset mod 8 and shows the offset; a TV cell is
// one of 8 pastels by thread mod 8 and shows \shortstack{T<t> \\ V<v>}.
//
// A TiledMMA is drawn as CuTe draws it: C (M x N) at (0, 0), A (M x K) left of it at columns
// -K-1 .. -2, B (K down, N across) above it at rows -K-1 .. -2. A TiledCopy: S at (0, 0), D to
// its right at columns N+3 ...
#pragma once

#include <nlohmann/json.hpp>
#include <string>

#include "grid_picture.hpp"

namespace tessera::tools {

// A layout (print_latex(layout)) or a TV layout on a tile (print_latex_tv), from its picture.
std::string picture_latex(GridPicture const& p);

// A TiledMMA's C, A and B (print_latex(tiled_mma)) over its CTA tile, from its page data
// (mma_page_data: "operands" C, A, B, "tile", "threads", "name").
std::string mma_latex(nlohmann::json const& mma_data);

// A TiledCopy's source and destination (print_latex(tiled_copy)), from its page data
// (copy_page_data: "operands" S and D, "threads").
std::string copy_latex(nlohmann::json const& copy_data);

}  // namespace tessera::tools
