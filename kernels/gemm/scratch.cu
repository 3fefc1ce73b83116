// kernels/gemm/scratch.cu -- what the ladder's launchers share at run time, compiled once: the
// library's memory pool (common.cuh's Scratch serves from it) and the pass that adds split-K's
// partial sums for kernel 03. Kept out of common.cuh so that no kernel translation unit compiles
// <mutex> (it cost 03_simt_pipelined.cu a fifth of its compile time).
#include <mutex>

#include "common.cuh"

namespace tessera::ladder {

cudaMemPool_t library_pool() {
  static cudaMemPool_t pools[64] = {};
  static std::once_flag made[64];
  int device = 0;
  if (cudaGetDevice(&device) != cudaSuccess || device >= 64) return nullptr;
  std::call_once(made[device], [device] {
    cudaMemPoolProps props = {};
    props.allocType = cudaMemAllocationTypePinned;
    props.location.type = cudaMemLocationTypeDevice;
    props.location.id = device;
    cudaMemPool_t pool = nullptr;
    if (cudaMemPoolCreate(&pool, &props) != cudaSuccess) return;
    uint64_t keep = UINT64_MAX;
    cudaMemPoolSetAttribute(pool, cudaMemPoolAttrReleaseThreshold, &keep);
    pools[device] = pool;
  });
  return pools[device];
}

cudaError_t add_splits_f32(float* out, int64_t c_sr, int64_t c_sc, const float* partial,
                           int64_t splits, int64_t rows, int64_t cols, float alpha, float beta,
                           cudaStream_t stream) {
  return launch_add_splits<F32Out>(out, c_sr, c_sc, partial, splits, rows, cols, alpha, beta,
                                   stream);
}

}  // namespace tessera::ladder
