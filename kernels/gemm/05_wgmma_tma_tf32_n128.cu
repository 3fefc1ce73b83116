// kernels/gemm/05_wgmma_tma_tf32_n128.cu -- kernel 05 (05_wgmma_tma.cuh) for tf32 on the 128 x 128
// tile; gemm_abi.cu picks the tile per problem (hopper_tile, tiles.hpp).
#include "05_wgmma_tma.cuh"

namespace tessera::ladder {
cudaError_t launch_05_tf32_n128_aregs(GemmArgsC const&, cudaStream_t);
namespace {
using Cfg = WgmmaTmaCfg<Elem::kTF32, 128>;
// The kernel that takes A through registers is compiled once, in 05_wgmma_tma_tf32_n128_aregs.cu.
template <>
cudaError_t launch_tile<Cfg::WithARegs>(GemmArgsC const& p, cudaStream_t s) {
  return launch_05_tf32_n128_aregs(p, s);
}
}  // namespace
cudaError_t launch_05_tf32_n128(GemmArgsC const& p, cudaStream_t s) { return launch_tile<Cfg>(p, s); }
int clusters_05_tf32_n128() { return max_clusters<Cfg>(); }
}  // namespace tessera::ladder
