// NVIDIA's own layout tests, ported as data: tests/data/cute_cpp_cases.json.
//
// The cases are the operands of CUTLASS's test/unit/cute/core/*.cpp (coalesce, complement,
// composition, inverse_left, inverse_right, logical_divide, logical_product, nullspace), of
// CUTLASS's pycute tests (test/python/pycute), of NVlabs/CuTe's tests (composition, left inverse,
// zipped/logical divide, logical product), of the layout-oracle cases where pycute and C++
// disagree, edge cases (extent-1 modes, inverses, swizzles), and random operands for the ops of
// layout_ops.hpp. Every expected value was computed by CuTe's C++ headers with all integers static
// (see tests/data/README.md for how); "recorded" is what NVIDIA's test itself printed (its integers
// may be run-time ones, which print and merge differently).
//
// Each case checks, through the same `batch` op table the CLI uses:
//   1. tessera computes the same function as C++ (`expected` evaluated at every index), and prints
//      it exactly as C++ does;
//   2. a case that C++ rejects (a static assertion) is rejected;
//   3. every assertion of NVIDIA's test for that op (the post-conditions below), on tessera's
//   result.
// A case with a "difference" field is a documented deliberate difference (docs/differences.md):
// there the field says what tessera does instead ("error" or the result it prints), and that is
// asserted.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>
#include <tessera.hpp>

#include "ops.hpp"

using nlohmann::json;
using namespace tessera;

