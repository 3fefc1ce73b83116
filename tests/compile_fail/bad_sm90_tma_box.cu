// Must NOT compile: B's tensor map (boxes of B's 256-row stage) partitioned into A's stages.
#include "sm90_common.cuh"
__global__ void k(const __grid_constant__ CUtensorMap map_b) {
  extern __shared__ uint8_t smem_raw[];
  auto& smem = shared_storage<Cfg::SharedStorage>(smem_raw);
  const auto gB = local_tile<128, 64>(make_tma_tensor<Cfg::kB.tma>(&map_b, 900, 640), 1);
  auto [tAgA, tAsA] = tma_partition(gB, smem.a);
  (void)tAgA;
}
