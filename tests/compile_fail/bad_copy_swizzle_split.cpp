// A 128-bit copy into a shared tile swizzled with Sw<3,1,6>: the swizzle XORs bit 1 of the
// offset, inside each 4-float vector: rule::swizzle_splits_the_vector.
#include "copy_common.hpp"
void store(float* smem) {
  const ThrCopy<Load128> thr{0};
  auto tAsA = thr.partition_D(
      make_tensor<composition(Swizzle(3, 1, 6), parse_layout("(64,64):(1,64)"))>(smem));
  Fragment<float, Layout(16)> frag{};
  copy(thr, frag, tAsA);
}
