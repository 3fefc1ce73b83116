// kernels/gemm/05_wgmma_tma_e4m3_blocks.cu -- kernel 05 (05_wgmma_tma.cuh) for FP8 e4m3 inputs
// with block scales (1 x 128 on A, 128 x 128 on B, each 128 of K promoted in fp32) on the
// kBlockScaledN-wide tile; the plan sends block-scaled problems here (its rule "block scales").
#include "05_wgmma_tma.cuh"

namespace tessera::ladder {
namespace {
using Cfg = WgmmaTmaCfg<Elem::kE4M3, WgmmaShape::kBlockScaledN, false, 2, true>;
}
cudaError_t launch_05_e4m3_blocks(WgmmaRun const& r, cudaStream_t s) {
  return launch_tile<Cfg>(r, s);
}
int clusters_05_e4m3_blocks(bool a_regs) { return resident_clusters<Cfg>(a_regs); }
}  // namespace tessera::ladder
