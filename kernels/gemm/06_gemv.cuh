// kernels/gemm/06_gemv.cuh -- kernel 06's kernels on CUDA cores: C = alpha X Y^T + beta C for a
// small Y, a GEMV on S = 1, 2, 4 or 8 vectors at once (16-bit elements: S = 1 or 2; from 3 vectors
// they take the tensor-core kernels of 06_gemv_mma.cuh).
//
// The problem as the kernels see it (06_skinny.cu makes it from the GEMM): a big operand X (L
// rows, K), a small one Y (S rows, K: the vectors), C(l, s) = alpha sum_k X(l,k) Y(s,k) + beta
// C(l, s). X is read once from HBM, 2 S FLOP per element: for S <= 8 the bytes are the limit, not
// the math (4096 x 4096 in f16 is 32 MiB, ~11 us at ~3 TB/s; 8 FMAs an element on CUDA cores
// take ~5 us). More than S vectors: the grid's x is tiles x groups of S vectors, each group reads
// X again. Two kernels, one per way X lies:
//
//   (a) X contiguous along L (BLAS 'N' A with small n): gemv_columns. A CTA of 512 threads (256
//       where a thread holds 64 accumulators) owns kTileRows rows and reads them down the
//       columns: T = kTileRows / V threads cover the rows of one k with a 16-byte vector each
//       (V = 16 / element bytes), the CTA's G = threads / T groups take consecutive values of k,
//       each thread the S values Y(s, k) of its k (one vector where Y is contiguous along s). A
//       tile's column is 128 bytes (one line: 32 rows of f32, 64 of f16/bf16), or 64 where 128-byte
//       tiles would give too few CTAs (the host's plan). The CTAs walk K together, so the GPU
//       reads each column of X as one run. The G partial sums of a row are added by warp
//       shuffles across the groups of a warp, then across warps in shared memory.
//   (b) X contiguous along K (BLAS 'T' A with small n, or 'N' B with small m): gemv_rows. A warp
//       owns R rows (2, or 4 with S = 4: Y's loads shared by more rows) and its lanes read
//       16-byte vectors along K (a warp's load of one row is 512 contiguous bytes); Y's values of
//       the same k are read from L1 (Y is S x K, 8-256 KiB), as S vectors along K or, where Y
//       is contiguous along s, as one vector of S values per k (YMode; then lane t takes k =
//       t + 32 j, X by element loads). The lanes' sums are added by warp shuffles.
//
// Neither kernel synchronizes in its k-loop: each thread issues U steps of loads before their
// FMAs and goes on. The common step (every load inside X, Y and the split's K, aligned) is a
// branch of its own with no predicate per element: written as one loop with per-element bounds,
// the 16-bit kernels ran at 0.3-0.5x of cuBLAS (a set-predicate-branch per element of every
// vector; H100, 1 x 8192 x 8192 f16 135 us against 48 us as now). Where the tiles give too few
// CTAs to keep the GPU's loads in flight, K is split across CTAs (blockIdx.y) with fp32 partial
// sums in the workspace, added in order by add_splits (common.cuh) -- a second launch, so only
// where the CTAs would be fewer than the plan's minimum.
//
// Elements past L, S or the split's K are never read (predicated, not clamped); beta = 0 never
// reads C. The math is fp32 FMA (TF32 too: full fp32, more accurate at the same speed).
#pragma once

#include "common.cuh"
#include "gemv_shape.hpp"

