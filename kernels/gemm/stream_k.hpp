// kernels/gemm/stream_k.hpp -- how kernel 05's persistent clusters share a problem's work: whole
// C tiles (data-parallel) and, where whole tiles would leave the last wave of clusters ragged,
// equal ranges of k-tiles (stream-K).
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

#include <tessera/config.hpp>

namespace tessera::ladder {

// A piece of one tile: k-tiles [k_begin, k_end). Invalid (tile < 0): the end of a range.
// (32-bit: the ABI refuses problems of 2^31 tiles or more, and K < 2^31; 32-bit fields keep the
// consumers' loop state small next to 128 live accumulators.)
struct Segment {
  int32_t tile = -1, k_begin = 0, k_end = 0;
  TESSERA_HD constexpr bool valid() const { return tile >= 0; }
  TESSERA_HD constexpr bool owner() const { return k_begin == 0; }  // holds k-tile 0: stores C
};

struct StreamK;

// Cluster g's walk through its segments: first(), then next(s) while valid. The divisions are
// done once, when the walk is made, not per tile (in kernel 05 the tile loop runs with 128
// accumulators live, and a 64-bit division there spills).
struct Walk {
  int32_t g, clusters, dp_tiles, k_tiles;  // (32-bit: see Segment)
  int64_t end;            // its stream-K range ends before iteration `end`
  Segment streamed;       // its first stream-K segment (invalid: an empty range)
  int32_t last_piece_of;  // the last cluster holding a piece of its last segment's tile

  TESSERA_HD constexpr Segment first() const {
    return g < dp_tiles ? Segment{g, 0, k_tiles} : streamed;
  }
  TESSERA_HD constexpr Segment next(Segment const& s) const {
    if (s.tile < dp_tiles)
      return s.tile + clusters < dp_tiles ? Segment{s.tile + clusters, 0, k_tiles} : streamed;
    const int64_t i = (int64_t(s.tile) + 1) * k_tiles;  // a stream-K segment ends its tile or the range
    if (i >= end) return {};
    return {s.tile + 1, 0, int32_t(end - i < k_tiles ? end - i : k_tiles)};
  }
  // The owner of segment s's tile (this cluster) adds the pieces of clusters g+1 .. last_piece(s):
  // only the last segment of a range can be an owner whose tile goes on past it.
  TESSERA_HD constexpr int32_t last_piece(Segment const& s) const { return s.k_end == k_tiles ? g : last_piece_of; }
};

struct StreamK {
  int64_t tiles = 0, k_tiles = 1, clusters = 1;
  int64_t dp_tiles = 0;  // tiles taken whole (all of them: no stream-K)

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
  TESSERA_HD constexpr Walk walk(int64_t g) const {
    const int64_t b = begin(g), e = begin(g + 1);
    // Its last segment's tile ends at iteration tile_end; the pieces after e are other clusters'.
    const int64_t tile_end = e > b ? ((e - 1) / k_tiles + 1) * k_tiles : e;
    return {int32_t(g), int32_t(clusters), int32_t(dp_tiles), int32_t(k_tiles), e, from(b, e),
            int32_t(tile_end > e ? holder(tile_end - 1) : g)};
  }
};

// Stream-K pays a partial-sum store and load per piece and a pipeline restart per segment; it is
// taken only where whole tiles would leave more than kRaggedLimit of the last wave idle, and
// where every cluster gets at least kMinIterations k-tiles.
constexpr double kRaggedLimit = 0.1;
constexpr int64_t kMinIterations = 2;

// The schedule of `tiles` tiles of `k_tiles` k-tiles on `clusters` clusters: whole tiles when the
// waves come out (nearly) even; else whole tiles for all but the last full wave, and stream-K
// over the rest (between one and two waves of tiles, or all of them when there are fewer tiles
// than clusters), so that every cluster ends at the same iteration. Every stream-K range holds at
// least one iteration (rest >= clusters), so every cluster's range has a first segment.
//   5120 x 5120 x 4096 f16 (400 tiles of 64 k-tiles, 66 clusters): whole tiles would fill 6.06
//   waves (the 7th holds 4 tiles); instead 330 tiles whole (5 waves), 70 tiles streamed, 67-68
//   k-tiles per cluster.
constexpr StreamK make_stream_k(int64_t tiles, int64_t k_tiles, int64_t clusters) {
  StreamK s{tiles, k_tiles, clusters, tiles};
  if (tiles <= 0 || k_tiles <= 0 || clusters <= 1) return s;
  const int64_t waves = (tiles + clusters - 1) / clusters;
  const double idle = 1.0 - double(tiles) / double(waves * clusters);
  if (idle <= kRaggedLimit || tiles * k_tiles < kMinIterations * clusters) return s;
  const int64_t full_waves = tiles / clusters;
  s.dp_tiles = (full_waves > 1 ? full_waves - 1 : 0) * clusters;
  return s;
}

#if defined(__CUDACC__)
// The partial sums of one consumer warpgroup (kThreads threads, kValues accumulators each) in its
// slot, four values at a time: values 4i..4i+3 of thread t at float4 i * kThreads + t (each
// 16-byte access of a warp covers 512 consecutive bytes), and the slot's flag.
template <int kThreads, int kValues>
struct PartialSlot {
  static_assert(kValues % 4 == 0, "stream-K: partial sums go in float4s");
  float4* sums;
  uint32_t* flag;

  // Store this thread's accumulators, then (thread 0, after the warpgroup's barrier `bar`) raise
  // the flag with release semantics at GPU scope.
  __device__ __forceinline__ void publish(float const (&acc)[kValues], int t, int bar) const {
#pragma unroll
    for (int i = 0; i < kValues / 4; ++i)
      __stcg(sums + i * kThreads + t, make_float4(acc[4 * i], acc[4 * i + 1], acc[4 * i + 2], acc[4 * i + 3]));
    __threadfence();
    asm volatile("bar.sync %0, %1;" ::"r"(bar), "r"(kThreads) : "memory");
    if (t == 0) asm volatile("st.release.gpu.global.u32 [%0], %1;" ::"l"(flag), "r"(1u) : "memory");
  }
  // Wait for the flag (thread 0, acquire at GPU scope; the barrier passes it on), add the sums.
  __device__ __forceinline__ void add_to(float (&acc)[kValues], int t, int bar) const {
    if (t == 0) {
      uint32_t raised = 0;
      while (true) {
        asm volatile("ld.acquire.gpu.global.u32 %0, [%1];" : "=r"(raised) : "l"(flag) : "memory");
        if (raised) break;
        __nanosleep(64);
      }
    }
    asm volatile("bar.sync %0, %1;" ::"r"(bar), "r"(kThreads) : "memory");
#pragma unroll
    for (int i = 0; i < kValues / 4; ++i) {
      const float4 f = __ldcg(sums + i * kThreads + t);
      acc[4 * i] += f.x, acc[4 * i + 1] += f.y, acc[4 * i + 2] += f.z, acc[4 * i + 3] += f.w;
    }
  }
};
#endif

}  // namespace tessera::ladder
