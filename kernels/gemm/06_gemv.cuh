// kernels/gemm/06_gemv.cuh -- kernel 06's one-column problems: GEMV, y = alpha X v + beta y.
//
// With one column (n = 1, or m = 1 as the transposed problem), C = alpha A B + beta C is a
// matrix-vector product: the big operand X (L rows, K) is read once, 2 FLOP per element, so HBM
// is the limit: 4096 x 4096 in f16 is 32 MiB, ~11 us at ~3 TB/s. Two kernels, one per way X lies:
//
//   (a) X contiguous along L (BLAS 'N' A with n = 1): gemv_columns. A CTA of 512 threads owns
//       kTileRows rows and reads them down the columns: T = kTileRows / V threads cover the rows
//       of one k with a 16-byte vector each (V = 16 / element bytes), the CTA's G = 512 / T
//       groups take consecutive values of k. A tile's column is 128 bytes (one line: 32 rows of
//       f32, 64 of f16/bf16), or 64 where 128-byte tiles would give fewer CTAs than the GPU has
//       SMs (the host's plan, 06_skinny.cu). The CTAs walk K together, so the GPU reads each
//       column of X as one run. The G partial sums of a row are added by warp shuffles across
//       the groups of a warp, then across warps in shared memory.
//   (b) X contiguous along K (BLAS 'T' A with n = 1, or 'N' B with m = 1): gemv_rows. A warp
//       owns kGemvRowsPerWarp = 2 rows and its lanes read 16-byte vectors along K (a warp's load
//       of one row is 512 contiguous bytes); v is read by the same vectors, once per 2 rows, from
//       L1 (it is 8-32 KiB). The lanes' sums are added by warp shuffles.
//
// Neither kernel synchronizes in its k-loop: each thread issues U steps of loads before their
// FMAs and goes on (kernel 06's multi-column kernel stages Y per chunk of K behind
// __syncthreads, which drains the loads in flight at each chunk). The common step (every load
// inside X, v and the split's K, and 16-byte aligned) is a branch of its own with no predicate
// per element: written as one loop with per-element bounds, the 16-bit kernels ran at 0.3-0.5x
// of cuBLAS (a set-predicate-branch per element of every vector; H100, 1 x 8192 x 8192 f16 135
// us against 48 us as now). Where the rows give too few CTAs to keep the GPU's loads in flight,
// K is split across CTAs (blockIdx.y) with fp32 partial sums in the workspace, added in order
// by add_splits (common.cuh) -- a second launch, so only where the CTAs would be fewer than
// kGemvMinTiles.
//
// Measured (H100, GPU time, ratio to cuBLAS in one run; bench/results/gemm_shapes.md): (a) 64- and
// 32-row tiles, 512 threads, U = 4 (16-bit) or 8 (f32) against 256 threads or U = 4 / 8 swapped:
// within 2-3 %, 256 threads 5 % slower; (b) 2 rows a warp and U = 4 against 1 x 8, 4 x 2, 2 x 8:
// the others 3-15 % slower.
//
// Elements past L or past the split's K are never read (predicated, not clamped); beta = 0 never
// reads y. The math is fp32 FMA (TF32 too: full fp32, more accurate at the same speed).
#pragma once

#include "common.cuh"

