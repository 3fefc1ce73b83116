// tests/test_stream_k.cpp -- kernel 05's work schedule (kernels/gemm/stream_k.hpp), walked on the
// host for every cluster as the kernel walks it: every (tile, k-tile) computed exactly once, every
// piece that is not a tile's owner is the first segment of its cluster's range and is added by
// exactly one owner, the owners' waits form no cycle, and the schedule takes stream-K exactly
// where whole tiles leave the last wave ragged; kernel 03's split of K (SimtSplit); and the C tile
// widths both kernels take per problem (kernels/gemm/plan.hpp).
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <string>
#include <vector>

#include "../kernels/gemm/plan.hpp"
#include "../kernels/gemm/stream_k.hpp"

namespace {

using tessera::ladder::FastDiv;
using tessera::ladder::GroupedOrder;
using tessera::ladder::make_simt_split;
using tessera::ladder::make_stream_k;
using tessera::ladder::Segment;
using tessera::ladder::simt_tile;
using tessera::ladder::SimtSplit;
using tessera::ladder::StreamK;
using tessera::ladder::Walk;
using tessera::ladder::wgmma_k_tiles;
using tessera::ladder::wgmma_tile;
using tessera::ladder::WgmmaTile;

// What the kernel's clusters do with schedule w; the failures as text (empty: all well).
std::string simulate(StreamK const& w) {
  std::vector<int> done(size_t(w.tiles * w.k_tiles), 0);
  std::map<int64_t, int64_t> piece_of;  // cluster -> tile of its non-owner piece
  std::map<int64_t, int> added;         // cluster -> times its piece was added by an owner
  std::string fail;
  auto say = [&](std::string const& s) {
    if (fail.empty())
      fail = s + " (tiles " + std::to_string(w.tiles) + ", k_tiles " + std::to_string(w.k_tiles) +
             ", clusters " + std::to_string(w.clusters) + ")";
  };
  std::vector<std::vector<int64_t>> waits(size_t(w.clusters));
  for (int64_t g = 0; g < w.clusters; ++g) {
    const Walk walk = w.walk(g);
    int segments = 0;
    for (Segment s = w.first(walk); s.valid(); s = w.next(walk, s)) {
      if (++segments > 1000000) return "a walk does not end";
      if (s.tile >= w.tiles || s.k_begin >= s.k_end || s.k_end > w.k_tiles)
        say("a segment out of range");
      for (int64_t k = s.k_begin; k < s.k_end && s.tile < w.tiles; ++k)
        ++done[size_t(s.tile * w.k_tiles + k)];
      if (!s.owner()) {
        // only the first stream-K segment of a range may be a piece
        const Segment f = walk.streamed;
        if (f.tile != s.tile || f.k_begin != s.k_begin || piece_of.count(g))
          say("a piece that is not a range's first segment");
        piece_of[g] = s.tile;
        continue;
      }
      // an owner adds clusters g+1 .. last_piece(s): their pieces must cover k_end .. k_tiles
      int64_t covered = s.k_end;
      for (int64_t q = g + w.piece_stride(); q <= w.last_piece(walk, s); q += w.piece_stride()) {
        const Segment p = w.walk(q).streamed;
        if (!p.valid() || p.tile != s.tile || p.k_begin != covered)
          say("an owner adds a piece that does not continue its tile");
        covered = p.k_end;
        ++added[q];
        waits[size_t(g)].push_back(q);
      }
      if (covered != w.k_tiles) say("an owner's tile is not complete");
    }
  }
  for (size_t i = 0; i < done.size(); ++i)
    if (done[i] != 1)
      say("iteration " + std::to_string(i) + " computed " + std::to_string(done[i]) + " times");
  for (auto const& [g, tile] : piece_of)
    if (added[g] != 1)
      say("the piece of cluster " + std::to_string(g) + " added " + std::to_string(added[g]) +
          " times");
  // Deadlock freedom: an owner waits only for later clusters, whose pieces come first in their
  // walks.
  for (int64_t g = 0; g < w.clusters; ++g)
    for (int64_t q : waits[size_t(g)]) {
      if (q <= g) say("an owner waits for an earlier cluster");
      if (!piece_of.count(q)) say("an owner waits for a cluster without a piece");
    }
  return fail;
}

TEST(StreamK, EveryIterationOnceForManyProblems) {
  int streamed = 0, whole = 0, split = 0;
  for (int64_t clusters : {1, 2, 3, 7, 33, 66, 57})
    for (int64_t tiles : {1, 2, 5, 16, 32, 64, 65, 66, 67, 100, 131, 132, 144, 200, 400, 401})
      for (int64_t k_tiles : {1, 2, 3, 8, 16, 32, 64, 255, 1000}) {
        const StreamK w = make_stream_k(tiles, k_tiles, clusters);
        (w.splits > 1 ? split : w.streams() ? streamed : whole)++;
        if (w.splits > 1) {
          EXPECT_LE(w.clusters, clusters);
        }
        const std::string fail = simulate(w);
        ASSERT_TRUE(fail.empty()) << fail;
      }
  EXPECT_GT(streamed, 100);  // both kinds of schedule occur in the sweep
  EXPECT_GT(whole, 100);
  EXPECT_GT(split, 50);
}

TEST(StreamK, AnySplitPointIsConsistent) {
  // Hand-made schedules, including ones make_stream_k does not pick (dp_tiles not a multiple of
  // the clusters is still a valid walk as long as every stream-K range is non-empty).
  for (int64_t dp : {0, 3, 6})
    for (int64_t k_tiles : {1, 4, 9}) {
      StreamK w{10, k_tiles, 3, dp};
      const std::string fail = simulate(w);
      EXPECT_TRUE(fail.empty()) << fail;
    }
}

TEST(StreamK, TheCheckSeesABrokenSchedule) {
  // Fewer stream-K iterations than clusters leaves empty ranges, which the walk does not allow
  // (make_stream_k never picks it): the simulation must notice.
  EXPECT_FALSE(simulate(StreamK{1, 2, 5, 0}).empty());
}

TEST(StreamK, Choice) {
  // Stream-K's worked example (a schedule make_stream_k leaves to split-K): 16 cluster tiles of
  // 16 k-tiles on 66 clusters, all streamed.
  StreamK w{16, 16, 66, 0};
  EXPECT_TRUE(w.streams());
  EXPECT_EQ(w.begin(1), 3);
  EXPECT_EQ(w.begin(4), 15);
  EXPECT_EQ(w.last_piece(w.walk(0), w.first(w.walk(0))), 4);  // tile 0: clusters 1-4 hold the rest
  // 1024 x 1024 x 16384 f16: 16 tiles of 256 k-tiles: split-K 4 ways on 64 clusters; tile 3's
  // owner is cluster 3, its pieces clusters 19, 35, 51.
  w = make_stream_k(16, 256, 66);
  EXPECT_EQ(w.splits, 4);
  EXPECT_EQ(w.clusters, 64);
  EXPECT_EQ(w.piece_stride(), 16);
  EXPECT_EQ(w.last_piece(w.walk(3), w.first(w.walk(3))), 51);
  EXPECT_EQ(w.first(w.walk(35)).k_begin, 128);
  // 1024^3 f16: 16 k-tiles are too few to split (2 splits of 8) or stream (3.9 per cluster).
  EXPECT_EQ(make_stream_k(16, 16, 66).splits, 1);
  EXPECT_FALSE(make_stream_k(16, 16, 66).streams());
  // 2048 x 2048 x 4096 f16: 64 tiles of 64 k-tiles fill 64 of 66 clusters: whole tiles.
  EXPECT_FALSE(make_stream_k(64, 64, 66).streams());
  // 1024 x 1024 x 2048: 32 k-tiles, too few for 2 splits of at least 32 (wgmma_tile gives such
  // a problem narrow tiles instead); 1024 x 1024 x 4096: 64 k-tiles, 2 splits of 32.
  EXPECT_EQ(make_stream_k(16, 32, 66).splits, 1);
  EXPECT_EQ(make_stream_k(16, 64, 66).splits, 2);
  EXPECT_EQ(make_stream_k(16, 64, 66).clusters, 32);
  // 3072 x 3072 x 8192: 144 tiles, 2.18 waves: the partial wave's 12 tiles streamed (23-24
  // k-tiles per cluster).
  w = make_stream_k(144, 128, 66);
  EXPECT_EQ(w.splits, 1);
  EXPECT_EQ(w.dp_tiles, 132);
  // One wave (more than half the clusters, at most all): streamed only where that shortens it
  // by a third (clusters >= 1.5 tiles) with ranges of at least kMinWaveRange k-tiles.
  //   1536 x 1536 x 12288 f16: 36 tiles of 192 k-tiles, ranges of ~105: all streamed;
  w = make_stream_k(36, 192, 66);
  EXPECT_TRUE(w.streams());
  EXPECT_EQ(w.dp_tiles, 0);
  //   40 tiles of 64 k-tiles (ranges of ~39), and 3584 x 512 x 18944 (56 tiles of 296: the wave
  //   only 1.18x shorter): whole tiles.
  EXPECT_FALSE(make_stream_k(40, 64, 66).streams());
  EXPECT_FALSE(make_stream_k(56, 296, 66).streams());
  // The edges: 44 tiles (66 clusters = 1.5 x 44) of 96 k-tiles (ranges of 64) are streamed; of
  // 95 k-tiles, or 45 tiles of any length, they run whole.
  EXPECT_TRUE(make_stream_k(44, 96, 66).streams());
  EXPECT_FALSE(make_stream_k(44, 95, 66).streams());
  EXPECT_FALSE(make_stream_k(45, 1000, 66).streams());
  // 5120 x 5120 x 4096: 400 tiles, 6.06 waves: 5 waves whole, 70 tiles streamed.
  w = make_stream_k(400, 64, 66);
  EXPECT_TRUE(w.streams());
  EXPECT_EQ(w.dp_tiles, 330);
  // 4096^3 (256 tiles, 3.9 waves: 3% idle) and 16384^3: whole tiles.
  EXPECT_FALSE(make_stream_k(256, 64, 66).streams());
  EXPECT_FALSE(make_stream_k(4096, 256, 66).streams());
  EXPECT_FALSE(make_stream_k(64, 32, 66).streams());  // 2048^3: 64 tiles on 66 clusters
  // Too little work to split (fewer than 16 k-tiles per cluster): whole tiles.
  EXPECT_FALSE(make_stream_k(4, 8, 66).streams());
  EXPECT_FALSE(make_stream_k(0, 8, 66).streams());
  EXPECT_FALSE(make_stream_k(16, 16, 1).streams());
}

// Kernel 03's split of K on the H100's 264 CTA slots (2 per SM), as its plan reports it.
TEST(SimtSplit, WorkedExamples) {
  // 64 x 4096 x 4096: 32 tiles of 128 x 128, 128 k-tiles of 32: 8 splits of 16 (one wave).
  SimtSplit s = make_simt_split(32, 128, 264);
  EXPECT_EQ(s.splits, 8);
  EXPECT_EQ(s.k_tiles_per_split, 16);
  EXPECT_EQ(s.bytes(64, 4096), 8 * 64 * 4096 * 4);
  // 1024 x 1024 x 16384: 64 tiles, 512 k-tiles: 4 splits of 128.
  s = make_simt_split(64, 512, 264);
  EXPECT_EQ(s.splits, 4);
  EXPECT_EQ(s.k_tiles_per_split, 128);
  // 2 tiles of 4096 k-tiles (e.g. 256 x 128 x 131072): 132 splits would fit, 16 at most.
  EXPECT_EQ(make_simt_split(2, 4096, 264).splits, SimtSplit::kMaxSplits);
  // 10 tiles of 30 k-tiles: 26 splits would fit, 7 keep 4 k-tiles each: ranges of 5, so 6 splits
  // (7 of 5 would leave the last one empty).
  s = make_simt_split(10, 30, 264);
  EXPECT_EQ(s.k_tiles_per_split, 5);
  EXPECT_EQ(s.splits, 6);
  // K whole: the tiles fill the GPU (4096^3: 1024 tiles), K too short (64 x 64 x 100: 4
  // k-tiles), no GPU known (resident 0), one slot.
  for (SimtSplit w : {make_simt_split(1024, 128, 264), make_simt_split(1, 4, 264),
                      make_simt_split(32, 128, 0), make_simt_split(1, 128, 1)}) {
    EXPECT_EQ(w.splits, 1);
    EXPECT_EQ(w.bytes(64, 64), 0);
  }
  EXPECT_EQ(make_simt_split(1024, 128, 264).k_tiles_per_split, 128);
}

// Over a sweep of problems: the splits' k-ranges, as the kernel walks them (split y: [y * per,
// min((y + 1) * per, k_tiles))), cover every k-tile exactly once and none is empty; a split runs
// at least kMinKTiles k-tiles; tiles x splits fit in one wave.
TEST(SimtSplit, EveryKTileOnceInOneWave) {
  int checked = 0;
  for (int64_t resident : {0, 1, 132, 264, 528})
    for (int64_t tiles = 1; tiles <= 300; tiles += 7)
      for (int64_t k_tiles = 1; k_tiles <= 700; k_tiles += 13) {
        const SimtSplit s = make_simt_split(tiles, k_tiles, resident);
        const std::string at = std::to_string(tiles) + " tiles, " + std::to_string(k_tiles) +
                               " k-tiles, " + std::to_string(resident) + " slots";
        ASSERT_GE(s.splits, 1) << at;
        ASSERT_LE(s.splits, SimtSplit::kMaxSplits) << at;
        std::vector<int> hit(size_t(k_tiles), 0);
        for (int64_t y = 0; y < s.splits; ++y) {
          const int64_t begin = y * s.k_tiles_per_split;
          const int64_t end =
              k_tiles - begin < s.k_tiles_per_split ? k_tiles : begin + s.k_tiles_per_split;
          ASSERT_LT(begin, end) << "empty split " << y << ": " << at;
          for (int64_t kt = begin; kt < end; ++kt) ++hit[size_t(kt)];
        }
        for (int64_t kt = 0; kt < k_tiles; ++kt)
          ASSERT_EQ(hit[size_t(kt)], 1) << "k-tile " << kt << ": " << at;
        if (s.splits > 1) {
          EXPECT_GE(s.k_tiles_per_split, SimtSplit::kMinKTiles) << at;
          EXPECT_LE(tiles * s.splits, resident) << at;
        } else {
          EXPECT_EQ(s.k_tiles_per_split, k_tiles) << at;
        }
        ++checked;
      }
  EXPECT_GT(checked, 10000);
}

// Kernel 05's tile on an H100 (66 clusters of 2 CTAs). Skinny problems: 64 columns up to 128,
// 64 or 128 up to 256 (whether the 64-column cluster tiles fit in one wave). Problems whose wide
// cluster tiles fill at most half the clusters: 128 columns where they fill more than half in one
// wave or spare the wide tiles a split of K, else 64 columns. The skinny problems' narrow
// tiles are swapped where m < n (the small side along the tile's N) unless m fills the rows of one
// cluster and B is read where it lies; the small problems' are not swapped.
TEST(WgmmaTile, Choice) {
  constexpr int64_t kClusters = 66;
  auto tile = [](int64_t m, int64_t n, int64_t k,
                 int64_t bytes) {  // bytes 2: f16 (short tile), 4: tf32
    const WgmmaTile t = wgmma_tile(m, n, wgmma_k_tiles(k, bytes), kClusters, bytes == 2);
    return std::to_string(t.bn) + (t.transposed ? " swapped" : "");
  };
  EXPECT_EQ(wgmma_k_tiles(1024, 2), 16);
  EXPECT_EQ(wgmma_k_tiles(1024, 4), 32);
  EXPECT_EQ(wgmma_k_tiles(999, 4), 32);
  // Skinny.
  EXPECT_EQ(tile(8192, 16, 8192, 2), "64");
  EXPECT_EQ(tile(16, 8192, 8192, 2), "64 swapped");
  EXPECT_EQ(tile(4096, 256, 4096, 2), "64");   // 16 x 4 = 64 cluster tiles of 64 columns
  EXPECT_EQ(tile(8192, 256, 8192, 2), "128");  // 32 x 4 = 128 > 66
  EXPECT_EQ(tile(4096, 256, 4096, 4), "128");  // tf32: 128 columns from 129 whatever the wave
  EXPECT_EQ(tile(256, 4096, 4096, 4), "128");  // m fills a cluster's rows (2 x 128): as given
  EXPECT_EQ(tile(200, 4096, 4096, 4), "128 swapped");  // not a multiple of 32
  // tf32 with B MN-major (packed in B's role; in A's role it goes through registers): transposed.
  EXPECT_TRUE(wgmma_tile(256, 4096, wgmma_k_tiles(4096, 4), kClusters, false, false).transposed);
  EXPECT_EQ(tile(4096, 128, 4096, 4), "64");
  // 1024^3 f16: 16 wide cluster tiles, 16 k-tiles (no split): 128 columns give 32 (not more than
  // half), 64 columns 64 (one wave).
  EXPECT_EQ(tile(1024, 1024, 1024, 2), "64");
  EXPECT_EQ(tile(1000, 1000, 1000, 2), "64");
  // tf32: 32 k-tiles, no split either.
  EXPECT_EQ(tile(1024, 1024, 1024, 4), "64");
  // 777 x 1333 x 999 f16: 24 wide cluster tiles; 128 columns: 4 x 11 = 44 in one wave, not
  // transposed (m < n).
  EXPECT_EQ(tile(777, 1333, 999, 2), "128");
  EXPECT_EQ(tile(1024, 2048, 1024, 2), "128");  // 4 x 16 = 64
  EXPECT_EQ(tile(2048, 1024, 1024, 2), "128");  // 8 x 8 = 64
  EXPECT_EQ(tile(777, 1333, 999, 4), "128");
  // Long K: the wide tiles would split K 4 ways, the 128 columns (32 cluster tiles) 2 ways.
  EXPECT_EQ(tile(1024, 1024, 16384, 2), "128");
  EXPECT_EQ(tile(1024, 1024, 4096, 4), "128");
  // The wide tiles fill more than half the GPU: 2048^3 (64 cluster tiles), 1536^3 (36).
  EXPECT_EQ(tile(2048, 2048, 2048, 2), "256");
  EXPECT_EQ(tile(1536, 1536, 1536, 2), "256");
  EXPECT_EQ(tile(4096, 4096, 4096, 2), "256");
  // Small problems: the 64 columns where they fit in one wave (512^3: 2 x 8 = 16 cluster tiles).
  EXPECT_EQ(tile(512, 512, 512, 2), "64");
  // No GPU (0 clusters): wide unless skinny.
  EXPECT_EQ(wgmma_tile(1024, 1024, 16, 0).bn, 256);
  EXPECT_EQ(wgmma_tile(1024, 16, 16, 0).bn, 64);
}

// The short tile (64 x 64, f16 and bf16: has_short) for skinny problems with a side of at least
// 16 whose cluster tiles of 64 rows fit in one wave of 66 clusters; else the tile above.
TEST(WgmmaTile, ShortTile) {
  constexpr int64_t kClusters = 66;
  auto tile = [](int64_t m, int64_t n, int64_t k, bool has_short = true) {
    const WgmmaTile t = wgmma_tile(m, n, wgmma_k_tiles(k, 2), kClusters, has_short);
    return std::to_string(t.bm) + " x " + std::to_string(t.bn) + (t.transposed ? " swapped" : "");
  };
  // 64 rows of 64: 32 x 2 = 64 cluster tiles; m = 128 fills the rows of one cluster of short
  // tiles, so as given (the cluster's CTAs share B's tile).
  EXPECT_EQ(tile(128, 4096, 4096), "64 x 64");
  EXPECT_EQ(tile(96, 4096, 4096), "64 x 64");
  EXPECT_TRUE(wgmma_tile(128, 4096, wgmma_k_tiles(4096, 2), kClusters, true).cluster_shares_b);
  EXPECT_FALSE(
      wgmma_tile(4096, 128, wgmma_k_tiles(4096, 2), kClusters, true).cluster_shares_b);  // n small
  // The short tile more than half full along the n it runs: whole tiles (wgmma_schedule).
  EXPECT_TRUE(
      wgmma_tile(4096, 64, wgmma_k_tiles(4096, 2), kClusters, true).short_over_half_full(64));
  EXPECT_FALSE(
      wgmma_tile(4096, 32, wgmma_k_tiles(4096, 2), kClusters, true).short_over_half_full(32));
  EXPECT_EQ(tile(4096, 128, 4096), "64 x 64");
  EXPECT_EQ(tile(16, 4096, 4096), "64 x 64 swapped");  // 32 cluster tiles
  EXPECT_EQ(tile(64, 8192, 8192), "64 x 64 swapped");  // 64
  EXPECT_EQ(tile(8192, 64, 8192), "64 x 64");
  EXPECT_EQ(tile(8192, 66, 8192), "128 x 64");
  EXPECT_EQ(tile(4224, 128, 4096), "64 x 64");           // 33 x 2 = 66: one wave, just
  EXPECT_EQ(tile(4225, 128, 4096), "128 x 64");          // 34 x 2 = 68
  EXPECT_EQ(tile(128, 8192, 8192), "128 x 64 swapped");  // 64 x 2 = 128 > 66
  EXPECT_EQ(tile(256, 4096, 4096), "128 x 64");  // 32 x 4 = 128 > 66; 2 x 128 rows: as given
  EXPECT_EQ(tile(200, 4096, 4096), "128 x 64 swapped");  // m not a multiple of 32
  EXPECT_EQ(tile(192, 8192, 8192), "128 x 128");
  EXPECT_EQ(tile(8192, 256, 8192), "128 x 128");
  EXPECT_EQ(tile(15, 4096, 4096), "128 x 64 swapped");  // below kShortMinSmall
  EXPECT_EQ(tile(1, 4096, 4096), "128 x 64 swapped");
  EXPECT_EQ(tile(1024, 1024, 1024), "128 x 64");                // small, not skinny: the rule above
  EXPECT_EQ(tile(128, 4096, 4096, false), "128 x 64 swapped");  // tf32: no short tile
  EXPECT_EQ(wgmma_tile(128, 4096, 64, 0, true).bm, 128);        // no GPU: no wave to fit in
}

// FastDiv against the division it replaces: divisors 1-300 and 2^b - 3, - 1, + 0, + 1, + 7 for
// b = 9-31, each against the dividends 0-299, the same 2^b values, 2^31 - 1, and the dividends
// next to 1, 2 and 1000 times the divisor.
TEST(FastDiv, MatchesDivision) {
  std::vector<uint32_t> ds, ns;
  for (uint32_t v = 1; v <= 300; ++v) ds.push_back(v), ns.push_back(v - 1);
  for (int b = 9; b <= 31; ++b)
    for (int64_t e : {-3, -1, 0, 1, 7}) {
      const int64_t v = (int64_t(1) << b) + e;
      if (v >= 1 && v < (int64_t(1) << 31)) ds.push_back(uint32_t(v)), ns.push_back(uint32_t(v));
    }
  ns.push_back(0x7fffffffu);
  for (uint32_t d : ds) {
    const FastDiv f(d);
    for (uint32_t n : ns) ASSERT_EQ(f.div(n), n / d) << n << " / " << d;
    for (uint32_t q : {uint32_t(1), uint32_t(2), uint32_t(1000)})  // around multiples of d
      for (int64_t e : {-1, 0, 1}) {
        const int64_t n = int64_t(q) * d + e;
        if (n >= 0 && n < (int64_t(1) << 31)) {
          ASSERT_EQ(f.div(uint32_t(n)), uint32_t(n) / d) << n << " / " << d;
        }
      }
  }
  static_assert(FastDiv(3).mul == 1431655766u && FastDiv(3).div(7) == 2, "the worked example");
}

// GroupedOrder against the grouped order's definition (groups of group_m tile-rows, column by
// column inside a group): every tile once, each where the definition puts it.
TEST(GroupedOrder, MatchesDefinition) {
  for (int64_t tiles_m : {1, 2, 3, 5, 8, 9, 16, 17, 33, 64})
    for (int64_t tiles_n : {1, 2, 3, 7, 16, 31})
      for (int64_t group_m : {1, 2, 4, 8, 16}) {
        const GroupedOrder order(tiles_m, tiles_n, group_m);
        std::vector<int> seen(size_t(tiles_m * tiles_n), 0);
        for (int64_t b = 0; b < tiles_m * tiles_n; ++b) {
          const int64_t group = group_m * tiles_n, first_m = b / group * group_m;
          const int64_t rows = std::min(group_m, tiles_m - first_m);
          const auto t = order.tile(int32_t(b));
          ASSERT_EQ(t.m, first_m + b % group % rows)
              << tiles_m << " " << tiles_n << " " << group_m << " tile " << b;
          ASSERT_EQ(t.n, b % group / rows)
              << tiles_m << " " << tiles_n << " " << group_m << " tile " << b;
          ++seen[size_t(t.m * tiles_n + t.n)];
        }
        for (int s : seen) ASSERT_EQ(s, 1);
      }
  // The worked example of stream_k.hpp.
  const GroupedOrder order(5, 3, 2);
  EXPECT_EQ(order.tile(2).m, 0);
  EXPECT_EQ(order.tile(2).n, 1);
  EXPECT_EQ(order.tile(13).m, 4);
  EXPECT_EQ(order.tile(13).n, 1);
}

// Kernel 03's tile: 128 x 128, 128 x 64 where min(m, n) <= 64, 128 x 32 where <= 32, swapped
// where m < n.
TEST(SimtTile, Choice) {
  auto tile = [](int64_t m, int64_t n) {
    const auto t = simt_tile(m, n);
    return std::to_string(t.bn) + (t.transposed ? " swapped" : "");
  };
  EXPECT_EQ(tile(4096, 4096), "128");
  EXPECT_EQ(tile(4096, 65), "128");
  EXPECT_EQ(tile(4096, 64), "64");
  EXPECT_EQ(tile(64, 4096), "64 swapped");
  EXPECT_EQ(tile(4096, 33), "64");
  EXPECT_EQ(tile(4096, 32), "32");
  EXPECT_EQ(tile(9, 4096), "32 swapped");
  EXPECT_EQ(tile(1, 1), "32");
}

}  // namespace

