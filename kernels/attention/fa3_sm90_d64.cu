// kernels/attention/fa3_sm90_d64.cu -- the Hopper attention forward (fa3_sm90.cuh), head dim 64,
// f16 and bf16.
#include "fa3_sm90.cuh"

namespace tessera::attention {
cudaError_t launch_fa3_sm90_d64(AttnArgs const& p, bool bf16, cudaStream_t stream) {
  return bf16 ? launch_fa3_sm90<__nv_bfloat16, 64>(p, stream)
              : launch_fa3_sm90<__half, 64>(p, stream);
}
}  // namespace tessera::attention
