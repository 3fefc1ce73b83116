// tests/device/test_gemm_abi.cpp -- the C ABI's argument checks, on the host (CI, no GPU).
//
// Every call here has a bad argument, or is a BLAS quick return (m = 0 or n = 0), so the library
// must answer without touching the GPU: the pointers below are fake and never dereferenced, and
// on a machine without a GPU any CUDA call would fail with a CUDA status instead.
#include <cstdio>

#include <gtest/gtest.h>

#include <cstring>
#include <string>

#include <tessera/gemm.h>

namespace {

const void* kA = reinterpret_cast<const void*>(0x1000);
const void* kB = reinterpret_cast<const void*>(0x2000);
void* kC = reinterpret_cast<void*>(0x3000);

int call(char ta, char tb, int64_t m, int64_t n, int64_t k, int64_t lda, int64_t ldb, int64_t ldc,
         const void* a = kA, const void* b = kB, void* c = kC, tessera_dtype dt = TESSERA_F32,
         const char* kernel = nullptr) {
  return tessera_gemm_named(kernel, dt, ta, tb, m, n, k, 1.0f, a, lda, b, ldb, 0.0f, c, ldc,
                            nullptr);
}

TEST(GemmAbi, KernelList) {
  EXPECT_STREQ(
      tessera_gemm_kernels(),
      "01_simt_global,02_simt_cp_async,03_simt_pipelined,04_mma_sync,05_wgmma_tma,06_skinny");
  EXPECT_STREQ(tessera_gemm_kernels_for(TESSERA_F32),
               "01_simt_global,02_simt_cp_async,03_simt_pipelined,06_skinny");
  EXPECT_STREQ(tessera_gemm_kernels_for(TESSERA_TF32),
               "03_simt_pipelined,04_mma_sync,05_wgmma_tma,06_skinny");
  for (tessera_dtype dt : {TESSERA_F16, TESSERA_BF16})
    EXPECT_STREQ(tessera_gemm_kernels_for(dt), "04_mma_sync,05_wgmma_tma,06_skinny");
  EXPECT_STREQ(tessera_gemm_kernels_for(tessera_dtype(9)), "");
}

TEST(GemmAbi, BadTranspose) {
  EXPECT_EQ(call('X', 'N', 4, 4, 4, 4, 4, 4), TESSERA_ERROR_INVALID_TRANS);
  EXPECT_EQ(call('N', 'Q', 4, 4, 4, 4, 4, 4), TESSERA_ERROR_INVALID_TRANS);
}

TEST(GemmAbi, NegativeSizes) {
  EXPECT_EQ(call('N', 'N', -1, 4, 4, 4, 4, 4), TESSERA_ERROR_INVALID_SIZE);
  EXPECT_EQ(call('N', 'N', 4, -1, 4, 4, 4, 4), TESSERA_ERROR_INVALID_SIZE);
  EXPECT_EQ(call('N', 'N', 4, 4, -7, 4, 4, 4), TESSERA_ERROR_INVALID_SIZE);
}

TEST(GemmAbi, LeadingDimensions) {
  // op 'N': A is m x k (lda >= m), B is k x n (ldb >= k); op 'T': A is k x m, B is n x k.
  EXPECT_EQ(call('N', 'N', 8, 4, 6, 7, 6, 8), TESSERA_ERROR_INVALID_LDA);
  EXPECT_EQ(call('T', 'N', 8, 4, 6, 5, 6, 8), TESSERA_ERROR_INVALID_LDA);
  EXPECT_EQ(call('N', 'N', 8, 4, 6, 8, 5, 8), TESSERA_ERROR_INVALID_LDB);
  EXPECT_EQ(call('N', 'T', 8, 4, 6, 8, 3, 8), TESSERA_ERROR_INVALID_LDB);
  EXPECT_EQ(call('N', 'N', 8, 4, 6, 8, 6, 7), TESSERA_ERROR_INVALID_LDC);
  EXPECT_EQ(call('N', 'N', 0, 0, 0, 0, 1, 1), TESSERA_ERROR_INVALID_LDA);  // max(1, rows)
}

TEST(GemmAbi, NullPointers) {
  EXPECT_EQ(call('N', 'N', 4, 4, 4, 4, 4, 4, nullptr), TESSERA_ERROR_NULL_POINTER);
  EXPECT_EQ(call('N', 'N', 4, 4, 4, 4, 4, 4, kA, nullptr), TESSERA_ERROR_NULL_POINTER);
  EXPECT_EQ(call('N', 'N', 4, 4, 4, 4, 4, 4, kA, kB, nullptr), TESSERA_ERROR_NULL_POINTER);
}

TEST(GemmAbi, DtypesAndKernels) {
  EXPECT_EQ(call('N', 'N', 4, 4, 4, 4, 4, 4, kA, kB, kC, tessera_dtype(9)),
            TESSERA_ERROR_UNKNOWN_DTYPE);
  EXPECT_EQ(call('N', 'N', 4, 4, 4, 4, 4, 4, kA, kB, kC, TESSERA_F32, "06_blackwell"),
            TESSERA_ERROR_UNKNOWN_KERNEL);
  for (tessera_dtype dt : {TESSERA_TF32, TESSERA_F16, TESSERA_BF16})
    for (const char* k : {"01_simt_global", "02"})
      EXPECT_EQ(call('N', 'N', 4, 4, 4, 4, 4, 4, kA, kB, kC, dt, k),
                TESSERA_ERROR_UNSUPPORTED_DTYPE);
  for (tessera_dtype dt : {TESSERA_F16, TESSERA_BF16})  // 03 runs F32 and TF32 (in full fp32)
    EXPECT_EQ(call('N', 'N', 4, 4, 4, 4, 4, 4, kA, kB, kC, dt, "03_simt_pipelined"),
              TESSERA_ERROR_UNSUPPORTED_DTYPE);
  for (const char* k : {"04_mma_sync", "04", "05_wgmma_tma", "05"})
    EXPECT_EQ(call('N', 'N', 4, 4, 4, 4, 4, 4, kA, kB, kC, TESSERA_F32, k),
              TESSERA_ERROR_UNSUPPORTED_DTYPE);
}

TEST(GemmAbi, TmaCoordinatesAre32Bit) {
  // k = 2^31: kernel 05 cannot address it (TMA coordinates are int32); refused before any launch.
  const int64_t k = int64_t(1) << 31;
  for (const char* name : {"05_wgmma_tma", "05"})
    EXPECT_EQ(tessera_gemm_named(name, TESSERA_F16, 'N', 'N', 1, 1, k, 1.0f, kA, 1, kB, k, 0.0f, kC,
                                 1, nullptr),
              TESSERA_ERROR_TOO_LARGE);
  EXPECT_NE(std::string(tessera_status_string(TESSERA_ERROR_TOO_LARGE)).find("kernel 05"),
            std::string::npos);
}

TEST(GemmAbi, QuickReturnsTouchNothing) {
  // m = 0 or n = 0: success without a launch (the pointers are fake or NULL).
  EXPECT_EQ(call('N', 'N', 0, 4, 4, 1, 4, 1, nullptr, kB, nullptr), TESSERA_SUCCESS);
  EXPECT_EQ(call('N', 'N', 4, 0, 4, 4, 4, 4, kA, nullptr, nullptr), TESSERA_SUCCESS);
  // k = 0 with beta = 1: C is unchanged, nothing to launch.
  EXPECT_EQ(tessera_gemm(TESSERA_F32, 'N', 'N', 4, 4, 0, 1.0f, nullptr, 4, nullptr, 1, 1.0f, kC, 4,
                         nullptr),
            TESSERA_SUCCESS);
}

TEST(GemmAbi, EveryStatusHasAMessage) {
  for (int s = 0; s <= TESSERA_ERROR_INVALID_SCALE; ++s) {
    std::string msg = tessera_status_string(s);
    EXPECT_FALSE(msg.empty());
    EXPECT_NE(msg, "unknown status code") << s;
  }
  EXPECT_STREQ(tessera_status_string(12345), "unknown status code");
  EXPECT_NE(std::string(tessera_status_string(TESSERA_ERROR_UNSUPPORTED_DTYPE))
                .find("tessera_gemm_kernels_for"),
            std::string::npos);
}


// tessera_gemm_plan: the choice for a problem, readable, without a GPU.
std::string plan(tessera_dtype dt, char ta, char tb, int64_t m, int64_t n, int64_t k, int64_t lda,
                 int64_t ldb, int64_t ldc, const void* a = kA, float beta = 0.0f,
                 const char* kernel = nullptr, int* status = nullptr) {
  char text[1024] = "unchanged";
  const int s = tessera_gemm_plan(kernel, dt, ta, tb, m, n, k, 1.0f, a, lda, kB, ldb, beta, kC, ldc,
                                  text, sizeof text);
  if (status) *status = s;
  return text;
}
bool has(std::string const& text, const char* part) { return text.find(part) != std::string::npos; }

// Kernel 05's persistent clusters: the plan says how they share the tiles. The split depends on
// how many clusters the GPU holds, so without a GPU the plan says it is decided at launch.
TEST(GemmAbi, PlanSaysHowKernel05SharesTheTiles) {
  const std::string p = plan(TESSERA_F16, 'N', 'N', 1024, 1024, 16384, 1024, 16384, 1024);
  const size_t ws = tessera_gemm_workspace_size(nullptr, TESSERA_F16, 'N', 'N', 1024, 1024, 16384,
                                                kA, 1024, kB, 16384);
  if (has(p, "decided at launch (no GPU found)")) {
    std::printf(
        "no GPU: the stream-K part of the plan is not checked here (scripts/gpu.sh runs it)\n");
    EXPECT_EQ(ws, 0u);
    return;
  }
  // 1024 x 1024 x 16384 on the H100's 66 clusters: the 16 wide cluster tiles would fill a
  // quarter of them, so 128-column tiles (wgmma_tile): 32 cluster tiles of 256 k-tiles, split-K
  // in two; partial sums in scratch.
  EXPECT_TRUE(has(p, "; tile 128 x 128;")) << p;
  EXPECT_TRUE(has(p, "split-K: 32 cluster tiles x 2 splits of ~128 k-tiles on 64 clusters")) << p;
  EXPECT_GT(ws, size_t(1) << 20);
  // 1024^3: 16 k-tiles, too few to split: 64-column tiles, whole, no scratch.
  const std::string q1 = plan(TESSERA_F16, 'N', 'N', 1024, 1024, 1024, 1024, 1024, 1024);
  EXPECT_TRUE(has(q1, "; tile 128 x 64; 64 cluster tiles on 64 clusters, whole")) << q1;
  EXPECT_EQ(tessera_gemm_workspace_size(nullptr, TESSERA_F16, 'N', 'N', 1024, 1024, 1024, kA, 1024,
                                        kB, 1024),
            0u);
  // 5120 x 5120 x 4096: 400 cluster tiles, 6.06 waves: stream-K over the last two.
  const std::string r = plan(TESSERA_F16, 'N', 'N', 5120, 5120, 4096, 5120, 4096, 5120);
  EXPECT_TRUE(has(r, "stream-K on 66 clusters: 330 of 400 cluster tiles whole")) << r;
  // The short tile more than half full along N runs whole where its tiles fill more than a
  // quarter of the clusters: 4096 x 64 x 4096, 32 cluster tiles; with 32 columns K is split.
  const std::string s64 = plan(TESSERA_F16, 'N', 'N', 4096, 64, 4096, 4096, 4096, 4096);
  EXPECT_TRUE(has(s64, "; tile 64 x 64") && has(s64, "32 cluster tiles on 32 clusters, whole"))
      << s64;
  const std::string s32 = plan(TESSERA_F16, 'N', 'N', 4096, 32, 4096, 4096, 4096, 4096);
  EXPECT_TRUE(has(s32, "; tile 64 x 64") && has(s32, "split-K: 32 cluster tiles x 2 splits"))
      << s32;
  // 4096^3: 256 cluster tiles fill 66 clusters' waves but for 3%: whole tiles, no scratch.
  const std::string q = plan(TESSERA_F16, 'N', 'N', 4096, 4096, 4096, 4096, 4096, 4096);
  EXPECT_TRUE(has(q, "256 cluster tiles on")) << q;
  EXPECT_EQ(tessera_gemm_workspace_size(nullptr, TESSERA_F16, 'N', 'N', 4096, 4096, 4096, kA, 4096,
                                        kB, 4096),
            0u);
}

// Kernel 05's tile: 128 x 256, or 128 x 64 (128 x 128) with the small dimension along N for
// skinny problems, the problem transposed where m is the small one (unless m fills the rows of one
// cluster and B is read where it lies: then as given), and for f16 and bf16 the
// short 64 x 64 tile where its cluster tiles fit in one wave of the GPU (wgmma_tile, plan.cpp:
// without a GPU there is no wave to fit in).
TEST(GemmAbi, PlanNamesKernel05Tile) {
  std::string p = plan(TESSERA_F16, 'N', 'N', 4096, 4096, 4096, 4096, 4096, 4096);
  EXPECT_TRUE(has(p, "; tile 128 x 256;")) << p;
  const bool gpu = !has(p, "no GPU found");
  const std::string narrow = gpu ? "; tile 64 x 64 (one consumer warpgroup" : "; tile 128 x 64";
  p = plan(TESSERA_F16, 'N', 'N', 32, 4096, 4096, 32, 4096, 32);  // (16 rows take kernel 06)
  EXPECT_TRUE(has(p, narrow.c_str())) << p;
  EXPECT_TRUE(has(p, " on the transposed problem C^T = op(B)^T op(A)^T")) << p;
  EXPECT_TRUE(has(p, "C^T stored by TMA along C's rows")) << p;
  p = plan(TESSERA_BF16, 'T', 'N', 4096, 128, 4096, 4096, 4096, 4096);
  EXPECT_TRUE(has(p, narrow.c_str())) << p;
  EXPECT_TRUE(has(p, "C stored by TMA")) << p;
  p = plan(TESSERA_F16, 'N', 'N', 1, 4096, 4096, 1, 4096, 1, kA, 0.0f,
           "05");  // a single row: the 128-row tile
  EXPECT_TRUE(has(p, "; tile 128 x 64 on the transposed problem")) << p;
  // m fills the rows of one cluster (2 x 128) and B is read where it lies: as given, C by TMA.
  p = plan(TESSERA_F16, 'N', 'N', 256, 4096, 4096, 256, 4096, 256);
  EXPECT_TRUE(has(p, " on the problem as given (m's rows fill one cluster")) << p;
  EXPECT_TRUE(has(p, "C stored by TMA")) << p;
  // tf32 with B MN-major: transposed, so that the big operand goes to wgmma through registers in
  // A's role where it lies and only the small one (A, in B's role) is packed.
  p = plan(TESSERA_TF32, 'N', 'T', 256, 4096, 4096, 256, 4096, 256);
  EXPECT_TRUE(has(p, " on the transposed problem C^T")) << p;
  EXPECT_TRUE(has(p, "A packed K-major") && has(p, "B read by TMA where it lies")) << p;
  p = plan(TESSERA_TF32, 'T', 'N', 4096, 128, 4096, 4096, 4096, 4096);  // tf32: no short tile
  EXPECT_TRUE(has(p, "; tile 128 x 64;")) << p;
  EXPECT_TRUE(has(plan(TESSERA_TF32, 'T', 'N', 4096, 129, 4096, 4096, 4096, 4096), "; tile 128 x "))
      << p;
  // 257 columns: no longer skinny; the wide tiles' 32 cluster tiles would fill half the H100's
  // clusters, so 128 columns (48 cluster tiles); without a GPU, the wide tile.
  EXPECT_TRUE(has(plan(TESSERA_TF32, 'T', 'N', 4096, 257, 4096, 4096, 4096, 4096),
                  gpu ? "; tile 128 x 128;" : "; tile 128 x 256;")) << p;
  // 256 columns: 128 x 64 while its cluster tiles fit in one wave of the GPU's clusters, else
  // 128 x 128 (the GPU's cluster count decides: checked where there is one).
  p = plan(TESSERA_F16, 'T', 'N', 8192, 256, 8192, 8192, 8192, 8192);
  if (!has(p, "no GPU found")) {
    EXPECT_TRUE(has(p, "; tile 128 x 128;")) << p;  // 32 x 4 = 128 cluster tiles of 64 columns
    p = plan(TESSERA_F16, 'T', 'N', 4096, 256, 4096, 4096, 4096, 4096);
    EXPECT_TRUE(has(p, "; tile 128 x 64;")) << p;  // 16 x 4 = 64 cluster tiles
  }
}

// Kernel 03's tile: 128 x 128, or 128 x 64 (128 x 32) with the small dimension along N where m or
// n is at most 64 (32), the problem transposed where m is the small one (simt_tile, plan.cpp); it
// splits K when its tiles are fewer than the CTAs the GPU runs at once (SimtSplit, stream_k.hpp):
// fp32 partial sums in the workspace, added by a second kernel.
TEST(GemmAbi, PlanSaysHowKernel03SplitsK) {
  std::string p = plan(TESSERA_F32, 'N', 'N', 4096, 64, 4096, 4096, 4096, 4096);
  const size_t ws = tessera_gemm_workspace_size(nullptr, TESSERA_F32, 'N', 'N', 4096, 64, 4096, kA,
                                                4096, kB, 4096);
  EXPECT_TRUE(has(p, "kernel 03_simt_pipelined")) << p;
  EXPECT_TRUE(has(plan(TESSERA_F32, 'N', 'N', 64, 4096, 4096, 64, 4096, 64),
                  "32 tiles of 128 x 64 on the transposed problem C^T = op(B)^T op(A)^T"));
  EXPECT_TRUE(
      has(plan(TESSERA_F32, 'N', 'N', 4096, 65, 4096, 4096, 4096, 4096), "32 tiles of 128 x 128"));
  // At most 32 (9-32: up to 8 take kernel 06), the thin tile 128 x 32.
  EXPECT_TRUE(
      has(plan(TESSERA_F32, 'N', 'N', 4096, 32, 4096, 4096, 4096, 4096), "32 tiles of 128 x 32"));
  EXPECT_TRUE(
      has(plan(TESSERA_F32, 'N', 'N', 4096, 33, 4096, 4096, 4096, 4096), "32 tiles of 128 x 64"));
  EXPECT_TRUE(has(plan(TESSERA_F32, 'T', 'N', 9, 4096, 4096, 4096, 4096, 9),
                  "32 tiles of 128 x 32 on the transposed problem C^T = op(B)^T op(A)^T"));
  if (has(p, "decided at launch (no GPU found)")) {
    std::printf(
        "no GPU: the split-K part of 03's plan is not checked here (scripts/gpu.sh runs it)\n");
    EXPECT_TRUE(has(p, "32 tiles of 128 x 64;")) << p;
    EXPECT_EQ(ws, 0u);
    return;
  }
  // H100, 2 CTAs per SM: 264 slots. 32 tiles, 128 k-tiles: 8 splits of 16; 8 x 4096 x 64 x 4 bytes.
  EXPECT_TRUE(has(p, "split-K: 32 tiles of 128 x 64 in 8 splits of 16 k-tiles of 32")) << p;
  EXPECT_TRUE(has(p, "workspace 8388608 bytes")) << p;
  EXPECT_EQ(ws, 8u * 4096 * 64 * 4);
  // TT with m = 64: the transposed problem, the same tiles, the same split.
  EXPECT_TRUE(
      has(plan(TESSERA_F32, 'T', 'T', 64, 4096, 4096, 4096, 4096, 64), "in 8 splits of 16 k-tiles"))
      << p;
  // 4096^3 fills the GPU: K whole, no workspace.
  p = plan(TESSERA_F32, 'N', 'N', 4096, 4096, 4096, 4096, 4096, 4096);
  EXPECT_TRUE(has(p, "1024 tiles of 128 x 128 on")) << p;
  EXPECT_TRUE(has(p, "K whole")) << p;
  EXPECT_EQ(tessera_gemm_workspace_size(nullptr, TESSERA_F32, 'N', 'N', 4096, 4096, 4096, kA, 4096,
                                        kB, 4096),
            0u);
  // Too short a K to split (fewer than 4 k-tiles per split): 64 x 64 x 100.
  EXPECT_TRUE(has(plan(TESSERA_F32, 'N', 'N', 64, 64, 100, 64, 100, 64), "K whole")) << p;
}

TEST(GemmAbi, PlanNamesKernelOperandsAndEpilogue) {
  // The case of the data-corruption report: m = 5 cannot use the TMA store (05 by name: the
  // built-in choice for m = 5 is 06, see PlanSkinnyProblems).
  std::string p = plan(TESSERA_F16, 'N', 'N', 5, 4096, 4096, 8, 4096, 8, kA, 0.0f, "05");
  EXPECT_TRUE(has(
      p, "F16 NN m=5 n=4096 k=4096 lda=8 ldb=4096 ldc=8: kernel 05_wgmma_tma, requested by name"))
      << p;
  EXPECT_TRUE(has(p, "A read by TMA where it lies (MN-major)")) << p;
  EXPECT_TRUE(has(p, "B read by TMA where it lies (K-major)")) << p;
  EXPECT_TRUE(has(p, "C^T stored by predicated vector stores along C's rows"))
      << p;  // (the transposed problem)
  p = plan(TESSERA_F16, 'N', 'N', 4093, 5, 4096, 4096, 4096, 4096, kA, 0.0f, "05");  // m % 8 != 0
  EXPECT_TRUE(has(p, "C stored by predicated vector stores (the TMA store needs")) << p;
  EXPECT_TRUE(
      has(plan(TESSERA_F16, 'N', 'N', 4096, 4096, 4096, 4096, 4096, 4096), "C stored by TMA"))
      << p;
  // beta != 0 reads C: no TMA store.
  EXPECT_FALSE(has(plan(TESSERA_F16, 'N', 'N', 4096, 4096, 4096, 4096, 4096, 4096, kA, 1.0f),
                   "C stored by TMA"));
  // tf32: wgmma reads shared tiles K-major only. An MN-major A goes to wgmma through registers; an
  // MN-major B is packed first.
  p = plan(TESSERA_TF32, 'N', 'T', 4096, 4096, 4096, 4096, 4096, 4096);
  EXPECT_TRUE(has(p, "kernel 05_wgmma_tma")) << p;
  EXPECT_TRUE(has(p, "A read by TMA where it lies (MN-major: to wgmma through registers")) << p;
  EXPECT_TRUE(has(p,
                  "B packed K-major into a scratch buffer first (MN-major: tf32 wgmma reads it "
                  "K-major only in B's role)"))
      << p;
  // TF32 NN at 1024^3: nothing to pack, so 05 (04 took it while 05 packed A).
  p = plan(TESSERA_TF32, 'N', 'N', 1024, 1024, 1024, 1024, 1024, 1024);
  EXPECT_TRUE(has(p, "kernel 05_wgmma_tma, the built-in choice for TF32;")) << p;
  EXPECT_FALSE(has(p, "packed")) << p;
  // An unaligned A in a small problem: the built-in choice takes 04, and says why.
  const void* odd = reinterpret_cast<const void*>(0x1002);
  p = plan(TESSERA_BF16, 'N', 'N', 100, 100, 100, 100, 104, 100, odd);
  EXPECT_TRUE(has(
      p,
      "kernel 04_mma_sync, the built-in choice for BF16 (not 05: an operand must be packed first"))
      << p;
  EXPECT_TRUE(has(p,
                  "A packed K-major into a scratch buffer first (pointer or leading dimension not "
                  "16-byte aligned)"))
      << p;
  // TF32 packs on 05 rather than take 04 (whose tf32 is ~4x slower).
  p = plan(TESSERA_TF32, 'N', 'N', 100, 100, 100, 100, 104, 100, odd);
  EXPECT_TRUE(has(p, "kernel 05_wgmma_tma, the built-in choice for TF32;")) << p;
  EXPECT_TRUE(has(p,
                  "A packed K-major into a scratch buffer first (MN-major: pointer or leading "
                  "dimension not 16-byte aligned)"))
      << p;
  // By name; fp32; quick returns.
  EXPECT_TRUE(has(plan(TESSERA_F16, 'T', 'N', 64, 64, 64, 64, 64, 64, kA, 0.0f, "04"),
                  "kernel 04_mma_sync, requested by name"));
  EXPECT_TRUE(has(plan(TESSERA_F32, 'N', 'N', 64, 64, 64, 64, 64, 64),
                  "kernel 03_simt_pipelined, the built-in choice for F32"));
  EXPECT_TRUE(has(plan(TESSERA_F32, 'N', 'N', 0, 64, 64, 1, 64, 1), "nothing to do (m or n is 0)"));
  EXPECT_TRUE(has(plan(TESSERA_F32, 'N', 'N', 8, 8, 0, 8, 1, 8, kA, 0.5f), "C = beta * C"));
}

// Kernel 06 (skinny problems, a GEMV on 1-8 vectors at a time, 16-bit from 3 vectors on the tensor
// cores): the built-in choice for min(m, n) <= 8 (F32), 4 (TF32), 16 (F16, BF16); which operand it
// streams and how, how it reads the vectors, its split of K and the workspace of the partial sums.
TEST(GemmAbi, PlanSkinnyProblems) {
  // The thresholds: min(m, n) = t takes 06, t + 1 does not, whichever way the operands lie.
  for (auto [dt, t] : {std::pair{TESSERA_F32, 8}, std::pair{TESSERA_TF32, 4},
                       std::pair{TESSERA_F16, 16}, std::pair{TESSERA_BF16, 16}}) {
    EXPECT_TRUE(has(plan(dt, 'N', 'N', 4096, t, 4096, 4096, 4096, 4096), "kernel 06_skinny")) << dt;
    EXPECT_TRUE(has(plan(dt, 'T', 'N', 4096, t, 4096, 4096, 4096, 4096), "kernel 06_skinny")) << dt;
    EXPECT_TRUE(has(plan(dt, 'N', 'T', t, 4096, 4096, t, 4096, t), "kernel 06_skinny")) << dt;
    EXPECT_TRUE(has(plan(dt, 'T', 'T', t, 4096, 4096, 4096, 4096, t), "kernel 06_skinny")) << dt;
    EXPECT_TRUE(has(plan(dt, 'N', 'T', 1, 1, 1, 1, 1, 1), "kernel 06_skinny")) << dt;
    EXPECT_FALSE(has(plan(dt, 'N', 'N', 4096, t + 1, 4096, 4096, 4096, 4096), "06_skinny")) << dt;
    EXPECT_TRUE(has(plan(dt, 'T', 'T', t + 1, 4096, 4096, 4096, 4096, 64), "kernel 0"))
        << dt;  // a kernel, not a status
    EXPECT_FALSE(has(plan(dt, 'T', 'T', t + 1, 4096, 4096, 4096, 4096, 64), "06_skinny")) << dt;
  }
  EXPECT_TRUE(
      has(plan(TESSERA_F16, 'N', 'N', 17, 4096, 4096, 17, 4096, 17), "kernel 05_wgmma_tma"));
}

// Kernel 06 on 16-bit elements from 3 vectors: the tensor-core GEMV, its CTAs and operand reads.
TEST(GemmAbi, PlanSkinnyTensorCoreGemv) {
  // 16-bit from 3 vectors: the tensor-core GEMV, in groups of 8 or 16. 8 x 4096 x 4096 f16 NN: B's
  // K-contiguous columns are the big operand (8 warps a CTA on 16 rows: 256 CTAs), A's 8 rows lie
  // along s (lda = 8), read by pairs and transposed in registers.
  std::string p = plan(TESSERA_F16, 'N', 'N', 8, 4096, 4096, 8, 4096, 8);
  EXPECT_TRUE(
      has(p,
          "tensor-core GEMV on 8 vectors at a time: B (4096 x 4096) is the big operand, read once "
          "along K by 16-byte vector loads straight into the MMA's fragments, a CTA of 8 warps per "
          "16 rows; A's 8 vectors read by 4-byte pairs along its rows, transposed in registers "
          "(movmatrix) (L1/L2); 256 CTAs, mma.sync m16n8k16 with fp32 accumulators"))
      << p;
  // 4096 x 12 x 4096 bf16 NN: A is MN-major, read down its columns and transposed in registers, 12
  // warps a CTA on 32 rows (128 CTAs); B's 12 columns (a group of 16) by vectors along K. With
  // 8192 rows, 64 a CTA: 128 CTAs again.
  p = plan(TESSERA_BF16, 'N', 'N', 4096, 12, 4096, 4096, 4096, 4096);
  EXPECT_TRUE(
      has(p,
          "tensor-core GEMV on 16 vectors at a time: A (4096 x 4096) is the big operand, read once "
          "down its columns by 16-byte vector loads transposed in registers (movmatrix), a CTA of "
          "12 warps per 32 rows; B's 12 vectors read by 16-byte vectors along K (L1/L2); 128 CTAs"))
      << p;
  p = plan(TESSERA_F16, 'N', 'N', 8192, 8, 8192, 8192, 8192, 8192);
  EXPECT_TRUE(has(p,
                  "a CTA of 12 warps per 64 rows; B's 8 vectors read by 16-byte vectors along K "
                  "(L1/L2); 128 CTAs"))
      << p;
  // 3 vectors with an unaligned leading dimension: element by element, still on the tensor cores.
  p = plan(TESSERA_F16, 'T', 'N', 4096, 3, 4095, 4095, 4095, 4096);
  EXPECT_TRUE(has(p, "tensor-core GEMV on 8 vectors at a time")) << p;
  EXPECT_TRUE(has(
      p, "read once element by element (not 16-byte aligned or no unit stride), a CTA per 16 rows"))
      << p;
  EXPECT_TRUE(has(p, "B's 3 vectors read element by element")) << p;
}

// Kernel 06 on the CUDA cores: which operand streams, its CTAs, how the vectors are read.
TEST(GemmAbi, PlanSkinnyGemv) {
  // 4096 x 1 x 4096 f32 NN: A is MN-major, read down its columns by 128 CTAs of 32 rows (a
  // 128-byte column each), all of K: no split, no workspace.
  std::string p = plan(TESSERA_F32, 'N', 'N', 4096, 1, 4096, 4096, 4096, 4096);
  EXPECT_TRUE(has(p, "kernel 06_skinny, the built-in choice for F32 (min(m, n) <= 8")) << p;
  EXPECT_TRUE(
      has(p,
          "GEMV on 1 vector at a time: A (4096 x 4096) is the big operand, read once down its "
          "columns, a CTA per 32 rows walking K by 16-byte vectors; B's vector read element by "
          "element (L1/L2); 128 CTAs"))
      << p;
  EXPECT_FALSE(has(p, "K split")) << p;
  EXPECT_FALSE(has(p, "workspace")) << p;
  // f16: 128-byte columns are 64 rows; at 4096 rows they would be 64 CTAs, so 32-row ones (128).
  p = plan(TESSERA_F16, 'N', 'N', 8192, 1, 8192, 8192, 8192, 8192);
  EXPECT_TRUE(has(p, "a CTA per 64 rows")) << p;
  EXPECT_TRUE(has(p, "; 128 CTAs")) << p;
  p = plan(TESSERA_F16, 'N', 'N', 4096, 1, 4096, 4096, 4096, 4096);
  EXPECT_TRUE(has(p, "a CTA per 32 rows")) << p;
  EXPECT_TRUE(has(p, "; 128 CTAs")) << p;
  // 1 x 4096 x 4096 bf16 NN: the transposed problem; B's columns are the K-contiguous rows of the
  // big operand, a warp per 2 rows, 8 warps a CTA: 256 CTAs; A's row is read along K.
  p = plan(TESSERA_BF16, 'N', 'N', 1, 4096, 4096, 1, 4096, 1);
  EXPECT_TRUE(has(p, "kernel 06_skinny, the built-in choice for BF16 (min(m, n) <= 16")) << p;
  EXPECT_TRUE(
      has(p,
          "GEMV on 1 vector at a time: B (4096 x 4096) is the big operand, read once along K by "
          "16-byte vector loads, a warp per 2 rows; A's vector read by 16-byte vectors along K "
          "(L1/L2); 256 CTAs"))
      << p;
  // 8 x 4096 x 4096 f32 NN: A's 8 rows (contiguous along s: lda = 8) read as one vector of the
  // group's values per k; 2 x 4096 x 4096 with lda = 3: element by element.
  p = plan(TESSERA_F32, 'N', 'N', 8, 4096, 4096, 8, 4096, 8);
  EXPECT_TRUE(has(p, "GEMV on 8 vectors at a time")) << p;
  EXPECT_TRUE(has(p, "A's 8 vectors read a vector of the group's values per k")) << p;
  EXPECT_TRUE(has(plan(TESSERA_F32, 'N', 'N', 2, 4096, 4096, 3, 4096, 2),
                  "A's 2 vectors read element by element"));
  // TF32 runs in full fp32, and says so; 3 columns: a group of 4.
  p = plan(TESSERA_TF32, 'T', 'N', 4096, 3, 4096, 4096, 4096, 4096);
  EXPECT_TRUE(
      has(p, "GEMV on 4 vectors at a time: A (4096 x 4096) is the big operand, read once along K"))
      << p;
  EXPECT_TRUE(has(p, "B's 3 vectors read by 16-byte vectors along K")) << p;
  EXPECT_TRUE(has(p, "TF32 is computed in full fp32")) << p;
}

// Kernel 06 on more vectors than a group, with K split, and at the launch's size limit.
TEST(GemmAbi, PlanSkinnyGroupsAndSplitK) {
  // More than a group by name: X read once per group. 16 x 4096 x 4096 f32: 256 tiles of 16 rows x
  // 2 groups of 8; 40 x 4096 x 4096 f16: 256 tiles x 3 groups of 16. No split, no workspace.
  std::string p = plan(TESSERA_F32, 'N', 'N', 16, 4096, 4096, 16, 4096, 16, kA, 0.0f, "06");
  EXPECT_TRUE(has(p, "kernel 06_skinny, requested by name")) << p;
  EXPECT_TRUE(has(p, "2 groups (X read once per group); 512 CTAs")) << p;
  EXPECT_EQ(
      tessera_gemm_workspace_size("06", TESSERA_F32, 'N', 'N', 16, 4096, 4096, kA, 16, kB, 4096),
      0u);
  p = plan(TESSERA_F16, 'N', 'N', 40, 4096, 4096, 40, 4096, 40, kA, 0.0f, "06");
  EXPECT_TRUE(has(p, "3 groups (X read once per group); 768 CTAs")) << p;
  // Few rows and a long K: 300 x 1 x 5000 f16 NN, 10 tiles of 32 rows, K split in 3 pieces of
  // 2048 values (the last 904): 3 x 300 fp32 partial sums, 3,600 bytes in 256-byte pieces.
  p = plan(TESSERA_F16, 'N', 'N', 300, 1, 5000, 300, 5000, 300);
  EXPECT_TRUE(has(p, "a CTA per 32 rows")) << p;
  EXPECT_TRUE(has(p, "K split over 3 CTAs per tile (2048 values each)")) << p;
  EXPECT_TRUE(has(p, "workspace 3840 bytes")) << p;
  EXPECT_EQ(
      tessera_gemm_workspace_size(nullptr, TESSERA_F16, 'N', 'N', 300, 1, 5000, kA, 300, kB, 5000),
      3840u);
  // A workspace one byte short of the partial sums is refused before any CUDA call.
  EXPECT_EQ(tessera_gemm_ex(nullptr, TESSERA_F16, 'N', 'N', 300, 1, 5000, 1.0f, kA, 300, kB, 5000,
                            0.0f, kC, 300, reinterpret_cast<void*>(0x10000), 3839, nullptr),
            TESSERA_ERROR_WORKSPACE);
  // Kernel 06's GEMV puts 16 rows in a CTA: 2^35 rows would be 2^31 CTAs, one more than a launch
  // has; 2^35 - 16 rows fit.
  int status = -1;
  const int64_t m = int64_t(1) << 35;
  plan(TESSERA_F16, 'T', 'N', m, 1, 1, 1, 1, m, kA, 0.0f, "06", &status);
  EXPECT_EQ(status, TESSERA_ERROR_TOO_LARGE);
  plan(TESSERA_F16, 'T', 'N', m - 16, 1, 1, 1, 1, m, kA, 0.0f, "06", &status);
  EXPECT_EQ(status, TESSERA_SUCCESS);
}

// Unaligned skinny operands, and single rows along K on kernel 05: read where they lie or packed.
TEST(GemmAbi, PlanSingleRowOperands) {
  // Unaligned: element loads.
  EXPECT_TRUE(has(plan(TESSERA_F16, 'N', 'N', 4095, 1, 4095, 4095, 4095, 4095),
                  "read once down its columns element by element"));
  EXPECT_TRUE(has(plan(TESSERA_F16, 'T', 'N', 4095, 1, 4095, 4095, 4095, 4095),
                  "read once along K element by element"));
  // Kernel 05 by name: a single row contiguous along K (m = 1, lda = 1 in 'N'; n = 1, ldb = 1 in
  // 'T') is read K-major where it lies, not packed as an unaligned MN-major operand.
  for (tessera_dtype dt : {TESSERA_F16, TESSERA_BF16}) {
    const std::string one_a = plan(dt, 'N', 'N', 1, 4096, 4096, 1, 4096, 1, kA, 0.0f, "05");
    EXPECT_TRUE(has(one_a, "A read by TMA where it lies (K-major)")) << one_a;
    EXPECT_FALSE(has(one_a, "packed")) << one_a;
    const std::string one_b = plan(dt, 'N', 'T', 4096, 1, 4096, 4096, 1, 4096, kA, 0.0f, "05");
    EXPECT_TRUE(has(one_b, "B read by TMA where it lies (K-major)")) << one_b;
    EXPECT_FALSE(has(one_b, "packed")) << one_b;
  }
  // A row that does not end on a 16-byte boundary (K = 4095) is packed: a 16-byte copy over its
  // end would read past a buffer that holds just the row (as compute-sanitizer counts reads).
  EXPECT_TRUE(
      has(plan(TESSERA_F16, 'N', 'N', 1, 4096, 4095, 1, 4095, 1, kA, 0.0f, "05"), "A packed"));
  // With lda > 1 the row is strided along K: packed.
  EXPECT_TRUE(
      has(plan(TESSERA_F16, 'N', 'N', 1, 4096, 4096, 3, 4096, 1, kA, 0.0f, "05"), "A packed"));
}

// Skinny TF32 problems on kernel 05: the big operand in A's role, through registers.
TEST(GemmAbi, PlanSkinnyTf32) {
  // TF32 from 5 columns: 05's narrow tile, whatever the majors: the big operand in A's role,
  // through registers where it is MN-major (here m = 4096, A in 'N'; mirrored, B^T in 'T' on the
  // transposed problem).
  for (int64_t n : {5, 8, 16, 64, 65}) {
    const std::string q = plan(TESSERA_TF32, 'N', 'N', 4096, n, 4096, 4096, 4096, 4096);
    EXPECT_TRUE(has(q, "kernel 05_wgmma_tma, the built-in choice for TF32")) << q;
    EXPECT_TRUE(has(q, "A read by TMA where it lies (MN-major: to wgmma through registers")) << q;
  }
  std::string q = plan(TESSERA_TF32, 'T', 'T', 16, 4096, 4096, 4096, 4096, 4096);
  EXPECT_TRUE(has(q, "kernel 05_wgmma_tma, the built-in choice for TF32")) << q;
  EXPECT_TRUE(has(q, "transposed problem")) << q;
  EXPECT_TRUE(has(q, "B read by TMA where it lies (MN-major: to wgmma through registers")) << q;
  EXPECT_FALSE(has(q, "packed")) << q;
  EXPECT_FALSE(has(plan(TESSERA_F32, 'N', 'N', 4096, 16, 4096, 4096, 4096, 4096), "TF32"));
  // A skinny TF32 problem 05 must pack (B MN-major in B's role) stays on 05 (04's tiles would
  // leave most SMs idle).
  q = plan(TESSERA_TF32, 'N', 'T', 1024, 16, 1024, 1024, 16, 1024);
  EXPECT_TRUE(has(q, "kernel 05_wgmma_tma")) << q;
  EXPECT_TRUE(has(q, "B packed K-major")) << q;
}

TEST(GemmAbi, PlanReportsBadArgumentsAsTheCallWould) {
  int status = -1;
  std::string p = plan(TESSERA_F16, 'N', 'N', 64, 64, 64, 63, 64, 64, kA, 0.0f, nullptr, &status);
  EXPECT_EQ(status, TESSERA_ERROR_INVALID_LDA);
  EXPECT_EQ(p, tessera_status_string(TESSERA_ERROR_INVALID_LDA));
  plan(TESSERA_F32, 'N', 'N', 64, 64, 64, 64, 64, 64, kA, 0.0f, "99_nope", &status);
  EXPECT_EQ(status, TESSERA_ERROR_UNKNOWN_KERNEL);
  // A short buffer is truncated, NUL-terminated.
  char tiny[8];
  EXPECT_EQ(tessera_gemm_plan(nullptr, TESSERA_F32, 'N', 'N', 4, 4, 4, 1.0f, kA, 4, kB, 4, 0.0f, kC,
                              4, tiny, sizeof tiny),
            TESSERA_SUCCESS);
  EXPECT_EQ(std::string(tiny), "F32 NN ");
}

TEST(GemmAbi, WorkspaceSizeAndChecks) {
  // Aligned operands: nothing to pack.
  EXPECT_EQ(tessera_gemm_workspace_size(nullptr, TESSERA_F16, 'N', 'N', 4096, 4096, 4096, kA, 4096,
                                        kB, 4096),
            0u);
  // An unaligned A (100 x 100 f16): the built-in choice (04 at this size) packs it K-major with K
  // rounded up to 8 elements: 100 rows x 104 x 2 bytes = 20,800, in 256-byte pieces: 20,992.
  const void* odd = reinterpret_cast<const void*>(0x1002);
  EXPECT_EQ(
      tessera_gemm_workspace_size(nullptr, TESSERA_F16, 'N', 'N', 100, 100, 100, odd, 100, kB, 104),
      20992u);
  // tf32 on 05 packs an MN-major B (A goes through registers): 4096 x 4096 x 4 bytes.
  EXPECT_EQ(tessera_gemm_workspace_size("05", TESSERA_TF32, 'N', 'T', 4096, 4096, 4096, kA, 4096,
                                        kB, 4096),
            4096u * 4096 * 4);
  // Bad arguments: 0.
  EXPECT_EQ(
      tessera_gemm_workspace_size(nullptr, TESSERA_F16, 'N', 'N', 100, 100, 100, odd, 99, kB, 104),
      0u);
  // A workspace too small or misaligned is refused before any CUDA call.
  void* ws = reinterpret_cast<void*>(0x10000);
  EXPECT_EQ(tessera_gemm_ex(nullptr, TESSERA_F16, 'N', 'N', 100, 100, 100, 1.0f, odd, 100, kB, 104,
                            0.0f, kC, 100, ws, 20991, nullptr),
            TESSERA_ERROR_WORKSPACE);
  EXPECT_EQ(tessera_gemm_ex(nullptr, TESSERA_F16, 'N', 'N', 100, 100, 100, 1.0f, odd, 100, kB, 104,
                            0.0f, kC, 100, reinterpret_cast<void*>(0x10010), 1 << 20, nullptr),
            TESSERA_ERROR_WORKSPACE);
  EXPECT_TRUE(std::string(tessera_status_string(TESSERA_ERROR_WORKSPACE))
                  .find("tessera_gemm_workspace_size") != std::string::npos);
  // The plan says how much.
  EXPECT_TRUE(
      has(plan(TESSERA_F16, 'N', 'N', 100, 100, 100, 100, 104, 100, odd), "workspace 20992 bytes"));
}

}  // namespace

