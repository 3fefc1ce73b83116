// kernels/gemm_abi.cu -- libtessera_gemm.so: the C ABI of include/tessera/gemm.h.
//
// Order of work in every call: validate all arguments (pure host code, no CUDA call), take the
// BLAS quick returns, map BLAS's column-major op(A), op(B) onto the kernels' (M,K) / (N,K)
// strides, pick the kernel, launch. Only the launch touches the CUDA runtime.
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include <tessera/gemm.h>

#include "gemm/common.cuh"

namespace tessera::ladder {
cudaError_t launch_01(GemmArgs const&, cudaStream_t);
cudaError_t launch_02(GemmArgs const&, cudaStream_t);
cudaError_t launch_03(GemmArgs const&, cudaStream_t);
int ctas_03(int64_t bn);  // 03's CTAs on tiles of bn columns resident on the GPU at once (0 without a GPU)
cudaError_t launch_04_f16(GemmArgs const&, cudaStream_t);
cudaError_t launch_04_bf16(GemmArgs const&, cudaStream_t);
cudaError_t launch_04_tf32(GemmArgs const&, cudaStream_t);
// Kernel 05, one translation unit per dtype and C tile (05_wgmma_tma_<type>[_n128|_n64|_n64_m64].cu):
// its launcher of the problem with C at given strides, and its resident clusters (0 without a GPU).
cudaError_t launch_05_f16_n256(GemmArgsC const&, cudaStream_t);
cudaError_t launch_05_f16_n128(GemmArgsC const&, cudaStream_t);
cudaError_t launch_05_f16_n64(GemmArgsC const&, cudaStream_t);
cudaError_t launch_05_bf16_n256(GemmArgsC const&, cudaStream_t);
cudaError_t launch_05_bf16_n128(GemmArgsC const&, cudaStream_t);
cudaError_t launch_05_bf16_n64(GemmArgsC const&, cudaStream_t);
cudaError_t launch_05_tf32_n256(GemmArgsC const&, cudaStream_t);
cudaError_t launch_05_tf32_n128(GemmArgsC const&, cudaStream_t);
cudaError_t launch_05_tf32_n64(GemmArgsC const&, cudaStream_t);
cudaError_t launch_05_f16_n64_m64(GemmArgsC const&, cudaStream_t);
cudaError_t launch_05_bf16_n64_m64(GemmArgsC const&, cudaStream_t);
int clusters_05_f16_n256(), clusters_05_f16_n128(), clusters_05_f16_n64();
int clusters_05_bf16_n256(), clusters_05_bf16_n128(), clusters_05_bf16_n64();
int clusters_05_tf32_n256(), clusters_05_tf32_n128(), clusters_05_tf32_n64();
int clusters_05_f16_n64_m64(), clusters_05_bf16_n64_m64();
cudaError_t launch_06_f32(GemmArgs const&, cudaStream_t);
cudaError_t launch_06_tf32(GemmArgs const&, cudaStream_t);
cudaError_t launch_06_f16(GemmArgs const&, cudaStream_t);
cudaError_t launch_06_bf16(GemmArgs const&, cudaStream_t);
// Kernel 06's plan (06_skinny.cu, host only): its workspace bytes and whether its grid fits one
// launch, and its words for the plan.
size_t workspace_skinny(GemmArgs const& p, int64_t elem_bytes, bool* fits);
void describe_skinny(GemmArgs const& p, int64_t elem_bytes, bool tf32, char* text, size_t size);

namespace {

// The bytes of one element as the kernels read it (TF32: fp32 storage).
constexpr int64_t elem_bytes(tessera_dtype d) { return d == TESSERA_F32 || d == TESSERA_TF32 ? 4 : 2; }

// Kernel 05's tiles per dtype, and its launcher per dtype: the tile hopper_tile picks (tiles.hpp),
// the problem transposed where it says so.
struct Tile05 {
  cudaError_t (*launch)(GemmArgsC const&, cudaStream_t);
  int (*clusters)();
};
constexpr Tile05 kTiles05[3][4] = {  // [TF32, F16, BF16][128 x 256, 128 x 128, 128 x 64, 64 x 64]
    {{launch_05_tf32_n256, clusters_05_tf32_n256}, {launch_05_tf32_n128, clusters_05_tf32_n128},
     {launch_05_tf32_n64, clusters_05_tf32_n64}, {nullptr, nullptr}},  // (no short tile: has_short_05)
    {{launch_05_f16_n256, clusters_05_f16_n256}, {launch_05_f16_n128, clusters_05_f16_n128},
     {launch_05_f16_n64, clusters_05_f16_n64}, {launch_05_f16_n64_m64, clusters_05_f16_n64_m64}},
    {{launch_05_bf16_n256, clusters_05_bf16_n256}, {launch_05_bf16_n128, clusters_05_bf16_n128},
     {launch_05_bf16_n64, clusters_05_bf16_n64}, {launch_05_bf16_n64_m64, clusters_05_bf16_n64_m64}}};
// The short 64 x 64 tile is built for f16 and bf16 (tf32 takes an MN-major A through registers,
// laid out for two consumer warpgroups).
constexpr bool has_short_05(tessera_dtype d) { return d == TESSERA_F16 || d == TESSERA_BF16; }
Tile05 const& tile_05(tessera_dtype dtype, int64_t tile_n, int64_t tile_m = Hopper05::kBM) {
  const int by_type = dtype == TESSERA_TF32 ? 0 : dtype == TESSERA_F16 ? 1 : 2;
  const int by_size = tile_m == Hopper05::kShortBM && has_short_05(dtype) ? 3 : tile_n == 256 ? 0 : tile_n == 128 ? 1 : 2;
  return kTiles05[by_type][by_size];
}
// Kernel 05's resident clusters (its persistent grid) for the tile of tile_m x tile_n; 0 without a GPU.
int clusters_05(tessera_dtype dtype, int64_t tile_n, int64_t tile_m = Hopper05::kBM) {
  return tile_05(dtype, tile_n, tile_m).clusters();
}
template <tessera_dtype kDtype>
cudaError_t launch_05(GemmArgs const& g, cudaStream_t stream) {
  const HopperTile tile = hopper_tile(g.m, g.n, hopper_k_tiles(g.k, elem_bytes(kDtype)), clusters_05(kDtype, Hopper05::kWideN),
                                      has_short_05(kDtype), hopper_reads_directly(g.b, g.b_sn, g.b_sk, elem_bytes(kDtype)));
  return tile_05(kDtype, tile.bn, tile.bm).launch(tile.swapped ? transposed(g) : as_given(g), stream);
}

// A kernel of the ladder and its launcher per dtype (nullptr: the kernel does not run it).
struct KernelEntry {
  const char* name;
  const char* alias;
  Launcher f32, tf32, f16, bf16;
  constexpr Launcher launcher(tessera_dtype d) const {
    return d == TESSERA_F32 ? f32 : d == TESSERA_TF32 ? tf32 : d == TESSERA_F16 ? f16 : bf16;
  }
};
constexpr KernelEntry kKernels[] = {
    {"01_simt_global", "01", launch_01, nullptr, nullptr, nullptr},
    {"02_simt_cp_async", "02", launch_02, nullptr, nullptr, nullptr},
    {"03_simt_pipelined", "03", launch_03, launch_03, nullptr, nullptr},  // TF32: in full fp32
    {"04_mma_sync", "04", nullptr, launch_04_tf32, launch_04_f16, launch_04_bf16},
    {"05_wgmma_tma", "05", nullptr, launch_05<TESSERA_TF32>, launch_05<TESSERA_F16>, launch_05<TESSERA_BF16>},
    {"06_skinny", "06", launch_06_f32, launch_06_tf32, launch_06_f16, launch_06_bf16},
};
// The built-in choice per dtype: the fastest kernel of the ladder that runs it (F32: 03;
// TF32/F16/BF16: 05, except small F16/BF16 problems whose operands 05 must pack first -- see
// `prefer_04`). The library is built for sm_90a only (Hopper), the one architecture it runs on.
constexpr int kDefaultF32 = 2, kSimtPipelined = 2, kDefaultTensorCore = 4, kMmaSync = 3, kHopper = 4, kSkinny = 5;
constexpr int64_t kTmaMaxExtent = 0x7fffffff;  // TMA box coordinates are int32
bool is_hopper(const KernelEntry* e) { return e == &kKernels[kHopper]; }
bool is_skinny(const KernelEntry* e) { return e == &kKernels[kSkinny]; }

// The built-in choice takes 06 (bandwidth-bound: the big operand read once; a GEMV on 1, 2, 4 or
// 8 vectors at a time in fp32 FMA on CUDA cores, 06_gemv.cuh, and for 16-bit from 3 vectors on
// the tensor cores, 06_gemv_mma.cuh) for skinny problems where it
// beats the tensor-core kernel 05 on its narrow tiles and 03 (skinny_takes). Measured on the
// H100 (ratio to cuBLAS, GPU time, 06 vs the other in one run, bench/results/gemm_shapes.md):
//   F32: up to 8 columns (8 x 4096 x 4096 NN / TN 1.34 / 1.35, 4096 x 8 x 4096 1.39 / 1.55, 8192 x
//     8 x 8192 NN 1.17); from 9 columns 03 on its 128 x 32 tile with split-K (16 columns: 06
//     0.45-1.34, 03 0.77-1.67: 06 reads the big operand once per 8 columns);
//   TF32: up to 4 (4096 x 4 x 4096 NN / TN 1.15 / 0.96 vs 05's 0.93 / 0.91); with 8, 05 is as fast
//     or faster (8192 x 8 x 8192 NN 0.85 vs 0.92);
//   F16, BF16: up to 16 (1-2 columns on CUDA cores: 2 x 4096 x 4096 NN / TN 1.26-1.37 vs 05's
//     0.90-1.06, one column 0.95-1.16 vs 0.73-0.91; 3-16 on the tensor cores, 06_gemv_mma.cuh:
//     4 x 4096 x 4096 NN / TN 1.34-1.42 / 1.36-1.42 vs 0.91-0.93 / 1.01-1.05, 8 x 4096 x 4096
//     1.00 / 1.00 vs 0.79 / 0.77, 4096 x 16 x 4096 0.93 / 1.06 vs 0.84 / 0.84); from 17 05 (32 x
//     4096 x 4096 NN / TN 0.65 / 0.77 on 06's groups of 32 vs 0.78 / 0.78: Y's fragments, read
//     per warp, outweigh X's bytes).
int64_t skinny_max_mn(tessera_dtype dtype) {
  return dtype == TESSERA_F32 ? 8 : dtype == TESSERA_TF32 ? 4 : 16;
}
bool skinny_takes(tessera_dtype dtype, int64_t m, int64_t n) {
  const int64_t small = tessera::min64(m, n);
  return small >= 1 && small <= skinny_max_mn(dtype);
}

// Which operands kernel 05 packs into a scratch buffer before its launch (common.cuh's rules for
// A and B in their roles after hopper_tile's swap): any TMA cannot address, and a tf32 MN-major
// one in B's role (A's goes through registers).
struct Packs05 {
  bool a, b;  // the caller's A and B
};
Packs05 packs_05(GemmArgs const& p, int64_t bytes, HopperTile const& tile) {
  const GemmArgs q = tile.swapped ? transposed(p).p : p;
  const bool first = !hopper_reads(q.a, q.a_sm, q.a_sk, bytes, true);
  const bool second = !hopper_reads(q.b, q.b_sn, q.b_sk, bytes, false);
  return tile.swapped ? Packs05{second, first} : Packs05{first, second};
}

// Kernel 05 packs an operand it cannot read where it lies into a scratch buffer first (allocation
// and a transposing copy). For F16/BF16 below ~1280^3 kernel 04 wins such calls (H200, tf32 NN
// when 05 packed A, 05 vs 04: 1024^3 0.074 vs 0.062 ms, 1536^3 0.104 vs 0.144 ms, 2048^3 0.106
// vs 0.186 ms) -- but not skinny ones, where 04's 128 x 128 tiles leave most SMs idle (H100, tf32
// NN 16 x 4096 x 4096: 04 0.20x cuBLAS, 05 with its packing and split-K 0.66x). Not for TF32:
// 04's tf32 reaches ~100 TFLOP/s, and 05 with its packing wins even small calls (H100, ratio to
// cuBLAS, 05 vs 04: 777 x 1333 x 999 NN 0.91 vs 0.59, TN 0.93 vs 0.61, both operands packed).
bool prefer_04(GemmArgs const& p, tessera_dtype dtype, Packs05 const& packs) {
  if (dtype == TESSERA_TF32) return false;
  const bool skinny = tessera::max64(p.m, p.n) >= 8 * tessera::min64(p.m, p.n);
  return (packs.a || packs.b) && !skinny && double(p.m) * double(p.n) * double(p.k) < 1280.0 * 1280.0 * 1280.0;
}

// C = beta * C over an m x n column-major matrix (k = 0 or alpha = 0); beta = 0 writes zeros.
template <class T>
__global__ void scale_c(T* c, int64_t m, int64_t n, int64_t ldc, float beta) {
  const int64_t total = m * n;
  for (int64_t i = int64_t(blockIdx.x) * blockDim.x + threadIdx.x; i < total;
       i += int64_t(gridDim.x) * blockDim.x) {
    T* p = c + i % m + i / m * ldc;
    *p = beta == 0.0f ? T(0.0f) : T(beta * float(*p));
  }
}

bool is_op(char t) { return t == 'N' || t == 'n' || t == 'T' || t == 't' || t == 'C' || t == 'c'; }
bool transposed(char t) { return t != 'N' && t != 'n'; }

}  // namespace
}  // namespace tessera::ladder

