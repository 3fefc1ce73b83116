// kernels/attention/fa3_sm90_d128_bf16.cu -- the Hopper attention forward (fa3_sm90.cuh), head dim
// 128, bf16: one unit per head dim and dtype (the causal and non-causal kernels in each).
#include "fa3_sm90.cuh"

namespace tessera::attention {
cudaError_t launch_fa3_sm90_d128(AttnArgs const& p, __nv_bfloat16, bool narrow_keys,
                                 cudaStream_t stream) {
  return launch_fa3_sm90<__nv_bfloat16, 128>(p, narrow_keys, stream);
}
}  // namespace tessera::attention
