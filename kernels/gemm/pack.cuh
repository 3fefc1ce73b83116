// kernels/gemm/pack.cuh -- packing an operand K-major into scratch (kernels 04 and 05 read only
// operands they can address; plan.cpp says which are packed).
#pragma once

#include <cuda_runtime.h>

#include <cstdint>
#include <tessera/atom/smem.hpp>

#include "plan.hpp"
#include "scratch.cuh"

namespace tessera::ladder {

// Operands a kernel cannot read where they are (04: not 16-byte aligned; 05: not addressable by
// TMA, or MN-major tf32 in B's role) are first packed K-major into a scratch buffer: dst(r, k) =
// src(r, k) for a (rows, K) operand with strides (s_r, s_k), leading dimension ld. An MN-major
// source (s_r == 1) goes through 32 x 33 shared-memory tiles so that the reads (down the rows) and
// the writes (along K) are both coalesced; any other source is copied along K. With kRoundTf32 the
// fp32 values are rounded to tf32 (cvt.rna) on the way.
template <class Bits, bool kRoundTf32>
__global__ void __launch_bounds__(256)
    pack_k_major(Bits* dst, int64_t ld, const Bits* src, int64_t s_r, int64_t s_k, int64_t rows,
                 int64_t k) {
  auto out = [](Bits x) -> Bits {
    if constexpr (kRoundTf32)
      return ptx::to_tf32(__uint_as_float(x));
    else
      return x;
  };
  if (s_r != 1) {
    const int64_t total = rows * k, step = int64_t(gridDim.x) * gridDim.y * 256;
    for (int64_t i =
             (int64_t(blockIdx.y) * gridDim.x + blockIdx.x) * 256 + threadIdx.y * 32 + threadIdx.x;
         i < total; i += step) {
      const int64_t r = i / k, kk = i % k;
      dst[r * ld + kk] = out(src[r * s_r + kk * s_k]);
    }
    return;
  }
  __shared__ Bits tile[32][33];  // [k][row], padded: the transposed reads hit 32 banks
  for (int64_t r0 = int64_t(blockIdx.x) * 32; r0 < rows; r0 += int64_t(gridDim.x) * 32)
    for (int64_t k0 = int64_t(blockIdx.y) * 32; k0 < k; k0 += int64_t(gridDim.y) * 32) {
      for (int j = threadIdx.y; j < 32; j += 8)
        if (r0 + threadIdx.x < rows && k0 + j < k)
          tile[j][threadIdx.x] = src[r0 + threadIdx.x + (k0 + j) * s_k];
      __syncthreads();
      for (int j = threadIdx.y; j < 32; j += 8)
        if (r0 + j < rows && k0 + threadIdx.x < k)
          dst[(r0 + j) * ld + k0 + threadIdx.x] = out(tile[threadIdx.x][j]);
      __syncthreads();
    }
}

// Packs the operand into a piece of `scratch`; returns the piece and its leading dimension (K
// rounded up to 16 bytes) in ld.
template <class Bits, bool kRoundTf32 = false>
cudaError_t pack_operand(Scratch& scratch, void** packed, int64_t* ld, const void* src, int64_t s_r,
                         int64_t s_k, int64_t rows, int64_t k) {
  constexpr int64_t kVec = 16 / int64_t(sizeof(Bits));
  *ld = ceil_div(k, kVec) * kVec;
  cudaError_t e = scratch.get(packed, packed_bytes(rows, k, sizeof(Bits)));
  if (e != cudaSuccess) return e;
  const dim3 grid(unsigned(min64(ceil_div(rows, 32), 65535)),
                  unsigned(min64(ceil_div(k, 32), 65535)));
  pack_k_major<Bits, kRoundTf32><<<grid, dim3(32, 8), 0, scratch.stream()>>>(
      static_cast<Bits*>(*packed), *ld, static_cast<const Bits*>(src), s_r, s_k, rows, k);
  return cudaGetLastError();
}

}  // namespace tessera::ladder