namespace {
// The grouped order: kernel 05's (FastDiv) and kernels 03 and 04's (grouped_tile) are the same
// order, and every tile of the grid comes once: group b / (group_m tiles_n), column by column
// inside it.
TEST(GroupedOrder, OneOrderForEveryKernel) {
  for (int64_t tiles_m : {1, 2, 3, 5, 8, 17, 64})
    for (int64_t tiles_n : {1, 2, 3, 7, 32})
      for (int64_t group_m : {1, 2, 8, 16}) {
        const tessera::ladder::GroupedOrder order(tiles_m, tiles_n, group_m);
        std::vector<int> seen(size_t(tiles_m * tiles_n), 0);
        for (int64_t b = 0; b < tiles_m * tiles_n; ++b) {
          const auto fast = order.tile(int32_t(b));
          const auto plain = tessera::ladder::grouped_tile(b, tiles_m, tiles_n, group_m);
          // The order written out: its group's first row, the group's rows, the column.
          const int64_t group = group_m * tiles_n, first = b / group * group_m;
          const int64_t rows = std::min(group_m, tiles_m - first);
          const int64_t m = first + b % group % rows, n = b % group / rows;
          ASSERT_EQ(fast.m, m) << b;
          ASSERT_EQ(fast.n, n) << b;
          ASSERT_EQ(plain.m, m) << b;
          ASSERT_EQ(plain.n, n) << b;
          ++seen[size_t(m + n * tiles_m)];
        }
        for (int s : seen) ASSERT_EQ(s, 1);
      }
}
}  // namespace
