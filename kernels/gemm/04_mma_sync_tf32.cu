// kernels/gemm/04_mma_sync_tf32.cu -- kernel 04 (04_mma_sync.cuh) for tf32.
#include "04_mma_sync.cuh"

namespace tessera::ladder {
cudaError_t launch_04_tf32(GemmArgs const& p, cudaStream_t s) {
  return launch_elem<Elem::kTF32>(p, s);
}
}  // namespace tessera::ladder
