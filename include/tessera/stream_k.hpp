// tessera/stream_k.hpp -- how a GEMM shares a problem's work beyond whole C tiles (CUTLASS's
// stream-K tile scheduler): persistent clusters take whole C tiles (data-parallel) and, where
// whole tiles would leave the last wave of clusters ragged, equal ranges of k-tiles (stream-K)
// or, with far fewer tiles than clusters, equal splits of K (split-K); a non-persistent kernel
// splits K when its tiles are too few for the GPU (SimtSplit, at the end).
//
// Work is counted in iterations: iteration i is k-tile i % k_tiles of tile i / k_tiles (tiles in
// the kernel's grouped order). Cluster g of G
//   1. takes the whole tiles g, g + G, g + 2G, ... below dp_tiles, then
//   2. the iterations [begin(g), begin(g + 1)) of the tiles from dp_tiles on, begin(g) =
//      dp_tiles * k_tiles + g * rest / G with rest = (tiles - dp_tiles) * k_tiles.
// A tile that falls into several ranges is computed in pieces (segments). The piece that holds
// k-tile 0 (the tile's owner) adds the other pieces' partial sums and stores C; every other piece
// is the first segment of its cluster's range: it stores its partial sums in its cluster's slot and
// raises the slot's flag. Only an owner waits, and it is the last segment of its range; cluster g
// waits for clusters g+1, g+2, ... in their first segments, which never wait. So there is no
// cycle: every cluster finishes as long as all clusters are resident at once (the grid is sized
// by the occupancy query, one cluster per slot of the GPU).
//
//   1024^3 f16 (16 tiles of 16 k-tiles) on 66 clusters: no whole tiles; cluster 0 takes
//   iterations [0, 3), cluster 1 [3, 7), 2 [7, 11), 3 [11, 15), 4 [15, 19): tile 0's owner is
//   cluster 0 (k-tiles 0-2); clusters 1, 2, 3 and 4 (k-tile 15 only) hold the rest of it.
//
// The schedule is a plain value, host and device: the host picks it (make_stream_k) and a host
// test walks every cluster's segments (every iteration once, owners and pieces matched).
#pragma once

#include <cstdint>
#include "config.hpp"
#include "tile_scheduler.hpp"

namespace tessera {

// A piece of one tile: k-tiles [k_begin, k_end). Invalid (tile < 0): the end of a range.
// (32-bit: the ABI refuses problems of 2^31 tiles or more, and K < 2^31; 32-bit fields keep the
// consumers' loop state small next to 128 live accumulators.)
struct Segment {
  int32_t tile = -1, k_begin = 0, k_end = 0;
  TESSERA_HD constexpr bool valid() const { return tile >= 0; }
  TESSERA_HD constexpr bool owner() const { return k_begin == 0; }  // holds k-tile 0: stores C
};

// What cluster g's walk needs beyond the schedule, worked out once when the walk starts (the
// divisions happen here, not per tile: in a persistent kernel the tile loop runs next to 128 live
// accumulators, where a 64-bit division or a few more live registers spill).
struct Walk {
  int32_t g;
  int32_t last_piece;  // the last cluster holding a piece of the tile of g's last segment
  int64_t end;         // g's stream-K range ends before iteration `end`
  Segment streamed;    // g's first stream-K segment (invalid: an empty range)
};

// Split-K, the other way of splitting tiles: with fewer tiles than half the clusters, each tile's
// k-tiles are cut into `splits` equal parts, one wave of tiles x splits clusters, split s of tile
// t on cluster s * tiles + t. Clusters with the same split read the same k-slices of A and B at
// the same time, so L2 serves the operands once for all of them (stream-K's ranges start at
// staggered k and read from HBM). Split 0 owns the tile; its pieces are clusters g + tiles,
// g + 2 tiles, ...

struct StreamK {
  int64_t tiles = 0, k_tiles = 1, clusters = 1;
  int64_t dp_tiles = 0;  // tiles taken whole (all of them: no stream-K)
  int64_t splits = 1;    // > 1: split-K in one wave (dp_tiles = 0, clusters = tiles x splits)

