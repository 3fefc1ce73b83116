// Must NOT compile: bf16 fragments through the f16 instruction.
#include "register_device.hpp"
__global__ void k(float* out) {
  const ThrMMA<MmaF16> thr{threadIdx.x};
  auto a = make_fragment<__nv_bfloat16, "((2,2,2),1)"_tuple>();  // (V,M)
  auto b = make_fragment<__nv_bfloat16, "((2,2),2)"_tuple>();    // (V,N)
  auto c = make_fragment<float, "((2,2),1,2)"_tuple>();          // (V,M,N)
  clear(a), clear(b), clear(c);
  gemm(thr, a, b, c);
  out[threadIdx.x] = c(0);
}