namespace tessera::ladder {

struct GemvArgs {
  const void* x;
  int64_t x_sl, x_sk, rows;  // X(l,k) = x[l*x_sl + k*x_sk], l < rows (L)
  const void* v;
  int64_t v_sk, k;           // v(k) = v[k*v_sk], k < K
  void* y;
  int64_t y_sl;              // y(l) = y[l*y_sl]
  float alpha, beta;
  float* partial;            // splits > 1: partial[split*L + l]
  int64_t k_split;           // values of K per split (blockIdx.y)
  bool x_vec;                // X's base and leading dimension 16-byte aligned (its unit stride's vectors)
  bool v_vec;                // (b): v contiguous and 16-byte aligned
};

// N consecutive elements, loadable as one vector.
template <class Bits, int N>
struct alignas(N * sizeof(Bits)) Pack {
  Bits v[N];
};

// One result: y(l) (one split) or the split's partial sum.
template <class E>
__device__ __forceinline__ void gemv_store(GemvArgs const& a, int64_t l, float s) {
  if (l >= a.rows) return;
  if (a.partial) {
    a.partial[blockIdx.y * a.rows + l] = s;
    return;
  }
  auto* y = static_cast<typename E::Bits*>(a.y) + l * a.y_sl;
  *y = E::from_float(a.beta == 0.0f ? a.alpha * s : a.alpha * s + a.beta * E::to_float(*y));
}

// (a) X contiguous along L. Worked example, f32 (V = 4), kTileRows = 32: T = 8 threads per k
// cover rows l0..l0+31, G = 64 groups; thread 13 is t = 5, g = 1: rows l0+20..23 of k = 1, 65,
// 129, ...; a warp reads columns 4w..4w+3 (+ 64 i), one 128-byte line each.
constexpr int kGemvColumnsThreads = 512;
template <class E, int kTileRows>
__global__ void __launch_bounds__(kGemvColumnsThreads) gemv_columns(GemvArgs a) {
  using Bits = typename E::Bits;
  constexpr int V = 16 / int(sizeof(Bits));
  constexpr int kThreads = kGemvColumnsThreads, T = kTileRows / V, G = kThreads / T, kWarps = kThreads / 32;
  constexpr int U = sizeof(Bits) == 4 ? 8 : 4;  // steps of loads before their FMAs: 64-128 bytes a thread
  static_assert(kTileRows % V == 0 && 32 % T == 0, "a tile's rows are whole vectors, a warp whole groups");
  __shared__ float red[kWarps][kTileRows];  // each warp's sums of the tile's rows

  const int t = int(threadIdx.x) % T, g = int(threadIdx.x) / T;
  const int64_t l0 = int64_t(blockIdx.x) * kTileRows, l = l0 + t * V;
  const int64_t k_begin = int64_t(blockIdx.y) * a.k_split, k_end = min64(a.k, k_begin + a.k_split);
  const Bits* x = static_cast<const Bits*>(a.x);
  const Bits* v = static_cast<const Bits*>(a.v);
  const bool whole = a.x_vec && l + V <= a.rows;  // my V rows in one aligned vector

  float acc[V] = {};
  for (int64_t k = k_begin + g; k < k_end; k += int64_t(G) * U) {
    Pack<Bits, V> xs[U];
    float vk[U];
    if (whole && k + int64_t(U - 1) * G < k_end) {  // the common case: U vectors, no predicates
#pragma unroll
      for (int u = 0; u < U; ++u) {
        const int64_t kk = k + int64_t(u) * G;
        vk[u] = E::to_float(v[kk * a.v_sk]);
        xs[u] = *reinterpret_cast<const Pack<Bits, V>*>(x + l + kk * a.x_sk);
      }
    } else {
#pragma unroll
      for (int u = 0; u < U; ++u) {
        const int64_t kk = k + int64_t(u) * G;
        const bool in = kk < k_end;
        vk[u] = in ? E::to_float(v[kk * a.v_sk]) : 0.0f;
#pragma unroll
        for (int j = 0; j < V; ++j) xs[u].v[j] = in && l + j < a.rows ? x[(l + j) * a.x_sl + kk * a.x_sk] : Bits(0);
      }
    }
#pragma unroll
    for (int u = 0; u < U; ++u)
#pragma unroll
      for (int j = 0; j < V; ++j) acc[j] = fmaf(E::to_float(xs[u].v[j]), vk[u], acc[j]);
  }

  // Lanes t, t + T, t + 2T, ... of a warp hold sums of the same rows: butterfly over them, then
  // thread i < kTileRows adds row l0 + i's kWarps sums in warp order.
  const int lane = int(threadIdx.x) % 32, warp = int(threadIdx.x) / 32;
#pragma unroll
  for (int j = 0; j < V; ++j)
#pragma unroll
    for (int d = T; d < 32; d *= 2) acc[j] += __shfl_xor_sync(0xffffffffu, acc[j], d);
  if (lane < T)
#pragma unroll
    for (int j = 0; j < V; ++j) red[warp][lane * V + j] = acc[j];
  __syncthreads();
  if (threadIdx.x < kTileRows) {
    float s = 0.0f;
#pragma unroll
    for (int w = 0; w < kWarps; ++w) s += red[w][threadIdx.x];
    gemv_store<E>(a, l0 + threadIdx.x, s);
  }
}

// (b) X contiguous along K. Warp w of CTA b owns rows (8b + w) * R .. + R - 1; lane t reads
// X(l, k) and v(k) for k = t V .. t V + V - 1 (+ 32 V i), U such steps before their FMAs.
constexpr int kGemvRowsThreads = 256, kGemvRowsPerWarp = 2;
template <class E>
__global__ void __launch_bounds__(kGemvRowsThreads) gemv_rows(GemvArgs a) {
  using Bits = typename E::Bits;
  using P = Pack<Bits, 16 / sizeof(Bits)>;
  constexpr int R = kGemvRowsPerWarp, U = 4;
  constexpr int V = 16 / int(sizeof(Bits)), kStep = 32 * V, kWarps = kGemvRowsThreads / 32;
  const int lane = int(threadIdx.x) % 32, warp = int(threadIdx.x) / 32;
  const int64_t l0 = (int64_t(blockIdx.x) * kWarps + warp) * R;
  const int64_t k_begin = int64_t(blockIdx.y) * a.k_split, k_end = min64(a.k, k_begin + a.k_split);
  const Bits* x = static_cast<const Bits*>(a.x);
  const Bits* v = static_cast<const Bits*>(a.v);

  const bool fast = a.x_vec && a.v_vec && l0 + R <= a.rows;  // X's R rows and v by aligned vectors
  float acc[R] = {};
  for (int64_t k = k_begin + lane * V; k < k_end; k += int64_t(kStep) * U) {
    P xs[U][R], vs[U];
    if (fast && k + int64_t(U - 1) * kStep + V <= k_end) {  // the common case: vectors, no predicates
#pragma unroll
      for (int u = 0; u < U; ++u) {
        const int64_t kk = k + int64_t(u) * kStep;
        vs[u] = *reinterpret_cast<const P*>(v + kk);
#pragma unroll
        for (int r = 0; r < R; ++r) xs[u][r] = *reinterpret_cast<const P*>(x + (l0 + r) * a.x_sl + kk);
      }
    } else {
#pragma unroll
      for (int u = 0; u < U; ++u) {
        const int64_t kk = k + int64_t(u) * kStep;
#pragma unroll
        for (int j = 0; j < V; ++j) vs[u].v[j] = kk + j < k_end ? v[(kk + j) * a.v_sk] : Bits(0);
#pragma unroll
        for (int r = 0; r < R; ++r)
#pragma unroll
          for (int j = 0; j < V; ++j)
            xs[u][r].v[j] = l0 + r < a.rows && kk + j < k_end ? x[(l0 + r) * a.x_sl + (kk + j) * a.x_sk] : Bits(0);
      }
    }
#pragma unroll
    for (int u = 0; u < U; ++u)
#pragma unroll
      for (int j = 0; j < V; ++j) {
        const float vf = E::to_float(vs[u].v[j]);
#pragma unroll
        for (int r = 0; r < R; ++r) acc[r] = fmaf(E::to_float(xs[u][r].v[j]), vf, acc[r]);
      }
  }
#pragma unroll
  for (int r = 0; r < R; ++r) {
#pragma unroll
    for (int d = 16; d > 0; d /= 2) acc[r] += __shfl_xor_sync(0xffffffffu, acc[r], d);
    if (lane == r) gemv_store<E>(a, l0 + r, acc[r]);
  }
}

}  // namespace tessera::ladder
