// kernels/gemm/gemv_shape.hpp -- the shapes of kernel 06's GEMV kernels (06_gemv.cuh,
// 06_gemv_mma.cuh) that its plan reads: threads and rows of a CTA, and how a step reads Y. Host
// and device, no CUDA.
#pragma once

#include <tessera/config.hpp>

namespace tessera::ladder {

// How a step reads Y (the host's choice, uniform for the launch).
enum class YMode : int {
  kAlongK,    // gemv_rows: Y(s, k..k+V-1) as one 16-byte vector per s (Y contiguous along K)
  kAlongS,    // Y(0..S-1, k) as one vector per k (Y contiguous along s): pieces of <= 16 bytes
  kElements,  // element loads through both strides
};

// gemv_columns (X contiguous along L): threads of a CTA on S vectors of elem_bytes elements.
TESSERA_HD constexpr int gemv_columns_threads(int s, int elem_bytes) {
  return s * 16 / elem_bytes >= 64 ? 256 : 512;
}
// gemv_rows (X contiguous along K): 8 warps, each on gemv_rows_per_warp(S) rows.
constexpr int kGemvRowsThreads = 256;
TESSERA_HD constexpr int gemv_rows_per_warp(int s) { return s == 4 ? 4 : 2; }
// gemv_mma: 12 warps along L (X contiguous along L), else 8; 32 or 16 rows a row warp.
TESSERA_HD constexpr int gemv_mma_threads(bool along_l) { return along_l ? 384 : 256; }
TESSERA_HD constexpr int gemv_mma_warp_rows(bool along_l) { return along_l ? 32 : 16; }
TESSERA_HD constexpr int gemv_mma_tile_rows(bool along_l, int row_warps) {
  return gemv_mma_warp_rows(along_l) * row_warps;
}

}  // namespace tessera::ladder
