// kernels/gemm/plan_text.cpp -- a GEMM plan in words (plan_text.hpp). Host only.
#include "plan_text.hpp"

#include <cstdio>
#include <tessera/atom/copy.hpp>

namespace tessera::ladder {

const char* status_text(int status) {
  switch (status) {
    case TESSERA_SUCCESS:
      return "success";
    case TESSERA_ERROR_INVALID_TRANS:
      return "invalid transa or transb: expected 'N' or 'T' (or 'C', 'n', 't', 'c')";
    case TESSERA_ERROR_INVALID_SIZE:
      return "invalid size: m, n and k must be >= 0";
    case TESSERA_ERROR_INVALID_LDA:
      return "invalid lda: must be >= max(1, m) for transa 'N', >= max(1, k) for 'T'";
    case TESSERA_ERROR_INVALID_LDB:
      return "invalid ldb: must be >= max(1, k) for transb 'N', >= max(1, n) for 'T'";
    case TESSERA_ERROR_INVALID_LDC:
      return "invalid ldc: must be >= max(1, m)";
    case TESSERA_ERROR_NULL_POINTER:
      return "null pointer: A (m*k > 0), B (k*n > 0) or C (m*n > 0) is NULL";
    case TESSERA_ERROR_UNKNOWN_DTYPE:
      return "unknown dtype: expected TESSERA_F32, TESSERA_TF32, TESSERA_F16, TESSERA_BF16, "
             "TESSERA_E4M3 or TESSERA_E5M2";
    case TESSERA_ERROR_UNKNOWN_KERNEL:
      return "unknown kernel name: tessera_gemm_kernels() lists the names (01_simt_global, "
             "02_simt_cp_async, 03_simt_pipelined, 04_mma_sync, 05_wgmma_tma, 06_skinny)";
    case TESSERA_ERROR_UNSUPPORTED_DTYPE:
      return "dtype not supported by the kernel: the fp32 SIMT kernels 01 and 02 run TESSERA_F32 "
             "only, 03 TESSERA_F32 and TESSERA_TF32 (in full fp32), the tensor-core kernels 04 and "
             "05 TESSERA_TF32, TESSERA_F16 and TESSERA_BF16, the skinny-problem kernel 06 those "
             "four; FP8 (TESSERA_E4M3, TESSERA_E5M2) runs on kernel 05 through "
             "tessera_scaled_gemm only, A and B of one format, C TESSERA_F32, TESSERA_F16 or "
             "TESSERA_BF16 (tessera_gemm_kernels_for(dtype) lists the kernels of a dtype)";
    case TESSERA_ERROR_TOO_LARGE:
      return "problem too large: more CTA tiles than one launch can have, or (kernel 05) m, n or k "
             "of 2^31 or more (TMA coordinates are 32-bit)";
    case TESSERA_ERROR_CUDA:
      return "CUDA error: the kernel launch failed (see cudaGetLastError for the cause)";
    case TESSERA_ERROR_WORKSPACE:
      return "workspace too small or not 256-byte aligned: tessera_gemm_workspace_size gives the "
             "bytes these arguments need";
    case TESSERA_ERROR_INVALID_SCALE:
      return "invalid scales: scaling must be TESSERA_SCALE_TENSOR, TESSERA_SCALE_ROW, "
             "TESSERA_SCALE_BLOCK_A_ROWS or TESSERA_SCALE_BLOCK_B_COLUMNS, scale_a and scale_b "
             "device pointers to fp32 (gemm.h says how many each takes), and accumulation "
             "TESSERA_ACCUMULATE_PROMOTED or TESSERA_ACCUMULATE_FAST (block scales: PROMOTED)";
    default:
      return "unknown status code";
  }
}

namespace {

using std::string;
using std::to_string;

const char* dtype_name(tessera_dtype d) {
  constexpr const char* kNames[] = {"F32", "TF32", "F16", "BF16", "E4M3", "E5M2"};
  return int(d) >= 0 && int(d) < 6 ? kNames[int(d)] : "?";
}

const char* scaling_name(tessera_scaling s) {
  switch (s) {
    case TESSERA_SCALE_ROW:
      return "row-wise";
    case TESSERA_SCALE_BLOCK_A_ROWS:
      return "1 x 128 (A) and 128 x 128 (B) block";
    case TESSERA_SCALE_BLOCK_B_COLUMNS:
      return "128 x 128 (A) and 1 x 128 (B) block";
    default:
      return "per-tensor";
  }
}

string problem_words(GemmCall const& c) {
  char dims[200];
  std::snprintf(dims, sizeof dims, "%s", "");
  if (c.scaled)
    std::snprintf(dims, sizeof dims, "%s x %s -> %s, %s scales, %s,", dtype_name(c.dtype),
                  dtype_name(c.b_dtype), dtype_name(c.c_dtype), scaling_name(c.scaling),
                  c.accumulation == TESSERA_ACCUMULATE_FAST
                      ? "fast accumulation (all of K in the tensor cores)"
                      : "sums promoted to fp32 every 128 of K");
  const string scaled = dims;
  std::snprintf(dims, sizeof dims,
                "%s %c%c m=%lld n=%lld k=%lld lda=%lld ldb=%lld ldc=%lld: ",
                c.scaled ? scaled.c_str() : dtype_name(c.dtype),
                c.transa, c.transb, (long long)c.m, (long long)c.n, (long long)c.k,
                (long long)c.lda, (long long)c.ldb, (long long)c.ldc);
  return dims;
}

string kernel_words(GemmPlan const& p) {
  string why = "requested by name";
  if (p.reason != KernelReason::kByName)
    why = string("the built-in choice for ") + dtype_name(p.call.dtype);
  const int64_t skinny_max = p.call.dtype == TESSERA_F32    ? 8
                             : p.call.dtype == TESSERA_TF32 ? 4
                                                            : 16;
  if (p.reason == KernelReason::kSkinny)
    why += " (min(m, n) <= " + to_string(skinny_max) +
           ": bandwidth-bound, the big operand read once at HBM speed)";
  if (p.reason == KernelReason::kBeyondTma)
    why += " (not 05: m, n or k is 2^31 or more, beyond TMA's 32-bit coordinates)";
  if (p.reason == KernelReason::kPackingSmall)
    why += " (not 05: an operand must be packed first and the problem is below 1280^3, not skinny)";
  return string("kernel ") + kernel_name(p.kernel) + ", " + why;
}

// How a tensor-core kernel reads an operand (the caller's A or B).
string operand_words(GemmPlan const& p, const char* name, const void* ptr, int64_t s_mn,
                     int64_t s_k, bool packed) {
  const int64_t bytes = elem_bytes(p.call.dtype);
  const bool k_major = s_k == 1;
  const string major = k_major ? "K-major" : "MN-major";
  const bool aligned =
      tma_addressable(reinterpret_cast<uintptr_t>(ptr), (k_major ? s_mn : s_k) * bytes);
  const string first = string("; ") + name;
  if (p.kernel == GemmKernel::kWgmmaTma) {
    if (!packed)
      return first + " read by TMA where it lies (" + major +
             (bytes == 4 && !k_major
                  ? ": to wgmma through registers, tf32 wgmma reads shared tiles K-major only"
                  : "") +
             ")";
    return first + " packed K-major into a scratch buffer first (" + major +
           (aligned ? (bytes == 1 ? ": FP8 wgmma reads K-major tiles only"
                                  : ": tf32 wgmma reads it K-major only in B's role")
                    : ": pointer or leading dimension not 16-byte aligned") +
           ")";
  }
  if (p.kernel == GemmKernel::kMmaSync)
    return first + (!packed ? " read by cp.async where it lies (" + major + ")"
                            : string(" packed K-major into a scratch buffer first (pointer or "
                                     "leading dimension not 16-byte aligned)"));
  return "";
}

string skinny_how(SkinnyPlan const& s) {
  char how[200];
  if (s.mma)
    std::snprintf(how, sizeof how,
                  !s.vec ? "read once element by element (not 16-byte aligned or no unit stride), "
                           "a CTA per %d rows"
                  : s.k_major ? "read once along K by 16-byte vector loads straight into the MMA's "
                                "fragments, a CTA of 8 warps per %d rows"
                              : "read once down its columns by 16-byte vector loads transposed in "
                                "registers (movmatrix), a CTA of 12 warps per %d rows",
                  s.tile_rows);
  else if (s.k_major)
    std::snprintf(how, sizeof how,
                  s.vec ? "read once along K by 16-byte vector loads, a warp per %d rows"
                        : "read once along K element by element (not 16-byte aligned or no "
                          "unit stride), a warp per %d rows",
                  s.tile_rows / (kGemvRowsThreads / 32));
  else
    std::snprintf(how, sizeof how,
                  s.vec ? "read once down its columns, a CTA per %d rows walking K by 16-byte "
                          "vectors"
                        : "read once down its columns element by element (not 16-byte "
                          "aligned), a CTA per %d rows",
                  s.tile_rows);
  return how;
}

// Kernel 06: which operand it streams and how, how it reads the vectors, the grid and the split.
string skinny_words(GemmPlan const& p) {
  SkinnyPlan const& s = p.skinny;
  const char* x = s.transposed ? "B" : "A";
  const char* y = s.transposed ? "A" : "B";
  const char* y_how = s.y_mode == YMode::kAlongK   ? "by 16-byte vectors along K"
                      : s.y_mode != YMode::kAlongS ? "element by element"
                      : s.mma
                          ? "by 4-byte pairs along its rows, transposed in registers (movmatrix)"
                          : "a vector of the group's values per k";
  const string groups =
      s.groups > 1 ? ", " + to_string(s.groups) + " groups (X read once per group)" : string();
  const string vectors =
      s.small == 1 ? string(y) + "'s vector" : string(y) + "'s " + to_string(s.small) + " vectors";
  char text[640];
  std::snprintf(text, sizeof text,
                "; %sGEMV on %d vector%s at a time: %s (%lld x %lld) is the big operand, %s; %s "
                "read %s (L1/L2)%s; %lld CTAs, %s%s",
                s.mma ? "tensor-core " : "", s.cols, s.cols > 1 ? "s" : "", x, (long long)s.rows,
                (long long)p.args.k, skinny_how(s).c_str(), vectors.c_str(), y_how, groups.c_str(),
                (long long)(s.tiles * s.groups * s.splits),
                s.mma ? "mma.sync m16n8k16 with fp32 accumulators" : "fp32 FMA accumulation",
                p.call.dtype == TESSERA_TF32
                    ? " (TF32 is computed in full fp32: more accurate, same speed)"
                    : "");
  string out = text;
  if (s.splits > 1)
    out += "; K split over " + to_string(s.splits) + " CTAs per tile (" + to_string(s.k_split) +
           " values each), fp32 partial sums in the workspace added in order by a second kernel "
           "that applies alpha and beta";
  return out;
}

const char* kTransposedWords =
    " on the transposed problem C^T = op(B)^T op(A)^T (m < n: the small dimension along the "
    "tile's columns)";

// Kernel 05: its tile and orientation, and how its clusters share the tiles.
string wgmma_words(GemmPlan const& p) {
  string out = "; tile " + to_string(p.tile_m) + " x " + to_string(p.tile_n);
  const char* along_n = "one tile row: a cluster's two CTAs on neighbouring tiles along N";
  if (p.tile_m == WgmmaShape::kShortBM && p.cluster_along_n)
    out += string(" (one consumer warpgroup; ") + along_n + ")";
  else if (p.tile_m == WgmmaShape::kShortBM)
    out += " (one consumer warpgroup: twice the CTAs of the 128-row tile, in one wave)";
  else if (p.cluster_along_n && p.fp8.promoted)
    out += string(" (") + along_n + ")";
  else if (p.cluster_along_n)
    out += " (a cluster's two CTAs on neighbouring tiles along N, sharing A's tile: multicast)";
  const bool by_b_columns = p.call.scaled && p.call.scaling == TESSERA_SCALE_BLOCK_B_COLUMNS;
  if (p.transposed && by_b_columns)
    out += " on the transposed problem C^T = op(B)^T op(A)^T (B's scales per column and block of "
           "K become the kernel's per row)";
  else if (p.transposed && p.call.m > p.call.n)  // (the few on M: rule "few on M")
    out += " on the transposed problem C^T = op(B)^T op(A)^T (n < m: the few columns along the "
           "tile's rows, as block scales run)";
  else if (p.transposed)
    out += kTransposedWords;
  else if (p.cluster_shares_b)
    out +=
        " on the problem as given (m's rows fill one cluster: its two CTAs share B's tile by "
        "multicast)";
  if (p.fp8.promoted && p.call.accumulation == TESSERA_ACCUMULATE_FAST)
    out += "; the promoted kernel, sums promoted (fast accumulation on at most 128 rows or "
           "columns: it streams them faster)";
  if (p.schedule == Schedule::kAtLaunch)
    return out + "; the tiles' split over the GPU's clusters is decided at launch (no GPU found)";
  StreamK const& w = p.work;
  char text[256];
  if (p.schedule == Schedule::kSplitK)
    std::snprintf(text, sizeof text,
                  "; split-K: %lld cluster tiles x %lld splits of ~%lld k-tiles on %lld clusters "
                  "(the tiles alone would fill %lld of %d clusters)",
                  (long long)w.tiles, (long long)w.splits, (long long)ceil_div(w.k_tiles, w.splits),
                  (long long)w.clusters, (long long)w.tiles, p.resident);
  else if (p.schedule == Schedule::kStreamK)
    std::snprintf(text, sizeof text,
                  "; stream-K on %lld clusters: %lld of %lld cluster tiles whole, the other %lld "
                  "split into ranges of ~%lld k-tiles (whole tiles would leave the last wave "
                  "ragged)",
                  (long long)w.clusters, (long long)w.dp_tiles, (long long)w.tiles,
                  (long long)(w.tiles - w.dp_tiles),
                  (long long)((w.tiles - w.dp_tiles) * w.k_tiles / w.clusters));
  else
    std::snprintf(text, sizeof text, "; %lld cluster tiles on %lld clusters, whole",
                  (long long)w.tiles, (long long)w.clusters);
  return out + text;
}

// Kernel 03: its tiles, orientation and split of K.
string simt_words(GemmPlan const& p) {
  char text[400];
  const long long tiles = p.simt_tiles, bm = p.tile_m, bn = p.tile_n, bk = SimtShape::kBK;
  const char* transposed = p.transposed ? kTransposedWords : "";
  if (p.schedule == Schedule::kAtLaunch)
    std::snprintf(text, sizeof text,
                  "; %lld tiles of %lld x %lld%s; the split of K is decided at launch (no GPU "
                  "found)",
                  tiles, bm, bn, transposed);
  else if (p.schedule == Schedule::kSplitK)
    std::snprintf(text, sizeof text,
                  "; split-K: %lld tiles of %lld x %lld%s in %lld splits of %lld k-tiles of %lld "
                  "(the tiles alone would fill %lld of %d CTA slots), fp32 partial sums in the "
                  "workspace added in order by a second kernel that applies alpha and beta",
                  tiles, bm, bn, transposed, (long long)p.split.splits,
                  (long long)p.split.k_tiles_per_split, bk, tiles, p.resident);
  else
    std::snprintf(text, sizeof text, "; %lld tiles of %lld x %lld%s on %d CTA slots, K whole",
                  tiles, bm, bn, transposed, p.resident);
  string out = text;
  if (p.call.dtype == TESSERA_TF32)
    out += "; TF32 is computed in full fp32 (FMA on CUDA cores: more accurate)";
  return out;
}

string store_words(GemmPlan const& p) {
  if (p.transposed && p.tma_store) return "; C^T stored by TMA along C's rows";
  if (p.transposed) return "; C^T stored by predicated vector stores along C's rows";
  if (p.tma_store) return "; C stored by TMA";
  return "; C stored by predicated vector stores (the TMA store needs 16-bit C, beta = 0, "
         "16-byte alignment and m % 8 == 0)";
}

}  // namespace

std::string describe(GemmPlan const& p) {
  if (p.status != TESSERA_SUCCESS) return status_text(p.status);
  GemmCall const& c = p.call;
  string text = problem_words(c);
  if (p.quick == QuickReturn::kEmpty) return text + "nothing to do (m or n is 0)";
  if (p.quick == QuickReturn::kScaleC)
    return text + (c.beta == 1.0f ? "nothing to do (k = 0 or alpha = 0, beta = 1)"
                                  : "C = beta * C (k = 0 or alpha = 0), one scaling kernel");
  text += kernel_words(p);
  GemmArgs const& a = p.args;
  text += operand_words(p, "A", c.a, a.a_sm, a.a_sk, p.pack_a);
  text += operand_words(p, "B", c.b, a.b_sn, a.b_sk, p.pack_b);
  if (p.kernel == GemmKernel::kSkinny) text += skinny_words(p);
  if (p.kernel == GemmKernel::kWgmmaTma) text += wgmma_words(p);
  if (p.copy_block_scales)
    text += "; the per-row block scales copied to a 16-byte pitch first (TMA reads them)";
  if (p.kernel == GemmKernel::kSimtPipelined) text += simt_words(p);
  if (p.workspace) text += "; workspace " + to_string(p.workspace) + " bytes";
  if (p.kernel == GemmKernel::kWgmmaTma) text += store_words(p);
  return text;
}

}  // namespace tessera::ladder
