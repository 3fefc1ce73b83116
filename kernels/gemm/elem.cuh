// kernels/gemm/elem.cuh -- the element types of the tensor-core kernels (04, 05): storage type,
// width, and the epilogue's conversions (C = alpha * acc + beta * C in fp32, stored as T). Each
// kernel's ElemInfo<E> adds its own atoms and tile sizes to these.
#pragma once

#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include "common.cuh"

namespace tessera::ladder {

enum class Elem { kF16, kBF16, kTF32 };

template <Elem E>
struct ElemOut;
template <>
struct ElemOut<Elem::kF16> {
  using T = __half;
  static constexpr int64_t kBits = 16;
  __device__ static T from_float(float x) { return __float2half_rn(x); }
  __device__ static float to_float(T x) { return __half2float(x); }
};
template <>
struct ElemOut<Elem::kBF16> {
  using T = __nv_bfloat16;
  static constexpr int64_t kBits = 16;
  __device__ static T from_float(float x) { return __float2bfloat16_rn(x); }
  __device__ static float to_float(T x) { return __bfloat162float(x); }
};
template <>
struct ElemOut<Elem::kTF32> : F32Out {  // fp32 storage, tf32 math
  static constexpr int64_t kBits = 32;
};

}  // namespace tessera::ladder
