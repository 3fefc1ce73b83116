// kernels/gemm/05_wgmma_tma_bf16_n128.cu -- kernel 05 (05_wgmma_tma.cuh) for bf16 on the 128 x 128
// tile; gemm_abi.cu picks the tile per problem (hopper_tile, tiles.hpp).
#include "05_wgmma_tma.cuh"

namespace tessera::ladder {
namespace {
using Cfg = WgmmaTmaCfg<Elem::kBF16, 128>;
}
cudaError_t launch_05_bf16_n128(GemmArgsC const& p, cudaStream_t s) { return launch_tile<Cfg>(p, s); }
int clusters_05_bf16_n128() { return max_clusters<Cfg>(); }
}  // namespace tessera::ladder
