// kernels/gemm/04_mma_sync.cuh -- ladder step 04: tensor cores through mma.sync (the permutation
// notes' step 4).
//
// One element type per translation unit (04_mma_sync_{f16,bf16,tf32}.cu, three kernels each: the
// operands' majors), so that each compiles on its own in a few seconds and the three build in
// parallel.
//
// What it adds to 03 (each a layout decision, made once in the configs below):
//   - the MMA atom is a warp-wide tensor-core instruction: mma.sync m16n8k16 (f16, bf16) or
//     m16n8k8 (tf32), F32 accumulators; atoms (2,2,1) = 4 warps = 128 threads, permutation
//     (32,32,K) (N visited twice per atom), CTA tile 128x128x32, 128 accumulators;
//   - shared tiles stored the way global memory is contiguous (K-major for a k-contiguous
//     operand, MN-major otherwise), each composed with a Swizzle so that every 16-byte cp.async
//     store and every ldmatrix row read is conflict-free (checked statically with analysis.hpp);
//   - fragments reach registers through ldmatrix (x4; .trans for an MN-major tile), through a
//     TiledCopy whose (thread, value) layout is the TiledMMA's own A / B layout: the registers
//     ldmatrix fills are exactly the MMA's fragment (checked statically, value by value);
//     tf32 (32-bit elements; ldmatrix has no 32-bit transpose) copies its fragments value by
//     value from the same partition, rounding each to tf32 (the tf32 register type);
//   - a kStages-deep cp.async pipeline as in 03; residues zero-filled (partial 16-byte copies);
//     an operand whose pointer or leading dimension is not 16-byte aligned is first copied
//     K-major into an aligned scratch buffer (as 05 does), so the kernel reads aligned operands.
//
// The kernel body is the algebra of tessera/device_tensor.hpp: local_tile, partition_S/D,
// partition_A/B/C, copy (cp.async, ldmatrix), gemm (mma.sync), axpby.
//
// NOTE: the tf32 fragments are rounded to nearest (cvt.rna.tf32.f32) in registers: the
// instruction itself truncates the low 13 bits, which doubles the error.
#pragma once

#include <type_traits>

#include <tessera/device_tensor.hpp>

#include "elem.cuh"

