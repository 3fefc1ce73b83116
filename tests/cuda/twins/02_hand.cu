// tests/cuda/twins/02_hand.cu -- the hand-indexed twin of kernel 02
// (kernels/gemm/02_simt_cp_async.cu): the kernel as it was before it was written in the vocabulary
// of tessera/device_tensor.hpp (the partitions from the algebra, then index arithmetic on run-time
// strides written by hand). check_twins.py compiles both and compares their k-loops opcode by
// opcode.
#include "hand_common.cuh"

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

// Static partitions of one operand's (rows, BK) tile for its copy.
struct CopyPlan {
  TiledCopy copy;
  Layout thr, frg;  // thread -> offset, value -> offset (CPY, CPY_rows, CPY_K)
  TileCoords crd;
  int64_t vec;      // values per copy instruction
};
TESSERA_HD constexpr CopyPlan make_plan(CopyKind kind, Layout const& tile) {
  TiledCopy c = make_copy(kind);
  Layout thr = copy_thread_offsets(c, tile, false);
  Layout frg = c.partition_S(tile, 0).layout;
  return {c, thr, frg, make_coords(thr, frg, tile.shape[0].value()), c.atom.values()};
}

template <CopyKind kCopyA, CopyKind kCopyB>
struct SimtCpAsyncCfg {
  static constexpr TiledMMA kMma = presets::step1();
  static constexpr int64_t kBM = 128, kBN = 128, kBK = 8;
  static constexpr int kThreads = 256;

  // Shared-memory tiles: column-major (BM,BK):(1,BM) and (BN,BK):(1,BN), as in the tiled GEMM.
  static constexpr Layout kSA = Layout(make_tuple(kBM, kBK));
  static constexpr Layout kSB = Layout(make_tuple(kBN, kBK));

  static constexpr CopyPlan kPlanA = make_plan(kCopyA, kSA);
  static constexpr CopyPlan kPlanB = make_plan(kCopyB, kSB);

  // MMA partitions of the shared tiles and of C.
  static constexpr Layout kTileC = Layout(make_tuple(kBM, kBN));
  static constexpr ThreadPartition kPartC = kMma.partitioner(Operand::kC, kTileC);
  static constexpr ThreadPartition kPartA = kMma.partitioner(Operand::kA, kSA);
  static constexpr ThreadPartition kPartB = kMma.partitioner(Operand::kB, kSB);
  static constexpr Layout kThrC = kPartC.thread, kFrgC = kPartC.fragment;  // (1,(4,2),(4,2))
  static constexpr Layout kThrA = kPartA.thread, kFrgA = kPartA.fragment;  // (1,(4,2),8)
  static constexpr Layout kThrB = kPartB.thread, kFrgB = kPartB.fragment;  // (1,(4,2),8)
  static constexpr TileCoords kCrdC = make_coords(kThrC, kFrgC, kBM);
  static constexpr int kFM = int(kFrgA[1].size()), kFN = int(kFrgB[1].size());
  static constexpr int kFK = int(kFrgA[2].size());

  // The static checks, instantiated by the kernel (see common.cuh, "Static checks").
  __device__ static constexpr void check() {
    static_assert(kMma.threads() == kThreads, "tiled GEMM: the TiledMMA must have 256 threads");
    static_assert(kPlanA.copy.threads() == kThreads && kPlanB.copy.threads() == kThreads,
                  "tiled GEMM: the tiled copies must use all 256 threads");
    static_assert(kPlanA.vec == 1 || contiguous_prefix(kPlanA.frg) >= kPlanA.vec,
                  "tiled GEMM: a vector copy's values must be contiguous in the tile");
    static_assert(kPlanB.vec == 1 || contiguous_prefix(kPlanB.frg) >= kPlanB.vec,
                  "tiled GEMM: a vector copy's values must be contiguous in the tile");
    static_assert(same_offsets(kMma, Operand::kC, kTileC, kThrC) &&
                      same_offsets(kMma, Operand::kA, kSA, kThrA) &&
                      same_offsets(kMma, Operand::kB, kSB, kThrB),
                  "tiled GEMM: thread-offset layouts disagree with TiledMMA::partition_*");
  }
};

// One operand's (rows, BK) tile, global -> shared (tXgX -> tXsX), one cp.async per copy atom;
// elements outside the matrix are zero-filled (partial vectors read only their valid bytes).
template <class Cfg, int kOperand>
__device__ __forceinline__ void copy_g2s(const float* g, int64_t s_r, int64_t s_k, int64_t res_r,
                                         int64_t res_k, float* s) {
  static constexpr CopyPlan kPlan = kOperand == 0 ? Cfg::kPlanA : Cfg::kPlanB;
  static constexpr FlatLayout kThr = flat(kPlan.thr), kFrg = flat(kPlan.frg);
  static constexpr FlatCoords kCrd = flat(kPlan.crd);
  constexpr int64_t kVec = kPlan.vec;
  constexpr int kCopies = int(kPlan.frg.size() / kVec);
  const int64_t t = threadIdx.x;
  const int64_t r0 = kCrd.thr_row(t), k0 = kCrd.thr_col(t);
  float* tXsX = s + kThr(t);  // (CPY, CPY_rows, CPY_K)
#pragma unroll
  for (int c = 0; c < kCopies; ++c) {
    const int64_t v = c * kVec;
    const int64_t r = r0 + kCrd.frg_row(v), k = k0 + kCrd.frg_col(v);
    const float* src = g + r * s_r + k * s_k;
    if constexpr (kVec == 1) {
      const bool valid = r < res_r && k < res_k;
      ptx::cp_async_4(tXsX + kFrg(v), valid ? src : g, valid);
    } else {
      const int64_t n = k < res_k ? min64(max64(res_r - r, 0), kVec) : 0;
      ptx::cp_async_16_partial(tXsX + kFrg(v), n > 0 ? src : g, int(n * 4));
    }
  }
}

