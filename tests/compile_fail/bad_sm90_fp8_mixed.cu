// Must NOT compile: A staged as e4m3, B as bf16 (no wgmma multiplies FP8 by a 16-bit type).
#include "sm90_fp8_common.cuh"
constexpr StagedTile kB16 = make_staged_tile(16, 128, 64, true, 128, 1);
__global__ void k(float* out) {
  __shared__ SmemStages<e4m3, Fp8Cfg::kA> a;
  __shared__ SmemStages<bf16, kB16> b;
  const WarpgroupMMA<Fp8Cfg> mma{0};
  auto acc = mma.partition_fragment_C();
  gemm(mma, mma.partition_A(a(_, _, 0)), mma.partition_B(b(_, _, 0)), acc, false);
  out[threadIdx.x] = acc(0);
}
