// Must NOT compile: accumulators of a scalar-FMA TiledMMA (one value per (m, n)) given to the
// mma.sync gemm, whose instruction holds four per thread.
#include "register_device.hpp"
__global__ void k(float* out) {
  __shared__ __half smem[32 * 16];
  auto sA = make_tensor<kTileA>(smem);
  const ThrMMA<MmaF16> thr{threadIdx.x};
  auto tCrA = thr.partition_fragment_A(sA);                  // (V,M,K)
  auto tCrB = thr.partition_fragment_B(sA);                  // (V,N,K)
  auto acc = make_fragment<float, "(1,(2,2),(2,2))"_tuple>();  // step 1's kind of (V,M,N)
  clear(tCrA), clear(tCrB), clear(acc);
  gemm(thr, tCrA(_, _, 0), tCrB(_, _, 0), acc);
  out[threadIdx.x] = acc(0);
}
