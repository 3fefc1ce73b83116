// kernels/attention/fa2_sm80_d256.cu -- the SM80 attention forward (fa2_sm80.cuh), head dim 256,
// f16 and bf16.
#include "fa2_sm80.cuh"

namespace tessera::attention {
cudaError_t launch_fa2_sm80_d256(AttnArgs const& p, bool bf16, cudaStream_t stream) {
  return bf16 ? launch_fa2_sm80<__nv_bfloat16, 256>(p, stream)
              : launch_fa2_sm80<__half, 256>(p, stream);
}
}  // namespace tessera::attention
