// kernels/gemm/06_skinny.cu -- ladder step 06: a bandwidth-bound GEMM for skinny problems.
//
// When m or n is small (a decode step, a GEMV), C = alpha A B + beta C is limited by reading the
// big operand once from HBM, not by math: 8 x 4096 x 4096 in f16 reads 32 MiB of the big operand
// for 0.5 GFLOP, ~11 microseconds at ~3 TB/s. This step reads the big operand exactly once per
// group of vectors with wide, coalesced loads, enough of them in flight to cover HBM latency, and
// does the math in fp32 FMA on CUDA cores (06_gemv.cuh; 16-bit with 3 or more vectors: mma.sync,
// 06_gemv_mma.cuh). The launch is in 06_skinny.cuh; this file holds the plan of a call, its words
// and the F32 / TF32 launchers, 06_skinny_f16.cu and 06_skinny_bf16.cu the others (one compile
// per element type).
//
// The problem as the kernels see it: a big operand X (L rows, K) and a small one Y (S rows, K),
// C(l, s) = alpha sum_k X(l,k) Y(s,k) + beta C(l, s). With n <= m, X = A (L = m) and Y = B;
// otherwise the transposed problem C^T = B A^T (common.cuh, `transposed`), X = B. Y's rows are
// taken in groups of 1, 2, 4 or 8 (the smallest power of two >= S, at most 8; more loop over
// groups, each reading X again). F16 and BF16 with 3 or more vectors take the tensor-core kernels
// (06_gemv_mma.cuh) on groups of 8 or 16.
//
// TF32 runs the same fp32 kernels: full fp32 FMA, no rounding of the operands to tf32 -- more
// accurate than tf32, at the same speed (the limit is the bytes, not the math).
#include <cstdio>

#include "06_skinny.cuh"

