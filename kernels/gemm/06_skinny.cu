// kernels/gemm/06_skinny.cu -- ladder step 06: a bandwidth-bound GEMM for skinny problems.
//
// When m or n is small (a decode step, a GEMV), C = alpha A B + beta C is limited by reading the
// big operand once from HBM, not by math: 16 x 4096 x 4096 in f16 reads 32 MiB of the big
// operand for 2 GFLOP, 8 microseconds at 3.35 TB/s, while the tensor cores would need ~3. This
// kernel reads the big operand exactly once with wide, coalesced loads, enough of them in flight
// to cover HBM latency, and does the math in fp32 FMA on CUDA cores.
//
// The problem as it sees it: a big operand X (L rows, K) and a small one Y (S rows, K),
// C(l, s) = alpha sum_k X(l,k) Y(s,k) + beta C(l, s). With n <= m, X = A (L = m) and Y = B;
// otherwise the transposed problem C^T = B A^T (common.cuh, `transposed`), X = B. With S = 1
// the problem is a GEMV, run by the two kernels of 06_gemv.cuh. Otherwise Y's rows are taken in
// groups of kCols (8 or 16: the smallest >= S; any S loops over groups), as below.
//
// Mapping (256 threads = 8 warps per CTA; every thread owns kRows = 4 rows of X and accumulates
// a 4 x kCols block of C in fp32 registers; Y's kCols rows are staged in shared memory per chunk
// of kChunk = 512 values of K, as stored bits, and read back as 16-byte vectors):
//   (a) X contiguous along K (op(A) = 'T' with small n, op(B) = 'N' with small m): dot products.
//       Warp w owns rows 4w..4w+3 of a 32-row CTA tile; lane t reads 16-byte vectors along K at
//       k = t*V + j*32*V (V = 16 / element bytes): a warp's load of one row is 512 contiguous
//       bytes. The 32 lanes' partial sums are added by warp shuffles at the end.
//   (b) X contiguous along L (op(A) = 'N' with small n): lane t owns rows 4t..4t+3 of a 128-row
//       CTA tile and reads them as one vector per k (16 bytes in f32, 8 in f16): a warp's load
//       of one k is 128 rows, contiguous; warp w takes its own slice of each chunk's k, and the
//       8 warps' partial sums are added in shared memory at the end.
//   (c) anything else (X's pointer or leading dimension not 16-byte aligned, or neither stride
//       of X is 1), and the ragged edges (last rows, last K): the same kernels with element
//       loads through the strides. Y is staged element by element: its alignment does not matter.
//   Both patterns are one kernel (a uniform branch per step picks the loads), so the FMA body is
//   compiled once per element type and Cols: 6 kernels, beside the GEMV's 9 (06_gemv.cuh).
//   Each thread issues its 64 bytes of X loads (4 or V vectors) before their FMAs. Where the L tiles
//   times the column groups give fewer than kTargetCtas CTAs, K is split across CTAs too
//   (blockIdx.y): each split writes fp32 partial sums to a workspace (Scratch: the caller's, or
//   stream-ordered), and a second kernel adds them in split order and applies alpha and beta --
//   deterministic, no atomics.
//
// Bandwidth: X is read once (L*K elements); Y (S*K) is read once per CTA from L2, C (L*S) once,
// the partial sums (splits*S*L*4 bytes, mostly in L2) twice. Every X byte moves in a 16-byte (or
// 8-byte) vector of a fully used 128-byte line. A CTA keeps 256 * 64 = 16 KiB of X loads in
// flight per step. Registers (ptxas, tests/cuda/check_skinny.py prints them): 118-240 for 8 and
// 16 columns (1 CTA per SM). The math is
// 2*S FLOP per element of X: at S = 16 and 16-bit X, 16 FMA per 2 bytes, the most CUDA cores
// sustain at HBM rates (H100: 128 FMA/clk/SM); beyond that the tensor-core kernels win.
//
// TF32 runs the same fp32 kernel: full fp32 FMA, no rounding of the operands to tf32 -- more
// accurate than tf32, at the same speed (the limit is the bytes, not the math).
//
// beta = 0 never reads C; no element outside the L x K, S x K and L x S blocks is read or
// written (loads past L or K are predicated off, never clamped).
#include <cstdio>

