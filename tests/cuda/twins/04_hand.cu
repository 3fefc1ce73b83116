// tests/cuda/twins/04_hand.cu -- the hand-indexed twin of kernel 04 (kernels/gemm/04_mma_sync.cu):
// the kernel as it was before it was written in the vocabulary of tessera/device_tensor.hpp
// (partitions from the algebra, then index arithmetic on run-time strides and raw PTX written by
// hand). check_twins.py compiles both and compares their k-loops opcode by opcode.
#include <type_traits>

#include "../../../kernels/gemm/elem.cuh"
#include "hand_common.cuh"

// NOTE: each configuration computes the layouts of both fragment paths (ldmatrix for 16-bit,
// LDS.32 for tf32) and uses one; nvcc warns about the other's unreferenced members.
#pragma nv_diag_suppress 177

namespace tessera::ladder {
namespace {

// ---------------------------------------------------------------------------------------------
// Element types and their atoms.

// Which mode of an operand is contiguous in global memory, and so in its shared tile: K (BLAS
// 'T' for A, 'N' for B) or M/N ('N' for A, 'T' for B).
enum class Major { kK, kMN };

__device__ __forceinline__ uint32_t to_tf32(uint32_t bits) {
  return ptx::to_tf32(__uint_as_float(bits));
}

template <Elem E>
struct ElemInfo;
template <>
struct ElemInfo<Elem::kF16> : ElemOut<Elem::kF16> {
  static constexpr int64_t kBK = 32, kStages = 4;
  TESSERA_HD static constexpr MmaAtom atom() { return atom::sm80_16x8x16_f32f16(); }
  __device__ static void mma(float (&d)[4], uint32_t const (&a)[4], uint32_t const (&b)[2]) {
    ptx::mma_m16n8k16_f32f16(d, a, b, d);
  }
};
template <>
struct ElemInfo<Elem::kBF16> : ElemOut<Elem::kBF16> {
  static constexpr int64_t kBK = 32, kStages = 4;
  TESSERA_HD static constexpr MmaAtom atom() { return atom::sm80_16x8x16_f32bf16(); }
  __device__ static void mma(float (&d)[4], uint32_t const (&a)[4], uint32_t const (&b)[2]) {
    ptx::mma_m16n8k16_f32bf16(d, a, b, d);
  }
};
template <>
struct ElemInfo<Elem::kTF32> : ElemOut<Elem::kTF32> {
  static constexpr int64_t kBK = 32, kStages = 3;
  TESSERA_HD static constexpr MmaAtom atom() { return atom::sm80_16x8x8_f32tf32(); }
  __device__ static void mma(float (&d)[4], uint32_t const (&a)[4], uint32_t const (&b)[2]) {
    ptx::mma_m16n8k8_f32tf32(d, a, b, d);
  }
};

// The TiledMMA of every configuration: the permutation notes' step 4 (mma.sync) with the element
// type's atom.
template <Elem E>
TESSERA_HD constexpr TiledMMA step4_mma() {
  const MmaAtom a = ElemInfo<E>::atom();
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

// A layout's coordinate runs `n` consecutive values along one mode of a TileCoords: value v at
// (row0 + v, col0) (mode 0) or (row0, col0 + v) (mode 1).
TESSERA_HD constexpr bool runs_along(TileCoords const& c, int64_t n, int mode) {
  for (int64_t v = 0; v < n; ++v) {
    int64_t r = c.frg_row(v) - c.frg_row(0), k = c.frg_col(v) - c.frg_col(0);
    if ((mode == 0 && (r != v || k != 0)) || (mode == 1 && (r != 0 || k != v))) return false;
  }
  return true;
}

// Equal partitions, value by value, for every thread: how a copy's registers are checked
// against the MMA's fragment. Each side is (thread -> offset) + (value -> offset), so
// c_thr(t) + c_frg(i) == m_thr(t) + m_frg(i) for every (t, i) exactly when the thread offsets
// differ by one constant for every t and the value offsets by its opposite for every i (take
// i = 0, then t = 0): threads + values evaluations instead of threads x values.
// NOTE: the product form cost every front end (EDG twice, g++ once) seconds per configuration.
TESSERA_HD constexpr bool same_partition(TiledCopy const& copy, TiledMMA const& mma, Operand op,
                                         Layout const& tile) {
  Layout c_thr = copy_thread_offsets(copy, tile, true), c_frg = copy.partition_D(tile, 0).layout;
  Layout m_thr = mma.partitioner(op, tile).thread, m_frg = mma.partitioner(op, tile).fragment;
  if (c_frg.size() != m_frg.size()) return false;
  const int64_t delta = c_thr(0) - m_thr(0);
  for (int64_t t = 0; t < mma.threads(); ++t)
    if (c_thr(t) - m_thr(t) != delta) return false;
  for (int64_t i = 0; i < c_frg.size(); ++i)
    if (c_frg(i) - m_frg(i) != -delta) return false;
  return true;
}

// ---------------------------------------------------------------------------------------------
// One operand (A or B): its swizzled shared tile, the cp.async copy global -> shared, and the
// fragment load shared -> registers. Tiles are (rows, BK) = (BM or BN, BK) in (MN, K).
template <Elem E, Operand kOp, Major kMaj, int64_t BK>
struct OperandCfg {
  static constexpr Major kMajor = kMaj;
  using Info = ElemInfo<E>;
  using T = typename Info::T;
  static constexpr int kThreads = 128;
  static constexpr int64_t kRows = 128, kBK = BK, kBits = Info::kBits;
  static constexpr int64_t kVec = 128 / kBits;  // elements per 16-byte vector
  static constexpr TiledMMA kMma = step4_mma<E>();
  static constexpr int kMode = TiledMMA::mode0(kOp);  // M (A) or N (B)

  // Shared tile, one stage: contiguous along the global contiguous mode, swizzled.
  static constexpr Layout kTile = Layout(make_tuple(kRows, kBK));  // compact (rows, BK)
  static constexpr Layout kSmem = kMajor == Major::kK
                                      ? Layout(make_tuple(kRows, kBK), make_tuple(kBK, 1))
                                      : Layout(make_tuple(kRows, kBK), make_tuple(1, kRows));
  static constexpr Swizzle kSwizzle = smem_swizzle(kBits, kMajor);
  static constexpr int64_t kStageElems = kRows * kBK;

  // global -> shared: 16-byte vectors along the contiguous mode, 128 threads.
  //   K-major: threads (rows / (BK/vec), BK/vec) with k fastest;  MN-major: (rows/vec, ..).
  static constexpr int64_t kAlongK = kBK / kVec, kAlongMN = kRows / kVec;
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
  static constexpr Layout kSrcThr = copy_thread_offsets(kCopy, kTile, false);
  static constexpr Layout kSrcFrg = kCopy.partition_S(kTile, 0).layout;  // (CPY, CPY_MN, CPY_K)
  static constexpr TileCoords kSrcCrd = make_coords(kSrcThr, kSrcFrg, kRows);
  static constexpr Layout kDstThr = copy_thread_offsets(kCopy, kSmem, true);
  static constexpr Layout kDstFrg = kCopy.partition_D(kSmem, 0).layout;
  static constexpr int kCopies = int(kSrcFrg.size() / kVec);

  // shared -> registers. The MMA's partition of the tile: (FrgV, Rest_MN, Rest_K) per thread.
  static constexpr Layout kMmaFrg = kMma.partitioner(kOp, kTile).fragment;
  static constexpr int kRestMN = int(kMmaFrg[1].size()), kRestK = int(kMmaFrg[2].size());
  static constexpr int kRegs = int(kMmaFrg.size() * kBits / 32);  // 32-bit registers per k-tile
  static constexpr int kRegsK = kRegs / kRestK;                     // per k-step

  // ldmatrix (16-bit): a TiledCopy over the permutation tile (32, K) whose TV layout is the
  // TiledMMA's (thread -> offset, values = the thread's fragment of that tile), CuTe's
  // make_tiled_copy_A/B. Source: each lane's 16-byte row in shared memory; destination: the
  // registers, which must be the MMA fragment value for value.
  static constexpr Layout kPermTile =
      Layout(make_tuple(kMma.tile_size(kMode), kMma.tile_size(2)));
  TESSERA_HD static constexpr TiledCopy make_ldsm() {
    Layout tv =
        make_layout(kMma.partitioner(kOp, kPermTile).thread, kMma.thrfrg(kOp, kPermTile)[1]);
    return TiledCopy{atom::ldmatrix(4, kMajor == Major::kMN), tv, kPermTile.shape};
  }
  static constexpr bool kLdsm = kBits == 16;
  static constexpr TiledCopy kLdsmCopy = kLdsm ? make_ldsm() : TiledCopy{};
  static constexpr Layout kLdsmThr =
      kLdsm ? copy_thread_offsets(kLdsmCopy, kSmem, false) : Layout();
  static constexpr Layout kLdsmFrg = kLdsm ? kLdsmCopy.partition_S(kSmem, 0).layout : Layout();
  static constexpr int kLdsmCount = kLdsm ? int(kLdsmFrg.size() / 8) : 0;  // ldmatrix.x4 per k-tile

  // LDS.32 (tf32): each value straight from the MMA partition of the swizzled tile.
  static constexpr ThreadPartition kMmaSmem =
      kLdsm ? ThreadPartition{} : kMma.partitioner(kOp, kSmem);
  static constexpr Layout kMmaThr = kMmaSmem.thread, kMmaSmemFrg = kMmaSmem.fragment;

  // The static checks, instantiated by the kernel (see common.cuh, "Static checks").
  __device__ static constexpr void check() {
    static_assert(kSmem.cosize() == kStageElems, "04: a shared tile must be compact");
    static_assert(kStageElems % kSwizzle.span() == 0,
                  "04: a stage must hold whole swizzle periods (stage offsets commute with it)");
    static_assert((int64_t(1) << kSwizzle.base) >= kVec,
                  "04: the swizzle must keep 16-byte vectors whole (base >= log2(vector))");
    static_assert(kCopy.threads() == kThreads,
                  "04: the global -> shared copy must use 128 threads");
    static_assert(runs_along(kSrcCrd, kVec, kMajor == Major::kK ? 1 : 0),
                  "04: a 16-byte copy must run along the operand's contiguous global mode");
    static_assert(contiguous_prefix(kDstFrg) >= kVec,
                  "04: a 16-byte copy must land on consecutive shared elements");
    static_assert(kMmaFrg.rank() == 3 && kRestK * kMma.tile_size(2) == kBK,
                  "04: the fragment must be (FrgV, Rest_MN, Rest_K) and span the k-tile");
    static_assert(
        !kLdsm || (kLdsmCount * 4 == kRegs && kLdsmCount % kRestK == 0 &&
                   contiguous_prefix(kLdsmFrg) >= 8),
        "04: ldmatrix.x4 must read 16-byte rows and fill exactly the fragment's registers");
    static_assert(!kLdsm || same_partition(kLdsmCopy, kMma, kOp, kTile),
                  "04: the registers ldmatrix fills must be the MMA's fragment, value by value");
    static_assert(kLdsm || same_offsets(kMma, kOp, kSmem, kMmaThr),
                  "04: thread-offset layout disagrees with TiledMMA::partition");
  }
};

// The whole configuration: A, B, C, the pipeline, the block order.
// The tuning knobs: k-tile depth, pipeline stages, CTAs per SM the registers are cut for
// (0: the element type's defaults, BK 32 and 4 stages for 16-bit, 3 for tf32; 2 CTAs per SM).
// NOTE: measured on H200, f16 NN 4096^3 / 8192^3 (TFLOP/s): default 315 / 297; 5 stages 293 /
// 275; BK 64 x 3 stages 275 / 267; 1 CTA per SM 226 / 215; 3 CTAs per SM (168 registers,
// spills) 241 / 235. The 240-register kernel keeps 2 CTAs (8 warps) per SM.
template <int BK = 0, int Stages = 0, int MinBlocks = 2>
struct Shape {};

template <Elem E, Major kMajorA, Major kMajorB, class S = Shape<>>
struct MmaSyncCfg;
template <Elem E, Major kMajorA, Major kMajorB, int BK, int Stages, int MinBlocks>
struct MmaSyncCfg<E, kMajorA, kMajorB, Shape<BK, Stages, MinBlocks>> {
  using Info = ElemInfo<E>;
  using T = typename Info::T;
  static constexpr int64_t kBM = 128, kBN = 128, kBK = BK ? BK : Info::kBK;
  using A = OperandCfg<E, Operand::kA, kMajorA, kBK>;
  using B = OperandCfg<E, Operand::kB, kMajorB, kBK>;
  static constexpr int kThreads = 128, kMinBlocks = MinBlocks;
  static constexpr int kStages = Stages ? Stages : int(Info::kStages);
  static constexpr int64_t kGroupM = 8;  // CTA tile-rows per L2 group
  static constexpr TiledMMA kMma = step4_mma<E>();
  static constexpr int64_t kSmemBytes =
      kStages * (A::kStageElems + B::kStageElems) * int64_t(sizeof(T));

  // C: the MMA partition of the compact (BM,BN) tile, (FrgV, Rest_M, Rest_N), and its
  // coordinates for the predicated epilogue.
  static constexpr Layout kTileC = Layout(make_tuple(kBM, kBN));
  static constexpr ThreadPartition kPartC = kMma.partitioner(Operand::kC, kTileC);
  static constexpr Layout kThrC = kPartC.thread, kFrgC = kPartC.fragment;
  static constexpr TileCoords kCrdC = make_coords(kThrC, kFrgC, kBM);
  static constexpr int kRestM = A::kRestMN, kRestN = B::kRestMN, kRestK = A::kRestK;

  // The static checks, instantiated by the kernel (see common.cuh, "Static checks").
  __device__ static constexpr void check() {
    A::check();
    B::check();
    static_assert(kMma.threads() == kThreads, "04: the TiledMMA must have 128 threads (4 warps)");
    static_assert(kBM % kMma.tile_size(0) == 0 && kBN % kMma.tile_size(1) == 0 &&
                      kBK % kMma.tile_size(2) == 0,
                  "04: the permutation tile must divide the CTA tile");
    static_assert(kSmemBytes <= 227 * 1024, "04: the pipeline does not fit in shared memory");
    static_assert(same_offsets(kMma, Operand::kC, kTileC, kThrC),
                  "04: thread-offset layout of C disagrees with TiledMMA::partition_C");
    static_assert(kFrgC.size() == 4 * kRestM * kRestN && int(kFrgC[1].size()) == kRestM &&
                      B::kRestK == kRestK,
                  "04: C's fragment must be (4, Rest_M, Rest_N) with A's Rest_M and B's Rest_N");
    static_assert(
        kRestK >= 2 && kRestK % 2 == 0,
        "04: the k-tile must hold an even number (>= 2) of k-steps (double-buffered fragments)");
  }
};

// ---------------------------------------------------------------------------------------------
// One operand's (rows, BK) tiles, global -> shared stages (tXgX -> tXsX) with cp.async, zero-filled
// outside the matrix (partial vectors). Per thread only the first copy's source and (row, k) are
// kept; copy c adds the compile-time coordinate of its first value (few registers: they are
// needed by the MMAs).
template <class Op>
struct GmemToSmem {
  using T = typename Op::T;
  static constexpr int kCopies = Op::kCopies;
  static constexpr int64_t kVec = Op::kVec;
  const T* src;   // the thread's first element in k-tile 0
  int r0, k0;     // its (row, k) in the tile
  int64_t s_r, s_k, res_r;

  __device__ __forceinline__ GmemToSmem(const T* g, int64_t s_r_, int64_t s_k_, int64_t res_r_)
      : s_r(s_r_), s_k(s_k_), res_r(res_r_) {
    // NOTE: device code reads a config's layouts through function-local static constexpr copies
    // (a class's static constexpr member is not a device variable), lowered to FlatLayouts.
    static constexpr FlatCoords kSrcCrd = flat(Op::kSrcCrd);
    const int64_t t = threadIdx.x;
    r0 = int(kSrcCrd.thr_row(t)), k0 = int(kSrcCrd.thr_col(t));
    src = g + r0 * s_r + k0 * s_k;
  }

  // k-tile kt (res_k = K - kt*BK left) into `stage`.
  __device__ __forceinline__ void copy(int64_t kt, int64_t res_k, T* stage) const {
    static constexpr FlatCoords kSrcCrd = flat(Op::kSrcCrd);
    static constexpr Swizzle kSwizzle = Op::kSwizzle;
    static constexpr FlatLayout kDstThr = flat(Op::kDstThr), kDstFrg = flat(Op::kDstFrg);
    const int64_t t = threadIdx.x;
    const T* tile = src + kt * Op::kBK * s_k;
#pragma unroll
    for (int c = 0; c < kCopies; ++c) {
      const int dr = int(kSrcCrd.frg_row(c * kVec)), dk = int(kSrcCrd.frg_col(c * kVec));
      const int64_t r = r0 + dr, k = k0 + dk;
      const T* from = tile + dr * s_r + dk * s_k;
      T* to = stage + kSwizzle(kDstThr(t) + kDstFrg(c * kVec));
      // Elements of this vector inside the matrix: along the contiguous mode, up to kVec.
      const int64_t along = Op::kMajor == Major::kK ? res_k - k : res_r - r;
      const bool other = Op::kMajor == Major::kK ? r < res_r : k < res_k;
      const int n = other ? int(min64(max64(along, 0), kVec)) : 0;
      ptx::cp_async_16_partial(to, n > 0 ? from : src, n * int(sizeof(T)));
    }
  }
};

// One k-step's fragments of one operand (Rest_K index k), shared -> registers: ldmatrix.x4
// (16-bit) or LDS.32 (tf32, rounded to tf32). regs = the MMA fragment (FrgV, Rest_MN) of that
// k-step in 32-bit words; the fragment's values for k-step k are the k-th run of kRegsK words.
template <class Op>
__device__ __forceinline__ void load_fragment(typename Op::T const* stage, int k,
                                              uint32_t (&regs)[Op::kRegsK]) {
  static constexpr Swizzle kSwizzle = Op::kSwizzle;
  const int64_t t = threadIdx.x;
  if constexpr (Op::kLdsm) {
    static constexpr FlatLayout kLdsmThr = flat(Op::kLdsmThr), kLdsmFrg = flat(Op::kLdsmFrg);
    const int64_t base = kLdsmThr(t);
    constexpr int kPerK = Op::kLdsmCount / Op::kRestK;
#pragma unroll
    for (int j = 0; j < kPerK; ++j) {
      const void* row = stage + kSwizzle(base + kLdsmFrg(8 * (j + kPerK * k)));
      uint32_t r[4];
      if constexpr (Op::kMajor == Major::kMN) ptx::ldmatrix_x4_trans(r, row);
      else ptx::ldmatrix_x4(r, row);
#pragma unroll
      for (int i = 0; i < 4; ++i) regs[4 * j + i] = r[i];
    }
  } else {
    static constexpr FlatLayout kMmaThr = flat(Op::kMmaThr), kMmaSmemFrg = flat(Op::kMmaSmemFrg);
    const int64_t base = kMmaThr(t);
#pragma unroll
    for (int i = 0; i < Op::kRegsK; ++i)
      regs[i] = to_tf32(*reinterpret_cast<const uint32_t*>(
          stage + kSwizzle(base + kMmaSmemFrg(i + Op::kRegsK * k))));
  }
}

template <class Cfg>
__global__ void __launch_bounds__(Cfg::kThreads, Cfg::kMinBlocks) gemm_04_kernel(GemmArgsC args) {
  Cfg::check();
  using T = typename Cfg::T;
  using A = typename Cfg::A;
  using B = typename Cfg::B;
  constexpr int64_t kBM = Cfg::kBM, kBN = Cfg::kBN, kBK = Cfg::kBK;
  constexpr int kStages = Cfg::kStages, kRestM = Cfg::kRestM, kRestN = Cfg::kRestN,
                kRestK = Cfg::kRestK;
  static constexpr FlatCoords kCrdC = flat(Cfg::kCrdC);
  GemmArgs const& p = args.p;

  // Shared memory: kStages x sA (BM,BK) swizzled, then kStages x sB (BN,BK) swizzled.
  extern __shared__ uint4 smem_raw[];
  T* sA = reinterpret_cast<T*>(smem_raw);
  T* sB = sA + kStages * A::kStageElems;

  // Block order: groups of kGroupM tile-rows, column by column inside a group (L2 reuse).
  const int64_t tiles_m = ceil_div(p.m, kBM), tiles_n = ceil_div(p.n, kBN);
  const auto [tile_m, tile_n] = grouped_tile(blockIdx.x, tiles_m, tiles_n, Cfg::kGroupM);

  // local_tile: gA (BM,BK,k), gB (BN,BK,k), gC (BM,BN) and their residues.
  // NOTE: GemmArgs carries float pointers (part 1); here they hold T.
  const int64_t m0 = tile_m * kBM, n0 = tile_n * kBN;
  const T* gA = reinterpret_cast<const T*>(p.a) + m0 * p.a_sm;
  const T* gB = reinterpret_cast<const T*>(p.b) + n0 * p.b_sn;
  T* gC = reinterpret_cast<T*>(p.c) + m0 * args.c_sm + n0 * args.c_sn;
  const int64_t res_m = p.m - m0, res_n = p.n - n0;
  const int64_t k_tiles = ceil_div(p.k, kBK);

  const GmemToSmem<A> tAgA(gA, p.a_sm, p.a_sk, res_m);  // (CPY, CPY_M, CPY_K, k)
  const GmemToSmem<B> tBgB(gB, p.b_sn, p.b_sk, res_n);  // (CPY, CPY_N, CPY_K, k)
  auto load_tile = [&](int64_t kt, int stage) {
    const int64_t res_k = p.k - kt * kBK;
    T* tAsA = sA + stage * A::kStageElems;
    T* tBsB = sB + stage * B::kStageElems;
    tAgA.copy(kt, res_k, tAsA);
    tBgB.copy(kt, res_k, tBsB);
  };

  // Producer prologue: kStages-1 tiles in flight (a group is committed even when empty, so
  // that wait<kStages-2> always means "tile kt has landed").
  // NOTE: a loop, not unrolled: once per CTA, and unrolled it tripled the copy code (ptxas time).
#pragma unroll 1
  for (int s = 0; s < kStages - 1; ++s) {
    if (s < k_tiles) load_tile(s, s);
    ptx::cp_async_commit();
  }

  float tCrC[4 * kRestM * kRestN];  // (FrgV, Rest_M, Rest_N) accumulators
#pragma unroll
  for (int i = 0; i < 4 * kRestM * kRestN; ++i) tCrC[i] = 0.0f;

  for (int64_t kt = 0; kt < k_tiles; ++kt) {
    ptx::cp_async_wait<kStages - 2>();
    __syncthreads();  // tile kt visible to all; stage (kt-1) % kStages free again
    {
      // Producer: tile kt+kStages-1 into the stage tile kt-1 used.
      const int64_t fill = kt + kStages - 1;
      if (fill < k_tiles) load_tile(fill, int(fill % kStages));
      ptx::cp_async_commit();
    }

    // Consumer: shared -> registers -> tensor cores, fragments one k-step ahead (double-buffered
    // registers: k-step k+1 loads while the MMAs of k-step k run).
    const int stage = int(kt % kStages);
    const T* tCsA = sA + stage * A::kStageElems;  // (BM,BK) swizzled
    const T* tCsB = sB + stage * B::kStageElems;  // (BN,BK) swizzled
    uint32_t tCrA[2][A::kRegsK];  // (FrgV, Rest_M) of one k-step, as 32-bit words
    uint32_t tCrB[2][B::kRegsK];  // (FrgV, Rest_N)
    load_fragment<A>(tCsA, 0, tCrA[0]);
    load_fragment<B>(tCsB, 0, tCrB[0]);
#pragma unroll
    for (int k = 0; k < kRestK; ++k) {
      if (k + 1 < kRestK) {
        load_fragment<A>(tCsA, k + 1, tCrA[(k + 1) % 2]);
        load_fragment<B>(tCsB, k + 1, tCrB[(k + 1) % 2]);
      }
#pragma unroll
      for (int n = 0; n < kRestN; ++n)
#pragma unroll
        for (int m = 0; m < kRestM; ++m) {
          // Serpentine over m so that consecutive MMAs share a B fragment.
          const int mm = n % 2 ? kRestM - 1 - m : m;
          Cfg::Info::mma(*reinterpret_cast<float(*)[4]>(&tCrC[4 * (mm + kRestM * n)]),
                         *reinterpret_cast<const uint32_t(*)[4]>(&tCrA[k % 2][4 * mm]),
                         *reinterpret_cast<const uint32_t(*)[2]>(&tCrB[k % 2][2 * n]));
        }
    }
  }
  ptx::cp_async_wait<0>();

  // Epilogue: tCgC = partition_C(gC), identity-tensor predicated, converted to T.
  const int64_t t = threadIdx.x;
  store_c_strided<typename Cfg::Info>(tCrC, kCrdC, kCrdC.thr_row(t), kCrdC.thr_col(t), res_m,
                                      res_n, gC, args.c_sm, args.c_sn, p.alpha, p.beta);
}

template <Elem E, Major kA, Major kB, class S = Shape<>>
cudaError_t launch(GemmArgsC const& args, cudaStream_t stream) {
  using Cfg = MmaSyncCfg<E, kA, kB, S>;
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

cudaError_t launch_04_f16(GemmArgs const& p, cudaStream_t s) {
  return launch_elem<Elem::kF16>(p, s);
}
cudaError_t launch_04_bf16(GemmArgs const& p, cudaStream_t s) {
  return launch_elem<Elem::kBF16>(p, s);
}
cudaError_t launch_04_tf32(GemmArgs const& p, cudaStream_t s) {
  return launch_elem<Elem::kTF32>(p, s);
}

}  // namespace tessera::ladder
