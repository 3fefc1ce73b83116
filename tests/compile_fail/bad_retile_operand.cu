// Must NOT compile: B's fragment retiled by the copy that fills A's registers.
#include "register_device.hpp"
__global__ void k(float* out) {
  __shared__ __half smem[32 * 16];
  auto sA = make_tensor<kTileA>(smem);
  const ThrMMA<MmaF16> thr{threadIdx.x};
  auto tCrB = thr.partition_fragment_B(sA);  // (V,N,K)
  const ThrCopy<S2R<Operand::kA>> s2r_a{threadIdx.x};
  auto tXrB = s2r_a.retile_D(tCrB);
  out[threadIdx.x] = float(tXrB(0));
}
