// tessera/fragment_convert.hpp -- a float fragment converted to 16-bit floats two values at a
// time. convert<U> (fragment.hpp) converts value by value: on the GPU each value is one
// conversion, and a pair that later forms one 32-bit register (an A operand read from registers,
// a 4-byte store) is joined by a byte permute. convert_pairs<U> converts values 2i and 2i + 1
// with one paired conversion (cvt.rn.bf16x2.f32 / cvt.rn.f16x2.f32) into one register: for a
// fragment of 2n floats, n instructions instead of 2n conversions and n permutes. Same values
// (round to nearest even). Device code.
#pragma once

#if defined(__CUDACC__)
#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include <cstdint>
#include <type_traits>

#include "fragment.hpp"

namespace tessera {

template <class U, class F>
__device__ __forceinline__ auto convert_pairs(F const& src) {
  static_assert(std::is_same_v<std::remove_cv_t<typename F::Element>, float>,
                "convert_pairs: the source fragment must hold floats");
  static_assert(std::is_same_v<U, __half> || std::is_same_v<U, __nv_bfloat16>,
                "convert_pairs: the target type must be __half or __nv_bfloat16");
  static_assert(F::kCosize % 2 == 0, "convert_pairs: the fragment must hold pairs of values");
  Fragment<U, F::kLayout> r;
  auto* words = reinterpret_cast<uint32_t*>(r.v);  // values 2i and 2i + 1 share word i
TESSERA_UNROLL
  for (int64_t i = 0; i < F::kCosize; i += 2) {
    if constexpr (std::is_same_v<U, __half>) {
      const __half2 pair = __floats2half2_rn(src.v[i], src.v[i + 1]);  // .x low: value 2i
      words[i / 2] = reinterpret_cast<uint32_t const&>(pair);
    } else {
      const __nv_bfloat162 pair = __floats2bfloat162_rn(src.v[i], src.v[i + 1]);
      words[i / 2] = reinterpret_cast<uint32_t const&>(pair);
    }
  }
  return r;
}

}  // namespace tessera
#endif
