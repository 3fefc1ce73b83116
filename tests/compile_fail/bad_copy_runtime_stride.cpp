// A 128-bit copy along M of a tensor whose M stride is a run-time value (make_stride(sm, lda)
// instead of make_stride(unit, lda)): rule::vector_along_a_runtime_stride.
#include "copy_common.hpp"
void load(float const* a, int64_t m, int64_t n, int64_t sm, int64_t lda) {
  auto mA = make_tensor(a, make_shape(m, n), make_stride(sm, lda));
  const ThrCopy<Load128> thr{0};
  auto tAgA = thr.partition_S(local_tile<kTile, Proj{1, 1}>(mA, 0, 0));
  auto frag = make_fragment_like<float>(tAgA);
  copy(thr, tAgA, frag);
}