  TESSERA_HD constexpr bool streams() const { return dp_tiles < tiles; }
  TESSERA_HD constexpr int64_t begin(int64_t g) const {
    return dp_tiles * k_tiles + (tiles - dp_tiles) * k_tiles * g / clusters;
  }
  // The segment of a range that starts at iteration i and ends before `end`.
  TESSERA_HD constexpr Segment from(int64_t i, int64_t end) const {
    if (i >= end) return {};
    const int64_t tile = i / k_tiles;
    const int64_t k_end = end - tile * k_tiles < k_tiles ? end - tile * k_tiles : k_tiles;
    return {int32_t(tile), int32_t(i % k_tiles), int32_t(k_end)};
  }
  // The cluster whose range holds iteration i of the stream-K part: cluster c holds base + j when
  // floor(rest c / G) <= j, so it is floor(((j + 1) G - 1) / rest).
  TESSERA_HD constexpr int64_t holder(int64_t i) const {
    const int64_t j = i - dp_tiles * k_tiles;
    return ((j + 1) * clusters - 1) / ((tiles - dp_tiles) * k_tiles);
  }
  // The clusters an owner's pieces are on: w.g + piece_stride(), ... up to last_piece.
  TESSERA_HD constexpr int64_t piece_stride() const { return splits > 1 ? tiles : 1; }
  // (Whole tiles need no range and so no division; split-K's numbers are below 2^31 -- tiles x
  // splits clusters, k-tiles -- and divide in 32 bits: a 64-bit division is a subroutine of some
  // 200 cycles before the first TMA load; bench/results/gemm_plan_rules.md.)
  TESSERA_HD constexpr Walk walk(int64_t g) const {
    if (!streams()) return {int32_t(g), int32_t(g), 0, {}};
    if (splits > 1) {
      const uint32_t kt = uint32_t(k_tiles), n = uint32_t(tiles), u = uint32_t(g);
      const uint32_t per = (kt + uint32_t(splits) - 1) / uint32_t(splits),
                     used = (kt + per - 1) / per;  // non-empty splits
      const uint32_t tile = u % n, split = u / n;
      if (split >= used) return {int32_t(g), int32_t(g), 0, {}};
      const uint32_t k_end = (split + 1) * per < kt ? (split + 1) * per : kt;
      return {int32_t(g),
              int32_t(u + (used - 1) * n),
              int64_t(tile) * k_tiles + k_end,
              {int32_t(tile), int32_t(split * per), int32_t(k_end)}};
    }
    const int64_t b = begin(g), e = begin(g + 1);
    // g's last segment's tile ends at iteration tile_end; what lies past e is other clusters'.
    const int64_t tile_end = e > b ? ((e - 1) / k_tiles + 1) * k_tiles : e;
    return {int32_t(g), int32_t(tile_end > e ? holder(tile_end - 1) : g), e, from(b, e)};
  }

