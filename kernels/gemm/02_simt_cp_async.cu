// kernels/gemm/02_simt_cp_async.cu -- ladder step 02: the predicated tiled GEMM with cp.async.
//
// The CTA tile (128,128,8) is staged through shared memory: two TiledCopies move A's (128,8) and
// B's (128,8) tiles from global to shared memory with cp.async (A one 4-byte element per thread,
// threads k-major; B four floats per thread, 16-byte vectors along N), every residue predicated
// by identity-tensor coordinates (out-of-matrix elements are zero-filled, so any M, N, K works).
// The same TiledMMA as 01 (presets::step1) then reads its fragments from shared memory.
//
// New idea here: TiledCopy (make_tiled_copy_tv, partition_S/D) and shared-memory tiles, in the
// vocabulary of tessera/device_tensor.hpp (copy with the cp.async atom, zero-filled by
// identity-tensor predicates).
//
// The copies follow the operand's contiguous dimension: the tiled GEMM's A is k-contiguous and its
// B n-contiguous (BLAS "TT"). A k-contiguous B (BLAS 'N') cannot use 16-byte vectors into the
// n-contiguous shared tile, and an m-contiguous A is read with threads along M; both are
// selected at run time by the launcher (four instantiations).
#include <tessera/device_tensor.hpp>

#include "common.cuh"

namespace tessera::ladder {
namespace {

// How one operand tile travels global -> shared.
enum class CopyKind { kScalarK, kScalarMN, kVectorMN };

TESSERA_HD constexpr TiledCopy make_copy(CopyKind kind) {
  switch (kind) {
    case CopyKind::kScalarK:  // the tiled GEMM's A: thread t at (t/8, t%8), neighbours along K
      return make_tiled_copy_tv(atom::cp_async(4, 32), parse_layout("(32,8):(8,1)"),
                                parse_layout("(1,1):(0,0)"));
    case CopyKind::kScalarMN:  // adjacent threads along M (or N)
      return make_tiled_copy_tv(atom::cp_async(4, 32), parse_layout("(128,2):(1,128)"),
                                parse_layout("(1,1):(0,0)"));
    default:  // the tiled GEMM's B: 4 consecutive n per thread, (32,8):(1,32) threads
      return make_tiled_copy_tv(atom::cp_async(16, 32), parse_layout("(32,8):(1,32)"),
                                parse_layout("(4,1):(1,0)"));
  }
}

// An operand's strides (s_mn, s_k): the 16-byte copy's M (or N) stride is the static unit (the
// launcher takes it only where that stride is 1; copy rejects vectors along a run-time stride).
template <CopyKind kKind>
TESSERA_HD auto operand_strides(int64_t s_mn, int64_t s_k) {
  if constexpr (kKind == CopyKind::kVectorMN) return make_stride(unit, s_k);
  else return make_stride(s_mn, s_k);
}

template <CopyKind kCopyA, CopyKind kCopyB>
struct SimtCpAsyncCfg {
  static constexpr CopyKind kKindA = kCopyA, kKindB = kCopyB;
  static constexpr TiledMMA kMma = presets::step1();
  static constexpr int64_t kBM = 128, kBN = 128, kBK = 8;
  static constexpr Coord<3> kCta = {{kBM, kBN, kBK}};
  static constexpr int kThreads = 256;

  // Shared-memory tiles: column-major (BM,BK):(1,BM) and (BN,BK):(1,BN), as in the tiled GEMM.
  static constexpr Layout kSA = Layout(make_tuple(kBM, kBK));
  static constexpr Layout kSB = Layout(make_tuple(kBN, kBK));
  struct CopyA {
    static constexpr TiledCopy kCopy = make_copy(kCopyA);
  };
  struct CopyB {
    static constexpr TiledCopy kCopy = make_copy(kCopyB);
  };

