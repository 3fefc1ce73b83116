// Must NOT compile: an epilogue whose predicate tensor is one k-slice (8 values) of the
// identity partition while the fragment and C's partition hold 64; the static_assert says so.
#include <tessera.hpp>
#include <tessera/device_tensor.hpp>
using namespace tessera;
struct Step1 {
  static constexpr TiledMMA kMma = presets::step1();
};
void epilogue(float* c, int64_t m, int64_t n, int64_t ldc) {
  auto mC = make_tensor(c, make_shape(m, n), make_stride(unit, ldc));
  auto gC = local_tile<Coord<3>{{128, 128, 8}}, Proj{1, 1, 0}>(mC, 0, 0, _);
  auto cC =
      local_tile<Coord<3>{{128, 128, 8}}, Proj{1, 1, 0}>(make_identity_tensor(mC.shape), 0, 0, _);
  const ThrMMA<Step1> thr{0};
  auto acc = thr.partition_fragment_C(gC);  // (V,M,N)
  axpby(1.0f, acc, 0.0f, thr.partition_C(gC), thr.partition_C(cC)(_, _, 0));
}
