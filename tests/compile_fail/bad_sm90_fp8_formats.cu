// Must NOT compile: B staged as e5m2 for a TiledMMA of the e4m3 x e4m3 atom.
#include "sm90_fp8_common.cuh"
__global__ void k(float* out) {
  __shared__ SmemStages<e4m3, Fp8Cfg::kA> a;
  __shared__ SmemStages<__nv_fp8_e5m2, Fp8Cfg::kB> b;
  const WarpgroupMMA<Fp8Cfg> mma{0};
  auto acc = mma.partition_fragment_C();
  gemm(mma, mma.partition_A(a(_, _, 0)), mma.partition_B(b(_, _, 0)), acc, false);
  out[threadIdx.x] = acc(0);
}
