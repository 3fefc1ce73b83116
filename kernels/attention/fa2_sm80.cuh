// kernels/attention/fa2_sm80.cuh -- attention forward on mma.sync (FlashAttention-2's schedule),
// the teaching step: f16 or bf16 in, f32 accumulate, head dim 64, 128 or 256.
//
// One CTA of 4 warps computes kBM rows of O for one (batch, head), walking the keys kBN at a time:
//
//   S   = Q K_n^T                      (kBM,kBN) f32 accumulators, Q and K_n by ldmatrix
//   S   = -inf where masked            (keys >= Sk; causal: key > query), coordinates from an
//                                      identity tensor partitioned like S
//   m'  = max(m, rowmax S)             the accumulator's rows (acc_rowcol), reduced in the thread
//   P   = exp2(S log2e scale - m' log2e scale)   and across the lanes that share a row
//   l   = l exp(scale (m - m')) + rowsum P       (reduce_rows, row_shuffles: the quad)
//   O   = O exp(scale (m - m')) + P V_n          P in 16 bits read as the A operand of P V
//                                                (acc_as_A: no register table), V by
//                                                ldmatrix.trans
//   end: O /= l, LSE = scale m + log l
//
// Both products use one TiledMMA (m16n8k16, 4 warps along M, permutation tile (64,16,16) so that
// an ldmatrix x4 reads two n-atoms of B): S's accumulator partition and P V's A partition are
// then the same threads' elements, which acc_as_A checks at compile time.
//
// Memory: Q's tile and kStages (K, V) pairs in swizzled shared memory (16-byte chunks XOR the
// row mod 8: every cp.async store and ldmatrix row conflict-free), filled by 16-byte cp.async,
// zero-filled past the sequences (no padding asked of the caller). K_{n+1} and V_{n+1} are on
// their way while step n computes; V_n is waited for only before P V.
//
// The kernel body is the vocabulary (local_tile, partition_*, copy, gemm, acc_rowcol,
// reduce_rows, acc_as_A); the schedule (what is loaded when, the barriers) is written here.
#pragma once

#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include <tessera/device_tensor.hpp>

#include "args.hpp"
#include "launch.hpp"
#include "online_softmax.cuh"
#include "tiled_mmas.hpp"

namespace tessera::attention {
namespace {

template <class T>
struct ElemMma;
template <>
struct ElemMma<__half> {
  using Op = atom::SM80_16x8x16_F32F16F16F32_TN;
};
template <>
struct ElemMma<__nv_bfloat16> {
  using Op = atom::SM80_16x8x16_F32BF16BF16F32_TN;
};

TESSERA_HD constexpr int64_t log2_exact(int64_t x) {
  int64_t r = 0;
  while ((int64_t(1) << r) < x) ++r;
  return r;
}

template <class T, int64_t D>
struct Fa2Cfg {
  using Elem = T;
  using MmaOp = typename ElemMma<T>::Op;
  static constexpr Fa2Tiles kTiles = fa2_sm80_tiles(D);
  static constexpr int64_t kD = D, kBM = kTiles.bm, kBN = kTiles.bn;
  static constexpr int kThreads = int(kTiles.threads), kStages = int(kTiles.stages);
  // (M,N,K) of the two products: S = Q K^T is (BM,BN,D), O = P V is (BM,D,BN).
  static constexpr Coord<3> kTileS = {{kBM, kBN, kD}};
  static constexpr Coord<3> kTileO = {{kBM, kD, kBN}};
  static constexpr TiledMMA kMma = fa2_sm80_mma(MmaOp::atom());

  // Shared tiles, rows of D elements: 16-byte chunks (3 bits of 8 elements) XOR the row mod 8
  // (the 3 bits from log2(D)), so 8 rows at one chunk column fall in 8 different bank groups.
  static constexpr Swizzle kSwizzle = Swizzle(3, 3, int(log2_exact(kD)) - 3);
  static constexpr int64_t kQElems = kBM * kD, kStageElems = kBN * kD;
  static constexpr int64_t kKVElems = kStages * kStageElems;
  static constexpr SwizzledLayout kSQ =
      composition(kSwizzle, Layout(make_tuple(kBM, kD), make_tuple(kD, int64_t(1))));
  // K and V as stored: (BN,D,PIPE), rows of D. V is read by P V as its B operand (N,K) = (D,BN):
  // the same memory through (D,BN,PIPE):(1,D,BN D), D-major (ldmatrix.trans).
  static constexpr SwizzledLayout kSKV = composition(
      kSwizzle,
      Layout(make_tuple(kBN, kD, int64_t(kStages)), make_tuple(kD, int64_t(1), kStageElems)));
  static constexpr SwizzledLayout kSVt = composition(
      kSwizzle,
      Layout(make_tuple(kD, kBN, int64_t(kStages)), make_tuple(int64_t(1), kD, kStageElems)));
  static constexpr int64_t kSmemBytes = kTiles.smem_bytes;

