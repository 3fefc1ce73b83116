// tests/cuda/twins/03_hand.cu -- the hand-indexed twin of kernel 03
// (kernels/gemm/03_simt_pipelined.cu): the kernel as it was before it was written in the vocabulary
// of tessera/device_tensor.hpp (partitions from the algebra, then index arithmetic on run-time
// strides and raw PTX written by hand). check_twins.py compiles both and compares their k-loops
// opcode by opcode.
#include "hand_common.cuh"

namespace tessera::ladder {
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

// 256 threads. Vectors: (32,8):(1,32) x (4,1), a warp reads 512 contiguous bytes of one k-row.
// Scalars: (256/W, W):(W,1), W = min(BK, 16): a warp reads 32/W rows of W contiguous floats and
// stores them transposed to words k*(rows+4) + r of the padded tile, banks (4k + r) % 32.
TESSERA_HD constexpr CopyPlan make_plan(CopyKind kind, Layout const& tile, Layout const& smem) {
  const int64_t bk = tile.shape[1].value(), w = bk < 16 ? bk : 16;
  TiledCopy c = kind == CopyKind::kVectorMN
                    ? make_tiled_copy_tv(atom::cp_async(16, 32), parse_layout("(32,8):(1,32)"),
                                         parse_layout("(4,1):(1,0)"))
                    : make_tiled_copy_tv(atom::cp_async(4, 32),
                                         Layout(make_tuple(256 / w, w), make_tuple(w, 1)),
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
using DefaultShape = Shape<128, 128, 32, 3, 2>;

template <CopyKind kCopyA, CopyKind kCopyB, class S = DefaultShape>
struct SimtPipelinedCfg {
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

// One operand's (rows, BK) tiles, global -> shared stages (tXgX -> tXsX).
//
// Copy c of k-tile kt reads src + frg(c) + kt*BK*s_k, frg(c) = row(c)*s_r + col(c)*s_k with
// compile-time row(c), col(c): a few integer instructions and one cp.async per copy, nothing
// tested. That fast path is taken where the whole (rows, BK) tile lies inside the matrix; the
// guarded path (CTAs on the M or N edge, the last k-tile when BK does not divide K) also tests
// each copy's rows and k and zero-fills what lies outside (a 16-byte run may straddle the edge).
template <class Cfg, int kOperand>
struct GmemToSmem {
  static constexpr CopyPlan kPlan = kOperand == 0 ? Cfg::kPlanA : Cfg::kPlanB;
  static constexpr int kVec = int(kPlan.vec);
  static constexpr int kCopies = int(kPlan.src_frg.size() / kVec);

  const float* src;  // this thread's first copy of k-tile 0
  int dst;           // this thread's first destination in a stage, in floats

  // g: the tile's first element; s_r, s_k: strides of its rows and of k (kernel parameters, so
  // that they stay in the constant bank instead of taking registers).
  __device__ __forceinline__ GmemToSmem(const float* g, int64_t s_r, int64_t s_k) {
    static constexpr FlatCoords kCrd = flat(kPlan.crd);
    static constexpr FlatLayout kDstThr = flat(kPlan.dst_thr);
    const int64_t t = threadIdx.x;
    src = g + kCrd.thr_row(t) * s_r + kCrd.thr_col(t) * s_k;
    dst = int(kDstThr(t));
  }

  // Each copy's row and k inside the tile and its shared destination, as tables for the guarded
  // copy (with the layouts evaluated in each of its unrolled copies, the file compiled 1.2 s
  // slower; the fast copy keeps the layouts: with the tables it spilled).
  struct Offsets {
    int row[kCopies], k[kCopies], dst[kCopies];
  };
  TESSERA_HD static constexpr Offsets make_offsets() {
    Offsets o{};
    for (int c = 0; c < kCopies; ++c) {
      o.row[c] = int(kPlan.crd.frg_row(c * kVec));
      o.k[c] = int(kPlan.crd.frg_col(c * kVec));
      o.dst[c] = int(kPlan.dst_frg(c * kVec));
    }
    return o;
  }

  // Copies the k-tile whose first copy reads `tile` into `stage`, every copy whole.
  __device__ __forceinline__ void copy(const float* tile, float* stage, int64_t s_r,
                                       int64_t s_k) const {
    static constexpr FlatCoords kCrd = flat(kPlan.crd);
    static constexpr FlatLayout kDstFrg = flat(kPlan.dst_frg);
#pragma unroll
    for (int c = 0; c < kCopies; ++c) {
      const float* from = tile + kCrd.frg_row(c * kVec) * s_r + kCrd.frg_col(c * kVec) * s_k;
      float* to = stage + dst + kDstFrg(c * kVec);
      if constexpr (kVec == 1) ptx::cp_async_4(to, from);
      else ptx::cp_async_16(to, from);
    }
  }

  // The same where only res_r rows and res_k columns of K are left in the matrix: what lies
  // outside is zero-filled.
  // NOTE: a call, not inlined: inlined in the k-loop (unrolled or not) it changed ptxas's
  // register allocation of the main loop, which lost 5 % (H100, 4096^3); as a call the main
  // loop is untouched and edge tiles pay the call (1000^3: 0.49x cuBLAS, 0.41x with the loop
  // inlined and not unrolled).
  __device__ __noinline__ void copy_guarded(const float* tile, float* stage, int64_t s_r,
                                            int64_t s_k, int64_t res_r, int64_t res_k) const {
    static constexpr FlatCoords kCrd = flat(kPlan.crd);
    static constexpr Offsets kOff = make_offsets();
    const int64_t t = threadIdx.x;
    const int64_t r0 = kCrd.thr_row(t), k0 = kCrd.thr_col(t);
#pragma unroll
    for (int c = 0; c < kCopies; ++c) {
      const int dr = kOff.row[c], dk = kOff.k[c];
      const int bytes = k0 + dk < res_k ? int(min64(max64(res_r - r0 - dr, 0), kVec) * 4) : 0;
      const float* from = bytes > 0 ? tile + dr * s_r + dk * s_k : src;  // src: any mapped address
      float* to = stage + dst + kOff.dst[c];
      if constexpr (kVec == 1) ptx::cp_async_4(to, from, bytes > 0);
      else ptx::cp_async_16_partial(to, from, bytes);
    }
  }
};

template <class Cfg>
__global__ void __launch_bounds__(Cfg::kThreads, Cfg::kMinBlocks)
gemm_03_kernel(GemmArgsC args) {
  Cfg::check();
  GemmArgs const& p = args.p;
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
  float* gC = p.c + m0 * args.c_sm + n0 * args.c_sn;
  const int64_t res_m = p.m - m0, res_n = p.n - n0;

  const GmemToSmem<Cfg, 0> tAgA(gA, p.a_sm, p.a_sk);  // (CPY, CPY_M, CPY_K, k)
  const GmemToSmem<Cfg, 1> tBgB(gB, p.b_sn, p.b_sk);  // (CPY, CPY_N, CPY_K, k)
  const int k_tiles = int(ceil_div(p.k, kBK));  // < 2^31: launch() checks
  // k-tiles before this one take the fast copy (see GmemToSmem).
  const int first_guarded = res_m >= kBM && res_n >= kBN ? int(p.k / kBK) : 0;
  const int64_t step_a = kBK * p.a_sk, step_b = kBK * p.b_sk;
  const float* next_a = tAgA.src;  // the next k-tile to load
  const float* next_b = tBgB.src;
  int next_kt = 0;
  int write_stage = 0;
  // Loads k-tile next_kt (if there is one) into write_stage and commits a cp.async group (even
  // when empty, so that wait<kStages-2> always means "the oldest tile in flight has landed").
  auto load_next = [&] {
    if (next_kt < k_tiles) {
      float* dA = sA + write_stage * Cfg::kStageA;
      float* dB = sB + write_stage * Cfg::kStageB;
      if (next_kt < first_guarded) {
        tAgA.copy(next_a, dA, p.a_sm, p.a_sk);
        tBgB.copy(next_b, dB, p.b_sn, p.b_sk);
      } else {
        const int64_t res_k = p.k - int64_t(next_kt) * kBK;
        tAgA.copy_guarded(next_a, dA, p.a_sm, p.a_sk, res_m, res_k);
        tBgB.copy_guarded(next_b, dB, p.b_sn, p.b_sk, res_n, res_k);
      }
    }
    ptx::cp_async_commit();
    next_a += step_a, next_b += step_b, ++next_kt;
    write_stage = write_stage + 1 == kStages ? 0 : write_stage + 1;
  };

  // Prologue: kStages-1 tiles in flight.
#pragma unroll 1
  for (int s = 0; s < kStages - 1; ++s) load_next();

  const int64_t t = threadIdx.x;
  const float* tCsA = sA + kThrA(t);  // (V,M,K) = (1,(4,2),BK) of the stage being read
  const float* tCsB = sB + kThrB(t);  // (V,N,K) = (1,(4,2),BK)
  int read_stage = 0;
  float tCrC[kFM * kFN];  // (V,M,N) accumulators
#pragma unroll
  for (int i = 0; i < kFM * kFN; ++i) tCrC[i] = 0.0f;

  // Fragments tCsA(:,:,kb) -> tCrA, tCsB(:,:,kb) -> tCrB, 128-bit loads, double-buffered: the
  // loads of step kb+1 are issued before the FMAs of step kb, across k-tiles too.
  float tCrA[2][kFM], tCrB[2][kFN];
  auto load_fragments = [&](int buf, int kb) {
#pragma unroll
    for (int i = 0; i < kFM; i += kVec)
      *reinterpret_cast<float4*>(&tCrA[buf][i]) =
          *reinterpret_cast<const float4*>(tCsA + kFrgA(i + kFM * kb));
#pragma unroll
    for (int i = 0; i < kFN; i += kVec)
      *reinterpret_cast<float4*>(&tCrB[buf][i]) =
          *reinterpret_cast<const float4*>(tCsB + kFrgB(i + kFN * kb));
  };

  // The k-tile is walked in blocks of kUnrollK steps, each block unrolled (a fully unrolled
  // 32-step tile doubled the compile time for no speed).
  constexpr int kUnrollK = kBK < 16 ? int(kBK) : 16;
  static_assert(kBK % kUnrollK == 0, "simt: BK must be a multiple of the unrolled block");
  static constexpr int64_t kBlockA = kFrgA(kFM * kUnrollK), kBlockB = kFrgB(kFN * kUnrollK);

  ptx::cp_async_wait<kStages - 2>();
  __syncthreads();  // k-tile 0 visible to all
  load_fragments(0, 0);
  for (int kt = 0; kt < k_tiles; ++kt) {
    // The stage of k-tile kt-1 is free: every thread passed the barrier after its last read.
    load_next();
#pragma unroll 1
    for (int block = 0; block < kBK / kUnrollK; ++block) {
#pragma unroll
      for (int kb = 0; kb < kUnrollK; ++kb) {
        if (kb + 1 < kUnrollK) {
          load_fragments((kb + 1) % 2, kb + 1);
        } else {
          if (block + 1 < kBK / kUnrollK) {
            tCsA += kBlockA, tCsB += kBlockB;  // the next block of this k-tile
          } else {
            // k-tile kt+1 landed and visible; the stage of kt is read no more.
            ptx::cp_async_wait<kStages - 2>();
            __syncthreads();
            read_stage = read_stage + 1 == kStages ? 0 : read_stage + 1;
            tCsA = sA + read_stage * Cfg::kStageA + kThrA(t);
            tCsB = sB + read_stage * Cfg::kStageB + kThrB(t);
          }
          load_fragments((kb + 1) % 2, 0);
        }
        // 8x8 FMAs, every other column walked backwards: consecutive FMAs share an operand.
        const int cur = kb % 2;
#pragma unroll
        for (int n = 0; n < kFN; ++n)
#pragma unroll
          for (int mm = 0; mm < kFM; ++mm) {
            const int m = n % 2 ? kFM - 1 - mm : mm;
            tCrC[m + kFM * n] = fmaf(tCrA[cur][m], tCrB[cur][n], tCrC[m + kFM * n]);
          }
      }
    }
  }
  ptx::cp_async_wait<0>();

  // Epilogue: tCgC = partition_C(gC). Runs of 4 rows go out as one 16-byte store when C's
  // columns are contiguous and 16-byte aligned and the run is inside the matrix; else per element.
  const int64_t thr_m = kCrdC.thr_row(t), thr_n = kCrdC.thr_col(t);
  const bool c_vec =
      args.c_sm == 1 && args.c_sn % 4 == 0 && reinterpret_cast<uintptr_t>(p.c) % 16 == 0;
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
                                                (thr_n + kCrdC.frg_col(v0 + i)) * args.c_sn);
        float4 r = {p.alpha * a[i], p.alpha * a[i + 1], p.alpha * a[i + 2], p.alpha * a[i + 3]};
        if (p.beta != 0.0f) {
          float4 old = *out;
          r.x += p.beta * old.x, r.y += p.beta * old.y, r.z += p.beta * old.z,
              r.w += p.beta * old.w;
        }
        *out = r;
      }
#pragma unroll
      for (int i = 0; i + kGroup < kValues; ++i) a[i] = a[i + kGroup];
    }
  } else {
    store_c_strided<F32Out>(tCrC, kCrdC, thr_m, thr_n, res_m, res_n, gC, args.c_sm, args.c_sn,
                            p.alpha, p.beta);
  }
}