  // The static checks, instantiated by the kernel (see common.cuh, "Static checks").
  __device__ static constexpr void check() {
    static_assert(kMma.threads() == kThreads, "tiled GEMM: the TiledMMA must have 256 threads");
    static_assert(CopyA::kCopy.threads() == kThreads && CopyB::kCopy.threads() == kThreads,
                  "tiled GEMM: the tiled copies must use all 256 threads");
    static_assert(
        contiguous_prefix(CopyA::kCopy.partition_D(kSA, 0).layout) >= CopyA::kCopy.atom.values() &&
            contiguous_prefix(CopyB::kCopy.partition_D(kSB, 0).layout) >=
                CopyB::kCopy.atom.values(),
        "tiled GEMM: a vector copy's values must be contiguous in shared memory");
  }
};

template <class Cfg>
__global__ void __launch_bounds__(Cfg::kThreads)
gemm_02_kernel(GemmArgs p) {
  Cfg::check();
  static constexpr Coord<3> kCta = Cfg::kCta;  // (BM,BN,BK)

  // The problem, any strides: A (M,K), B (N,K), C (M,N) column-major; and their coordinates.
  auto mA = make_tensor(p.a, make_shape(p.m, p.k),
                        operand_strides<Cfg::kKindA>(p.a_sm, p.a_sk));                // (M,K)
  auto mB = make_tensor(p.b, make_shape(p.n, p.k),
                        operand_strides<Cfg::kKindB>(p.b_sn, p.b_sk));                // (N,K)
  auto mC = make_tensor(p.c, make_shape(p.m, p.n), make_stride(unit, p.ldc));  // (M,N)
  auto cA = make_identity_tensor(mA.shape), cB = make_identity_tensor(mB.shape),
       cC = make_identity_tensor(mC.shape);

  // This CTA's tiles; `_` keeps the K mode: gA.at(k) is k-tile k.
  const int64_t bm = blockIdx.x, bn = blockIdx.y;
  auto gA = local_tile<kCta, Proj{1, 0, 1}>(mA, bm, bn, _);  // (BM,BK)
  auto gB = local_tile<kCta, Proj{0, 1, 1}>(mB, bm, bn, _);  // (BN,BK)
  auto gC = local_tile<kCta, Proj{1, 1, 0}>(mC, bm, bn, _);  // (BM,BN)

  // Shared memory: sA (BM,BK), sB (BN,BK).
  __shared__ alignas(16) float smem_a[Cfg::kSA.cosize()];
  __shared__ alignas(16) float smem_b[Cfg::kSB.cosize()];
  auto sA = make_tensor<Cfg::kSA>(smem_a);  // (BM,BK)
  auto sB = make_tensor<Cfg::kSB>(smem_b);  // (BN,BK)

  // The copies global -> shared: this thread's source, destination and predicates.
  const ThrCopy<typename Cfg::CopyA> thr_copy_a{threadIdx.x};
  const ThrCopy<typename Cfg::CopyB> thr_copy_b{threadIdx.x};
  auto tAgA = thr_copy_a.partition_S(gA);  // (CPY,CPY_M,CPY_K)
  auto tAsA = thr_copy_a.partition_D(sA);
  auto tAcA = thr_copy_a.partition_S(local_tile<kCta, Proj{1, 0, 1}>(cA, bm, bn, _));
  auto tBgB = thr_copy_b.partition_S(gB);  // (CPY,CPY_N,CPY_K)
  auto tBsB = thr_copy_b.partition_D(sB);
  auto tBcB = thr_copy_b.partition_S(local_tile<kCta, Proj{0, 1, 1}>(cB, bm, bn, _));

  // The MMA: this thread's share of the shared tiles and of C.
  const ThrMMA<Cfg> thr_mma{threadIdx.x};
  auto tCsA = thr_mma.partition_A(sA);  // (V,M,K) = (1,(4,2),8)
  auto tCsB = thr_mma.partition_B(sB);  // (V,N,K) = (1,(4,2),8)
  auto tCgC = thr_mma.partition_C(gC);  // (V,M,N)
  auto tCcC = thr_mma.partition_C(local_tile<kCta, Proj{1, 1, 0}>(cC, bm, bn, _));

  auto tCrC = make_fragment_like<float>(tCgC);  // (V,M,N) accumulators
#pragma unroll
  for (int i = 0; i < tCrC.size(); ++i) tCrC(i) = 0.0f;

  constexpr int kFK = int(decltype(tCsA)::kLayout[2].size());
  // The views step one k-tile per iteration (tXgX.at(1): a pointer increment, where .at(kt) would
  // multiply kt by the k-stride in every iteration).
  const int64_t k_tiles = ceil_div(p.k, kCta[2]);
  for (int64_t kt = 0; kt < k_tiles; ++kt) {
    copy(thr_copy_a, tAgA, tAsA, tAcA);  // k-tile kt, zero-filled outside A
    copy(thr_copy_b, tBgB, tBsB, tBcB);
    tAgA = tAgA.at(1), tAcA = tAcA.at(1), tBgB = tBgB.at(1), tBcB = tBcB.at(1);
    ptx::cp_async_commit();
    ptx::cp_async_wait<0>();
    __syncthreads();

    // gemm(tCrC, tCsA, tCsB): per k-block, 8 A and 8 B values from shared memory, 64 FMAs.
#pragma unroll
    for (int kb = 0; kb < kFK; ++kb) {
      auto tCrA = make_fragment_like<float>(tCsA(_, _, kb));  // (V,M)
      auto tCrB = make_fragment_like<float>(tCsB(_, _, kb));  // (V,N)
      copy(tCsA(_, _, kb), tCrA);
      copy(tCsB(_, _, kb), tCrB);
      gemm(tCrC, tCrA, tCrB);
    }
    __syncthreads();
  }
  axpby(p.alpha, tCrC, p.beta, tCgC, tCcC);  // C = alpha AB + beta C inside the matrix
}

template <CopyKind kA, CopyKind kB>
cudaError_t launch(GemmArgs const& p, cudaStream_t stream) {
  using Cfg = SimtCpAsyncCfg<kA, kB>;
  dim3 grid(unsigned(ceil_div(p.m, Cfg::kBM)), unsigned(ceil_div(p.n, Cfg::kBN)));
  gemm_02_kernel<Cfg><<<grid, Cfg::kThreads, 0, stream>>>(p);
  return cudaGetLastError();
}

}  // namespace

// A: threads along its contiguous dimension. B: 16-byte vectors when n-contiguous and 16-byte
// aligned (pointer and ldb), else one element per thread along K.
cudaError_t launch_02(GemmArgs const& p, cudaStream_t stream) {
  const bool a_mn = p.a_sm == 1 && p.a_sk != 1;
  const bool b_vec = p.b_sn == 1 && p.b_sk % 4 == 0 && reinterpret_cast<uintptr_t>(p.b) % 16 == 0;
  if (a_mn) return b_vec ? launch<CopyKind::kScalarMN, CopyKind::kVectorMN>(p, stream)
                         : launch<CopyKind::kScalarMN, CopyKind::kScalarK>(p, stream);
  return b_vec ? launch<CopyKind::kScalarK, CopyKind::kVectorMN>(p, stream)
               : launch<CopyKind::kScalarK, CopyKind::kScalarK>(p, stream);
}

}  // namespace tessera::ladder
