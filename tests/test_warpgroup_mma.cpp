// tests/test_warpgroup_mma.cpp -- the Hopper building blocks on the host: the wgmma accumulators
// (partition_fragment_C of a TiledMMA of wgmma atoms) in the instruction's register order, the
// fused epilogue's coordinates, staged tiles, the persistent tile scheduler.
#include <gtest/gtest.h>

#include <set>
#include <utility>

#include <tessera.hpp>
#include <tessera/algorithm/fused_epilogue.hpp>
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

}  // namespace
