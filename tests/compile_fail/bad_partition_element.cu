// Must NOT compile: bf16 data in shared memory partitioned for the f16 instruction.
#include "register_device.hpp"
__global__ void k(float* out) {
  __shared__ __nv_bfloat16 smem[32 * 16];
  auto sA = make_tensor<kTileA>(smem);                   // (M,K), bf16
  const ThrMMA<MmaF16> thr{threadIdx.x};
  auto tCrA = thr.partition_fragment_A(sA);              // registers for f16
  out[threadIdx.x] = __half2float(tCrA(0));
}
