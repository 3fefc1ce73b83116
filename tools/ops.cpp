// Reading an op's arguments by their kinds and writing its value (ops.hpp); the table itself and
// the functions are in op_table.cpp.
#include "ops.hpp"

#include <charconv>
#include <stdexcept>

#include "op_args.hpp"

namespace tessera::tools {
namespace {

using nlohmann::json;

constexpr int64_t kMaxImage = int64_t(1) << 20;  // larger results are reported without an image

std::string text_of(json const& a) {
  if (a.is_string()) return a.get<std::string>();
  if (a.is_number_integer()) return std::to_string(a.get<int64_t>());
  throw std::invalid_argument("expected a string or an integer argument, got " + a.dump());
}

// A word as JSON writes it ("\"x\""), for messages that quote what was given.
std::string quoted(std::string const& text) { return json(text).dump(); }

int64_t bit_of_text(std::string const& s, std::string const& op, std::string const& role) {
  int64_t v = 0;
  auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec == std::errc() && end == s.data() + s.size() && !s.empty()) return v;
  throw std::invalid_argument(op + ": " + role + " must be an integer, got " + quoted(s));
}

// One parameter of Sw<B,M,S>: a JSON integer or a string holding one ("3").
int64_t bit_of(json const& a, std::string const& op, std::string const& role) {
  if (a.is_number_integer()) return a.get<int64_t>();
  if (a.is_string()) return bit_of_text(a.get<std::string>(), op, role);
  throw std::invalid_argument(op + ": " + role + " must be an integer, got " + a.dump());
}

// A JSON list of per-mode tiler entries (layouts, shapes, "_").
Tiler tiler_of_list(json const& list, std::string const& op, ReadOptions opt) {
  Tiler t;
  t.by_mode = true;
  t.n = 0;
  for (json const& e : list) {
    std::string s = text_of(e);
    if (s == "_") {
      t.add(_);
      continue;
    }
    no_swizzle(s, op, "the tiler entry");
    Tiler one = parse_tiler(s, opt.runtime);
    if (!one.by_mode)
      t.add(one.mode[0]);
    else if (s.find(':') == std::string::npos && s.find('_') == std::string::npos)
      t.add_shape(parse_int_tuple(s, opt.runtime));  // a shape such as (2,2): a nested tiler
    else
      throw std::invalid_argument("a nested tiler entry of layouts is not supported: " + s);
  }
  return t;
}

Arg tiler_of_text(std::string const& s, std::string const& op, std::string const& role,
                  ReadOptions opt) {
  no_swizzle(s, op, role);
  return parse_tiler(s, opt.runtime);
}

int64_t count_of_text(std::string const& s, std::string const& op) {
  IntTuple t = parse_int_tuple(s);
  if (!t.is_int()) throw std::invalid_argument(op + ": expected an integer, got " + quoted(s));
  return t.value();
}

Arg read_text(OpSpec const& op, ArgSpec const& a, std::string const& text, ReadOptions opt) {
  // CuTe's C++ spellings read as the notation, their bare integers run-time as in C++.
  opt.runtime |= is_cpp_spelling(text);
  const std::string s = from_cpp_spelling(text);
  switch (a.kind) {
    case ArgKind::kLayout:
      no_swizzle(s, op.name, a.role);
      return layout_arg(s, opt.runtime);
    case ArgKind::kAnyLayout:
      if (is_swizzled(s)) return parse_swizzled_layout(s);
      return layout_arg(s, opt.runtime);
    case ArgKind::kTiler:
      return tiler_of_text(s, op.name, a.role, opt);
    case ArgKind::kTilerOrSwizzled:
      if (is_swizzled(s)) return parse_swizzled_layout(s);
      return tiler_of_text(s, op.name, a.role, opt);
    case ArgKind::kShape:
      return parse_int_tuple(s, opt.runtime);
    case ArgKind::kTuple:
      return parse_int_tuple(s);
    case ArgKind::kIndex:
      return parse_int_tuple(s).value();
    case ArgKind::kCount:
      return count_of_text(s, op.name);
    case ArgKind::kBit:
      return bit_of_text(s, op.name, a.role);
    case ArgKind::kBitList:
      break;
    case ArgKind::kOrder:
      if (s != "col" && s != "row")
        throw std::invalid_argument(std::string(op.name) +
                                    ": the order is \"col\" or \"row\", not " + s);
      return s;
  }
  throw std::invalid_argument(std::string(op.name) + ": expected [B,M,S]");
}

Arg read_json(OpSpec const& op, ArgSpec const& a, json const& j, ReadOptions opt) {
  bool tiler = a.kind == ArgKind::kTiler || a.kind == ArgKind::kTilerOrSwizzled;
  if (tiler && j.is_array()) return tiler_of_list(j, op.name, opt);
  bool integer = a.kind == ArgKind::kIndex || a.kind == ArgKind::kCount;
  if ((integer || a.kind == ArgKind::kBit) && j.is_number_integer()) return j.get<int64_t>();
  if (a.kind == ArgKind::kBit) return bit_of(j, op.name, a.role);
  if (a.kind == ArgKind::kBitList) {
    if (!j.is_array() || j.size() != 3) return read_text(op, a, "", opt);  // the message
    return checked_swizzle(op.name, {bit_of(j[0], op.name, "B"), bit_of(j[1], op.name, "M"),
                                     bit_of(j[2], op.name, "S")});
  }
  return read_text(op, a, text_of(j), opt);
}

// "op: expected 1-2 arguments, got 3"; `given` < 0: the arguments are not a list.
void check_count(OpSpec const& op, int given) {
  int lo = op.min_args, hi = op.max_args;
  if (given >= lo && given <= hi) return;
  throw std::invalid_argument(std::string(op.name) + ": expected " + std::to_string(lo) +
                              (hi > lo ? "-" + std::to_string(hi) : "") +
                              (hi == 1 ? " argument" : " arguments") +
                              (given >= 0 ? ", got " + std::to_string(given) : ""));
}

std::vector<int64_t> image_of(auto const& f, int64_t n) {
  std::vector<int64_t> v;
  v.reserve(size_t(n));
  for (int64_t i = 0; i < n; ++i) v.push_back(f(i));
  return v;
}

template <class... F>
struct Overload : F... {
  using F::operator()...;
};
template <class... F>
Overload(F...) -> Overload<F...>;  // for compilers without aggregate deduction (clang 14)

// The value as notation, an image where it is a function, and CuTe's printed form.
void write_value(Value const& value, OpResult& r) {
  auto layout = [&r](auto const& l, std::string cute) {
    r.result = to_string(l), r.cute = std::move(cute);
    if (l.size() <= kMaxImage) r.image = image_of(l, l.size());
  };
  std::visit(
      Overload{[&](int64_t v) { r.result = r.cute = std::to_string(v); },
               [&](StaticInt v) { r.result = std::to_string(v.value), r.cute = "_" + r.result; },
               [&](IntTuple const& t) { r.result = to_string(t); },
               [&](Layout const& l) { layout(l, to_cute_string(l)); },
               [&](SwizzledLayout const& l) { layout(l, to_string(l)); },
               [&](Swizzle const& sw) {
                 r.result = to_string(sw);
                 if (sw.span() <= kMaxImage) r.image = image_of(sw, sw.span());
               }},
      value);
}

}  // namespace

