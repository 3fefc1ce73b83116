#include "ops.hpp"

#include <charconv>
#include <stdexcept>

namespace tessera::tools {
namespace {

using nlohmann::json;

constexpr int64_t kMaxImage = int64_t(1) << 20;  // larger results are reported without an image

// Whether bare integers of the op being run are run-time ones: set by run_op for its arguments,
// read by the argument parsers below.
thread_local bool bare_runtime = false;

std::string text_of(json const& a) {
  if (a.is_string()) return a.get<std::string>();
  if (a.is_number_integer()) return std::to_string(a.get<int64_t>());
  throw std::invalid_argument("expected a string or an integer argument, got " + a.dump());
}

// An integer argument: a JSON integer or a string holding one ("3").
int64_t int_arg(json const& a, std::string const& op, std::string const& what) {
  if (a.is_number_integer()) return a.get<int64_t>();
  if (a.is_string()) {
    std::string s = a.get<std::string>();
    int64_t v = 0;
    auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
    if (ec == std::errc() && end == s.data() + s.size() && !s.empty()) return v;
  }
  throw std::invalid_argument(op + ": " + what + " must be an integer, got " + a.dump());
}

void no_swizzle(std::string const& text, std::string const& op, std::string const& role) {
  if (is_swizzled(text))
    throw std::invalid_argument(op + ": " + role + " " + text + " is a swizzled layout; " + op +
                                " takes plain layouts (a swizzled layout Sw o off o L is accepted as A by "
                                "composition, logical_divide and zipped_divide, and by show and render)");
}

Layout plain_arg(json const& a, std::string const& op, std::string const& role) {
  std::string s = text_of(a);
  no_swizzle(s, op, role);
  return layout_arg(s, bare_runtime);
}

// A tiler is a notation string or a JSON list of per-mode entries (layouts, shapes, "_").
Tiler tiler_arg(json const& a, std::string const& op) {
  if (!a.is_array()) {
    std::string s = text_of(a);
    no_swizzle(s, op, "the tiler");
    return parse_tiler(s, bare_runtime);
  }
  Tiler t;
  t.by_mode = true;
  t.n = 0;
  for (json const& e : a) {
    std::string s = text_of(e);
    if (s == "_") {
      t.add(_);
      continue;
    }
    no_swizzle(s, op, "the tiler entry");
    Tiler one = parse_tiler(s, bare_runtime);
    if (!one.by_mode) t.add(one.mode[0]);
    else if (s.find(':') == std::string::npos && s.find('_') == std::string::npos)
      t.add_shape(parse_int_tuple(s, bare_runtime));  // a shape such as (2,2): a nested by-mode tiler
    else throw std::invalid_argument("a nested tiler entry of layouts is not supported: " + s);
  }
  return t;
}

std::vector<int64_t> image_of(auto const& f, int64_t n) {
  std::vector<int64_t> v;
  v.reserve(size_t(n));
  for (int64_t i = 0; i < n; ++i) v.push_back(f(i));
  return v;
}

OpResult of_layout(Layout const& l) {
  OpResult r{to_string(l), std::nullopt, to_string(l), "", to_cute_string(l)};
  if (l.size() <= kMaxImage) r.image = image_of(l, l.size());
  return r;
}
OpResult of_layout(SwizzledLayout const& l) {
  OpResult r{to_string(l), std::nullopt, to_string(l), "", to_string(l)};
  if (l.size() <= kMaxImage) r.image = image_of(l, l.size());
  return r;
}
OpResult of_integer(int64_t v) { return {std::to_string(v), std::nullopt, "", "", std::to_string(v)}; }
SwizzledLayout swizzled_arg(json const& a) { return parse_swizzled_layout(text_of(a)); }

// An integer argument: a JSON integer or a decimal string (the CLI passes strings).
int64_t int_arg(json const& a, std::string const& op) {
  if (a.is_number_integer()) return a.get<int64_t>();
  IntTuple t = parse_int_tuple(text_of(a));
  if (!t.is_int()) throw std::invalid_argument(op + ": expected an integer, got " + a.dump());
  return t.value();
}

void need(json const& args, size_t lo, size_t hi, std::string const& op) {
  if (!args.is_array() || args.size() < lo || args.size() > hi)
    throw std::invalid_argument(op + ": expected " + std::to_string(lo) +
                                (hi > lo ? "-" + std::to_string(hi) : "") +
                                (hi == 1 ? " argument" : " arguments") +
                                (args.is_array() ? ", got " + std::to_string(args.size()) : ""));
}

// CuTe allows a tiler that does not divide the layout: the last tiles run past its end. Say so.
std::string divide_note(std::string const& op, Layout const& a, Tiler const& t, int64_t result_size) {
  if (result_size == a.size()) return "";
  std::string why;
  if (t.by_mode) {
    for (int i = 0; i < t.n && i < a.rank(); ++i) {
      if (t.keep[i] || a[i].size() % t.mode[i].size() == 0) continue;
      why += (why.empty() ? " (mode " : "; mode ") + std::to_string(i) + ": " + std::to_string(t.mode[i].size()) +
             " does not divide " + std::to_string(a[i].size());
    }
  } else if (a.size() % t.mode[0].size() != 0) {
    why = " (" + std::to_string(t.mode[0].size()) + " does not divide " + std::to_string(a.size());
  }
  if (!why.empty()) why += ")";
  return op + ": the tiler " + to_string(t) + " does not divide " + to_string(a) + why + "; the result has " +
         std::to_string(result_size) + " coordinates for the layout's " + std::to_string(a.size()) +
         ": CuTe's result, whose last tiles run past the end of the layout";
}

// The first entry of a coordinate outside its mode of `shape`: "" if every entry is inside.
// Negative entries are errors (no CuTe coordinate is negative); entries past the extent are
// CuTe's linear extension of the layout, reported as a note.
std::string outside(IntTuple const& crd, IntTuple const& shape) {
  if (crd.is_int()) {
    int64_t c = crd.value(), n = product(shape);
    if (c >= 0 && c < n) return "";
    return std::to_string(c) + " is not in [0, " + std::to_string(n) + ")";
  }
  if (shape.is_int()) return "";  // a mismatch: crd2idx itself rejects it
  for (int i = 0; i < crd.rank() && i < shape.rank(); ++i) {
    std::string m = outside(crd[i], shape[i]);
    if (!m.empty()) return m;
  }
  return "";
}

bool has_negative(IntTuple const& t) {
  for (int i = 0; i < t.n; ++i)
    if (!t.tup[i] && t.v[i] < 0) return true;
  return false;
}

OpResult crd2idx_op(json const& args) {
  IntTuple crd = parse_int_tuple(text_of(args[0]));
  Layout l = plain_arg(args[1], "crd2idx", "the layout");
  if (has_negative(crd))
    throw std::invalid_argument("crd2idx: coordinate " + to_string(crd) + " has a negative entry; the coordinates of " +
                                to_string(l.shape) + " run from 0 to extent - 1 in each mode");
  OpResult r = of_integer(l(crd));
  std::string why = outside(crd, l.shape);
  if (!why.empty())
    r.note = "crd2idx: coordinate " + to_string(crd) + " lies outside the shape " + to_string(l.shape) + " (" + why +
             "); the offset is CuTe's, the layout's linear formula extended past the shape";
  return r;
}

OpResult idx2crd_op(json const& args) {
  int64_t idx = args[0].is_number_integer() ? args[0].get<int64_t>() : parse_int_tuple(text_of(args[0])).value();
  IntTuple shape = parse_int_tuple(text_of(args[1]));
  int64_t n = product(shape);
  if (idx < 0)
    throw std::invalid_argument("idx2crd: index " + std::to_string(idx) + " is negative; the indices of shape " +
                                to_string(shape) + " run from 0 to " + std::to_string(n - 1));
  OpResult r{to_string(idx2crd(idx, shape)), std::nullopt, "", ""};
  if (idx >= n)
    r.note = "idx2crd: index " + std::to_string(idx) + " is outside [0, " + std::to_string(n) + ") of shape " +
             to_string(shape) + "; CuTe's idx2crd wraps every mode, so this is the coordinate of " +
             std::to_string(idx) + " mod " + std::to_string(n) + " = " + std::to_string(idx % n);
  return r;
}

// The ops that also take a swizzled A (swizzle.hpp): the swizzle stays outside, Sw o off o (L op T).
OpResult swizzled_op(std::string const& op, SwizzledLayout const& a, Tiler const& t) {
  if (op == "composition") return of_layout(composition(a, t));
  SwizzledLayout r = op == "logical_divide" ? logical_divide(a, t) : zipped_divide(a, t);
  OpResult out = of_layout(r);
  out.note = divide_note(op, a.layout, t, r.size());
  return out;
}

}  // namespace

bool is_swizzled(std::string const& text) {
  size_t at = text.find_first_not_of(" \t");
  return at != std::string::npos && text[at] == 'S';
}

Layout layout_arg(std::string const& text, bool runtime) {
  if (text.find(':') == std::string::npos && !is_swizzled(text)) return Layout(parse_int_tuple(text, runtime));
  return parse_layout(text, runtime);
}

SwizzledLayout any_layout_arg(std::string const& text) {
  if (is_swizzled(text)) return parse_swizzled_layout(text);
  return SwizzledLayout{Swizzle(), 0, layout_arg(text)};
}

std::vector<std::string> const& op_names() {
  static const std::vector<std::string> names = {
      "size", "cosize", "rank", "depth", "crd2idx", "idx2crd", "coalesce", "filter",
      "composition", "complement", "right_inverse", "left_inverse", "logical_divide",
      "zipped_divide", "tiled_divide", "flat_divide", "logical_product", "zipped_product",
      "tiled_product", "flat_product", "blocked_product", "raked_product", "swizzle",
      "swizzle_layout", "nullspace", "upcast", "downcast", "recast_layout", "max_common_layout",
      "max_common_vector", "make_ordered_layout", "make_layout_like", "compact_col_major",
      "compact_row_major", "tile_to_shape", "layout_add"};
  return names;
}

OpResult run_op(std::string const& op, json const& args, bool runtime) {
  struct Scope {  // bare_runtime for this call only, restored on return and on a throw
    bool saved = bare_runtime;
    ~Scope() { bare_runtime = saved; }
  } scope;
  bare_runtime = runtime;
  if (op == "size" || op == "cosize" || op == "rank" || op == "depth") {
    need(args, 1, 1, op);
    SwizzledLayout s = any_layout_arg(text_of(args[0]));
    Layout l = s.layout;
    if (op == "size") return of_integer(l.size());
    if (op == "cosize") {
      no_swizzle(text_of(args[0]), op, "the layout");
      return of_integer(l.cosize());
    }
    if (op == "rank") return of_integer(l.rank());
    return of_integer(l.depth());
  }
  if (op == "crd2idx") {
    need(args, 2, 2, op);
    return crd2idx_op(args);
  }
  if (op == "idx2crd") {
    need(args, 2, 2, op);
    return idx2crd_op(args);
  }
  if (op == "coalesce") {
    need(args, 1, 2, op);
    Layout l = plain_arg(args[0], op, "the layout");
    return of_layout(args.size() == 2 ? coalesce(l, parse_int_tuple(text_of(args[1]))) : coalesce(l));
  }
  if (op == "filter") {
    need(args, 1, 1, op);
    return of_layout(filter(plain_arg(args[0], op, "the layout")));
  }
  if (op == "composition" || op == "logical_divide" || op == "zipped_divide") {
    need(args, 2, 2, op);
    std::string a = text_of(args[0]);
    // A swizzled B (composition only): Sw o off o L on either side, e.g. L o (Sw o 0 o L').
    if (op == "composition" && args[1].is_string() && is_swizzled(text_of(args[1]))) {
      SwizzledLayout b = swizzled_arg(args[1]);
      return of_layout(is_swizzled(a) ? composition(parse_swizzled_layout(a), b) : composition(layout_arg(a), b));
    }
    if (is_swizzled(a)) return swizzled_op(op, parse_swizzled_layout(a), tiler_arg(args[1], op));
  }
  if (op == "composition") {
    return of_layout(composition(plain_arg(args[0], op, "A"), tiler_arg(args[1], op)));
  }
  if (op == "complement") {
    need(args, 1, 2, op);
    Layout l = plain_arg(args[0], op, "the layout");
    if (args.size() == 1) return of_layout(complement(l));
    return of_layout(complement(l, parse_int_tuple(text_of(args[1]), bare_runtime)));
  }
  if (op == "right_inverse") {
    need(args, 1, 1, op);
    if (args[0].is_string() && is_swizzled(text_of(args[0]))) return of_layout(right_inverse(swizzled_arg(args[0])));
    return of_layout(right_inverse(plain_arg(args[0], op, "the layout")));
  }
  if (op == "left_inverse") {
    need(args, 1, 1, op);
    if (args[0].is_string() && is_swizzled(text_of(args[0]))) return of_layout(left_inverse(swizzled_arg(args[0])));
    Layout l = plain_arg(args[0], op, "the layout");
    try {
      return of_layout(left_inverse(l));
    } catch (Error const& e) {
      // left_inverse goes through complement; name the op the user asked for.
      std::string m = e.what();
      if (m.rfind("complement: ", 0) == 0) m = "left_inverse: " + m.substr(12) + "; only an injective layout has a left inverse";
      throw std::invalid_argument(m);
    }
  }
  using TilerOp = Layout (*)(Layout const&, Tiler const&);
  static const std::pair<const char*, TilerOp> tiler_ops[] = {
      {"logical_divide", [](Layout const& a, Tiler const& t) { return logical_divide(a, t); }},
      {"zipped_divide", zipped_divide},
      {"tiled_divide", tiled_divide},
      {"flat_divide", flat_divide},
      {"logical_product", [](Layout const& a, Tiler const& t) { return logical_product(a, t); }},
      {"zipped_product", zipped_product},
      {"tiled_product", tiled_product},
      {"flat_product", flat_product}};
  for (auto const& [name, f] : tiler_ops) {
    if (op == name) {
      need(args, 2, 2, op);
      Layout a = plain_arg(args[0], op, "A");
      Tiler t = tiler_arg(args[1], op);
      OpResult r = of_layout(f(a, t));
      if (op.find("_divide") != std::string::npos) r.note = divide_note(op, a, t, f(a, t).size());
      return r;
    }
  }
  if (op == "blocked_product" || op == "raked_product") {
    need(args, 2, 2, op);
    Layout a = plain_arg(args[0], op, "A"), b = plain_arg(args[1], op, "B");
    return of_layout(op == "blocked_product" ? blocked_product(a, b) : raked_product(a, b));
  }
  // Sw<B,M,S> from three integer arguments; the Swizzle checks B, M and S themselves.
  auto swizzle_of = [&op](json const& b, json const& m, json const& s) {
    int64_t v[3] = {int_arg(b, op, "B"), int_arg(m, op, "M"), int_arg(s, op, "S")};
    for (int64_t x : v)
      if (x < -64 || x > 64)
        throw std::invalid_argument(op + ": Sw<" + std::to_string(v[0]) + "," + std::to_string(v[1]) + "," +
                                    std::to_string(v[2]) + "> has a parameter beyond 64 bits");
    return Swizzle(int(v[0]), int(v[1]), int(v[2]));
  };
  if (op == "swizzle") {
    need(args, 3, 3, op);
    Swizzle sw = swizzle_of(args[0], args[1], args[2]);
    OpResult r{to_string(sw), std::nullopt, "", ""};
    if (sw.span() <= kMaxImage) r.image = image_of(sw, sw.span());
    return r;
  }
  if (op == "swizzle_layout") {
    need(args, 2, 2, op);
    json const& b = args[0];
    if (!b.is_array() || b.size() != 3) throw std::invalid_argument("swizzle_layout: expected [B,M,S]");
    Swizzle sw = swizzle_of(b[0], b[1], b[2]);
    return of_layout(SwizzledLayout{sw, 0, plain_arg(args[1], op, "the layout")});
  }
  if (op == "nullspace" || op == "make_layout_like") {
    need(args, 1, 1, op);
    Layout l = plain_arg(args[0], op, "the layout");
    return of_layout(op == "nullspace" ? nullspace(l) : make_layout_like(l));
  }
  if (op == "upcast" || op == "downcast") {
    need(args, 2, 2, op);
    Layout l = plain_arg(args[0], op, "the layout");
    int64_t n = int_arg(args[1], op);
    return of_layout(op == "upcast" ? upcast(l, n) : downcast(l, n));
  }
  if (op == "recast_layout") {
    need(args, 3, 3, op);
    return of_layout(recast_layout(plain_arg(args[0], op, "the layout"), int_arg(args[1], op), int_arg(args[2], op)));
  }
  if (op == "max_common_layout") {
    need(args, 2, 2, op);
    return of_layout(max_common_layout(plain_arg(args[0], op, "the layout"), plain_arg(args[1], op, "the layout")));
  }
  if (op == "max_common_vector") {
    need(args, 2, 2, op);
    OpResult r = of_integer(max_common_vector(plain_arg(args[0], op, "the layout"), plain_arg(args[1], op, "the layout")));
    r.cute = "_" + r.cute;  // a vector width is a static integer in CuTe
    return r;
  }
  if (op == "make_ordered_layout") {
    need(args, 2, 2, op);
    return of_layout(make_ordered_layout(parse_int_tuple(text_of(args[0]), bare_runtime),
                                         parse_int_tuple(text_of(args[1]), bare_runtime)));
  }
  if (op == "compact_col_major" || op == "compact_row_major") {
    need(args, 1, 1, op);
    IntTuple s = parse_int_tuple(text_of(args[0]), bare_runtime);
    return of_layout(op == "compact_col_major" ? make_col_major(s) : make_row_major(s));
  }
  if (op == "tile_to_shape") {  // [block, shape] or [block, shape, "col"|"row"]
    need(args, 2, 3, op);
    IntTuple shape = parse_int_tuple(text_of(args[1]), bare_runtime);
    std::string order = args.size() == 3 ? text_of(args[2]) : "col";
    if (order != "col" && order != "row")
      throw std::invalid_argument("tile_to_shape: the order is \"col\" or \"row\", not " + order);
    if (args[0].is_string() && is_swizzled(text_of(args[0]))) return of_layout(tile_to_shape(swizzled_arg(args[0]), shape, order == "row"));
    return of_layout(tile_to_shape(plain_arg(args[0], op, "the layout"), shape, order == "row"));
  }
  if (op == "layout_add") {
    need(args, 2, 2, op);
    return of_layout(layout_add(plain_arg(args[0], op, "the layout"), plain_arg(args[1], op, "the layout")));
  }
  throw std::invalid_argument("unknown op '" + op + "'");
}

}  // namespace tessera::tools