namespace {

// A layout or a swizzled layout as a function of the flat index.
struct Fn {
  std::function<int64_t(int64_t)> f;
  int64_t size = 0;
  int64_t operator()(int64_t i) const { return f(i); }
};
bool swizzled(std::string const& s) { return s.find("Sw<") != std::string::npos; }
Fn fn_of(std::string const& s) {
  if (swizzled(s)) {
    SwizzledLayout l = parse_swizzled_layout(s);
    return {[l](int64_t i) { return l(i); }, l.size()};
  }
  Layout l = parse_layout(s);
  return {[l](int64_t i) { return l(i); }, l.size()};
}
std::string text(json const& a) { return a.is_string() ? a.get<std::string>() : a.dump(); }

// CuTe's compatible(a, b): a is an integer of b's size, or both are tuples of one rank whose
// modes are compatible.
bool compatible(IntTuple const& a, IntTuple const& b) {
  if (a.is_int()) return a.value() == product(b);
  if (b.is_int() || a.rank() != b.rank()) return false;
  for (int i = 0; i < a.rank(); ++i)
    if (!compatible(a[i], b[i])) return false;
  return true;
}
IntTuple shape_of(std::string const& s) {
  return swizzled(s) ? parse_swizzled_layout(s).layout.shape : parse_layout(s).shape;
}
int64_t cosize_of(Layout const& l) { return l.cosize(); }

// NVIDIA's assertions for one op, on tessera's result `r`; "" when all hold.
std::string postconditions(std::string const& op, std::string const& src, json const& args,
                           std::string const& r) {
  auto fail = [](std::string what) { return what; };
  // pycute's tests (CUTLASS's and NVlabs/CuTe's) check R on R's domain, C++'s on B's.
  bool pycute = src.find("pycute") != std::string::npos || src.rfind("NVlabs/", 0) == 0;
  if (op == "coalesce") {
    Layout l = parse_layout(text(args[0])), c = parse_layout(r);
    if (depth(c) > 1) return fail("depth(coalesce) > 1");
    if (size(c) != size(l)) return fail("size changed");
    for (int64_t i = 0; i < size(l); ++i)
      if (c(i) != l(i)) return fail("differs at " + std::to_string(i));
    return "";
  }
  if (op == "composition") {
    if (args[1].is_array()) return "";  // a by-mode tiler: not A(B(i)) on whole indices
    Fn a = fn_of(text(args[0])), b = fn_of(text(args[1])), R = fn_of(r);
    bool check_compatible =
        src.find("test/unit") != std::string::npos || src.rfind("NVlabs/", 0) == 0;
    if (check_compatible && !compatible(shape_of(text(args[1])), shape_of(r)))
      return fail("B is not compatible with R");
    int64_t n = pycute ? R.size : b.size;  // pycute checks R's domain, C++ B's
    for (int64_t i = 0; i < n; ++i)
      if (R(i) != a(b(i))) return fail("R(" + std::to_string(i) + ") != A(B(i))");
    return "";
  }
  if (op == "complement") {
    Layout l = parse_layout(text(args[0])), c = parse_layout(r);
    if (pycute) {  // disjoint codomains, offset 0 aside
      for (int64_t a = 0; a < size(l); ++a)
        for (int64_t b = 0; b < size(c); ++b)
          if (l(a) == c(b) && !(l(a) == 0 && c(b) == 0)) return fail("not disjoint");
      return "";
    }
    int64_t cotarget = args.size() > 1 ? product(parse_int_tuple(text(args[1]))) : l.cosize();
    Layout completed = make_layout(l, c);
    auto round_up = [](int64_t a, int64_t b) { return (a + b - 1) / b * b; };
    if (cosize_of(completed) < cotarget) return fail("(1) cosize(completed) < size(cotarget)");
    if (cosize_of(c) > round_up(cotarget, cosize_of(l))) return fail("(2) cosize(result) too big");
    for (int64_t i = 1; i < size(c); ++i) {
      if (!(c(i - 1) < c(i))) return fail("(3) not ordered");
      for (int64_t j = 0; j < size(l); ++j)
        if (c(i) == l(j)) return fail("(4) not disjoint");
    }
    int64_t fsize = size(filter(l));
    if (size(c) > cosize_of(c)) return fail("size > cosize");
    if (size(c) < cotarget / fsize) return fail("size(result) < size(cotarget)/size(filter)");
    if (cosize_of(completed) > cosize_of(c) + cosize_of(l))
      return fail("cosize(completed) too big");
    if (cosize_of(c) < cotarget / fsize) return fail("cosize(result) too small");
    if (size(complement(completed)) != 1) return fail("codomain left over after completion");
    if (!(complement(complement(c, cosize_of(l)), cotarget) == c)) return fail("double complement");
    return "";
  }
  if (op == "left_inverse") {
    Fn l = fn_of(text(args[0])), inv = fn_of(r);
    for (int64_t i = 0; i < l.size; ++i)
      if (l(inv(l(i))) != l(i)) return fail("L(inv(L(i))) != L(i) at " + std::to_string(i));
    return "";
  }
  if (op == "right_inverse") {
    Fn l = fn_of(text(args[0])), inv = fn_of(r);
    for (int64_t i = 0; i < inv.size; ++i)
      if (l(inv(i)) != i) return fail("L(inv(i)) != i at " + std::to_string(i));
    return "";
  }
  if (op == "logical_divide" || op == "logical_product") {
    if (args[1].is_array() || text(args[1]).find(':') == std::string::npos) return "";
    Layout R = parse_layout(r), b = parse_layout(text(args[1]));
    if (rank(R) != 2) return fail("rank(R) != 2");
    if (op == "logical_divide" && !compatible(b.shape, R[0].shape)) return fail("B !~ R<0>");
    if (op == "logical_product") {
      if (!(R[0] == parse_layout(text(args[0])))) return fail("R<0> != A");
      if (!compatible(b.shape, R[1].shape)) return fail("B !~ R<1>");
    }
    return "";
  }
  if (op ==
      "zipped_divide") {  // NVlabs/CuTe: (Tile, Grid), the tile is A o tiler, A's values all appear
    Layout A = parse_layout(text(args[0])), R = parse_layout(r);
    Layout tiler = args[1].is_array() ? Layout() : parse_layout(text(args[1]));
    if (args[1].is_array()) {  // by-mode: the tiler as one layout over A's first modes
      LayoutBuilder b;
      for (json const& e : args[1]) b.add(parse_layout(text(e)));
      tiler = b.get();
    }
    if (rank(R) != 2) return fail("rank(R) != 2");
    if (!compatible(tiler.shape, R[0].shape)) return fail("tiler !~ R<0>");
    if (!args[1].is_array())
      for (int64_t i = 0; i < size(tiler); ++i)
        if (R(make_tuple(i, int64_t(0))) != A(tiler(i))) return fail("R(i,0) != A(tiler(i))");
    std::vector<int64_t> img;
    for (int64_t j = 0; j < size(R); ++j) img.push_back(R(j));
    std::sort(img.begin(), img.end());
    for (int64_t i = 0; i < size(A); ++i)
      if (!std::binary_search(img.begin(), img.end(), A(i))) return fail("A(i) missing from R");
    return "";
  }
  if (op == "nullspace") {
    Layout l = parse_layout(text(args[0])), k = parse_layout(r);
    if (size(k) != size(l) / size(filter(l))) return fail("size(ker) != size/size(filter)");
    for (int64_t i = 0; i < size(k); ++i)
      if (l(k(i)) != 0) return fail("L(ker(i)) != 0");
    return "";
  }
  return "";
}

std::filesystem::path data_file() {
  return std::filesystem::path(TESSERA_SOURCE_DIR) / "tests" / "data" / "cute_cpp_cases.json";
}

TEST(CuteCpp, NvidiaCases) {
  json doc = json::parse(std::ifstream(data_file()));
  int computed = 0, rejected = 0, differences = 0;
  std::map<std::string, int> per_src;
  for (json const& c : doc["cases"]) {
    std::string op = c["op"], src = c["src"];
    SCOPED_TRACE(c["id"].get<std::string>() + " (" + src + ") " + op + c["args"].dump());
    std::string got, err;
    try {
      got = tools::run_op(op, c["args"]).result;
    } catch (std::exception const& e) {
      err = e.what();
    }
    ++per_src[src];
    if (c.contains("difference")) {  // documented: tessera's own answer is asserted
      std::string want = c["tessera"];
      if (want == "error") EXPECT_FALSE(err.empty()) << "expected an error, got " << got;
      else EXPECT_EQ(got, want) << err;
      ++differences;
      continue;
    }
    if (c.value("error", false)) {
      EXPECT_FALSE(err.empty()) << "C++ rejects this case; tessera gives " << got;
      ++rejected;
      continue;
    }
    if (!err.empty()) {
      ADD_FAILURE() << "rejected: " << err;
      continue;
    }
    std::string want = c["expected"];
    EXPECT_EQ(got, want);
    try {
      // Where the texts differ, the first index at which the two functions differ (equal texts
      // are the same function: nothing to compare).
      if (got != want && want.find(':') != std::string::npos) {
        Fn g = fn_of(got), w = fn_of(want);
        EXPECT_EQ(g.size, w.size) << got;
        for (int64_t i = 0; i < std::min(g.size, w.size); ++i) {
          if (g(i) == w(i)) continue;
          ADD_FAILURE() << "at " << i << ": " << got << " is " << g(i) << ", C++ " << w(i);
          break;
        }
      }
      // NVIDIA's assertions, for NVIDIA's cases (a tuple B composes by mode, which is A(B(i))
      // only when B's modes stay inside A's, as NVIDIA's operands do).
      if (src.rfind("cutlass/", 0) == 0 || src.rfind("NVlabs/", 0) == 0) {
        EXPECT_EQ(postconditions(op, src, c["args"], got), "") << "result " << got;
      }
    } catch (std::exception const& e) {
      ADD_FAILURE() << e.what();
    }
    ++computed;
  }
  for (auto const& [src, n] : per_src)
    std::printf("[  source  ] %4d cases from %s\n", n, src.c_str());
  std::printf("cute C++ cases: %d computed as C++ does, %d rejected as C++ does, %d documented "
              "differences\n", computed, rejected, differences);
  EXPECT_GT(computed, 550);
  EXPECT_GT(rejected, 20);
  EXPECT_LT(differences, 50);
}

}  // namespace