  // Cluster w.g walks first(w), next(w, s), ... while valid.
  TESSERA_HD constexpr Segment first(Walk const& w) const {
    return w.g < dp_tiles ? Segment{w.g, 0, int32_t(k_tiles)} : w.streamed;
  }
  TESSERA_HD constexpr Segment next(Walk const& w, Segment const& s) const {
    if (s.tile < dp_tiles)
      return s.tile + clusters < dp_tiles ? Segment{int32_t(s.tile + clusters), 0, int32_t(k_tiles)}
                                          : w.streamed;
    const int64_t i =
        (int64_t(s.tile) + 1) * k_tiles;  // a stream-K segment ends its tile or the range
    if (i >= w.end) return {};
    return {s.tile + 1, 0, int32_t(w.end - i < k_tiles ? w.end - i : k_tiles)};
  }
  // The owner of segment s's tile (cluster w.g) adds the pieces of clusters w.g + piece_stride() ..
  // last_piece(w, s) (none when that is w.g): only the last segment of a range can be an owner
  // whose tile goes on.
  TESSERA_HD constexpr int32_t last_piece(Walk const& w, Segment const& s) const {
    return s.k_end == k_tiles ? w.g : w.last_piece;
  }
};

// Stream-K pays a partial-sum store and load per piece and a pipeline restart per segment; it is
// taken only where whole tiles would leave more than kRaggedLimit of the last wave idle, and
// where every cluster gets at least kMinIterations k-tiles; split-K takes at least
// kMinSplitKTiles k-tiles per split, leaving clusters idle rather than cutting K shorter; a single
// wave is streamed in ranges of at least kMinWaveRange k-tiles
// (bench/results/gemm_plan_rules.md, "wgmma schedule"; the plan gives FP8 its own minimum).
constexpr double kRaggedLimit = 0.1;
constexpr int64_t kMinIterations = 16;
constexpr int64_t kMinSplitKTiles = 32;
constexpr int64_t kMinWaveRange = 64;

// The schedule of `tiles` tiles of `k_tiles` k-tiles on `clusters` clusters: split-K when the
// tiles fill at most half the clusters and K is long enough; whole tiles when they fit in one
// wave or the waves come out (nearly) even; else whole tiles for the full waves, and stream-K
// over the partial last wave -- or over the last full wave too where the partial one alone would
// give a cluster fewer than kMinIterations k-tiles -- so that every cluster ends at the same
// iteration.
// As few tiles as possible are streamed: stream-K ranges start at staggered k, so the clusters
// running at one time share no k-slice of A or B in L2 and read them from HBM. A single wave
// (tiles <= clusters) is streamed only where that shortens it by a third or more (clusters >= 1.5
// tiles) with ranges of at least kMinWaveRange k-tiles: shorter ranges or a smaller gain lose
// more to the lost L2 sharing and the fixups than the idle clusters cost (language models'
// layers of 36-56 tiles; 1536 x 1536 x 12288 gains: bench/results/gemm_layers.md).
// Every stream-K range holds at least one iteration (the streamed iterations are at least
// kMinIterations x clusters), so every cluster's range has a first segment.
//   5120 x 5120 x 4096 f16 (400 tiles of 64 k-tiles, 66 clusters): whole tiles would fill 6.06
//   waves (the 7th holds 4 tiles, 3.9 k-tiles per cluster); instead 330 tiles whole (5 waves),
//   70 tiles streamed, 67-68 k-tiles per cluster.
//   3072 x 3072 x 8192 f16 (144 tiles of 128 k-tiles): 132 tiles whole, 12 streamed, 23-24
//   k-tiles per cluster.
//   1024 x 1024 x 16384 f16 (16 tiles of 256 k-tiles, 66 clusters): split-K, 4 splits of 64
//   k-tiles on 64 clusters. (wgmma_tile, plan.cpp, gives this problem 128-column tiles instead:
//   32 tiles, 2 splits of 128.)
constexpr StreamK make_stream_k(int64_t tiles, int64_t k_tiles, int64_t clusters,
                                int64_t min_split_k_tiles = kMinSplitKTiles) {
  StreamK s{tiles, k_tiles, clusters, tiles};
  if (tiles <= 0 || k_tiles <= 0 || clusters <= 1) return s;
  if (2 * tiles <= clusters) {
    const int64_t by_clusters = clusters / tiles, by_k = k_tiles / min_split_k_tiles;
    const int64_t splits = by_clusters < by_k ? by_clusters : by_k;
    if (splits >= 2) return {tiles, k_tiles, tiles * splits, 0, splits};
  }
  if (tiles <= clusters && (3 * tiles > 2 * clusters || tiles * k_tiles < kMinWaveRange * clusters))
    return s;  // one wave runs whole unless streaming it pays (above)
  const int64_t waves = (tiles + clusters - 1) / clusters;
  const double idle = 1.0 - double(tiles) / double(waves * clusters);
  if (idle <= kRaggedLimit || tiles * k_tiles < kMinIterations * clusters) return s;
  const int64_t full_waves = tiles / clusters, rest = tiles - full_waves * clusters;
  const bool rest_alone = rest * k_tiles >= kMinIterations * clusters;
  s.dp_tiles = (rest_alone ? full_waves : full_waves > 1 ? full_waves - 1 : 0) * clusters;
  return s;
}

// A non-persistent kernel's split of K (its launcher and the plan decide alike): when the problem
// has fewer C tiles than the GPU runs CTAs at once (`resident`; 0: unknown, no GPU), K is cut into
// equal ranges of at least kMinKTiles k-tiles, at most kMaxSplits of them, until tiles x splits
// come near one full wave; split y runs k-tiles [y * k_tiles_per_split, (y + 1) *
// k_tiles_per_split) (the last one fewer), and none is empty. E.g. 64 x 4096 x 4096 on an H100 (264
// CTAs at once): 32 tiles of 128 x 128 and 128 k-tiles of 32, 8 splits of 16 k-tiles.
struct SimtSplit {
  static constexpr int64_t kMinKTiles = 4, kMaxSplits = 16;
  int64_t splits = 1, k_tiles_per_split = 1;
  // The workspace: the splits' fp32 partial sums of the m x n result, in 256-byte units.
  TESSERA_HD constexpr int64_t bytes(int64_t m, int64_t n) const {
    return splits > 1 ? (splits * m * n * 4 + 255) / 256 * 256 : 0;
  }
};
TESSERA_HD constexpr SimtSplit make_simt_split(int64_t tiles, int64_t k_tiles, int64_t resident) {
  SimtSplit s{1, k_tiles};
  if (tiles < 1 || resident < 1 || tiles >= resident) return s;
  int64_t want = resident / tiles;
  if (want > k_tiles / SimtSplit::kMinKTiles) want = k_tiles / SimtSplit::kMinKTiles;
  if (want > SimtSplit::kMaxSplits) want = SimtSplit::kMaxSplits;
  if (want < 2) return s;
  s.k_tiles_per_split = (k_tiles + want - 1) / want;
  s.splits = (k_tiles + s.k_tiles_per_split - 1) / s.k_tiles_per_split;  // no empty split
  return s;
}

#if defined(__CUDACC__)
// The partial sums of stream-K pieces: a slot per consumer warpgroup of the grid (kThreads threads,
// kValues accumulators each), value v of thread t at v * kThreads + t (a warp's 32 values are one
// 128-byte line), and a flag per slot. A piece publishes its accumulators; the tile's owner waits
// for its pieces' flags and adds them to its own accumulators into a fresh array.
template <int kThreads, int kValues>
struct PartialSums {
  float* sums;
  uint32_t* flags;

