// kernels/gemm/06_skinny_f16.cu -- kernel 06 for F16 (06_skinny.cu, 06_gemv.cuh): its own
// translation unit, compiled beside the others.
#include "06_skinny.cuh"

namespace tessera::ladder {

cudaError_t launch_06_f16(GemmArgs const& p, SkinnyPlan const& plan, cudaStream_t stream) {
  return launch<F16>(p, plan, stream);
}

}  // namespace tessera::ladder
