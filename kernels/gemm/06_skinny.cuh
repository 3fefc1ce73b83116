// kernels/gemm/06_skinny.cuh -- kernel 06's launch, shared by its translation units (one per
// element type, 06_skinny*.cu, so that each compiles its 12 kernels of 06_gemv.cuh in parallel).
// It runs the plan's SkinnyPlan (plan_skinny, plan.cpp).
#pragma once

#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include "06_gemv.cuh"
#include "06_gemv_mma.cuh"
#include "common.cuh"

namespace tessera::ladder {

namespace {

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
  __device__ static Bits from_float(float x) {
    return __bfloat16_as_ushort(__float2bfloat16_rn(x));
  }
  __device__ static void mma(float (&d)[4], uint32_t const (&a)[4], uint32_t const (&b)[2]) {
    ptx::mma_m16n8k16_f32bf16(d, a, b, d);
  }
};

using Kernel = void (*)(GemvArgs);
template <class E, int S>
Kernel kernel_for_cols(SkinnyPlan const& plan) {
  constexpr int kWide = 128 / int(sizeof(typename E::Bits));  // rows of a 128-byte column
  return plan.k_major              ? gemv_rows<E, S>
         : plan.tile_rows == kWide ? gemv_columns<E, kWide, S>
                                   : gemv_columns<E, kWide / 2, S>;
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
cudaError_t launch(GemmArgs const& p, SkinnyPlan const& plan, cudaStream_t stream) {
  const GemmArgsC g = oriented(p, plan.transposed);
  GemvArgs a{g.p.a,      g.p.a_sm,   g.p.a_sk,     plan.rows, g.p.b,      g.p.b_sn, g.p.b_sk,
             plan.small, p.k,        p.c,          g.c_sm,    g.c_sn,     p.alpha,  p.beta,
             nullptr,    plan.tiles, plan.k_split, plan.vec,  plan.y_mode};
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
    return launch_add_splits<E>(static_cast<typename E::Bits*>(a.c), a.c_sl, a.c_ss, a.partial,
                                plan.splits, plan.rows, plan.small, p.alpha, p.beta, stream);
  }
  return cudaGetLastError();
}

}  // namespace

}  // namespace tessera::ladder