// tessera_scaled_gemm: FP8 A and B (one format), C fp32/f16/bf16, scales per tensor or per row.
const float* kScaleA = reinterpret_cast<const float*>(0x4000);
const float* kScaleB = reinterpret_cast<const float*>(0x5000);
int scaled(tessera_dtype a, tessera_dtype b, tessera_dtype c, tessera_scaling s,
           const float* sa = kScaleA, const float* sb = kScaleB, const char* kernel = nullptr,
           int64_t m = 4, int64_t n = 4,
           tessera_accumulation acc = TESSERA_ACCUMULATE_PROMOTED) {
  return tessera_scaled_gemm(kernel, a, b, c, 'T', 'N', m, n, 32, 1.0f, kA, 32, kB, 32, s, sa, sb,
                             acc, 0.0f, kC, 4, nullptr);
}
std::string scaled_plan(tessera_dtype a, tessera_dtype c, tessera_scaling s, char ta, char tb,
                        int64_t m, int64_t n, int64_t k, int64_t lda, int64_t ldb,
                        tessera_accumulation acc = TESSERA_ACCUMULATE_FAST) {
  char text[1024] = "unchanged";
  tessera_scaled_gemm_plan(nullptr, a, a, c, ta, tb, m, n, k, kA, lda, kB, ldb, s, kScaleA,
                           kScaleB, acc, kC, m, text, sizeof text);
  return text;
}

