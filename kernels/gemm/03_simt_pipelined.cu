// kernels/gemm/03_simt_pipelined.cu -- ladder step 03: fast fp32 SIMT GEMM for Hopper.
//
// What it adds to 02 (each a layout decision, made once in the config below):
//   - a kStages-deep cp.async pipeline: tile kt+kStages-1 is in flight while tile kt is used;
//   - warp tiling: the atom layout ((4,4),(8,2),1):((1,32),(4,128),0) puts a warp's 32 threads
//     on a 4x8 grid of atoms (lane = m0 + 4*n0), so a warp covers 32x64 of C and its shared
//     loads touch 4 (A) and 8 (B) distinct 16-byte vectors: one wavefront each;
//   - 128-bit shared loads: the permutation (16,4):(4,1) gives every thread runs of 4
//     consecutive rows (columns), contiguous in the MN-major shared tiles (checked statically);
//   - conflict-free shared stores: tiles are (BM,BK):(1,BM+4), padded by one 16-byte vector per
//     k-row so that the transposing 4-byte copies of a k-contiguous operand hit 32 banks;
//   - L2-friendly block order: CTAs walk the C tiles in groups of kGroupM tile-rows;
//   - a 128-bit epilogue where C's rows are 16-byte aligned.
#include "common.cuh"

namespace tessera::gemm {
namespace {

// How one operand tile travels global -> shared: 16-byte vectors along MN (MN-contiguous,
// aligned), or one 4-byte element per copy with threads along K (k-contiguous: the copy
// transposes into the MN-major shared tile).
enum class CopyKind { kScalarK, kVectorMN };

struct CopyPlan {
  Layout src_thr, src_frg;  // over the compact (rows, BK) tile: coordinates in global memory
  TileCoords crd;
  Layout dst_thr, dst_frg;  // over the padded shared tile
  int64_t vec;
};

// 256 threads: vectors as (32,8):(1,32) x (4,1) (a warp reads 512 contiguous bytes of one
// k-row); scalars as (256/BK, BK):(BK,1) (a warp reads 32/BK rows of BK contiguous floats).
TESSERA_HD constexpr CopyPlan make_plan(CopyKind kind, Layout const& tile, Layout const& smem) {
  const int64_t bk = tile.shape[1].value();
  TiledCopy c = kind == CopyKind::kVectorMN
                    ? make_tiled_copy_tv(atom::cp_async(16, 32), parse_layout("(32,8):(1,32)"),
                                         parse_layout("(4,1):(1,0)"))
                    : make_tiled_copy_tv(atom::cp_async(4, 32),
                                         Layout(make_tuple(256 / bk, bk), make_tuple(bk, 1)),
                                         parse_layout("(1,1):(0,0)"));
  if (tile.shape[0].value() % c.tiler[0].value() != 0 || bk % c.tiler[1].value() != 0) {
    Text t;
    t << "simt: the copy tile " << c.tiler << " does not divide the operand tile " << tile.shape;
    fail(t);
  }
  Layout thr = copy_thread_offsets(c, tile, false);
  Layout frg = c.partition_S(tile, 0).layout;
  return {thr, frg, make_coords(thr, frg, tile.shape[0].value()),
          copy_thread_offsets(c, smem, true), c.partition_D(smem, 0).layout, c.atom.values()};
}

// The tile shape: CTA tile (BM,BN,BK), pipeline depth, CTAs per SM the registers are cut for.
template <int BM, int BN, int BK, int Stages, int MinBlocks>
struct Shape {
  static constexpr int64_t kBM = BM, kBN = BN, kBK = BK;
  static constexpr int kStages = Stages, kMinBlocks = MinBlocks;
};
using DefaultShape = Shape<128, 128, 16, 4, 2>;

template <CopyKind kCopyA, CopyKind kCopyB, class S = DefaultShape>
struct SimtHopper {
  static constexpr int64_t kBM = S::kBM, kBN = S::kBN, kBK = S::kBK;
  static constexpr int kStages = S::kStages;
  static constexpr int kThreads = 256;
  static constexpr int kMinBlocks = S::kMinBlocks;
  static constexpr int64_t kGroupM = 8;  // CTA tile-rows per L2 group
  static constexpr int64_t kPad = 4;     // floats added to each k-row of a shared tile

