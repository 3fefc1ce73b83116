// kernels/gemm/05_wgmma_tma_f16_n64_m64.cu -- kernel 05 (05_wgmma_tma.cuh) for f16 on the short
// 64 x 64 tile of one consumer warpgroup; the plan picks it for skinny problems whose cluster
// tiles of 64 rows fit in one wave (wgmma_tile, plan.cpp).
#include "05_wgmma_tma.cuh"

namespace tessera::ladder {
namespace {
using Cfg = WgmmaTmaCfg<Elem::kF16, 64, false, 1>;
}
cudaError_t launch_05_f16_n64_m64(WgmmaRun const& r, cudaStream_t s) {
  return launch_tile<Cfg>(r, s);
}
int clusters_05_f16_n64_m64(bool a_regs) { return resident_clusters<Cfg>(a_regs); }
}  // namespace tessera::ladder
