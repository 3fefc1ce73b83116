// kernels/gemm/01_simt_global.cu -- ladder step 01: the thread trace's "step 1" kernel, exactly.
//
// CTA tile 128x128x8, 256 threads, the scalar-FMA TiledMMA presets::step1() (atoms
// (16,16,1):(16,1,0), permutation (16,4):(4,1) in M and N): every thread owns 64 accumulators,
// rows and columns {4a..4a+3, 64+4a..64+4a+3}. A and B are read straight from global memory into
// registers (no shared memory), one k-tile of 8 at a time, then 8 k-blocks of 64 FMAs each;
// the epilogue stores through identity-tensor predicates, so any M, N, K works.
//
// New idea here: the kernel is written in the layout vocabulary (tessera/device_tensor.hpp):
// make_tensor over run-time sizes and strides, local_tile, partition_A/B/C, copy predicated by
// identity tensors, gemm, axpby. The static structure folds at compile time; its k-loop is
// shorter than the hand-written kernel's (tests/cuda/check_ffma.py).
#include <tessera/device_tensor.hpp>

#include "common.cuh"

namespace tessera::ladder {
namespace {

struct SimtGlobalCfg {
  static constexpr TiledMMA kMma = presets::step1();
  static constexpr int64_t kBM = 128, kBN = 128, kBK = 8;
  static constexpr Coord<3> kCta = {{kBM, kBN, kBK}};
  static constexpr int kThreads = 256;

  // Compact tiles (column-major): C (BM,BN), A (BM,BK), B (BN,BK).
  static constexpr Layout kTileC = Layout(make_tuple(kBM, kBN));
  static constexpr Layout kTileA = Layout(make_tuple(kBM, kBK));
  static constexpr Layout kTileB = Layout(make_tuple(kBN, kBK));

  // Thread partitions: thread -> first element, value -> element (the thread trace's B, C).
  static constexpr ThreadPartition kPartC = kMma.partitioner(Operand::kC, kTileC);
  static constexpr ThreadPartition kPartA = kMma.partitioner(Operand::kA, kTileA);
  static constexpr ThreadPartition kPartB = kMma.partitioner(Operand::kB, kTileB);
  static constexpr Layout kThrC = kPartC.thread, kFrgC = kPartC.fragment;  // (1,(4,2),(4,2))
  static constexpr Layout kThrA = kPartA.thread, kFrgA = kPartA.fragment;  // (1,(4,2),8)
  static constexpr Layout kThrB = kPartB.thread, kFrgB = kPartB.fragment;  // (1,(4,2),8)

  // Register fragments: M values x K, N values x K, M x N accumulators.
  static constexpr int kFM = int(kFrgA[1].size()), kFN = int(kFrgB[1].size());
  static constexpr int kFK = int(kFrgA[2].size());