using namespace tessera::ladder;

extern "C" const char* tessera_gemm_kernels(void) {
  return "01_simt_global,02_simt_cp_async,03_simt_pipelined,04_mma_sync,05_wgmma_tma,06_skinny";
}

extern "C" const char* tessera_gemm_kernels_for(tessera_dtype dtype) {
  switch (dtype) {
    case TESSERA_F32: return "01_simt_global,02_simt_cp_async,03_simt_pipelined,06_skinny";
    case TESSERA_TF32: return "03_simt_pipelined,04_mma_sync,05_wgmma_tma,06_skinny";
    case TESSERA_F16: case TESSERA_BF16: return "04_mma_sync,05_wgmma_tma,06_skinny";
    default: return "";
  }
}

extern "C" const char* tessera_status_string(int status) {
  switch (status) {
    case TESSERA_SUCCESS: return "success";
    case TESSERA_ERROR_INVALID_TRANS: return "invalid transa or transb: expected 'N' or 'T' (or 'C', 'n', 't', 'c')";
    case TESSERA_ERROR_INVALID_SIZE: return "invalid size: m, n and k must be >= 0";
    case TESSERA_ERROR_INVALID_LDA: return "invalid lda: must be >= max(1, m) for transa 'N', >= max(1, k) for 'T'";
    case TESSERA_ERROR_INVALID_LDB: return "invalid ldb: must be >= max(1, k) for transb 'N', >= max(1, n) for 'T'";
    case TESSERA_ERROR_INVALID_LDC: return "invalid ldc: must be >= max(1, m)";
    case TESSERA_ERROR_NULL_POINTER: return "null pointer: A (m*k > 0), B (k*n > 0) or C (m*n > 0) is NULL";
    case TESSERA_ERROR_UNKNOWN_DTYPE: return "unknown dtype: expected TESSERA_F32, TESSERA_TF32, TESSERA_F16 or TESSERA_BF16";
    case TESSERA_ERROR_UNKNOWN_KERNEL: return "unknown kernel name: tessera_gemm_kernels() lists the names (01_simt_global, 02_simt_cp_async, 03_simt_pipelined, 04_mma_sync, 05_wgmma_tma, 06_skinny)";
    case TESSERA_ERROR_UNSUPPORTED_DTYPE: return "dtype not supported by the kernel: the fp32 SIMT kernels 01 and 02 run TESSERA_F32 only, 03 TESSERA_F32 and TESSERA_TF32 (in full fp32), the tensor-core kernels 04 and 05 TESSERA_TF32, TESSERA_F16 and TESSERA_BF16, the skinny-problem kernel 06 all four (tessera_gemm_kernels_for(dtype) lists the kernels of a dtype)";
    case TESSERA_ERROR_TOO_LARGE: return "problem too large: more CTA tiles than one launch can have, or (kernel 05) m, n or k of 2^31 or more (TMA coordinates are 32-bit)";
    case TESSERA_ERROR_CUDA: return "CUDA error: the kernel launch failed (see cudaGetLastError for the cause)";
    case TESSERA_ERROR_WORKSPACE: return "workspace too small or not 256-byte aligned: tessera_gemm_workspace_size gives the bytes these arguments need";
    default: return "unknown status code";
  }
}

