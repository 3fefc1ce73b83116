// Must NOT compile: gemm of one WarpgroupMMA on operands partitioned by another TiledMMA's.
#include "sm90_common.cuh"
struct OtherCfg : Cfg {};
__global__ void k(float* out) {
  extern __shared__ uint8_t smem_raw[];
  auto& smem = shared_storage<Cfg::SharedStorage>(smem_raw);
  const WarpgroupMMA<Cfg> mma{int(threadIdx.x / 128)};
  const WarpgroupMMA<OtherCfg> other{int(threadIdx.x / 128)};
  auto acc = mma.partition_fragment_C();
  gemm(mma, other.partition_A(smem.a(_, _, 0)), mma.partition_B(smem.b(_, _, 0)), acc, false);
  out[threadIdx.x] = acc(0);
}
