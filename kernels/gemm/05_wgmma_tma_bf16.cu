// kernels/gemm/05_wgmma_tma_bf16.cu -- kernel 05 (05_wgmma_tma.cuh) for bf16.
#include "05_wgmma_tma.cuh"

namespace tessera::ladder {
cudaError_t launch_05_bf16(GemmArgs const& p, cudaStream_t s) { return launch_elem<Elem::kBF16>(p, s); }
int clusters_05_bf16() { return max_clusters<Elem::kBF16>(); }
}  // namespace tessera::ladder
