#include "ops.hpp"

#include <stdexcept>

#include <tessera.hpp>

namespace tessera::tools {
namespace {

using nlohmann::json;

constexpr int64_t kMaxImage = int64_t(1) << 20;  // larger results are reported without an image

std::string text_of(json const& a) {
  if (a.is_string()) return a.get<std::string>();
  if (a.is_number_integer()) return std::to_string(a.get<int64_t>());
  throw std::invalid_argument("expected a string or an integer argument, got " + a.dump());
}

Layout layout_arg(json const& a) { return parse_layout(text_of(a)); }

// A tiler is a notation string or a JSON list of per-mode entries (layouts, shapes, "_").
Tiler tiler_arg(json const& a) {
  if (!a.is_array()) return parse_tiler(text_of(a));
  Tiler t;
  t.by_mode = true;
  t.n = 0;
  for (json const& e : a) {
    std::string s = text_of(e);
    if (s == "_") {
      t.add(_);
      continue;
    }
    Tiler one = parse_tiler(s);
    if (!one.by_mode) t.add(one.mode[0]);
    else if (s.find(':') == std::string::npos && s.find('_') == std::string::npos)
      t.add_shape(parse_int_tuple(s));  // a shape such as (2,2): a nested by-mode tiler
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
  OpResult r{to_string(l), std::nullopt, to_string(l)};
  if (l.size() <= kMaxImage) r.image = image_of(l, l.size());
  return r;
}
// A swizzled layout argument: "Sw<B,M,S> o off o L".
bool is_swizzled(json const& a) {
  if (!a.is_string()) return false;
  std::string const& s = a.get_ref<std::string const&>();
  size_t i = s.find_first_not_of(" \t");
  return i != std::string::npos && s.compare(i, 3, "Sw<") == 0;
}
SwizzledLayout swizzled_arg(json const& a) { return parse_swizzled_layout(text_of(a)); }

OpResult of_swizzled(SwizzledLayout const& s) {
  OpResult r{to_string(s), std::nullopt, ""};
  if (s.size() <= kMaxImage) r.image = image_of(s, s.size());
  return r;
}
OpResult of_integer(int64_t v) { return {std::to_string(v), std::nullopt, ""}; }

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
                                (hi > lo ? "-" + std::to_string(hi) : "") + " arguments");
}

}  // namespace

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

