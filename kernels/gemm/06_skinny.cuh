// kernels/gemm/06_skinny.cuh -- kernel 06's host side shared by its translation units (one per
// element type, 06_skinny*.cu, so that each compiles its 12 kernels of 06_gemv.cuh in parallel):
// the plan of a call and the launch. The plan itself, its words and the F32 / TF32 launchers are
// in 06_skinny.cu.
#pragma once

#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include "06_gemv.cuh"
#include "06_gemv_mma.cuh"
#include "common.cuh"

namespace tessera::ladder {

// Host-side plan of a call (gemm_abi.cu's make_plan reads it for the plan text and the workspace).
struct SkinnyPlan {
  bool swap;            // X = B (the transposed problem), else X = A
  bool k_major;         // X contiguous along K, or neither stride 1: gemv_rows (gemv_mma along K);
                        // else gemv_columns (gemv_mma along L)
  bool mma;             // 16-bit, 3 or more vectors: the tensor-core kernel (06_gemv_mma.cuh)
  bool vec;             // X's 16-byte vectors aligned; else element loads
  YMode y_mode;         // how a step reads Y
  int cols;             // vectors per CTA (1, 2, 4 or 8; the tensor-core kernels 8 or 16)
  int tile_rows;        // rows of X per CTA
  int64_t rows, small;  // L and S
  int64_t tiles, groups, splits, k_split;
  size_t workspace;     // bytes of partial sums (splits > 1)
};
SkinnyPlan plan_skinny(GemmArgs const& p, int64_t bytes);

namespace {

// The grid: gemv_columns takes 128-byte columns where they give at least kMinCtas CTAs, else
// 64-byte ones; K is split only where the CTAs still number fewer than kMinCtas, into at most
// kTargetCtas CTAs, each split a multiple of kSplitQuantum values of K (whole steps of either
// kernel). Measured on the H100's 132 SMs: f16 8192 x 1 x 8192 NN on 128 tiles of 64 rows 0.99x
// cuBLAS, of 32 rows 0.93x; 4096 x 1 x 4096 on 64 tiles of 64 rows with K split 0.80x, on 128
// tiles of 32 rows 0.98x.
constexpr int64_t kMinCtas = 96, kTargetCtas = 2 * 132, kSplitQuantum = 2048;
// 16-bit problems with this many vectors or more take the tensor-core kernels (06_gemv_mma.cuh).
constexpr int64_t kMmaMinSmall = 3;

// Element storage as raw bits, and the conversions to and from fp32.
struct F32 {
  using Bits = uint32_t;
  using T = Bits;  // (add_splits' storage type)
  __device__ static float to_float(Bits b) { return __uint_as_float(b); }
  __device__ static Bits from_float(float x) { return __float_as_uint(x); }
};
struct F16 {
  using Bits = uint16_t;
  using T = Bits;
  __device__ static float to_float(Bits b) { return __half2float(__ushort_as_half(b)); }
  __device__ static Bits from_float(float x) { return __half_as_ushort(__float2half_rn(x)); }
  __device__ static void mma(float (&d)[4], uint32_t const (&a)[4], uint32_t const (&b)[2]) {
    ptx::mma_m16n8k16_f32f16(d, a, b, d);
  }
};
struct BF16 {
  using Bits = uint16_t;
  using T = Bits;
  __device__ static float to_float(Bits b) { return __bfloat162float(__ushort_as_bfloat16(b)); }
  __device__ static Bits from_float(float x) { return __bfloat16_as_ushort(__float2bfloat16_rn(x)); }
  __device__ static void mma(float (&d)[4], uint32_t const (&a)[4], uint32_t const (&b)[2]) {
    ptx::mma_m16n8k16_f32bf16(d, a, b, d);
  }
};

using Kernel = void (*)(GemvArgs);
template <class E, int S>
Kernel kernel_for_cols(SkinnyPlan const& plan) {
  constexpr int kWide = 128 / int(sizeof(typename E::Bits));  // rows of a 128-byte column
  return plan.k_major ? gemv_rows<E, S> : plan.tile_rows == kWide ? gemv_columns<E, kWide, S> : gemv_columns<E, kWide / 2, S>;
}
// The kernel of a plan: 16-bit elements take the tensor-core kernels from 3 vectors (the plan's
// mma), so only their S = 1 and 2 exist on CUDA cores.
template <class E>
Kernel kernel_for(SkinnyPlan const& plan) {
  if constexpr (sizeof(typename E::Bits) == 2) {
    if (plan.mma) {
      const bool two = plan.tile_rows == gemv_mma_tile_rows(true, 2);  // X along L: 2 x 32 rows
      if (plan.k_major) return plan.cols == 8 ? gemv_mma<E, 1, false, 1> : gemv_mma<E, 2, false, 1>;
      if (plan.cols == 8) return two ? gemv_mma<E, 1, true, 2> : gemv_mma<E, 1, true, 1>;
      return two ? gemv_mma<E, 2, true, 2> : gemv_mma<E, 2, true, 1>;
    }
    return plan.cols == 1 ? kernel_for_cols<E, 1>(plan) : kernel_for_cols<E, 2>(plan);
  } else {
    return plan.cols == 1   ? kernel_for_cols<E, 1>(plan)
           : plan.cols == 2 ? kernel_for_cols<E, 2>(plan)
           : plan.cols == 4 ? kernel_for_cols<E, 4>(plan)
                            : kernel_for_cols<E, 8>(plan);
  }
}

template <class E>
cudaError_t launch(GemmArgs const& p, cudaStream_t stream) {
  const SkinnyPlan plan = plan_skinny(p, sizeof(typename E::Bits));
  const GemmArgsC g = plan.swap ? transposed(p) : as_given(p);
  GemvArgs a{g.p.a, g.p.a_sm,   g.p.a_sk,    plan.rows, g.p.b,        g.p.b_sn,  g.p.b_sk,
             plan.small, p.k,   p.c,         g.c_sm,    g.c_sn,       p.alpha,   p.beta,
             nullptr,    plan.tiles, plan.k_split, plan.vec, plan.y_mode};
  Scratch scratch(p, stream);
  if (plan.splits > 1) {
    void* ws = nullptr;
    const cudaError_t e = scratch.get(&ws, plan.workspace);
    if (e != cudaSuccess) return e;
    a.partial = static_cast<float*>(ws);
  }
  const dim3 grid(unsigned(plan.tiles * plan.groups), unsigned(plan.splits));
  const int threads = plan.mma       ? gemv_mma_threads(!plan.k_major)
                      : plan.k_major ? kGemvRowsThreads
                                     : gemv_columns_threads(plan.cols, sizeof(typename E::Bits));
  kernel_for<E>(plan)<<<grid, threads, 0, stream>>>(a);
  if (plan.splits > 1) {  // C(l, s) = alpha * (the splits' sums, in order) + beta * C(l, s)
    if (const cudaError_t e = cudaGetLastError(); e != cudaSuccess) return e;
    return launch_add_splits<E>(static_cast<typename E::Bits*>(a.c), a.c_sl, a.c_ss, a.partial, plan.splits,
                                plan.rows, plan.small, p.alpha, p.beta, stream);
  }
  return cudaGetLastError();
}

}  // namespace

}  // namespace tessera::ladder