template <CopyKind kA, CopyKind kB, class S = DefaultShape>
cudaError_t launch(GemmArgsC const& args, cudaStream_t stream) {
  using Cfg = SimtPipelinedCfg<kA, kB, S>;
  GemmArgs const& p = args.p;
  if (ceil_div(p.k, Cfg::kBK) > INT32_MAX) return cudaErrorInvalidValue;  // k-tiles count in int
  auto kernel = gemm_03_kernel<Cfg>;
  cudaError_t e = cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                       int(Cfg::kSmemBytes));
  if (e != cudaSuccess) return e;
  const int64_t blocks = ceil_div(p.m, Cfg::kBM) * ceil_div(p.n, Cfg::kBN);
  kernel<<<unsigned(blocks), Cfg::kThreads, size_t(Cfg::kSmemBytes), stream>>>(args);
  return cudaGetLastError();
}

// 16-byte vectors need an MN-contiguous operand whose pointer and leading dimension are
// 16-byte aligned; anything else takes the 4-byte, k-ordered copy.
bool vector_ok(const void* ptr, int64_t s_mn, int64_t s_k) {
  return s_mn == 1 && s_k % 4 == 0 && reinterpret_cast<uintptr_t>(ptr) % 16 == 0;
}

}  // namespace

// BLAS TT (A k-contiguous, B MN-contiguous) has no kernel of its own: it runs the NN kernel on
// the transposed problem C^T = B A^T, C written through its transpose (one kernel fewer to
// compile; H100, 4096^3: TT 1.02x of cuBLAS with its own kernel, NN 1.00x).
cudaError_t launch_03(GemmArgs const& p, cudaStream_t stream) {
  const bool a_vec = vector_ok(p.a, p.a_sm, p.a_sk), b_vec = vector_ok(p.b, p.b_sn, p.b_sk);
  using K = CopyKind;
  if (a_vec) return b_vec ? launch<K::kVectorMN, K::kVectorMN>(as_given(p), stream)
                          : launch<K::kVectorMN, K::kScalarK>(as_given(p), stream);
  return b_vec ? launch<K::kVectorMN, K::kScalarK>(transposed(p), stream)
               : launch<K::kScalarK, K::kScalarK>(as_given(p), stream);
}

}  // namespace tessera::ladder
