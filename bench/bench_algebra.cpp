// bench_algebra.cpp -- host speed of notation and layout algebra, on the worked examples' layouts.
//
// Every input is parsed from a string at run time, and every iteration passes the inputs through
// benchmark::DoNotOptimize first: the compiler must then assume they changed, so it can neither
// constant-fold the op (all of tessera is constexpr) nor hoist it out of the loop as invariant.
// The result goes through DoNotOptimize too, so the op cannot be dropped as dead.
//
// Target: every op under 1 us. bench/run_bench.sh builds this in Release and writes
// bench/results/host_algebra.md.
#include <benchmark/benchmark.h>

#include <string>

#include <tessera.hpp>

using namespace tessera;

namespace {

// Worked examples of tiling: a composition, a 2-D divide, a nested layout.
const char* const kA43 = "(4,3):(1,8)";
const char* const kB62 = "6:2";
const char* const kA46 = "(4,6):(1,4)";
const char* const kT23 = "(2,3)";
const char* const kNested = "((2,2),(3,2)):((1,2),(4,12))";
// The step 1 kernel: the 128x128 row-major C tile and the (16,4):(4,1) permutation per mode.
const char* const kTile = "(128,128):(128,1)";
const char* const kPerm = "((16,4):(4,1),(16,4):(4,1))";
const char* const kThr = "(16,16)";

// ---------------------------------------------------------------------------------------------
// Notation.
void BM_parse_layout(benchmark::State& st, const char* text) {
  std::string s = text;  // a run-time string, not a literal the compiler can see through
  for (auto _ : st) {
    benchmark::DoNotOptimize(s);
    Layout l = parse_layout(s);
    benchmark::DoNotOptimize(l);
  }
}
BENCHMARK_CAPTURE(BM_parse_layout, 8_1, "8:1");
BENCHMARK_CAPTURE(BM_parse_layout, example_A, kA43);
BENCHMARK_CAPTURE(BM_parse_layout, example_nested, kNested);
BENCHMARK_CAPTURE(BM_parse_layout, step1_tile, kTile);

void BM_parse_tiler(benchmark::State& st, const char* text) {
  std::string s = text;
  for (auto _ : st) {
    benchmark::DoNotOptimize(s);
    Tiler t = parse_tiler(s);
    benchmark::DoNotOptimize(t);
  }
}
BENCHMARK_CAPTURE(BM_parse_tiler, example_shape, kT23);
BENCHMARK_CAPTURE(BM_parse_tiler, step1_perm, kPerm);

// to_string goes through a Text buffer into a std::string (one allocation for long results).
void BM_to_string(benchmark::State& st, const char* text) {
  Layout l = parse_layout(text);
  for (auto _ : st) {
    benchmark::DoNotOptimize(l);
    std::string s = to_string(l);
    benchmark::DoNotOptimize(s);
  }
}
BENCHMARK_CAPTURE(BM_to_string, example_A, kA43);
BENCHMARK_CAPTURE(BM_to_string, example_nested, kNested);

// Printing into a Text only, to separate the formatting from the std::string copy.
void BM_print_text(benchmark::State& st, const char* text) {
  Layout l = parse_layout(text);
  for (auto _ : st) {
    benchmark::DoNotOptimize(l);
    Text t;
    t << l;
    benchmark::DoNotOptimize(t.n);
    benchmark::DoNotOptimize(t.s[0]);
  }
}
BENCHMARK_CAPTURE(BM_print_text, example_nested, kNested);

// ---------------------------------------------------------------------------------------------
// Algebra on layouts: op(A, B) with both parsed once, outside the timed loop.
template <class Op>
void layout_pair(benchmark::State& st, const char* a_text, const char* b_text, Op op) {
  Layout a = parse_layout(a_text), b = parse_layout(b_text);
  for (auto _ : st) {
    benchmark::DoNotOptimize(a);
    benchmark::DoNotOptimize(b);
    Layout r = op(a, b);
    benchmark::DoNotOptimize(r);
  }
}
template <class Op>
void layout_tiler(benchmark::State& st, const char* a_text, const char* t_text, Op op) {
  Layout a = parse_layout(a_text);
  Tiler t = parse_tiler(t_text);
  for (auto _ : st) {
    benchmark::DoNotOptimize(a);
    benchmark::DoNotOptimize(t);
    Layout r = op(a, t);
    benchmark::DoNotOptimize(r);
  }
}

void BM_coalesce(benchmark::State& st) {
  Layout a = parse_layout("(2,(1,6)):(1,(7,2))");
  for (auto _ : st) {
    benchmark::DoNotOptimize(a);
    Layout r = coalesce(a);
    benchmark::DoNotOptimize(r);
  }
}
BENCHMARK(BM_coalesce);

void BM_composition(benchmark::State& st) {  // (4,3):(1,8) o 6:2 = (2,3):(2,8)
  layout_pair(st, kA43, kB62, [](Layout const& a, Layout const& b) { return composition(a, b); });
}
BENCHMARK(BM_composition);

void BM_complement(benchmark::State& st) {  // complement(4:1, 12) = 3:4
  Layout a = parse_layout("4:1");
  int64_t m = std::stoll("12");
  for (auto _ : st) {
    benchmark::DoNotOptimize(a);
    benchmark::DoNotOptimize(m);
    Layout r = complement(a, m);
    benchmark::DoNotOptimize(r);
  }
}
BENCHMARK(BM_complement);

void BM_complement_2d(benchmark::State& st) {  // complement((2,2):(1,6), 24) = (3,2):(2,12)
  Layout a = parse_layout("(2,2):(1,6)");
  int64_t m = std::stoll("24");
  for (auto _ : st) {
    benchmark::DoNotOptimize(a);
    benchmark::DoNotOptimize(m);
    Layout r = complement(a, m);
    benchmark::DoNotOptimize(r);
  }
}
BENCHMARK(BM_complement_2d);

void BM_logical_divide_1d(benchmark::State& st) {  // 12:1 / 4:1 = (4,3):(1,4)
  layout_pair(st, "12:1", "4:1",
              [](Layout const& a, Layout const& b) { return logical_divide(a, b); });
}
BENCHMARK(BM_logical_divide_1d);

void BM_logical_divide_2d(benchmark::State& st) {  // = ((2,2),(3,2)):((1,2),(4,12))
  layout_tiler(st, kA46, kT23,
               [](Layout const& a, Tiler const& t) { return logical_divide(a, t); });
}
BENCHMARK(BM_logical_divide_2d);

void BM_zipped_divide_2d(benchmark::State& st) {
  layout_tiler(st, kA46, kT23, [](Layout const& a, Tiler const& t) { return zipped_divide(a, t); });
}
BENCHMARK(BM_zipped_divide_2d);

void BM_logical_product_1d(benchmark::State& st) {  // 4:1 x 3:1 = (4,3):(1,4)
  layout_pair(st, "4:1", "3:1",
              [](Layout const& a, Layout const& b) { return logical_product(a, b); });
}
BENCHMARK(BM_logical_product_1d);

void BM_logical_product_tv(benchmark::State& st) {  // T=4:1 x V=2:1 = (4,2):(1,4)
  layout_pair(st, "4:1", "2:1",
              [](Layout const& a, Layout const& b) { return logical_product(a, b); });
}
BENCHMARK(BM_logical_product_tv);

void BM_blocked_product(benchmark::State& st) {  // = ((2,3),(5,4)):((5,10),(1,30))
  layout_pair(st, "(2,5):(5,1)", "(3,4):(1,3)",
              [](Layout const& a, Layout const& b) { return blocked_product(a, b); });
}
BENCHMARK(BM_blocked_product);

void BM_raked_product(benchmark::State& st) {
  layout_pair(st, "(2,5):(5,1)", "(3,4):(1,3)",
              [](Layout const& a, Layout const& b) { return raked_product(a, b); });
}
BENCHMARK(BM_raked_product);

// ---------------------------------------------------------------------------------------------
// The step 1 kernel's partitioning: the 128x128 C tile divided by the permutation, then by the
// threads.
void BM_step1_logical_divide(benchmark::State& st) {
  layout_tiler(st, kTile, kPerm,
               [](Layout const& a, Tiler const& t) { return logical_divide(a, t); });
}
BENCHMARK(BM_step1_logical_divide);

void BM_step1_zipped_divide(benchmark::State& st) {  // zipped_divide(logical_divide(...), (16,16))
  Layout a = logical_divide(parse_layout(kTile), parse_tiler(kPerm));
  Tiler t = parse_tiler(kThr);
  for (auto _ : st) {
    benchmark::DoNotOptimize(a);
    benchmark::DoNotOptimize(t);
    Layout r = zipped_divide(a, t);
    benchmark::DoNotOptimize(r);
  }
}
BENCHMARK(BM_step1_zipped_divide);

void BM_step1_both(benchmark::State& st) {  // the two steps back to back, as partition_C does
  Layout a = parse_layout(kTile);
  Tiler perm = parse_tiler(kPerm), thr = parse_tiler(kThr);
  for (auto _ : st) {
    benchmark::DoNotOptimize(a);
    benchmark::DoNotOptimize(perm);
    benchmark::DoNotOptimize(thr);
    Layout r = zipped_divide(logical_divide(a, perm), thr);
    benchmark::DoNotOptimize(r);
  }
}
BENCHMARK(BM_step1_both);

// Evaluation, the op a kernel runs per element: L(i) on the step-1 divided tile.
void BM_eval_index(benchmark::State& st) {
  Layout a = logical_divide(parse_layout(kTile), parse_tiler(kPerm));
  int64_t i = 0;
  for (auto _ : st) {
    benchmark::DoNotOptimize(a);
    int64_t off = a(i);
    benchmark::DoNotOptimize(off);
    i = (i + 97) & 16383;
  }
}
BENCHMARK(BM_eval_index);

}  // namespace

BENCHMARK_MAIN();
