// One picture as a grid of cells, and its SVG (grid_picture.hpp).
#include "grid_picture.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <stdexcept>

namespace tessera::tools {
namespace {
namespace gridpic {  // a name of its own: the tools are one translation unit (a unity build)

// CuTe's print_latex colours (TikzColor_BWx8 and TikzColor_TV).
constexpr int kGreys[8] = {0, 40, 20, 60, 10, 50, 30, 70};
constexpr int kPastels[8][3] = {{175, 175, 255}, {175, 255, 175}, {255, 255, 175}, {255, 175, 175},
                                {210, 210, 255}, {210, 255, 210}, {255, 255, 210}, {255, 210, 210}};

std::string xml(std::string const& s) {
  std::string out;
  for (char c : s) {
    if (c == '<') out += "&lt;";
    else if (c == '>') out += "&gt;";
    else if (c == '&') out += "&amp;";
    else if (c == '"') out += "&quot;";
    else out += c;
  }
  return out;
}

std::string num(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%g", v);
  return buf;
}

// The fill of a cell, its colour class (0..7, -1 blank) and whether its text should be white.
int colour_class(GridPicture const& p, int64_t cell) {
  if (p.tv) return p.thread[cell] < 0 ? -1 : int(p.thread[cell] % 8);
  return int(((p.value[cell] % 8) + 8) % 8);
}
std::string fill_of(GridPicture const& p, int k) {
  int r = 255, g = 255, b = 255;
  if (k >= 0 && p.tv) {
    r = kPastels[k][0], g = kPastels[k][1], b = kPastels[k][2];
  } else if (k >= 0) {
    r = g = b = 255 - kGreys[k] * 255 / 100;
  }
  char hex[8];
  std::snprintf(hex, sizeof hex, "#%02x%02x%02x", r, g, b);
  return hex;
}

// The width of a monospace text at a font size (0.6 em per character).
double text_width(std::string const& s, double font) { return 0.6 * font * double(s.size()); }

// The cells as <rect>s with their labels (small grids).
void labelled_cells(std::string& out, GridPicture const& p, double x0, double y0, double s) {
  out += "<g class=\"cells\" text-anchor=\"middle\">";
  for (int64_t r = 0; r < p.rows; ++r)
    for (int64_t c = 0; c < p.cols; ++c) {
      const int64_t cell = r * p.cols + c;
      const int k = colour_class(p, cell);
      const double x = x0 + double(c) * s, y = y0 + double(r) * s;
      out += "<rect x=\"" + num(x) + "\" y=\"" + num(y) + "\" width=\"" + num(s) +
             "\" height=\"" + num(s) + "\" fill=\"" + fill_of(p, k) + "\"/>";
      if (k < 0) continue;
      const std::string white = !p.tv && kGreys[k] >= 50 ? " fill=\"#fff\"" : "";
      auto text = [&](std::string const& t, double dy) {
        out += "<text x=\"" + num(x + s / 2) + "\" y=\"" + num(y + dy) + "\"" + white + ">" + t +
               "</text>";
      };
      if (p.tv) {
        text("T" + std::to_string(p.thread[cell]), s / 2 - 1);
        text("V" + std::to_string(p.value[cell]), s / 2 + 9);
      } else {
        text(std::to_string(p.value[cell]), s / 2 + 3);
      }
    }
  out += "</g>";
  std::string d;  // the grid lines: one path
  for (int64_t r = 1; r < p.rows; ++r)
    d += "M" + num(x0) + " " + num(y0 + double(r) * s) + "h" + num(double(p.cols) * s);
  for (int64_t c = 1; c < p.cols; ++c)
    d += "M" + num(x0 + double(c) * s) + " " + num(y0) + "v" + num(double(p.rows) * s);
  if (!d.empty())
    out += "<path class=\"grid\" fill=\"none\" stroke=\"#444\" stroke-width=\"0.5\" d=\"" + d +
           "\"/>";
}

// The cells as one path per colour, horizontal runs of one colour merged (large grids).
void merged_cells(std::string& out, GridPicture const& p, double x0, double y0, double s) {
  std::vector<std::string> paths(8);
  for (int64_t r = 0; r < p.rows; ++r)
    for (int64_t c = 0; c < p.cols;) {
      const int k = colour_class(p, r * p.cols + c);
      int64_t e = c + 1;
      while (e < p.cols && colour_class(p, r * p.cols + e) == k) ++e;
      if (k >= 0)
        paths[k] += "M" + num(x0 + double(c) * s) + " " + num(y0 + double(r) * s) + "h" +
                    num(double(e - c) * s) + "v" + num(s) + "h" + num(-double(e - c) * s) + "z";
      c = e;
    }
  out += "<g class=\"cells\">";
  for (int k = 0; k < 8; ++k)
    if (!paths[k].empty()) out += "<path fill=\"" + fill_of(p, k) + "\" d=\"" + paths[k] + "\"/>";
  out += "</g>";
}

// One tick every `step` cells, step a power of two keeping labels of `label_px` apart.
int64_t tick_step(double s, double label_px) {
  int64_t step = 1;
  while (double(step) * s < label_px) step *= 2;
  return step;
}

// The legend under the grid: the axes, what a cell shows, the colours (8 swatches).
double legend(std::string& out, GridPicture const& p, double x0, double y) {
  const std::string axes = "rows: " + p.row_name + " (down), columns: " + p.col_name + " (across)";
  const std::string cells =
      p.tv ? "cell: T<thread> V<value>, the first (thread, value) that reaches it"
           : "cell: the offset at (row, column); shade: offset mod 8";
  out += "<g class=\"legend\" font-size=\"11\"><text x=\"" + num(x0) + "\" y=\"" + num(y) +
         "\">" + xml(axes) + "</text><text x=\"" + num(x0) + "\" y=\"" + num(y + 16) + "\">" +
         xml(cells) + "</text>";
  double w = std::max(text_width(axes, 11), text_width(cells, 11));
  const std::string key = p.tv ? "thread mod 8:" : "offset mod 8:";
  out += "<text x=\"" + num(x0) + "\" y=\"" + num(y + 36) + "\">" + key + "</text>";
  double x = x0 + text_width(key, 11) + 6;
  for (int k = 0; k < 8; ++k, x += 34) {
    out += "<rect x=\"" + num(x) + "\" y=\"" + num(y + 25) +
           "\" width=\"14\" height=\"14\" fill=\"" +
           fill_of(p, k) + "\" stroke=\"#444\" stroke-width=\"0.5\"/><text x=\"" + num(x + 17) +
           "\" y=\"" + num(y + 36) + "\">" + std::to_string(k) + "</text>";
  }
  out += "</g>";
  return std::max(w, x - x0);
}

}  // namespace gridpic
}  // namespace

int tikz_grey(int64_t value) { return gridpic::kGreys[((value % 8) + 8) % 8]; }

std::string tv_rgb(int64_t thread) {
  auto const& c = gridpic::kPastels[((thread % 8) + 8) % 8];
  return std::to_string(c[0]) + "," + std::to_string(c[1]) + "," + std::to_string(c[2]);
}

std::string layout_notation(SwizzledLayout const& l) {
  return l.swizzle == Swizzle() && l.offset == 0 ? to_string(l.layout) : to_string(l);
}

GridPicture layout_picture(SwizzledLayout const& l) {
  GridPicture p;
  p.title = layout_notation(l);
  p.rows = l.layout[0].size();
  p.cols = l.size() / std::max<int64_t>(1, p.rows);
  p.row_name = "mode 0", p.col_name = l.rank() > 2 ? "modes 1.." : "mode 1";
  p.value.resize(size_t(p.rows * p.cols));
  for (int64_t m = 0; m < p.rows; ++m)
    for (int64_t n = 0; n < p.cols; ++n) p.value[size_t(m * p.cols + n)] = l(m + n * p.rows);
  return p;
}

GridPicture tv_picture(Layout const& tv, int64_t rows, int64_t cols) {
  if (tv.rank() != 2)
    throw std::invalid_argument("a TV layout has rank 2, (thread, value) -> index; " +
                                to_string(tv) + " has rank " + std::to_string(tv.rank()));
  if (rows <= 0 || cols <= 0)
    throw std::invalid_argument("a TV layout's tile needs positive extents, got " +
                                std::to_string(rows) + "x" + std::to_string(cols));
  GridPicture p;
  p.tv = true;
  p.title = "TV layout " + to_string(tv) + " on " + std::to_string(rows) + "x" +
            std::to_string(cols);
  p.rows = rows, p.cols = cols, p.threads = tv[0].size();
  p.value.assign(size_t(rows * cols), -1);
  p.thread.assign(size_t(rows * cols), -1);
  const int64_t values = tv[1].size();
  for (int64_t t = 0; t < p.threads; ++t)
    for (int64_t v = 0; v < values; ++v) {
      const int64_t i = tv(t + v * p.threads);
      if (i < 0 || i >= rows * cols)
        throw std::invalid_argument("TV layout " + to_string(tv) + ": (thread " +
                                    std::to_string(t) + ", value " + std::to_string(v) +
                                    ") -> index " + std::to_string(i) + ", outside the " +
                                    std::to_string(rows) + "x" + std::to_string(cols) + " tile");
      const int64_t cell = (i % rows) * cols + i / rows;
      if (p.thread[cell] < 0) p.thread[cell] = t, p.value[cell] = v;
    }
  return p;
}

GridPicture owner_picture(nlohmann::json const& g, int64_t threads) {
  GridPicture p;
  p.tv = true;
  p.title = g["title"].get<std::string>();
  p.row_name = g["row_name"].get<std::string>(), p.col_name = g["col_name"].get<std::string>();
  p.rows = g["rows"].get<int64_t>(), p.cols = g["cols"].get<int64_t>();
  p.thread = g["owner"].get<std::vector<int64_t>>();
  p.value = g["value"].get<std::vector<int64_t>>();
  p.threads = threads;
  return p;
}

std::string picture_svg(GridPicture const& p, int64_t label_cells) {
  using namespace gridpic;
  const bool labels = p.rows * p.cols <= label_cells;
  int64_t widest = 0;  // the widest value label, in characters
  for (int64_t v : p.value) widest = std::max<int64_t>(widest, int64_t(std::to_string(v).size()));
  double s = p.tv ? 30 : std::max(26.0, double(widest) * 5.4 + 8);
  if (!labels) s = std::clamp(1600.0 / double(std::max(p.rows, p.cols)), 3.0, 12.0);
  const double tick_w = text_width(std::to_string(std::max<int64_t>(0, p.rows - 1)), 11);
  const double left = 12 + tick_w + 6, top = 46, w = double(p.cols) * s, h = double(p.rows) * s;
  std::string body = "<text class=\"title\" x=\"12\" y=\"20\" font-size=\"14\">" +
                     xml(p.title) + "</text>";
  body += "<g class=\"ticks\" font-size=\"11\">";
  const int64_t rstep = tick_step(s, 14);
  for (int64_t r = 0; r < p.rows; r += rstep)
    body += "<text x=\"" + num(left - 5) + "\" y=\"" + num(top + double(r) * s + s / 2 + 4) +
            "\" text-anchor=\"end\">" + std::to_string(r) + "</text>";
  const double col_label = text_width(std::to_string(std::max<int64_t>(0, p.cols - 1)), 11) + 6;
  const int64_t cstep = tick_step(s, col_label);
  for (int64_t c = 0; c < p.cols; c += cstep)
    body += "<text x=\"" + num(left + double(c) * s + s / 2) + "\" y=\"" + num(top - 6) +
            "\" text-anchor=\"middle\">" + std::to_string(c) + "</text>";
  body += "</g><g font-size=\"9\">";
  if (labels)
    labelled_cells(body, p, left, top, s);
  else
    merged_cells(body, p, left, top, s);
  body += "</g><rect class=\"frame\" x=\"" + num(left) + "\" y=\"" + num(top) + "\" width=\"" +
          num(w) + "\" height=\"" + num(h) + "\" fill=\"none\" stroke=\"#222\"/>";
  const double legend_w = legend(body, p, 12, top + h + 22);
  const double width = std::ceil(std::max({left + w + 12, 24 + text_width(p.title, 14),
                                           24 + legend_w}));
  const double height = std::ceil(top + h + 22 + 36 + 12);
  return "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 " + num(width) + " " +
         num(height) + "\" width=\"" + num(width) + "\" height=\"" + num(height) +
         "\" font-family=\"monospace\"><rect class=\"background\" width=\"" + num(width) +
         "\" height=\"" + num(height) + "\" fill=\"#fff\"/>" + body + "</svg>\n";
}

}  // namespace tessera::tools
