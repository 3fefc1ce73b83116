// kernels/gemm/elem.cuh -- the element types of the tensor-core kernels (04, 05): storage type,
// width, and the epilogue's conversions (C = alpha * acc + beta * C in fp32, stored as T, or for
// FP8 inputs as the call's C type). Each kernel's ElemInfo<E> adds its own atoms and tile sizes.
#pragma once

#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_fp8.h>

#include "common.cuh"

namespace tessera::ladder {

enum class Elem { kF16, kBF16, kTF32, kE4M3, kE5M2 };

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

// FP8 inputs (kernel 05): C is fp32, f16 or bf16, chosen at run time (OutInfo below).
template <>
struct ElemOut<Elem::kE4M3> {
  using T = __nv_fp8_e4m3;
  static constexpr int64_t kBits = 8;
  static constexpr atom::Fp8 kFormat = atom::Fp8::kE4M3;
};
template <>
struct ElemOut<Elem::kE5M2> {
  using T = __nv_fp8_e5m2;
  static constexpr int64_t kBits = 8;
  static constexpr atom::Fp8 kFormat = atom::Fp8::kE5M2;
};

// The conversions of a C element type.
template <class TC>
struct OutInfo;
template <>
struct OutInfo<float> : F32Out {};
template <>
struct OutInfo<__half> : ElemOut<Elem::kF16> {};
template <>
struct OutInfo<__nv_bfloat16> : ElemOut<Elem::kBF16> {};

}  // namespace tessera::ladder
