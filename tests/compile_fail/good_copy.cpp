// Must compile: the copies of the copy compile-fail tests with valid operands.
#include "copy_common.hpp"
void load(float const* a, int64_t m, int64_t n, int64_t lda, float* smem, uint16_t* h) {
  auto mA = make_tensor(a, make_shape(m, n), make_stride(unit, lda));
  auto gA = local_tile<kTile, Proj{1, 1}>(mA, 0, 0);
  auto cA = local_tile<kTile, Proj{1, 1}>(make_identity_tensor(mA.shape), 0, 0);
  const ThrCopy<Load128> thr{0};
  auto tAgA = thr.partition_S(gA);
  auto frag = make_fragment_like<float>(tAgA);
  copy(thr, tAgA, frag);
  copy_if(thr, thr.partition_S(cA), tAgA, frag);
  copy(tAgA, frag);
  copy(thr, frag,
       thr.partition_D(
           make_tensor<composition(Swizzle(3, 2, 6), parse_layout("(64,64):(1,64)"))>(smem)));
  auto bias = make_tensor(a, make_shape(m, n), make_stride(unit, fixed<0>));
  copy(thr, thr.partition_S(local_tile<kTile, Proj{1, 1}>(bias, 0, 0)), frag);
  load_matrix<Ldsm, kKMajor>(h);
  load_matrix<LdsmT, kMMajor>(h);
}