namespace tessera::ladder {
namespace {

// Which mode of an operand is contiguous in global memory, and so in its shared tile: K (BLAS
// 'T' for A, 'N' for B) or M/N ('N' for A, 'T' for B).
enum class Major { kK, kMN };

// Element types, their instructions and k-tile / pipeline defaults.
template <Elem E>
struct ElemInfo;
template <>
struct ElemInfo<Elem::kF16> : ElemOut<Elem::kF16> {
  static constexpr int64_t kBK = 32, kStages = 4;
  using MmaOp = atom::SM80_16x8x16_F32F16F16F32_TN;
};
template <>
struct ElemInfo<Elem::kBF16> : ElemOut<Elem::kBF16> {
  static constexpr int64_t kBK = 32, kStages = 4;
  using MmaOp = atom::SM80_16x8x16_F32BF16BF16F32_TN;
};
template <>
struct ElemInfo<Elem::kTF32> : ElemOut<Elem::kTF32> {
  static constexpr int64_t kBK = 32, kStages = 3;
  using MmaOp = atom::SM80_16x8x8_F32TF32TF32F32_TN;
};

// The TiledMMA of every configuration: the permutation notes' step 4 (mma.sync) with the element
// type's atom.
template <Elem E>
TESSERA_HD constexpr TiledMMA step4_mma() {
  const MmaAtom a = ElemInfo<E>::MmaOp::atom();
  return make_tiled_mma(a, parse_layout("(2,2,1):(1,2,0)"),
                        make_tile(Layout(32), Layout(32), Layout(a.k)));
}

// The swizzle of a shared tile, on elements (found with `tessera analyze --find-swizzle` and
// checked below for the accesses the kernel makes):
//   16-bit, K-major (128,32):(32,1), 64-byte rows:     Sw<2,3,3>  (4 chunks of 8 by row pairs)
//   16-bit, MN-major (128,32):(1,128), 256-byte cols:  Sw<3,3,4>  (chunk ^= k % 8)
//   32-bit, K-major (128,32):(32,1), 128-byte rows:    Sw<3,2,3>  (chunk ^= row % 8)
//   32-bit, MN-major (128,32):(1,128), 512-byte cols:  Sw<2,3,7>  (8-float group ^= k % 4)
TESSERA_HD constexpr Swizzle smem_swizzle(int64_t bits, Major major) {
  if (bits == 16) return major == Major::kK ? Swizzle(2, 3, 3) : Swizzle(3, 3, 4);
  return major == Major::kK ? Swizzle(3, 2, 3) : Swizzle(2, 3, 7);
}

// ---------------------------------------------------------------------------------------------
// One operand (A or B): its swizzled shared tiles (kStages of them), the cp.async copy global ->
// shared, and the copy shared -> registers. Tiles are (rows, BK) = (BM or BN, BK) in (MN, K).
template <Elem E, Operand kOp, Major kMaj, int64_t BK, int Stages>
struct OperandCfg {
  static constexpr Major kMajor = kMaj;
  static constexpr int kUnit = kMajor == Major::kK ? 1 : 0;  // the mode with the unit stride
  using T = typename ElemInfo<E>::T;
  static constexpr int kThreads = 128;
  static constexpr int64_t kRows = 128, kBK = BK, kBits = ElemInfo<E>::kBits;
  static constexpr int64_t kVec = 128 / kBits;  // elements per 16-byte vector
  static constexpr TiledMMA kMma = step4_mma<E>();

  // Shared tiles (rows, BK, PIPE): contiguous along the global contiguous mode, swizzled.
  static constexpr Layout kTile = Layout(make_tuple(kRows, kBK));  // one stage, compact
  static constexpr Layout kStage = kMajor == Major::kK
                                       ? Layout(make_tuple(kRows, kBK), make_tuple(kBK, 1))
                                       : Layout(make_tuple(kRows, kBK), make_tuple(1, kRows));
  static constexpr int64_t kStageElems = kRows * kBK, kSmemElems = Stages * kStageElems;
  static constexpr Swizzle kSwizzle = smem_swizzle(kBits, kMajor);
  static constexpr SwizzledLayout kSmem = composition(
      kSwizzle, make_layout(kStage[0], kStage[1], Layout(Stages, kStageElems)));

  // global -> shared: 16-byte vectors along the contiguous mode, 128 threads.
  //   K-major: threads (rows / (BK/vec), BK/vec) with k fastest;  MN-major: (rows/vec, ..).
  static constexpr int64_t kAlongK = kBK / kVec, kAlongMN = kRows / kVec;
  struct G2S {
    static constexpr TiledCopy kCopy =
        kMajor == Major::kK
            ? make_tiled_copy_tv(
                  atom::cp_async(16, kBits),
                  Layout(make_tuple(kThreads / kAlongK, kAlongK), make_tuple(kAlongK, 1)),
                  Layout(make_tuple(1, kVec), make_tuple(0, 1)))
            : make_tiled_copy_tv(
                  atom::cp_async(16, kBits),
                  Layout(make_tuple(kAlongMN, kThreads / kAlongMN), make_tuple(1, kAlongMN)),
                  Layout(make_tuple(kVec, 1), make_tuple(1, 0)));
  };

