// kernels/gemm/04_mma_sync_bf16.cu -- kernel 04 (04_mma_sync.cuh) for bf16.
#include "04_mma_sync.cuh"

namespace tessera::ladder {
cudaError_t launch_04_bf16(GemmArgs const& p, cudaStream_t s) {
  return launch_elem<Elem::kBF16>(p, s);
}
}  // namespace tessera::ladder
