// kernels/gemm/05_wgmma_tma_tf32.cu -- kernel 05 (05_wgmma_tma.cuh) for tf32 on the 128 x 256
// tile; the plan picks the tile per problem (wgmma_tile, plan.cpp).
#include "05_wgmma_tma.cuh"

namespace tessera::ladder {
cudaError_t launch_05_tf32_n256_aregs(WgmmaRun const&, cudaStream_t);
int clusters_05_tf32_n256_aregs();
namespace {
using Cfg = WgmmaTmaCfg<Elem::kTF32, 256>;
// The kernel that takes A through registers is compiled once, in 05_wgmma_tma_tf32_aregs.cu.
template <>
cudaError_t launch_tile<Cfg::WithARegs>(WgmmaRun const& r, cudaStream_t s) {
  return launch_05_tf32_n256_aregs(r, s);
}
template <>
int max_clusters<Cfg::WithARegs>() {
  return clusters_05_tf32_n256_aregs();
}
}  // namespace
cudaError_t launch_05_tf32_n256(WgmmaRun const& r, cudaStream_t s) {
  return launch_tile<Cfg>(r, s);
}
int clusters_05_tf32_n256(bool a_regs) { return resident_clusters<Cfg>(a_regs); }
}  // namespace tessera::ladder