void no_swizzle(std::string const& text, std::string const& op, std::string const& role) {
  if (is_swizzled(text))
    throw std::invalid_argument(op + ": " + role + " " + text + " is a swizzled layout; " + op +
                                " takes plain layouts (a swizzled layout Sw o off o L is accepted "
                                "as A by composition, logical_divide and zipped_divide, and by "
                                "show and render)");
}

Swizzle checked_swizzle(std::string const& op, std::array<int64_t, 3> v) {
  for (int64_t x : v)
    if (x < -64 || x > 64)
      throw std::invalid_argument(op + ": Sw<" + std::to_string(v[0]) + "," + std::to_string(v[1]) +
                                  "," + std::to_string(v[2]) + "> has a parameter beyond 64 bits");
  return Swizzle(int(v[0]), int(v[1]), int(v[2]));
}

Arg read_word(OpSpec const& op, int i, std::string const& word, ReadOptions opt) {
  return read_text(op, op.args[i], word, opt);
}

std::vector<Arg> read_args(OpSpec const& op, json const& args, ReadOptions opt) {
  check_count(op, args.is_array() ? int(args.size()) : -1);
  std::vector<Arg> out;
  for (size_t i = 0; i < args.size(); ++i) out.push_back(read_json(op, op.args[i], args[i], opt));
  return out;
}

std::vector<Arg> read_args(OpSpec const& op, std::vector<std::string> const& words,
                           ReadOptions opt) {
  check_count(op, int(words.size()));
  std::vector<Arg> out;
  for (size_t i = 0; i < words.size(); ++i) out.push_back(read_text(op, op.args[i], words[i], opt));
  return out;
}

OpResult run_op(OpSpec const& op, std::span<Arg const> args) {
  OpOutput out = op.run(op, args);
  OpResult r;
  write_value(out.value, r);
  r.note = std::move(out.note);
  r.value = std::move(out.value);
  return r;
}

OpResult run_op(std::string const& op, json const& args, bool runtime) {
  OpSpec const* spec = ops::find(op);
  if (!spec) throw std::invalid_argument("unknown op '" + op + "'");
  std::vector<Arg> read = read_args(*spec, args, ReadOptions{runtime});
  return run_op(*spec, read);
}

std::optional<SwizzledLayout> layout_of(Value const& v) {
  if (auto const* l = std::get_if<Layout>(&v)) return SwizzledLayout{Swizzle(), 0, *l};
  if (auto const* l = std::get_if<SwizzledLayout>(&v)) return *l;
  return std::nullopt;
}

bool is_swizzled(std::string const& spelled) {
  const std::string text = from_cpp_spelling(spelled);
  size_t at = text.find_first_not_of(" \t");
  return at != std::string::npos && text[at] == 'S';
}

Layout layout_arg(std::string const& spelled, bool runtime) {
  const std::string text = from_cpp_spelling(spelled);
  runtime |= is_cpp_spelling(spelled);
  if (text.find(':') == std::string::npos && !is_swizzled(text))
    return Layout(parse_int_tuple(text, runtime));
  return parse_layout(text, runtime);
}

SwizzledLayout any_layout_arg(std::string const& spelled) {
  const std::string text = from_cpp_spelling(spelled);
  if (is_swizzled(text)) return parse_swizzled_layout(spelled);
  return SwizzledLayout{Swizzle(), 0, layout_arg(spelled)};
}

}  // namespace tessera::tools
