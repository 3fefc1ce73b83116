// kernels/attention/launch.hpp -- the launchers of the attention kernel units: the SM80 kernel
// one unit per head dim (its f16 and bf16 kernels), the Hopper kernel one unit per head dim and
// dtype (an overload per dtype: the value of the second argument is not read).
#pragma once

#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_runtime.h>

#include "args.hpp"

namespace tessera::attention {

cudaError_t launch_fa2_sm80_d64(AttnArgs const& p, bool bf16, cudaStream_t stream);
cudaError_t launch_fa2_sm80_d128(AttnArgs const& p, bool bf16, cudaStream_t stream);
cudaError_t launch_fa2_sm80_d256(AttnArgs const& p, bool bf16, cudaStream_t stream);
// The Hopper kernel (sm_90a) with the narrow or the wide key block (fa3_sm90_tiles):
// cudaErrorNotSupported, before any launch, where its tensor maps cannot address the inputs
// (fa3_sm90_addressable false: the SM80 kernel is the one to call).
cudaError_t launch_fa3_sm90_d64(AttnArgs const& p, __half, bool narrow_keys, cudaStream_t stream);
cudaError_t launch_fa3_sm90_d64(AttnArgs const& p, __nv_bfloat16, bool narrow_keys,
                                cudaStream_t stream);
cudaError_t launch_fa3_sm90_d128(AttnArgs const& p, __half, bool narrow_keys, cudaStream_t stream);
cudaError_t launch_fa3_sm90_d128(AttnArgs const& p, __nv_bfloat16, bool narrow_keys,
                                 cudaStream_t stream);
cudaError_t launch_fa3_sm90_d256(AttnArgs const& p, __half, bool narrow_keys, cudaStream_t stream);
cudaError_t launch_fa3_sm90_d256(AttnArgs const& p, __nv_bfloat16, bool narrow_keys,
                                 cudaStream_t stream);

}  // namespace tessera::attention
