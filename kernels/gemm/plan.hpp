// kernels/gemm/plan.hpp -- the plan of a GEMM call: every choice the library makes for a problem,
// made once, on the host, before any CUDA call (plan.cpp; no CUDA in either file).
//
// make_gemm_plan turns (the call, the device) into a GemmPlan: the kernel, its tile, the
// orientation (the problem as given, or transposed: C^T = op(B)^T op(A)^T), which operands are
// packed first, the schedule (whole tiles, split-K or stream-K, with its numbers), how C is
// stored, and the workspace. The launchers run a plan and decide nothing; describe()
// (plan_text.hpp) says it in words (tessera_gemm_plan's text).
//
// The rules, one line each, are in plan.cpp; the measurements behind them are in
// bench/results/gemm_plan_rules.md.
//   4096 x 16 x 4096 F16 NN on an H100 (66 clusters of kernel 05): kernel 06 (min(m, n) <= 16);
//   4096 x 64 x 4096: kernel 05 on the short 64 x 64 tile, as given, 32 cluster tiles whole;
//   64 x 4096 x 4096: the same tile on the transposed problem, C^T stored by vector stores.
#pragma once

#include <tessera/gemm.h>

#include <cstddef>
#include <cstdint>

#include "args.hpp"
#include "gemv_shape.hpp"
#include "stream_k.hpp"

