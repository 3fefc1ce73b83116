// kernels/gemm/05_wgmma_tma_e4m3_promoted.cu -- kernel 05 (05_wgmma_tma.cuh) for FP8 e4m3 inputs
// whose sums are promoted to fp32 every 128 of K (block scales, or any scaling without fast
// accumulation) on the 128 x 128 tile; the plan's rule "promoted sums" sends problems here.
#include "05_wgmma_tma.cuh"

namespace tessera::ladder {
namespace {
using Cfg = WgmmaTmaCfg<Elem::kE4M3, WgmmaShape::kPromotedN, false, 2, true>;
}
cudaError_t launch_05_e4m3_promoted(WgmmaRun const& r, cudaStream_t s) {
  return launch_tile<Cfg>(r, s);
}
int clusters_05_e4m3_promoted(bool a_regs) { return resident_clusters<Cfg>(a_regs); }
}  // namespace tessera::ladder
