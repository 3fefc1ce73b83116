// A 128-bit copy along M of a tensor with the static leading dimension fixed<66>, each thread
// copying two adjacent columns: its second column starts 2 floats off a 16-byte boundary:
// rule::vector_is_misaligned.
#include "copy_common.hpp"
struct TwoColumns {
  static constexpr TiledCopy kCopy = make_tiled_copy_tv(
      atom::universal_copy(128, 32), parse_layout("(16,8):(1,16)"), parse_layout("(4,2):(1,4)"));
};
void load(float const* a, int64_t m, int64_t n) {
  auto mA = make_tensor(a, make_shape(m, n), make_stride(unit, fixed<66>));
  const ThrCopy<TwoColumns> thr{0};
  auto tAgA = thr.partition_S(local_tile<kTile, Proj{1, 1}>(mA, 0, 0));
  auto frag = make_fragment_like<float>(tAgA);
  copy(thr, tAgA, frag);
}
