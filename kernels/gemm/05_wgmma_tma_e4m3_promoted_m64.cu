// kernels/gemm/05_wgmma_tma_e4m3_promoted_m64.cu -- kernel 05 (05_wgmma_tma.cuh) for FP8 e4m3
// inputs whose sums are promoted to fp32 every 128 of K, on the short 64 x 128 tile (one consumer
// warpgroup): block scales of at most 128 rows (a model's projections of few tokens), where both
// CTAs of a cluster get tiles (along M, or along N at 64 rows or fewer); the plan's rules
// "promoted sums" and "cluster along N" send problems here.
#include "05_wgmma_tma.cuh"

namespace tessera::ladder {
namespace {
using Cfg = WgmmaTmaCfg<Elem::kE4M3, WgmmaShape::kPromotedN, false, 1, true>;
}
cudaError_t launch_05_e4m3_promoted_m64(WgmmaRun const& r, cudaStream_t s) {
  return launch_tile<Cfg>(r, s);
}
int clusters_05_e4m3_promoted_m64(bool a_regs) { return resident_clusters<Cfg>(a_regs); }
}  // namespace tessera::ladder