  // Store this thread's accumulators in `slot`, then (thread 0, after the warpgroup's barrier
  // `bar`) raise its flag with release semantics at GPU scope.
  __device__ __forceinline__ void publish(int64_t slot, float const (&acc)[kValues], int t,
                                          int bar) const {
    float* out = sums + slot * kThreads * kValues + t;
#pragma unroll
    for (int v = 0; v < kValues; ++v) __stcg(out + v * kThreads, acc[v]);
    __threadfence();
    asm volatile("bar.sync %0, %1;" ::"r"(bar), "r"(kThreads) : "memory");
    if (t == 0)
      asm volatile("st.release.gpu.global.u32 [%0], %1;" ::"l"(flags + slot), "r"(1u) : "memory");
  }
  // total = acc + the slots first, first + stride, ... <= last, once each is published (thread 0
  // acquires the flags at GPU scope, the barrier passes that on to the warpgroup). Per slot the
  // thread's kValues loads are independent: one round of L2 latency per piece.
  __device__ __forceinline__ void wait_and_add(float (&total)[kValues], float const (&acc)[kValues],
                                               int64_t first, int64_t last, int64_t stride, int t,
                                               int bar) const {
    if (t == 0)
      for (int64_t s = first; s <= last; s += stride) {
        uint32_t raised = 0;
        while (true) {
          asm volatile("ld.acquire.gpu.global.u32 %0, [%1];"
                       : "=r"(raised)
                       : "l"(flags + s)
                       : "memory");
          if (raised) break;
          __nanosleep(64);
        }
      }
    asm volatile("bar.sync %0, %1;" ::"r"(bar), "r"(kThreads) : "memory");
#pragma unroll
    for (int v = 0; v < kValues; ++v) total[v] = acc[v];
    for (int64_t s = first; s <= last; s += stride) {
      float const* in = sums + s * kThreads * kValues + t;
#pragma unroll
      for (int v = 0; v < kValues; ++v) total[v] += __ldcg(in + v * kThreads);
    }
  }
};
#endif

}  // namespace tessera
