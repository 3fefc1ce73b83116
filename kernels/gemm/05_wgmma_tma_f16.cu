// kernels/gemm/05_wgmma_tma_f16.cu -- kernel 05 (05_wgmma_tma.cuh) for f16.
#include "05_wgmma_tma.cuh"

namespace tessera::ladder {
cudaError_t launch_05_f16(GemmArgs const& p, cudaStream_t s) { return launch_elem<Elem::kF16>(p, s); }
int clusters_05_f16() { return max_clusters<Elem::kF16>(); }
}  // namespace tessera::ladder
