// Must NOT compile: gemm<N> with N = 128 on the accumulators and B tile of an m64n256 wgmma.
#include "sm90_common.cuh"
__global__ void k(float* out) {
  extern __shared__ uint8_t smem_raw[];
  auto& smem = shared_storage<Cfg::SharedStorage>(smem_raw);
  float acc[128];
  gemm<128, bf16>(smem.a(_, _, 0).gmma(), 0, smem.b(_, _, 0).gmma(), 0, acc, false);
  out[threadIdx.x] = acc[0];
}
