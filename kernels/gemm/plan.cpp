// kernels/gemm/plan.cpp -- the rules of a GEMM call, applied once (plan.hpp). Host only.
//
// The rules, each with its reason where it is applied; the measurements behind them are in
// bench/results/gemm_plan_rules.md under the same names:
//   default kernel   F32: 03, else 05 -- the fastest kernel that runs the dtype
//   skinny           06 up to min(m, n) = 8 / 4 / 16 (F32 / TF32 / 16-bit) -- bandwidth-bound
//   beyond TMA       05 refuses m, n or k >= 2^31 (the built-in choice takes 04) -- int32 boxes
//   grid limits      01/02: 65535 tiles along N, 03: 2^31 - 1 tiles, 06: 2^31 - 1 CTAs
//   single row       a K-contiguous row is read in place where it ends on 16 bytes
//   TMA reads        05 packs what TMA cannot address, and tf32 MN-major B (A: registers)
//   cp.async reads   04 packs what is not 16-byte aligned (aligned16, plan.hpp)
//   packing small    F16/BF16 below 1280^3 that 05 must pack: 04 -- the pack costs more
//   wgmma tile       05's tile and orientation (wgmma_tile below)
//   wgmma schedule   05's whole tiles / split-K / stream-K (wgmma_schedule; make_stream_k)
//   FP8 split        FP8 splits K into shorter parts than 16-bit (min_split_k_tiles)
//   promoted sums    FP8's promoted kernel: its tiles and orientation (promoted_tile below)
//   few promote      e4m3 fast accumulation on <= 128 columns runs promoted (fp8_args below)
//   few on M         e4m3 promoted, 65-128 columns, few tiles, short K: the block-scaled shape
//   cluster along N  block scales on one tile row: the cluster's CTAs side by side along N
//   cluster shares A f16/bf16, 128 x 64 tiles, 65-128 columns, a full wave: A shared along N
//   block scales     copied to a 16-byte pitch where TMA cannot read them (plan.hpp)
//   TMA store        05 stores C by TMA: 16-bit, beta = 0, aligned, m % 8 == 0
//   simt tile        03's tile and orientation (simt_tile below)
//   simt split       03 splits K below one wave of CTAs (make_simt_split, stream_k.hpp)
//   skinny grid      06's operand roles, CTAs and split of K (plan_skinny below)
#include "plan.hpp"

#include <cstdlib>
#include <cstring>
#include <tessera/atom/copy.hpp>

