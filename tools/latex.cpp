// Pictures as LaTeX/TikZ documents, as CuTe's print_latex writes them (latex.hpp).
#include "latex.hpp"

#include <cstdio>


namespace tessera::tools {
namespace {
namespace latex {  // a name of its own: the tools are one translation unit (a unity build)

using nlohmann::json;

std::string header(std::string const& comments) {
  return comments +
         "\\documentclass[convert]{standalone}\n"
         "\\usepackage{tikz}\n\n"
         "\\begin{document}\n"
         "\\begin{tikzpicture}[x={(0cm,-1cm)},y={(1cm,0cm)},"
         "every node/.style={minimum size=1cm, outer sep=0pt}]\n\n";
}

constexpr const char* kFooter = "\\end{tikzpicture}\n\\end{document}\n";

std::string node(std::string const& fill, int64_t x, int64_t y, std::string const& text) {
  char buf[96];
  std::snprintf(buf, sizeof buf, "\\node[fill=%s] at (%lld,%lld) {", fill.c_str(),
                (long long)x, (long long)y);
  return buf + text + "};\n";
}

std::string label(int64_t x, int64_t y, int64_t k) {
  char buf[96];
  std::snprintf(buf, sizeof buf, "\\node at (%lld,%lld) {\\Large{\\texttt{%lld}}};\n",
                (long long)x, (long long)y, (long long)k);
  return buf;
}

// The grid lines around the cells from (x0, y0) to (x1, y1) (exclusive ends, in cells).
std::string grid(int64_t x0, int64_t y0, int64_t x1, int64_t y1) {
  char buf[128];
  std::snprintf(buf, sizeof buf,
                "\\draw[color=black,thick,shift={(-0.5,-0.5)}] (%lld,%lld) grid (%lld,%lld);\n\n",
                (long long)x0, (long long)y0, (long long)x1, (long long)y1);
  return buf;
}

// "175,175,255" as TikZ's "red,175;green,175;blue,255".
std::string rgb_names(std::string const& rgb) {
  const size_t a = rgb.find(','), b = rgb.rfind(',');
  return "red," + rgb.substr(0, a) + ";green," + rgb.substr(a + 1, b - a - 1) + ";blue," +
         rgb.substr(b + 1);
}

// The cells of a picture, cell (r, c) at (x0 + r, y0 + c), or at (x0 + c, y0 + r) transposed
// (B of a TiledMMA: its rows are N, drawn across). Blank cells are left out, as CuTe does.
std::string cells(GridPicture const& p, int64_t x0, int64_t y0, bool transposed) {
  std::string out;
  for (int64_t r = 0; r < p.rows; ++r)
    for (int64_t c = 0; c < p.cols; ++c) {
      const int64_t cell = r * p.cols + c;
      const int64_t x = x0 + (transposed ? c : r), y = y0 + (transposed ? r : c);
      if (!p.tv) {
        char grey[16];
        std::snprintf(grey, sizeof grey, "black!%02d", tikz_grey(p.value[cell]));
        out += node(grey, x, y,
                    std::to_string(p.value[cell]));
      } else if (p.thread[cell] >= 0) {
        out += node("{rgb,255:" + rgb_names(tv_rgb(p.thread[cell])) + "}", x, y,
                    "\\shortstack{T" + std::to_string(p.thread[cell]) + " \\\\ V" +
                        std::to_string(p.value[cell]) + "}");
      }
    }
  return out;
}

// The row numbers at column `y` (rows x0 ..) and the column numbers at row `x` (columns y0 ..).
std::string labels(int64_t rows, int64_t x0, int64_t y, int64_t cols, int64_t x, int64_t y0) {
  std::string out;
  for (int64_t m = 0; m < rows; ++m) out += label(x0 + m, y, m);
  for (int64_t n = 0; n < cols; ++n) out += label(x, y0 + n, n);
  return out;
}

}  // namespace latex
}  // namespace

std::string picture_latex(GridPicture const& p) {
  using namespace latex;
  std::string out = header((p.tv ? "% Layout TV: " : "% Layout: ") + p.title + "\n");
  out += cells(p, 0, 0, false);
  out += grid(0, 0, p.rows, p.cols);
  out += labels(p.rows, 0, -1, p.cols, -1, 0);
  return out + kFooter;
}

std::string mma_latex(json const& data) {
  using namespace latex;
  const int64_t threads = data["threads"].get<int64_t>();
  const GridPicture c = owner_picture(data["operands"][0], threads),
                    a = owner_picture(data["operands"][1], threads),
                    b = owner_picture(data["operands"][2], threads);
  const int64_t M = data["tile"][0], N = data["tile"][1], K = data["tile"][2];
  std::string out = header("% " + data["name"].get<std::string>() + "\n% LayoutC: " + c.title +
                           "\n% LayoutA: " + a.title + "\n% LayoutB: " + b.title + "\n");
  out += cells(c, 0, 0, false) + grid(0, 0, M, N);
  out += cells(a, 0, -K - 1, false) + grid(0, -K - 1, M, -1);
  out += labels(M, 0, -K - 2, K, -1, -K - 1);
  out += cells(b, -K - 1, 0, true) + grid(-K - 1, 0, -1, N);
  out += labels(K, -K - 1, -1, N, -K - 2, 0);
  return out + kFooter;
}

std::string copy_latex(nlohmann::json const& d) {
  using namespace latex;
  const int64_t threads = d["threads"].get<int64_t>();
  const GridPicture s = owner_picture(d["operands"][0], threads),
                    t = owner_picture(d["operands"][1], threads);
  const int64_t M = s.rows, N = s.cols;
  std::string out = header("% Layout S TV: " + s.title + "\n% Layout D TV: " + t.title + "\n");
  out += cells(s, 0, 0, false) + grid(0, 0, M, N) + labels(M, 0, -1, N, -1, 0);
  out += cells(t, 0, N + 3, false) + grid(0, N + 3, M, 2 * N + 3);
  out += labels(M, 0, 2 * N + 3, N, -1, N + 3);
  return out + kFooter;
}

}  // namespace tessera::tools