TEST(GemmAbi, ScaledFp8Statuses) {
  EXPECT_STREQ(tessera_gemm_kernels_for(TESSERA_E4M3), "05_wgmma_tma");
  EXPECT_STREQ(tessera_gemm_kernels_for(TESSERA_E5M2), "05_wgmma_tma");
  const tessera_scaling tensor = TESSERA_SCALE_TENSOR, row = TESSERA_SCALE_ROW;
  // FP8 needs C's type and the scales: the plain call refuses it.
  EXPECT_EQ(call('T', 'N', 4, 4, 32, 32, 32, 4, kA, kB, kC, TESSERA_E4M3),
            TESSERA_ERROR_UNSUPPORTED_DTYPE);
  EXPECT_EQ(scaled(TESSERA_F16, TESSERA_F16, TESSERA_F16, tensor),
            TESSERA_ERROR_UNSUPPORTED_DTYPE);  // not FP8
  EXPECT_EQ(scaled(TESSERA_E4M3, TESSERA_E5M2, TESSERA_BF16, tensor),
            TESSERA_ERROR_UNSUPPORTED_DTYPE);  // two formats
  EXPECT_EQ(scaled(TESSERA_E4M3, TESSERA_E4M3, TESSERA_E4M3, tensor),
            TESSERA_ERROR_UNSUPPORTED_DTYPE);  // FP8 C
  EXPECT_EQ(scaled(TESSERA_E4M3, TESSERA_E4M3, tessera_dtype(9), tensor),
            TESSERA_ERROR_UNKNOWN_DTYPE);
  EXPECT_EQ(scaled(TESSERA_E4M3, TESSERA_E4M3, TESSERA_BF16, tessera_scaling(7)),
            TESSERA_ERROR_INVALID_SCALE);
  EXPECT_EQ(scaled(TESSERA_E5M2, TESSERA_E5M2, TESSERA_F32, row, nullptr),
            TESSERA_ERROR_INVALID_SCALE);
  EXPECT_EQ(scaled(TESSERA_E5M2, TESSERA_E5M2, TESSERA_F32, row, kScaleA, nullptr),
            TESSERA_ERROR_INVALID_SCALE);
  EXPECT_EQ(scaled(TESSERA_E4M3, TESSERA_E4M3, TESSERA_BF16, tensor, kScaleA, kScaleB, "04"),
            TESSERA_ERROR_UNSUPPORTED_DTYPE);  // 05 only
  // Block scales are promoted per block: fast accumulation does not apply; unknown modes.
  EXPECT_EQ(scaled(TESSERA_E4M3, TESSERA_E4M3, TESSERA_BF16, TESSERA_SCALE_BLOCK_A_ROWS, kScaleA,
                   kScaleB, nullptr, 4, 4, TESSERA_ACCUMULATE_FAST),
            TESSERA_ERROR_INVALID_SCALE);
  EXPECT_EQ(scaled(TESSERA_E4M3, TESSERA_E4M3, TESSERA_BF16, tensor, kScaleA, kScaleB, nullptr, 4,
                   4, tessera_accumulation(5)),
            TESSERA_ERROR_INVALID_SCALE);
  // m = 0: nothing to do, nothing touched.
  EXPECT_EQ(scaled(TESSERA_E4M3, TESSERA_E4M3, TESSERA_BF16, row, kScaleA, kScaleB, "05", 0),
            TESSERA_SUCCESS);
  EXPECT_NE(std::string(tessera_status_string(TESSERA_ERROR_INVALID_SCALE)).find("scale_a"),
            std::string::npos);
}