  static constexpr TiledMMA kMma =
      make_tiled_mma(atom::universal_fma(), parse_layout("((4,4),(8,2),1):((1,32),(4,128),0)"),
                     make_tile(parse_layout("(16,4):(4,1)"), parse_layout("(16,4):(4,1)"), _));

  // Shared tiles, one stage each: MN-major, k-rows padded.
  static constexpr Layout kSA = Layout(make_tuple(kBM, kBK), make_tuple(1, kBM + kPad));
  static constexpr Layout kSB = Layout(make_tuple(kBN, kBK), make_tuple(1, kBN + kPad));
  static constexpr int64_t kStageA = kSA.cosize() + kPad, kStageB = kSB.cosize() + kPad;
  static constexpr int64_t kSmemBytes = kStages * (kStageA + kStageB) * 4;

  static constexpr CopyPlan kPlanA = make_plan(kCopyA, Layout(make_tuple(kBM, kBK)), kSA);
  static constexpr CopyPlan kPlanB = make_plan(kCopyB, Layout(make_tuple(kBN, kBK)), kSB);

  // MMA partitions: of the shared tiles (fragments read with 128-bit loads) and of C.
  static constexpr Layout kTileC = Layout(make_tuple(kBM, kBN));
  static constexpr ThreadPartition kPartA = kMma.partitioner(Operand::kA, kSA);
  static constexpr ThreadPartition kPartB = kMma.partitioner(Operand::kB, kSB);
  static constexpr ThreadPartition kPartC = kMma.partitioner(Operand::kC, kTileC);
  static constexpr Layout kThrA = kPartA.thread, kFrgA = kPartA.fragment;  // (1,(4,2),BK)
  static constexpr Layout kThrB = kPartB.thread, kFrgB = kPartB.fragment;  // (1,(4,2),BK)
  static constexpr Layout kThrC = kPartC.thread, kFrgC = kPartC.fragment;
  static constexpr TileCoords kCrdC = make_coords(kThrC, kFrgC, kBM);
  static constexpr int kFM = int(kFrgA[1].size()), kFN = int(kFrgB[1].size());
  static constexpr int kVec = 4;  // floats per shared-memory load

  // The static checks, instantiated by the kernel (see common.cuh, "Static checks").
  __device__ static constexpr void check() {
    static_assert(kMma.threads() == kThreads, "simt: the TiledMMA must have 256 threads");
    static_assert(kStageA % 4 == 0 && kStageB % 4 == 0 && (kBM + kPad) % 4 == 0,
                  "simt: every shared k-row must start on a 16-byte boundary");
    static_assert(contiguous_prefix(kPlanA.src_frg) >= kPlanA.vec &&
                      contiguous_prefix(kPlanA.dst_frg) >= kPlanA.vec &&
                      contiguous_prefix(kPlanB.src_frg) >= kPlanB.vec &&
                      contiguous_prefix(kPlanB.dst_frg) >= kPlanB.vec,
                  "simt: a vector copy's values must be contiguous in global and shared memory");
    static_assert(same_offsets(kMma, Operand::kA, kSA, kThrA) &&
                      same_offsets(kMma, Operand::kB, kSB, kThrB) &&
                      same_offsets(kMma, Operand::kC, kTileC, kThrC),
                  "simt: thread-offset layouts disagree with TiledMMA::partition_*");
    static_assert(contiguous_prefix(kFrgA) >= kVec && contiguous_prefix(kFrgB) >= kVec &&
                      contiguous_prefix(kFrgC) >= kVec && kFM % kVec == 0 && kFN % kVec == 0,
                  "simt: fragments must come in runs of 4 consecutive rows / columns");
    static_assert(kFrgA[2].size() == kBK, "simt: the A fragment must span the k-tile");
  }
};

// One operand's (rows, BK) tiles, global -> shared stages (tXgX -> tXsX), zero-filled outside
// the matrix. The per-copy sources and row predicates are computed once; each k-tile then costs
// one pointer step per copy and one k comparison.
template <class Cfg, int kOperand>
struct GmemToSmem {
  static constexpr int kCopies = int((kOperand == 0 ? Cfg::kPlanA : Cfg::kPlanB).src_frg.size() /
                                     (kOperand == 0 ? Cfg::kPlanA : Cfg::kPlanB).vec);
  const float* src[kCopies];
  int bytes[kCopies];     // valid bytes of each copy's row run (0 outside the matrix)
  int64_t k_of[kCopies];  // k coordinate of each copy inside the tile
  int64_t step;           // one k-tile, in elements

