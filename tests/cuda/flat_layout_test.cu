// flat_layout_test.cu -- FlatLayout (tests/cuda/twins/hand_common.cuh) is the function of its
// Layout.
//
// The kernels evaluate their layouts in device code through flat(L): terms (i / div % mod) *
// stride built in the front end. This host program checks flat(L)(i) == L(i) on
//   - the layouts the ladder lowers (the TiledMMA / TiledCopy partitions of presets step1 and
//     step4, their tile coordinates), at compile time;
//   - thousands of random nested layouts (size-1 and stride-0 leaves, negative strides), for
//     every index below the size, indices past it (the last mode takes the rest) and negative
//     ones (C++ truncating division, as Layout::operator() does).
// Compiled by nvcc (common.cuh is CUDA), runs on the host: no GPU needed.
#include <cstdio>
#include <random>

#include "twins/hand_common.cuh"

using namespace tessera;
using namespace tessera::ladder;

// flat(l)(i) == l(i) for i in [lo, hi).
TESSERA_HD constexpr bool same_function(Layout const& l, int64_t lo, int64_t hi) {
  const FlatLayout f = flat(l);
  for (int64_t i = lo; i < hi; ++i)
    if (f(i) != l(i)) return false;
  return true;
}
TESSERA_HD constexpr bool same_function(Layout const& l) {
  return same_function(l, -l.size() - 3, 2 * l.size() + 3);
}
TESSERA_HD constexpr bool same_coords(TileCoords const& c, int64_t threads, int64_t values) {
  const FlatCoords f = flat(c);
  for (int64_t t = 0; t < threads; ++t)
    if (f.thr_row(t) != c.thr_row(t) || f.thr_col(t) != c.thr_col(t)) return false;
  for (int64_t v = 0; v < values; ++v)
    if (f.frg_row(v) != c.frg_row(v) || f.frg_col(v) != c.frg_col(v)) return false;
  return true;
}

// The common.cuh example: step1's C fragment rows keep two terms, the stride-0 leaves go.
constexpr FlatLayout kStep1Rows = flat(parse_layout("(1,(4,2),(4,2)):(0,(1,64),(0,0))"));
static_assert(kStep1Rows.offsets.terms == 2 && kStep1Rows.offsets.div[1] == 4 &&
              kStep1Rows.offsets.stride[1][0] == 64 && kStep1Rows.offsets.last_stride[0] == 0);
static_assert(same_function(parse_layout("(1,(4,2),(4,2)):(0,(1,64),(0,0))")));

// The partitions the kernels lower (01/02: step1; 04: step4), as the kernels build them.
constexpr bool partitions_fold(TiledMMA const& mma, Layout const& tile_mn, Layout const& tile_k,
                               int64_t rows) {
  for (Operand op : {Operand::kC, Operand::kA, Operand::kB}) {
    const Layout tile = op == Operand::kC ? tile_mn : tile_k;
    const ThreadPartition p = mma.partitioner(op, tile);
    if (!same_function(p.thread, 0, mma.threads()) || !same_function(p.fragment)) return false;
    if (!same_coords(make_coords(p.thread, p.fragment, rows), mma.threads(), p.fragment.size()))
      return false;
  }
  return true;
}
static_assert(partitions_fold(presets::step1(), Layout(make_tuple(128, 128)),
                              Layout(make_tuple(128, 8)), 128));
static_assert(partitions_fold(presets::step4(), Layout(make_tuple(128, 128)),
                              Layout(make_tuple(128, 32)), 128));

// A random layout: 1-4 top modes, each an integer or a tuple of 1-3 leaves; extents 1-5 (often
// 1), strides -8..40 (often 0).
Layout random_layout(std::mt19937& rng) {
  auto pick = [&](int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng); };
  TupleBuilder shape, stride;
  const int modes = pick(1, 4);
  for (int m = 0; m < modes; ++m) {
    if (pick(0, 2) == 0) {
      TupleBuilder s, d;
      for (int k = pick(1, 3); k > 0; --k) {
        s.add(IntTuple(pick(0, 3) == 0 ? 1 : pick(2, 5)));
        d.add(IntTuple(pick(0, 3) == 0 ? 0 : pick(-8, 40)));
      }
      shape.add(s.get());
      stride.add(d.get());
    } else {
      shape.add(IntTuple(pick(0, 3) == 0 ? 1 : pick(2, 5)));
      stride.add(IntTuple(pick(0, 3) == 0 ? 0 : pick(-8, 40)));
    }
  }
  return Layout(shape.get(), stride.get());
}

int main() {
  std::mt19937 rng(20261122);
  int checked = 0, skipped = 0;
  for (int n = 0; n < 5000; ++n) {
    const Layout l = random_layout(rng);
    int nonzero = 0;  // leaves that keep a term (FlatLayout holds kMaxTerms + the last)
    const Modes m = leaves(l);
    for (int i = 0; i + 1 < m.n; ++i) nonzero += m.d[i] != 0 && m.s[i] != 1;
    if (nonzero > FlatLayout::kMaxTerms) {
      ++skipped;
      continue;
    }
    if (!same_function(l)) {
      Text t;
      t << l;
      std::printf("FAIL: flat(%s) differs from the layout\n", t.c_str());
      return 1;
    }
    ++checked;
  }
  std::printf("PASSED: flat(L)(i) == L(i) on %d random layouts (%d over capacity skipped) and the "
              "ladder's partitions\n", checked, skipped);
  return 0;
}
