// kernels/attention/fa2_sm80_d64.cu -- the SM80 attention forward (fa2_sm80.cuh), head dim 64,
// f16 and bf16.
#include "fa2_sm80.cuh"

namespace tessera::attention {
cudaError_t launch_fa2_sm80_d64(AttnArgs const& p, bool bf16, cudaStream_t stream) {
  return bf16 ? launch_fa2_sm80<__nv_bfloat16, 64>(p, stream)
              : launch_fa2_sm80<__half, 64>(p, stream);
}
}  // namespace tessera::attention