OpResult run_op(std::string const& op, json const& args) {
  if (op == "size" || op == "cosize" || op == "rank" || op == "depth") {
    need(args, 1, 1, op);
    Layout l = layout_arg(args[0]);
    if (op == "size") return of_integer(l.size());
    if (op == "cosize") return of_integer(l.cosize());
    if (op == "rank") return of_integer(l.rank());
    return of_integer(l.depth());
  }
  if (op == "crd2idx") {
    need(args, 2, 2, op);
    return of_integer(layout_arg(args[1])(parse_int_tuple(text_of(args[0]))));
  }
  if (op == "idx2crd") {
    need(args, 2, 2, op);
    int64_t idx = args[0].is_number_integer() ? args[0].get<int64_t>()
                                               : parse_int_tuple(text_of(args[0])).value();
    return {to_string(idx2crd(idx, parse_int_tuple(text_of(args[1])))), std::nullopt, ""};
  }
  if (op == "coalesce") {
    need(args, 1, 2, op);
    Layout l = layout_arg(args[0]);
    return of_layout(args.size() == 2 ? coalesce(l, parse_int_tuple(text_of(args[1]))) : coalesce(l));
  }
  if (op == "filter") {
    need(args, 1, 1, op);
    return of_layout(filter(layout_arg(args[0])));
  }
  if (op == "composition") {
    need(args, 2, 2, op);
    if (is_swizzled(args[1])) {
      SwizzledLayout b = swizzled_arg(args[1]);
      return of_swizzled(is_swizzled(args[0]) ? composition(swizzled_arg(args[0]), b)
                                              : composition(layout_arg(args[0]), b));
    }
    if (is_swizzled(args[0])) return of_swizzled(composition(swizzled_arg(args[0]), tiler_arg(args[1])));
    return of_layout(composition(layout_arg(args[0]), tiler_arg(args[1])));
  }
  if (op == "complement") {
    need(args, 1, 2, op);
    Layout l = layout_arg(args[0]);
    if (args.size() == 1) return of_layout(complement(l));
    return of_layout(complement(l, parse_int_tuple(text_of(args[1]))));
  }
  if (op == "right_inverse" || op == "left_inverse") {
    need(args, 1, 1, op);
    if (is_swizzled(args[0])) {
      SwizzledLayout s = swizzled_arg(args[0]);
      return of_swizzled(op == "right_inverse" ? right_inverse(s) : left_inverse(s));
    }
    Layout l = layout_arg(args[0]);
    return of_layout(op == "right_inverse" ? right_inverse(l) : left_inverse(l));
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
  if ((op == "logical_divide" || op == "zipped_divide") && args.is_array() && args.size() == 2 &&
      is_swizzled(args[0])) {
    SwizzledLayout s = swizzled_arg(args[0]);
    Tiler tl = tiler_arg(args[1]);
    return of_swizzled(op == "logical_divide" ? logical_divide(s, tl) : zipped_divide(s, tl));
  }
  for (auto const& [name, f] : tiler_ops) {
    if (op == name) {
      need(args, 2, 2, op);
      return of_layout(f(layout_arg(args[0]), tiler_arg(args[1])));
    }
  }
  if (op == "blocked_product" || op == "raked_product") {
    need(args, 2, 2, op);
    Layout a = layout_arg(args[0]), b = layout_arg(args[1]);
    return of_layout(op == "blocked_product" ? blocked_product(a, b) : raked_product(a, b));
  }
  if (op == "swizzle") {
    need(args, 3, 3, op);
    Swizzle sw(args[0].get<int>(), args[1].get<int>(), args[2].get<int>());
    return {to_string(sw), image_of(sw, sw.span()), ""};
  }
  if (op == "swizzle_layout") {
    need(args, 2, 2, op);
    json const& b = args[0];
    if (!b.is_array() || b.size() != 3) throw std::invalid_argument("swizzle_layout: expected [B,M,S]");
    SwizzledLayout s{Swizzle(b[0].get<int>(), b[1].get<int>(), b[2].get<int>()), 0,
                     layout_arg(args[1])};
    OpResult r{to_string(s), std::nullopt, ""};
    if (s.size() <= kMaxImage) r.image = image_of(s, s.size());
    return r;
  }
  if (op == "nullspace" || op == "make_layout_like") {
    need(args, 1, 1, op);
    Layout l = layout_arg(args[0]);
    return of_layout(op == "nullspace" ? nullspace(l) : make_layout_like(l));
  }
  if (op == "upcast" || op == "downcast") {
    need(args, 2, 2, op);
    Layout l = layout_arg(args[0]);
    int64_t n = int_arg(args[1], op);
    return of_layout(op == "upcast" ? upcast(l, n) : downcast(l, n));
  }
  if (op == "recast_layout") {
    need(args, 3, 3, op);
    return of_layout(recast_layout(layout_arg(args[0]), int_arg(args[1], op), int_arg(args[2], op)));
  }
  if (op == "max_common_layout") {
    need(args, 2, 2, op);
    return of_layout(max_common_layout(layout_arg(args[0]), layout_arg(args[1])));
  }
  if (op == "max_common_vector") {
    need(args, 2, 2, op);
    return of_integer(max_common_vector(layout_arg(args[0]), layout_arg(args[1])));
  }
  if (op == "make_ordered_layout") {
    need(args, 2, 2, op);
    return of_layout(make_ordered_layout(parse_int_tuple(text_of(args[0])), parse_int_tuple(text_of(args[1]))));
  }
  if (op == "compact_col_major" || op == "compact_row_major") {
    need(args, 1, 1, op);
    IntTuple s = parse_int_tuple(text_of(args[0]));
    return of_layout(op == "compact_col_major" ? make_col_major(s) : make_row_major(s));
  }
  if (op == "tile_to_shape") {  // [block, shape] or [block, shape, "col"|"row"]
    need(args, 2, 3, op);
    IntTuple shape = parse_int_tuple(text_of(args[1]));
    std::string order = args.size() == 3 ? text_of(args[2]) : "col";
    if (order != "col" && order != "row")
      throw std::invalid_argument("tile_to_shape: the order is \"col\" or \"row\", not " + order);
    if (is_swizzled(args[0])) return of_swizzled(tile_to_shape(swizzled_arg(args[0]), shape, order == "row"));
    return of_layout(tile_to_shape(layout_arg(args[0]), shape, order == "row"));
  }
  if (op == "layout_add") {
    need(args, 2, 2, op);
    return of_layout(layout_add(layout_arg(args[0]), layout_arg(args[1])));
  }
  throw std::invalid_argument("unknown op '" + op + "'");
}

}  // namespace tessera::tools