  // global -> shared: 16-byte cp.async, 16 rows x 8 threads (64 elements) per pass.
  struct G2S {
    static constexpr TiledCopy kCopy =
        make_tiled_copy_tv(atom::cp_async(16, 16), Layout(make_tuple(16, 8), make_tuple(8, 1)),
                           Layout(make_tuple(1, 8), make_tuple(0, 1)));
  };
  // shared -> registers: ldmatrix x4 whose (thread, value) layout is the TiledMMA's over its
  // permutation tile (MN,16): Q (A), K (B) and V (B, .trans).
  template <Operand kOp, bool kTrans>
  struct S2R {
    static constexpr Layout kTile =
        Layout(make_tuple(kMma.tile_size(TiledMMA::mode0(kOp)), kMma.tile_size(2)));
    static constexpr TiledCopy kCopy = TiledCopy{
        atom::ldmatrix(4, kTrans),
        make_layout(kMma.partitioner(kOp, kTile).thread, kMma.thrfrg(kOp, kTile)[1]), kTile.shape};
  };
  using S2RQ = S2R<Operand::kA, false>;
  using S2RK = S2R<Operand::kB, false>;
  using S2RV = S2R<Operand::kB, true>;

  __device__ static constexpr void check() {
    static_assert(kD == 64 || kD == 128 || kD == 256, "fa2_sm80: head_dim must be 64, 128 or 256");
    static_assert(kMma.threads() == kThreads, "fa2_sm80: the TiledMMA must have the CTA's threads");
    static_assert(kBM % kMma.tile_size(0) == 0 && kBN % 16 == 0 && kD % 16 == 0,
                  "fa2_sm80: the permutation tile (64,16,16) must divide (BM,BN,D)");
    static_assert(kQElems % kSwizzle.span() == 0 && kStageElems % kSwizzle.span() == 0,
                  "fa2_sm80: a stage must hold whole swizzle periods");
    static_assert(
        same_partition(S2RQ::kCopy, kMma, Operand::kA, Layout(make_tuple(kBM, kD))) &&
            same_partition(S2RK::kCopy, kMma, Operand::kB, Layout(make_tuple(kBN, kD))) &&
            same_partition(S2RV::kCopy, kMma, Operand::kB, Layout(make_tuple(kD, kBN))),
        "fa2_sm80: the registers ldmatrix fills must be the MMA's fragments, value by value");
    static_assert(kSmemBytes == 2 * (kQElems + 2 * kKVElems) && kSmemBytes <= 227 * 1024,
                  "fa2_sm80: Q and the (K, V) stages must fit in shared memory");
  }
};

// ---------------------------------------------------------------------------------------------
// Grid (q-blocks, heads_q, batch); 128 threads; kSmemBytes of dynamic shared memory.
template <class Cfg>
__global__ void __launch_bounds__(Cfg::kThreads) fa2_sm80_kernel(AttnArgs const p) {
  Cfg::check();
  using T = typename Cfg::Elem;
  static constexpr Coord<3> kTileS = Cfg::kTileS;  // (BM,BN,D)
  static constexpr Coord<3> kTileO = Cfg::kTileO;  // (BM,D,BN)
  constexpr int64_t kD = Cfg::kD, kBM = Cfg::kBM, kBN = Cfg::kBN;
  constexpr int kStages = Cfg::kStages;
  const int64_t bm = blockIdx.x, h = blockIdx.y, b = blockIdx.z, h_kv = h / p.group;

  // This (batch, head)'s matrices: Q and O (Sq,D), K and V (Sk,D), and the coordinates of S
  // (Sq,Sk).
  const auto bhsd = [](int64_t bb, int64_t hh, int64_t s) { return make_shape(bb, hh, s, kD); };
  auto mQ = make_tensor(static_cast<const T*>(p.q), bhsd(p.batch, p.heads_q, p.seqlen_q),
                        make_stride(p.q_sb, p.q_sh, p.q_ss, unit))(b, h, _, _);
  auto mK = make_tensor(static_cast<const T*>(p.k), bhsd(p.batch, p.heads_kv, p.seqlen_k),
                        make_stride(p.k_sb, p.k_sh, p.k_ss, unit))(b, h_kv, _, _);
  auto mV = make_tensor(static_cast<const T*>(p.v), bhsd(p.batch, p.heads_kv, p.seqlen_k),
                        make_stride(p.v_sb, p.v_sh, p.v_ss, unit))(b, h_kv, _, _);
  auto mO = make_tensor(static_cast<T*>(p.o), bhsd(p.batch, p.heads_q, p.seqlen_q),
                        make_stride(p.o_sb, p.o_sh, p.o_ss, unit))(b, h, _, _);
  auto cQ = make_identity_tensor(mQ.shape), cKV = make_identity_tensor(mK.shape);
  auto cS = make_identity_tensor(make_shape(p.seqlen_q, p.seqlen_k));

  // This CTA's tiles; `_` keeps the key mode (key block n: .at(n)).
  auto gQ = local_tile<kTileS, Proj{1, 0, 1}>(mQ, bm, 0, 0);   // (BM,D)
  auto gK = local_tile<kTileS, Proj{0, 1, 1}>(mK, bm, _, 0);   // (BN,D)
  auto gV = local_tile<kTileS, Proj{0, 1, 1}>(mV, bm, _, 0);   // (BN,D)
  auto cK = local_tile<kTileS, Proj{0, 1, 1}>(cKV, bm, _, 0);  // (BN,D)
  auto gS = local_tile<kTileS, Proj{1, 1, 0}>(cS, bm, _, 0);   // (BM,BN) coordinates
  auto gO = local_tile<kTileO, Proj{1, 1, 0}>(mO, bm, 0, 0);   // (BM,D)
  auto cO = local_tile<kTileO, Proj{1, 1, 0}>(cQ, bm, 0, 0);   // (BM,D) coordinates

  extern __shared__ uint4 smem_raw[];
  T* smem = reinterpret_cast<T*>(smem_raw);
  auto sQ = make_tensor<Cfg::kSQ>(smem);                                   // (BM,D)
  auto sK = make_tensor<Cfg::kSKV>(smem + Cfg::kQElems);                   // (BN,D,PIPE)
  auto sV = make_tensor<Cfg::kSKV>(smem + Cfg::kQElems + Cfg::kKVElems);   // (BN,D,PIPE)
  auto sVt = make_tensor<Cfg::kSVt>(smem + Cfg::kQElems + Cfg::kKVElems);  // (D,BN,PIPE)

  // global -> shared (cp.async, zero-filled past the sequences).
  const ThrCopy<typename Cfg::G2S> g2s{threadIdx.x};
  auto tQgQ = g2s.partition_S(gQ);  // (CPY,CPY_M,CPY_D)
  auto tQcQ = g2s.partition_S(local_tile<kTileS, Proj{1, 0, 1}>(cQ, bm, 0, 0));
  auto tQsQ = g2s.partition_D(sQ);
  auto tKgK = g2s.partition_S(gK);  // (CPY,CPY_N,CPY_D)
  auto tVgV = g2s.partition_S(gV);
  auto tKcK = g2s.partition_S(cK);
  auto tKsK = g2s.partition_D(sK);  // (CPY,CPY_N,CPY_D,PIPE)
  auto tVsV = g2s.partition_D(sV);

  // The MMA's registers: Q, K (S = Q K^T), V (O = P V), the accumulators S and O.
  const ThrMMA<Cfg> thr_mma{threadIdx.x};
  auto tSrQ = thr_mma.partition_fragment_A(sQ);   // (V,M,D/16)
  auto tSrK = thr_mma.partition_fragment_B(sK);   // (V,N,D/16)
  auto tOrV = thr_mma.partition_fragment_B(sVt);  // (V,D/8,BN/16)
  auto tSrS = thr_mma.partition_fragment_C(gS);   // (V,M,N) f32
  auto tOrO = thr_mma.partition_fragment_C(gO);   // (V,M,D/8) f32
  auto tScS = thr_mma.partition_C(gS);            // (V,M,N) coordinates (query, key)
  clear(tOrO);

  // shared -> registers: ldmatrix straight into the fragments.
  const ThrCopy<typename Cfg::S2RQ> s2r_q{threadIdx.x};
  const ThrCopy<typename Cfg::S2RK> s2r_k{threadIdx.x};
  const ThrCopy<typename Cfg::S2RV> s2r_v{threadIdx.x};
  auto tXsQ = s2r_q.partition_S(sQ);  // (CPY,CPY_M,CPY_D)
  auto tXrQ = s2r_q.retile_D(tSrQ);
  auto tXsK = s2r_k.partition_S(sK);  // (CPY,CPY_N,CPY_D,PIPE)
  auto tXrK = s2r_k.retile_D(tSrK);
  auto tXsV = s2r_v.partition_S(sVt);  // (CPY,CPY_D,CPY_N,PIPE)
  auto tXrV = s2r_v.retile_D(tOrV);

  // The softmax state of this thread's rows: running maximum (of raw S) and sum.
  auto row_max = make_fragment_like<float>(acc_rowcol(thr_mma, tSrS)(_, 0));  // (rows)
  auto row_sum = make_fragment_like(row_max);
  auto correction = make_fragment_like(row_max);  // what O's rows are multiplied by, per block
#pragma unroll
  for (int r = 0; r < row_max.size(); ++r) row_max(r) = -INFINITY, row_sum(r) = 0.0f;

  // Causal (top-left): the last query row of this block sees keys up to itself.
  const int64_t last = (bm + 1) * kBM;
  const int64_t keys = p.causal && last < p.seqlen_k ? last : p.seqlen_k;
  const int64_t n_blocks = ceil_div(keys, kBN);
  auto load_k = [&](int64_t n) { copy(g2s, tKgK.at(n), tKsK(_, _, _, n % kStages), tKcK.at(n)); };
  auto load_v = [&](int64_t n) { copy(g2s, tVgV.at(n), tVsV(_, _, _, n % kStages), tKcK.at(n)); };

  // Groups committed in order: (Q, K_0), V_0, then K_{n+1}, V_{n+1} at step n (empty at the end).
  copy(g2s, tQgQ, tQsQ, tQcQ);
  load_k(0);
  ptx::cp_async_commit();
  load_v(0);
  ptx::cp_async_commit();

  for (int64_t n = 0; n < n_blocks; ++n) {
    const int stage = int(n % kStages);
    ptx::cp_async_wait<1>();  // K_n (and Q) landed; V_n may be in flight
    __syncthreads();          // ... for every thread; and step n-1 is done with its stage
    if (n + 1 < n_blocks) load_k(n + 1);
    ptx::cp_async_commit();
    if (n + 1 < n_blocks) load_v(n + 1);
    ptx::cp_async_commit();

    // S = Q K_n^T, fragments one k-block at a time.
    clear(tSrS);
    auto tXsK_n = tXsK(_, _, _, stage);
#pragma unroll
    for (int kb = 0; kb < int(kD / 16); ++kb) {
      copy(s2r_q, tXsQ(_, _, kb), tXrQ(_, _, kb));
      copy(s2r_k, tXsK_n(_, _, kb), tXrK(_, _, kb));
      gemm(thr_mma, tSrQ(_, _, kb), tSrK(_, _, kb), tSrS);
    }

    // The mask and the online softmax over the rows of S; O's rows rescaled to the new maxima.
    softmax_block<kBM, kBN>(thr_mma, tSrS, tScS.at(n), n, bm, p, row_max, row_sum, correction);
    rescale_rows(thr_mma, tOrO, correction);

    // O += P V_n: P in 16 bits is the A operand, in the registers it was computed in.
    auto tOrP = convert_pairs<T>(tSrS);
    auto tOrPa = acc_as_A<Cfg>(thr_mma, tOrP);  // (V,M,BN/16)
    ptx::cp_async_wait<2>();                    // V_n landed (K_{n+1}, V_{n+1} may be in flight)
    __syncthreads();
    auto tXsV_n = tXsV(_, _, _, stage);
#pragma unroll
    for (int kb = 0; kb < int(kBN / 16); ++kb) {
      copy(s2r_v, tXsV_n(_, _, kb), tXrV(_, _, kb));
      gemm(thr_mma, tOrPa(_, _, kb), tOrV(_, _, kb), tOrO);
    }
  }
  ptx::cp_async_wait<0>();

  store_output<T, Cfg, decltype(tSrS), kTileO>(thr_mma, tOrO, row_max, row_sum, gO, cO, p, b, h,
                                               bm);
}

template <class T, int64_t D>
cudaError_t launch_fa2_sm80(AttnArgs const& p, cudaStream_t stream) {
  using Cfg = Fa2Cfg<T, D>;
  auto kernel = fa2_sm80_kernel<Cfg>;
  cudaError_t e = cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                       int(Cfg::kSmemBytes));
  if (e != cudaSuccess) return e;
  const dim3 grid(unsigned(ceil_div(p.seqlen_q, Cfg::kBM)), unsigned(p.heads_q), unsigned(p.batch));
  kernel<<<grid, Cfg::kThreads, size_t(Cfg::kSmemBytes), stream>>>(p);
  return cudaGetLastError();
}

}  // namespace

}  // namespace tessera::attention