namespace tessera::ladder {

// The kernels of the ladder, in the order of tessera_gemm_kernels().
enum class GemmKernel { kSimtGlobal, kSimtCpAsync, kSimtPipelined, kMmaSync, kWgmmaTma, kSkinny };
const char* kernel_name(GemmKernel kernel);  // "01_simt_global", ...

// Kernel 05's tiles: C tiles of kBM x bn in clusters of kCluster CTAs along M, each with a
// consumer warpgroup of 128 threads x bn / 2 accumulators per kConsumerRows rows (wgmma's M;
// WgmmaTmaCfg checks it has these numbers). bn is 256, or 128 or 64 for skinny and small
// problems; the 64-column tile also comes kShortBM rows high (one consumer warpgroup).
struct WgmmaShape {
  static constexpr int64_t kBM = 128, kShortBM = 64, kConsumerRows = 64, kCluster = 2;
  static constexpr int64_t kKTileBytes = 128, kWideN = 256;
  static constexpr int64_t kBlockScaleK = 128;  // FP8 block scales: 128 of K (one k-tile)
  static constexpr int64_t kPromotedN = 128;     // FP8 promoted to fp32: the tile's width,
  static constexpr int64_t kPromotedNarrowN = 64;  // or (e4m3, few columns) this one
  static constexpr int64_t kShortMinSmall = 16;  // the short tile's smallest skinny side
};
struct WgmmaTile {
  int64_t bn = WgmmaShape::kWideN;  // the tile's columns: 256, 128 or 64
  bool transposed = false;          // the kernel computes C^T = B A^T (m < n, a narrow tile)
  int64_t bm = WgmmaShape::kBM;     // the tile's rows: 128 (two consumer warpgroups) or 64
  bool cluster_shares_b = false;    // skinny, m < n, as given: the cluster multicasts B's tile
  int64_t consumers() const { return bm / WgmmaShape::kConsumerRows; }
  // The short tile with more than half of its columns inside the n columns it runs.
  bool short_over_half_full(int64_t n) const { return bm == WgmmaShape::kShortBM && 2 * n > bn; }
};
// Kernel 03's CTA tile (BM, BN, BK) and its narrow and thin widths.
struct SimtShape {
  static constexpr int64_t kBM = 128, kBN = 128, kBK = 32, kNarrowBN = 64, kThinBN = 32;
};
struct SimtTile {
  int64_t bn = SimtShape::kBN;  // the tile's columns: 128, 64 or 32
  bool transposed = false;      // the kernel computes C^T = B A^T (m < n, a narrow or thin tile)
};

// Kernel 06's plan: which operand is X (the big one), the kernel and how it reads X and Y, the
// grid and the split of K, and the workspace it needs.
struct SkinnyPlan {
  bool transposed = false;  // X = B (the transposed problem), else X = A
  bool k_major = false;     // X contiguous along K, or neither stride 1: gemv_rows (gemv_mma
                            // along K); else gemv_columns (gemv_mma along L)
  bool mma = false;         // 16-bit, 3 or more vectors: the tensor-core kernel
  bool vec = false;         // X's 16-byte vectors aligned; else element loads
  YMode y_mode = YMode::kElements;
  int cols = 1;                 // vectors per CTA (1, 2, 4 or 8; the tensor-core kernels 8 or 16)
  int tile_rows = 1;            // rows of X per CTA
  int64_t rows = 0, small = 0;  // L and S
  int64_t tiles = 0, groups = 1, splits = 1, k_split = 0;
  size_t workspace = 0;  // bytes of partial sums (splits > 1)
};

// What the plan knows of the GPU: how many CTAs or clusters of a kernel it runs at once (the
// occupancy queries of the kernels' translation units; 0 without a GPU).
struct GemmDevice {
  virtual ~GemmDevice() = default;
  // Kernel 05 on the bm x bn tile (a_regs: the tf32 kernel that takes A through registers) for
  // A and B of dtype.
  virtual int wgmma_clusters(tessera_dtype dtype, int64_t bm, int64_t bn, bool a_regs) const = 0;
  // Kernel 03 on tiles bn columns wide.
  virtual int simt_ctas(int64_t bn) const = 0;
};

// What the environment may force, to measure the alternatives on a shape:
// TESSERA_GEMM_TILE=256/128/64/32 (the tile width, 128 rows), TESSERA_GEMM_SCHEDULE=tiles,
// TESSERA_GEMM_SPLITS=s (kernel 05: K in s parts where the tiles times s fit the clusters),
// TESSERA_GEMM_FP8_FEW_ON_M=1 (few_on_m) and TESSERA_GEMM_CLUSTER=m (cluster_along_m).
struct PlanOverrides {
  int64_t tile_width = 0;    // 0: the rules decide
  bool whole_tiles = false;  // no split-K or stream-K
  int64_t splits = 0;        // >= 2: kernel 05's split-K in this many parts, where it fits
  // e4m3's promoted sums of at most 128 rows or columns without block scales on the block-scaled
  // shape: the few on the kernel's M, the short 64 x 128 tile, the cluster along N at 64 or fewer
  bool few_on_m = false;
  // TESSERA_GEMM_CLUSTER=m: the cluster's CTAs along M (sharing B) where the rule "cluster shares
  // A" would put them along N
  bool cluster_along_m = false;
};
PlanOverrides overrides_from_env();  // read once

// The bytes of one element as the kernels read it (TF32: fp32 storage; FP8: one byte).
inline int64_t elem_bytes(tessera_dtype d) {
  return d == TESSERA_F32 || d == TESSERA_TF32 ? 4 : d == TESSERA_E4M3 || d == TESSERA_E5M2 ? 1 : 2;
}
inline bool is_fp8(tessera_dtype d) { return d == TESSERA_E4M3 || d == TESSERA_E5M2; }

// A call of the C ABI, as given.
struct GemmCall {
  const char* kernel = nullptr;  // a name or alias from tessera_gemm_kernels(); null: built-in
  tessera_dtype dtype = TESSERA_F32;  // A's (and B's) element type
  char transa = 'N', transb = 'N';
  int64_t m = 0, n = 0, k = 0;
  float alpha = 1;
  const void* a = nullptr;
  int64_t lda = 1;
  const void* b = nullptr;
  int64_t ldb = 1;
  float beta = 0;
  const void* c = nullptr;
  int64_t ldc = 1;
  // FP8 (tessera_scaled_gemm): B's and C's element types, the scaling and its scales.
  bool scaled = false;
  tessera_dtype b_dtype = TESSERA_F32, c_dtype = TESSERA_F32;
  tessera_scaling scaling = TESSERA_SCALE_TENSOR;
  const float* scale_a = nullptr;
  const float* scale_b = nullptr;
  tessera_accumulation accumulation = TESSERA_ACCUMULATE_PROMOTED;
};

enum class QuickReturn { kNone, kEmpty, kScaleC };  // m or n is 0; C = beta * C (k or alpha 0)
enum class Schedule { kWholeTiles, kSplitK, kStreamK, kAtLaunch };  // kAtLaunch: no GPU known
// Why the kernel: the built-in choice moved off its default, in the order the rules apply.
enum class KernelReason { kByName, kDefault, kSkinny, kBeyondTma, kPackingSmall };

struct GemmPlan {
  GemmCall call;
  int status = TESSERA_SUCCESS;
  QuickReturn quick = QuickReturn::kNone;
  GemmKernel kernel = GemmKernel::kSimtPipelined;
  KernelReason reason = KernelReason::kDefault;
  GemmArgs args;  // op(A), op(B) as the kernels' A(m,k), B(n,k); C as given
  Fp8Args fp8;    // FP8: C's type, the scales, the accumulation (as given)
  // Kernel 05 and 03: the tile and the orientation (transposed: the kernel runs C^T = B A^T).
  int64_t tile_m = 0, tile_n = 0;
  bool transposed = false;
  bool cluster_shares_b = false;  // 05, skinny as given: the cluster multicasts B's tile
  // The caller's A and B packed K-major into scratch first (04, 05); 05 tf32: the kernel's A
  // (MN-major) taken to wgmma through registers.
  bool pack_a = false, pack_b = false, a_through_registers = false;
  // 05, block scales: the kernel's per-row scales copied to a 16-byte pitch first
  // (block_scales_copied); the cluster's CTAs on neighbouring tiles along N (one tile row).
  bool copy_block_scales = false, cluster_along_n = false;
  // How the tiles share the GPU: 05's clusters (work), 03's split of K (split) on `resident`
  // clusters or CTA slots; 03's tiles.
  Schedule schedule = Schedule::kWholeTiles;
  int resident = 0;
  StreamK work;
  SimtSplit split;
  int64_t simt_tiles = 0;
  bool tma_store = false;  // 05: C stored by TMA
  SkinnyPlan skinny;       // 06
  size_t workspace = 0;    // bytes: packed operands, partial sums
};

GemmPlan make_gemm_plan(GemmCall const& call, GemmDevice const& device, PlanOverrides over = {});

// What a launcher runs. Kernel 05: the problem in the kernel's orientation, and in its roles
// what to pack, whether A goes through registers, how C leaves and the clusters' work.
struct WgmmaRun {
  GemmArgsC args;
  bool pack_a, pack_b, a_through_registers, tma_store;
  int resident;  // 0: no GPU (the launch fails)
  StreamK work;
  int64_t bm, bn;
  Fp8Args fp8;
  bool copy_block_scales, cluster_along_n;
};
inline WgmmaRun wgmma_run(GemmPlan const& p) {
  const bool t = p.transposed;
  return {oriented(p.args, t),
          t ? p.pack_b : p.pack_a,
          t ? p.pack_a : p.pack_b,
          p.a_through_registers,
          p.tma_store,
          p.resident,
          p.work,
          p.tile_m,
          p.tile_n,
          t ? p.fp8.transposed() : p.fp8,
          p.copy_block_scales,
          p.cluster_along_n};
}
// Kernel 03: the problem in the kernel's orientation, the tile width, the split of K.
struct SimtRun {
  GemmArgsC args;
  int64_t bn;
  SimtSplit split;
};
inline SimtRun simt_run(GemmPlan const& p) {
  return {oriented(p.args, p.transposed), p.tile_n, p.split};
}
// The plan of kernel 03 for a problem already in the kernels' form (its launcher's own entry).
GemmPlan plan_simt(GemmArgs const& args, GemmDevice const& device, PlanOverrides over = {});

// The rules the plan applies (plan.cpp), exposed for their tests.
int64_t wgmma_k_tiles(int64_t k, int64_t bytes);
int64_t min_split_k_tiles(tessera_dtype dtype);
WgmmaTile wgmma_tile(int64_t m, int64_t n, int64_t k_tiles, int64_t clusters,
                     bool has_short = false, bool b_read_in_place = true, int64_t forced_width = 0,
                     int64_t min_split = kMinSplitKTiles);
// A K this long (in k-tiles) is split even where whole tiles would fill a quarter of the clusters
// or more: the short tile more than half full splits it (rule "wgmma schedule", plan.cpp), and
// 65-128 columns take the 128-wide tile to split it (rule "wgmma tile").
constexpr int64_t kLongKTiles = 192;
// What kernel 05's schedule is decided from: its tiles (tiles_m rows of them, in clusters, by
// tiles_n), their k-tiles, the resident clusters, and the problem's traits.
struct WgmmaScheduleArgs {
  int64_t tiles_m = 0, tiles_n = 0, k_tiles = 0, clusters = 0;
  bool few_tiles_split_only = false;    // K split only where the tiles fill <= 1/4 of the clusters
  bool hbm_bound = false;               // bound_by_hbm
  bool one_tile_line = false;           // FP8's promoted kernel, one cluster tile along M or N
  int64_t min_split = kMinSplitKTiles;  // the fewest k-tiles a split of K takes
};
StreamK wgmma_schedule(WgmmaScheduleArgs const& a, PlanOverrides const& over = {});
bool bound_by_hbm(int64_t m, int64_t n, int64_t bytes);
SimtTile simt_tile(int64_t m, int64_t n, int64_t forced_width = 0);
SkinnyPlan plan_skinny(GemmArgs const& p, int64_t bytes);
// Kernel 05's stream-K scratch: a flag and a slot of partial sums (bn / 2 per thread) per
// consumer warpgroup of the grid (2 a CTA; 1 on the short tile).
struct WgmmaPartials {
  int64_t slots, values;
  WgmmaPartials(int64_t clusters, int64_t bn, int64_t consumers)
      : slots(clusters * WgmmaShape::kCluster * consumers), values(128 * bn / 2) {}
  size_t flag_bytes() const { return size_t((slots * 4 + 255) / 256 * 256); }
  size_t bytes() const { return flag_bytes() + size_t(slots) * size_t(values) * 4; }
};
// Rule "block scales": kernel 05's block scales per row (rows, k_blocks), rows contiguous, reach
// its stages by TMA, a tile's rows a box: where rows are not a multiple of 4 floats or the array
// is not 16-byte aligned (TMA's rules), the launcher copies them to a pitch of rows rounded up to
// 4 first.
inline int64_t block_scales_pitch(int64_t rows) { return (rows + 3) / 4 * 4; }
inline size_t block_scales_bytes(int64_t rows, int64_t k_blocks) {
  return size_t((block_scales_pitch(rows) * k_blocks * 4 + 255) / 256 * 256);
}
inline bool block_scales_copied(const float* scales, int64_t rows) {
  return rows % 4 != 0 || reinterpret_cast<uintptr_t>(scales) % 16 != 0;
}
// The bytes of one packed operand: `rows` rows of K rounded up to 16 bytes, in a 256-byte piece.
inline size_t packed_bytes(int64_t rows, int64_t k, int64_t elem_bytes) {
  const int64_t vec = 16 / elem_bytes, k_row = (k + vec - 1) / vec * vec;
  return size_t((rows * k_row * elem_bytes + 255) / 256 * 256);
}
// Kernel 04 reads an operand with cp.async where it lies when its base and leading dimension
// are 16-byte aligned; otherwise it packs it first.
inline bool aligned16(const void* ptr, int64_t s_mn, int64_t s_k, int64_t elem_bytes) {
  const int64_t ld = s_mn == 1 ? s_k : s_mn;
  return reinterpret_cast<uintptr_t>(ptr) % 16 == 0 && (ld * elem_bytes) % 16 == 0;
}

}  // namespace tessera::ladder
