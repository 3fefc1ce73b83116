// tests/cuda/twins/01_hand.cu -- the hand-indexed twin of kernel 01
// (kernels/gemm/01_simt_global.cu): the kernel as it was before it was written in the vocabulary of
// tessera/device_tensor.hpp (the partitions from the algebra, then index arithmetic on run-time
// strides written by hand). check_twins.py compiles both and compares their k-loops opcode by
// opcode.
#include "hand_common.cuh"

namespace tessera::ladder {
namespace {

struct SimtGlobalCfg {
  static constexpr TiledMMA kMma = presets::step1();
  static constexpr int64_t kBM = 128, kBN = 128, kBK = 8;
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

  static constexpr TileCoords kCrdC = make_coords(kThrC, kFrgC, kBM);
  static constexpr TileCoords kCrdA = make_coords(kThrA, kFrgA, kBM);
  static constexpr TileCoords kCrdB = make_coords(kThrB, kFrgB, kBN);

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
gemm_01_hand(GemmArgs p) {
  Cfg::check();
  static constexpr FlatCoords kCrdC = flat(Cfg::kCrdC), kCrdA = flat(Cfg::kCrdA),
                              kCrdB = flat(Cfg::kCrdB);
  constexpr int kFM = Cfg::kFM, kFN = Cfg::kFN, kFK = Cfg::kFK;
  constexpr int64_t kBM = Cfg::kBM, kBN = Cfg::kBN, kBK = Cfg::kBK;

  // local_tile: this CTA's (BM,BK,k) slab of A, (BN,BK,k) of B, (BM,BN) of C.
  const int64_t m0 = int64_t(blockIdx.x) * kBM, n0 = int64_t(blockIdx.y) * kBN;
  const float* gA = p.a + m0 * p.a_sm;  // (BM,BK,k)
  const float* gB = p.b + n0 * p.b_sn;  // (BN,BK,k)
  float* gC = p.c + m0 + n0 * p.ldc;    // (BM,BN)
  const int64_t res_m = p.m - m0, res_n = p.n - n0;  // identity-tensor residues

  const int64_t t = threadIdx.x;
  const int64_t a_m = kCrdA.thr_row(t), a_k = kCrdA.thr_col(t);
  const int64_t b_n = kCrdB.thr_row(t), b_k = kCrdB.thr_col(t);

  float tCrC[kFM * kFN];  // (V,M,N) accumulators
#pragma unroll
  for (int i = 0; i < kFM * kFN; ++i) tCrC[i] = 0.0f;

  const int64_t k_tiles = ceil_div(p.k, kBK);
  for (int64_t kt = 0; kt < k_tiles; ++kt) {
    const int64_t res_k = p.k - kt * kBK;
    // tCgA(:,:,kb) -> tCrA, tCgB(:,:,kb) -> tCrB: (V,M) and (V,N) of k-block kb, zero outside
    // the matrix; then gemm(tCrC, tCrA, tCrB): 8x8 scalar FMAs.
    // NOTE: the thread trace copies the whole k-tile (64 + 64 values) before its 8 k-blocks; with
    // the 64 accumulators that needs > 255 registers and spills, so each k-block is copied just
    // before it is used (same loads, same FMAs, same order within a k-block).
    const float* gA_k = gA + kt * kBK * p.a_sk;
    const float* gB_k = gB + kt * kBK * p.b_sk;
#pragma unroll
    for (int kb = 0; kb < kFK; ++kb) {
      float tCrA[kFM], tCrB[kFN];
#pragma unroll
      for (int i = 0; i < kFM; ++i) {
        int v = i + kFM * kb;
        int64_t m = a_m + kCrdA.frg_row(v), k = a_k + kCrdA.frg_col(v);
        tCrA[i] = (m < res_m && k < res_k) ? gA_k[k * p.a_sk + m * p.a_sm] : 0.0f;
      }
#pragma unroll
      for (int i = 0; i < kFN; ++i) {
        int v = i + kFN * kb;
        int64_t n = b_n + kCrdB.frg_row(v), k = b_k + kCrdB.frg_col(v);
        tCrB[i] = (n < res_n && k < res_k) ? gB_k[k * p.b_sk + n * p.b_sn] : 0.0f;
      }
#pragma unroll
      for (int n = 0; n < kFN; ++n)
#pragma unroll
        for (int m = 0; m < kFM; ++m)
          tCrC[m + kFM * n] = fmaf(tCrA[m], tCrB[n], tCrC[m + kFM * n]);
    }
  }

  // Epilogue: tCgC = partition_C(gC), predicated by the identity tensor.
  store_c(tCrC, kCrdC, kCrdC.thr_row(t), kCrdC.thr_col(t), res_m, res_n, gC, p.ldc, p.alpha,
          p.beta);
}

}  // namespace

cudaError_t launch_01_hand(GemmArgs const& p, cudaStream_t stream) {
  using Cfg = SimtGlobalCfg;
  dim3 grid(unsigned(ceil_div(p.m, Cfg::kBM)), unsigned(ceil_div(p.n, Cfg::kBN)));
  gemm_01_hand<Cfg><<<grid, Cfg::kThreads, 0, stream>>>(p);
  return cudaGetLastError();
}

}  // namespace tessera::ladder
