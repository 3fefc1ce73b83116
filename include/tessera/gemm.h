/* tessera/gemm.h -- the C ABI of libtessera_gemm.so (the GEMM entry point's contract).
 *
 * C = alpha * op(A) * op(B) + beta * C on device pointers, column-major like BLAS, op = 'N' or
 * 'T' ('n', 't', and 'C'/'c', which for real types is 'T', are accepted too). op(A) is m x k,
 * op(B) is k x n, C is m x n. Quick returns follow BLAS: m or n = 0 does nothing; k = 0 (or
 * alpha = 0) scales C by beta, and beta = 0 writes zeros without reading C.
 *
 * Every argument is checked before any CUDA call: a bad argument returns its status and touches
 * neither the GPU nor the CUDA runtime. tessera_status_string(status) gives the message.
 *
 *   float *A, *B, *C;  // device pointers, 512 x 512 each
 *   int s = tessera_gemm(TESSERA_F32, 'N', 'N', 512, 512, 512, 1.0f, A, 512, B, 512, 0.0f, C, 512,
 * 0); if (s) fprintf(stderr, "%s\n", tessera_status_string(s));
 */
#ifndef TESSERA_GEMM_H
#define TESSERA_GEMM_H

#include <stddef.h>
#include <stdint.h>

#if defined(_WIN32)
#define TESSERA_GEMM_API
#else
#define TESSERA_GEMM_API __attribute__((visibility("default")))
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* Element types. E4M3 and E5M2 are the FP8 formats (inputs of tessera_scaled_gemm only). */
typedef enum {
  TESSERA_F32 = 0,
  TESSERA_TF32 = 1,
  TESSERA_F16 = 2,
  TESSERA_BF16 = 3,
  TESSERA_E4M3 = 4,
  TESSERA_E5M2 = 5
} tessera_dtype;

/* How tessera_scaled_gemm scales the product (scales are fp32 device pointers; kb = ceil(k / 128)
   blocks of K, the partial sum of each block promoted to fp32 with its scales):
   TENSOR:         one scale each, scale_a[0] and scale_b[0];
   ROW:            a scale per row of op(A) and per column of op(B): scale_a[i], scale_b[j];
   BLOCK_A_ROWS:   per row of op(A) and block of K, scale_a[i + b * m] (1 x 128 blocks, m-major),
                   per 128 x 128 block of op(B), scale_b[b + (j / 128) * kb] (DeepGEMM's layout);
   BLOCK_B_COLUMNS: the mirror: per 128 x 128 block of op(A), scale_a[b + (i / 128) * kb], per
                   column of op(B) and block of K, scale_b[j + b * n]. */
typedef enum {
  TESSERA_SCALE_TENSOR = 0,
  TESSERA_SCALE_ROW = 1,
  TESSERA_SCALE_BLOCK_A_ROWS = 2,
  TESSERA_SCALE_BLOCK_B_COLUMNS = 3
} tessera_scaling;

/* How tessera_scaled_gemm accumulates: PROMOTED adds the tensor cores' partial sum of every 128
   of K into fp32 accumulators (their FP8 accumulation keeps fewer bits than fp32; cuBLASLt's
   default, torch._scaled_mm's use_fast_accum=False), FAST accumulates all of K in the tensor
   cores (use_fast_accum=True: faster, less accurate), where that is faster: e4m3 on at most 128
   rows or columns is promoted anyway (the plan's words say so). Block scales are always
   promoted. */
typedef enum { TESSERA_ACCUMULATE_PROMOTED = 0, TESSERA_ACCUMULATE_FAST = 1 } tessera_accumulation;