  // shared -> registers: a TiledCopy over the permutation tile (32, K) whose TV layout is the
  // TiledMMA's (thread -> offset, values = the thread's fragment of that tile), CuTe's
  // make_tiled_copy_A/B: ldmatrix x4 for 16-bit elements (.trans for an MN-major tile), plain
  // 32-bit copies for tf32.
  static constexpr int kMode = TiledMMA::mode0(kOp);  // M (A) or N (B)
  static constexpr Layout kPermTile = Layout(make_tuple(kMma.tile_size(kMode), kMma.tile_size(2)));
  struct S2R {
    static constexpr TiledCopy kCopy = TiledCopy{
        kBits == 16 ? atom::ldmatrix(4, kMajor == Major::kMN) : atom::universal_copy(32, 32),
        make_layout(kMma.partitioner(kOp, kPermTile).thread, kMma.thrfrg(kOp, kPermTile)[1]),
        kPermTile.shape};
  };

  // The static checks, instantiated by the kernel (see common.cuh, "Static checks").
  __device__ static constexpr void check() {
    static_assert(kStageElems % kSwizzle.span() == 0,
                  "04: a stage must hold whole swizzle periods (stage offsets commute with it)");
    static_assert((int64_t(1) << kSwizzle.base) >= kVec,
                  "04: the swizzle must keep 16-byte vectors whole (base >= log2(vector))");
    static_assert(G2S::kCopy.threads() == kThreads,
                  "04: the global -> shared copy must use 128 threads");
    static_assert(contiguous_prefix(G2S::kCopy.partition_D(kStage, 0).layout) >= kVec,
                  "04: a 16-byte copy must land on consecutive shared elements");
    static_assert(kMma.partitioner(kOp, kTile).fragment[2].size() * kMma.tile_size(2) == kBK,
                  "04: the fragment must be (FrgV, Rest_MN, Rest_K) and span the k-tile");
    static_assert(kBits != 16 || contiguous_prefix(S2R::kCopy.partition_S(kStage, 0).layout) >= 8,
                  "04: ldmatrix must read 16-byte rows of the shared tile");
    static_assert(same_partition(S2R::kCopy, kMma, kOp, kTile),
                  "04: the registers the shared -> register copy fills must be the MMA's fragment, "
                  "value by value");
  }
};

// The whole configuration: A, B, C, the pipeline, the block order. The tuning knobs are the
// element type's k-tile depth and pipeline stages (ElemInfo: BK 32 and 4 stages for 16-bit, 3 for
// tf32) and the CTAs per SM the registers are cut for (2).
// NOTE: measured on H200, f16 NN 4096^3 / 8192^3 (TFLOP/s): default 315 / 297; 5 stages 293 /
// 275; BK 64 x 3 stages 275 / 267; 1 CTA per SM 226 / 215; 3 CTAs per SM (168 registers,
// spills) 241 / 235. The 240-register kernel keeps 2 CTAs (8 warps) per SM.
template <Elem E, Major kMajorA, Major kMajorB>
struct MmaSyncCfg {
  using Info = ElemInfo<E>;
  using T = typename Info::T;
  using MmaOp = typename Info::MmaOp;
  static constexpr int64_t kBM = 128, kBN = 128, kBK = Info::kBK;
  static constexpr Coord<3> kCta = {{kBM, kBN, kBK}};
  static constexpr int kStages = int(Info::kStages);
  using A = OperandCfg<E, Operand::kA, kMajorA, kBK, kStages>;
  using B = OperandCfg<E, Operand::kB, kMajorB, kBK, kStages>;
  static constexpr int kThreads = 128, kMinBlocks = 2;
  static constexpr int64_t kGroupM = 8;  // CTA tile-rows per L2 group
  static constexpr TiledMMA kMma = step4_mma<E>();
  static constexpr int64_t kSmemBytes = (A::kSmemElems + B::kSmemElems) * int64_t(sizeof(T));

