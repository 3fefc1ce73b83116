// Must NOT compile: P converted to f16 for a product whose V stage holds bf16.
#include <cuda_fp16.h>

#include "sm90_common.cuh"
__global__ void k(float* out) {
  __shared__ SmemStages<bf16, OCfg::kV> v;
  const WarpgroupMMA<SCfg> mma_s{0};
  const WarpgroupMMA<OCfg> mma_o{0};
  auto s = mma_s.partition_fragment_C();
  auto p = convert<__half>(s);
  auto o = mma_o.partition_fragment_C();
  gemm(mma_o, acc_as_A<OCfg>(mma_s, p), mma_o.partition_B(v(_, _, 0)), o, false);
  out[threadIdx.x] = o(0);
}
