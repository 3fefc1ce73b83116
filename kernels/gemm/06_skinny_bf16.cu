// kernels/gemm/06_skinny_bf16.cu -- kernel 06 for BF16 (06_skinny.cu, 06_gemv.cuh): its own
// translation unit, compiled beside the others.
#include "06_skinny.cuh"

namespace tessera::ladder {

cudaError_t launch_06_bf16(GemmArgs const& p, SkinnyPlan const& plan, cudaStream_t stream) {
  return launch<BF16>(p, plan, stream);
}

}  // namespace tessera::ladder
