// kernels/gemm/05_wgmma_tma_e5m2.cu -- kernel 05 (05_wgmma_tma.cuh) for FP8 e5m2 inputs on the
// 128 x 256 tile; the plan picks the tile per problem (wgmma_tile, plan.cpp).
#include "05_wgmma_tma.cuh"

namespace tessera::ladder {
namespace {
using Cfg = WgmmaTmaCfg<Elem::kE5M2, 256>;
}
cudaError_t launch_05_e5m2_n256(WgmmaRun const& r, cudaStream_t s) {
  return launch_tile<Cfg>(r, s);
}
int clusters_05_e5m2_n256(bool a_regs) { return resident_clusters<Cfg>(a_regs); }
}  // namespace tessera::ladder
