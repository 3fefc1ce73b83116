// Registers of 8 values for a partition of 16: rule::copy_sizes_differ.
#include "copy_common.hpp"
void load(float const* a, int64_t m, int64_t n, int64_t lda) {
  auto mA = make_tensor(a, make_shape(m, n), make_stride(unit, lda));
  const ThrCopy<Load128> thr{0};
  auto tAgA = thr.partition_S(local_tile<kTile, Proj{1, 1}>(mA, 0, 0));
  Fragment<float, Layout(8)> frag;
  copy(tAgA, frag);
}
