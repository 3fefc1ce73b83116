// Must NOT compile: A from registers given to a TiledMMA whose wgmma reads A from shared memory.
#include "sm90_common.cuh"
__global__ void k(float* out) {
  extern __shared__ uint8_t smem_raw[];
  auto& smem = shared_storage<Cfg::SharedStorage>(smem_raw);
  const WarpgroupMMA<Cfg> mma{int(threadIdx.x / 128)};
  auto a = make_fragment<bf16, make_tuple(8, 1, 4)>();
  auto acc = mma.partition_fragment_C();
  gemm(mma, a, mma.partition_B(smem.b(_, _, 0)), acc, false);
  out[threadIdx.x] = acc(0);
}