  // The static checks, instantiated by the kernel (see common.cuh, "Static checks").
  __device__ static constexpr void check() {
    A::check();
    B::check();
    static_assert(kMma.threads() == kThreads, "04: the TiledMMA must have 128 threads (4 warps)");
    static_assert(kBM % kMma.tile_size(0) == 0 && kBN % kMma.tile_size(1) == 0 &&
                      kBK % kMma.tile_size(2) == 0,
                  "04: the permutation tile must divide the CTA tile");
    static_assert(kSmemBytes <= 227 * 1024, "04: the pipeline does not fit in shared memory");
    static_assert(
        kBK / kMma.tile_size(2) >= 2,
        "04: the k-tile must hold at least 2 k-blocks (fragments loaded one k-block ahead)");
  }
};

// ---------------------------------------------------------------------------------------------
template <class Cfg>
__global__ void __launch_bounds__(Cfg::kThreads, Cfg::kMinBlocks) gemm_04_kernel(GemmArgsC args) {
  Cfg::check();
  using T = typename Cfg::T;
  using A = typename Cfg::A;
  using B = typename Cfg::B;
  static constexpr Coord<3> kCta = Cfg::kCta;  // (BM,BN,BK)
  constexpr int kStages = Cfg::kStages;
  GemmArgs const& p = args.p;

  // The problem: A (M,K) and B (N,K) with the unit stride this kernel was chosen for, C (M,N)
  // with any strides (the transposed problem writes C^T). GemmArgs carries float pointers
  // (part 1); here they hold T.
  auto mA = make_tensor(reinterpret_cast<const T*>(p.a), make_shape(p.m, p.k),
                        make_stride<A::kUnit>(p.a_sm, p.a_sk));                        // (M,K)
  auto mB = make_tensor(reinterpret_cast<const T*>(p.b), make_shape(p.n, p.k),
                        make_stride<B::kUnit>(p.b_sn, p.b_sk));                        // (N,K)
  auto mC = make_tensor(reinterpret_cast<T*>(p.c), make_shape(p.m, p.n),
                        make_stride(args.c_sm, args.c_sn));                            // (M,N)
  auto cA = make_identity_tensor(mA.shape), cB = make_identity_tensor(mB.shape),
       cC = make_identity_tensor(mC.shape);

  // This CTA's tiles, in groups of kGroupM tile-rows (L2 reuse); `_` keeps the K mode.
  const auto [bm, bn] =
      grouped_tile(blockIdx.x, ceil_div(p.m, kCta[0]), ceil_div(p.n, kCta[1]), Cfg::kGroupM);
  auto gA = local_tile<kCta, Proj{1, 0, 1}>(mA, bm, bn, _);  // (BM,BK) at k-tile 0
  auto gB = local_tile<kCta, Proj{0, 1, 1}>(mB, bm, bn, _);  // (BN,BK)
  auto gC = local_tile<kCta, Proj{1, 1, 0}>(mC, bm, bn, _);  // (BM,BN)

  // Shared memory: sA (BM,BK,PIPE), then sB (BN,BK,PIPE), both swizzled.
  extern __shared__ uint4 smem_raw[];
  T* smem = reinterpret_cast<T*>(smem_raw);
  auto sA = make_tensor<A::kSmem>(smem);                    // (BM,BK,PIPE)
  auto sB = make_tensor<B::kSmem>(smem + A::kSmemElems);    // (BN,BK,PIPE)

  // global -> shared: cp.async, zero-filled outside the matrix (identity-tensor predicates).
  const ThrCopy<typename A::G2S> g2s_a{threadIdx.x};
  const ThrCopy<typename B::G2S> g2s_b{threadIdx.x};
  auto tAgA = g2s_a.partition_S(gA);                        // (CPY,CPY_M,CPY_K)
  auto tAcA = g2s_a.partition_S(local_tile<kCta, Proj{1, 0, 1}>(cA, bm, bn, _));
  auto tAsA = g2s_a.partition_D(sA);                        // (CPY,CPY_M,CPY_K,PIPE)
  auto tBgB = g2s_b.partition_S(gB);                        // (CPY,CPY_N,CPY_K)
  auto tBcB = g2s_b.partition_S(local_tile<kCta, Proj{0, 1, 1}>(cB, bm, bn, _));
  auto tBsB = g2s_b.partition_D(sB);                        // (CPY,CPY_N,CPY_K,PIPE)

  // The MMA: this thread's registers of A, B (a slice per k-block) and C, and its part of C.
  const ThrMMA<Cfg> thr_mma{threadIdx.x};
  auto tCrA = thr_mma.partition_fragment_A(sA);             // (V,M,K)
  auto tCrB = thr_mma.partition_fragment_B(sB);             // (V,N,K)
  auto tCrC = thr_mma.partition_fragment_C(gC);             // (V,M,N) fp32 accumulators
  auto tCgC = thr_mma.partition_C(gC);                      // (V,M,N)
  auto tCcC = thr_mma.partition_C(local_tile<kCta, Proj{1, 1, 0}>(cC, bm, bn, _));
  clear(tCrC);

  // shared -> registers: ldmatrix (or tf32 loads) straight into the MMA's fragments.
  const ThrCopy<typename A::S2R> s2r_a{threadIdx.x};
  const ThrCopy<typename B::S2R> s2r_b{threadIdx.x};
  auto tXsA = s2r_a.partition_S(sA);                        // (CPY,CPY_M,CPY_K,PIPE)
  auto tXrA = s2r_a.retile_D(tCrA);                         // (CPY,CPY_M,CPY_K)
  auto tXsB = s2r_b.partition_S(sB);                        // (CPY,CPY_N,CPY_K,PIPE)
  auto tXrB = s2r_b.retile_D(tCrB);                         // (CPY,CPY_N,CPY_K)

  const int64_t k_tiles = ceil_div(p.k, kCta[2]);
  auto load_tile = [&](int64_t kt, int stage) {
    copy(g2s_a, tAgA.at(kt), tAsA(_, _, _, stage), tAcA.at(kt));
    copy(g2s_b, tBgB.at(kt), tBsB(_, _, _, stage), tBcB.at(kt));
  };

  // Prologue: kStages-1 tiles in flight (a group is committed even when empty, so that
  // wait<kStages-2> always means "tile kt has landed").
  // NOTE: a loop, not unrolled: once per CTA, and unrolled it tripled the copy code (ptxas time).
#pragma unroll 1
  for (int s = 0; s < kStages - 1; ++s) {
    if (s < k_tiles) load_tile(s, s);
    ptx::cp_async_commit();
  }

  constexpr int kBlocks = int(kCta[2] / Cfg::kMma.tile_size(2));  // k-blocks per k-tile
  for (int64_t kt = 0; kt < k_tiles; ++kt) {
    ptx::cp_async_wait<kStages - 2>();
    __syncthreads();  // tile kt visible to all; the stage of tile kt-1 free again
    const int64_t fill = kt + kStages - 1;
    if (fill < k_tiles) load_tile(fill, int(fill % kStages));
    ptx::cp_async_commit();

    // Registers one k-block ahead of the MMAs: k-block kb+1 loads while kb multiplies.
    const int stage = int(kt % kStages);
    auto tXsA_p = tXsA(_, _, _, stage);                     // (CPY,CPY_M,CPY_K)
    auto tXsB_p = tXsB(_, _, _, stage);
    copy(s2r_a, tXsA_p(_, _, 0), tXrA(_, _, 0));
    copy(s2r_b, tXsB_p(_, _, 0), tXrB(_, _, 0));
#pragma unroll
    for (int kb = 0; kb < kBlocks; ++kb) {
      if (kb + 1 < kBlocks) {
        copy(s2r_a, tXsA_p(_, _, kb + 1), tXrA(_, _, kb + 1));
        copy(s2r_b, tXsB_p(_, _, kb + 1), tXrB(_, _, kb + 1));
      }
      gemm(thr_mma, tCrA(_, _, kb), tCrB(_, _, kb), tCrC);
    }
  }
  ptx::cp_async_wait<0>();

  axpby(p.alpha, tCrC, p.beta, tCgC, tCcC);  // C = alpha AB + beta C inside the matrix, as T
}

template <Elem E, Major kA, Major kB>
cudaError_t launch(GemmArgsC const& args, cudaStream_t stream) {
  using Cfg = MmaSyncCfg<E, kA, kB>;
  auto kernel = gemm_04_kernel<Cfg>;
  cudaError_t e = cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                       int(Cfg::kSmemBytes));
  if (e != cudaSuccess) return e;
  const int64_t blocks = ceil_div(args.p.m, Cfg::kBM) * ceil_div(args.p.n, Cfg::kBN);
  kernel<<<unsigned(blocks), Cfg::kThreads, size_t(Cfg::kSmemBytes), stream>>>(args);
  return cudaGetLastError();
}

// Unaligned operands: one that cp.async cannot read is first copied, K-major with its leading
// dimension rounded up to 16 bytes, into a scratch buffer (stream-ordered, freed after the GEMM),
// as 05 does; the kernels read aligned operands only.
// NOTE: 04 used to copy such operands element by element inside the k-loop. That branch, never
// taken for aligned operands, cost the 16-bit kernels ~15% (H200, f16 4096^3: ptxas allocates the
// k-loop around it) when it was a loop, and ~2 s of compile time when unrolled.
// Replaces an unaligned operand (ptr, s_r, s_k) of `rows` x `k` by its aligned copy in scratch.
template <Elem E>
cudaError_t align_operand(const float*& ptr, int64_t& s_r, int64_t& s_k, int64_t rows, int64_t k,
                          Scratch& scratch) {
  using Bits = std::conditional_t<ElemInfo<E>::kBits == 16, uint16_t, uint32_t>;
  if (rows == 0 || k == 0 || aligned16(ptr, s_r, s_k, sizeof(Bits))) return cudaSuccess;
  int64_t ld = 0;
  void* packed = nullptr;
  const cudaError_t e = pack_operand<Bits>(scratch, &packed, &ld, ptr, s_r, s_k, rows, k);
  ptr = static_cast<const float*>(packed), s_r = ld, s_k = 1;
  return e;
}

// The operands' majors pick the kernel; (K, MN) -- BLAS TT -- has none of its own: it runs the
// (MN, K) kernel on the transposed problem C^T = B A^T (M and N, A and B exchanged, C written
// through its transpose), one kernel fewer per type to compile. (MN, K) is the faster of the
// two (bench/results/gemm_tensorcore.md: f16 NN 313, TT 278 TFLOP/s before the change).
template <Elem E>
cudaError_t launch_aligned(GemmArgs const& p, cudaStream_t stream) {
  // NOTE: an operand with one row or column (M, N or K = 1) has both strides "contiguous"; the
  // unit stride along K picks K-major.
  const bool a_k = p.a_sk == 1, b_k = p.b_sk == 1;
  using M = Major;
  if (a_k && !b_k) return launch<E, M::kMN, M::kK>(transposed(p), stream);
  const GemmArgsC args = as_given(p);
  if (a_k) return launch<E, M::kK, M::kK>(args, stream);
  return b_k ? launch<E, M::kMN, M::kK>(args, stream) : launch<E, M::kMN, M::kMN>(args, stream);
}

template <Elem E>
cudaError_t launch_elem(GemmArgs const& g, cudaStream_t stream) {
  GemmArgs p = g;
  Scratch scratch(g, stream);
  cudaError_t e = align_operand<E>(p.a, p.a_sm, p.a_sk, p.m, p.k, scratch);
  if (e == cudaSuccess) e = align_operand<E>(p.b, p.b_sn, p.b_sk, p.n, p.k, scratch);
  if (e == cudaSuccess) e = launch_aligned<E>(p, stream);
  return e;
}

}  // namespace
}  // namespace tessera::ladder