/* Status codes: 0 is success; each other value has a message from tessera_status_string. */
enum {
  TESSERA_SUCCESS = 0,
  TESSERA_ERROR_INVALID_TRANS = 1,     /* transa or transb is not 'N', 'T' (or 'C') */
  TESSERA_ERROR_INVALID_SIZE = 2,      /* m, n or k is negative */
  TESSERA_ERROR_INVALID_LDA = 3,       /* lda < max(1, rows of A as stored) */
  TESSERA_ERROR_INVALID_LDB = 4,       /* ldb < max(1, rows of B as stored) */
  TESSERA_ERROR_INVALID_LDC = 5,       /* ldc < max(1, m) */
  TESSERA_ERROR_NULL_POINTER = 6,      /* A, B or C is NULL although its size is not zero */
  TESSERA_ERROR_UNKNOWN_DTYPE = 7,     /* dtype is not a tessera_dtype */
  TESSERA_ERROR_UNKNOWN_KERNEL = 8,    /* no kernel of that name: see tessera_gemm_kernels() */
  TESSERA_ERROR_UNSUPPORTED_DTYPE = 9, /* the kernel cannot run this dtype (not yet implemented) */
  TESSERA_ERROR_TOO_LARGE = 10,        /* a size needs more CTAs than one launch can have */
  TESSERA_ERROR_CUDA = 11,             /* the CUDA runtime reported an error (launch or device) */
  TESSERA_ERROR_WORKSPACE = 12, /* tessera_gemm_ex: workspace too small or not 256-byte aligned */
  TESSERA_ERROR_INVALID_SCALE = 13 /* tessera_scaled_gemm: unknown scaling or accumulation, a NULL
                                      scale, or block scales with FAST accumulation */
};

/* C = alpha * op(A) * op(B) + beta * C, column-major like BLAS, op = 'N' or 'T'.
   A, B and C all hold `dtype` (TF32: fp32 storage, tf32 math); accumulation in fp32. 0 = success.
 */
TESSERA_GEMM_API int tessera_gemm(tessera_dtype dtype, char transa, char transb, int64_t m,
                                  int64_t n, int64_t k, float alpha, const void* A, int64_t lda,
                                  const void* B, int64_t ldb, float beta, void* C, int64_t ldc,
                                  void* stream /* cudaStream_t, NULL = default */);

/* Same, forcing a kernel of the ladder by name (NULL = the built-in choice). The kernels:
   01_simt_global, 02_simt_cp_async, 03_simt_pipelined (F32); 04_mma_sync, 05_wgmma_tma (TF32,
   F16, BF16; 05 also E4M3 and E5M2 through tessera_scaled_gemm); 06_skinny (the first four:
   bandwidth-bound, a GEMV on up to 8 vectors at a time, 16 in F16 and BF16 on the tensor cores,
   where the built-in choice takes it for min(m, n) <= 8 in F32, 4 in TF32, 16 in F16 and BF16;
   correct for any problem by name; TF32 computed in full fp32).
   Aliases "01".."06". */
TESSERA_GEMM_API int tessera_gemm_named(const char* kernel, tessera_dtype dtype, char transa,
                                        char transb, int64_t m, int64_t n, int64_t k, float alpha,
                                        const void* A, int64_t lda, const void* B, int64_t ldb,
                                        float beta, void* C, int64_t ldc, void* stream);

/* Memory. Scratch memory holds (a) an operand that the chosen kernel cannot read where it lies
   (not 16-byte aligned; for TF32 on kernel 05, MN-major in B's role), packed first, and (b) on
   kernel 05, the partial sums of stream-K (problems whose tiles would leave the GPU's last wave of
   clusters ragged: a few tiles of long K, or a partial last wave; ~17 MB on a 132-SM GPU, the plan
   says when), (c) on kernel 06 (skinny problems), the fp32 partial sums of K split across CTAs when
   the big operand's rows alone give too few CTAs (the plan says when), and (d) on kernel 03 (F32),
   the fp32 partial sums of K split across CTAs when its tiles are fewer than the CTAs the GPU runs
   at once (splits x m x n x 4 bytes, at most ~17 MB on a 132-SM GPU; the plan says when).
   tessera_gemm and tessera_gemm_named take it from the library's stream-ordered memory pool
   (cudaMallocFromPoolAsync / cudaFreeAsync on the call's stream: capturable in a CUDA graph; the
   pool keeps its memory, so repeated calls do not allocate from the driver). tessera_gemm_ex
   never allocates: it uses the caller's workspace (device memory, 256-byte aligned, at least
   tessera_gemm_workspace_size bytes for the same arguments on the same GPU; NULL = use the pool),
   and returns TESSERA_ERROR_WORKSPACE before launching anything when it is too small. A workspace
   must not be used by two calls running at the same time (different streams). */
