// python/src/bind_ops.cpp -- the op table (tools/ops.hpp) as Python: `ops()` lists every op with
// its arguments and help line, and each op the hand-written bindings (bind_algebra.cpp) do not
// define becomes a function of the same name, reading Python values by the op's argument kinds:
//   tessera._tessera.upcast(Layout("(4,8):(1,4)"), 2) == Layout("(2,8):(1,2)").
#include <algorithm>
#include <cctype>
#include <deque>
#include <string>
#include <vector>

#include <nanobind/stl/string.h>

#include <op_args.hpp>
#include <ops.hpp>

#include "bindings.hpp"
#include "convert.hpp"

namespace tessera::py {
namespace {

using tools::Arg;
using tools::ArgKind;

Arg tiler_or_swizzled(nb::handle h) {
  if (nb::isinstance<SwizzledLayout>(h)) return *nb::inst_ptr<SwizzledLayout>(h);
  return tiler_of(h);
}

Swizzle swizzle_of(nb::handle h, std::string const& op) {
  if (nb::isinstance<Swizzle>(h)) return *nb::inst_ptr<Swizzle>(h);
  const char* what = "a swizzle is a Swizzle or a tuple (B, M, S)";
  if (!PyTuple_Check(h.ptr()) && !PyList_Check(h.ptr())) type_error(what, h);
  std::vector<int64_t> bms;
  for (nb::handle x : h) bms.push_back(int_of(x, what));
  if (bms.size() != 3) type_error(what, h);
  return tools::checked_swizzle(op, {bms[0], bms[1], bms[2]});
}

// Argument i: a string is read as its notation, as the CLI reads a word; other values by kind.
Arg arg_of(tools::OpSpec const& op, int i, nb::handle h) {
  tools::ArgSpec const& a = op.args[i];
  if (PyUnicode_Check(h.ptr())) return tools::read_word(op, i, std::string(text_of(h)), {});
  switch (a.kind) {
    case ArgKind::kLayout: return layout_of(h);
    case ArgKind::kAnyLayout:
      if (nb::isinstance<SwizzledLayout>(h)) return *nb::inst_ptr<SwizzledLayout>(h);
      return layout_of(h);
    case ArgKind::kTiler: return tiler_of(h);
    case ArgKind::kTilerOrSwizzled: return tiler_or_swizzled(h);
    case ArgKind::kShape:
    case ArgKind::kTuple: return int_tuple_of(h, a.role);
    case ArgKind::kIndex:
    case ArgKind::kCount:
    case ArgKind::kBit: return int_of(h, a.role);
    case ArgKind::kBitList: return swizzle_of(h, op.name);
    case ArgKind::kOrder: break;
  }
  type_error(a.role, h);
}

nb::object py_value(tools::Value const& v) {
  if (auto const* i = std::get_if<int64_t>(&v)) return nb::int_(*i);
  if (auto const* i = std::get_if<tools::StaticInt>(&v)) return nb::int_(i->value);
  if (auto const* t = std::get_if<IntTuple>(&v)) return py_of(*t);
  if (auto const* l = std::get_if<Layout>(&v)) return nb::cast(*l);
  if (auto const* l = std::get_if<SwizzledLayout>(&v)) return nb::cast(*l);
  return nb::cast(std::get<Swizzle>(v));
}

// The Python type of an argument kind, as the stub (tessera/__init__.pyi) spells it.
const char* type_name(ArgKind k) {
  switch (k) {
    case ArgKind::kLayout: return "LayoutLike";
    case ArgKind::kAnyLayout: return "LayoutLike | SwizzledLayout";
    case ArgKind::kTiler: return "Tiler";
    case ArgKind::kTilerOrSwizzled: return "Tiler | SwizzledLayout";
    case ArgKind::kShape:
    case ArgKind::kTuple: return "IntTuple";
    case ArgKind::kIndex:
    case ArgKind::kCount:
    case ArgKind::kBit: return "int";
    case ArgKind::kBitList: return "Swizzle | tuple[int, int, int]";
    case ArgKind::kOrder: break;
  }
  return "str";
}

// help()'s signature of an op of the table: its arguments named by their roles ("the layout" ->
// layout; a repeated name gets a, b), typed by their kinds, positional only, the optional ones
// = None: "def upcast(layout: LayoutLike, n: int, /)". Kept for the life of the module.
const char* signature(tools::OpSpec const& op) {
  static std::deque<std::string> kept;
  std::vector<std::string> names;
  for (int i = 0; i < op.max_args; ++i) {
    std::string role = op.args[i].role;
    if (role.rfind("the ", 0) == 0) role = role.substr(4);
    for (char& c : role) c = c == ' ' ? '_' : char(std::tolower(static_cast<unsigned char>(c)));
    names.push_back(role);
  }
  std::vector<std::string> given = names;
  for (int i = 0; i < op.max_args; ++i)
    if (std::count(given.begin(), given.end(), given[i]) > 1) names[i] = std::string(1, 'a' + i);
  std::string s = std::string("def ") + op.name + "(";
  for (int i = 0; i < op.max_args; ++i) {
    s += names[i] + ": " + type_name(op.args[i].kind);
    if (i >= op.min_args) s += " | None = None";
    s += ", ";
  }
  return kept.emplace_back(s + "/)").c_str();
}

nb::object run(tools::OpSpec const& op, nb::args given) {
  int n = int(given.size());
  if (n < op.min_args || n > op.max_args) {
    std::string m = std::string(op.name) + ": expected " + std::to_string(op.min_args) +
                    (op.max_args > op.min_args ? "-" + std::to_string(op.max_args) : "") +
                    " arguments, got " + std::to_string(n);
    throw std::invalid_argument(m);
  }
  std::vector<Arg> args;
  for (int i = 0; i < n; ++i) args.push_back(arg_of(op, i, given[i]));
  return py_value(tools::run_op(op, args).value);
}

}  // namespace

void bind_ops(nb::module_& m) {
  nb::list table;
  for (tools::OpSpec const& op : tools::ops::table()) {
    nb::list roles;
    for (int i = 0; i < op.max_args; ++i) roles.append(op.args[i].role);
    nb::dict entry;
    entry["name"] = op.name, entry["alias"] = op.alias, entry["args"] = roles;
    entry["min_args"] = op.min_args, entry["help"] = op.help;
    table.append(entry);
    if (nb::hasattr(m, op.name)) continue;  // a hand-written binding with Python's conveniences
    m.def(
        op.name, [&op](nb::args given) { return run(op, given); }, nb::sig(signature(op)),
        op.help);
  }
  m.def("ops", [table] { return table; },
        "The layout ops of the library (the CLI's verbs, `tessera batch`): name, alias, argument "
        "roles, minimum count and help.");
}

}  // namespace tessera::py
