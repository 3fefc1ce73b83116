// compile_time_kernel.cu -- the kernel bench/compile_time.sh times: a few layouts derived with the
// algebra at compile time (a C tile partitioned over threads, a swizzled shared-memory tile), then
// evaluated per thread. With -DBASELINE a kernel of the same shape, hand-written indexing, no
// tessera, so the difference is what including and folding tessera costs.
#include <cstdint>

#ifndef BASELINE
#include <tessera.hpp>
using namespace tessera;
using namespace tessera::literals;

__global__ void copy_tile(const float* in, float* out) {
  static constexpr Layout kC = "(128,128):(1,128)"_layout;
  static constexpr Layout kTV = zipped_divide(kC, Tiler("(32,4)"_tuple));   // ((32,4),(4,32))
  static constexpr Layout kThr = kTV[0];
  static constexpr Layout kVal = kTV[1];
  static constexpr SwizzledLayout kSmem = composition(
      Swizzle(3, 2, 3), logical_divide("(128,128):(128,1)"_layout, Tiler("(8,8)"_tuple)));
  __shared__ float smem[128 * 128];
  int64_t t = threadIdx.x;
#pragma unroll
  for (int v = 0; v < 128; ++v) smem[kSmem(kThr(t) + kVal(v))] = in[kThr(t) + kVal(v)];
  __syncthreads();
#pragma unroll
  for (int v = 0; v < 128; ++v) out[kThr(t) + kVal(v)] = smem[kSmem(kThr(t) + kVal(v))];
}
#else
__global__ void copy_tile(const float* in, float* out) {
  __shared__ float smem[128 * 128];
  int64_t t = threadIdx.x;
  int64_t base = (t % 32) + (t / 32) * 128 * 32;
  auto sw = [](int64_t x) { return x ^ ((x & (7 << 5)) >> 3); };
#pragma unroll
  for (int v = 0; v < 128; ++v) {
    int64_t i = base + (v % 4) * 32 + (v / 4) * 128 * 4;
    smem[sw(i)] = in[i];
  }
  __syncthreads();
#pragma unroll
  for (int v = 0; v < 128; ++v) {
    int64_t i = base + (v % 4) * 32 + (v / 4) * 128 * 4;
    out[i] = smem[sw(i)];
  }
}
#endif
