// kernels/gemm/05_wgmma_tma_f16.cu -- kernel 05 (05_wgmma_tma.cuh) for f16: the ABI's entry and the
// 128 x 256 tile (the narrow tiles: 05_wgmma_tma_f16_n128.cu, _n64.cu).
#include "05_wgmma_tma.cuh"

namespace tessera::ladder {
cudaError_t launch_05_f16_n128(GemmArgsC const&, cudaStream_t);
cudaError_t launch_05_f16_n64(GemmArgsC const&, cudaStream_t);
int clusters_05_f16_n128();
int clusters_05_f16_n64();
namespace {
using Wide = WgmmaTmaCfg<Elem::kF16, 256>;
}
cudaError_t launch_05_f16(GemmArgs const& p, cudaStream_t s) {
  return launch_05(p, s, max_clusters<Wide>(), launch_tile<Wide>, launch_05_f16_n128, launch_05_f16_n64);
}
int clusters_05_f16(int64_t bn) {
  return bn == 256 ? max_clusters<Wide>() : bn == 128 ? clusters_05_f16_n128() : clusters_05_f16_n64();
}
}  // namespace tessera::ladder
