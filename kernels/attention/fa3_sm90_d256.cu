// kernels/attention/fa3_sm90_d256.cu -- the Hopper attention forward (fa3_sm90.cuh), head dim 256,
// f16 and bf16.
#include "fa3_sm90.cuh"

namespace tessera::attention {
cudaError_t launch_fa3_sm90_d256(AttnArgs const& p, bool bf16, cudaStream_t stream) {
  return bf16 ? launch_fa3_sm90<__nv_bfloat16, 256>(p, stream)
              : launch_fa3_sm90<__half, 256>(p, stream);
}
}  // namespace tessera::attention
