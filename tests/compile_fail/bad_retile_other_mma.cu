// Must NOT compile: a copy laid out by another TiledMMA's partition (step 4's warps numbered
// along N first) filling step 4's A registers: threads get other elements than they hold.
#include "register_device.hpp"
struct MmaWarpsByN {
  static constexpr TiledMMA kMma =
      make_tiled_mma(atom::sm80_16x8x16_f32f16(), parse_layout("(2,2,1):(2,1,0)"),
                     make_tile(Layout(32), Layout(32), Layout(16)));
};
__global__ void k(float* out) {
  __shared__ __half smem[32 * 16];
  auto sA = make_tensor<kTileA>(smem);
  const ThrMMA<MmaF16> thr{threadIdx.x};
  auto tCrA = thr.partition_fragment_A(sA);  // (V,M,K)
  const ThrCopy<S2R<Operand::kA, MmaWarpsByN>> s2r_a{threadIdx.x};
  auto tXrA = s2r_a.retile_D(tCrA);
  out[threadIdx.x] = float(tXrA(0));
}
