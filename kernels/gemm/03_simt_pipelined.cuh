// kernels/gemm/03_simt_pipelined.cuh -- ladder step 03: fast fp32 SIMT GEMM for Hopper.
//
// One C tile width per translation unit: 03_simt_pipelined.cu (128 x 128, and the entry point
// launch_03_run, which runs the plan's tile: simt_tile, plan.cpp), 03_simt_pipelined_n64.cu
// (128 x 64, for problems with 33-64 rows or columns) and 03_simt_pipelined_n32.cu (128 x 32, at
// most 32).
//
// What it adds to 02 (each a layout decision, made once in the config below):
//   - a kStages-deep cp.async pipeline: tile kt+kStages-1 is in flight while tile kt is used;
//     CTA tile 128x128x32, 3 stages, 2 CTAs (16 warps) per SM at 128 registers;
//   - warp tiling: the atom layout ((4,4),(8,2),1):((1,32),(4,128),0) puts a warp's 32 threads
//     on a 4x8 grid of atoms (lane = m0 + 4*n0), so a warp covers 32x64 of C and its shared
//     loads touch 4 (A) and 8 (B) distinct 16-byte vectors: one wavefront each;
//   - 128-bit shared loads: the permutation (16,4):(4,1) gives every thread runs of 4
//     consecutive rows (columns), contiguous in the MN-major shared tiles (checked statically);
//   - fragments double-buffered in registers across k-tiles: the barrier sits before the last
//     k-step of a tile, so the next tile's first loads overlap that step's 64 FMAs;
//   - copies without tests: each copy is one pointer add and one cp.async; only tiles that
//     reach past the matrix (edge CTAs, K's last partial tile) take the guarded path;
//   - padded shared tiles (BM,BK):(1,BM+4): the transposing 4-byte copies of a k-contiguous
//     operand (a warp: 2 rows x 16 k) spread over 16 banks instead of 2;
//   - L2-friendly block order: CTAs walk the C tiles in groups of kGroupM tile-rows;
//   - a 128-bit epilogue where C's rows are 16-byte aligned.
//   - split-K where the C tiles are fewer than the CTAs the GPU runs at once (skinny and long-K
//     problems): each split writes fp32 partial sums to the workspace, a second kernel adds them
//     in order (SimtSplit in stream_k.hpp, the plan's choice; add_splits in split_sums.cuh).
//
// The kernel body is the algebra of tessera/device_tensor.hpp: local_tile, partition_S/D,
// partition_A/B/C, copy (cp.async, 128-bit shared loads), gemm (FMA), axpby; the schedule
// (stages, where the barrier sits, the guarded copies as a call) is the kernel's own.
#pragma once

#include <tessera/device_tensor.hpp>

#include "common.cuh"
#include "per_device_cache.hpp"

namespace tessera::ladder {
namespace {

// How one operand tile travels global -> shared: 16-byte vectors along MN (MN-contiguous,
// aligned), or one 4-byte element per copy with threads along K (k-contiguous: the copy
// transposes into the MN-major shared tile).
enum class CopyKind { kScalarK, kVectorMN };

// The warp-tiled TiledMMA of a C tile kBN columns wide: a warp's 32 threads on a 4x8 grid of FMA
// atoms, 8 warps, every thread with runs of 4 consecutive rows (columns). The 128 and 64 wide
// tiles: warps 4x2, permutation (16,4):(4,1) on both modes (a 64 x 64 tile, each thread 8 x 8 or
// 8 x 4 accumulators). The 32 wide tile: the 8 warps stacked along M, permutations (32,4):(4,1)
// and (8,4):(4,1) (the 128 x 32 tile itself, each thread 4 x 4 accumulators).
TESSERA_HD constexpr TiledMMA simt_mma(int64_t bn) {
  if (bn == SimtShape::kThinBN)
    return make_tiled_mma(atom::universal_fma(), parse_layout("((4,8),8,1):((1,32),4,0)"),
                          make_tile(parse_layout("(32,4):(4,1)"), parse_layout("(8,4):(4,1)"), _));
  return make_tiled_mma(atom::universal_fma(), parse_layout("((4,4),(8,2),1):((1,32),(4,128),0)"),
                        make_tile(parse_layout("(16,4):(4,1)"), parse_layout("(16,4):(4,1)"), _));
}

// One operand (A or B): its padded MN-major shared stages, the copy global -> shared and the
// 128-bit copy shared -> registers. Tiles are (rows, BK) in (MN, K); kTileN is the C tile's width
// (which TiledMMA).
template <Operand kOp, CopyKind kKind, int64_t kRows, int64_t BK, int Stages, int64_t kTileN>
struct OperandCfg {
  static constexpr int kThreads = 256;
  static constexpr int64_t kBK = BK, kPad = 4;  // floats added to each k-row of a stage
  // The operand's (MN, K) strides: a vector copy reads an MN-contiguous operand (the launcher
  // checked it: a static unit stride); a scalar copy reads any strides.
  TESSERA_HD static constexpr auto strides(int64_t s_mn, int64_t s_k) {
    if constexpr (kKind == CopyKind::kVectorMN) return make_stride(unit, s_k);
    else return make_stride(s_mn, s_k);
  }
  static constexpr TiledMMA kMma = simt_mma(kTileN);

