// Must NOT compile: B's stage tile is 128 rows, which the m64n256 wgmma of the TiledMMA cannot
// read as its operand (one block of N = 256 rows).
#include "sm90_common.cuh"
struct NarrowB : Cfg {
  static constexpr StagedTile kB = make_staged_tile(16, 128, 64, true, 128, 2);
};
__global__ void k(float* out) {
  extern __shared__ uint8_t smem_raw[];
  auto& smem = shared_storage<Sm90Cfg<128>::SharedStorage>(smem_raw);
  const WarpgroupMMA<Cfg> mma{int(threadIdx.x / 128)};
  auto acc = mma.partition_fragment_C();
  gemm(mma, mma.partition_A(smem.a(_, _, 0)), mma.partition_B(smem.b(_, _, 0)), acc, false);
  out[threadIdx.x] = acc(0);
}
