// A 128-bit copy into a shared tile that is N-major: the 4 values along M of each vector lie 64
// elements apart there: rule::vector_elements_are_not_consecutive (destination).
#include "copy_common.hpp"
void store(float* smem) {
  const ThrCopy<Load128> thr{0};
  auto tAsA = thr.partition_D(make_tensor<parse_layout("(64,64):(64,1)")>(smem));
  Fragment<float, Layout(16)> frag{};
  copy(thr, frag, tAsA);
}