  // Shared stages (rows, BK, PIPE): MN-major, k-rows padded, each stage padded once more.
  static constexpr Layout kStage = Layout(make_tuple(kRows, kBK), make_tuple(1, kRows + kPad));
  static constexpr int64_t kStageElems = kStage.cosize() + kPad, kSmemElems = Stages * kStageElems;
  static constexpr Layout kSmem = make_layout(kStage[0], kStage[1], Layout(Stages, kStageElems));

  // global -> shared, 256 threads. Vectors: (R,256/R):(1,R) x (4,1), R = kRows/4 (128 rows:
  // (32,8):(1,32), a warp reads 512 contiguous bytes of one k-row; 64 rows: (16,16):(1,16); 32
  // rows: (8,32):(1,8)). Scalars: (256/W, W):(W,1), W = min(BK, 16): a warp reads 32/W rows of W
  // contiguous floats and stores them transposed to words k*(rows+4) + r of the padded tile, banks
  // (4k + r) % 32.
  static constexpr int64_t kW = kBK < 16 ? kBK : 16;
  struct G2S {
    static constexpr TiledCopy kCopy =
        kKind == CopyKind::kVectorMN
            ? make_tiled_copy_tv(
                  atom::cp_async(16, 32),
                  Layout(make_tuple(kRows / 4, kThreads / (kRows / 4)), make_tuple(1, kRows / 4)),
                  parse_layout("(4,1):(1,0)"))
            : make_tiled_copy_tv(atom::cp_async(4, 32),
                                 Layout(make_tuple(kThreads / kW, kW), make_tuple(kW, 1)),
                                 parse_layout("(1,1):(0,0)"));
  };
  // shared -> registers: the TiledMMA's own (thread, value) layout over its permutation tile,
  // 4 values (16 bytes) per copy.
  static constexpr int kMode = TiledMMA::mode0(kOp);
  static constexpr Layout kPermTile = Layout(make_tuple(kMma.tile_size(kMode), kMma.tile_size(2)));
  struct S2R {
    static constexpr TiledCopy kCopy = TiledCopy{
        atom::universal_copy(128, 32),
        make_layout(kMma.partitioner(kOp, kPermTile).thread, kMma.thrfrg(kOp, kPermTile)[1]),
        kPermTile.shape};
  };

  // The static checks, instantiated by the kernel (see common.cuh, "Static checks").
  __device__ static constexpr void check() {
    static_assert(kStageElems % 4 == 0 && (kRows + kPad) % 4 == 0,
                  "simt: every shared k-row must start on a 16-byte boundary");
    static_assert(G2S::kCopy.threads() == kThreads, "simt: the copies must use all 256 threads");
    static_assert(runs_of(G2S::kCopy.partition_D(kStage, 0).layout, G2S::kCopy.atom.values()),
                  "simt: a vector copy's values must be consecutive in shared memory");
    static_assert(kMma.partitioner(kOp, kStage).fragment[2].size() == kBK,
                  "simt: the fragment must span the k-tile, a k-block per k");
    static_assert(
        runs_of(S2R::kCopy.partition_S(kStage, 0).layout, 4),
        "simt: fragments must come in runs of 4 consecutive rows / columns (128-bit loads)");
    static_assert(same_partition(S2R::kCopy, kMma, kOp, Layout(make_tuple(kRows, kBK))),
                  "simt: the registers the shared -> register copy fills must be the MMA's "
                  "fragment, value by value");
  }
};

// The whole configuration: CTA tile (BM,BN,BK) (plan.hpp's SimtShape, which the plan reads too;
// BN = 128, the narrow 64 or the thin 32), pipeline depth, CTAs per SM the registers are cut for,
// A and B.
template <CopyKind kCopyA, CopyKind kCopyB, int64_t kTileN = SimtShape::kBN>
struct SimtPipelinedCfg {
  static constexpr int64_t kBM = SimtShape::kBM, kBN = kTileN, kBK = SimtShape::kBK;
  static constexpr Coord<3> kCta = {{kBM, kBN, kBK}};
  static constexpr int kStages = 3;
  static constexpr int kThreads = 256;
  // The thin tile's 16 accumulators leave room for a third CTA per SM (shared memory: 3 x 64 KB).
  static constexpr int kMinBlocks = kBN == SimtShape::kThinBN ? 3 : 2;
  static constexpr int64_t kGroupM = 8;  // CTA tile-rows per L2 group
  static constexpr TiledMMA kMma = simt_mma(kBN);
  using A = OperandCfg<Operand::kA, kCopyA, kBM, kBK, kStages, kBN>;
  using B = OperandCfg<Operand::kB, kCopyB, kBN, kBK, kStages, kBN>;
  static constexpr int64_t kSmemBytes = (A::kSmemElems + B::kSmemElems) * 4;