namespace tessera::ladder {

struct GemvArgs {
  const void* x;
  int64_t x_sl, x_sk, rows;   // X(l,k) = x[l*x_sl + k*x_sk], l < rows (L)
  const void* y;
  int64_t y_ss, y_sk, small;  // Y(s,k) = y[s*y_ss + k*y_sk], s < small (all of S's groups)
  int64_t k;
  void* c;
  int64_t c_sl, c_ss;         // C(l,s) = c[l*c_sl + s*c_ss]
  float alpha, beta;
  float* partial;             // splits > 1: partial[(split*small + s)*L + l]
  int64_t tiles, k_split;     // blockIdx.x = tile + tiles * group; K per split (blockIdx.y)
  bool x_vec;                 // X's base and leading dimension 16-byte aligned
  YMode y_mode;
};

// N consecutive elements, loadable as one vector.
template <class Bits, int N>
struct alignas(N * sizeof(Bits)) Pack {
  Bits v[N];
};

// Y(s0 + s, k) for s < S, contiguous along s: loaded in pieces of at most 16 bytes.
template <class Bits, int S>
__device__ __forceinline__ Pack<Bits, S> load_along_s(const Bits* p) {
  constexpr int P = S * int(sizeof(Bits)) <= 16 ? S : 16 / int(sizeof(Bits));
  Pack<Bits, S> out;
#pragma unroll
  for (int i = 0; i < S; i += P) {
    const Pack<Bits, P> piece = *reinterpret_cast<const Pack<Bits, P>*>(p + i);
#pragma unroll
    for (int j = 0; j < P; ++j) out.v[i + j] = piece.v[j];
  }
  return out;
}

// The row of Y a step reads for vector s of a group with s_valid vectors inside Y: past them,
// the last one again (no branch in the step; those sums are never stored).
__device__ __forceinline__ int64_t y_row(int s, int s_valid) {
  return s < s_valid ? s : s_valid - 1;
}

// One result: C(l, s0 + s) (one split) or the split's partial sum.
template <class E>
__device__ __forceinline__ void gemv_store(GemvArgs const& a, int64_t l, int64_t s, float v) {
  if (l >= a.rows || s >= a.small) return;
  if (a.partial) {
    a.partial[(blockIdx.y * a.small + s) * a.rows + l] = v;
    return;
  }
  auto* c = static_cast<typename E::Bits*>(a.c) + l * a.c_sl + s * a.c_ss;
  *c = E::from_float(a.beta == 0.0f ? a.alpha * v : a.alpha * v + a.beta * E::to_float(*c));
}

// The slow steps, one value of k (gemv_columns) or one vector of K (gemv_rows) at a time with
// element loads through both strides, zeros past L, K and the group: their own small FMA body,
// so that the fast step's registers are not spent on predicated addresses.
template <class E, int V, int S>
__device__ __forceinline__ void columns_element_step(float (&acc)[S][V], GemvArgs const& a,
                                                     const typename E::Bits* x,
                                                     const typename E::Bits* y, int64_t l,
                                                     int64_t k, int s_valid) {
  float xf[V], yf[S];
#pragma unroll
  for (int j = 0; j < V; ++j)
    xf[j] = l + j < a.rows ? E::to_float(x[(l + j) * a.x_sl + k * a.x_sk]) : 0.0f;
#pragma unroll
  for (int s = 0; s < S; ++s) yf[s] = s < s_valid ? E::to_float(y[s * a.y_ss + k * a.y_sk]) : 0.0f;
#pragma unroll
  for (int s = 0; s < S; ++s)
#pragma unroll
    for (int j = 0; j < V; ++j) acc[s][j] = fmaf(xf[j], yf[s], acc[s][j]);
}
template <class E, int V, int R, int S>
__device__ __forceinline__ void rows_element_step(float (&acc)[R][S], GemvArgs const& a,
                                                  const typename E::Bits* x,
                                                  const typename E::Bits* y, int64_t l0, int64_t k,
                                                  int64_t k_end, int s_valid) {
#pragma unroll 1
  for (int j = 0; j < V && k + j < k_end; ++j) {
    float xf[R], yf[S];
#pragma unroll
    for (int r = 0; r < R; ++r)
      xf[r] = l0 + r < a.rows ? E::to_float(x[(l0 + r) * a.x_sl + (k + j) * a.x_sk]) : 0.0f;
#pragma unroll
    for (int s = 0; s < S; ++s)
      yf[s] = s < s_valid ? E::to_float(y[s * a.y_ss + (k + j) * a.y_sk]) : 0.0f;
#pragma unroll
    for (int s = 0; s < S; ++s)
#pragma unroll
      for (int r = 0; r < R; ++r) acc[r][s] = fmaf(xf[r], yf[s], acc[r][s]);
  }
}

// (a) X contiguous along L. Worked example, f32 (V = 4), kTileRows = 32: T = 8 threads per k
// cover rows l0..l0+31, G = 64 groups; thread 13 is t = 5, g = 1: rows l0+20..23 of k = 1, 65,
// 129, ...; a warp reads columns 4w..4w+3 (+ 64 i), one 128-byte line each.
// Threads of a CTA: 512, or 256 where a thread holds 64 accumulators (S x V), which 512 threads'
// 128 registers could not hold with the loads.
template <class E, int kTileRows, int S>
__global__ void __launch_bounds__(gemv_columns_threads(S, sizeof(typename E::Bits)), 1)
    gemv_columns(GemvArgs a) {
  using Bits = typename E::Bits;
  constexpr int V = 16 / int(sizeof(Bits));
  constexpr int kThreads = gemv_columns_threads(S, sizeof(Bits));
  constexpr int T = kTileRows / V, G = kThreads / T;
  constexpr int kWarps = kThreads / 32;
  // Steps of loads before their FMAs: 64 bytes of X a thread (128 for one f32 vector).
  constexpr int U = sizeof(Bits) == 4 && S == 1 ? 8 : 4;
  static_assert(kTileRows % V == 0 && 32 % T == 0,
                "a tile's rows are whole vectors, a warp whole groups");
  __shared__ float red[kWarps][S][kTileRows];  // each warp's sums of the tile's results

  const int t = int(threadIdx.x) % T, g = int(threadIdx.x) / T;
  const int64_t tile = blockIdx.x % a.tiles, s0 = blockIdx.x / a.tiles * S;
  const int64_t l0 = tile * kTileRows, l = l0 + t * V;
  const int64_t k_begin = int64_t(blockIdx.y) * a.k_split, k_end = min64(a.k, k_begin + a.k_split);
  const Bits* x = static_cast<const Bits*>(a.x);
  const Bits* y = static_cast<const Bits*>(a.y) + s0 * a.y_ss;
  const bool y_along_s = a.y_mode == YMode::kAlongS;
  const int s_valid = int(min64(S, a.small - s0));  // the group's vectors inside Y
  // My V rows by one aligned vector, and Y's vector loads inside Y.
  const bool whole = a.x_vec && l + V <= a.rows && (!y_along_s || s_valid == S);

  float acc[S][V] = {};
  for (int64_t k = k_begin + g; k < k_end; k += int64_t(G) * U) {
    Pack<Bits, V> xs[U];
    Pack<Bits, S> ys[U];
    const bool fast = whole && k + int64_t(U - 1) * G < k_end;  // the common step: no predicates
    if (S > 1 && fast && y_along_s) {  // (one vector: the host never reads it along s)
#pragma unroll
      for (int u = 0; u < U; ++u) {
        const int64_t kk = k + int64_t(u) * G;
        xs[u] = *reinterpret_cast<const Pack<Bits, V>*>(x + l + kk * a.x_sk);
        ys[u] = load_along_s<Bits, S>(y + kk * a.y_sk);
      }
    } else if (fast) {
#pragma unroll
      for (int u = 0; u < U; ++u) {
        const int64_t kk = k + int64_t(u) * G;
        xs[u] = *reinterpret_cast<const Pack<Bits, V>*>(x + l + kk * a.x_sk);
#pragma unroll
        for (int s = 0; s < S; ++s) ys[u].v[s] = y[y_row(s, s_valid) * a.y_ss + kk * a.y_sk];
      }
    } else {  // the edges (last rows, last values of K, a partial group) and unaligned X
#pragma unroll 1
      for (int u = 0; u < U && k + int64_t(u) * G < k_end; ++u)
        columns_element_step<E, V, S>(acc, a, x, y, l, k + int64_t(u) * G, s_valid);
      continue;
    }
#pragma unroll
    for (int u = 0; u < U; ++u)
#pragma unroll
      for (int s = 0; s < S; ++s) {
        const float ys_f = E::to_float(ys[u].v[s]);
#pragma unroll
        for (int j = 0; j < V; ++j) acc[s][j] = fmaf(E::to_float(xs[u].v[j]), ys_f, acc[s][j]);
      }
  }

  // Lanes t, t + T, t + 2T, ... of a warp hold sums of the same results: butterfly over them,
  // then thread i adds result i (row i % kTileRows, s = i / kTileRows)'s kWarps sums in warp
  // order (and result i + kThreads, where there are more).
  const int lane = int(threadIdx.x) % 32, warp = int(threadIdx.x) / 32;
#pragma unroll
  for (int s = 0; s < S; ++s)
#pragma unroll
    for (int j = 0; j < V; ++j) {
#pragma unroll
      for (int d = T; d < 32; d *= 2) acc[s][j] += __shfl_xor_sync(0xffffffffu, acc[s][j], d);
      if (lane < T) red[warp][s][lane * V + j] = acc[s][j];
    }
  __syncthreads();
  for (int n = int(threadIdx.x); n < kTileRows * S; n += kThreads) {
    const int i = n % kTileRows, s = n / kTileRows;
    float v = 0.0f;
#pragma unroll
    for (int w = 0; w < kWarps; ++w) v += red[w][s][i];
    gemv_store<E>(a, l0 + i, s0 + s, v);
  }
}

// (b) X contiguous along K. Warp w of CTA b owns rows (8b + w) * R .. + R - 1; lane t reads
// X(l, k) and Y(s, k) for k = t V .. t V + V - 1 (+ 32 V i), U such steps before their FMAs.
template <class E, int S>
__global__ void __launch_bounds__(kGemvRowsThreads, 2) gemv_rows(GemvArgs a) {
  using Bits = typename E::Bits;
  constexpr int V = 16 / int(sizeof(Bits)), kStep = 32 * V, kWarps = kGemvRowsThreads / 32;
  // Steps of loads before their FMAs: 64-128 bytes of X a lane, within 128 registers.
  constexpr int R = gemv_rows_per_warp(S), U = S == 1 ? 4 : S >= 4 && sizeof(Bits) == 2 ? 1 : 2;
  using P = Pack<Bits, V>;
  const int lane = int(threadIdx.x) % 32, warp = int(threadIdx.x) / 32;
  const int64_t tile = blockIdx.x % a.tiles, s0 = blockIdx.x / a.tiles * S;
  const int64_t l0 = (tile * kWarps + warp) * R;
  const int64_t k_begin = int64_t(blockIdx.y) * a.k_split, k_end = min64(a.k, k_begin + a.k_split);
  const Bits* x = static_cast<const Bits*>(a.x);
  const Bits* y = static_cast<const Bits*>(a.y) + s0 * a.y_ss;
  const bool y_along_k = a.y_mode == YMode::kAlongK;
  const int s_valid = int(min64(S, a.small - s0));  // the group's vectors inside Y
  // X's R rows by aligned vectors, Y by vectors inside Y.
  const bool fast =
      a.x_vec && l0 + R <= a.rows && (y_along_k || (a.y_mode == YMode::kAlongS && s_valid == S));

  float acc[R][S] = {};
  for (int64_t k = k_begin + lane * V; k < k_end; k += int64_t(kStep) * U) {
    P xs[U][R], ys[U][S];  // ys[u][s].v[j] = Y(s0 + s, kk + j)
    // The common step: no predicates.
    const bool step = fast && k + int64_t(U - 1) * kStep + V <= k_end;
    if (step && y_along_k) {
#pragma unroll
      for (int u = 0; u < U; ++u) {
        const int64_t kk = k + int64_t(u) * kStep;
#pragma unroll
        for (int r = 0; r < R; ++r)
          xs[u][r] = *reinterpret_cast<const P*>(x + (l0 + r) * a.x_sl + kk);
#pragma unroll
        for (int s = 0; s < S; ++s)
          ys[u][s] = *reinterpret_cast<const P*>(y + y_row(s, s_valid) * a.y_ss + kk);
      }
    } else if (S > 1 && fast && k - lane * V + int64_t(kStep) * U <= k_end) {
      // Y along s: the warp's step (uniform: all of it inside K) with lane t on k = t + 32 j
      // instead of t V + j, so that a load of Y's S values of one k covers 32 consecutive k
      // across the warp (with t V + j: 32 lines a load, 8x the L1 wavefronts; f32 8 x 4096 x
      // 4096 NN ran at 0.55x cuBLAS), and X by element loads, 32 consecutive ones a warp.
      const int64_t kb = k - lane * V + lane;
#pragma unroll
      for (int u = 0; u < U; ++u)
#pragma unroll
        for (int j = 0; j < V; ++j) {
          const int64_t kk = kb + int64_t(u) * kStep + 32 * j;
#pragma unroll
          for (int r = 0; r < R; ++r) xs[u][r].v[j] = x[(l0 + r) * a.x_sl + kk];
          const Pack<Bits, S> along_s = load_along_s<Bits, S>(y + kk * a.y_sk);
#pragma unroll
          for (int s = 0; s < S; ++s) ys[u][s].v[j] = along_s.v[s];
        }
    } else {
      // The edges (last rows, last values of K, a partial group read along s) and unaligned X.
#pragma unroll 1
      for (int u = 0; u < U && k + int64_t(u) * kStep < k_end; ++u)
        rows_element_step<E, V, R, S>(acc, a, x, y, l0, k + int64_t(u) * kStep, k_end, s_valid);
      continue;
    }
#pragma unroll
    for (int u = 0; u < U; ++u)
#pragma unroll
      for (int j = 0; j < V; ++j)
#pragma unroll
        for (int s = 0; s < S; ++s) {
          const float ys_f = E::to_float(ys[u][s].v[j]);
#pragma unroll
          for (int r = 0; r < R; ++r) acc[r][s] = fmaf(E::to_float(xs[u][r].v[j]), ys_f, acc[r][s]);
        }
  }
  // The 32 lanes hold sums of the same R x S results: butterfly; lane r * S + s stores (r, s).
#pragma unroll
  for (int r = 0; r < R; ++r)
#pragma unroll
    for (int s = 0; s < S; ++s) {
#pragma unroll
      for (int d = 16; d > 0; d /= 2) acc[r][s] += __shfl_xor_sync(0xffffffffu, acc[r][s], d);
      if (lane == r * S + s) gemv_store<E>(a, l0 + r, s0 + s, acc[r][s]);
    }
}

}  // namespace tessera::ladder