namespace tessera::ladder {

// The plan of a call (host only, no CUDA call): which operand is X, the kernel and how it reads
// X and Y, the grid and the split of K, and the workspace it needs.
SkinnyPlan plan_skinny(GemmArgs const& p, int64_t bytes) {
  SkinnyPlan s{};
  s.swap = p.n > p.m;
  const GemmArgsC g = s.swap ? transposed(p) : as_given(p);
  s.rows = g.p.m, s.small = g.p.n;
  s.k_major = g.p.a_sk == 1 || g.p.a_sm != 1;
  s.vec = (g.p.a_sk == 1 || g.p.a_sm == 1) && aligned16(g.p.a, g.p.a_sm, g.p.a_sk, bytes);
  s.mma = bytes == 2 && s.small >= kMmaMinSmall;
  s.cols = s.mma ? (s.small <= 8 ? 8 : 16)
                 : s.small <= 1 ? 1 : s.small <= 2 ? 2 : s.small <= 4 ? 4 : 8;
  // Y: 16-byte vectors along K (gemv_rows and the tensor-core kernels), or where Y is contiguous
  // along s, pieces of its S values of a k (the tensor-core kernels: pairs of vectors), else
  // element by element.
  const int64_t piece = tessera::min64(s.cols * bytes, 16);
  if ((s.k_major || s.mma) && g.p.b_sk == 1 && aligned16(g.p.b, g.p.b_sn, g.p.b_sk, bytes))
    s.y_mode = YMode::kAlongK;
  else if (s.mma)  // pairs of values along s (4-byte loads, transposed in registers)
    s.y_mode = g.p.b_sn == 1 && reinterpret_cast<uintptr_t>(g.p.b) % 4 == 0 && g.p.b_sk % 2 == 0 ? YMode::kAlongS
                                                                                                  : YMode::kElements;
  else if (s.cols > 1 && g.p.b_sn == 1 && reinterpret_cast<uintptr_t>(g.p.b) % piece == 0 &&
           g.p.b_sk * bytes % piece == 0)
    s.y_mode = YMode::kAlongS;
  else
    s.y_mode = YMode::kElements;
  s.groups = ceil_div(s.small, int64_t(s.cols));
  const int64_t wide = 128 / bytes;  // gemv_columns: rows of a 128-byte column
  // The tensor-core kernels along L: two warps of 32 rows a CTA where that still gives kMinCtas
  // CTAs (else 32 rows: 256 CTAs of 1 an SM would take two waves for 8192 rows).
  const bool two_row_warps = ceil_div(s.rows, int64_t(gemv_mma_tile_rows(true, 2))) * s.groups >= kMinCtas;
  s.tile_rows = int(s.mma       ? gemv_mma_tile_rows(!s.k_major, !s.k_major && two_row_warps ? 2 : 1)
                    : s.k_major ? kGemvRowsThreads / 32 * gemv_rows_per_warp(s.cols)
                    : ceil_div(s.rows, wide) * s.groups >= kMinCtas ? wide : wide / 2);
  s.tiles = ceil_div(s.rows, int64_t(s.tile_rows));
  const int64_t ctas = s.tiles * s.groups, quanta = ceil_div(p.k, kSplitQuantum);
  int64_t splits = ctas >= kMinCtas ? 1 : tessera::min64(ceil_div(kTargetCtas, ctas), quanta);
  splits = tessera::max64(1, tessera::min64(splits, 65535));
  s.k_split = ceil_div(quanta, splits) * kSplitQuantum;
  s.splits = ceil_div(p.k, s.k_split);
  s.workspace = s.splits > 1 ? size_t(ceil_div(s.splits * s.small * s.rows * 4, int64_t(256)) * 256) : 0;
  return s;
}

// The workspace of a call, and in *fits whether its grid (tiles x groups CTAs along x) fits one
// launch: 2^31 - 1 CTAs, which a GEMV of 2^35 rows or more (16 a CTA) would pass.
size_t workspace_skinny(GemmArgs const& p, int64_t bytes, bool* fits) {
  const SkinnyPlan s = plan_skinny(p, bytes);
  *fits = s.tiles <= 0x7fffffff / s.groups;
  return s.workspace;
}

// The plan's words for tessera_gemm_plan: how X and Y are read, the grid and the split.
void describe_skinny(GemmArgs const& p, int64_t bytes, bool tf32, char* text, size_t size) {
  const SkinnyPlan s = plan_skinny(p, bytes);
  const char* x = s.swap ? "B" : "A";
  const char* y = s.swap ? "A" : "B";
  char how[200];
  if (s.mma)
    std::snprintf(how, sizeof how,
                  !s.vec ? "read once element by element (not 16-byte aligned or no unit stride), a CTA per %d rows"
                  : s.k_major ? "read once along K by 16-byte vector loads straight into the MMA's fragments, a CTA "
                                "of 8 warps per %d rows"
                              : "read once down its columns by 16-byte vector loads transposed in registers "
                                "(movmatrix), a CTA of 12 warps per %d rows",
                  s.tile_rows);
  else if (s.k_major)
    std::snprintf(how, sizeof how, s.vec ? "read once along K by 16-byte vector loads, a warp per %d rows"
                                         : "read once along K element by element (not 16-byte aligned or no "
                                           "unit stride), a warp per %d rows",
                  s.tile_rows / (kGemvRowsThreads / 32));
  else
    std::snprintf(how, sizeof how, s.vec ? "read once down its columns, a CTA per %d rows walking K by 16-byte vectors"
                                         : "read once down its columns element by element (not 16-byte "
                                           "aligned), a CTA per %d rows",
                  s.tile_rows);
  const char* y_how = s.y_mode == YMode::kAlongK   ? "by 16-byte vectors along K"
                      : s.y_mode != YMode::kAlongS ? "element by element"
                      : s.mma                      ? "by 4-byte pairs along its rows, transposed in registers (movmatrix)"
                                                   : "a vector of the group's values per k";
  char groups[64] = "";
  if (s.groups > 1) std::snprintf(groups, sizeof groups, ", %lld groups (X read once per group)", (long long)s.groups);
  char vectors[64];
  if (s.small == 1)
    std::snprintf(vectors, sizeof vectors, "%s's vector", y);
  else
    std::snprintf(vectors, sizeof vectors, "%s's %lld vectors", y, (long long)s.small);
  int n = std::snprintf(text, size,
                        "; %sGEMV on %d vector%s at a time: %s (%lld x %lld) is the big operand, %s; %s read %s "
                        "(L1/L2)%s; %lld CTAs, %s%s",
                        s.mma ? "tensor-core " : "", s.cols, s.cols > 1 ? "s" : "", x, (long long)s.rows,
                        (long long)p.k, how, vectors, y_how, groups, (long long)(s.tiles * s.groups * s.splits),
                        s.mma ? "mma.sync m16n8k16 with fp32 accumulators" : "fp32 FMA accumulation",
                        tf32 ? " (TF32 is computed in full fp32: more accurate, same speed)" : "");
  if (n < 0 || size_t(n) >= size) return;
  if (s.splits > 1)
    std::snprintf(text + n, size - n,
                  "; K split over %lld CTAs per tile (%lld values each), fp32 partial sums in the "
                  "workspace added in order by a second kernel that applies alpha and beta",
                  (long long)s.splits, (long long)s.k_split);
}

cudaError_t launch_06_f32(GemmArgs const& p, cudaStream_t stream) { return launch<F32>(p, stream); }
cudaError_t launch_06_tf32(GemmArgs const& p, cudaStream_t stream) { return launch<F32>(p, stream); }

}  // namespace tessera::ladder