  __device__ static constexpr void check() {
    A::check();
    B::check();
    static_assert(kMma.threads() == kThreads, "simt: the TiledMMA must have 256 threads");
  }
};

// This thread's copies global -> shared of A and B: the sources (k-tile 0), their identity
// tensors' partitions (the predicates) and the shared destinations, all from the kernel's
// parameters and the CTA's tile (bm, bn).
template <class Cfg>
__device__ __forceinline__ auto tile_copies(GemmArgsC const& args, int64_t bm, int64_t bn,
                                            float* smem) {
  using A = typename Cfg::A;
  using B = typename Cfg::B;
  static constexpr Coord<3> kCta = Cfg::kCta;  // (BM,BN,BK)
  GemmArgs const& p = args.p;
  // The problem's operands: A (M,K), B (N,K).
  auto mA = make_tensor(p.a, make_shape(p.m, p.k), A::strides(p.a_sm, p.a_sk));  // (M,K)
  auto mB = make_tensor(p.b, make_shape(p.n, p.k), B::strides(p.b_sn, p.b_sk));  // (N,K)
  auto gA = local_tile<kCta, Proj{1, 0, 1}>(mA, bm, bn, _);  // (BM,BK) at k-tile 0
  auto gB = local_tile<kCta, Proj{0, 1, 1}>(mB, bm, bn, _);  // (BN,BK)
  auto cA = local_tile<kCta, Proj{1, 0, 1}>(make_identity_tensor(mA.shape), bm, bn, _);
  auto cB = local_tile<kCta, Proj{0, 1, 1}>(make_identity_tensor(mB.shape), bm, bn, _);
  auto sA = make_tensor<A::kSmem>(smem);                  // (BM,BK,PIPE)
  auto sB = make_tensor<B::kSmem>(smem + A::kSmemElems);  // (BN,BK,PIPE)
  const ThrCopy<typename A::G2S> g2s_a{threadIdx.x};
  const ThrCopy<typename B::G2S> g2s_b{threadIdx.x};
  struct Copies {
    ThrCopy<typename A::G2S> g2s_a;
    ThrCopy<typename B::G2S> g2s_b;
    decltype(g2s_a.partition_S(gA)) tAgA;                 // (CPY,CPY_M,CPY_K)
    decltype(g2s_a.partition_S(cA)) tAcA;
    decltype(g2s_a.partition_D(sA)) tAsA;                 // (CPY,CPY_M,CPY_K,PIPE)
    decltype(g2s_b.partition_S(gB)) tBgB;                 // (CPY,CPY_N,CPY_K)
    decltype(g2s_b.partition_S(cB)) tBcB;
    decltype(g2s_b.partition_D(sB)) tBsB;                 // (CPY,CPY_N,CPY_K,PIPE)
  };
  return Copies{g2s_a, g2s_b, g2s_a.partition_S(gA), g2s_a.partition_S(cA), g2s_a.partition_D(sA),
                g2s_b.partition_S(gB), g2s_b.partition_S(cB), g2s_b.partition_D(sB)};
}

// The copy of a k-tile that reaches past the matrix (edge CTAs, K's last partial tile):
// predicated, what lies outside zero-filled.
// NOTE: a call, not inlined, which rebuilds its views from the parameters: inlined in the
// k-loop (unrolled or not) it changed ptxas's register allocation of the main loop, which lost
// 5 % (H100, 4096^3), and views kept live across the loop for it spilled; as a call the main
// loop is untouched and edge tiles pay the call (1000^3: 0.49x cuBLAS, 0.41x with the loop
// inlined and not unrolled).
template <class Cfg>
__device__ __noinline__ void load_tile_guarded(GemmArgsC const args, int64_t bm, int64_t bn, int kt,
                                               int stage, float* smem) {
  auto c = tile_copies<Cfg>(args, bm, bn, smem);
  copy(c.g2s_a, c.tAgA.at(kt), c.tAsA(_, _, _, stage), c.tAcA.at(kt));
  copy(c.g2s_b, c.tBgB.at(kt), c.tBsB(_, _, _, stage), c.tBcB.at(kt));
}

// Split-K: CTA (tile, blockIdx.y) runs k-tiles [y * k_tiles_per_split, (y + 1) * k_tiles_per_split)
// and writes its C at c + y * split_elems (the split's slab of fp32 partial sums; one split: all
// k-tiles, C itself).
struct KSplit {
  int k_tiles_per_split;
  int64_t split_elems;
};

template <class Cfg>
__global__ void __launch_bounds__(Cfg::kThreads, Cfg::kMinBlocks)
gemm_03_kernel(GemmArgsC args, KSplit split) {
  Cfg::check();
  using A = typename Cfg::A;
  using B = typename Cfg::B;
  static constexpr Coord<3> kCta = Cfg::kCta;  // (BM,BN,BK)
  constexpr int kStages = Cfg::kStages;
  GemmArgs const& p = args.p;

  // The problem's C (M,N), any strides (the transposed problem writes C^T); split-K: this split's
  // partial sums.
  auto mC = make_tensor(p.c + blockIdx.y * split.split_elems, make_shape(p.m, p.n),
                        make_stride(args.c_sm, args.c_sn));  // (M,N)
  auto cC = make_identity_tensor(mC.shape);

  // This CTA's tile, in groups of kGroupM tile-rows (L2 reuse).
  const auto [bm, bn] =
      grouped_tile(blockIdx.x, ceil_div(p.m, kCta[0]), ceil_div(p.n, kCta[1]), Cfg::kGroupM);
  auto gC = local_tile<kCta, Proj{1, 1, 0}>(mC, bm, bn, _);  // (BM,BN)

  // Shared memory: sA (BM,BK,PIPE), then sB (BN,BK,PIPE), padded.
  extern __shared__ float4 smem_raw[];
  float* smem = reinterpret_cast<float*>(smem_raw);
  auto sA = make_tensor<A::kSmem>(smem);                  // (BM,BK,PIPE)
  auto sB = make_tensor<B::kSmem>(smem + A::kSmemElems);  // (BN,BK,PIPE)

  // global -> shared: cp.async (tAgA -> tAsA, tBgB -> tBsB); predicated (zero-filled) only
  // where a tile reaches past the matrix.
  auto [g2s_a, g2s_b, tAgA, tAcA, tAsA, tBgB, tBcB, tBsB] = tile_copies<Cfg>(args, bm, bn, smem);

  const int k_tiles = int(ceil_div(p.k, kCta[2]));  // < 2^31: launch() checks
  // This CTA's k-tiles: [kt_begin, kt_end), all of them without split-K.
  const int kt_begin = int(blockIdx.y) * split.k_tiles_per_split;
  const int kt_end =
      k_tiles - kt_begin < split.k_tiles_per_split ? k_tiles : kt_begin + split.k_tiles_per_split;
  // k-tiles before this one lie inside the matrix and take the copy without predicates.
  const int first_guarded =
      p.m - bm * kCta[0] >= kCta[0] && p.n - bn * kCta[1] >= kCta[1] ? int(p.k / kCta[2]) : 0;
  int next_kt = kt_begin, write_stage = 0;
  // Loads k-tile next_kt (if there is one) into write_stage and commits a cp.async group (even
  // when empty, so that wait<kStages-2> always means "the oldest tile in flight has landed").
  auto load_next = [&] {
    if (next_kt < kt_end) {
      if (next_kt < first_guarded) {
        copy(g2s_a, tAgA.at(next_kt), tAsA(_, _, _, write_stage));
        copy(g2s_b, tBgB.at(next_kt), tBsB(_, _, _, write_stage));
      } else {
        load_tile_guarded<Cfg>(args, bm, bn, next_kt, write_stage, smem);
      }
    }
    ptx::cp_async_commit();
    ++next_kt;
    write_stage = write_stage + 1 == kStages ? 0 : write_stage + 1;
  };

  // Prologue: kStages-1 tiles in flight.
#pragma unroll 1
  for (int s = 0; s < kStages - 1; ++s) load_next();

  // The MMA: accumulators, C's partition, and the 128-bit copies shared -> registers.
  const ThrMMA<Cfg> thr_mma{threadIdx.x};
  auto tCrC = thr_mma.partition_fragment_C(gC);           // (V,M,N)
  auto tCgC = thr_mma.partition_C(gC);                    // (V,M,N)
  auto tCcC = thr_mma.partition_C(local_tile<kCta, Proj{1, 1, 0}>(cC, bm, bn, _));
  clear(tCrC);
  const ThrCopy<typename A::S2R> s2r_a{threadIdx.x};
  const ThrCopy<typename B::S2R> s2r_b{threadIdx.x};
  auto tXsA = s2r_a.partition_S(sA);                      // (CPY,CPY_M,K,PIPE)
  auto tXsB = s2r_b.partition_S(sB);                      // (CPY,CPY_N,K,PIPE)
  int read_stage = 0;
  auto tXsA_r = tXsA(_, _, _, read_stage);                // (CPY,CPY_M,K) of the stage being read
  auto tXsB_r = tXsB(_, _, _, read_stage);

  // Registers of two k-blocks (double-buffered): the loads of k-block kb+1 are issued before
  // the FMAs of kb, across k-tiles too.
  using FragA = decltype(make_fragment_like(thr_mma.partition_fragment_A(sA)(_, _, 0)));
  using FragB = decltype(make_fragment_like(thr_mma.partition_fragment_B(sB)(_, _, 0)));
  FragA tCrA[2];                                          // (V,M) per k-block
  FragB tCrB[2];                                          // (V,N)
  auto load_fragments = [&](int buf, int kb) {
    copy(s2r_a, tXsA_r(_, _, kb), tCrA[buf]);
    copy(s2r_b, tXsB_r(_, _, kb), tCrB[buf]);
  };

  // The k-tile is walked in blocks of kUnrollK k-blocks, each block unrolled (a fully unrolled
  // 32-step tile doubled the compile time for no speed).
  constexpr int kBK = int(kCta[2]), kUnrollK = kBK < 16 ? kBK : 16;
  static_assert(kBK % kUnrollK == 0, "simt: BK must be a multiple of the unrolled block");

  ptx::cp_async_wait<kStages - 2>();
  __syncthreads();  // k-tile 0 visible to all
  load_fragments(0, 0);
  for (int kt = kt_begin; kt < kt_end; ++kt) {
    // The stage of k-tile kt-1 is free: every thread passed the barrier after its last read.
    load_next();
#pragma unroll 1
    for (int block = 0; block < kBK / kUnrollK; ++block) {
#pragma unroll
      for (int kb = 0; kb < kUnrollK; ++kb) {
        if (kb + 1 < kUnrollK) {
          load_fragments((kb + 1) % 2, block * kUnrollK + kb + 1);
        } else {
          int next = (block + 1) * kUnrollK;  // the next block of this k-tile
          if (block + 1 == kBK / kUnrollK) {
            // k-tile kt+1 landed and visible; the stage of kt is read no more. Its first
            // k-block loads before the last FMAs of kt.
            ptx::cp_async_wait<kStages - 2>();
            __syncthreads();
            read_stage = read_stage + 1 == kStages ? 0 : read_stage + 1;
            tXsA_r = tXsA(_, _, _, read_stage);
            tXsB_r = tXsB(_, _, _, read_stage);
            next = 0;
          }
          load_fragments((kb + 1) % 2, next);
        }
        gemm(thr_mma, tCrA[kb % 2], tCrB[kb % 2], tCrC);  // 8x8 FMAs
      }
    }
  }
  ptx::cp_async_wait<0>();

  // C = alpha AB + beta C inside the matrix; 16-byte stores where C allows them (runs of 4 rows)
  axpby<128>(p.alpha, tCrC, p.beta, tCgC, tCcC);
}

template <CopyKind kA, CopyKind kB, int64_t kBN>
cudaError_t set_smem() {
  using Cfg = SimtPipelinedCfg<kA, kB, kBN>;
  return cudaFuncSetAttribute(gemm_03_kernel<Cfg>, cudaFuncAttributeMaxDynamicSharedMemorySize,
                              int(Cfg::kSmemBytes));
}

// The CTAs of 03 on tiles of kBN columns the current GPU runs at once (every instantiation of a
// width has the same tile, stages and registers bound, so the same occupancy), asked once per
// device; 0 without a GPU.
template <int64_t kBN>
int resident_ctas() {
  return per_device([](int device) {
    using Cfg = SimtPipelinedCfg<CopyKind::kVectorMN, CopyKind::kVectorMN, kBN>;
    int per_sm = 0, sms = 0;
    if (set_smem<CopyKind::kVectorMN, CopyKind::kVectorMN, kBN>() != cudaSuccess ||
        cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, gemm_03_kernel<Cfg>, Cfg::kThreads,
                                                      size_t(Cfg::kSmemBytes)) != cudaSuccess ||
        cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device) != cudaSuccess)
      return 0;
    return per_sm * sms;
  });
}