namespace {

// What a call will do, decided on the host before any CUDA call: the status of the arguments,
// the BLAS quick return if any, the kernel and why, and how it reads and writes the operands.
struct Plan {
  int status = TESSERA_SUCCESS;
  bool quick = false;  // m or n is 0, or C = beta * C (k = 0 or alpha = 0)
  const KernelEntry* entry = nullptr;
  GemmArgs args;
  size_t workspace = 0;  // bytes of the operands the kernel packs first (06: its partial sums)
  // The words, built only where they are read (tessera_gemm_plan, TESSERA_GEMM_LOG): a call
  // without them skips ~2.5 us of host time spent on strings.
  bool describe = true;
  std::string text;
  template <class Words>
  void say(Words&& words) {
    if (describe) text += words();
  }
};

const char* dtype_name(tessera_dtype d) {
  return d == TESSERA_F32 ? "F32" : d == TESSERA_TF32 ? "TF32" : d == TESSERA_F16 ? "F16" : "BF16";
}

Plan make_plan(const char* kernel, tessera_dtype dtype, char transa, char transb, int64_t m,
               int64_t n, int64_t k, float alpha, const void* A, int64_t lda, const void* B,
               int64_t ldb, float beta, const void* C, int64_t ldc, bool describe = true) {
  Plan plan;
  plan.describe = describe;
  auto fail = [&](int status) {
    plan.status = status;
    plan.text = tessera_status_string(status);
    return plan;
  };
  // 1. Validation: host only.
  const int d = int(dtype);
  if (d < TESSERA_F32 || d > TESSERA_BF16) return fail(TESSERA_ERROR_UNKNOWN_DTYPE);
  const KernelEntry* entry = &kKernels[dtype == TESSERA_F32 ? kDefaultF32 : kDefaultTensorCore];
  if (kernel) {
    entry = nullptr;
    for (auto const& e : kKernels)
      if (!std::strcmp(kernel, e.name) || !std::strcmp(kernel, e.alias)) entry = &e;
    if (!entry) return fail(TESSERA_ERROR_UNKNOWN_KERNEL);
  }
  if (!is_op(transa) || !is_op(transb)) return fail(TESSERA_ERROR_INVALID_TRANS);
  if (m < 0 || n < 0 || k < 0) return fail(TESSERA_ERROR_INVALID_SIZE);
  const bool ta = transposed(transa), tb = transposed(transb);
  if (lda < tessera::max64(1, ta ? k : m)) return fail(TESSERA_ERROR_INVALID_LDA);
  if (ldb < tessera::max64(1, tb ? n : k)) return fail(TESSERA_ERROR_INVALID_LDB);
  if (ldc < tessera::max64(1, m)) return fail(TESSERA_ERROR_INVALID_LDC);
  if ((m > 0 && k > 0 && !A) || (n > 0 && k > 0 && !B) || (m > 0 && n > 0 && !C))
    return fail(TESSERA_ERROR_NULL_POINTER);
  if (!entry->launcher(dtype)) return fail(TESSERA_ERROR_UNSUPPORTED_DTYPE);
  // 128-row tiles: the 2-D grids of 01/02 allow 65535 tiles along N, 03's 1-D grid 2^31-1 tiles.
  if (tessera::ceil_div(n, 128) > 65535 || tessera::ceil_div(m, 128) > 0x7fffffff ||
      tessera::ceil_div(m, 128) * tessera::ceil_div(n, 128) > 0x7fffffff)
    return fail(TESSERA_ERROR_TOO_LARGE);
  std::string why;  // the reasons for the kernel, when described
  auto because = [&](auto&& words) {
    if (describe) why += words();
  };
  because([&] { return kernel ? std::string("requested by name") : std::string("the built-in choice for ") + dtype_name(dtype); });
  if (!kernel && skinny_takes(dtype, m, n)) {
    entry = &kKernels[kSkinny];
    because([&] {
      return " (min(m, n) <= " + std::to_string(skinny_max_mn(dtype)) +
             ": bandwidth-bound, the big operand read once at HBM speed)";
    });
  }
  // 05 addresses its operands through TMA coordinates, which are 32-bit: the built-in choice
  // takes 04 for larger dimensions, a request for 05 by name is refused.
  const bool beyond_tma = m > kTmaMaxExtent || n > kTmaMaxExtent || k > kTmaMaxExtent;
  if (beyond_tma && is_hopper(entry)) {
    if (kernel) return fail(TESSERA_ERROR_TOO_LARGE);
    entry = &kKernels[kMmaSync];
    because([] { return " (not 05: m, n or k is 2^31 or more, beyond TMA's 32-bit coordinates)"; });
  }

  // 2. BLAS quick returns.
  plan.say([&] {
    char dims[160];
    std::snprintf(dims, sizeof dims, "%s %c%c m=%lld n=%lld k=%lld lda=%lld ldb=%lld ldc=%lld: ",
                  dtype_name(dtype), transa, transb, (long long)m, (long long)n, (long long)k,
                  (long long)lda, (long long)ldb, (long long)ldc);
    return std::string(dims);
  });
  if (m == 0 || n == 0) {
    plan.quick = true;
    plan.say([] { return "nothing to do (m or n is 0)"; });
    return plan;
  }
  if (k == 0 || alpha == 0.0f) {
    plan.quick = true;
    plan.say([&] {
      return beta == 1.0f ? "nothing to do (k = 0 or alpha = 0, beta = 1)"
                          : "C = beta * C (k = 0 or alpha = 0), one scaling kernel";
    });
    return plan;
  }

  // 3. op(A)(m,k) and op(B)(k,n) as the kernels' A(m,k) and B(n,k). The pointers hold `dtype`
  //    (GemmArgs types them float; the kernels read them as their element type).
  GemmArgs& p = plan.args;
  p.m = m, p.n = n, p.k = k, p.alpha = alpha, p.beta = beta;
  p.a = static_cast<const float*>(A);
  p.a_sm = ta ? lda : 1, p.a_sk = ta ? 1 : lda;
  p.b = static_cast<const float*>(B);
  p.b_sn = tb ? 1 : ldb, p.b_sk = tb ? ldb : 1;
  p.c = static_cast<float*>(const_cast<void*>(C)), p.ldc = ldc;
  // A single row contiguous along K (A with m = 1, B with n = 1; BLAS lets 'N' give it as lda = 1)
  // never steps along MN: give it the MN stride of a packed K-major operand (K rounded up to 16
  // elements, 16-byte aligned), so that the kernels read it K-major where it lies instead of
  // taking it for an unaligned MN-major operand to pack (1 x 4096 x 4096 f16 NN: a 4 us pack).
  // Only where the row ends on a 16-byte boundary: the row may be all its buffer holds, and a
  // 16-byte cp.async over its end, though it reads only the bytes inside (src-size), is a read
  // of 16 bytes to compute-sanitizer memcheck (measured: cp.async 16 with src-size 2 on an 8-byte
  // allocation is reported, src-size 0 is not); such a row is packed instead.
  const int64_t bytes = elem_bytes(dtype);
  if (k * bytes % 16 == 0) {
    const int64_t k_row = tessera::ceil_div(k, 16) * 16;
    if (m == 1 && p.a_sk == 1) p.a_sm = k_row;
    if (n == 1 && p.b_sk == 1) p.b_sn = k_row;
  }
  // Kernel 05's tile (tiles.hpp): 128 x 256, or 128 x 128 / 64 (f16, bf16: 64 x 64) for skinny
  // problems and problems too small for the wide tiles to fill the GPU, on the transposed
  // problem where m < n, unless m fills the rows of one cluster and B is read where it lies.
  const HopperTile tile = is_hopper(entry) ? hopper_tile(m, n, hopper_k_tiles(k, bytes), clusters_05(dtype, Hopper05::kWideN),
                                                         has_short_05(dtype), hopper_reads_directly(p.b, p.b_sn, p.b_sk, bytes))
                                           : HopperTile{Hopper05::kWideN, false};
  // Which operands 05 would pack (read by prefer_04, the plan's words and the workspace).
  const Packs05 packs = packs_05(p, bytes, tile);
  if (!kernel && dtype != TESSERA_F32 && is_hopper(entry) && prefer_04(p, dtype, packs)) {
    entry = &kKernels[kMmaSync];
    because([] { return " (not 05: an operand must be packed first and the problem is below 1280^3, not skinny)"; });
  }
  plan.entry = entry;
  plan.say([&] { return std::string("kernel ") + entry->name + ", " + why; });
  // How the tensor-core kernels read A and B and write C.
  auto operand = [&](const char* name, const void* ptr, int64_t s_mn, int64_t s_k, bool packed) {
    const bool k_major = s_k == 1;
    std::string major = k_major ? "K-major" : "MN-major";
    const bool aligned = tessera::tma_addressable(reinterpret_cast<uintptr_t>(ptr), (k_major ? s_mn : s_k) * bytes);
    if (is_hopper(entry))
      return std::string("; ") + name +
             (!packed ? " read by TMA where it lies (" + major +
                            (bytes == 4 && !k_major ? ": to wgmma through registers, tf32 wgmma reads shared tiles K-major only" : "") + ")"
                      : " packed K-major into a scratch buffer first (" + major +
                            (aligned ? ": tf32 wgmma reads it K-major only in B's role"
                                     : ": pointer or leading dimension not 16-byte aligned") +
                            ")");
    if (entry == &kKernels[kMmaSync])
      return std::string("; ") + name +
             (aligned16(ptr, s_mn, s_k, bytes)
                  ? " read by cp.async where it lies (" + major + ")"
                  : " packed K-major into a scratch buffer first (pointer or leading dimension not "
                    "16-byte aligned)");
    return std::string();
  };
  plan.say([&] { return operand("A", A, p.a_sm, p.a_sk, packs.a) + operand("B", B, p.b_sn, p.b_sk, packs.b); });
  if (is_skinny(entry)) {
    bool fits = false;
    const size_t workspace = workspace_skinny(p, bytes, &fits);
    if (!fits) return fail(TESSERA_ERROR_TOO_LARGE);
    plan.workspace = workspace;
    plan.say([&] {
      char words[640];
      describe_skinny(p, bytes, dtype == TESSERA_TF32, words, sizeof words);
      return std::string(words);
    });
  }
  // The same rules as the kernels' (common.cuh): which operands are packed, and their bytes.
  auto packed = [&](const void* ptr, int64_t s_mn, int64_t s_k, bool packed_by_05) {
    if (is_hopper(entry)) return packed_by_05;
    if (entry == &kKernels[kMmaSync]) return !aligned16(ptr, s_mn, s_k, bytes);
    return false;
  };
  if (packed(A, p.a_sm, p.a_sk, packs.a)) plan.workspace += packed_bytes(m, k, bytes);
  if (packed(B, p.b_sn, p.b_sk, packs.b)) plan.workspace += packed_bytes(n, k, bytes);
  // Kernel 05's persistent grid's clusters and how they share the tiles (stream_k.hpp): the
  // kernel asks the GPU how many clusters fit; without a GPU the plan cannot say.
  if (is_hopper(entry)) {
    plan.say([&] {
      return "; tile " + std::to_string(tile.bm) + " x " + std::to_string(tile.bn) +
             (tile.bm == Hopper05::kShortBM ? " (one consumer warpgroup: twice the CTAs of the 128-row tile, in one wave)" : "") +
             (tile.swapped ? " on the transposed problem C^T = op(B)^T op(A)^T (m < n: the small dimension "
                             "along the tile's columns)"
              : tile.shares_big
                  ? " on the problem as given (m's rows fill one cluster: its two CTAs share B's tile by multicast)"
                  : "");
    });
    const int resident = clusters_05(dtype, tile.bn, tile.bm);
    const int64_t rows = tile.swapped ? n : m, cols = tile.swapped ? m : n;
    if (resident < 1) {
      plan.say([] { return "; the tiles' split over the GPU's clusters is decided at launch (no GPU found)"; });
    } else {
      const StreamK w = hopper_work(tessera::ceil_div(rows, tile.bm), tessera::ceil_div(cols, tile.bn),
                                    tessera::ceil_div(k * bytes, Hopper05::kKTileBytes), resident,
                                    tile.short_full(cols));
      if (w.streams()) plan.workspace += HopperPartials(w.clusters, tile.bn, tile.consumers()).bytes();
      plan.say([&] {
        char text[256];
        if (w.splits > 1)
          std::snprintf(text, sizeof text,
                        "; split-K: %lld cluster tiles x %lld splits of ~%lld k-tiles on %lld clusters (the tiles "
                        "alone would fill %lld of %d clusters)",
                        (long long)w.tiles, (long long)w.splits, (long long)tessera::ceil_div(w.k_tiles, w.splits),
                        (long long)w.clusters, (long long)w.tiles, resident);
        else if (w.streams())
          std::snprintf(text, sizeof text,
                        "; stream-K on %lld clusters: %lld of %lld cluster tiles whole, the other %lld split "
                        "into ranges of ~%lld k-tiles (whole tiles would leave the last wave ragged)",
                        (long long)w.clusters, (long long)w.dp_tiles, (long long)w.tiles,
                        (long long)(w.tiles - w.dp_tiles), (long long)((w.tiles - w.dp_tiles) * w.k_tiles / w.clusters));
        else
          std::snprintf(text, sizeof text, "; %lld cluster tiles on %lld clusters, whole", (long long)w.tiles,
                        (long long)w.clusters);
        return std::string(text);
      });
    }
  }
  // Kernel 03's tile (simt_tile, tiles.hpp) and split of K (make_simt_split, stream_k.hpp), from
  // the CTAs the GPU runs at once.
  if (entry == &kKernels[kSimtPipelined]) {
    const SimtTile tile = simt_tile(m, n);
    const int resident = ctas_03(tile.bn);
    const int64_t rows = tile.swapped ? n : m, cols = tile.swapped ? m : n;
    const int64_t tiles = tessera::ceil_div(rows, Simt03::kBM) * tessera::ceil_div(cols, tile.bn);
    const int64_t k_tiles = tessera::ceil_div(k, Simt03::kBK);
    const SimtSplit split = simt_split(tiles, k_tiles, resident);
    plan.workspace += size_t(split.bytes(m, n));
    plan.say([&] {
      char text[400];
      const long long bm = Simt03::kBM, bn = tile.bn, bk = Simt03::kBK;
      const char* swapped = tile.swapped ? " on the transposed problem C^T = op(B)^T op(A)^T (m < n: the small "
                                           "dimension along the tile's columns)"
                                         : "";
      if (resident < 1)
        std::snprintf(text, sizeof text, "; %lld tiles of %lld x %lld%s; the split of K is decided at launch (no GPU found)",
                      (long long)tiles, bm, bn, swapped);
      else if (split.splits > 1)
        std::snprintf(text, sizeof text,
                      "; split-K: %lld tiles of %lld x %lld%s in %lld splits of %lld k-tiles of %lld (the tiles alone "
                      "would fill %lld of %d CTA slots), fp32 partial sums in the workspace added in order by a "
                      "second kernel that applies alpha and beta",
                      (long long)tiles, bm, bn, swapped, (long long)split.splits, (long long)split.k_tiles_per_split,
                      bk, (long long)tiles, resident);
      else
        std::snprintf(text, sizeof text, "; %lld tiles of %lld x %lld%s on %d CTA slots, K whole", (long long)tiles,
                      bm, bn, swapped, resident);
      return std::string(text);
    });
    if (dtype == TESSERA_TF32) plan.say([] { return "; TF32 is computed in full fp32 (FMA on CUDA cores: more accurate)"; });
  }
  if (plan.workspace) plan.say([&] { return "; workspace " + std::to_string(plan.workspace) + " bytes"; });
  if (is_hopper(entry))
    plan.say([&] {
      return tile.swapped ? "; C^T stored by predicated vector stores along C's rows"
             : hopper_stores_by_tma(bytes, beta, m, C, ldc)
                 ? "; C stored by TMA"
                 : "; C stored by predicated vector stores (the TMA store needs 16-bit C, "
                   "beta = 0, 16-byte alignment and m % 8 == 0)";
    });
  return plan;
}

// TESSERA_GEMM_LOG=1 in the environment: every call prints its plan on standard error.
bool log_plans() {
  static const bool on = [] {
    const char* v = std::getenv("TESSERA_GEMM_LOG");
    return v && *v && std::strcmp(v, "0") != 0;
  }();
  return on;
}

}  // namespace