namespace tessera::ladder {

const char* kernel_name(GemmKernel kernel) {
  static const char* const names[] = {"01_simt_global", "02_simt_cp_async", "03_simt_pipelined",
                                      "04_mma_sync",    "05_wgmma_tma",     "06_skinny"};
  return names[int(kernel)];
}

PlanOverrides overrides_from_env() {
  static const PlanOverrides over = [] {
    PlanOverrides o;
    if (const char* v = std::getenv("TESSERA_GEMM_TILE")) o.tile_width = int64_t(std::atoll(v));
    const char* s = std::getenv("TESSERA_GEMM_SCHEDULE");
    o.whole_tiles = s && std::strcmp(s, "tiles") == 0;
    if (const char* v = std::getenv("TESSERA_GEMM_SPLITS")) o.splits = int64_t(std::atoll(v));
    const char* few = std::getenv("TESSERA_GEMM_FP8_FEW_ON_M");
    o.few_on_m = few && std::strcmp(few, "1") == 0;
    const char* along = std::getenv("TESSERA_GEMM_CLUSTER");
    o.cluster_along_m = along && std::strcmp(along, "m") == 0;
    return o;
  }();
  return over;
}

int64_t wgmma_k_tiles(int64_t k, int64_t bytes) {
  return ceil_div(k * bytes, WgmmaShape::kKTileBytes);
}

namespace {

// Which dtypes each kernel runs: 01, 02 fp32 SIMT; 03 also TF32 (in full fp32); the
// tensor-core kernels 04 and 05 TF32, F16, BF16; 06 those four; FP8 only 05.
bool runs(GemmKernel kernel, tessera_dtype d) {
  if (is_fp8(d)) return kernel == GemmKernel::kWgmmaTma;
  switch (kernel) {
    case GemmKernel::kSimtGlobal:
    case GemmKernel::kSimtCpAsync:
      return d == TESSERA_F32;
    case GemmKernel::kSimtPipelined:
      return d == TESSERA_F32 || d == TESSERA_TF32;
    case GemmKernel::kMmaSync:
    case GemmKernel::kWgmmaTma:
      return d != TESSERA_F32;
    default:
      return true;
  }
}

// Rule "default kernel": the fastest kernel that runs the dtype (F32: 03; else 05).
GemmKernel default_kernel(tessera_dtype d) {
  return d == TESSERA_F32 ? GemmKernel::kSimtPipelined : GemmKernel::kWgmmaTma;
}

// Rule "skinny": kernel 06 up to min(m, n) = 8 (F32), 4 (TF32), 16 (F16, BF16): the big operand
// read once at HBM speed beats the tiled kernels there.
int64_t skinny_max_mn(tessera_dtype d) { return d == TESSERA_F32 ? 8 : d == TESSERA_TF32 ? 4 : 16; }
bool skinny_takes(tessera_dtype d, int64_t m, int64_t n) {
  const int64_t small = min64(m, n);
  return !is_fp8(d) && small >= 1 && small <= skinny_max_mn(d);
}

// Rule "beyond TMA": kernel 05's TMA coordinates are int32.
constexpr int64_t kTmaMaxExtent = 0x7fffffff;

// Rule "short tile": the 64 x 64 tile exists for f16 and bf16 (tf32 takes an MN-major A through
// registers, laid out for two consumer warpgroups).
bool has_short_tile(tessera_dtype d) { return d == TESSERA_F16 || d == TESSERA_BF16; }

// Rule "TMA reads": kernel 05 reads an operand where it lies when its base and leading dimension
// are 16-byte aligned (TMA) and, for 32-bit (tf32) and FP8 elements, it is K-major (their wgmma
// reads shared tiles K-major only); a tf32 MN-major A goes through registers instead.
bool wgmma_reads_in_place(const void* ptr, int64_t s_mn, int64_t s_k, int64_t bytes) {
  const bool k_major = s_k == 1;
  return tma_addressable(reinterpret_cast<uintptr_t>(ptr), (k_major ? s_mn : s_k) * bytes) &&
         (k_major || bytes == 2);
}
bool wgmma_reads_through_registers(const void* ptr, int64_t s_k, int64_t bytes) {
  return bytes == 4 && s_k != 1 && tma_addressable(reinterpret_cast<uintptr_t>(ptr), s_k * bytes);
}
bool wgmma_reads(const void* ptr, int64_t s_mn, int64_t s_k, int64_t bytes, bool as_a) {
  return wgmma_reads_in_place(ptr, s_mn, s_k, bytes) ||
         (as_a && wgmma_reads_through_registers(ptr, s_k, bytes));
}

// Rule "TMA store": 16-bit C (16-bit inputs, or FP8 with bf16 C), beta = 0 (C not read),
// 16-byte aligned, m % 8 == 0 -- a TMA store clips a box at the bounds in 16-byte units, so it
// would write rows between m and ldc.
bool wgmma_stores_by_tma(int64_t bytes, float beta, int64_t m, const void* c, int64_t ldc) {
  return bytes == 2 && beta == 0.0f && m * bytes % 16 == 0 &&
         tma_addressable(reinterpret_cast<uintptr_t>(c), ldc * bytes);
}

// Rule "packing small": F16/BF16 below 1280^3 that 05 would have to pack run on 04 (the pack
// costs more than 05 gains), unless skinny (04's 128 x 128 tiles leave SMs idle); not TF32
// (04's tf32 is ~4x slower than 05's).
bool prefer_mma_sync(GemmArgs const& p, tessera_dtype dtype, bool packs) {
  if (dtype == TESSERA_TF32 || is_fp8(dtype)) return false;
  const bool skinny = max64(p.m, p.n) >= 8 * min64(p.m, p.n);
  return packs && !skinny && double(p.m) * double(p.n) * double(p.k) < 1280.0 * 1280.0 * 1280.0;
}

bool is_op(char t) { return t == 'N' || t == 'n' || t == 'T' || t == 't' || t == 'C' || t == 'c'; }
bool op_transposes(char t) { return t != 'N' && t != 'n'; }

// The arguments' checks (host only), in the order the statuses are reported; sets the kernel.
// The FP8 call's own checks: A and B of one FP8 format, C fp32, f16 or bf16, a known scaling
// with its scales.
int validate_scaled(GemmCall const& c) {
  auto known = [](tessera_dtype d) { return int(d) >= TESSERA_F32 && int(d) <= TESSERA_E5M2; };
  if (!known(c.dtype) || !known(c.b_dtype) || !known(c.c_dtype)) return TESSERA_ERROR_UNKNOWN_DTYPE;
  const bool out_ok =
      c.c_dtype == TESSERA_F32 || c.c_dtype == TESSERA_F16 || c.c_dtype == TESSERA_BF16;
  if (!is_fp8(c.dtype) || c.b_dtype != c.dtype || !out_ok) return TESSERA_ERROR_UNSUPPORTED_DTYPE;
  if (int(c.scaling) < TESSERA_SCALE_TENSOR || int(c.scaling) > TESSERA_SCALE_BLOCK_B_COLUMNS)
    return TESSERA_ERROR_INVALID_SCALE;
  if (!c.scale_a || !c.scale_b) return TESSERA_ERROR_INVALID_SCALE;
  const bool blocks =
      c.scaling == TESSERA_SCALE_BLOCK_A_ROWS || c.scaling == TESSERA_SCALE_BLOCK_B_COLUMNS;
  if (c.accumulation == TESSERA_ACCUMULATE_FAST ? blocks
                                                : c.accumulation != TESSERA_ACCUMULATE_PROMOTED)
    return TESSERA_ERROR_INVALID_SCALE;  // (block scales are promoted per block)
  return TESSERA_SUCCESS;
}

int validate(GemmCall const& c, GemmPlan& plan) {
  const int d = int(c.dtype);
  if (c.scaled) {
    if (const int s = validate_scaled(c)) return s;
  } else if (d < TESSERA_F32 || d > TESSERA_E5M2) {
    return TESSERA_ERROR_UNKNOWN_DTYPE;
  } else if (is_fp8(c.dtype)) {
    return TESSERA_ERROR_UNSUPPORTED_DTYPE;  // (FP8 needs C's type and scales: the scaled call)
  }
  plan.kernel = default_kernel(c.dtype);
  if (c.kernel) {
    static const char* const aliases[] = {"01", "02", "03", "04", "05", "06"};
    bool found = false;
    for (int i = 0; i < 6; ++i)
      if (!std::strcmp(c.kernel, kernel_name(GemmKernel(i))) || !std::strcmp(c.kernel, aliases[i]))
        plan.kernel = GemmKernel(i), found = true;
    if (!found) return TESSERA_ERROR_UNKNOWN_KERNEL;
    plan.reason = KernelReason::kByName;
  }
  if (!is_op(c.transa) || !is_op(c.transb)) return TESSERA_ERROR_INVALID_TRANS;
  if (c.m < 0 || c.n < 0 || c.k < 0) return TESSERA_ERROR_INVALID_SIZE;
  const bool ta = op_transposes(c.transa), tb = op_transposes(c.transb);
  if (c.lda < max64(1, ta ? c.k : c.m)) return TESSERA_ERROR_INVALID_LDA;
  if (c.ldb < max64(1, tb ? c.n : c.k)) return TESSERA_ERROR_INVALID_LDB;
  if (c.ldc < max64(1, c.m)) return TESSERA_ERROR_INVALID_LDC;
  if ((c.m > 0 && c.k > 0 && !c.a) || (c.n > 0 && c.k > 0 && !c.b) || (c.m > 0 && c.n > 0 && !c.c))
    return TESSERA_ERROR_NULL_POINTER;
  if (!runs(plan.kernel, c.dtype)) return TESSERA_ERROR_UNSUPPORTED_DTYPE;
  // Rule "grid limits": 128-row tiles; 01/02's 2-D grids allow 65535 tiles along N, 03's 1-D
  // grid 2^31 - 1 tiles.
  const int64_t tm = ceil_div(c.m, 128), tn = ceil_div(c.n, 128);
  if (tn > 65535 || tm > 0x7fffffff || tm * tn > 0x7fffffff) return TESSERA_ERROR_TOO_LARGE;
  return TESSERA_SUCCESS;
}

// The built-in choice off its default (rules "skinny" and "beyond TMA"); a status.
int choose_kernel(GemmCall const& c, GemmPlan& plan) {
  const bool by_name = plan.reason == KernelReason::kByName;
  if (!by_name && skinny_takes(c.dtype, c.m, c.n))
    plan.kernel = GemmKernel::kSkinny, plan.reason = KernelReason::kSkinny;
  const bool beyond = c.m > kTmaMaxExtent || c.n > kTmaMaxExtent || c.k > kTmaMaxExtent;
  if (beyond && plan.kernel == GemmKernel::kWgmmaTma) {
    if (by_name) return TESSERA_ERROR_TOO_LARGE;
    plan.kernel = GemmKernel::kMmaSync, plan.reason = KernelReason::kBeyondTma;
  }
  return TESSERA_SUCCESS;
}

// op(A)(m,k) and op(B)(k,n) as the kernels' A(m,k) and B(n,k). The pointers hold the dtype
// (GemmArgs types them float; the kernels read them as their element type).
GemmArgs kernel_args(GemmCall const& c) {
  const bool ta = op_transposes(c.transa), tb = op_transposes(c.transb);
  GemmArgs p;
  p.m = c.m, p.n = c.n, p.k = c.k, p.alpha = c.alpha, p.beta = c.beta;
  p.a = static_cast<const float*>(c.a);
  p.a_sm = ta ? c.lda : 1, p.a_sk = ta ? 1 : c.lda;
  p.b = static_cast<const float*>(c.b);
  p.b_sn = tb ? 1 : c.ldb, p.b_sk = tb ? c.ldb : 1;
  p.c = static_cast<float*>(const_cast<void*>(c.c)), p.ldc = c.ldc;
  // Rule "single row": a row contiguous along K (A with m = 1, B with n = 1; BLAS lets 'N' give
  // it as lda = 1) takes the MN stride of a packed K-major operand, so that it is read where it
  // lies instead of packed -- only where it ends on a 16-byte boundary (a 16-byte copy over its
  // end reads past a buffer holding just the row, as compute-sanitizer counts reads).
  const int64_t bytes = elem_bytes(c.dtype);
  if (c.k * bytes % 16 == 0) {
    const int64_t k_row = ceil_div(c.k, 16) * 16;
    if (c.m == 1 && p.a_sk == 1) p.a_sm = k_row;
    if (c.n == 1 && p.b_sk == 1) p.b_sn = k_row;
  }
  return p;
}

// The FP8 call's C type, scales and accumulation (none for the other calls). Rule "few promote":
// e4m3 with fast accumulation on at most 128 rows or columns (a model's projection of few tokens)
// runs the promoted kernel: bound by streaming the weights, such calls run faster on its narrow
// and short tiles, split as they need (10 of the FP8 suite's 12 shapes of 64 and 128 tokens
// 4-35 % faster, 64 x 32768 x 512 8 % and 128 x 7168 x 2048 20 % slower: bench/results/
// gemm_fp8.md, "Fast accumulation on few tokens"); its sums are the promoted ones.
Fp8Args fp8_args(GemmCall const& c) {
  Fp8Args f;
  if (!c.scaled) return f;
  f.c_type = c.c_dtype == TESSERA_F16    ? OutType::kF16
             : c.c_dtype == TESSERA_BF16 ? OutType::kBF16
                                         : OutType::kF32;
  constexpr Scaling kScalings[] = {Scaling::kTensor, Scaling::kRow, Scaling::kBlockA,
                                   Scaling::kBlockB};
  f.scaling = kScalings[c.scaling];
  const bool few_promote = c.dtype == TESSERA_E4M3 && min64(c.m, c.n) <= WgmmaShape::kBM;
  f.promoted = c.accumulation == TESSERA_ACCUMULATE_PROMOTED || few_promote;
  f.scale_a = c.scale_a, f.scale_b = c.scale_b;
  return f;
}

Schedule schedule_of(StreamK const& w) {
  return w.splits > 1  ? Schedule::kSplitK
         : w.streams() ? Schedule::kStreamK
                       : Schedule::kWholeTiles;
}

// Rule "promoted sums": FP8 sums promoted to fp32 every 128 of K run on the promoted kernel,
// whose tile is 128 x 128 (the sums and two k-tiles' products in registers); with block scales,
// which it applies per k-tile (its A rows' scales, one for B's 128 rows), the operand with a
// scale per row is the kernel's A: the problem as given for BLOCK_A_ROWS, transposed for
// BLOCK_B_COLUMNS. e4m3 without block scales also has the 64-column tiles, 128 and 64 rows high
// (a model's projections of few tokens), and takes them where the rule "wgmma tile" picks 64
// columns and either the problem has at most 64 (the wide tile would compute half of its
// products as padding) or the short tile fills more of the GPU; 65-128 columns on 128 x 64 tiles
// read the big operand twice, which lost at K = 512 and 16384 (bench/results/gemm_fp8.md, "The
// narrow promoted tiles").
bool has_narrow_promoted_tiles(Fp8Args const& f, tessera_dtype dtype) {
  return f.promoted && !f.by_blocks() && dtype == TESSERA_E4M3;
}
WgmmaTile promoted_tile(WgmmaTile t, Fp8Args const& f, tessera_dtype dtype, int64_t m,
                        int64_t n, bool few_on_m) {
  if (!f.promoted) return t;
  if (few_on_m && !f.by_blocks() && dtype == TESSERA_E4M3 && min64(m, n) <= WgmmaShape::kBM)
    return {WgmmaShape::kPromotedN, n < m, WgmmaShape::kShortBM};
  const bool narrow = t.bn == WgmmaShape::kPromotedNarrowN &&
                      (min64(m, n) <= WgmmaShape::kPromotedNarrowN || t.bm == WgmmaShape::kShortBM);
  if (has_narrow_promoted_tiles(f, dtype) && narrow) return t;
  if (!f.by_blocks()) return {WgmmaShape::kPromotedN, t.transposed};
  // Block scales of at most 128 rows (a model's projections of up to 128 tokens, the tokens'
  // scales per row): e4m3 takes the short tile, so that both CTAs of a cluster have rows to
  // compute where the 128-row tile left the second one past M (at most 64 rows: the cluster's
  // CTAs side by side along N, wgmma_part).
  const bool transposed = f.scaling == Scaling::kBlockB;
  const int64_t rows = transposed ? n : m;
  const bool short_rows = dtype == TESSERA_E4M3 && rows <= WgmmaShape::kBM;
  return {WgmmaShape::kPromotedN, transposed, short_rows ? WgmmaShape::kShortBM : WgmmaShape::kBM};
}

// Rule "few on M": e4m3 promoted sums of 65-128 columns whose 128 x 128 tiles keep at most half
// the clusters busy over a K too short to split run as block scales do (the few on the kernel's
// M, the short 64 x 128 tile): twice the CTAs (128 x 7168 x 2048: 28 cluster tiles -> 56, per
// tensor 0.69 -> 0.91 and row-wise 0.86 -> 1.12 of cuBLASLt; bench/results/gemm_fp8.md, "Few
// tokens on the block-scaled shape"). t: the promoted tile otherwise.
bool few_on_m_pays(WgmmaTile t, Fp8Args const& f, tessera_dtype dtype, int64_t m, int64_t n,
                   int64_t k_tiles, int64_t clusters) {
  if (!has_narrow_promoted_tiles(f, dtype) || t.bm != WgmmaShape::kBM ||
      min64(m, n) > WgmmaShape::kBM)
    return false;
  const int64_t tiles = ceil_div(ceil_div(max64(m, n), WgmmaShape::kBM), WgmmaShape::kCluster);
  return clusters > 0 && 2 * tiles <= clusters && k_tiles < 2 * min_split_k_tiles(dtype);
}

// Rule "cluster along N": the promoted kernel on one tile row puts its clusters' two CTAs on
// neighbouring tiles along N (each loading its own B tile) rather than leave the second past M
// (the schedule counts its cluster tiles with the roles of M and N swapped).
// Rule "cluster shares A": f16 and bf16 on the 128 x 64 tile with two tile columns (65-128
// columns: A's tile twice B's, the big operand read once per tile column) whose cluster tiles
// fill at least 9/10 of the clusters (the L2 then bounds them): the cluster's CTAs take the two
// tiles of a tile row and share A's tile (multicast), reading the big operand from L2 once
// instead of twice. Fewer cluster tiles, or more tile columns, gain nothing or lose
// (bench/results/gemm_plan_rules.md).
bool cluster_along_n(GemmPlan const& plan, WgmmaTile tile, int64_t tiles_m, int64_t tiles_n,
                     bool few_on_m, PlanOverrides const& over) {
  if (plan.fp8.promoted) return tiles_m == 1 && (plan.fp8.by_blocks() || few_on_m);
  return has_short_tile(plan.call.dtype) && !plan.a_through_registers &&
         tile.bm == WgmmaShape::kBM && tile.bn < tile.bm && tiles_n == 2 && plan.resident > 0 &&
         10 * tiles_m * (tiles_n / 2) >= 9 * int64_t(plan.resident) && !over.cluster_along_m;
}

// Kernel 05: the tile and orientation, what it packs, its clusters' work, how C leaves.
void wgmma_part(GemmPlan& plan, GemmDevice const& device, PlanOverrides const& over) {
  const GemmCall& c = plan.call;
  const GemmArgs& p = plan.args;
  const int64_t bytes = elem_bytes(c.dtype);
  const int64_t k_tiles = wgmma_k_tiles(c.k, bytes);
  const int wide = device.wgmma_clusters(c.dtype, WgmmaShape::kBM, WgmmaShape::kWideN, false);
  const WgmmaTile given =
      wgmma_tile(c.m, c.n, k_tiles, wide,
                 has_short_tile(c.dtype) || has_narrow_promoted_tiles(plan.fp8, c.dtype),
                 wgmma_reads_in_place(p.b, p.b_sn, p.b_sk, bytes), over.tile_width,
                 min_split_k_tiles(c.dtype));
  const bool few_on_m =
      over.few_on_m ||
      few_on_m_pays(promoted_tile(given, plan.fp8, c.dtype, c.m, c.n, false), plan.fp8, c.dtype,
                    c.m, c.n, k_tiles, wide);
  const WgmmaTile tile = promoted_tile(given, plan.fp8, c.dtype, c.m, c.n, few_on_m);
  // The operands in the kernel's roles (A's role may take registers), then the caller's names.
  const GemmArgs q = oriented(p, tile.transposed).p;
  const bool first = !wgmma_reads(q.a, q.a_sm, q.a_sk, bytes, true);
  const bool second = !wgmma_reads(q.b, q.b_sn, q.b_sk, bytes, false);
  plan.pack_a = tile.transposed ? second : first;
  plan.pack_b = tile.transposed ? first : second;
  if (plan.reason == KernelReason::kDefault && prefer_mma_sync(p, c.dtype, first || second)) {
    plan.kernel = GemmKernel::kMmaSync, plan.reason = KernelReason::kPackingSmall;
    return;
  }
  plan.tile_m = tile.bm, plan.tile_n = tile.bn, plan.transposed = tile.transposed;
  plan.cluster_shares_b = tile.cluster_shares_b;
  plan.a_through_registers = wgmma_reads_through_registers(q.a, q.a_sk, bytes);
  if (plan.pack_a) plan.workspace += packed_bytes(c.m, c.k, bytes);
  if (plan.pack_b) plan.workspace += packed_bytes(c.n, c.k, bytes);
  plan.resident = device.wgmma_clusters(c.dtype, tile.bm, tile.bn, plan.a_through_registers);
  const int64_t rows = tile.transposed ? c.n : c.m, cols = tile.transposed ? c.m : c.n;
  const int64_t tiles_m = ceil_div(rows, tile.bm), tiles_n = ceil_div(cols, tile.bn);
  plan.cluster_along_n = cluster_along_n(plan, tile, tiles_m, tiles_n, few_on_m, over);
  if (plan.resident < 1) {
    plan.schedule = Schedule::kAtLaunch;
  } else {
    plan.work = wgmma_schedule({.tiles_m = plan.cluster_along_n ? tiles_n : tiles_m,
                                .tiles_n = plan.cluster_along_n ? tiles_m : tiles_n,
                                .k_tiles = k_tiles,
                                .clusters = plan.resident,
                                .few_tiles_split_only = (tile.short_over_half_full(cols) &&
                                                         !plan.fp8.promoted &&
                                                         k_tiles < kLongKTiles) ||
                                                        (plan.cluster_along_n && plan.fp8.promoted),
                                .hbm_bound = bound_by_hbm(c.m, c.n, bytes),
                                .one_tile_line = plan.fp8.promoted &&
                                                 (ceil_div(tiles_m, WgmmaShape::kCluster) == 1 ||
                                                  tiles_n == 1),
                                .min_split = min_split_k_tiles(c.dtype)},
                               over);
    plan.schedule = schedule_of(plan.work);
    if (plan.work.streams())
      plan.workspace += WgmmaPartials(plan.work.clusters, tile.bn, tile.consumers()).bytes();
  }
  const Fp8Args f = tile.transposed ? plan.fp8.transposed() : plan.fp8;
  plan.copy_block_scales = f.by_blocks() && block_scales_copied(f.scale_a, rows);
  if (plan.copy_block_scales) plan.workspace += block_scales_bytes(rows, wgmma_k_tiles(c.k, 1));
  // (FP8 inputs: bf16 C only, the common case: each C type stored by TMA costs a kernel's worth
  // of compile time; transposed problems through a row-major store tile)
  const int64_t c_bytes = c.scaled ? elem_bytes(c.c_dtype) : bytes;
  const bool c_by_tma = !c.scaled || c.c_dtype == TESSERA_BF16;
  plan.tma_store = c_by_tma && wgmma_stores_by_tma(c_bytes, c.beta, c.m, c.c, c.ldc);
}

// Kernel 04: rule "cp.async reads" (aligned16) -- an unaligned operand is packed first.
void mma_sync_part(GemmPlan& plan) {
  const GemmArgs& p = plan.args;
  const int64_t bytes = elem_bytes(plan.call.dtype);
  plan.pack_a = !aligned16(p.a, p.a_sm, p.a_sk, bytes);
  plan.pack_b = !aligned16(p.b, p.b_sn, p.b_sk, bytes);
  if (plan.pack_a) plan.workspace += packed_bytes(p.m, p.k, bytes);
  if (plan.pack_b) plan.workspace += packed_bytes(p.n, p.k, bytes);
}

// Kernel 03: the tile and orientation, and its split of K on the GPU's CTA slots.
void simt_part(GemmPlan& plan, GemmDevice const& device, PlanOverrides const& over) {
  const SimtTile tile = simt_tile(plan.args.m, plan.args.n, over.tile_width);
  plan.tile_m = SimtShape::kBM, plan.tile_n = tile.bn, plan.transposed = tile.transposed;
  plan.resident = device.simt_ctas(tile.bn);
  const GemmArgs& p = plan.args;
  const int64_t rows = tile.transposed ? p.n : p.m, cols = tile.transposed ? p.m : p.n;
  plan.simt_tiles = ceil_div(rows, SimtShape::kBM) * ceil_div(cols, tile.bn);
  const int64_t k_tiles = ceil_div(p.k, SimtShape::kBK);
  plan.split = make_simt_split(plan.simt_tiles, k_tiles, over.whole_tiles ? 0 : plan.resident);
  plan.schedule = plan.resident < 1       ? Schedule::kAtLaunch
                  : plan.split.splits > 1 ? Schedule::kSplitK
                                          : Schedule::kWholeTiles;
  plan.workspace += size_t(plan.split.bytes(p.m, p.n));
}

}  // namespace

GemmPlan plan_simt(GemmArgs const& args, GemmDevice const& device, PlanOverrides over) {
  GemmPlan plan;
  plan.call.m = args.m, plan.call.n = args.n, plan.call.k = args.k;
  plan.kernel = GemmKernel::kSimtPipelined;
  plan.args = args;
  simt_part(plan, device, over);
  return plan;
}

GemmPlan make_gemm_plan(GemmCall const& call, GemmDevice const& device, PlanOverrides over) {
  GemmPlan plan;
  plan.call = call;
  plan.status = validate(call, plan);
  if (plan.status == TESSERA_SUCCESS) plan.status = choose_kernel(call, plan);
  if (plan.status != TESSERA_SUCCESS) return plan;
  if (call.m == 0 || call.n == 0) {
    plan.quick = QuickReturn::kEmpty;
    return plan;
  }
  if (call.k == 0 || call.alpha == 0.0f) {
    plan.quick = QuickReturn::kScaleC;
    return plan;
  }
  plan.args = kernel_args(call);
  plan.fp8 = fp8_args(call);
  if (plan.kernel == GemmKernel::kWgmmaTma) wgmma_part(plan, device, over);
  if (plan.kernel == GemmKernel::kMmaSync) mma_sync_part(plan);
  if (plan.kernel == GemmKernel::kSimtPipelined) simt_part(plan, device, over);
  if (plan.kernel == GemmKernel::kSkinny) {
    plan.skinny = plan_skinny(plan.args, elem_bytes(call.dtype));
    plan.transposed = plan.skinny.transposed;
    // Rule "grid limits": the GEMV's grid (tiles x groups CTAs along x) fits one launch.
    if (plan.skinny.tiles > 0x7fffffff / plan.skinny.groups) {
      plan.status = TESSERA_ERROR_TOO_LARGE;
      return plan;
    }
    plan.workspace = plan.skinny.workspace;
  }
  return plan;
}

// Rule "wgmma tile" (kernel 05's C tile for an m x n problem of k_tiles k-tiles on `clusters`
// resident clusters):
//   - min(m, n) <= 256: a narrow tile with the small side along its N (the problem transposed where
//     m is small): 64 columns up to 64; up to 128 and, on f16 and bf16, up to 256 while those
//     cluster tiles fit one wave, else 128 (tf32 has no short tile and takes 128 above 128) -- a
//     256-wide tile over few columns computes mostly padding, and beyond one wave 64 columns read
//     the big operand twice as often as 128, which pays where K holds at least kMinSplitKTiles
//     k-tiles (on a shorter K a tile's start and its stores weigh more), and within one wave,
//     before the short tile, where K holds at least kLongKTiles (128 tokens against the down
//     projections' 14336-28672 inputs: the 128 x 128 tile with K split in 2-4 parts 1.1-1.3x the
//     64-wide tiles whole, bench/results/gemm_layers.md);
//   - the short 64-row tile (f16, bf16) where its cluster tiles still fit one wave and the small
//     side is >= kShortMinSmall: twice the CTAs stream the big operand;
//   - m small but filling one cluster's rows, B read in place: as given, the cluster shares B;
//   - few wide tiles (at most half the clusters busy): 128 or 64 columns, never transposed;
//   - "thin last wave": f16 and bf16 with 257-512 columns, where the wide cluster tiles leave
//     their last wave at most 3/5 full: 128 columns (512 tokens against Qwen2.5 7B's QKV, 36
//     wide cluster tiles on 66 clusters: 1.2x; the MLPs' 224-296 on 3-5 waves: 1.03-1.05x;
//     320-384 tokens 1.2-1.8x; bench/results/gemm_layers.md);
//   - else 128 x 256.
// forced_width (TESSERA_GEMM_TILE) forces 256, 128 or 64 columns on 128 rows.
WgmmaTile wgmma_tile(int64_t m, int64_t n, int64_t k_tiles, int64_t clusters, bool has_short,
                     bool b_read_in_place, int64_t forced_width, int64_t min_split) {
  const int64_t w = forced_width;
  if (w == 256 || w == 128 || w == 64) return {w, w < WgmmaShape::kWideN && m < n};
  const int64_t small = min64(m, n), big = max64(m, n);
  // The cluster tiles of the problem on tiles of bm x bn (a narrow tile along the small side).
  auto cluster_tiles = [&](int64_t rows, int64_t cols, int64_t bn, int64_t bm = WgmmaShape::kBM) {
    return ceil_div(ceil_div(rows, bm), WgmmaShape::kCluster) * ceil_div(cols, bn);
  };
  if (small <= 256) {
    const bool one_wave_of_64 = clusters > 0 && cluster_tiles(big, small, 64) <= clusters;
    const bool long_k = k_tiles >= kLongKTiles;
    const bool wider_pays =
        clusters > 0 && k_tiles >= kMinSplitKTiles && (!one_wave_of_64 || long_k);
    const bool short_wave = has_short && one_wave_of_64 && !(small <= 128 && long_k);
    const int64_t bn = small <= 64 || (small <= 128 && !wider_pays) || short_wave ? 64 : 128;
    const bool short_fits =
        clusters > 0 && cluster_tiles(big, small, bn, WgmmaShape::kShortBM) <= clusters;
    const int64_t bm = has_short && bn == 64 && small >= WgmmaShape::kShortMinSmall && short_fits
                           ? WgmmaShape::kShortBM
                           : WgmmaShape::kBM;
    const bool as_given =
        m < n && ceil_div(m, bm) == WgmmaShape::kCluster && m % 32 == 0 && b_read_in_place;
    return {bn, m < n && !as_given, bm, as_given};
  }
  const int64_t wide = cluster_tiles(m, n, WgmmaShape::kWideN);
  if (clusters > 0 && 2 * wide <= clusters) {
    // 128 columns where their cluster tiles fill more than half the clusters in one wave, or
    // fit in one and save the wide tiles a split of K; else 64 if they fit in one wave.
    const bool splits_k = make_stream_k(wide, k_tiles, clusters, min_split).splits > 1;
    const int64_t t128 = cluster_tiles(m, n, 128), t64 = cluster_tiles(m, n, 64);
    return {t128 <= clusters && (2 * t128 > clusters || splits_k) ? 128
            : t64 <= clusters                                     ? 64
                                                                  : 128,
            false};
  }
  const int64_t last_wave = clusters > 0 ? wide % clusters : 0;
  const bool last_wave_thin = last_wave > 0 && 5 * last_wave <= 3 * clusters;
  if (has_short && small <= 2 * WgmmaShape::kWideN && last_wave_thin) return {128, false};
  return {WgmmaShape::kWideN, false};
}

// Rule "FP8 split": FP8 splits K into parts of at least 16 k-tiles (16-bit: kMinSplitKTiles,
// 32): a projection of 64-128 tokens over K = 7168 (56 k-tiles) on 9-16 cluster tiles runs
// fastest in 3 parts (bench/results/gemm_fp8.md, "GPU time in CUDA graphs; split-K for few
// tokens").
int64_t min_split_k_tiles(tessera_dtype dtype) {
  return is_fp8(dtype) ? kMinSplitKTiles / 2 : kMinSplitKTiles;
}

// Rule "bound by HBM": fewer than kHbmBoundFlopsPerByte flops per byte of A and B, 2 m n k /
// (bytes (m + n) k) -- at 16 bits about the small side: the 64-token rows of language models'
// layers (bench/results/gemm_plan_rules.md).
constexpr double kHbmBoundFlopsPerByte = 96;
bool bound_by_hbm(int64_t m, int64_t n, int64_t bytes) {
  return 2.0 * double(m) * double(n) < kHbmBoundFlopsPerByte * double(bytes) * double(m + n);
}

// Rule "wgmma schedule": whole cluster tiles, or split-K / stream-K as make_stream_k says
// (stream_k.hpp); the short tile more than half full splits K only where its whole tiles keep
// at most a quarter of the clusters busy (half the clusters over all of K stream the big operand
// faster than all of them adding partial sums, up to 128 k-tiles), except over at least
// kLongKTiles k-tiles (64 tokens against the down projections' 14336-18944 inputs, K in
// two: 1.12-1.30x on the H200, gemm_layers.md) and FP8's promoted kernel (its loop, bound by
// the promotions, gains from every cluster: block scales 1.2-1.4x at 128 tokens, per tensor and
// row-wise 1.1-1.24x at 64 tokens against 2112 or 4096 x 7168), and the cluster along N does
// the same (its CTAs each read their own B tile: at 64 tokens 28 or 96 cluster tiles run
// 1.1-1.8x faster whole than split or streamed, 9 or 16 1.3-1.4x faster split in three;
// gemm_fp8.md); a problem bound by HBM is not streamed where its last wave keeps at least half
// the clusters busy (enough to draw HBM's bandwidth: the balance buys nothing there, the fixups
// and lost L2 sharing cost), nor FP8's promoted kernel on one line of cluster tiles (64 and 128
// tokens against 24576 x 1536 weights: whole tiles 1.4-1.7x faster than streamed,
// gemm_fp8.md); never more clusters than tiles. The overrides' splits
// (TESSERA_GEMM_SPLITS, for measuring) cut K into that many parts where tiles x splits fit the
// clusters and every part gets a k-tile.
StreamK wgmma_schedule(WgmmaScheduleArgs const& a, PlanOverrides const& over) {
  const int64_t tiles = ceil_div(a.tiles_m, WgmmaShape::kCluster) * a.tiles_n;
  const int64_t k_tiles = a.k_tiles, clusters = a.clusters, splits = over.splits;
  if (splits >= 2 && tiles * splits <= clusters && splits <= k_tiles)
    return {tiles, k_tiles, tiles * splits, 0, splits};
  const bool whole = over.whole_tiles || (a.few_tiles_split_only && 4 * tiles > clusters);
  StreamK w = whole ? StreamK{tiles, k_tiles, clusters, tiles}
                    : make_stream_k(tiles, k_tiles, clusters, a.min_split);
  const bool last_wave_full = 2 * (tiles % clusters) >= clusters;
  if (schedule_of(w) == Schedule::kStreamK && (a.one_tile_line || (a.hbm_bound && last_wave_full)))
    w = StreamK{tiles, k_tiles, clusters, tiles};
  if (!w.streams()) w.clusters = min64(tiles, clusters);
  return w;
}

// Rule "simt tile": where min(m, n) <= 64, a tile of 64 columns (<= 32: 32) with the small side
// along its N, transposed where m is small -- the 128 x 128 tile would compute 2-128x the
// products needed. forced_width (TESSERA_GEMM_TILE) forces 128, 64 or 32.
SimtTile simt_tile(int64_t m, int64_t n, int64_t forced_width) {
  const int64_t w = forced_width;
  const int64_t forced = w == 128 || w == 64 || w == 32 ? w : 0;
  const int64_t small = min64(m, n);
  const int64_t bn = forced                          ? forced
                     : small <= SimtShape::kThinBN   ? SimtShape::kThinBN
                     : small <= SimtShape::kNarrowBN ? SimtShape::kNarrowBN
                                                     : SimtShape::kBN;
  return {bn, bn < SimtShape::kBN && m < n};
}

namespace {

// Rule "skinny grid" (kernel 06): gemv_columns takes 128-byte columns where they give at least
// kMinCtas CTAs, else 64-byte ones; K is split only where the CTAs still number fewer than
// kMinCtas, into at most kTargetCtas CTAs, each split a multiple of kSplitQuantum values of K
// (whole steps of either kernel); 16-bit problems from kMmaMinSmall vectors take the
// tensor-core kernels (06_gemv_mma.cuh).
constexpr int64_t kMinCtas = 96, kTargetCtas = 2 * 132, kSplitQuantum = 2048, kMmaMinSmall = 3;

// How kernel 06 reads Y: 16-byte vectors along K (gemv_rows and the tensor-core kernels), or
// where Y is contiguous along s, pieces of its S values of a k (the tensor-core kernels: pairs
// of vectors), else element by element.
YMode skinny_y_mode(SkinnyPlan const& s, GemmArgs const& g, int64_t bytes) {
  const int64_t piece = min64(s.cols * bytes, 16);
  if ((s.k_major || s.mma) && g.b_sk == 1 && aligned16(g.b, g.b_sn, g.b_sk, bytes))
    return YMode::kAlongK;
  const uintptr_t y = reinterpret_cast<uintptr_t>(g.b);
  if (s.mma)  // pairs of values along s (4-byte loads, transposed in registers)
    return g.b_sn == 1 && y % 4 == 0 && g.b_sk % 2 == 0 ? YMode::kAlongS : YMode::kElements;
  if (s.cols > 1 && g.b_sn == 1 && y % piece == 0 && g.b_sk * bytes % piece == 0)
    return YMode::kAlongS;
  return YMode::kElements;
}

}  // namespace

SkinnyPlan plan_skinny(GemmArgs const& p, int64_t bytes) {
  SkinnyPlan s{};
  s.transposed = p.n > p.m;  // X: the big operand, in A's role
  const GemmArgs g = oriented(p, s.transposed).p;
  s.rows = g.m, s.small = g.n;
  s.k_major = g.a_sk == 1 || g.a_sm != 1;
  s.vec = (g.a_sk == 1 || g.a_sm == 1) && aligned16(g.a, g.a_sm, g.a_sk, bytes);
  s.mma = bytes == 2 && s.small >= kMmaMinSmall;
  s.cols = s.mma          ? (s.small <= 8 ? 8 : 16)
           : s.small <= 1 ? 1
           : s.small <= 2 ? 2
           : s.small <= 4 ? 4
                          : 8;
  s.y_mode = skinny_y_mode(s, g, bytes);
  s.groups = ceil_div(s.small, int64_t(s.cols));
  const int64_t wide = 128 / bytes;  // gemv_columns: rows of a 128-byte column
  // The tensor-core kernels along L: two warps of 32 rows a CTA where that still gives kMinCtas
  // CTAs (else 32 rows: 256 CTAs of 1 an SM would take two waves for 8192 rows).
  const bool two_row_warps =
      ceil_div(s.rows, int64_t(gemv_mma_tile_rows(true, 2))) * s.groups >= kMinCtas;
  s.tile_rows = int(s.mma ? gemv_mma_tile_rows(!s.k_major, !s.k_major && two_row_warps ? 2 : 1)
                    : s.k_major ? kGemvRowsThreads / 32 * gemv_rows_per_warp(s.cols)
                    : ceil_div(s.rows, wide) * s.groups >= kMinCtas ? wide
                                                                    : wide / 2);
  s.tiles = ceil_div(s.rows, int64_t(s.tile_rows));
  const int64_t ctas = s.tiles * s.groups, quanta = ceil_div(p.k, kSplitQuantum);
  int64_t splits = ctas >= kMinCtas ? 1 : min64(ceil_div(kTargetCtas, ctas), quanta);
  splits = max64(1, min64(splits, 65535));
  s.k_split = ceil_div(quanta, splits) * kSplitQuantum;
  s.splits = ceil_div(p.k, s.k_split);
  s.workspace =
      s.splits > 1 ? size_t(ceil_div(s.splits * s.small * s.rows * 4, int64_t(256)) * 256) : 0;
  return s;
}

}  // namespace tessera::ladder
