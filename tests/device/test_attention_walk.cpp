// tests/device/test_attention_walk.cpp -- the Hopper attention kernel's walk over its tiles
// (Fa3Walk, kernels/attention/args.hpp), on the host: every (query block, batch, head) exactly
// once, a CTA's tiles in whole units, and causal units of equal length.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <random>
#include <vector>

#include "args.hpp"

namespace {

using tessera::attention::AttnArgs;
using tessera::attention::fa3_sm90_ctas;
using tessera::attention::fa3_sm90_walk;

// Key blocks of query block bm: causal (top-left), the block's keys end at its last row.
int64_t key_blocks(AttnArgs const& a, int64_t bm, int64_t bn) {
  const int64_t last = (bm + 1) * 128, keys = a.causal && last < a.seqlen_k ? last : a.seqlen_k;
  return (keys + bn - 1) / bn;
}

TEST(AttentionWalk, EveryTileOnceAndCausalUnitsBalanced) {
  std::mt19937 rng(7);
  for (int trial = 0; trial < 300; ++trial) {
    AttnArgs a;
    a.batch = 1 + rng() % 3, a.heads_q = 1 + rng() % 5, a.head_dim = 128;
    a.seqlen_q = 1 + rng() % 2000, a.seqlen_k = 1 + rng() % 2000, a.causal = int(rng() % 2);
    if (trial % 3 == 0) a.seqlen_k = a.seqlen_q;
    const int64_t sms = 1 + rng() % 140, ctas = fa3_sm90_ctas(a, sms);
    const auto walk = fa3_sm90_walk(a, ctas);
    const int64_t q_blocks = (a.seqlen_q + 127) / 128;
    ASSERT_EQ(walk.q_blocks, q_blocks);
    ASSERT_LE(ctas, sms);
    std::map<std::pair<int64_t, int64_t>, int> seen;  // (head_batch, q_block) -> times
    std::vector<int64_t> work(size_t(ctas), 0);       // key blocks per CTA
    for (int64_t cta = 0; cta < ctas; ++cta) {
      int64_t tiles = 0;
      for (auto t = walk.first(cta); walk.valid(t); t = walk.next(t), ++tiles) {
        const int64_t bm = walk.q_block(t), hb = walk.head_batch(t);
        ASSERT_GE(bm, 0);
        ASSERT_LT(bm, q_blocks);
        ASSERT_LT(hb, a.heads_q * a.batch);
        ++seen[{hb, bm}];
        work[size_t(cta)] += key_blocks(a, bm, 128);
      }
      EXPECT_GT(tiles, 0) << "CTA " << cta << " of " << ctas << " has no tile";
    }
    ASSERT_EQ(int64_t(seen.size()), q_blocks * a.heads_q * a.batch);
    for (auto const& [tile, times] : seen) ASSERT_EQ(times, 1);
    // Causal and Sq = Sk: every whole unit is q_blocks + 1 key blocks and a middle one half of
    // that, whole units first: CTAs differ by at most one unit of each kind.
    if (a.causal && a.seqlen_q == a.seqlen_k) {
      const auto [lo, hi] = std::minmax_element(work.begin(), work.end());
      EXPECT_LE(*hi - *lo, q_blocks + 1 + (q_blocks + 1) / 2)
          << "trial " << trial << ": " << walk.units << " units on " << ctas << " CTAs";
    }
  }
}

TEST(AttentionWalk, CausalUnitsPairTheLongestWithTheShortest) {
  AttnArgs a;
  a.batch = 1, a.heads_q = 1, a.head_dim = 64, a.seqlen_q = a.seqlen_k = 5 * 128, a.causal = 1;
  const auto walk = fa3_sm90_walk(a, 1);
  std::vector<int64_t> order;
  for (auto t = walk.first(0); walk.valid(t); t = walk.next(t)) order.push_back(walk.q_block(t));
  EXPECT_EQ(order, (std::vector<int64_t>{4, 0, 3, 1, 2}));
  EXPECT_EQ(walk.units, 3);
  a.heads_q = 2;  // the middle blocks after every head's whole units
  const auto two = fa3_sm90_walk(a, 1);
  std::vector<std::pair<int64_t, int64_t>> tiles;  // (head, block)
  for (auto t = two.first(0); two.valid(t); t = two.next(t))
    tiles.push_back({two.head_batch(t), two.q_block(t)});
  EXPECT_EQ(tiles, (std::vector<std::pair<int64_t, int64_t>>{
                       {0, 4}, {0, 0}, {0, 3}, {0, 1}, {1, 4}, {1, 0}, {1, 3}, {1, 1}, {0, 2},
                       {1, 2}}));
  a.heads_q = 1;
  a.causal = 0;
  const auto plain = fa3_sm90_walk(a, 2);
  order.clear();
  for (auto t = plain.first(1); plain.valid(t); t = plain.next(t))
    order.push_back(plain.q_block(t));
  EXPECT_EQ(order, (std::vector<int64_t>{1, 3}));
}

}  // namespace