template <class Cfg>
__global__ void __launch_bounds__(Cfg::kThreads)
gemm_02_hand(GemmArgs p) {
  Cfg::check();
  static constexpr FlatCoords kCrdC = flat(Cfg::kCrdC);
  static constexpr FlatLayout kThrA = flat(Cfg::kThrA), kFrgA = flat(Cfg::kFrgA);
  static constexpr FlatLayout kThrB = flat(Cfg::kThrB), kFrgB = flat(Cfg::kFrgB);
  constexpr int kFM = Cfg::kFM, kFN = Cfg::kFN, kFK = Cfg::kFK;
  constexpr int64_t kBM = Cfg::kBM, kBN = Cfg::kBN, kBK = Cfg::kBK;

  // Shared memory: sA (BM,BK), sB (BN,BK).
  __shared__ alignas(16) float sA[Cfg::kSA.cosize()];
  __shared__ alignas(16) float sB[Cfg::kSB.cosize()];

  // local_tile: gA (BM,BK,k), gB (BN,BK,k), gC (BM,BN) and their residues.
  const int64_t m0 = int64_t(blockIdx.x) * kBM, n0 = int64_t(blockIdx.y) * kBN;
  const float* gA = p.a + m0 * p.a_sm;
  const float* gB = p.b + n0 * p.b_sn;
  float* gC = p.c + m0 + n0 * p.ldc;
  const int64_t res_m = p.m - m0, res_n = p.n - n0;

  const int64_t t = threadIdx.x;
  const float* tCsA = sA + kThrA(t);  // (V,M,K) = (1,(4,2),8)
  const float* tCsB = sB + kThrB(t);  // (V,N,K) = (1,(4,2),8)

  float tCrC[kFM * kFN];  // (V,M,N)
#pragma unroll
  for (int i = 0; i < kFM * kFN; ++i) tCrC[i] = 0.0f;

  const int64_t k_tiles = ceil_div(p.k, kBK);
  for (int64_t kt = 0; kt < k_tiles; ++kt) {
    const int64_t res_k = p.k - kt * kBK;
    copy_g2s<Cfg, 0>(gA + kt * kBK * p.a_sk, p.a_sm, p.a_sk, res_m, res_k, sA);
    copy_g2s<Cfg, 1>(gB + kt * kBK * p.b_sk, p.b_sn, p.b_sk, res_n, res_k, sB);
    ptx::cp_async_commit();
    ptx::cp_async_wait<0>();
    __syncthreads();

    // gemm(tCrC, tCsA, tCsB): per k-block, 8 A and 8 B values from shared memory, 64 FMAs.
#pragma unroll
    for (int kb = 0; kb < kFK; ++kb) {
      float tCrA[kFM], tCrB[kFN];
#pragma unroll
      for (int i = 0; i < kFM; ++i) tCrA[i] = tCsA[kFrgA(i + kFM * kb)];
#pragma unroll
      for (int i = 0; i < kFN; ++i) tCrB[i] = tCsB[kFrgB(i + kFN * kb)];
#pragma unroll
      for (int n = 0; n < kFN; ++n)
#pragma unroll
        for (int m = 0; m < kFM; ++m)
          tCrC[m + kFM * n] = fmaf(tCrA[m], tCrB[n], tCrC[m + kFM * n]);
    }
    __syncthreads();
  }

  store_c(tCrC, kCrdC, kCrdC.thr_row(t), kCrdC.thr_col(t), res_m, res_n, gC, p.ldc, p.alpha,
          p.beta);
}

template <CopyKind kA, CopyKind kB>
cudaError_t launch(GemmArgs const& p, cudaStream_t stream) {
  using Cfg = SimtCpAsyncCfg<kA, kB>;
  dim3 grid(unsigned(ceil_div(p.m, Cfg::kBM)), unsigned(ceil_div(p.n, Cfg::kBN)));
  gemm_02_hand<Cfg><<<grid, Cfg::kThreads, 0, stream>>>(p);
  return cudaGetLastError();
}

}  // namespace

// A: threads along its contiguous dimension. B: 16-byte vectors when n-contiguous and 16-byte
// aligned (pointer and ldb), else one element per thread along K.
cudaError_t launch_02_hand(GemmArgs const& p, cudaStream_t stream) {
  const bool a_mn = p.a_sm == 1 && p.a_sk != 1;
  const bool b_vec = p.b_sn == 1 && p.b_sk % 4 == 0 && reinterpret_cast<uintptr_t>(p.b) % 16 == 0;
  if (a_mn) return b_vec ? launch<CopyKind::kScalarMN, CopyKind::kVectorMN>(p, stream)
                         : launch<CopyKind::kScalarMN, CopyKind::kScalarK>(p, stream);
  return b_vec ? launch<CopyKind::kScalarK, CopyKind::kVectorMN>(p, stream)
               : launch<CopyKind::kScalarK, CopyKind::kScalarK>(p, stream);
}

}  // namespace tessera::ladder
