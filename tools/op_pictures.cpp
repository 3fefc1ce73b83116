// The pictures of an algebra op (op_pictures.hpp): which cell belongs to which tile, per op.
#include "op_pictures.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <functional>
#include <map>
#include <stdexcept>

namespace tessera::tools {
namespace {
namespace oppic {  // a name of its own: the tools are one translation unit (a unity build)

using nlohmann::json;
using Fn = std::function<int64_t(int64_t)>;

constexpr int64_t kMaxPictureCells = 1 << 17;  // as the page's other pictures

// A layout's picture: cell (r, c) is the colexicographic index i = r + c*rows of `shape_of`
// (mode 0 down, the rest across); its value value(i), its tile tile(i).
json grid(std::string const& title, const char* role, Layout const& shape_of, Fn const& value,
          Fn const& tile) {
  int64_t rows = shape_of.rank() >= 2 ? shape_of[0].size() : 1;
  int64_t cols = shape_of.size() / std::max<int64_t>(1, rows);
  if (rows * cols > kMaxPictureCells)
    throw std::invalid_argument("render: " + title + " has " + std::to_string(rows * cols) +
                                " cells; pictures are limited to " +
                                std::to_string(kMaxPictureCells));
  std::vector<int64_t> values(rows * cols), tiles(rows * cols);
  for (int64_t r = 0; r < rows; ++r)
    for (int64_t c = 0; c < cols; ++c) {
      int64_t i = r + c * rows;
      values[r * cols + c] = value(i);
      tiles[r * cols + c] = tile(i);
    }
  return {{"title", title}, {"role", role},     {"rows", rows},
          {"cols", cols},   {"values", values}, {"tile", tiles}};
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

// A divide: A's element x lies in tile k where x is an element of column k of
// zipped_divide(D, T), D = A's compact column-major layout (D(x) = x: its values are A's
// indices). The result's cell j holds A's element Rd(j), Rd the same divide of D.
json divide_pictures(std::string const& op, SwizzledLayout const& a, Tiler const& t,
                     SwizzledLayout const& r, json& out) {
  const Layout d = make_col_major(a.layout.shape);
  const Layout zd = zipped_divide(d, t), rd = divide_by_name(op, d, t);
  const int64_t n = a.size(), per_tile = zd[0].size();
  std::vector<int64_t> tile_of(size_t(n), -1);
  for (int64_t j = 0; j < zd.size(); ++j) {
    int64_t x = zd(j);
    if (x >= 0 && x < n && tile_of[x] < 0) tile_of[x] = j / per_tile;
  }
  auto tile_at = [tile_of, n](int64_t x) { return x >= 0 && x < n ? tile_of[x] : int64_t(-1); };
  json p = json::array();
  const Layout z = zipped_divide(a.layout, t);
  const SwizzledLayout zs{a.swizzle, a.offset, z}, tile0{a.swizzle, a.offset, z[0]};
  p.push_back(grid("A " + notation(a), "input", a.layout, values_of(a),
                   [&](int64_t i) { return tile_of[i]; }));
  p.push_back(grid("the tiler " + to_string(t) + ": tile 0 of A", "input", z[0],
                   values_of(tile0), constant(0)));
  p.push_back(grid("result " + notation(r), "result", r.layout, values_of(r),
                   [&](int64_t j) { return tile_at(rd(j)); }));
  if (op != "zipped_divide")  // the (tile, rest) modes: tile k is column k
    p.push_back(grid("(tile, rest) = zipped_divide: column k is tile k", "result", z,
                     values_of(zs), [per_tile](int64_t j) { return j / per_tile; }));
  out["tiles"] = zd[1].size();
  out["tile_kind"] = "tile";
  return p;
}

// The copy index of the result's cell j where the result's modes are pairs (a_i, b_i)
// (b_at = 1: logical_product by mode, blocked_product) or (b_i, a_i) (raked_product): the
// column-major index of (b_0, b_1, ..) over the b modes. -1 where a mode is not a pair.
int64_t paired_copy(Layout const& r, int64_t j, int b_at, int modes) {
  IntTuple c = idx2crd(j, r.shape);
  int64_t copy = 0, scale = 1;
  for (int i = 0; i < modes && i < r.rank(); ++i) {
    IntTuple const s = r.shape[i];
    if (s.is_int() || s.rank() != 2) return -1;
    IntTuple const& sb = s[b_at];
    IntTuple const bi = c[i][b_at];
    copy += make_col_major(sb)(bi) * scale;
    scale *= product(sb);
  }
  return copy;
}

// A product: copy k of A is the one placed by B's element k (B's column-major index).
json product_pictures(std::string const& op, Layout const& a, Arg const& b, Layout const& r,
                      json& out) {
  const bool by_layout = op == "blocked_product" || op == "raked_product";
  Fn copy;
  Layout bl;
  if (by_layout) {
    bl = std::get<Layout>(b);
    int b_at = op == "raked_product" ? 0 : 1, modes = std::max(a.rank(), bl.rank());
    copy = [r, b_at, modes](int64_t j) { return paired_copy(r, j, b_at, modes); };
  } else {
    Tiler const& t = std::get<Tiler>(b);
    bl = tiler_layout(t);
    bool nested = false, keep = false;
    for (int i = 0; i < t.n; ++i) nested |= t.nested[i], keep |= t.keep[i];
    if (op == "logical_product" && t.by_mode) {
      int modes = t.n;
      copy = nested || keep ? kNoTile
                            : Fn([r, modes](int64_t j) { return paired_copy(r, j, 1, modes); });
    } else {  // ((A),(copies)) regrouped: the colexicographic index is a + size(A) * copy
      int64_t block = zipped_product(a, t)[0].size();
      copy = [block](int64_t j) { return j / block; };
    }
  }
  json p = json::array();
  p.push_back(grid("A " + to_string(a) + " (copy 0)", "input", a, values_of(a), constant(0)));
  p.push_back(grid("B " + to_string(bl) + ": element k places copy k", "input", bl, values_of(bl),
                   [](int64_t k) { return k; }));
  p.push_back(grid("result " + to_string(r), "result", r, values_of(r), copy));
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
  p.push_back(grid("A " + notation(a) + ": element x", "input", a.layout, values_of(a),
                   [](int64_t i) { return i; }));
  p.push_back(grid("B " + to_string(t) + ": the element of A each coordinate picks", "input",
                   rd, values_of(bl.size() == rd.size() ? bl : rd), reach));
  p.push_back(grid("A o B = " + notation(r), "result", r.layout, values_of(r), reach));
  out["tiles"] = n;
  out["tile_kind"] = "element of A";
  return p;
}

// complement(A, M) = R: copy k of A sits at offset R(k); (A, R) covers the codomain.
json complement_pictures(Layout const& a, Layout const& r, json& out) {
  const int64_t n = std::max<int64_t>(1, a.size());
  const Layout both = make_layout(a, r);
  json p = json::array();
  p.push_back(grid("A " + to_string(a), "input", a, values_of(a), constant(0)));
  p.push_back(grid("result R = " + to_string(r) + ": R(k) places copy k", "result", r,
                   values_of(r), [](int64_t k) { return k; }));
  p.push_back(grid("(A, R): column k is copy k of A", "result", both, values_of(both),
                   [n](int64_t j) { return j / n; }));
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

// The page's value gradient for untagged cells: hue 240 * v / hi.
std::string value_color(int64_t v, int64_t hi) {
  double h = 240.0 * double(v) / double(std::max<int64_t>(1, hi)), s = 0.55, l = 0.72;
  auto f = [&](double n) {
    double q = std::fmod(n + h / 30.0, 12.0);
    return l - s * std::min(l, 1 - l) * std::max(-1.0, std::min({q - 3, 9 - q, 1.0}));
  };
  char buf[32];
  std::snprintf(buf, sizeof buf, "rgb(%d,%d,%d)", int(std::lround(255 * f(0))),
                int(std::lround(255 * f(8))), int(std::lround(255 * f(4))));
  return buf;
}

// One picture at (x, y) with s-pixel cells: its cells grouped by tile, then the boundaries
// between cells of different tiles.
std::string svg_picture(json const& p, int64_t x, int64_t y, int64_t s) {
  const int64_t rows = p["rows"], cols = p["cols"];
  std::vector<int64_t> const v = p["values"], t = p["tile"];
  std::map<int64_t, std::string> groups;
  int64_t hi = 0;
  for (int64_t x0 : v) hi = std::max(hi, x0);
  for (int64_t i = 0; i < rows * cols; ++i) {
    const int64_t r = i / cols, c = i % cols;
    std::string& g = groups[t[i]];
    g += "<rect class=\"cell\" x=\"" + std::to_string(c * s) + "\" y=\"" + std::to_string(r * s) +
         "\" width=\"" + std::to_string(s - 1) + "\" height=\"" + std::to_string(s - 1) +
         "\" data-row=\"" + std::to_string(r) + "\" data-col=\"" + std::to_string(c) +
         "\" data-value=\"" + std::to_string(v[i]) + "\"" +
         (t[i] < 0 ? " fill=\"" + value_color(v[i], hi) + "\"" : std::string()) + "/>";
  }
  std::string d;  // a boundary segment between two neighbours of different tiles
  for (int64_t r = 0; r < rows; ++r)
    for (int64_t c = 0; c < cols; ++c) {
      const int64_t i = r * cols + c;
      if (c + 1 < cols && t[i] != t[i + 1])
        d += "M" + std::to_string((c + 1) * s) + " " + std::to_string(r * s) + "v" +
             std::to_string(s);
      if (r + 1 < rows && t[i] != t[i + cols])
        d += "M" + std::to_string(c * s) + " " + std::to_string((r + 1) * s) + "h" +
             std::to_string(s);
    }
  std::string o = "<g class=\"picture\" data-role=\"" + p["role"].get<std::string>() +
                  "\" data-title=\"" + escaped(p["title"]) + "\" transform=\"translate(" +
                  std::to_string(x) + "," + std::to_string(y) + ")\"><text x=\"0\" y=\"-6\" " +
                  "font-family=\"monospace\" font-size=\"12\">" + escaped(p["title"]) + "</text>";
  for (auto const& [k, cells] : groups)
    o += k < 0 ? "<g class=\"untiled\">" + cells + "</g>"
               : "<g class=\"tile\" data-tile=\"" + std::to_string(k) + "\" fill=\"" +
                     tile_color(k) + "\">" + cells + "</g>";
  if (!d.empty())
    o += "<path class=\"boundary\" d=\"" + d + "\" stroke=\"#000\" stroke-width=\"1.5\" " +
         "fill=\"none\"/>";
  return o + "</g>";
}

}  // namespace oppic
}  // namespace

std::string tile_color(int64_t k) {
  // hsl((k * 137.508 + 20) mod 360, 0.65, 0.68): the page's tileColor, golden-angle hue steps.
  double h = std::fmod(double(k) * 137.508 + 20.0, 360.0), s = 0.65, l = 0.68;
  auto f = [&](double n) {
    double q = std::fmod(n + h / 30.0, 12.0);
    return l - s * std::min(l, 1 - l) * std::max(-1.0, std::min({q - 3, 9 - q, 1.0}));
  };
  char buf[32];
  std::snprintf(buf, sizeof buf, "rgb(%d,%d,%d)", int(std::lround(255 * f(0))),
                int(std::lround(255 * f(8))), int(std::lround(255 * f(4))));
  return buf;
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

std::string op_svg(std::string const& call, nlohmann::json const& pictures) {
  using namespace oppic;
  constexpr int64_t pad = 28, gap = 36;
  std::string body;
  int64_t y = pad + 20, width = 0;
  for (const char* role : {"input", "result"}) {
    int64_t x = pad, row_h = 0;
    for (json const& p : pictures) {
      if (p["role"] != role) continue;
      const int64_t rows = p["rows"], cols = p["cols"];
      const int64_t s = std::clamp<int64_t>(360 / std::max<int64_t>(1, std::max(rows, cols)), 4,
                                            24);
      body += svg_picture(p, x, y + 16, s);
      x += std::max<int64_t>(cols * s, 8 * int64_t(p["title"].get<std::string>().size())) + gap;
      row_h = std::max(row_h, rows * s + 16);
    }
    width = std::max(width, x);
    if (row_h) y += row_h + gap;
  }
  return "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" + std::to_string(width) +
         "\" height=\"" + std::to_string(y) + "\" viewBox=\"0 0 " + std::to_string(width) + " " +
         std::to_string(y) + "\"><rect width=\"100%\" height=\"100%\" fill=\"#fff\"/>" +
         "<text x=\"" + std::to_string(pad) + "\" y=\"" + std::to_string(pad) +
         "\" font-family=\"monospace\" font-size=\"14\">" + escaped(call) + "</text>" + body +
         "</svg>\n";
}

}  // namespace tessera::tools
