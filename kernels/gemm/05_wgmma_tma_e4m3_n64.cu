// kernels/gemm/05_wgmma_tma_e4m3_n64.cu -- kernel 05 (05_wgmma_tma.cuh) for FP8 e4m3 inputs on the
// 128 x 64 tile; the plan picks the tile per problem (wgmma_tile, plan.cpp).
#include "05_wgmma_tma.cuh"

namespace tessera::ladder {
namespace {
using Cfg = WgmmaTmaCfg<Elem::kE4M3, 64>;
}
cudaError_t launch_05_e4m3_n64(WgmmaRun const& r, cudaStream_t s) {
  return launch_tile<Cfg>(r, s);
}
int clusters_05_e4m3_n64(bool a_regs) { return resident_clusters<Cfg>(a_regs); }
}  // namespace tessera::ladder
