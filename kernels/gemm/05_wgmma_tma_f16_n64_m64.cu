// kernels/gemm/05_wgmma_tma_f16_n64_m64.cu -- kernel 05 (05_wgmma_tma.cuh) for f16 on the short
// 64 x 64 tile of one consumer warpgroup; gemm_abi.cu picks it for skinny problems whose cluster
// tiles of 64 rows fit in one wave (hopper_tile, tiles.hpp).
#include "05_wgmma_tma.cuh"

namespace tessera::ladder {
namespace {
using Cfg = WgmmaTmaCfg<Elem::kF16, 64, false, 1>;
}
cudaError_t launch_05_f16_n64_m64(GemmArgsC const& p, cudaStream_t s) { return launch_tile<Cfg>(p, s); }
int clusters_05_f16_n64_m64() { return max_clusters<Cfg>(); }
}  // namespace tessera::ladder
