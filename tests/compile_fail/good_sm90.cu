// Control for the Hopper compile-fail tests: the library's Hopper pieces compile together
// (staged tiles, TMA coordinates and tma_partition, both halves of the mainloop, the fused
// epilogue, A from registers), and host code of a .cu file catches tessera::Error.
#include <tessera/algorithm/fused_epilogue.hpp>

#include "sm90_common.cuh"
__global__ void k(const __grid_constant__ CUtensorMap map_a,
                  const __grid_constant__ CUtensorMap map_b, bf16* d) {
  extern __shared__ uint8_t smem_raw[];
  auto& smem = shared_storage<Cfg::SharedStorage>(smem_raw);
  __shared__ PipelineStorage<2> bars;
  const StagePipeline<2, 2> pipe{bars.full, bars.empty};
  PipelineState<2> state;
  if (threadIdx.x < 128) {
    const auto gA = local_tile<128, 64>(make_tma_tensor<Cfg::kA.tma>(&map_a, 1000, 640), 3);
    const auto gB = local_tile<256, 64>(make_tma_tensor<Cfg::kB.tma>(&map_b, 900, 640), 1);
    auto [tAgA, tAsA] = tma_partition(gA, smem.a);
    mainloop_load(pipe, state, tAgA, tAsA, gB, smem.b, 0, 10);
  } else {
    const WarpgroupMMA<Cfg> mma{int(threadIdx.x / 128) - 1};
    auto acc = mma.partition_fragment_C();
    mainloop_mma(mma, pipe, state, smem.a, smem.b, acc, 10);
    epilogue_store<Cfg>(acc, int(threadIdx.x) - 128, MatrixRef<bf16>{d, 1000, 900, 900, 1}, 384,
                        256, [](float x, int64_t, int64_t col) { return x + float(col); });
  }
}
// O = P V: S's accumulators, in bf16, as the A operand of the RS product (attention's second
// product), V from shared memory.
__global__ void pv(float* out) {
  __shared__ SmemStages<bf16, OCfg::kV> v;
  const WarpgroupMMA<SCfg> mma_s{0};
  const WarpgroupMMA<OCfg> mma_o{0};
  auto s = mma_s.partition_fragment_C();
  for (int i = 0; i < s.size(); ++i) s(i) = out[i];
  auto p = convert<bf16>(s);
  auto o = mma_o.partition_fragment_C();
  gemm(mma_o, acc_as_A<OCfg>(mma_s, p), mma_o.partition_B(v(_, _, 0)), o, false);
  warpgroup_wait<0>(o);
  out[threadIdx.x] = o(0);
}
int rejects_a_bad_tile() {
  try {
    (void)make_staged_tile(16, 100, 64, true, 64, 2);
  } catch (tessera::Error const& e) {
    return 1;
  }
  return 0;
}
