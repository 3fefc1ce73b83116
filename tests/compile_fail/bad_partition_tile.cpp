// Must NOT compile: a (96,128) C tile partitioned by the step 1 TiledMMA, whose tile is
// (128,128); the diagnostic names the rule: tile_does_not_divide.
#include <tessera.hpp>
#include <tessera/device_tensor.hpp>
using namespace tessera;
struct Step1 {
  static constexpr TiledMMA kMma = presets::step1();
};
void store(float* c, int64_t m, int64_t n, int64_t ldc) {
  auto mC = make_tensor(c, make_shape(m, n), make_stride(unit, ldc));
  auto gC = local_tile<Coord<3>{{96, 128, 8}}, Proj{1, 1, 0}>(mC, 0, 0, _);
  const ThrMMA<Step1> thr{0};
  auto tCgC = thr.partition_C(gC);
  (void)tCgC;
}
