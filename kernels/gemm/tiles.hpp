// kernels/gemm/tiles.hpp -- which C tile kernels 05 and 03 take for a problem (host only, no
// CUDA: the launchers, the plan of gemm_abi.cu and tests/test_stream_k.cpp read the same choice).
#pragma once

#include <cstdint>
#include <cstdlib>

#include <tessera/config.hpp>

#include "stream_k.hpp"

namespace tessera::ladder {

// The tile width TESSERA_GEMM_TILE asks for, read once (0 when unset); each kernel takes the widths
// it has (05: 256, 128, 64; 03: 128, 64, 32).
inline int64_t forced_tile_width() {
  static const int64_t w = [] {
    const char* v = std::getenv("TESSERA_GEMM_TILE");
    return v ? int64_t(std::atoll(v)) : int64_t(0);
  }();
  return w;
}

// Kernel 05's tiles, shared with the plan (gemm_abi.cu): C tiles of kBM x bn in clusters of
// kCluster CTAs along M, each with a consumer warpgroup of 128 threads x bn / 2 accumulators per
// kConsumerRows rows (wgmma's M; WgmmaTmaCfg checks it has these numbers). bn is 256, or 128 or 64 for skinny
// and small problems (hopper_tile): a 128 x 256 tile over 16 columns computes 16x the products needed and
// holds 4 stages of the big operand in flight; the 128 x 64 tile does 4x, with 8 stages.
// The narrow tile also comes 64 rows high (kShortBM: one consumer warpgroup), for skinny problems
// whose 128-row cluster tiles would leave half the GPU idle or need a split of K (below).
struct Hopper05 {
  static constexpr int64_t kBM = 128, kShortBM = 64, kConsumerRows = 64, kCluster = 2, kKTileBytes = 128;
  static constexpr int64_t kWideN = 256;
  // The short tile's smallest skinny side (measured: 1 x 4096 x 4096 f16 ran at 0.74 of cuBLAS on
  // it against 0.79 on 128 rows; 16 and up gained).
  static constexpr int64_t kShortMinSmall = 16;
};
struct HopperTile {
  int64_t bn;    // the tile's columns: 256, 128 or 64
  bool swapped;  // the kernel computes C^T = B A^T (m < n, a narrow tile)
  int64_t bm = Hopper05::kBM;  // the tile's rows: 128 (two consumer warpgroups) or 64 (one)
  bool shares_big = false;     // skinny, m < n, as given: the cluster shares the big operand (B)
  int64_t consumers() const { return bm / Hopper05::kConsumerRows; }
  // The short tile with more than half of its columns inside the n columns of the problem it
  // runs (hopper_work's short_full).
  bool short_full(int64_t n) const { return bm == Hopper05::kShortBM && 2 * n > bn; }
};
// Kernel 05's k-tiles of a K of `bytes`-byte elements (a k-tile: one 128-byte row).
inline int64_t hopper_k_tiles(int64_t k, int64_t bytes) { return ceil_div(k * bytes, Hopper05::kKTileBytes); }
// The tile of an m x n problem of k_tiles k-tiles on a GPU holding `clusters` clusters at once:
// where min(m, n) is small, a narrow tile with the small dimension along its N, the problem
// transposed (C^T = B A^T) where m is the small one, unless m fills the rows of one cluster
// (below; b_direct: kernel 05 reads B where it lies, hopper_reads_directly); where the wide
// tiles are too few for the GPU, a narrow tile on the problem as given (below). Measured on the H100 (ratio to cuBLAS, f16 NN, tiles of 256 / 128 / 64
// columns in one run each, bench/results/gemm_shapes.md):
//   up to 128 columns, 64: 8192 x 16 x 8192 0.53 / 0.78 / 0.87, 4096 x 128 x 4096 0.59 / 0.72 / 0.81;
//   256 columns, 64 while its cluster tiles fit in one wave of clusters: 4096 x 256 x 4096 (64 cluster
//   tiles) 0.96 / 0.79 / 0.89 (TN 0.81 / 0.84 / 0.93); else 128: 8192 x 256 x 8192 (128 cluster tiles
//   of 64 columns) 0.87 / 0.95 / 0.69.
// TESSERA_GEMM_TILE=256, 128 or 64 in the environment forces the width, on 128 rows (to measure
// them on a shape).
inline HopperTile hopper_tile(int64_t m, int64_t n, int64_t k_tiles, int64_t clusters, bool has_short = false,
                              bool b_direct = true) {
  const int64_t w = forced_tile_width();
  if (w == 256 || w == 128 || w == 64) return {w, w < Hopper05::kWideN && m < n};
  const int64_t small = min64(m, n), big = max64(m, n);
  // The cluster tiles of the problem on tiles of bm x bn (a narrow tile along the small side).
  auto cluster_tiles = [&](int64_t rows, int64_t cols, int64_t bn, int64_t bm = Hopper05::kBM) {
    return ceil_div(ceil_div(rows, bm), Hopper05::kCluster) * ceil_div(cols, bn);
  };
  if (small <= 256) {
    // 129-256 columns: 64 while those cluster tiles fit in one wave, except for tf32 (no short
    // tile: has_short false), which takes 128. Measured on the H100 (tf32, ratio to cuBLAS, 64 /
    // 128 columns, same binary, two rounds): 4096 x 256 x 4096 NN 0.96-0.97 / 1.14-1.16, TN
    // 0.83-0.88 / 0.96-0.98; 256 x 4096 x 4096 NN 0.72-0.74 / 0.79-0.81, TN 0.87-0.90 / 0.96;
    // 4096 x 200 / 192 / 160 x 4096 NN 0.97 / 0.94 / 1.01-1.10 vs 1.13-1.15 / 1.05-1.08 /
    // 1.05-1.18, TN 0.91-0.93 / 0.71 / 0.70 vs 1.17-1.18 / 0.78 / 0.75 (f16 on the 256 shapes:
    // 0.71-0.84 / 0.66-0.84).
    const int64_t bn = small <= 128 || (has_short && cluster_tiles(big, small, 64) <= clusters) ? 64 : 128;
    // 64 rows (has_short: f16 and bf16) where the short tiles' cluster tiles still fit in one
    // wave: twice the CTAs stream the big operand, over all of K or with half the split (cuBLAS
    // runs these on 32- or 64-row tiles, 128 CTAs). Measured on the H100 (f16, ratio to cuBLAS,
    // 128 / 64 rows, same binary, GPU time): 128 x 4096 x 4096 0.69-0.70 / 0.82-0.86, 4096 x 128
    // x 4096 0.76-0.77 / 0.90-0.97, 64 x 4096 x 4096 0.73-0.76 / 0.80-0.83, 64 x 8192 x 8192
    // 0.89-0.90 / 0.98, 8192 x 64 x 8192 0.92-0.94 / 1.00, 16 x 4096 x 4096 0.78-0.83 /
    // 0.82-0.85; in two waves they lose: 128 x 8192 x 8192 0.89-0.90 / 0.83, 256 x 4096 x 4096
    // 0.73 / 0.62-0.65, 1024^3 (64 columns) 0.91 / 0.76.
    const int64_t bm = has_short && bn == 64 && small >= Hopper05::kShortMinSmall && clusters > 0 &&
                               cluster_tiles(big, small, bn, Hopper05::kShortBM) <= clusters
                           ? Hopper05::kShortBM
                           : Hopper05::kBM;
    // The small side along the tile's N (the problem transposed where m is the small one), except
    // where m is the small one, fills the rows of one cluster (65-128 rows on the short tile,
    // 129-256 on 128 rows; a multiple of 32) and B is read where it lies (b_direct; tf32 packs an
    // MN-major B, where its transpose in A's role goes through registers): then the problem runs
    // as given, and the cluster's two CTAs share the big operand's tile (B, by multicast) instead
    // of the small one's. Measured on the H100 (ratio to cuBLAS, transposed / as given, same
    // binary, two rounds, NN TN NT TT): f16 256 x 4096 x 4096 0.68-0.76 / 0.85-0.95, 256 x 8192
    // x 8192 0.85-0.90 / 0.99-1.01, 192 x 8192 x 8192 0.61-0.68 / 0.78-0.94, 128 x 4096 x 4096
    // (short tile) 0.85-0.89 / 0.97-1.00, 96 x 4096 x 4096 0.70-0.88 / 0.88-0.93 (bf16 alike);
    // tf32 256 x 4096 x 4096 NN / TN 0.80 / 0.96 -> 0.94 / 1.06, NT / TT (B MN-major) 0.95-1.18
    // -> 0.45-0.64; f16 200 x 4096 x 4096 NN / NT 0.83-0.86 -> 0.64 (TN / TT 0.65-0.67 -> 0.76-0.78).
    const bool as_given = m < n && ceil_div(m, bm) == Hopper05::kCluster && m % 32 == 0 && b_direct;
    return {bn, m < n && !as_given, bm, as_given};
  }
  if (const int64_t wide = cluster_tiles(m, n, Hopper05::kWideN); clusters > 0 && 2 * wide <= clusters) {
    // Few wide tiles (at most half the clusters busy): 128 columns where their cluster tiles fill
    // more than half the clusters in one wave, or fit in one and save the wide tiles a split of
    // K; else 64 columns if they fit in one wave. Not transposed (m < n too): C^T's stores cost
    // more than they gain. Measured on the H100 (ratio to cuBLAS, 256 / 128 / 64 columns):
    //   1024^3 f16 (16 k-tiles: no split) 0.64-0.86 / 0.87-0.92 / 1.07-1.13, tf32 0.72-0.86 /
    //   0.99-1.10 / 1.22-1.26; 1000^3 f16 0.74-0.84 / 0.94-0.98 / 0.94-0.98;
    //   1024 x 1024 x 8192 f16 (4 splits / 2 splits) 0.75-0.78 / 0.87-1.01, 1024 x 1024 x 16384 f16
    //   0.89-0.91 / 0.98-1.00 (64 columns, whole: 0.71), 1024 x 1024 x 4096 tf32 1.05-1.22 /
    //   1.25-1.29; 777 x 1333 x 999 tf32 (44 cluster tiles of 128) 0.89-0.91 / 1.05-1.09.
    //   Not taken where the wide tiles fill more than half: 1536^3 f16 (36 cluster tiles) 0.81 /
    //   0.71-0.80, 2048^3 1.03 / 0.96 / 0.65.
    const bool splits_k = make_stream_k(wide, k_tiles, clusters).splits > 1;
    const int64_t t128 = cluster_tiles(m, n, 128), t64 = cluster_tiles(m, n, 64);
    return {t128 <= clusters && (2 * t128 > clusters || splits_k) ? 128 : t64 <= clusters ? 64 : 128, false};
  }
  return {Hopper05::kWideN, false};
}
// Kernel 03's CTA tile (BM, BN, BK), which the plan reads too, and its narrow and thin widths.
struct Simt03 {
  static constexpr int64_t kBM = 128, kBN = 128, kBK = 32, kNarrowBN = 64, kThinBN = 32;
};
struct SimtTile {
  int64_t bn;    // the tile's columns: 128, 64 or 32
  bool swapped;  // the kernel computes C^T = B A^T (m < n, a narrow or thin tile)
};
// Kernel 03's tile of an m x n problem: where min(m, n) <= 64, a tile of 64 columns (<= 32: 32)
// with the small dimension along its N, the problem transposed where m is the small one; the
// 128 x 128 tile would compute 2-128x the products needed. TESSERA_GEMM_TILE=128, 64 or 32 in the
// environment forces the width (to measure them on a shape).
inline SimtTile simt_tile(int64_t m, int64_t n) {
  const int64_t w = forced_tile_width();
  const int64_t forced = w == 128 || w == 64 || w == 32 ? w : 0;
  const int64_t small = min64(m, n);
  const int64_t bn = forced                       ? forced
                     : small <= Simt03::kThinBN   ? Simt03::kThinBN
                     : small <= Simt03::kNarrowBN ? Simt03::kNarrowBN
                                                  : Simt03::kBN;
  return {bn, bn < Simt03::kBN && m < n};
}

}  // namespace tessera::ladder
