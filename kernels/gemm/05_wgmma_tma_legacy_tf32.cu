// kernels/gemm/05_wgmma_tma_legacy_tf32.cu -- the former kernel 05 (05_wgmma_tma_legacy.cuh) for tf32.
#include "05_wgmma_tma_legacy.cuh"

namespace tessera::ladder {
cudaError_t launch_05_legacy_tf32(GemmArgs const& p, cudaStream_t s) { return launch_elem<Elem::kTF32>(p, s); }
}  // namespace tessera::ladder
