// kernels/gemm/04_mma_sync_f16.cu -- kernel 04 (04_mma_sync.cuh) for f16.
#include "04_mma_sync.cuh"

namespace tessera::ladder {
cudaError_t launch_04_f16(GemmArgs const& p, cudaStream_t s) {
  return launch_elem<Elem::kF16>(p, s);
}
}  // namespace tessera::ladder