// The problem args.p on C(m,n) at strides (args.c_sm, args.c_sn), K split as the plan says
// (SimtSplit, plan.cpp): the splits
// write fp32 partial sums into the workspace, laid out as C is (column-major in the caller's m x n,
// so that the kernel adding them reads and writes along C's columns), then add_splits forms C.
template <CopyKind kA, CopyKind kB, int64_t kBN>
cudaError_t launch(GemmArgsC const& args, SimtSplit const& plan, cudaStream_t stream) {
  using Cfg = SimtPipelinedCfg<kA, kB, kBN>;
  GemmArgs const& p = args.p;
  const int64_t k_tiles = ceil_div(p.k, Cfg::kBK);
  if (k_tiles > INT32_MAX) return cudaErrorInvalidValue;  // k-tiles count in int
  if (cudaError_t e = set_smem<kA, kB, kBN>(); e != cudaSuccess) return e;
  const int64_t tiles = ceil_div(p.m, Cfg::kBM) * ceil_div(p.n, Cfg::kBN);
  GemmArgsC run = args;
  Scratch scratch(p, stream);
  const bool as_given = args.c_sm == 1;  // else the transposed problem: the caller's m is p.n
  if (plan.splits > 1) {
    void* partial = nullptr;
    const cudaError_t e = scratch.get(&partial, size_t(plan.bytes(p.m, p.n)));
    if (e != cudaSuccess) return e;
    run.p.c = static_cast<float*>(partial), run.p.alpha = 1.0f, run.p.beta = 0.0f;
    run.c_sm = as_given ? 1 : p.n, run.c_sn = as_given ? p.m : 1;
  }
  const dim3 grid(unsigned(tiles), unsigned(plan.splits));
  gemm_03_kernel<Cfg><<<grid, Cfg::kThreads, size_t(Cfg::kSmemBytes), stream>>>(
      run, KSplit{int(plan.k_tiles_per_split), p.m * p.n});
  if (plan.splits == 1) return cudaGetLastError();
  if (cudaError_t e = cudaGetLastError(); e != cudaSuccess) return e;
  return add_splits_f32(p.c, 1, p.ldc, run.p.c, plan.splits, as_given ? p.m : p.n,
                        as_given ? p.n : p.m, p.alpha, p.beta, stream);
}

