// kernels/tutorial/tutorial_gemm.cu -- the kernel of docs/writing-a-kernel.md: an fp32 GEMM
// written from scratch in tessera's device vocabulary (tessera/device_tensor.hpp).
//
//   C = alpha * A * B^T + beta * C      A (M,K), B (N,K), C (M,N), all column-major
//
// (cuBLAS's gemm with op(A) = N, op(B) = T; CuTe's "NT" tutorial problem), any M, N, K.
// CTA tile 128x128x8, 256 threads. Two ideas beyond the ladder's kernel 02:
//   - both operands are M- (N-) contiguous, so one TiledCopy of 16-byte cp.async vectors serves
//     A and B;
//   - the shared tiles have a stage mode, (BM,BK,kStages): k-tile kt+1 is on its way into one
//     stage while k-tile kt is multiplied out of the other (a 2-stage cp.async pipeline).
#include <cstdint>

#include <cuda_runtime.h>
#include <tessera/device_tensor.hpp>

namespace tutorial {
using namespace tessera;

// Everything static: the CTA tile, the TiledMMA, the TiledCopy and the shared-memory layouts.
template <int64_t BM, int64_t BN, int64_t BK, int kStagesIn = 2>
struct Config {
  static constexpr Coord<3> kCta = {{BM, BN, BK}};  // the CTA tiler (BM,BN,BK)
  static constexpr int kStages = kStagesIn;
  static constexpr int kThreads = 256;
  // 16x16 threads, one scalar FMA each; the permutation (16,4):(4,1) in M and N gives every
  // thread 4 consecutive rows and columns: a 64x64 tile per MMA step, 128-bit shared loads.
  static constexpr TiledMMA kMma =
      make_tiled_mma(atom::universal_fma(), parse_layout("(16,16,1):(16,1,0)"),
                     make_tile(parse_layout("(16,4):(4,1)"), parse_layout("(16,4):(4,1)"), _));
  // 32x8 threads, each 4 consecutive floats (one 16-byte cp.async) along M (or N): (128,8).
  static constexpr TiledCopy kCopy = make_tiled_copy_tv(
      atom::cp_async(16, 32), parse_layout("(32,8):(1,32)"), parse_layout("(4,1):(1,0)"));
  // Shared memory, column-major with the stage last: (BM,BK,kStages):(1,BM,BM*BK).
  static constexpr Layout kSA = Layout(make_tuple(BM, BK, int64_t(kStages)));
  static constexpr Layout kSB = Layout(make_tuple(BN, BK, int64_t(kStages)));

