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

// One case of NVIDIA's tests with tessera's result r. pycute's tests (CUTLASS's and
// NVlabs/CuTe's) check R on R's domain, the C++ tests on B's.
struct OpCase {
  std::string const& src;
  json const& args;
  std::string const& r;
  bool pycute() const {
    return src.find("pycute") != std::string::npos || src.rfind("NVlabs/", 0) == 0;
  }
};

// NVIDIA's assertions, one function per op: "" when they hold, else the first that fails.
std::string coalesce_holds(OpCase const& c) {
  Layout l = parse_layout(text(c.args[0])), r = parse_layout(c.r);
  if (depth(r) > 1) return "depth(coalesce) > 1";
  if (size(r) != size(l)) return "size changed";
  for (int64_t i = 0; i < size(l); ++i)
    if (r(i) != l(i)) return "differs at " + std::to_string(i);
  return "";
}

std::string composition_holds(OpCase const& c) {
  if (c.args[1].is_array()) return "";  // a by-mode tiler: not A(B(i)) on whole indices
  Fn a = fn_of(text(c.args[0])), b = fn_of(text(c.args[1])), R = fn_of(c.r);
  bool check_compatible =
      c.src.find("test/unit") != std::string::npos || c.src.rfind("NVlabs/", 0) == 0;
  if (check_compatible && !compatible(shape_of(text(c.args[1])), shape_of(c.r)))
    return "B is not compatible with R";
  int64_t n = c.pycute() ? R.size : b.size;  // pycute checks R's domain, C++ B's
  for (int64_t i = 0; i < n; ++i)
    if (R(i) != a(b(i))) return "R(" + std::to_string(i) + ") != A(B(i))";
  return "";
}

std::string complement_holds(OpCase const& oc) {
  Layout l = parse_layout(text(oc.args[0])), c = parse_layout(oc.r);
  if (oc.pycute()) {  // disjoint codomains, offset 0 aside
    for (int64_t a = 0; a < size(l); ++a)
      for (int64_t b = 0; b < size(c); ++b)
        if (l(a) == c(b) && !(l(a) == 0 && c(b) == 0)) return "not disjoint";
    return "";
  }
  int64_t cotarget =
      oc.args.size() > 1 ? product(parse_int_tuple(text(oc.args[1]))) : l.cosize();
  Layout completed = make_layout(l, c);
  auto round_up = [](int64_t a, int64_t b) { return (a + b - 1) / b * b; };
  if (cosize_of(completed) < cotarget) return "(1) cosize(completed) < size(cotarget)";
  if (cosize_of(c) > round_up(cotarget, cosize_of(l))) return "(2) cosize(result) too big";
  for (int64_t i = 1; i < size(c); ++i) {
    if (!(c(i - 1) < c(i))) return "(3) not ordered";
    for (int64_t j = 0; j < size(l); ++j)
      if (c(i) == l(j)) return "(4) not disjoint";
  }
  int64_t fsize = size(filter(l));
  if (size(c) > cosize_of(c)) return "size > cosize";
  if (size(c) < cotarget / fsize) return "size(result) < size(cotarget)/size(filter)";
  if (cosize_of(completed) > cosize_of(c) + cosize_of(l)) return "cosize(completed) too big";
  if (cosize_of(c) < cotarget / fsize) return "cosize(result) too small";
  if (size(complement(completed)) != 1) return "codomain left over after completion";
  if (!(complement(complement(c, cosize_of(l)), cotarget) == c)) return "double complement";
  return "";
}

std::string inverse_holds(std::string const& op, OpCase const& c) {
  Fn l = fn_of(text(c.args[0])), inv = fn_of(c.r);
  if (op == "left_inverse") {
    for (int64_t i = 0; i < l.size; ++i)
      if (l(inv(l(i))) != l(i)) return "L(inv(L(i))) != L(i) at " + std::to_string(i);
  } else {
    for (int64_t i = 0; i < inv.size; ++i)
      if (l(inv(i)) != i) return "L(inv(i)) != i at " + std::to_string(i);
  }
  return "";
}

std::string divide_or_product_holds(std::string const& op, OpCase const& c) {
  if (c.args[1].is_array() || text(c.args[1]).find(':') == std::string::npos) return "";
  Layout R = parse_layout(c.r), b = parse_layout(text(c.args[1]));
  if (rank(R) != 2) return "rank(R) != 2";
  if (op == "logical_divide" && !compatible(b.shape, R[0].shape)) return "B !~ R<0>";
  if (op == "logical_product") {
    if (!(R[0] == parse_layout(text(c.args[0])))) return "R<0> != A";
    if (!compatible(b.shape, R[1].shape)) return "B !~ R<1>";
  }
  return "";
}

// NVlabs/CuTe: (Tile, Grid), the tile is A o tiler, and every value of A appears.
std::string zipped_divide_holds(OpCase const& c) {
  Layout A = parse_layout(text(c.args[0])), R = parse_layout(c.r);
  Layout tiler = c.args[1].is_array() ? Layout() : parse_layout(text(c.args[1]));
  if (c.args[1].is_array()) {  // by-mode: the tiler as one layout over A's first modes
    LayoutBuilder b;
    for (json const& e : c.args[1]) b.add(parse_layout(text(e)));
    tiler = b.get();
  }
  if (rank(R) != 2) return "rank(R) != 2";
  if (!compatible(tiler.shape, R[0].shape)) return "tiler !~ R<0>";
  if (!c.args[1].is_array())
    for (int64_t i = 0; i < size(tiler); ++i)
      if (R(make_tuple(i, int64_t(0))) != A(tiler(i))) return "R(i,0) != A(tiler(i))";
  std::vector<int64_t> img;
  for (int64_t j = 0; j < size(R); ++j) img.push_back(R(j));
  std::sort(img.begin(), img.end());
  for (int64_t i = 0; i < size(A); ++i)
    if (!std::binary_search(img.begin(), img.end(), A(i))) return "A(i) missing from R";
  return "";
}

std::string nullspace_holds(OpCase const& c) {
  Layout l = parse_layout(text(c.args[0])), k = parse_layout(c.r);
  if (size(k) != size(l) / size(filter(l))) return "size(ker) != size/size(filter)";
  for (int64_t i = 0; i < size(k); ++i)
    if (l(k(i)) != 0) return "L(ker(i)) != 0";
  return "";
}

// NVIDIA's assertions for one op, on tessera's result `r`; "" when all hold.
std::string postconditions(std::string const& op, std::string const& src, json const& args,
                           std::string const& r) {
  const OpCase c{src, args, r};
  if (op == "coalesce") return coalesce_holds(c);
  if (op == "composition") return composition_holds(c);
  if (op == "complement") return complement_holds(c);
  if (op == "left_inverse" || op == "right_inverse") return inverse_holds(op, c);
  if (op == "logical_divide" || op == "logical_product") return divide_or_product_holds(op, c);
  if (op == "zipped_divide") return zipped_divide_holds(c);
  if (op == "nullspace") return nullspace_holds(c);
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