extern "C" int tessera_gemm_plan(const char* kernel, tessera_dtype dtype, char transa, char transb,
                                 int64_t m, int64_t n, int64_t k, float alpha, const void* A,
                                 int64_t lda, const void* B, int64_t ldb, float beta, const void* C,
                                 int64_t ldc, char* text, size_t text_size) {
  const Plan plan = make_plan(kernel, dtype, transa, transb, m, n, k, alpha, A, lda, B, ldb, beta, C, ldc);
  if (text && text_size > 0) std::snprintf(text, text_size, "%s", plan.text.c_str());
  return plan.status;
}

extern "C" size_t tessera_gemm_workspace_size(const char* kernel, tessera_dtype dtype, char transa,
                                              char transb, int64_t m, int64_t n, int64_t k,
                                              const void* A, int64_t lda, const void* B, int64_t ldb) {
  // (alpha = 1, beta = 0 and C only matter for quick returns and the epilogue, not for packing.)
  const void* c = reinterpret_cast<const void*>(uintptr_t(256));
  const Plan plan = make_plan(kernel, dtype, transa, transb, m, n, k, 1.0f, A, lda, B, ldb, 0.0f, c,
                              tessera::max64(1, m), /*describe=*/false);
  return plan.status == TESSERA_SUCCESS ? plan.workspace : 0;
}

