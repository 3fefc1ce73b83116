// kernels/gemm/05_wgmma_tma_legacy_f16.cu -- the former kernel 05 (05_wgmma_tma_legacy.cuh) for f16.
#include "05_wgmma_tma_legacy.cuh"

namespace tessera::ladder {
cudaError_t launch_05_legacy_f16(GemmArgs const& p, cudaStream_t s) { return launch_elem<Elem::kF16>(p, s); }
}  // namespace tessera::ladder