TEST(GemmAbi, ScaledFp8Plan) {
  // 'T','N' (A k x m, B k x n column-major): both K-major, read where they lie.
  std::string p = scaled_plan(TESSERA_E4M3, TESSERA_BF16, TESSERA_SCALE_ROW, 'T', 'N', 4096, 4096,
                              4096, 4096, 4096);
  EXPECT_TRUE(has(p, "E4M3 x E4M3 -> BF16, row-wise scales, fast accumulation (all of K in the "
                     "tensor cores), TN m=4096 n=4096 k=4096"))
      << p;
  EXPECT_TRUE(has(p, "tile 128 x 256")) << p;
  // Promoted sums: the promoted kernel's 128 x 128 tile, the orientation the tile rule chose.
  p = scaled_plan(TESSERA_E4M3, TESSERA_BF16, TESSERA_SCALE_ROW, 'T', 'N', 4096, 4096, 4096, 4096,
                  4096, TESSERA_ACCUMULATE_PROMOTED);
  EXPECT_TRUE(has(p, "row-wise scales, sums promoted to fp32 every 128 of K, TN")) << p;
  EXPECT_TRUE(has(p, "tile 128 x 128")) << p;
  EXPECT_TRUE(has(p, "kernel 05_wgmma_tma, the built-in choice for E4M3")) << p;
  EXPECT_TRUE(has(p, "A read by TMA where it lies (K-major)")) << p;
  EXPECT_TRUE(has(p, "B read by TMA where it lies (K-major)")) << p;
  EXPECT_TRUE(has(p, "C stored by TMA")) << p;  // (bf16 C)
  p = scaled_plan(TESSERA_E4M3, TESSERA_F16, TESSERA_SCALE_TENSOR, 'T', 'N', 4096, 4096, 4096,
                  4096, 4096);
  EXPECT_FALSE(has(p, "C stored by TMA")) << p;  // (f16 C: vector stores, the plan's rule)
  // 'N','T': both MN-major: FP8 wgmma reads K-major tiles only, so both are packed first.
  p = scaled_plan(TESSERA_E5M2, TESSERA_F32, TESSERA_SCALE_TENSOR, 'N', 'T', 4096, 4096, 4096,
                  4096, 4096);
  EXPECT_TRUE(has(p, "E5M2 x E5M2 -> F32, per-tensor scales")) << p;
  EXPECT_FALSE(has(p, "C stored by TMA")) << p;  // (fp32 C)
  EXPECT_TRUE(has(p, "A packed K-major into a scratch buffer first (MN-major: FP8 wgmma reads "
                     "K-major tiles only)"))
      << p;
  EXPECT_TRUE(has(p, "B packed K-major into a scratch buffer first (MN-major: FP8")) << p;
  // No skinny kernel for FP8: 8 rows still run on kernel 05, on a narrow tile.
  p = scaled_plan(TESSERA_E4M3, TESSERA_F16, TESSERA_SCALE_TENSOR, 'T', 'N', 8, 4096, 4096, 4096,
                  4096);
  EXPECT_TRUE(has(p, "kernel 05_wgmma_tma")) << p;
  EXPECT_TRUE(has(p, "tile 128 x 64")) << p;
  // Block scales: 128 x 128 tiles, the operand with per-row scales as the kernel's A
  // (as given for BLOCK_A_ROWS, transposed for BLOCK_B_COLUMNS, whatever m and n are).
  p = scaled_plan(TESSERA_E4M3, TESSERA_BF16, TESSERA_SCALE_BLOCK_A_ROWS, 'T', 'N', 4096, 4096,
                  4096, 4096, 4096, TESSERA_ACCUMULATE_PROMOTED);
  EXPECT_TRUE(has(p, "1 x 128 (A) and 128 x 128 (B) block scales")) << p;
  EXPECT_TRUE(has(p, "tile 128 x 128")) << p;
  EXPECT_FALSE(has(p, "transposed")) << p;
  p = scaled_plan(TESSERA_E4M3, TESSERA_BF16, TESSERA_SCALE_BLOCK_B_COLUMNS, 'T', 'N', 7168, 128,
                  4096, 4096, 4096, TESSERA_ACCUMULATE_PROMOTED);
  EXPECT_TRUE(has(p, "128 x 128 (A) and 1 x 128 (B) block scales")) << p;
  EXPECT_TRUE(has(p, "on the transposed problem")) << p;
  // bf16 C^T leaves by TMA too (a row-major store tile), where C allows it (m % 8 == 0 here).
  EXPECT_TRUE(has(p, "C^T stored by TMA along C's rows")) << p;
  p = scaled_plan(TESSERA_E4M3, TESSERA_BF16, TESSERA_SCALE_BLOCK_A_ROWS, 'T', 'N', 128, 7168,
                  4096, 4096, 4096, TESSERA_ACCUMULATE_PROMOTED);
  EXPECT_FALSE(has(p, "transposed")) << p;
}
