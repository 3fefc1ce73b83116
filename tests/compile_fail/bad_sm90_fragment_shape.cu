// Must NOT compile: accumulators of another shape (an m64n128 fragment) for an m64n256 wgmma.
#include "sm90_common.cuh"
__global__ void k(float* out) {
  extern __shared__ uint8_t smem_raw[];
  auto& smem = shared_storage<Cfg::SharedStorage>(smem_raw);
  const WarpgroupMMA<Cfg> mma{int(threadIdx.x / 128)};
  auto acc = WarpgroupMMA<Sm90Cfg<128>>::partition_fragment_C();
  gemm(mma, mma.partition_A(smem.a(_, _, 0)), mma.partition_B(smem.b(_, _, 0)), acc, false);
  out[threadIdx.x] = acc(0);
}
