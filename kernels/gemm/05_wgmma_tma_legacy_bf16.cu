// kernels/gemm/05_wgmma_tma_legacy_bf16.cu -- the former kernel 05 (05_wgmma_tma_legacy.cuh) for bf16.
#include "05_wgmma_tma_legacy.cuh"

namespace tessera::ladder {
cudaError_t launch_05_legacy_bf16(GemmArgs const& p, cudaStream_t s) { return launch_elem<Elem::kBF16>(p, s); }
}  // namespace tessera::ladder
