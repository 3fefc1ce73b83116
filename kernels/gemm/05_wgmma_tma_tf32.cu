// kernels/gemm/05_wgmma_tma_tf32.cu -- kernel 05 (05_wgmma_tma.cuh) for tf32.
#include "05_wgmma_tma.cuh"

namespace tessera::ladder {
cudaError_t launch_05_tf32(GemmArgs const& p, cudaStream_t s) { return launch_elem<Elem::kTF32>(p, s); }
int clusters_05_tf32() { return max_clusters<Elem::kTF32>(); }
}  // namespace tessera::ladder