TESSERA_GEMM_API size_t tessera_gemm_workspace_size(const char* kernel, tessera_dtype dtype,
                                                    char transa, char transb, int64_t m, int64_t n,
                                                    int64_t k, const void* A, int64_t lda,
                                                    const void* B, int64_t ldb);
TESSERA_GEMM_API int tessera_gemm_ex(const char* kernel, tessera_dtype dtype, char transa,
                                     char transb, int64_t m, int64_t n, int64_t k, float alpha,
                                     const void* A, int64_t lda, const void* B, int64_t ldb,
                                     float beta, void* C, int64_t ldc, void* workspace,
                                     size_t workspace_bytes, void* stream);

/* What tessera_gemm_named(kernel, ...) with these arguments would do, without doing it (no CUDA
   call): writes a one-line description into text (at most text_size bytes, NUL-terminated) --
   the kernel and why it was chosen, how A and B are read (in place, or packed into a scratch
   buffer first, and why) and how C is written -- or, for bad arguments, the status message, and
   returns the status the call would return. Setting TESSERA_GEMM_LOG=1 in the environment prints
   the same line on standard error at every call; TESSERA_GEMM_SCHEDULE=tiles makes kernels 05 and
   03 take whole tiles always (no split-K, no stream-K), and TESSERA_GEMM_TILE=256, 128, 64 or 32
   forces the width of their C tile where they have it (05: 64 or 128 for skinny problems and for
   problems too small to fill the GPU with 256, else 256; 03: 32 or 64 for skinny problems, 128
   otherwise; the plan names it), to measure what those choices give a shape. */
TESSERA_GEMM_API int tessera_gemm_plan(const char* kernel, tessera_dtype dtype, char transa,
                                       char transb, int64_t m, int64_t n, int64_t k, float alpha,
                                       const void* A, int64_t lda, const void* B, int64_t ldb,
                                       float beta, const void* C, int64_t ldc, char* text,
                                       size_t text_size);

/* FP8: C = alpha * scale_a * scale_b * op(A) * op(B) + beta * C, with A and B in FP8 (a_type and
   b_type TESSERA_E4M3 or TESSERA_E5M2, the same format for both), accumulated in fp32, and C of
   c_type (TESSERA_F32, TESSERA_F16 or TESSERA_BF16); the scales as `scaling` says. Arguments and
   statuses as tessera_gemm's; kernel 05 (NULL or "05_wgmma_tma"), which reads FP8 K-major only:
   an operand that is not (transa 'N' for A, transb 'T' for B), or not 16-byte aligned, is packed
   K-major into scratch first (tessera_gemm_plan says so). */
TESSERA_GEMM_API int tessera_scaled_gemm(const char* kernel, tessera_dtype a_type,
                                         tessera_dtype b_type, tessera_dtype c_type, char transa,
                                         char transb, int64_t m, int64_t n, int64_t k, float alpha,
                                         const void* A, int64_t lda, const void* B, int64_t ldb,
                                         tessera_scaling scaling, const float* scale_a,
                                         const float* scale_b, tessera_accumulation accumulation,
                                         float beta, void* C, int64_t ldc, void* stream);
/* What tessera_scaled_gemm with these arguments would do (as tessera_gemm_plan). */
TESSERA_GEMM_API int tessera_scaled_gemm_plan(const char* kernel, tessera_dtype a_type,
                                              tessera_dtype b_type, tessera_dtype c_type,
                                              char transa, char transb, int64_t m, int64_t n,
                                              int64_t k, const void* A, int64_t lda, const void* B,
                                              int64_t ldb, tessera_scaling scaling,
                                              const float* scale_a, const float* scale_b,
                                              tessera_accumulation accumulation, const void* C,
                                              int64_t ldc, char* text, size_t text_size);

TESSERA_GEMM_API const char* tessera_gemm_kernels(void);            /* comma-separated names */
TESSERA_GEMM_API const char* tessera_gemm_kernels_for(
    tessera_dtype dtype); /* those that run dtype ("" if none) */
TESSERA_GEMM_API const char* tessera_status_string(
    int status); /* readable message for any status */

#ifdef __cplusplus
}
#endif

#endif /* TESSERA_GEMM_H */