  // The rules this kernel relies on, checked when the kernel is compiled (in its device pass).
  __device__ static constexpr void check() {
    static_assert(kMma.threads() == kThreads && kCopy.threads() == kThreads,
                  "Config: the TiledMMA and the TiledCopy must both have kThreads threads");
    static_assert(BM % kMma.tile_size(0) == 0 && BN % kMma.tile_size(1) == 0,
                  "Config: the TiledMMA's tile must divide the CTA tile's (BM,BN)");
    static_assert(BM % product(kCopy.tiler[0]) == 0 && BN % product(kCopy.tiler[0]) == 0 &&
                      BK % product(kCopy.tiler[1]) == 0,
                  "Config: the TiledCopy's tile must divide the CTA tile's (BM,BK) and (BN,BK)");
  }
};

template <class Cfg>
__global__ void __launch_bounds__(Cfg::kThreads)
tutorial_gemm_kernel(int64_t m, int64_t n, int64_t k, float alpha, const float* A, int64_t lda,
                     const float* B, int64_t ldb, float beta, float* C, int64_t ldc) {
  Cfg::check();
  static constexpr Coord<3> kCta = Cfg::kCta;
  constexpr int kStages = Cfg::kStages;

  // The whole tensors (a static unit stride, a run-time leading dimension) and their coordinates.
  auto mA = make_tensor(A, make_shape(m, k), make_stride(unit, lda));  // (M,K):(1,lda)
  auto mB = make_tensor(B, make_shape(n, k), make_stride(unit, ldb));  // (N,K):(1,ldb)
  auto mC = make_tensor(C, make_shape(m, n), make_stride(unit, ldc));  // (M,N):(1,ldc)
  auto cA = make_identity_tensor(mA.shape);                            // (M,K) -> (m,k)
  auto cB = make_identity_tensor(mB.shape);                            // (N,K) -> (n,k)
  auto cC = make_identity_tensor(mC.shape);                            // (M,N) -> (m,n)

  // This CTA's tiles. `_` keeps the K mode: gA.at(kt) is k-tile kt.
  const int64_t bm = blockIdx.x, bn = blockIdx.y;
  auto gA = local_tile<kCta, Proj{1, 0, 1}>(mA, bm, bn, _);  // (BM,BK)
  auto gB = local_tile<kCta, Proj{0, 1, 1}>(mB, bm, bn, _);  // (BN,BK)
  auto gC = local_tile<kCta, Proj{1, 1, 0}>(mC, bm, bn, _);  // (BM,BN)

  // Shared memory: kStages tiles of A and of B.
  __shared__ alignas(16) float smem_a[Cfg::kSA.cosize()];
  __shared__ alignas(16) float smem_b[Cfg::kSB.cosize()];
  auto sA = make_tensor<Cfg::kSA>(smem_a);  // (BM,BK,PIPE)
  auto sB = make_tensor<Cfg::kSB>(smem_b);  // (BN,BK,PIPE)

  // This thread's share of the copies: sources, coordinates (the predicates), destinations.
  const ThrCopy<Cfg> thr_copy{threadIdx.x};
  auto tAgA = thr_copy.partition_S(gA);  // (CPY,CPY_M,CPY_K) = ((4,1),1,1)
  auto tAcA = thr_copy.partition_S(local_tile<kCta, Proj{1, 0, 1}>(cA, bm, bn, _));
  auto tBgB = thr_copy.partition_S(gB);  // (CPY,CPY_N,CPY_K) = ((4,1),1,1)
  auto tBcB = thr_copy.partition_S(local_tile<kCta, Proj{0, 1, 1}>(cB, bm, bn, _));

  // This thread's share of the MMA: C in global memory, its coordinates, its accumulators.
  const ThrMMA<Cfg> thr_mma{threadIdx.x};
  auto tCgC = thr_mma.partition_C(gC);  // (V,M,N) = (1,(4,2),(4,2))
  auto tCcC = thr_mma.partition_C(local_tile<kCta, Proj{1, 1, 0}>(cC, bm, bn, _));
  auto tCrC = make_fragment_like<float>(tCgC);  // (V,M,N) in registers
#pragma unroll
  for (int i = 0; i < tCrC.size(); ++i) tCrC(i) = 0.0f;

  // Prologue: k-tiles 0 .. kStages-2 into stages 0 .. kStages-2 (zero-filled past K).
  const int64_t k_tiles = ceil_div(k, kCta[2]);
#pragma unroll
  for (int s = 0; s < kStages - 1; ++s) {
    copy(thr_copy, tAgA.at(s), thr_copy.partition_D(sA(_, _, s)), tAcA.at(s));  // (CPY,CPY_M,CPY_K)
    copy(thr_copy, tBgB.at(s), thr_copy.partition_D(sB(_, _, s)), tBcB.at(s));  // (CPY,CPY_N,CPY_K)
    ptx::cp_async_commit();
  }

  for (int64_t kt = 0; kt < k_tiles; ++kt) {
    // Start k-tile kt + kStages - 1 into the stage that k-tile kt - 1 used.
    const int64_t next = kt + kStages - 1;
    const int s_next = int(next % kStages), s = int(kt % kStages);
    if (next < k_tiles) {
      copy(thr_copy, tAgA.at(next), thr_copy.partition_D(sA(_, _, s_next)), tAcA.at(next));
      copy(thr_copy, tBgB.at(next), thr_copy.partition_D(sB(_, _, s_next)), tBcB.at(next));
    }
    ptx::cp_async_commit();             // (empty on the last tiles: the count below stays right)
    ptx::cp_async_wait<kStages - 1>();  // all but the newest kStages-1 groups: k-tile kt is in
    __syncthreads();

    // gemm out of stage s: per k-block, 8 A and 8 B values from shared memory, 64 FMAs.
    auto tCsA = thr_mma.partition_A(sA(_, _, s));  // (V,M,K) = (1,(4,2),8)
    auto tCsB = thr_mma.partition_B(sB(_, _, s));  // (V,N,K) = (1,(4,2),8)
#pragma unroll
    for (int kb = 0; kb < int(decltype(tCsA)::kLayout[2].size()); ++kb) {
      auto tCrA = make_fragment_like<float>(tCsA(_, _, kb));  // (V,M)
      auto tCrB = make_fragment_like<float>(tCsB(_, _, kb));  // (V,N)
      copy(tCsA(_, _, kb), tCrA);
      copy(tCsB(_, _, kb), tCrB);
      gemm(tCrC, tCrA, tCrB);
    }
    __syncthreads();  // every thread is done with stage s before a copy overwrites it
  }
  axpby(alpha, tCrC, beta, tCgC, tCcC);  // C = alpha AB + beta C where tCcC is inside C
}

// The launcher: C = alpha * A * B^T + beta * C on device pointers, column-major (cuBLAS's
// sgemm(N, T, ...)). The 16-byte copies need A and B 16-byte aligned and lda, ldb multiples of
// 4; those, negative sizes and too small leading dimensions are refused (cudaErrorInvalidValue).
inline cudaError_t gemm_nt(int64_t m, int64_t n, int64_t k, float alpha, const float* A,
                           int64_t lda, const float* B, int64_t ldb, float beta, float* C,
                           int64_t ldc, cudaStream_t stream = nullptr) {
  using Cfg = Config<128, 128, 8>;
  auto vectors_ok = [](const float* p, int64_t ld) {
    return reinterpret_cast<uintptr_t>(p) % 16 == 0 && ld % 4 == 0;
  };
  if (m < 0 || n < 0 || k < 0 || lda < max64(1, m) || ldb < max64(1, n) || ldc < max64(1, m) ||
      !vectors_ok(A, lda) || !vectors_ok(B, ldb) || ceil_div(n, Cfg::kCta[1]) > 65535)
    return cudaErrorInvalidValue;
  if (m == 0 || n == 0) return cudaSuccess;
  const dim3 grid(unsigned(ceil_div(m, Cfg::kCta[0])), unsigned(ceil_div(n, Cfg::kCta[1])));
  tutorial_gemm_kernel<Cfg><<<grid, Cfg::kThreads, 0, stream>>>(m, n, k, alpha, A, lda, B, ldb,
                                                                 beta, C, ldc);
  return cudaGetLastError();
}

}  // namespace tutorial
