// Must NOT compile: FP8 stages for a TiledMMA of the 16-bit wgmma atom (m64n128k16).
#include "sm90_fp8_common.cuh"
struct Cfg16 {
  static constexpr TiledMMA kMma =
      make_tiled_mma(atom::sm90_64xNx16(128, false), parse_layout("(2,1,1):(1,0,0)"));
};
__global__ void k(float* out) {
  __shared__ SmemStages<e4m3, Fp8Cfg::kA> a;
  __shared__ SmemStages<e4m3, Fp8Cfg::kB> b;
  const WarpgroupMMA<Cfg16> mma{0};
  auto acc = mma.partition_fragment_C();
  gemm(mma, mma.partition_A(a(_, _, 0)), mma.partition_B(b(_, _, 0)), acc, false);
  out[threadIdx.x] = acc(0);
}
