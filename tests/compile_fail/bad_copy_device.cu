// In device code: a kernel's 128-bit copy along a run-time stride. nvcc must name the rule
// (rule::vector_along_a_runtime_stride) in the first lines of its output.
#include "copy_common.hpp"
__global__ void load(float const* a, int64_t m, int64_t n, int64_t sm, int64_t lda) {
  auto mA = make_tensor(a, make_shape(m, n), make_stride(sm, lda));
  const ThrCopy<Load128> thr{threadIdx.x};
  auto tAgA = thr.partition_S(local_tile<kTile, Proj{1, 1}>(mA, blockIdx.x, blockIdx.y));
  auto frag = make_fragment_like<float>(tAgA);
  copy(thr, tAgA, frag);
}
