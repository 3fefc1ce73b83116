// kernels/gemm/05_wgmma_tma_tf32_n64_aregs.cu -- kernel 05 (05_wgmma_tma.cuh) for tf32 on the
// 128 x 64 tile with A MN-major through registers (Cfg::kARegs), in a translation unit of its own:
// 05_wgmma_tma_tf32_n64.cu's launcher calls it when A is MN-major where TMA reads it.
#include "05_wgmma_tma.cuh"

namespace tessera::ladder {
namespace {
using Cfg = WgmmaTmaCfg<Elem::kTF32, 64>::WithARegs;
}
cudaError_t launch_05_tf32_n64_aregs(WgmmaRun const& r, cudaStream_t s) {
  return launch_tile<Cfg>(r, s);
}
int clusters_05_tf32_n64_aregs() { return max_clusters<Cfg>(); }
}  // namespace tessera::ladder