extern "C" int tessera_gemm_ex(const char* kernel, tessera_dtype dtype, char transa, char transb,
                               int64_t m, int64_t n, int64_t k, float alpha, const void* A,
                               int64_t lda, const void* B, int64_t ldb, float beta, void* C,
                               int64_t ldc, void* workspace, size_t workspace_bytes, void* stream) {
  Plan plan = make_plan(kernel, dtype, transa, transb, m, n, k, alpha, A, lda, B, ldb, beta, C, ldc, log_plans());
  if (log_plans()) std::fprintf(stderr, "tessera_gemm: %s\n", plan.text.c_str());
  if (plan.status != TESSERA_SUCCESS || (plan.quick && (m == 0 || n == 0))) return plan.status;
  if (workspace && (workspace_bytes < plan.workspace || reinterpret_cast<uintptr_t>(workspace) % 256))
    return TESSERA_ERROR_WORKSPACE;
  cudaStream_t s = static_cast<cudaStream_t>(stream);
  if (plan.quick) {  // C = beta * C over the m x n block
    if (beta == 1.0f) return TESSERA_SUCCESS;
    const int64_t blocks = tessera::min64(tessera::ceil_div(m * n, 256), 65536);
    if (dtype == TESSERA_F16) scale_c<<<unsigned(blocks), 256, 0, s>>>(static_cast<__half*>(C), m, n, ldc, beta);
    else if (dtype == TESSERA_BF16) scale_c<<<unsigned(blocks), 256, 0, s>>>(static_cast<__nv_bfloat16*>(C), m, n, ldc, beta);
    else scale_c<<<unsigned(blocks), 256, 0, s>>>(static_cast<float*>(C), m, n, ldc, beta);
    return cudaGetLastError() == cudaSuccess ? TESSERA_SUCCESS : TESSERA_ERROR_CUDA;
  }
  plan.args.workspace = workspace, plan.args.workspace_bytes = workspace ? workspace_bytes : 0;
  return plan.entry->launcher(dtype)(plan.args, s) == cudaSuccess ? TESSERA_SUCCESS : TESSERA_ERROR_CUDA;
}

extern "C" int tessera_gemm_named(const char* kernel, tessera_dtype dtype, char transa, char transb,
                                  int64_t m, int64_t n, int64_t k, float alpha, const void* A,
                                  int64_t lda, const void* B, int64_t ldb, float beta, void* C,
                                  int64_t ldc, void* stream) {
  return tessera_gemm_ex(kernel, dtype, transa, transb, m, n, k, alpha, A, lda, B, ldb, beta, C,
                         ldc, nullptr, 0, stream);
}

extern "C" int tessera_gemm(tessera_dtype dtype, char transa, char transb, int64_t m, int64_t n,
                            int64_t k, float alpha, const void* A, int64_t lda, const void* B,
                            int64_t ldb, float beta, void* C, int64_t ldc, void* stream) {
  return tessera_gemm_named(nullptr, dtype, transa, transb, m, n, k, alpha, A, lda, B, ldb, beta,
                            C, ldc, stream);
}
