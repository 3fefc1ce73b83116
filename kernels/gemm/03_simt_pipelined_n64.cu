// kernels/gemm/03_simt_pipelined_n64.cu -- kernel 03 (03_simt_pipelined.cuh) on the 128 x 64 tile,
// for problems with 33-64 rows or columns (simt_tile, plan.cpp), the small dimension along the
// tile's N: four kernels, one per pair of operand copies (launch_narrow).
#include "03_simt_pipelined.cuh"

namespace tessera::ladder {

int ctas_03_n64() { return resident_ctas<SimtShape::kNarrowBN>(); }

cudaError_t launch_03_n64(GemmArgsC const& args, SimtSplit const& split, cudaStream_t stream) {
  return launch_narrow<SimtShape::kNarrowBN>(args, split, stream);
}

}  // namespace tessera::ladder
