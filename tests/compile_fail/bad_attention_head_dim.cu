// Must NOT compile: the SM80 attention kernel (kernels/attention/fa2_sm80.cuh) for head dim 96.
// The first error is its configuration's static_assert naming the supported head dims.
#include "../../kernels/attention/fa2_sm80.cuh"

namespace tessera::attention {
namespace {
template __global__ void fa2_sm80_kernel<Fa2Cfg<__half, 96>>(AttnArgs);
}  // namespace
}  // namespace tessera::attention
