// kernels/gemm/03_simt_pipelined_n32.cu -- kernel 03 (03_simt_pipelined.cuh) on the 128 x 32 tile,
// for problems with 9-32 rows or columns (simt_tile, plan.cpp; up to 8 take kernel 06), the
// small dimension along the tile's N: four kernels, one per pair of operand copies (launch_narrow).
// The 128 x 64 tile computed up to 4x the products such problems need; they are bound by
// reading the big operand, which this tile streams with up to three CTAs per SM.
#include "03_simt_pipelined.cuh"

namespace tessera::ladder {

int ctas_03_n32() { return resident_ctas<SimtShape::kThinBN>(); }

cudaError_t launch_03_n32(GemmArgsC const& args, SimtSplit const& split, cudaStream_t stream) {
  return launch_narrow<SimtShape::kThinBN>(args, split, stream);
}

}  // namespace tessera::ladder