  // The static checks, instantiated by the kernel (see common.cuh, "Static checks").
  __device__ static constexpr void check() {
    static_assert(kMma.threads() == kThreads, "step1: the TiledMMA must have 256 threads");
    static_assert(kMma.tile_size(0) * 2 == kBM && kMma.tile_size(1) * 2 == kBN,
                  "step1: the permutation (64 rows) must tile the 128x128 CTA tile twice");
    static_assert(
        kFrgC == parse_layout("(1,(4,2),(4,2)):(0,(1,64),(128,8192))"),
        "step1: C fragment differs from the thread trace's (1,(4,2),(4,2)):(0,(128,8192),(1,64)) "
        "transposed to column-major");
    static_assert(same_offsets(kMma, Operand::kC, kTileC, kThrC) &&
                      same_offsets(kMma, Operand::kA, kTileA, kThrA) &&
                      same_offsets(kMma, Operand::kB, kTileB, kThrB),
                  "step1: thread-offset layouts disagree with TiledMMA::partition_*");
    static_assert(kFM * kFN == kFrgC.size() && kFK == kBK, "step1: fragment shapes do not match");
  }
};

template <class Cfg>
__global__ void __launch_bounds__(Cfg::kThreads)
gemm_01_kernel(GemmArgs p) {
  Cfg::check();
  static constexpr Coord<3> kCta = Cfg::kCta;  // (BM,BN,BK)
  constexpr int kFK = Cfg::kFK;

  // The problem, any strides: A (M,K), B (N,K), C (M,N) column-major; and their coordinates.
  auto mA = make_tensor(p.a, make_shape(p.m, p.k), make_stride(p.a_sm, p.a_sk));  // (M,K)
  auto mB = make_tensor(p.b, make_shape(p.n, p.k), make_stride(p.b_sn, p.b_sk));  // (N,K)
  auto mC = make_tensor(p.c, make_shape(p.m, p.n), make_stride(unit, p.ldc));     // (M,N)
  auto cA = make_identity_tensor(mA.shape), cB = make_identity_tensor(mB.shape),
       cC = make_identity_tensor(mC.shape);

  // This CTA's tiles; `_` keeps the K mode: gA.at(k) is k-tile k.
  const int64_t bm = blockIdx.x, bn = blockIdx.y;
  auto gA = local_tile<kCta, Proj{1, 0, 1}>(mA, bm, bn, _);  // (BM,BK)
  auto gB = local_tile<kCta, Proj{0, 1, 1}>(mB, bm, bn, _);  // (BN,BK)
  auto gC = local_tile<kCta, Proj{1, 1, 0}>(mC, bm, bn, _);  // (BM,BN)

  // This thread's share of each (partition_A/B/C), and the same of the coordinates.
  const ThrMMA<Cfg> thr_mma{threadIdx.x};
  auto tCgA = thr_mma.partition_A(gA);  // (V,M,K)
  auto tCgB = thr_mma.partition_B(gB);  // (V,N,K)
  auto tCgC = thr_mma.partition_C(gC);  // (V,M,N)
  auto tCcA = thr_mma.partition_A(local_tile<kCta, Proj{1, 0, 1}>(cA, bm, bn, _));
  auto tCcB = thr_mma.partition_B(local_tile<kCta, Proj{0, 1, 1}>(cB, bm, bn, _));
  auto tCcC = thr_mma.partition_C(local_tile<kCta, Proj{1, 1, 0}>(cC, bm, bn, _));

  auto tCrC = make_fragment_like<float>(tCgC);  // (V,M,N) accumulators
#pragma unroll
  for (int i = 0; i < tCrC.size(); ++i) tCrC(i) = 0.0f;

  const int64_t k_tiles = ceil_div(p.k, kCta[2]);
  for (int64_t kt = 0; kt < k_tiles; ++kt) {
    // NOTE: the thread trace copies the whole k-tile (64 + 64 values) before its 8 k-blocks; with
    // the 64 accumulators that needs > 255 registers and spills, so each k-block is copied just
    // before it is used (same loads, same FMAs, same order within a k-block).
#pragma unroll
    for (int kb = 0; kb < kFK; ++kb) {
      auto tCrA = make_fragment_like<float>(tCgA.at(kt)(_, _, kb));  // (V,M)
      auto tCrB = make_fragment_like<float>(tCgB.at(kt)(_, _, kb));  // (V,N)
      copy(tCgA.at(kt)(_, _, kb), tCrA, tCcA.at(kt)(_, _, kb));  // zero outside A
      copy(tCgB.at(kt)(_, _, kb), tCrB, tCcB.at(kt)(_, _, kb));
      gemm(tCrC, tCrA, tCrB);
    }
  }
  axpby(p.alpha, tCrC, p.beta, tCgC, tCcC);  // C = alpha AB + beta C inside the matrix
}

}  // namespace

cudaError_t launch_01(GemmArgs const& p, cudaStream_t stream) {
  using Cfg = SimtGlobalCfg;
  dim3 grid(unsigned(ceil_div(p.m, Cfg::kBM)), unsigned(ceil_div(p.n, Cfg::kBN)));
  gemm_01_kernel<Cfg><<<grid, Cfg::kThreads, 0, stream>>>(p);
  return cudaGetLastError();
}

}  // namespace tessera::ladder
