// Control for the Hopper compile-fail tests: the library's Hopper pieces compile, and host code
// of a .cu file catches tessera::Error.
#include "sm90_common.cuh"
__global__ void k(float* out) {
  extern __shared__ uint8_t smem_raw[];
  auto& smem = shared_storage<Cfg::SharedStorage>(smem_raw);
  const WarpgroupMMA<Cfg> mma{int(threadIdx.x / 128)};
  auto acc = mma.partition_fragment_C();
  gemm(mma, mma.partition_A(smem.a(_, _, 0)), mma.partition_B(smem.b(_, _, 0)), acc, false);
  warpgroup_wait<0>(acc);
  out[threadIdx.x] = acc(0);
}
int rejects_a_bad_tile() {
  try {
    (void)make_staged_tile(16, 100, 64, true, 64, 2);
  } catch (tessera::Error const& e) {
    return 1;
  }
  return 0;
}
