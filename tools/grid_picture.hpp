// tools/grid_picture.hpp -- one picture as a grid of cells, the form CuTe's print_layout,
// print_latex and PyCuTe's draw_* share, and its SVG.
//
// A picture is rows x cols cells (row-major: cell (r, c) at r*cols + c), each either a value
// (a layout's offset, label "17") or a (thread, value) pair (a TV layout's or a partition's owner,
// label "T3" over "V1"); a cell nobody reaches is blank (-1). The colours are CuTe's print_latex
// colours: a value cell is one of 8 greys by value mod 8, a TV cell one of 8 pastels by thread
// mod 8, so the SVG and the LaTeX (latex.hpp) of one picture agree.
//
// Worked example: the TV layout (4,2):(2,1) on a 2 x 4 tile maps (t, v) to index 2t + v, i.e.
// to (row, col) = ((2t + v) mod 2, (2t + v) / 2): thread t owns column t, V0 on row 0, V1 on row 1.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include <tessera.hpp>

namespace tessera::tools {

struct GridPicture {
  std::string title;               // the layout's notation, or what the picture is
  std::string row_name = "m", col_name = "n";
  int64_t rows = 0, cols = 0;
  bool tv = false;                 // cells are (thread, value) pairs, else values
  std::vector<int64_t> value;      // per cell: the offset (or the value index of a TV cell)
  std::vector<int64_t> thread;     // per cell (TV pictures): the owning thread, -1 for none
  int64_t threads = 0;             // TV pictures: the number of threads
};

// A layout as CuTe prints it: a plain layout without the identity swizzle's "Sw<0,0,0> o 0 o".
std::string layout_notation(SwizzledLayout const& l);

// A layout's values, as CuTe's print_layout and print_latex draw them: mode 0 down, the rest
// across (rank 1 is one column; ranks above 2 fold the trailing modes colexicographically):
// cell (m, n) holds L(m + n*M).
GridPicture layout_picture(SwizzledLayout const& l);

// A TV layout (thread, value) -> index of a rows x cols tile (colexicographic: index i is the
// cell (i mod rows, i / rows)), as CuTe's print_latex_tv: a cell shows the first (t, v), threads
// in order and each thread's values in order, that reaches it. The layout must have rank 2 and
// every index inside the tile; else std::invalid_argument naming the rule and the layout.
GridPicture tv_picture(Layout const& tv, int64_t rows, int64_t cols);

// A partition's picture of the page data (render.hpp's grids: "owner", "value", "rows", ...).
GridPicture owner_picture(nlohmann::json const& grid, int64_t threads);

// CuTe's print_latex colours: greys for values, pastels ("r,g,b" in 0..255) for threads.
int tikz_grey(int64_t value);                 // the percentage of black: 0, 40, 20, 60, ...
std::string tv_rgb(int64_t thread);           // "175,175,255" for thread 0 (mod 8)

// The picture as one SVG document sized by its viewBox: the title on top, column ticks above the
// grid, row ticks left of it, the axis names, and a legend under it (what a cell shows and the
// colours); every text and rect lies inside the viewBox. Grids of more than `label_cells` cells
// are drawn without labels, the cells merged into one path per colour.
std::string picture_svg(GridPicture const& p, int64_t label_cells = 128 * 128);

}  // namespace tessera::tools
