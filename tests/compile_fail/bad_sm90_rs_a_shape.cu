// Must NOT compile: an RS A operand covering 2 k-steps where B's stage has 4 (64 keys).
#include "sm90_common.cuh"
__global__ void k(float* out) {
  __shared__ SmemStages<bf16, OCfg::kV> v;
  const WarpgroupMMA<OCfg> mma_o{0};
  auto a = make_fragment<bf16, make_tuple(8, 1, 2)>();
  auto o = mma_o.partition_fragment_C();
  gemm(mma_o, a, mma_o.partition_B(v(_, _, 0)), o, false);
  out[threadIdx.x] = o(0);
}