#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include "06_gemv.cuh"
#include "common.cuh"

namespace tessera::ladder {

// Host-side plan of a call (gemm_abi.cu's make_plan reads it for the plan text and the workspace).
struct SkinnyPlan {
  bool swap;            // X = B (the transposed problem), else X = A
  bool k_major;         // pattern (a): X contiguous along K; else (b) or (c)
  bool vec;             // 16-byte vector loads of X (aligned); else element loads
  bool gemv;            // one column: 06_gemv.cuh's kernels (gemv_rows if k_major, else gemv_columns)
  bool v_vec;           // gemv_rows: the vector v read by 16-byte loads (contiguous, aligned)
  int cols;             // kCols: rows of Y per CTA (1: the GEMV, 8 or 16)
  int tile_rows;        // rows of X per CTA
  int64_t rows, small;  // L and S
  int64_t tiles, groups, splits, k_split;
  size_t workspace;     // bytes of partial sums (splits > 1)
};
SkinnyPlan plan_skinny(GemmArgs const& p, int64_t bytes);

namespace {

constexpr int kThreads = 256, kWarps = kThreads / 32;
constexpr int kRows = 4;       // rows of X per thread
constexpr int kChunk = 512;    // K values of Y staged in shared memory at a time
// Split K across CTAs until the grid has this many CTAs (4 per SM of a 132-SM H100): enough
// warps to keep ~3 TB/s of loads in flight. A tuning constant: measured on the GPU.
constexpr int64_t kTargetCtas = 4 * 132;
constexpr int64_t kMinChunksPerSplit = 1;  // a split is at least one chunk
// GEMV (06_gemv.cuh): gemv_columns takes 128-byte columns where they give at least
// kGemvMinTiles tiles (CTAs), else 64-byte ones; K is split only where the tiles still number
// fewer than kGemvMinTiles, into at most kGemvTargetCtas CTAs, each split a multiple of
// kGemvSplitQuantum values of K (whole steps of either kernel). Measured on the H100's 132 SMs:
// f16 8192 x 1 x 8192 NN on 128 tiles of 64 rows 0.99x cuBLAS, of 32 rows 0.93x; 4096 x 1 x
// 4096 on 64 tiles of 64 rows with K split 0.80x, on 128 tiles of 32 rows 0.98x.
constexpr int64_t kGemvMinTiles = 96, kGemvTargetCtas = 2 * 132, kGemvSplitQuantum = 2048;

// Element storage as raw bits, and the conversions to and from fp32.
struct F32 {
  using Bits = uint32_t;
  using T = Bits;  // (add_splits' storage type)
  __device__ static float to_float(Bits b) { return __uint_as_float(b); }
  __device__ static Bits from_float(float x) { return __float_as_uint(x); }
};
struct F16 {
  using Bits = uint16_t;
  using T = Bits;  // (add_splits' storage type)
  __device__ static float to_float(Bits b) { return __half2float(__ushort_as_half(b)); }
  __device__ static Bits from_float(float x) { return __half_as_ushort(__float2half_rn(x)); }
};
struct BF16 {
  using Bits = uint16_t;
  using T = Bits;  // (add_splits' storage type)
  __device__ static float to_float(Bits b) { return __bfloat162float(__ushort_as_bfloat16(b)); }
  __device__ static Bits from_float(float x) { return __bfloat16_as_ushort(__float2bfloat16_rn(x)); }
};

struct SkinnyArgs {
  const void* x;
  int64_t x_sl, x_sk, rows;  // X(l,k) = x[l*x_sl + k*x_sk], l < rows (L)
  const void* y;
  int64_t y_ss, y_sk, small;  // Y(s,k) = y[s*y_ss + k*y_sk], s < small (S)
  int64_t k;
  void* c;
  int64_t c_sl, c_ss;  // C(l,s) = c[l*c_sl + s*c_ss]
  float alpha, beta;
  float* partial;  // splits > 1: partial[(split*S + s)*L + l]
  int64_t tiles, groups, k_split;
  bool k_major;  // (a): X contiguous along K; else (b), or (c) with element loads
  bool vec;      // X's pointer and leading dimension 16-byte aligned: vector loads
};

// One result: into C (one split) or into the split's partial sums.
template <class E>
__device__ void store(SkinnyArgs const& a, int64_t l, int64_t s, float v) {
  if (l >= a.rows || s >= a.small) return;
  if (a.partial) {
    a.partial[(blockIdx.y * a.small + s) * a.rows + l] = v;
    return;
  }
  auto* c = static_cast<typename E::Bits*>(a.c) + l * a.c_sl + s * a.c_ss;
  *c = E::from_float(a.beta == 0.0f ? a.alpha * v : a.alpha * v + a.beta * E::to_float(*c));
}

// Y's staging buffer holds kChunk values of K per row of Y, rows padded by one 16-byte vector
// (V elements) so that a warp storing 16 rows of one k hits 8 banks, not one.
template <int V>
constexpr int kYsRow = kChunk + V;

// acc[r][s] += x[r][j] * Y(s, k + j) for the V = 16 / bytes values of K at `ys_k` (&ys[0][k]):
// one 16-byte shared load per row of Y, 4 * V FMAs on it.
template <class E, int Cols, int V>
__device__ __forceinline__ void fma_group(float (&acc)[kRows][Cols], float const (&x)[kRows][V],
                                          const typename E::Bits* ys_k) {
  using P = Pack<typename E::Bits, V>;
#pragma unroll
  for (int s = 0; s < Cols; ++s) {
    const P y = *reinterpret_cast<const P*>(ys_k + s * kYsRow<V>);
#pragma unroll
    for (int j = 0; j < V; ++j) {
      const float yv = E::to_float(y.v[j]);
#pragma unroll
      for (int r = 0; r < kRows; ++r) acc[r][s] = fmaf(x[r][j], yv, acc[r][s]);
    }
  }
}

// X's values for one step, as fp32: xf[r][j] = X(row + r, k + j), zeros past L and past the
// split's K (those elements are not read).
// (a) K-major: one V-vector along K per row.
template <class E, int V>
__device__ __forceinline__ void load_along_k(float (&xf)[kRows][V], SkinnyArgs const& a,
                                             int64_t row, int64_t k, int64_t k_end) {
  using Bits = typename E::Bits;
  const Bits* x = static_cast<const Bits*>(a.x);
  Pack<Bits, V> xr[kRows];
#pragma unroll
  for (int r = 0; r < kRows; ++r) {
    const int64_t l = row + r;
    if (a.vec && l < a.rows && k + V <= k_end) {
      xr[r] = *reinterpret_cast<const Pack<Bits, V>*>(x + l * a.x_sl + k);
    } else {
#pragma unroll
      for (int j = 0; j < V; ++j)
        xr[r].v[j] = l < a.rows && k + j < k_end ? x[l * a.x_sl + (k + j) * a.x_sk] : Bits(0);
    }
  }
#pragma unroll
  for (int r = 0; r < kRows; ++r)
#pragma unroll
    for (int j = 0; j < V; ++j) xf[r][j] = E::to_float(xr[r].v[j]);
}
// (b) L-major: one 4-row vector per value of k.
template <class E, int V>
__device__ __forceinline__ void load_along_l(float (&xf)[kRows][V], SkinnyArgs const& a,
                                             int64_t row, int64_t k, int64_t k_end) {
  using Bits = typename E::Bits;
  const Bits* x = static_cast<const Bits*>(a.x);
  Pack<Bits, kRows> xr[V];
#pragma unroll
  for (int j = 0; j < V; ++j) {
    if (a.vec && row + kRows <= a.rows && k + j < k_end) {
      xr[j] = *reinterpret_cast<const Pack<Bits, kRows>*>(x + row + (k + j) * a.x_sk);
    } else {
#pragma unroll
      for (int r = 0; r < kRows; ++r)
        xr[j].v[r] = row + r < a.rows && k + j < k_end ? x[(row + r) * a.x_sl + (k + j) * a.x_sk] : Bits(0);
    }
  }
#pragma unroll
  for (int r = 0; r < kRows; ++r)
#pragma unroll
    for (int j = 0; j < V; ++j) xf[r][j] = E::to_float(xr[j].v[r]);
}

// The flag through an empty asm: the compiler cannot prove it loop-invariant, so it does not
// unswitch the k-loop on it (two copies of the FMA body, twice the compile time, to save a
// uniform branch per step).
__device__ __forceinline__ bool opaque(bool b) {
  unsigned v = b;
  asm volatile("" : "+r"(v));
  return v != 0;
}

// One kernel for both patterns (a.k_major: a uniform branch per step), so that the FMA body,
// the bulk of the code, is compiled once per element type and Cols. One step of X's loads at a
// time: with 8 or 16 columns the accumulators take 1 CTA an SM, and a second step spilled.
// (One column of Y is a GEMV: 06_gemv.cuh.)
template <class E, int Cols>
__global__ void __launch_bounds__(kThreads, 1) skinny_kernel(SkinnyArgs a) {
  using Bits = typename E::Bits;
  constexpr int V = 16 / int(sizeof(Bits));  // elements of a 16-byte vector
  static_assert(kChunk % (32 * V) == 0 && kChunk % (kWarps * V) == 0, "a chunk is whole steps");
  __shared__ __align__(16) Bits ys[Cols][kYsRow<V>];  // Y(s0 + s, kc + k), stored bits
  __shared__ __align__(16) float red[kWarps][32 * kRows];  // (b): the warps' partial sums

  const int lane = int(threadIdx.x) % 32, warp = int(threadIdx.x) / 32;
  const bool km = a.k_major;
  // A step: (a) one V-vector along K per row at k = lane*V, 32 lanes; (b) V values of k per
  // warp at k = warp*V, 8 warps. A CTA tile: (a) 8 warps x 4 rows, (b) 32 lanes x 4 rows.
  const int step_k = km ? 32 * V : kWarps * V, my_k = km ? lane * V : warp * V;
  const int tile_rows = km ? kWarps * kRows : 32 * kRows;
  const Bits* y = static_cast<const Bits*>(a.y);
  const int64_t k_begin = int64_t(blockIdx.y) * a.k_split;
  const int64_t k_end = min64(a.k, k_begin + a.k_split);

  for (int64_t tile = blockIdx.x; tile < a.tiles * a.groups; tile += gridDim.x) {
    const int64_t l0 = tile % a.tiles * tile_rows, s0 = tile / a.tiles * Cols;
    const int64_t row = l0 + (km ? warp : lane) * kRows;  // the thread's first row
    float acc[kRows][Cols];
#pragma unroll
    for (int r = 0; r < kRows; ++r)
#pragma unroll
      for (int s = 0; s < Cols; ++s) acc[r][s] = 0.0f;

    for (int64_t kc = k_begin; kc < k_end; kc += kChunk) {
      // Stage Y(s0.., kc..) (zeros past S and past the split's K); consecutive threads take
      // consecutive elements in memory: consecutive s where Y is contiguous along s (a small A
      // in 'N'), else consecutive k. (Across the other index a warp's loads would touch one
      // 32-byte sector per lane: 16x the bytes from L2.)
      __syncthreads();
      const bool s_fastest = a.y_ss == 1 && a.y_sk != 1;
      for (int i = threadIdx.x; i < Cols * kChunk; i += kThreads) {
        const int s = s_fastest ? i % Cols : i / kChunk, kk = s_fastest ? i / Cols : i % kChunk;
        ys[s][kk] = s0 + s < a.small && kc + kk < k_end ? y[(s0 + s) * a.y_ss + (kc + kk) * a.y_sk] : Bits(0);
      }
      __syncthreads();
      for (int k0 = 0; k0 < kChunk && kc + k0 < k_end; k0 += step_k) {
        float xf[kRows][V];  // the step's loads, issued before any of its FMAs
        if (opaque(km))
          load_along_k<E, V>(xf, a, row, kc + k0 + my_k, k_end);
        else
          load_along_l<E, V>(xf, a, row, kc + k0 + my_k, k_end);
        fma_group<E, Cols, V>(acc, xf, &ys[0][k0 + my_k]);
      }
    }

    // The tile's results, summed over the threads that share them, into out[s][i] (Y's staging
    // buffer, no longer needed), then stored by one loop: consecutive threads, consecutive rows.
    float* out = reinterpret_cast<float*>(&ys[0][0]);  // [Cols][tile_rows] <= Cols * 512 bytes
    static_assert(sizeof(ys) >= sizeof(float) * Cols * 32 * kRows, "out fits in ys");
    __syncthreads();
    if (km) {
      // (a) The 32 lanes hold partial sums of the same 4 x Cols results: butterfly.
#pragma unroll
      for (int r = 0; r < kRows; ++r)
#pragma unroll
        for (int s = 0; s < Cols; ++s) {
#pragma unroll
          for (int d = 16; d > 0; d /= 2) acc[r][s] += __shfl_xor_sync(0xffffffffu, acc[r][s], d);
          if (lane == 0) out[s * tile_rows + warp * kRows + r] = acc[r][s];
        }
    } else {
      // (b) The 8 warps hold partial sums of the same 128 x Cols results: one column at a time
      // through `red`; thread t < 128 adds row t's 8 partials in warp order.
#pragma unroll
      for (int s = 0; s < Cols; ++s) {
#pragma unroll
        for (int r = 0; r < kRows; ++r) red[warp][lane * kRows + r] = acc[r][s];
        __syncthreads();
        if (threadIdx.x < 32 * kRows) {
          float v = 0.0f;
#pragma unroll
          for (int w = 0; w < kWarps; ++w) v += red[w][threadIdx.x];
          out[s * tile_rows + threadIdx.x] = v;
        }
        __syncthreads();
      }
    }
    __syncthreads();
    for (int i = threadIdx.x; i < tile_rows * Cols; i += kThreads)
      store<E>(a, l0 + i % tile_rows, s0 + i / tile_rows, out[i]);
  }
}

using Kernel = void (*)(SkinnyArgs);
template <class E>
Kernel kernel_for(int cols) {
  return cols == 8 ? skinny_kernel<E, 8> : skinny_kernel<E, 16>;
}

bool aligned_16(const void* p, int64_t ld, int64_t bytes) {
  return reinterpret_cast<uintptr_t>(p) % 16 == 0 && ld * bytes % 16 == 0;
}

using GemvKernel = void (*)(GemvArgs);
template <class E>
GemvKernel gemv_kernel_for(SkinnyPlan const& plan) {
  constexpr int kWide = 128 / int(sizeof(typename E::Bits));  // rows of a 128-byte column
  return plan.k_major ? gemv_rows<E> : plan.tile_rows == kWide ? gemv_columns<E, kWide> : gemv_columns<E, kWide / 2>;
}

template <class E>
cudaError_t launch(GemmArgs const& p, cudaStream_t stream) {
  const SkinnyPlan plan = plan_skinny(p, sizeof(typename E::Bits));
  const GemmArgsC g = plan.swap ? transposed(p) : as_given(p);
  if (plan.gemv) {
    GemvArgs a{g.p.a, g.p.a_sm, g.p.a_sk, plan.rows, g.p.b, g.p.b_sk, p.k, p.c, g.c_sm,
               p.alpha, p.beta, nullptr, plan.k_split, plan.vec, plan.v_vec};
    Scratch scratch(p, stream);
    if (plan.splits > 1) {
      void* ws = nullptr;
      const cudaError_t e = scratch.get(&ws, plan.workspace);
      if (e != cudaSuccess) return e;
      a.partial = static_cast<float*>(ws);
    }
    const dim3 grid(unsigned(min64(plan.tiles, 0x7fffffff)), unsigned(plan.splits));
    gemv_kernel_for<E>(plan)<<<grid, plan.k_major ? kGemvRowsThreads : kGemvColumnsThreads, 0, stream>>>(a);
    if (plan.splits > 1) {
      if (const cudaError_t e = cudaGetLastError(); e != cudaSuccess) return e;
      return launch_add_splits<E>(static_cast<typename E::Bits*>(a.y), a.y_sl, 0, a.partial, plan.splits,
                                  plan.rows, 1, p.alpha, p.beta, stream);
    }
    return cudaGetLastError();
  }
  SkinnyArgs a{g.p.a, g.p.a_sm, g.p.a_sk, plan.rows, g.p.b, g.p.b_sn, g.p.b_sk, plan.small, p.k,
               p.c, g.c_sm, g.c_sn, p.alpha, p.beta, nullptr, plan.tiles, plan.groups, plan.k_split,
               plan.k_major, plan.vec};
  Scratch scratch(p, stream);
  if (plan.splits > 1) {
    void* ws = nullptr;
    const cudaError_t e = scratch.get(&ws, plan.workspace);
    if (e != cudaSuccess) return e;
    a.partial = static_cast<float*>(ws);
  }
  const Kernel kernel = kernel_for<E>(plan.cols);
  const dim3 grid(unsigned(min64(plan.tiles * plan.groups, 0x7fffffff)), unsigned(plan.splits));
  kernel<<<grid, kThreads, 0, stream>>>(a);
  if (plan.splits > 1) {  // C(l, s) = alpha * (the splits' sums, in order) + beta * C(l, s)
    if (const cudaError_t e = cudaGetLastError(); e != cudaSuccess) return e;
    return launch_add_splits<E>(static_cast<typename E::Bits*>(a.c), a.c_sl, a.c_ss, a.partial, plan.splits,
                                plan.rows, plan.small, p.alpha, p.beta, stream);
  }
  return cudaGetLastError();
}

}  // namespace

// The plan of a call (host only, no CUDA call): which operand is X, the access pattern, the
// grid and the split of K, and the workspace it needs.
SkinnyPlan plan_skinny(GemmArgs const& p, int64_t bytes) {
  SkinnyPlan s{};
  s.swap = p.n > p.m;
  const GemmArgsC g = s.swap ? transposed(p) : as_given(p);
  s.rows = g.p.m, s.small = g.p.n;
  s.k_major = g.p.a_sk == 1 || g.p.a_sm != 1;  // (a), or (c) when neither stride is 1
  const int64_t x_ld = s.k_major ? g.p.a_sm : g.p.a_sk;
  // (Y is read element by element into shared memory: its alignment does not matter.)
  s.vec = (g.p.a_sk == 1 || g.p.a_sm == 1) && aligned_16(g.p.a, x_ld, bytes);
  s.cols = s.small <= 1 ? 1 : s.small <= 8 ? 8 : 16;
  if (s.small == 1) {  // GEMV (06_gemv.cuh)
    s.gemv = true;
    s.v_vec = g.p.b_sk == 1 && reinterpret_cast<uintptr_t>(g.p.b) % 16 == 0;
    const int64_t wide = 128 / bytes;  // gemv_columns: rows of a 128-byte column
    s.tile_rows = int(s.k_major ? kGemvRowsThreads / 32 * kGemvRowsPerWarp
                                : ceil_div(s.rows, wide) >= kGemvMinTiles ? wide : wide / 2);
    s.tiles = ceil_div(s.rows, int64_t(s.tile_rows));
    s.groups = 1;
    const int64_t quanta = ceil_div(p.k, kGemvSplitQuantum);
    int64_t splits = s.tiles >= kGemvMinTiles ? 1 : min64(ceil_div(kGemvTargetCtas, s.tiles), quanta);
    splits = max64(1, min64(splits, 65535));
    s.k_split = ceil_div(quanta, splits) * kGemvSplitQuantum;
    s.splits = ceil_div(p.k, s.k_split);
    s.workspace = s.splits > 1 ? size_t(ceil_div(s.splits * s.rows * 4, int64_t(256)) * 256) : 0;
    return s;
  }
  s.tiles = ceil_div(s.rows, s.k_major ? kWarps * kRows : 32 * kRows);
  s.groups = ceil_div(s.small, int64_t(s.cols));
  const int64_t chunks = ceil_div(p.k, int64_t(kChunk)), ctas = s.tiles * s.groups;
  int64_t splits = ceil_div(kTargetCtas, ctas);
  splits = min64(splits, max64(1, chunks / kMinChunksPerSplit));
  splits = max64(1, min64(splits, 65535));
  s.k_split = ceil_div(chunks, splits) * kChunk;
  s.splits = ceil_div(p.k, s.k_split);
  s.workspace = s.splits > 1 ? size_t(ceil_div(s.splits * s.small * s.rows * 4, int64_t(256)) * 256) : 0;
  return s;
}

size_t workspace_skinny(GemmArgs const& p, int64_t bytes) { return plan_skinny(p, bytes).workspace; }

// The plan's words for tessera_gemm_plan: how X is read, and the split.
void describe_skinny(GemmArgs const& p, int64_t bytes, bool tf32, char* text, size_t size) {
  const SkinnyPlan s = plan_skinny(p, bytes);
  const char* x = s.swap ? "B" : "A";
  const char* y = s.swap ? "A" : "B";
  if (s.gemv) {
    const char* how = s.k_major ? (s.vec ? "read once along K by 16-byte vector loads, a warp per %d rows "
                                           "(dot products with %s's vector, lanes' sums added by warp shuffles)"
                                         : "read once along K element by element (not 16-byte aligned or "
                                           "no unit stride), a warp per %d rows (dot products with %s's vector)")
                                : (s.vec ? "read once down its columns, a CTA per %d rows walking K by 16-byte "
                                           "vectors (times %s's value of each k; sums added by warp shuffles "
                                           "and in shared memory)"
                                         : "read once down its columns element by element (not 16-byte "
                                           "aligned), a CTA per %d rows (times %s's value of each k)");
    char words[320];
    std::snprintf(words, sizeof words, how, s.k_major ? s.tile_rows / (kGemvRowsThreads / 32) : s.tile_rows, y);
    int n = std::snprintf(text, size, "; GEMV (one column): %s (%lld x %lld) is the big operand, %s, %lld CTAs; fp32 FMA accumulation%s",
                          x, (long long)s.rows, (long long)p.k, words, (long long)s.tiles,
                          tf32 ? " (TF32 is computed in full fp32: more accurate, same speed)" : "");
    if (n >= 0 && size_t(n) < size && s.splits > 1)
      std::snprintf(text + n, size - n,
                    "; K split over %lld CTAs per tile (%lld values each), fp32 partial sums in the "
                    "workspace added in order by a second kernel that applies alpha and beta",
                    (long long)s.splits, (long long)s.k_split);
    return;
  }
  const char* how = s.k_major ? (s.vec ? "read once along K by 16-byte vector loads, a warp per 4 rows "
                                         "(dot products, lanes' sums added by warp shuffles)"
                                       : "read once along K element by element (not 16-byte aligned "
                                         "or no unit stride), a warp per 4 rows")
                              : (s.vec ? "read once down its columns by vector loads of 4 rows per "
                                         "thread, the 8 warps of a CTA splitting K (sums added in "
                                         "shared memory)"
                                       : "read once down its columns element by element (not "
                                         "16-byte aligned), 4 rows per thread, the 8 warps of a "
                                         "CTA splitting K");
  int n = std::snprintf(text, size,
                        "; %s (%lld x %lld) is the big operand, %s; %s's %lld rows "
                        "staged in shared memory %d at a time per %d values of K; fp32 FMA "
                        "accumulation%s",
                        x, (long long)s.rows, (long long)p.k, how, y, (long long)s.small, s.cols, kChunk,
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
cudaError_t launch_06_f16(GemmArgs const& p, cudaStream_t stream) { return launch<F16>(p, stream); }
cudaError_t launch_06_bf16(GemmArgs const& p, cudaStream_t stream) { return launch<BF16>(p, stream); }

}  // namespace tessera::ladder
