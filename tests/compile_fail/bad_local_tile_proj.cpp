// Must NOT compile: local_tile of a rank-2 tensor with a projection that keeps one tiler mode
// of three; the diagnostic names the rule: local_tile_projection_does_not_match_the_tensor.
#include <tessera.hpp>
#include <tessera/device_tensor.hpp>
using namespace tessera;
void tile(float* c, int64_t m, int64_t n, int64_t ldc) {
  auto mC = make_tensor(c, make_shape(m, n), make_stride(unit, ldc));
  auto gC = local_tile<Coord<3>{{128, 128, 8}}, Proj{1, 0, 0}>(mC, 0, 0, _);
  (void)gC;
}
