// Register fragments: slicing and views, and the views derived from the partitions (accumulator
// -> operand, accumulator -> (rows, cols), the lanes sharing a row), every element against brute
// force over every thread, for the SM80 mma.sync atoms and the SM90 wgmma atoms.
// TESSERA_DEBUG: run-time slice indices are checked (on the host: an exception).
#define TESSERA_DEBUG 1
#include <gtest/gtest.h>

#include <set>
#include <string>
#include <tessera.hpp>
#include <tessera/device_tensor.hpp>
#include <vector>

using namespace tessera;
using namespace tessera::literals;

namespace {

// ---------------------------------------------------------------------------------------------
// Fragment and FragmentView: natural coordinates, slices, make_tensor over the registers.
TEST(Fragment, CoordinatesSlicesAndViews) {
  static constexpr Layout kL = "((2,2,2),4,2):((1,2,4),8,32)"_layout;
  Fragment<int, kL> f;
  for (int64_t r = 0; r < f.kCosize; ++r) f.v[r] = int(r);
  EXPECT_EQ(f.size(), 64);
  for (int64_t i = 0; i < 64; ++i) EXPECT_EQ(f(i), kL(i));
  EXPECT_EQ(f(3, 2, 1), 3 + 16 + 32);
  auto k1 = f(_, _, 1);  // ((2,2,2),4) at register 32
  static_assert(decltype(k1)::kLayout.size() == 32 && decltype(k1)::kLayout.rank() == 2);
  for (int64_t v = 0; v < 8; ++v)
    for (int64_t m = 0; m < 4; ++m) EXPECT_EQ(k1(v, m), 32 + v + 8 * m);
  auto row = f(_, 2, _);  // ((2,2,2),2)
  for (int64_t v = 0; v < 8; ++v)
    for (int64_t k = 0; k < 2; ++k) EXPECT_EQ(row(v, k), v + 16 + 32 * k);
  auto one = f(5, _, 0);  // (4)
  for (int64_t m = 0; m < 4; ++m) EXPECT_EQ(one(m), 5 + 8 * m);
  EXPECT_EQ(f.slice<2>(1)(0, 3), 32 + 24);
  EXPECT_EQ(f(_, _, std::integral_constant<int, 1>{})(1, 1), 32 + 1 + 8);
  // Writes through a view land in the owner's registers.
  k1(7, 3) = -1;
  EXPECT_EQ(f.v[32 + 7 + 24], -1);
  // The same registers through another layout: (8,8) row-major.
  auto t = make_tensor<"(8,8):(8,1)"_layout>(f.data());
  EXPECT_EQ(&t(1, 2), &f.v[10]);
  static_assert(std::is_same_v<decltype(t), FragmentView<int, "(8,8):(8,1)"_layout>>);
  // make_fragment_like / make_fragment: compact column-major of the shape.
  auto g = make_fragment_like(k1);
  static_assert(decltype(g)::kLayout == Layout(k1.kLayout.shape) && decltype(g)::kCosize == 32);
  auto h = make_fragment<float, "(1,(4,2),(4,2))"_tuple>();
  static_assert(decltype(h)::kLayout == Layout("(1,(4,2),(4,2))"_tuple) &&
                decltype(h)::kCosize == 64);
  clear(h);
  for (int64_t i = 0; i < h.size(); ++i) EXPECT_EQ(h(i), 0.0f);
  // reduce over a mode: (V,M,K) -> (V,K) sums over M.
  auto s = reduce<1>(f, [](int a, int b) { return a + b; });
  static_assert(decltype(s)::kLayout == Layout("((2,2,2),2)"_tuple));
  for (int64_t v = 0; v < 8; ++v)
    for (int64_t k = 0; k < 2; ++k) {
      int want = 0;
      for (int64_t m = 0; m < 4; ++m) want += f(v, m, k);
      EXPECT_EQ(s(v, k), want);
    }
}

TEST(Fragment, RunTimeSliceOutsideItsModeIsAnError) {
  auto a = make_fragment<float, "(1,8,2)"_tuple>();  // (V,M,K)
  clear(a);
  volatile int k = 2;
  try {
    a(_, _, int(k));
    ADD_FAILURE() << "k-block 2 of 2 was sliced";
  } catch (Error const& e) {
    EXPECT_STREQ(e.what(), "fragment: a slice index is outside its mode");
  }
  EXPECT_EQ(a(_, _, 1)(0, 7), 0.0f);
}

// ---------------------------------------------------------------------------------------------
// The configurations: an accumulator TiledMMA and the TiledMMA reading it as A, over a tile.
struct Case {
  std::string name;
  TiledMMA c, a;
  Layout tile;
};

Layout tile_of(int64_t m, int64_t n) { return Layout(make_tuple(m, n)); }

std::vector<Case> cases() {
  const Layout warps_m = Layout("(4,1,1)"_tuple);
  // tf32 A holds columns t0, t0+4 of a k-block where C holds 2 t0, 2 t0+1: a K permutation of
  // the second MMA, (4,2):(2,1), makes them the same (K is summed over: any order is the product).
  const Tiler perm_k8 = make_tile(_, _, "(4,2):(2,1)"_layout);
  std::vector<Case> r;
  for (auto [name, atom] : {std::pair{"sm80 f16", atom::sm80_16x8x16_f32f16()},
                            std::pair{"sm80 bf16", atom::sm80_16x8x16_f32bf16()}}) {
    const TiledMMA mma = make_tiled_mma(atom, warps_m);
    r.push_back(Case{name, mma, mma, tile_of(64, 64)});
    r.push_back(Case{std::string(name) + " 64x128", mma, mma, tile_of(64, 128)});
  }
  const TiledMMA tf32 = make_tiled_mma(atom::sm80_16x8x8_f32tf32(), warps_m);
  r.push_back(Case{"sm80 tf32", tf32, make_tiled_mma(atom::sm80_16x8x8_f32tf32(), warps_m, perm_k8),
                   tile_of(64, 64)});
  for (int64_t n : {64, 128, 256}) {
    const TiledMMA c = make_tiled_mma(atom::sm90_64xNx16(n, false), Layout("(1,1,1)"_tuple));
    r.push_back(Case{"sm90 f16 n" + std::to_string(n), c,
                     make_tiled_mma(atom::sm90_64xNx16(64, true), Layout("(1,1,1)"_tuple)),
                     tile_of(64, n)});
    r.push_back(Case{"sm90 tf32 n" + std::to_string(n), c,
                     make_tiled_mma(atom::sm90_64xNx8_tf32(64, true), Layout("(1,1,1)"_tuple),
                                    make_tile(_, _, "(4,2):(2,1)"_layout)),
                     tile_of(64, n)});
  }
  return r;
}

// Tile coordinate (row, col) of thread t's value i of a partition over `tile`.
std::pair<int64_t, int64_t> coord(ThreadPartition const& p, Layout const& tile, int64_t t,
                                  int64_t i) {
  const int64_t idx = p.thread(t) + p.fragment(i), bm = tile[0].size();
  return {idx % bm, idx / bm};
}

TEST(FragmentViews, AccumulatorAsOperandEveryElement) {
  for (Case const& c : cases()) {
    SCOPED_TRACE(c.name);
    const ThreadPartition pc = c.c.partitioner(Operand::kC, c.tile),
                          pa = c.a.partitioner(Operand::kA, c.tile);
    const Layout regs(pc.fragment.shape);  // partition_fragment_C: compact
    const Layout view = acc_as_operand(c.c, c.a, c.tile, regs);
    EXPECT_EQ(view.shape, pa.fragment.shape);
    std::set<int64_t> used;
    for (int64_t j = 0; j < view.size(); ++j) used.insert(view(j));
    EXPECT_EQ(int64_t(used.size()), regs.size());  // every accumulator read once
    for (int64_t t = 0; t < c.c.threads(); ++t)
      for (int64_t j = 0; j < view.size(); ++j)
        ASSERT_EQ(coord(pc, c.tile, t, view(j)), coord(pa, c.tile, t, j))
            << "thread " << t << " value " << j;
  }
}

TEST(FragmentViews, FlashAttentionShapes) {
  // SM80 m16n8k16, 4 warps along M, S tile 64x64: C ((2,2),1,8) read as A ((2,2,2),1,4), each
  // A value j = (v0,v1,v2) the accumulator v0 + 2 v1 + 4 (2 k + v2) (convert_layout_acc_Aregs).
  const TiledMMA mma = make_tiled_mma(atom::sm80_16x8x16_f32f16(), Layout("(4,1,1)"_tuple));
  const Layout view = acc_as_operand(mma, mma, tile_of(64, 64), Layout("((2,2),1,8)"_tuple));
  EXPECT_EQ(to_string(view), "((2,2,2),1,4):((1,2,4),0,8)");
  // Rows v1 (M = 1 drops out), columns (v0, n).
  EXPECT_EQ(to_string(acc_rowcol(mma, tile_of(64, 64), Layout("((2,2),1,8)"_tuple))),
            "(2,(2,8)):(2,(1,4))");
  const LaneShuffles x = row_shuffles(mma, tile_of(64, 64));
  ASSERT_EQ(x.n, 2);
  EXPECT_EQ(x.xor_mask[0], 1);
  EXPECT_EQ(x.xor_mask[1], 2);
}

TEST(FragmentViews, RowColEveryElementAndLanes) {
  for (Case const& c : cases()) {
    SCOPED_TRACE(c.name);
    const ThreadPartition pc = c.c.partitioner(Operand::kC, c.tile);
    const Layout regs(pc.fragment.shape);
    const Layout rc = acc_rowcol(c.c, c.tile, regs);
    ASSERT_EQ(rc.rank(), 2);
    const int64_t nr = rc[0].size(), nc = rc[1].size();
    ASSERT_EQ(nr * nc, regs.size());
    std::set<int64_t> used;
    std::vector<std::set<int64_t>> rows(size_t(c.c.threads()));
    for (int64_t t = 0; t < c.c.threads(); ++t) {
      for (int64_t r = 0; r < nr; ++r)
        for (int64_t k = 0; k < nc; ++k) {
          const auto [row, col] = coord(pc, c.tile, t, rc(r, k));
          ASSERT_EQ(row, coord(pc, c.tile, t, rc(r, 0)).first)
              << "thread " << t << " (" << r << ',' << k << ')';
          ASSERT_EQ(col, coord(pc, c.tile, t, rc(0, k)).second)
              << "thread " << t << " (" << r << ',' << k << ')';
          if (r > 0) {
            ASSERT_GT(row, coord(pc, c.tile, t, rc(r - 1, k)).first);
          }
          if (k > 0) {
            ASSERT_GT(col, coord(pc, c.tile, t, rc(r, k - 1)).second);
          }
          if (t == 0) used.insert(rc(r, k));
          rows[size_t(t)].insert(row);
        }
    }
    EXPECT_EQ(int64_t(used.size()), regs.size());
    // The lanes sharing thread t's rows are exactly t xor the closure of the shuffle distances,
    // and together they hold every column of those rows.
    const LaneShuffles x = row_shuffles(c.c, c.tile);
    for (int64_t t = 0; t < c.c.threads(); ++t) {
      std::set<int64_t> group = {t};
      for (int s = 0; s < x.n; ++s)
        for (int64_t u : std::set<int64_t>(group)) group.insert(u ^ x.xor_mask[s]);
      std::set<int64_t> sharing, cols;
      for (int64_t u = 0; u < c.c.threads(); ++u) {
        if (rows[size_t(u)] == rows[size_t(t)]) {
          sharing.insert(u);
          continue;
        }
        for (int64_t row : rows[size_t(u)]) {
          ASSERT_EQ(rows[size_t(t)].count(row), 0u) << "rows split unevenly";
        }
      }
      ASSERT_EQ(group, sharing) << "thread " << t;
      for (int64_t u : group)
        for (int64_t i = 0; i < regs.size(); ++i) cols.insert(coord(pc, c.tile, u, i).second);
      ASSERT_EQ(int64_t(cols.size()), c.tile[1].size()) << "thread " << t;
    }
  }
}

TEST(FragmentViews, CopyRowShuffles) {
  // A row-softmax copy: 128-bit loads of floats, 32 threads per row of 128 floats, 4 rows.
  const TiledCopy copy = make_tiled_copy_tv(atom::universal_copy(128, 32), "(4,32):(32,1)"_layout,
                                            "(1,4):(0,1)"_layout);
  const Layout tile = tile_of(4, 128);
  const LaneShuffles x = row_shuffles(copy, tile);
  ASSERT_EQ(x.n, 5);
  for (int s = 0; s < 5; ++s) EXPECT_EQ(x.xor_mask[s], 1 << s);
}

TEST(FragmentViews, RulesAreNamed) {
  // Warps along N own different columns of C but (A spans no N) the same rows of A.
  const TiledMMA step4 = presets::step4();
  try {
    acc_as_operand(step4, step4, tile_of(64, 64), Layout("((2,2),2,4)"_tuple));
    ADD_FAILURE() << "an accumulator shared by warps along N was read as A";
  } catch (Error const& e) {
    EXPECT_NE(std::string(e.what()).find(
                  "acc_as_operand: a thread must hold as the operand exactly the elements"),
              std::string::npos)
        << e.what();
  }
  // tf32 without the K permutation: C columns 2 t0, 2 t0+1, A columns t0, t0+4.
  const TiledMMA tf32 = make_tiled_mma(atom::sm80_16x8x8_f32tf32(), Layout("(4,1,1)"_tuple));
  EXPECT_THROW(acc_as_operand(tf32, tf32, tile_of(64, 64), Layout("((2,2),1,8)"_tuple)), Error);
  // A row spread over warps: step4's warps along N.
  try {
    row_shuffles(step4, tile_of(64, 64));
    ADD_FAILURE() << "a row reduction across warps was accepted";
  } catch (Error const& e) {
    EXPECT_NE(std::string(e.what()).find("a reduction across warps is not supported"),
              std::string::npos)
        << e.what();
  }
}

}  // namespace