  __device__ __forceinline__ GmemToSmem(const float* g, int64_t s_r, int64_t s_k, int64_t res_r) {
    static constexpr FlatCoords kCrd = flat((kOperand == 0 ? Cfg::kPlanA : Cfg::kPlanB).crd);
    constexpr int64_t kVec = (kOperand == 0 ? Cfg::kPlanA : Cfg::kPlanB).vec;
    const int64_t t = threadIdx.x;
    const int64_t r0 = kCrd.thr_row(t), k0 = kCrd.thr_col(t);
#pragma unroll
    for (int c = 0; c < kCopies; ++c) {
      const int64_t v = c * kVec;
      const int64_t r = r0 + kCrd.frg_row(v), k = k0 + kCrd.frg_col(v);
      src[c] = g + r * s_r + k * s_k;
      bytes[c] = int(min64(max64(res_r - r, 0), kVec) * 4);
      k_of[c] = k;
    }
    step = Cfg::kBK * s_k;
  }

  // Copies k-tile kt (res_k = K - kt*BK rows of K left) into `stage`.
  __device__ __forceinline__ void copy(int64_t kt, int64_t res_k, float* stage) const {
    static constexpr CopyPlan kPlan = kOperand == 0 ? Cfg::kPlanA : Cfg::kPlanB;
    static constexpr FlatLayout kDstThr = flat(kPlan.dst_thr), kDstFrg = flat(kPlan.dst_frg);
    float* tXsX = stage + kDstThr(int64_t(threadIdx.x));  // (CPY, CPY_rows, CPY_K)
    const int64_t offset = kt * step;
#pragma unroll
    for (int c = 0; c < kCopies; ++c) {
      const int n = k_of[c] < res_k ? bytes[c] : 0;
      const float* p = n > 0 ? src[c] + offset : src[c];
      if constexpr (kPlan.vec == 1) ptx::cp_async_4(tXsX + kDstFrg(c), p, n > 0);
      else ptx::cp_async_16_partial(tXsX + kDstFrg(c * kPlan.vec), p, n);
    }
  }
};

template <class Cfg>
__global__ void __launch_bounds__(Cfg::kThreads, Cfg::kMinBlocks)
gemm_03_kernel(GemmArgs p) {
  Cfg::check();
  static constexpr FlatLayout kThrA = flat(Cfg::kThrA), kFrgA = flat(Cfg::kFrgA);
  static constexpr FlatLayout kThrB = flat(Cfg::kThrB), kFrgB = flat(Cfg::kFrgB);
  static constexpr FlatCoords kCrdC = flat(Cfg::kCrdC);
  constexpr int kFM = Cfg::kFM, kFN = Cfg::kFN, kVec = Cfg::kVec, kStages = Cfg::kStages;
  constexpr int64_t kBM = Cfg::kBM, kBN = Cfg::kBN, kBK = Cfg::kBK;

  // Shared memory: kStages x sA (BM,BK), then kStages x sB (BN,BK).
  extern __shared__ float4 smem_raw[];
  float* sA = reinterpret_cast<float*>(smem_raw);
  float* sB = sA + kStages * Cfg::kStageA;

  // Block order: groups of kGroupM tile-rows, column by column inside a group (L2 reuse).
  const int64_t tiles_m = ceil_div(p.m, kBM), tiles_n = ceil_div(p.n, kBN);
  const auto [tile_m, tile_n] = grouped_tile(blockIdx.x, tiles_m, tiles_n, Cfg::kGroupM);

  // local_tile: gA (BM,BK,k), gB (BN,BK,k), gC (BM,BN) and their residues.
  const int64_t m0 = tile_m * kBM, n0 = tile_n * kBN;
  const float* gA = p.a + m0 * p.a_sm;
  const float* gB = p.b + n0 * p.b_sn;
  float* gC = p.c + m0 + n0 * p.ldc;
  const int64_t res_m = p.m - m0, res_n = p.n - n0;
  const int64_t k_tiles = ceil_div(p.k, kBK);

  const GmemToSmem<Cfg, 0> tAgA(gA, p.a_sm, p.a_sk, res_m);  // (CPY, CPY_M, CPY_K, k)
  const GmemToSmem<Cfg, 1> tBgB(gB, p.b_sn, p.b_sk, res_n);  // (CPY, CPY_N, CPY_K, k)
  auto load_tile = [&](int64_t kt, int stage) {
    const int64_t res_k = p.k - kt * kBK;
    tAgA.copy(kt, res_k, sA + stage * Cfg::kStageA);
    tBgB.copy(kt, res_k, sB + stage * Cfg::kStageB);
  };

  // Producer prologue: kStages-1 tiles in flight (a group is committed even when empty, so
  // that wait<kStages-2> always means "tile kt has landed").
#pragma unroll
  for (int s = 0; s < kStages - 1; ++s) {
    if (s < k_tiles) load_tile(s, s);
    ptx::cp_async_commit();
  }

  const int64_t t = threadIdx.x;
  float tCrC[kFM * kFN];  // (V,M,N) accumulators
#pragma unroll
  for (int i = 0; i < kFM * kFN; ++i) tCrC[i] = 0.0f;

  for (int64_t kt = 0; kt < k_tiles; ++kt) {
    ptx::cp_async_wait<kStages - 2>();
    __syncthreads();  // tile kt visible to all; stage (kt-1) % kStages free again
    {
      const int64_t next = kt + kStages - 1;
      if (next < k_tiles) load_tile(next, int(next % kStages));
      ptx::cp_async_commit();
    }

    const int stage = int(kt % kStages);
    const float* tCsA = sA + stage * Cfg::kStageA + kThrA(t);  // (V,M,K) = (1,(4,2),BK)
    const float* tCsB = sB + stage * Cfg::kStageB + kThrB(t);  // (V,N,K) = (1,(4,2),BK)
#pragma unroll
    for (int kb = 0; kb < kBK; ++kb) {
      // tCsA(:,:,kb) -> tCrA, tCsB(:,:,kb) -> tCrB with 128-bit loads, then 8x8 FMAs.
      float tCrA[kFM], tCrB[kFN];
#pragma unroll
      for (int i = 0; i < kFM; i += kVec)
        *reinterpret_cast<float4*>(&tCrA[i]) =
            *reinterpret_cast<const float4*>(tCsA + kFrgA(i + kFM * kb));
#pragma unroll
      for (int i = 0; i < kFN; i += kVec)
        *reinterpret_cast<float4*>(&tCrB[i]) =
            *reinterpret_cast<const float4*>(tCsB + kFrgB(i + kFN * kb));
#pragma unroll
      for (int n = 0; n < kFN; ++n)
#pragma unroll
        for (int m = 0; m < kFM; ++m)
          tCrC[m + kFM * n] = fmaf(tCrA[m], tCrB[n], tCrC[m + kFM * n]);
    }
  }
  ptx::cp_async_wait<0>();

  // Epilogue: tCgC = partition_C(gC). Runs of 4 rows go out as one 16-byte store when C's
  // columns are 16-byte aligned and the run is inside the matrix; else per element.
  const int64_t thr_m = kCrdC.thr_row(t), thr_n = kCrdC.thr_col(t);
  const bool c_vec = p.ldc % 4 == 0 && reinterpret_cast<uintptr_t>(p.c) % 16 == 0;
  if (c_vec && res_m >= kBM && res_n >= kBN) {
    // NOTE: a loop over groups of kGroup values, the rest moving down after each, as in store_c
    // (common.cuh): unrolled, the 16 read-modify-write vectors doubled the kernel's compile time.
    constexpr int kValues = kFM * kFN, kGroup = 16;
    float a[kValues];
#pragma unroll
    for (int v = 0; v < kValues; ++v) a[v] = tCrC[v];
#pragma unroll 1
    for (int v0 = 0; v0 < kValues; v0 += kGroup) {
#pragma unroll
      for (int i = 0; i < kGroup; i += kVec) {
        float4* out = reinterpret_cast<float4*>(gC + (thr_m + kCrdC.frg_row(v0 + i)) +
                                                (thr_n + kCrdC.frg_col(v0 + i)) * p.ldc);
        float4 r = {p.alpha * a[i], p.alpha * a[i + 1], p.alpha * a[i + 2], p.alpha * a[i + 3]};
        if (p.beta != 0.0f) {
          float4 old = *out;
          r.x += p.beta * old.x, r.y += p.beta * old.y, r.z += p.beta * old.z, r.w += p.beta * old.w;
        }
        *out = r;
      }
#pragma unroll
      for (int i = 0; i + kGroup < kValues; ++i) a[i] = a[i + kGroup];
    }
  } else {
    store_c(tCrC, kCrdC, thr_m, thr_n, res_m, res_n, gC, p.ldc, p.alpha, p.beta);
  }
}

template <CopyKind kA, CopyKind kB, class S = DefaultShape>
cudaError_t launch(GemmArgs const& p, cudaStream_t stream) {
  using Cfg = SimtHopper<kA, kB, S>;
  auto kernel = gemm_03_kernel<Cfg>;
  cudaError_t e = cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                       int(Cfg::kSmemBytes));
  if (e != cudaSuccess) return e;
  const int64_t blocks = ceil_div(p.m, Cfg::kBM) * ceil_div(p.n, Cfg::kBN);
  kernel<<<unsigned(blocks), Cfg::kThreads, size_t(Cfg::kSmemBytes), stream>>>(p);
  return cudaGetLastError();
}

// 16-byte vectors need an MN-contiguous operand whose pointer and leading dimension are
// 16-byte aligned; anything else takes the 4-byte, k-ordered copy.
bool vector_ok(const void* ptr, int64_t s_mn, int64_t s_k) {
  return s_mn == 1 && s_k % 4 == 0 && reinterpret_cast<uintptr_t>(ptr) % 16 == 0;
}

}  // namespace

cudaError_t launch_03(GemmArgs const& p, cudaStream_t stream) {
  const bool a_vec = vector_ok(p.a, p.a_sm, p.a_sk), b_vec = vector_ok(p.b, p.b_sn, p.b_sk);
  using K = CopyKind;
  if (a_vec) return b_vec ? launch<K::kVectorMN, K::kVectorMN>(p, stream)
                          : launch<K::kVectorMN, K::kScalarK>(p, stream);
  // NOTE: with both operands k-contiguous (16 scalar copies per k-tile) the 128-register cut of
  // two CTAs per SM spills; that combination keeps one CTA per SM.
  return b_vec ? launch<K::kScalarK, K::kVectorMN>(p, stream)
               : launch<K::kScalarK, K::kScalarK, Shape<128, 128, 16, 4, 1>>(p, stream);
}

}  // namespace tessera::gemm
