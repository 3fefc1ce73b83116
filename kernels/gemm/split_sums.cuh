// kernels/gemm/split_sums.cuh -- the second pass of split-K through the workspace (kernels 03 and
// 06): the splits' fp32 partial sums added in order, alpha and beta applied.
#pragma once

#include <cuda_runtime.h>

#include <cstdint>
#include <tessera/config.hpp>

namespace tessera::ladder {

// Split-K through the workspace (03, 06): split z of the K range writes its fp32 partial sums of
// the rows x cols result, column-major, to partial[z * rows * cols + r + c * rows]; a second kernel
// then forms C(r, c) = alpha * (the splits' sums added in split order) + beta * C(r, c), C at
// out[r * c_sr + c * c_sc] (beta = 0 reads no C). A fixed order: the same bits on every run.
template <class Out>
__global__ void __launch_bounds__(256)
    add_splits(typename Out::T* out, int64_t c_sr, int64_t c_sc, const float* partial,
               int64_t splits, int64_t rows, int64_t cols, float alpha, float beta) {
  const int64_t total = rows * cols, step = int64_t(gridDim.x) * 256;
  for (int64_t i = int64_t(blockIdx.x) * 256 + threadIdx.x; i < total; i += step) {
    float v = 0.0f;
    for (int64_t z = 0; z < splits; ++z) v += partial[z * total + i];
    auto* c = out + (i % rows) * c_sr + (i / rows) * c_sc;
    *c = Out::from_float(beta == 0.0f ? alpha * v : alpha * v + beta * Out::to_float(*c));
  }
}
template <class Out>
cudaError_t launch_add_splits(typename Out::T* out, int64_t c_sr, int64_t c_sc,
                              const float* partial, int64_t splits, int64_t rows, int64_t cols,
                              float alpha, float beta, cudaStream_t stream) {
  const unsigned blocks = unsigned(min64(ceil_div(rows * cols, int64_t(256)), 65536));
  add_splits<Out>
      <<<blocks, 256, 0, stream>>>(out, c_sr, c_sc, partial, splits, rows, cols, alpha, beta);
  return cudaGetLastError();
}
// Kernel 03's instantiation, compiled once in scratch.cu (03's translation unit keeps only its
// GEMM kernels, which tests/cuda/check_twins.py pairs with the hand-indexed twin's).
cudaError_t add_splits_f32(float* out, int64_t c_sr, int64_t c_sc, const float* partial,
                           int64_t splits, int64_t rows, int64_t cols, float alpha, float beta,
                           cudaStream_t stream);

}  // namespace tessera::ladder
