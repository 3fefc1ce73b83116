// kernels/gemm/05_wgmma_tma_e4m3_promoted_n64.cu -- kernel 05 (05_wgmma_tma.cuh) for FP8 e4m3
// inputs whose sums are promoted to fp32 every 128 of K, on the 128 x 64 tile: problems of at most
// 64 columns (a language model's projections of few tokens), which the 128 x 128 tile would
// compute half as padding; the plan's rule "promoted sums" sends them here.
#include "05_wgmma_tma.cuh"

namespace tessera::ladder {
namespace {
using Cfg = WgmmaTmaCfg<Elem::kE4M3, WgmmaShape::kPromotedNarrowN, false, 2, true>;
}
cudaError_t launch_05_e4m3_promoted_n64(WgmmaRun const& r, cudaStream_t s) {
  return launch_tile<Cfg>(r, s);
}
int clusters_05_e4m3_promoted_n64(bool a_regs) { return resident_clusters<Cfg>(a_regs); }
}  // namespace tessera::ladder
