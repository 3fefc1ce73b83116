// kernels/gemm/05_wgmma_tma_f16.cu -- kernel 05 (05_wgmma_tma.cuh) for f16 on the 128 x 256
// tile; gemm_abi.cu picks the tile per problem (hopper_tile, tiles.hpp).
#include "05_wgmma_tma.cuh"

namespace tessera::ladder {
namespace {
using Cfg = WgmmaTmaCfg<Elem::kF16, 256>;
}
cudaError_t launch_05_f16_n256(GemmArgsC const& p, cudaStream_t s) { return launch_tile<Cfg>(p, s); }
int clusters_05_f16_n256() { return max_clusters<Cfg>(); }
}  // namespace tessera::ladder
