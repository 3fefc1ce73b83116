// tests/test_warpgroup_mma.cpp -- the Hopper building blocks on the host: the wgmma accumulators
// (partition_fragment_C of a TiledMMA of wgmma atoms) in the instruction's register order, the
// fused epilogue's coordinates, staged tiles, the persistent tile scheduler, the epilogue through
// shared memory (its stmatrix plan simulated against the instruction).
#include <gtest/gtest.h>

#include <set>
#include <utility>
#include <vector>

#include <tessera.hpp>
#include <tessera/algorithm/fused_epilogue.hpp>
#include <tessera/algorithm/sm90_epilogue.hpp>
#include <tessera/staged_smem.hpp>
#include <tessera/stream_k.hpp>
#include <tessera/tile_scheduler.hpp>
#include <tessera/warpgroup_mma.hpp>

using namespace tessera;

namespace {

// wgmma's D fragment (PTX ISA, "Register fragments: matrix D" of wgmma .m64nNk16, f32): lane l of
// warp w of the warpgroup holds d[i] at row 16 w + l / 4 + 8 ((i / 2) % 2), column 2 (l % 4) +
// i % 2 + 8 (i / 4).
std::pair<int64_t, int64_t> wgmma_d(int64_t thread_in_group, int64_t i) {
  const int64_t w = thread_in_group / 32, l = thread_in_group % 32;
  return {16 * w + l / 4 + 8 * ((i / 2) % 2), 2 * (l % 4) + i % 2 + 8 * (i / 4)};
}

template <int64_t kN, int kWarpgroups>
struct Sm90Cfg {
  static constexpr TiledMMA kMma =
      make_tiled_mma(atom::sm90_64xNx16(kN, false),
                     Layout(make_tuple(int64_t(kWarpgroups), 1, 1), make_tuple(1, 0, 0)));
};

template <int64_t kN, int kWarpgroups>
void check_register_order() {
  using Cfg = Sm90Cfg<kN, kWarpgroups>;
  constexpr int64_t kBM = 64 * kWarpgroups;
  const Layout tile(make_tuple(kBM, kN));
  const ThreadPartition p = Cfg::kMma.partitioner(Operand::kC, tile);
  // The fragment type ThrMMA::partition_fragment_C gives: compact over the partition's shape, so
  // value i is register i.
  constexpr Layout kFrg = warpgroup_fragment_c(Cfg::kMma);
  using F = Fragment<float, Layout(kFrg.shape)>;
  ASSERT_EQ(F::size(), kN / 2);
  for (int64_t i = 0; i < F::size(); ++i) ASSERT_EQ(F::kLayout(i), i) << "register " << i;
  for (int64_t t = 0; t < 128 * kWarpgroups; ++t)
    for (int64_t i = 0; i < kN / 2; ++i) {
      const int64_t off = p.thread(t) + p.fragment(i);
      const auto [r, c] = wgmma_d(t % 128, i);
      ASSERT_EQ(off % kBM, 64 * (t / 128) + r) << "thread " << t << " value " << i;
      ASSERT_EQ(off / kBM, c) << "thread " << t << " value " << i;
    }
  // The epilogue's coordinate tables say the same.
  using E = detail::EpilogueCoords<Cfg>;
  EXPECT_TRUE(E::column_pairs());
  for (int64_t t = 0; t < 128 * kWarpgroups; t += 7)
    for (int64_t i = 0; i < kN / 2; ++i) {
      const auto [r, c] = wgmma_d(t % 128, i);
      EXPECT_EQ(E::kThr(t)[0] + E::kFrg(i)[0], 64 * (t / 128) + r);
      EXPECT_EQ(E::kThr(t)[1] + E::kFrg(i)[1], c);
    }
}

TEST(WarpgroupMma, AccumulatorsAreTheInstructionsRegisters) {
  check_register_order<256, 2>();
  check_register_order<128, 2>();
  check_register_order<64, 1>();
}

TEST(WarpgroupMma, StagedTile) {
  constexpr StagedTile kA = make_staged_tile(16, 128, 64, true, 64, 4);
  EXPECT_EQ(kA.stage_bytes(), 16384);
  EXPECT_EQ(kA.bytes(), 4 * 16384);
  EXPECT_EQ(kA.mma.blocks[0].size(), 2);  // one 64-row block per consumer warpgroup
  EXPECT_EQ(kA.mma.blocks[1].size(), 4);  // four k-steps of 16
  EXPECT_EQ(kA.mma.block_bytes(1, 0), 8192);
  EXPECT_EQ(kA.tma.bytes(), 16384);
  constexpr StagedTile kB = make_staged_tile(16, 256, 64, true, 256, 4, 2);
  EXPECT_EQ(kB.mma.blocks[0].size(), 1);
  EXPECT_EQ(kB.tma.loaders, 2);
  // A tile wgmma cannot read is rejected with the rule.
  try {
    (void)make_staged_tile(16, 100, 64, true, 64, 4);
    FAIL() << "a 100-row tile of 8-row swizzle atoms";
  } catch (Error const& e) {
    EXPECT_NE(std::string(e.what()).find("not a whole number"), std::string::npos) << e.what();
  }
}

TEST(TileScheduler, PersistentWalkTakesEveryTileOnce) {
  for (int64_t tm : {1, 5, 16, 33})
    for (int64_t tn : {1, 3, 8, 17})
      for (int64_t workers : {1, 7, 66, 132}) {
        const PersistentTileScheduler s = make_persistent_scheduler(tm, tn, 8, workers);
        std::set<std::pair<int, int>> seen;
        int64_t count = 0;
        for (int64_t w = 0; w < workers; ++w)
          for (int32_t b = s.first(w); s.valid(b); b = s.next(b)) {
            const auto t = s.tile(b);
            ASSERT_TRUE(t.m >= 0 && t.m < tm && t.n >= 0 && t.n < tn);
            seen.insert({t.m, t.n});
            ++count;
          }
        EXPECT_EQ(count, tm * tn);
        EXPECT_EQ(int64_t(seen.size()), tm * tn);
      }
}


// SmemEpilogue's plan, simulated: every stmatrix.x4 of every warp, chunk and block group, the
// registers from the instruction's fragment (wgmma_d, not the piece's tables) and each lane's
// line address from the plan. PTX ISA stmatrix m8n8: thread t holds row t / 4, columns
// 2 (t % 4), +1 of each matrix; lane 8 i + r addresses line r of matrix i, which receives row r
// (stmatrix) or column r (.trans) of it. Every element of the staging tile must receive the value
// at its own (row, col), exactly once per chunk.
template <SwizzledLayout kStage, int kBuffers>
void check_staging_plan() {
  using Cfg = Sm90Cfg<256, 2>;
  using Epi = SmemEpilogue<Cfg, uint16_t, kStage, kBuffers>;
  const int64_t cols = Epi::kCols;
  for (int j = 0; j < Epi::kChunks; ++j) {
    std::vector<int> written(size_t(64 * cols), 0);
    for (int w = 0; w < 4; ++w)
      for (int s = 0; s < Epi::kPerChunk / 8; ++s)
        for (int lane = 0; lane < 32; ++lane) {
          const int i = lane / 8, r = lane % 8;
          const int v = Epi::kPlan.block[j][4 * s + i];
          // the line's address, as the store computes it (warp w's first row is 16 w)
          const int64_t line = kStage.swizzle(
              Epi::line_offset(16 * w + Epi::kPlan.row[v], Epi::kPlan.col[v], lane));
          for (int k = 0; k < 8; ++k) {
            // element k of the line: matrix i's (row r, column k), or (row k, column r) .trans
            const int mrow = Epi::kTrans ? k : r, mcol = Epi::kTrans ? r : k;
            const int t = 32 * w + 4 * mrow + mcol / 2;
            const auto [row, col] = wgmma_d(t, v + mcol % 2);
            ASSERT_GE(col, j * cols) << "value " << v << " of thread " << t;
            const int64_t want = kStage(make_tuple(row, col - j * cols));
            ASSERT_EQ(line + k, want) << "chunk " << j << " lane " << lane << " element " << k;
            ++written[size_t(want)];
          }
        }
    for (int64_t e = 0; e < 64 * cols; ++e) ASSERT_EQ(written[size_t(e)], 1) << "element " << e;
  }
}

TEST(SmemEpilogue, StmatrixPlanWritesEveryElementOnceWithItsValue) {
  // The Hopper example's row-major 64 x 64 chunks (stmatrix) and kernel 05's column-major
  // 64 x 32 ones (stmatrix .trans), 128-byte swizzled.
  static constexpr SwizzledLayout kRows = gmma_smem_tile(GmmaSwizzle::kB128, true, 16, 64, 64);
  static constexpr SwizzledLayout kCols = gmma_smem_tile(GmmaSwizzle::kB128, false, 16, 64, 32);
  check_staging_plan<kRows, 2>();
  check_staging_plan<kCols, 4>();
  // 64-byte swizzle, 32 columns of a row-major tile.
  static constexpr SwizzledLayout kNarrow = gmma_smem_tile(GmmaSwizzle::kB64, true, 16, 64, 32);
  check_staging_plan<kNarrow, 2>();
}

}  // namespace
