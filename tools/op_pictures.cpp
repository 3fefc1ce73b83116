// The pictures of an algebra op (op_pictures.hpp): which cell belongs to which tile, per op.
#include "op_pictures.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <functional>
#include <map>
#include <set>
#include <stdexcept>

namespace tessera::tools {
namespace {
namespace oppic {  // a name of its own: the tools are one translation unit (a unity build)

using nlohmann::json;
using Fn = std::function<int64_t(int64_t)>;

constexpr int64_t kMaxPictureCells = 1 << 17;  // as the page's other pictures

// A layout's picture: cell (r, c) is the colexicographic index i = r + c*rows of `shape_of`
// (mode 0 down, the rest across); its value value(i), its tile tile(i) and the element it
// shows element(i) (op_pictures.hpp: hover links the cells of one element; -1 none).
json grid(std::string const& title, const char* role, Layout const& shape_of, Fn const& value,
          Fn const& tile, Fn const& element = nullptr) {
  int64_t rows = shape_of.rank() >= 2 ? shape_of[0].size() : 1;
  int64_t cols = shape_of.size() / std::max<int64_t>(1, rows);
  if (rows * cols > kMaxPictureCells)
    throw std::invalid_argument("render: " + title + " has " + std::to_string(rows * cols) +
                                " cells; pictures are limited to " +
                                std::to_string(kMaxPictureCells));
  std::vector<int64_t> values(rows * cols), tiles(rows * cols), elements(rows * cols, -1);
  for (int64_t r = 0; r < rows; ++r)
    for (int64_t c = 0; c < cols; ++c) {
      int64_t i = r + c * rows;
      values[r * cols + c] = value(i);
      tiles[r * cols + c] = tile(i);
      if (element) elements[r * cols + c] = element(i);
    }
  return {{"title", title}, {"role", role},     {"rows", rows},    {"cols", cols},
          {"values", values}, {"tile", tiles}, {"element", elements}};
}

const Fn kNoTile = [](int64_t) { return int64_t(-1); };
Fn constant(int64_t k) {
  return [k](int64_t) { return k; };
}
Fn values_of(Layout const& l) {
  return [l](int64_t i) { return l(i); };
}
Fn values_of(SwizzledLayout const& l) {
  return [l](int64_t i) { return l(i); };
}

// The tiler as one layout: a layout tiler itself, a by-mode tiler its entries as modes (`_`
// as 1:0). Its column-major index is the index of the tiler's coordinate.
Layout tiler_layout(Tiler const& t) {
  if (!t.by_mode) return t.mode[0];
  LayoutBuilder b;
  for (int i = 0; i < t.n; ++i) b.add(t.keep[i] ? Layout() : t.mode[i]);
  return b.get();
}

// A layout as its notation: a plain one without the identity swizzle's "Sw<0,0,0> o 0 o".
std::string notation(SwizzledLayout const& l) {
  return l.swizzle == Swizzle() && l.offset == 0 ? to_string(l.layout) : to_string(l);
}

SwizzledLayout any_layout(Arg const& a) {
  if (auto const* s = std::get_if<SwizzledLayout>(&a)) return *s;
  return SwizzledLayout{Swizzle(), 0, std::get<Layout>(a)};
}

Layout divide_by_name(std::string const& op, Layout const& a, Tiler const& t) {
  if (op == "logical_divide") return logical_divide(a, t);
  if (op == "zipped_divide") return zipped_divide(a, t);
  if (op == "tiled_divide") return tiled_divide(a, t);
  return flat_divide(a, t);
}

// A divide: A's element x lies in tile k = element_tiles(A's shape, T)[x]. The result's cell j
// holds A's element Rd(j), Rd the same divide of D, A's compact column-major layout (D(x) = x:
// its values are A's indices); the (tile, rest) form's cell j, and the tiler's, element Zd(j).
json divide_pictures(std::string const& op, SwizzledLayout const& a, Tiler const& t,
                     SwizzledLayout const& r, json& out) {
  const Layout d = make_col_major(a.layout.shape);
  const Layout zd = zipped_divide(d, t), rd = divide_by_name(op, d, t);
  const int64_t n = a.size(), per_tile = zd[0].size();
  const ElementTiles et = element_tiles(a.layout.shape, t);
  auto in_a = [n](int64_t x) { return x >= 0 && x < n ? x : int64_t(-1); };
  auto tile_at = [tile_of = et.tile, in_a](int64_t x) {
    return in_a(x) < 0 ? int64_t(-1) : tile_of[size_t(x)];
  };
  Fn rd_element = [rd, in_a](int64_t j) { return in_a(rd(j)); };
  Fn zd_element = [zd, in_a](int64_t j) { return in_a(zd(j)); };
  json p = json::array();
  const Layout z = zipped_divide(a.layout, t);
  const SwizzledLayout zs{a.swizzle, a.offset, z}, tile0{a.swizzle, a.offset, z[0]};
  p.push_back(grid("A " + notation(a), "input", a.layout, values_of(a),
                   [&](int64_t i) { return et.tile[size_t(i)]; }, [](int64_t i) { return i; }));
  p.push_back(grid("the tiler " + to_string(t) + ": tile 0 of A", "input", z[0],
                   values_of(tile0), constant(0), zd_element));
  p.push_back(grid("result " + notation(r), "result", r.layout, values_of(r),
                   [&](int64_t j) { return tile_at(rd(j)); }, rd_element));
  if (op != "zipped_divide")  // the (tile, rest) modes: tile k is column k
    p.push_back(grid("(tile, rest) = zipped_divide: column k is tile k", "result", z,
                     values_of(zs), [per_tile](int64_t j) { return j / per_tile; }, zd_element));
  out["tiles"] = et.tiles;
  out["tile_kind"] = "tile";
  return p;
}

// The result's cell j where the result's modes are pairs (a_i, b_i) (logical_product by mode,
// blocked_product) or (b_i, a_i) (raked_product): the column-major index of the entries `at` of
// the pairs, (x_0, x_1, ..): at the b's, the copy; at the a's, A's element (its colexicographic
// index). -1 where a mode is not a pair.
int64_t paired_index(Layout const& r, int64_t j, int at, int modes) {
  IntTuple c = idx2crd(j, r.shape);
  int64_t index = 0, scale = 1;
  for (int i = 0; i < modes && i < r.rank(); ++i) {
    IntTuple const s = r.shape[i];
    if (s.is_int() || s.rank() != 2) return -1;
    IntTuple const& sx = s[at];
    IntTuple const xi = c[i][at];
    index += make_col_major(sx)(xi) * scale;
    scale *= product(sx);
  }
  return index;
}

// A product: copy k of A is the one placed by B's element k (B's column-major index); the
// result's cell shows A's element a of copy k (hover links it to A's cell a).
json product_pictures(std::string const& op, Layout const& a, Arg const& b, Layout const& r,
                      json& out) {
  const bool by_layout = op == "blocked_product" || op == "raked_product";
  Fn copy = kNoTile, element = kNoTile;
  Layout bl;
  auto paired = [&](int b_at, int modes) {
    copy = [r, b_at, modes](int64_t j) { return paired_index(r, j, b_at, modes); };
    element = [r, b_at, modes](int64_t j) { return paired_index(r, j, 1 - b_at, modes); };
  };
  if (by_layout) {
    bl = std::get<Layout>(b);
    paired(op == "raked_product" ? 0 : 1, std::max(a.rank(), bl.rank()));
  } else {
    Tiler const& t = std::get<Tiler>(b);
    bl = tiler_layout(t);
    bool nested = false, keep = false;
    for (int i = 0; i < t.n; ++i) nested |= t.nested[i], keep |= t.keep[i];
    if (op == "logical_product" && t.by_mode) {
      if (!nested && !keep) paired(1, t.n);
    } else {  // ((A),(copies)) regrouped: the colexicographic index is a + size(A) * copy
      int64_t block = zipped_product(a, t)[0].size();
      copy = [block](int64_t j) { return j / block; };
      element = [block](int64_t j) { return j % block; };
    }
  }
  json p = json::array();
  p.push_back(grid("A " + to_string(a) + " (copy 0)", "input", a, values_of(a), constant(0),
                   [](int64_t i) { return i; }));
  p.push_back(grid("B " + to_string(bl) + ": element k places copy k", "input", bl, values_of(bl),
                   [](int64_t k) { return k; }));
  p.push_back(grid("result " + to_string(r), "result", r, values_of(r), copy, element));
  out["tiles"] = r.size() / std::max<int64_t>(1, a.size());
  out["tile_kind"] = "copy";
  return p;
}

// A o B: each cell tagged with the element of A it reaches (Rd = D o B, D A's compact layout).
json composition_pictures(SwizzledLayout const& a, Tiler const& t, SwizzledLayout const& r,
                          json& out) {
  const Layout rd = composition(make_col_major(a.layout.shape), t);
  const int64_t n = a.size();
  Fn reach = [rd, n](int64_t j) {
    int64_t x = rd(j);
    return x >= 0 && x < n ? x : int64_t(-1);
  };
  Layout bl = tiler_layout(t);
  json p = json::array();
  const Fn self = [](int64_t i) { return i; };
  p.push_back(grid("A " + notation(a) + ": element x", "input", a.layout, values_of(a), self,
                   self));
  p.push_back(grid("B " + to_string(t) + ": the element of A each coordinate picks", "input",
                   rd, values_of(bl.size() == rd.size() ? bl : rd), reach, reach));
  p.push_back(grid("A o B = " + notation(r), "result", r.layout, values_of(r), reach, reach));
  out["tiles"] = n;
  out["tile_kind"] = "element of A";
  return p;
}

// complement(A, M) = R: copy k of A sits at offset R(k); (A, R) covers the codomain.
json complement_pictures(Layout const& a, Layout const& r, json& out) {
  const int64_t n = std::max<int64_t>(1, a.size());
  const Layout both = make_layout(a, r);
  json p = json::array();
  p.push_back(grid("A " + to_string(a), "input", a, values_of(a), constant(0),
                   [](int64_t i) { return i; }));
  p.push_back(grid("result R = " + to_string(r) + ": R(k) places copy k", "result", r,
                   values_of(r), [](int64_t k) { return k; }));
  p.push_back(grid("(A, R): column k is copy k of A", "result", both, values_of(both),
                   [n](int64_t j) { return j / n; }, [n](int64_t j) { return j % n; }));
  const int64_t span = both.cosize();
  if (span <= kMaxPictureCells) {
    std::vector<int64_t> copy_at(size_t(span), -1);
    for (int64_t j = 0; j < both.size(); ++j)
      if (copy_at[both(j)] < 0) copy_at[both(j)] = j / n;
    Layout strip = make_col_major(make_tuple(int64_t(1), span));
    p.push_back(grid("the offsets 0.." + std::to_string(span - 1) + ", by the copy reaching them",
                     "result", strip, [](int64_t o) { return o; },
                     [copy_at](int64_t o) { return copy_at[o]; }));
  }
  out["tiles"] = r.size();
  out["tile_kind"] = "copy";
  return p;
}

// Sw<B,M,S> on the row-major (2^B, 2^(M+|S|)) block: a row's index holds the YYY bits of S >= 0,
// so row r's chunks of 2^M are permuted by XOR with r.
json swizzle_pictures(Swizzle const& sw, json& out) {
  const int64_t rows = int64_t(1) << sw.bits, cols = sw.span() / rows;
  if (rows * cols > kMaxPictureCells)
    throw std::invalid_argument("swizzle: the block " + std::to_string(rows) + " x " +
                                std::to_string(cols) + " of " + to_string(sw) +
                                " is past the pictures' " + std::to_string(kMaxPictureCells) +
                                " cells");
  const int zzz_at = sw.base - std::min(0, sw.shift);
  Layout block(make_tuple(rows, cols), make_tuple(cols, int64_t(1)));
  auto field = [sw, zzz_at](int64_t o) { return (o & sw.zzz_mask()) >> zzz_at; };
  SwizzledLayout after{sw, 0, block};
  json p = json::array();
  p.push_back(grid("before: " + to_string(block) + ", coloured by the ZZZ bits of the offset",
                   "input", block, values_of(block),
                   [block, field](int64_t i) { return field(block(i)); }));
  p.push_back(grid("after: " + to_string(after) + ", ZZZ bits XOR YYY bits", "result", block,
                   values_of(after), [after, field](int64_t i) { return field(after(i)); }));
  out["tiles"] = rows;
  out["tile_kind"] = "ZZZ bits";
  return p;
}

// Any other op: its layout arguments and its layout result, untagged.
json plain_pictures(OpSpec const& spec, std::span<Arg const> args, OpResult const& r) {
  json p = json::array();
  for (size_t i = 0; i < args.size(); ++i) {
    const bool layout = std::holds_alternative<Layout>(args[i]) ||
                        std::holds_alternative<SwizzledLayout>(args[i]);
    if (!layout) continue;
    SwizzledLayout l = any_layout(args[i]);
    p.push_back(grid(std::string(spec.args[i].role) + " " + notation(l), "input", l.layout,
                     values_of(l), kNoTile));
  }
  if (auto l = layout_of(r.value))
    p.push_back(grid("result " + notation(*l), "result", l->layout, values_of(*l), kNoTile));
  return p;
}


// ---------------------------------------------------------------------------------------------
// The SVG.

std::string escaped(std::string const& s) {
  std::string o;
  for (char c : s)
    o += c == '&' ? "&amp;" : c == '<' ? "&lt;" : c == '>' ? "&gt;" : c == '"' ? "&quot;"
                                                                       : std::string(1, c);
  return o;
}

// hsl(h, s, l) as "rgb(r,g,b)", as the page's hsl().
std::string hsl_rgb(double h, double s, double l) {
  auto f = [&](double n) {
    double q = std::fmod(n + h / 30.0, 12.0);
    return l - s * std::min(l, 1 - l) * std::max(-1.0, std::min({q - 3, 9 - q, 1.0}));
  };
  char buf[32];
  std::snprintf(buf, sizeof buf, "rgb(%d,%d,%d)", int(std::lround(255 * f(0))),
                int(std::lround(255 * f(8))), int(std::lround(255 * f(4))));
  return buf;
}

// The page's value gradient: hue 240 * v / hi.
std::string value_color(int64_t v, int64_t hi) {
  return hsl_rgb(240.0 * double(v) / double(std::max<int64_t>(1, hi)), 0.55, 0.72);
}

std::string n2s(int64_t v) { return std::to_string(v); }

// How the cells are coloured: by tile (untagged cells by value), by value, or by bank.
struct Look {
  std::string colour = "tile";
  int64_t elem_bits = 16;
};

// One picture's cells at (x0, y0) with s-pixel cells: grouped by tile (<g class="tile">), each
// filled by the group (tile colouring) or by itself (value, bank); then the tile boundaries.
std::string svg_cells(json const& p, int64_t x0, int64_t y0, int64_t s, Look const& look) {
  const int64_t rows = p["rows"], cols = p["cols"];
  std::vector<int64_t> const v = p["values"], t = p["tile"];
  std::map<int64_t, std::string> groups;
  int64_t hi = 0;
  for (int64_t x : v) hi = std::max(hi, x);
  for (int64_t i = 0; i < rows * cols; ++i) {
    const int64_t r = i / cols, c = i % cols;
    std::string fill;  // none: the tile group's
    if (look.colour == "bank")
      fill = bank_color(smem_bank(v[i], look.elem_bits));
    else if (look.colour == "value" || t[i] < 0)
      fill = value_color(v[i], hi);
    groups[t[i]] += "<rect class=\"cell\" x=\"" + n2s(x0 + c * s) + "\" y=\"" +
                    n2s(y0 + r * s) + "\" width=\"" + n2s(s - 1) + "\" height=\"" + n2s(s - 1) +
                    "\" data-row=\"" + n2s(r) + "\" data-col=\"" + n2s(c) + "\" data-value=\"" +
                    n2s(v[i]) + "\"" + (fill.empty() ? "" : " fill=\"" + fill + "\"") + "/>";
  }
  std::string o, d;  // d: a boundary segment between two neighbours of different tiles
  for (auto const& [k, cells] : groups)
    o += k < 0 ? "<g class=\"untiled\">" + cells + "</g>"
               : "<g class=\"tile\" data-tile=\"" + n2s(k) + "\" fill=\"" + tile_color(k) +
                     "\">" + cells + "</g>";
  for (int64_t r = 0; r < rows; ++r)
    for (int64_t c = 0; c < cols; ++c) {
      const int64_t i = r * cols + c;
      if (c + 1 < cols && t[i] != t[i + 1])
        d += "M" + n2s(x0 + (c + 1) * s) + " " + n2s(y0 + r * s) + "v" + n2s(s);
      if (r + 1 < rows && t[i] != t[i + cols])
        d += "M" + n2s(x0 + c * s) + " " + n2s(y0 + (r + 1) * s) + "h" + n2s(s);
    }
  if (!d.empty())
    o += "<path class=\"boundary\" d=\"" + d + "\" stroke=\"#000\" stroke-width=\"1.5\" " +
         "fill=\"none\"/>";
  return o;
}

// The width of a monospace text at a font size (0.6 em per character).
int64_t text_w(std::string const& t, double font) {
  return int64_t(std::ceil(0.6 * font * double(t.size())));
}

// One tick every `step` cells, step a power of two keeping labels `label_px` apart.
int64_t tick_every(int64_t s, int64_t label_px) {
  int64_t step = 1;
  while (step * s < label_px) step *= 2;
  return step;
}

struct Drawn {
  std::string svg;
  int64_t w, h;
};

// One picture at (x, y): its title, the column ticks above the cells, the row ticks left of
// them, the cells (value labels where they fit) and the boundaries; its extent.
Drawn svg_picture(json const& p, int64_t x, int64_t y, int64_t s, Look const& look) {
  const int64_t rows = p["rows"], cols = p["cols"];
  const std::string title = p["title"];
  const int64_t tick_w = text_w(n2s(rows - 1), 10) + 6, left = x + tick_w, top = y + 30;
  std::string o = "<g class=\"picture\" data-role=\"" + p["role"].get<std::string>() +
                  "\" data-title=\"" + escaped(title) + "\"><text class=\"title\" x=\"" + n2s(x) +
                  "\" y=\"" + n2s(y + 12) + "\" font-size=\"12\">" + escaped(title) +
                  "</text><g class=\"ticks\" font-size=\"10\" fill=\"#444\">";
  const int64_t cstep = tick_every(s, text_w(n2s(cols - 1), 10) + 4), rstep = tick_every(s, 12);
  for (int64_t c = 0; c < cols; c += cstep)
    o += "<text class=\"tick col\" x=\"" + n2s(left + c * s + s / 2) + "\" y=\"" + n2s(top - 5) +
         "\" text-anchor=\"middle\">" + n2s(c) + "</text>";
  for (int64_t r = 0; r < rows; r += rstep)
    o += "<text class=\"tick row\" x=\"" + n2s(left - 4) + "\" y=\"" +
         n2s(top + r * s + s / 2 + 4) + "\" text-anchor=\"end\">" + n2s(r) + "</text>";
  o += "</g>" + svg_cells(p, left, top, s, look);
  std::vector<int64_t> const v = p["values"];
  int64_t widest = 1;
  for (int64_t x0 : v) widest = std::max<int64_t>(widest, int64_t(n2s(x0).size()));
  if (s >= 16 && text_w(std::string(size_t(widest), '0'), 9) <= s - 3) {  // the value labels
    o += "<g class=\"labels\" font-size=\"9\" text-anchor=\"middle\">";
    for (int64_t i = 0; i < rows * cols; ++i)
      o += "<text x=\"" + n2s(left + (i % cols) * s + s / 2) + "\" y=\"" +
           n2s(top + (i / cols) * s + s / 2 + 3) + "\">" + n2s(v[i]) + "</text>";
    o += "</g>";
  }
  return {o + "</g>", std::max(tick_w + cols * s, text_w(title, 12)), 30 + rows * s};
}

// The legend under the pictures: the axes, what the colours say (with swatches), the lines and
// the numbers; at (x, y), its extent.
Drawn svg_legend(json const& data, Look const& look, int64_t x, int64_t y) {
  const std::string kind = data.value("tile_kind", std::string());
  const int64_t tiles = data.value("tiles", int64_t(0));
  std::vector<std::string> lines = {
      "rows: mode 0 (down); columns: the other modes, colexicographic (across); ticks: indices"};
  if (look.colour == "bank")
    lines.push_back("colour: the 4-byte shared-memory bank of the offset, offset * " +
                    n2s(look.elem_bits) + " bits / 32 mod 32");
  else if (look.colour == "value" || tiles == 0)
    lines.push_back("colour: the value (offset), red (0) to blue (the largest)");
  else
    lines.push_back("colour: the " + kind + " (one colour per " + kind +
                    ", the same in every picture)");
  if (tiles > 0) lines.push_back("black lines: where the " + kind + " changes");
  lines.push_back("number in a cell (where it fits), data-value: the value (offset)");
  std::string o = "<g class=\"legend\" font-size=\"11\">";
  int64_t w = 0, yy = y + 12;
  for (auto const& l : lines) {
    o += "<text x=\"" + n2s(x) + "\" y=\"" + n2s(yy) + "\">" + escaped(l) + "</text>";
    w = std::max(w, text_w(l, 11)), yy += 16;
  }
  const bool keyed = look.colour == "bank" || (look.colour == "tile" && tiles > 0);
  if (keyed) {  // the first colours of the key
    const std::string key = look.colour == "bank" ? "bank" : kind;
    const int64_t all = look.colour == "bank" ? 32 : tiles, n = std::min<int64_t>(8, all);
    o += "<text x=\"" + n2s(x) + "\" y=\"" + n2s(yy + 8) + "\">" + escaped(key) + ":</text>";
    int64_t sx = x + text_w(key + ":", 11) + 6;
    for (int64_t k = 0; k < n; ++k, sx += 36)
      o += "<rect class=\"swatch\" x=\"" + n2s(sx) + "\" y=\"" + n2s(yy - 3) +
           "\" width=\"14\" height=\"14\" fill=\"" +
           (look.colour == "bank" ? bank_color(k) : tile_color(k)) + "\"/><text x=\"" +
           n2s(sx + 17) + "\" y=\"" + n2s(yy + 8) + "\">" + n2s(k) + "</text>";
    if (all > n) {
      const std::string more = "... " + n2s(all) + " in all";
      o += "<text x=\"" + n2s(sx) + "\" y=\"" + n2s(yy + 8) + "\">" + more + "</text>";
      sx += text_w(more, 11);
    }
    w = std::max(w, sx - x), yy += 20;
  }
  return {o + "</g>", w, yy - y};
}

}  // namespace oppic
}  // namespace

std::string tile_color(int64_t k) {
  // hsl((k * 137.508 + 20) mod 360, 0.65, 0.68): the page's tileColor, golden-angle hue steps.
  return oppic::hsl_rgb(std::fmod(double(k) * 137.508 + 20.0, 360.0), 0.65, 0.68);
}

std::string bank_color(int64_t k) {
  // The page's idColor: the same hues, brighter.
  return oppic::hsl_rgb(std::fmod(double(k) * 137.508 + 20.0, 360.0), 0.75, 0.55);
}

int64_t smem_bank(int64_t offset, int64_t elem_bits) {
  const int64_t bits = offset * elem_bits;
  const int64_t word = bits >= 0 ? bits / 32 : -((-bits + 31) / 32);  // floor(bits / 32)
  return ((word % 32) + 32) % 32;
}

ElementTiles element_tiles(IntTuple const& shape, Tiler const& t) {
  const Layout d = make_col_major(shape);
  const Layout zd = zipped_divide(d, t);
  const int64_t n = d.size(), per_tile = zd[0].size();
  ElementTiles out{std::vector<int64_t>(size_t(n), -1), zd[1].size()};
  for (int64_t j = 0; j < zd.size(); ++j) {
    const int64_t x = zd(j);
    if (x >= 0 && x < n && out.tile[size_t(x)] < 0) out.tile[size_t(x)] = j / per_tile;
  }
  return out;
}

nlohmann::json op_pictures(std::string const& op, nlohmann::json const& args,
                           OpResult const& r) {
  using namespace oppic;
  OpSpec const* spec = ops::find(op);
  if (!spec) throw std::invalid_argument("unknown op '" + op + "'");
  const std::string name = spec->name;
  std::vector<Arg> a = read_args(*spec, args, ReadOptions{});
  json out = {{"tiles", 0}, {"tile_kind", ""}};
  std::optional<SwizzledLayout> res = layout_of(r.value);
  const bool divide = name == "logical_divide" || name == "zipped_divide" ||
                      name == "tiled_divide" || name == "flat_divide";
  const bool product = name.find("_product") != std::string::npos;
  json p;
  if (divide && res) {
    p = divide_pictures(name, any_layout(a[0]), std::get<Tiler>(a[1]), *res, out);
  } else if (product && res) {
    p = product_pictures(name, std::get<Layout>(a[0]), a[1], res->layout, out);
  } else if (name == "composition" && res && std::holds_alternative<Tiler>(a[1])) {
    p = composition_pictures(any_layout(a[0]), std::get<Tiler>(a[1]), *res, out);
  } else if (name == "complement" && res) {
    p = complement_pictures(std::get<Layout>(a[0]), res->layout, out);
  } else if (name == "swizzle") {
    p = swizzle_pictures(std::get<Swizzle>(r.value), out);
  } else {
    p = plain_pictures(*spec, a, r);
  }
  out["pictures"] = p;
  return out;
}

std::string op_svg(std::string const& call, nlohmann::json const& data,
                   std::string const& colour) {
  using namespace oppic;
  if (colour != "tile" && colour != "value" && colour != "bank")
    throw std::invalid_argument("an op's pictures are coloured by tile, value or bank, not " +
                                colour);
  // The pictures alone (a list) are drawn with 16-bit banks, their tiles named "tile".
  json meta = data.is_array() ? json{{"pictures", data}, {"tile_kind", "tile"}} : data;
  if (data.is_array()) {
    std::set<int64_t> tiles;
    for (json const& p : data)
      for (auto const& t : p["tile"])
        if (t.get<int64_t>() >= 0) tiles.insert(t.get<int64_t>());
    meta["tiles"] = int64_t(tiles.size());
  }
  const Look look{colour, meta.value("elem_bits", int64_t(16))};
  constexpr int64_t pad = 28, gap = 36;
  std::string body;
  int64_t y = pad + 20, width = 0;
  for (const char* role : {"input", "result"}) {
    int64_t x = pad, row_h = 0;
    for (json const& p : meta["pictures"]) {
      if (p["role"] != role) continue;
      const int64_t rows = p["rows"], cols = p["cols"];
      // 360 x 360 pixels, a wide picture (a swizzle's block) 1000 across, as the page
      const int64_t across = cols > 4 * rows ? 1000 : 360;
      const int64_t s = std::clamp<int64_t>(
          std::min(360 / std::max<int64_t>(1, rows), across / std::max<int64_t>(1, cols)), 4, 24);
      const Drawn d = svg_picture(p, x, y, s, look);
      body += d.svg;
      x += d.w + gap;
      row_h = std::max(row_h, d.h);
    }
    width = std::max(width, x - gap + pad);
    if (row_h) y += row_h + gap;
  }
  const Drawn legend = svg_legend(meta, look, pad, y - gap / 2);
  body += legend.svg;
  width = std::max({width, pad + legend.w + pad, 2 * pad + text_w(call, 14)});
  const int64_t height = y - gap / 2 + legend.h + pad;
  return "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" + n2s(width) + "\" height=\"" +
         n2s(height) + "\" viewBox=\"0 0 " + n2s(width) + " " + n2s(height) +
         "\" font-family=\"monospace\"><rect class=\"background\" width=\"100%\" " +
         "height=\"100%\" fill=\"#fff\"/><text class=\"call\" x=\"" + n2s(pad) + "\" y=\"" +
         n2s(pad) + "\" font-size=\"14\">" + escaped(call) + "</text>" + body + "</svg>\n";
}

}  // namespace tessera::tools
