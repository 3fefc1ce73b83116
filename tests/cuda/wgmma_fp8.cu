// FP8 wgmma from the vocabulary, compiled in CI for its PTX and ptxas report (check_wgmma_fp8.py):
// a TiledMMA of m64n128k32 FP8 atoms (atom::sm90_64xNx32_f8), operands staged K-major in
// 128-byte-swizzled tiles of one-byte elements ((rows, 128): one swizzled row of K, four wgmma
// k-steps of 32), and WarpgroupMMA's gemm over one stage:
//   fp8_ss_<a>_<b>: A and B from shared memory, two consumer warpgroups (a 128 x 128 tile), for
//                   each pair of formats (e4m3, e5m2);
//   fp8_rs_<a>_<b>: A from registers (the RS atom's 16 values per k-step), one warpgroup.
// Each kernel must issue four wgmma.mma_async.sync.aligned.m64n128k32.f32.<a>.<b> (one per
// k-step), with no local memory, stack or spills, and none serialized by ptxas.
#include <cuda_fp8.h>

#include <tessera/warpgroup_mma.hpp>

using namespace tessera;
using e4m3 = __nv_fp8_e4m3;
using e5m2 = __nv_fp8_e5m2;

namespace {

template <class T>
constexpr atom::Fp8 kFormat = std::is_same_v<T, e4m3> ? atom::Fp8::kE4M3 : atom::Fp8::kE5M2;

constexpr int64_t kBN = 128, kBK = 128;  // kBK one-byte elements: one 128-byte row of K

// SS: two warpgroups along M, A (128, kBK) and B (kBN, kBK) staged.
template <class TA, class TB>
struct SsCfg {
  static constexpr TiledMMA kMma =
      make_tiled_mma(atom::sm90_64xNx32_f8(kBN, false, kFormat<TA>, kFormat<TB>),
                     parse_layout("(2,1,1):(1,0,0)"));
  static constexpr int kThreads = 256;
  static constexpr StagedTile kA = make_staged_tile(8, 128, kBK, true, 64, 1);
  static constexpr StagedTile kB = make_staged_tile(8, kBN, kBK, true, kBN, 1);
};
// RS: one warpgroup, A in registers, B staged.
template <class TA, class TB>
struct RsCfg {
  static constexpr TiledMMA kMma =
      make_tiled_mma(atom::sm90_64xNx32_f8(kBN, true, kFormat<TA>, kFormat<TB>),
                     parse_layout("(1,1,1):(0,0,0)"));
  static constexpr int kThreads = 128;
  static constexpr StagedTile kB = make_staged_tile(8, kBN, kBK, true, kBN, 1);
};

// The stage's bytes, as a TMA load would leave them (the image is the swizzled tile).
template <class T, StagedTile kS>
__device__ void fill(SmemStages<T, kS>& s, uint8_t const* image, int threads) {
  auto* bytes = reinterpret_cast<uint8_t*>(s.data);
  for (int64_t i = threadIdx.x; i < kS.stage_bytes(); i += threads) bytes[i] = image[i];
}

template <class Cfg, class F>
__device__ void store(F const& acc, float* c) {
  TESSERA_UNROLL
  for (int i = 0; i < int(F::size()); ++i) c[threadIdx.x * F::size() + i] = acc(i);
}

template <class TA, class TB>
__device__ void ss_body(uint8_t const* a, uint8_t const* b, float* c) {
  using Cfg = SsCfg<TA, TB>;
  __shared__ SmemStages<TA, Cfg::kA> sA;  // (128,128) e4m3/e5m2, 16 KiB
  __shared__ SmemStages<TB, Cfg::kB> sB;  // (128,128), 16 KiB
  fill(sA, a, Cfg::kThreads);
  fill(sB, b, Cfg::kThreads);
  fence_view_async_shared();
  __syncthreads();
  const WarpgroupMMA<Cfg> mma{int(threadIdx.x / 128)};
  auto acc = mma.partition_fragment_C();  // ((2,2,16),1,1) floats
  gemm(mma, mma.partition_A(sA(_, _, 0)), mma.partition_B(sB(_, _, 0)), acc, false);
  warpgroup_wait<0>(acc);
  store<Cfg>(acc, c);
}

template <class TA, class TB>
__device__ void rs_body(uint8_t const* a, uint8_t const* b, float* c) {
  using Cfg = RsCfg<TA, TB>;
  __shared__ SmemStages<TB, Cfg::kB> sB;
  fill(sB, b, Cfg::kThreads);
  fence_view_async_shared();
  __syncthreads();
  constexpr int kSteps = int(kBK / 32);
  Fragment<TA, Layout(make_tuple(16, 1, kSteps))> rA;  // (V,1,K): the RS atom's values per k-step
  // Four values per 32-bit load (a register of the RS operand, lowest value first).
  auto const* words = reinterpret_cast<uint32_t const*>(a) + threadIdx.x * 4 * kSteps;
  TESSERA_UNROLL
  for (int i = 0; i < 4 * kSteps; ++i) {
    const uint32_t w = words[i];
    TESSERA_UNROLL
    for (int b = 0; b < 4; ++b) rA(4 * i + b).__x = uint8_t(w >> (8 * b));
  }
  const WarpgroupMMA<Cfg> mma{0};
  auto acc = mma.partition_fragment_C();
  gemm(mma, rA, mma.partition_B(sB(_, _, 0)), acc, false);
  warpgroup_wait<0>(acc);
  store<Cfg>(acc, c);
}

}  // namespace

#define TESSERA_FP8_KERNELS(a, b)                                                         \
  __global__ void __launch_bounds__(256) fp8_ss_##a##_##b(uint8_t const* pa,             \
                                                           uint8_t const* pb, float* c) { \
    ss_body<a, b>(pa, pb, c);                                                             \
  }                                                                                       \
  __global__ void __launch_bounds__(128) fp8_rs_##a##_##b(uint8_t const* pa,             \
                                                           uint8_t const* pb, float* c) { \
    rs_body<a, b>(pa, pb, c);                                                             \
  }
TESSERA_FP8_KERNELS(e4m3, e4m3)
TESSERA_FP8_KERNELS(e4m3, e5m2)
TESSERA_FP8_KERNELS(e5m2, e4m3)
TESSERA_FP8_KERNELS(e5m2, e5m2)
