// The transpose's TiledCopy (tile (64,16)) partitioning a (48,64) shared tile:
// rule::tile_does_not_divide.
#include "copy_common.hpp"
void store(float* smem) {
  const ThrCopy<Load128> thr{0};
  auto tAsA = thr.partition_D(make_tensor<parse_layout("(48,64):(1,48)")>(smem));
  (void)tAsA;
}