// 16-byte vectors need an MN-contiguous operand whose pointer and leading dimension are
// 16-byte aligned; anything else takes the 4-byte, k-ordered copy.
bool vector_ok(const void* ptr, int64_t s_mn, int64_t s_k) {
  return s_mn == 1 && s_k % 4 == 0 && reinterpret_cast<uintptr_t>(ptr) % 16 == 0;
}

// The narrow and thin tiles (03_simt_pipelined_n64.cu, _n32.cu): the orientation is fixed by the
// shape (the small dimension along the tile's N), so every pair of operand copies has its own
// kernel (four per width), where the 128 x 128 tile transposes BLAS TT onto NN's.
template <int64_t kBN>
cudaError_t launch_narrow(GemmArgsC const& args, SimtSplit const& split, cudaStream_t stream) {
  GemmArgs const& p = args.p;
  const bool a_vec = vector_ok(p.a, p.a_sm, p.a_sk), b_vec = vector_ok(p.b, p.b_sn, p.b_sk);
  using K = CopyKind;
  if (a_vec) return b_vec ? launch<K::kVectorMN, K::kVectorMN, kBN>(args, split, stream)
                          : launch<K::kVectorMN, K::kScalarK, kBN>(args, split, stream);
  return b_vec ? launch<K::kScalarK, K::kVectorMN, kBN>(args, split, stream)
               : launch<K::kScalarK, K::kScalarK, kBN>(args, split, stream);
}

}  // namespace
}  // namespace tessera::ladder
