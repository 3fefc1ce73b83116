/* tessera/attention.h -- the C ABI of libtessera_attention.so: scaled dot-product attention,
 * forward, on device pointers.
 *
 *   O[b,h,i,:] = sum_j softmax_j(scale * Q[b,h,i,:] . K[b,g,j,:] + mask(i,j)) V[b,g,j,:]
 *   LSE[b,h,i] = log sum_j exp(scale * Q[b,h,i,:] . K[b,g,j,:] + mask(i,j))   (natural log)
 *
 * with g = h / (heads_q / heads_kv) (GQA; MQA is heads_kv = 1) and, when causal, mask(i,j) = -inf
 * for j > i: the diagonal is top-left aligned whatever seqlen_q and seqlen_k, as torch's
 * scaled_dot_product_attention(is_causal=True) (its mask is tril(ones(seqlen_q, seqlen_k))).
 * Q and O are (batch, heads_q, seqlen_q, head_dim), K and V (batch, heads_kv, seqlen_k,
 * head_dim), each with run-time element strides for batch, head and seq and stride 1 along
 * head_dim (torch's (B,H,S,D) tensors, or (B,S,H,D) ones transposed). Q, K, V and O hold `dtype`
 * (F16 or BF16); the products accumulate in f32, the softmax is f32, LSE is f32
 * (batch, heads_q, seqlen_q), contiguous. Any seqlen_q, seqlen_k >= 1 (the kernel predicates its
 * tails: no padding is asked of the caller). The kernel reads only the blocks the sizes and
 * strides name and writes only O's block (and LSE's).
 *
 * Every argument is checked before any CUDA call: a bad argument returns its status and touches
 * neither the GPU nor the CUDA runtime; tessera_attention_status_string(status) gives the
 * message. batch, heads_q or seqlen_q = 0 is nothing to do (success, no CUDA call).
 *
 *   tessera_attention_params p = {0};
 *   p.batch = 2, p.heads_q = 16, p.heads_kv = 4, p.seqlen_q = p.seqlen_k = 4096, p.head_dim = 128;
 *   p.q = q, p.q_strides[0] = 16 * 4096 * 128, p.q_strides[1] = 4096 * 128, p.q_strides[2] = 128;
 *   ... (k, v, o likewise), p.scale = 1 / sqrtf(128), p.causal = 1;
 *   int s = tessera_attention(TESSERA_ATTENTION_BF16, &p, stream);
 */
#ifndef TESSERA_ATTENTION_H
#define TESSERA_ATTENTION_H

#include <stddef.h>
#include <stdint.h>

#if defined(_WIN32)
#define TESSERA_ATTENTION_API
#else
#define TESSERA_ATTENTION_API __attribute__((visibility("default")))
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* The element types (the values of tessera_dtype's F16 and BF16 in gemm.h). */
typedef enum { TESSERA_ATTENTION_F16 = 2, TESSERA_ATTENTION_BF16 = 3 } tessera_attention_dtype;

/* Status codes: 0 is success; each other value has a message from
   tessera_attention_status_string. */
enum {
  TESSERA_ATTENTION_SUCCESS = 0,
  TESSERA_ATTENTION_ERROR_NULL_POINTER = 1,   /* params, Q, K, V or O is NULL (work to do) */
  TESSERA_ATTENTION_ERROR_INVALID_SIZE = 2,   /* a size is negative, or seqlen_k = 0 */
  TESSERA_ATTENTION_ERROR_HEAD_DIM = 3,       /* head_dim is not 64, 128 or 256 */
  TESSERA_ATTENTION_ERROR_HEADS = 4,          /* heads_kv < 1 or does not divide heads_q */
  TESSERA_ATTENTION_ERROR_STRIDE = 5,         /* a stride is negative or not a multiple of 8
                                                 elements (16 bytes), or O's rows overlap */
  TESSERA_ATTENTION_ERROR_MISALIGNED = 6,     /* Q, K, V or O is not 16-byte aligned, or LSE
                                                 not 4-byte aligned */
  TESSERA_ATTENTION_ERROR_SCALE = 7,          /* scale is not finite and > 0 */
  TESSERA_ATTENTION_ERROR_UNKNOWN_DTYPE = 8,  /* dtype is not F16 or BF16 */
  TESSERA_ATTENTION_ERROR_TOO_LARGE = 9,      /* heads_q or batch above 65535 (grid limits) */
  TESSERA_ATTENTION_ERROR_CUDA = 10           /* the CUDA runtime reported an error */
};

typedef struct {
  int64_t batch, heads_q, heads_kv, seqlen_q, seqlen_k, head_dim;
  const void* q; /* (batch, heads_q, seqlen_q, head_dim) */
  int64_t q_strides[3]; /* element strides of batch, head, seq (head_dim's is 1) */
  const void* k; /* (batch, heads_kv, seqlen_k, head_dim) */
  int64_t k_strides[3];
  const void* v; /* (batch, heads_kv, seqlen_k, head_dim) */
  int64_t v_strides[3];
  void* o; /* (batch, heads_q, seqlen_q, head_dim), written */
  int64_t o_strides[3];
  float* lse;  /* (batch, heads_q, seqlen_q) f32 contiguous, written; NULL: not computed */
  float scale; /* softmax scale, finite and > 0 (torch's default: 1 / sqrt(head_dim)) */
  int causal;  /* nonzero: key j is masked for query i when j > i (top-left aligned) */
} tessera_attention_params;

/* O (and LSE) for the parameters, on `stream` (cudaStream_t, NULL = the default stream). No
   allocation; capturable in a CUDA graph. 0 = success. */
TESSERA_ATTENTION_API int tessera_attention(tessera_attention_dtype dtype,
                                            const tessera_attention_params* params,
                                            void* stream);

/* What tessera_attention would do, without doing it (no launch, no allocation): a one-line
   description in text (at most text_size bytes, NUL-terminated) -- the kernel, its instruction,
   CTA tile (query rows x keys), warps, pipeline stages, shared memory, grid, mask and GQA group --
   or, for bad arguments, the status message; returns the status tessera_attention would return.
   The kernel: fa3_sm90 (TMA, wgmma, warp-specialized) on an sm_90 device (the current one) where
   TMA can address Q, K, V and O (every stride of a mode of extent > 1 positive), else fa2_sm80
   (also without a device, and when the environment sets TESSERA_ATTENTION_KERNEL=fa2_sm80). */
TESSERA_ATTENTION_API int tessera_attention_plan(tessera_attention_dtype dtype,
                                                 const tessera_attention_params* params,
                                                 char* text, size_t text_size);

TESSERA_ATTENTION_API const char* tessera_attention_status_string(int status);

#ifdef __cplusplus
}
#endif

#endif /* TESSERA_ATTENTION_H */
