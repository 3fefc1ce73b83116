// kernels/attention/fa3_sm90.cuh -- attention forward on Hopper (FlashAttention-3's structure):
// TMA loads into 128-byte swizzled stages, wgmma SS for S = Q K^T, wgmma RS for O += P V with P
// from registers, a producer warpgroup and two consumer warpgroups with register reallocation.
// f16 or bf16 in, f32 accumulate, head dim 64, 128 or 256; sm_90a only.
//
// A persistent CTA of 3 warpgroups walks tiles (Fa3Walk, args.hpp); a tile is kBM = 128 rows of O
// of one (batch, head):
//
//   producer (warpgroup 0, one elected thread, 24 registers), per tile:
//     Q (its own ring of one or two stages: a later tile's Q once both consumers have done the
//     last S of the tile before it in that stage), then for each key block n: K_n, V_n into the
//     next stage of their rings (StagePipeline: a full and an empty barrier per stage)
//   consumer c = 0, 1 (warpgroups 1, 2, 240 registers), query rows [64 c, 64 c + 64):
//     wait Q; S_0 = Q K_0^T, softmax, P_0; for each key block n >= 1:
//       wait K_n and V_n-1; (ping-pong: wait for this consumer's turn)
//       issue S_n = Q K_n^T                 (wgmma m64n{BN}k16 SS, K-major stages)
//       issue O += P_n-1 V_n-1              (wgmma m64n{D}k16 RS, P from registers: acc_as_A;
//                                           V's stage (D, BN) MN-major); (pass the turn)
//       wait for S_n (P V in flight); release K_n
//       S_n = -inf where masked             (keys >= Sk; causal: key > query), coordinates from
//                                           an identity tensor partitioned like S
//       online softmax on S_n's rows        (acc_rowcol; reduce_rows: this thread's columns, then
//                                           the quad that shares the row)
//       wait for P V; release V_n-1; O's rows rescaled; P_n = convert_pairs<T>(S_n)
//     the last O += P V (with two Q stages, the next tile's S_0 issued with it); O /= l; LSE =
//     scale m + log l (column 0's thread); O staged for TMA stores (the narrow kernels) or
//     stored from registers where inside (the wide ones)
//
// The tensor maps are rank 4, (head_dim, seq, heads, batch) with the caller's strides, so a box
// that reaches past the (batch, head)'s sequence is zero-filled by TMA (never the next head's
// rows, which may hold anything). Both products' TiledMMAs are two wgmma atoms along M (one per
// consumer); S's accumulator partition is P V's A partition, checked by acc_as_A at compile time.
//
// NOTE: the softmax of S_n overlaps P_n-1 V_n-1 inside each consumer (FlashAttention-3's
// intra-warpgroup overlap), and for head dims <= 128 the two consumers take turns issuing their
// wgmmas (ping-pong, WarpgroupTurns: one's softmax runs while the other's products do).
#pragma once

#include <cuda.h>
#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include <tessera/algorithm/reduce.hpp>
#include <tessera/algorithm/sm90_epilogue.hpp>
#include <tessera/device_tensor.hpp>
#include <tessera/staged_smem.hpp>
#include <tessera/tma.hpp>
#include <tessera/warpgroup.hpp>
#include <tessera/warpgroup_mma.hpp>

#include "args.hpp"
#include "launch.hpp"
#include "online_softmax.cuh"
#include "tiled_mmas.hpp"

namespace tessera::attention {
namespace {

// A stage tile's TMA boxes for a rank-4 global tensor: the tile's two modes, then heads and
// batch with boxes of 1 (a box never crosses into another (batch, head)).
TESSERA_HD constexpr TmaTile tma_tile_bh(StagedTile const& s) {
  return make_tma_tile(with_unit_modes(s.tile, 4), s.elem_bits);
}

template <class T, int64_t D, bool kNarrowKeys>
struct Fa3Cfg {
  using Elem = T;
  static constexpr Fa3Tiles kTiles = fa3_sm90_tiles(D, kNarrowKeys);
  static constexpr int64_t kD = D, kBM = kTiles.bm, kBN = kTiles.bn;
  static constexpr int kStages = int(kTiles.stages), kQStages = int(kTiles.q_stages);
  static constexpr int kConsumers = 2;
  static constexpr int kThreads = int(kTiles.threads);
  static constexpr int kProducerRegs = 24, kConsumerRegs = 240;
  // The consumers take turns issuing their wgmmas (FlashAttention-3 does for head dims <= 128).
  static constexpr bool kPingPong = D <= 128;
  // Where Q has two stages, the next tile's S_0 = Q K_0^T is issued with this tile's last P V,
  // and this tile's epilogue runs beside it.
  static constexpr bool kFirstSBeforeEpilogue = kQStages == 2;
  // (M,N,K) of the two products: S = Q K^T is (BM,BN,D), O = P V is (BM,D,BN).
  static constexpr Coord<3> kTileS = {{kBM, kBN, kD}};
  static constexpr Coord<3> kTileO = {{kBM, kD, kBN}};
  // S = Q K^T: wgmma m64n{BN}k16, A and B from shared memory; O += P V: m64n{D}k16, A (P) from
  // registers. Two atoms along M: consumer c takes rows [64 c, 64 c + 64) (tiled_mmas.hpp).
  struct MmaS {
    static constexpr TiledMMA kMma = fa3_sm90_mma_s(kBN);
  };
  struct MmaO {
    static constexpr TiledMMA kMma = fa3_sm90_mma_o(D);
  };
  // Stage tiles, 128-byte swizzle: Q (BM,D) K-major in two 64-row wgmma blocks (one per
  // consumer); K (BN,D) K-major, one block of BN rows; V as P V's B operand (N,K) = (D,BN),
  // D contiguous (MN-major), one block of D rows.
  static constexpr StagedTile kQ = make_staged_tile(16, kBM, kD, true, 64, kQStages);
  static constexpr StagedTile kK = make_staged_tile(16, kBN, kD, true, kBN, kStages);
  static constexpr StagedTile kV = make_staged_tile(16, kD, kBN, false, kD, kStages);
  // Their TMA boxes in the rank-4 maps: Q and K (seq, D, heads, batch), V (D, seq, heads, batch)
  // (tile mode order; the maps' dimension 0 is head_dim for all three).
  static constexpr TmaTile kTmaQ = tma_tile_bh(kQ);
  static constexpr TmaTile kTmaK = tma_tile_bh(kK);
  static constexpr TmaTile kTmaV = tma_tile_bh(kV);
  // O through shared memory in the narrow kernels (kTiles.o_staged; args.hpp says why not in
  // the wide ones): each consumer normalizes its 64 rows in registers, then stages them 64
  // columns at a time, 128-byte swizzled rows written by stmatrix, for one TMA store each
  // (SmemEpilogue; the box clips the rows past Sq).
  static constexpr bool kOStaged = kTiles.o_staged;
  static constexpr SwizzledLayout kOStage = gmma_smem_tile(GmmaSwizzle::kB128, true, 16, 64, 64);
  using EpiO = SmemEpilogue<MmaO, T, kOStage, 1, 4>;
  struct OStaging {
    alignas(1024) uint8_t bytes[kConsumers * EpiO::kBytes];
  };
  struct NoStaging {};
  using PipeQ = StagePipeline<kQStages, kConsumers>;
  using PipeKV = StagePipeline<kStages, kConsumers>;
  struct SharedStorage {
    SmemStages<T, kQ> q;
    SmemStages<T, kK> k;
    SmemStages<T, kV> v;
    PipelineStorage<kQStages> pipe_q;
    PipelineStorage<kStages> pipe_k, pipe_v;
    [[no_unique_address]] std::conditional_t<kOStaged, OStaging, NoStaging> o;
  };
  static constexpr int64_t kSmemBytes = kSharedStorageBytes<SharedStorage>;

  __device__ static constexpr void check() {
    static_assert(kD == 64 || kD == 128 || kD == 256, "fa3_sm90: head_dim must be 64, 128 or 256");
    static_assert(
        MmaS::kMma.threads() == 128 * kConsumers && MmaO::kMma.threads() == 128 * kConsumers,
        "fa3_sm90: both TiledMMAs must be the consumer warpgroups");
    static_assert(kBM == 64 * kConsumers, "fa3_sm90: one 64-row wgmma block per consumer");
    static_assert(kTmaQ.bytes() == kQ.stage_bytes() && kTmaK.bytes() == kK.stage_bytes() &&
                      kTmaV.bytes() == kV.stage_bytes(),
                  "fa3_sm90: the TMA boxes must cover each stage tile");
    static_assert(kSmemBytes <= 227 * 1024 && kTiles.smem_bytes <= kSmemBytes,
                  "fa3_sm90: Q, the (K, V) stages and O's staging must fit in shared memory");
    static_assert(kTiles.smem_bytes == kQ.stages * kQ.stage_bytes() +
                                           kStages * (kK.stage_bytes() + kV.stage_bytes()) +
                                           (kOStaged ? kConsumers * EpiO::kBytes : 0),
                  "fa3_sm90: the tiles' shared memory is what fa3_sm90_tiles counted");
    static_assert(
        kThreads == 128 * (1 + kConsumers) && kProducerRegs + kConsumers * kConsumerRegs <= 512,
        "fa3_sm90: the roles' registers must fit the register file");
  }
};

// A CTA's work item: query block bm of (batch b, head h), and its number of key blocks.
struct Fa3Tile {
  int64_t bm, h, b, n_blocks;
};

// ---------------------------------------------------------------------------------------------
// Grid: fa3_sm90_ctas CTAs walking the q-blocks x heads_q x batch tiles (Fa3Walk); 384 threads;
// kSmemBytes of dynamic shared memory.
template <class Cfg>
__global__ void __launch_bounds__(Cfg::kThreads, 1)
    fa3_sm90_kernel(const __grid_constant__ CUtensorMap map_q,
                    const __grid_constant__ CUtensorMap map_k,
                    const __grid_constant__ CUtensorMap map_v,
                    const __grid_constant__ CUtensorMap map_o, AttnArgs const p,
                    Fa3Walk const walk) {
  Cfg::check();
  using T = typename Cfg::Elem;
  using MmaS = typename Cfg::MmaS;
  using MmaO = typename Cfg::MmaO;
  static constexpr Coord<3> kTileS = Cfg::kTileS;  // (BM,BN,D)
  static constexpr Coord<3> kTileO = Cfg::kTileO;  // (BM,D,BN)
  constexpr int64_t kD = Cfg::kD, kBM = Cfg::kBM, kBN = Cfg::kBN;
  constexpr int kStages = Cfg::kStages;

  extern __shared__ uint8_t smem_raw[];
  auto& smem = shared_storage<typename Cfg::SharedStorage>(smem_raw);
  const typename Cfg::PipeQ pipe_q{smem.pipe_q.full, smem.pipe_q.empty};
  const typename Cfg::PipeKV pipe_k{smem.pipe_k.full, smem.pipe_k.empty};
  const typename Cfg::PipeKV pipe_v{smem.pipe_v.full, smem.pipe_v.empty};
  if (threadIdx.x == 0) {
    prefetch_tma_map(&map_q), prefetch_tma_map(&map_k), prefetch_tma_map(&map_v);
    if constexpr (Cfg::kOStaged) prefetch_tma_map(&map_o);
    pipe_q.init(), pipe_k.init(), pipe_v.init();
  }
  __syncthreads();  // the barriers are initialized before any role uses them

  // The CTA's tiles: `walk` (args.hpp: whole units of one or, causal, two query blocks), made by
  // the host for this grid; a kernel argument, so its numbers take no registers.
  const auto tile_of = [&](Fa3Walk::Step t) {
    const int64_t bm = walk.q_block(t), hb = walk.head_batch(t);
    // Causal (top-left): the last query row of the block sees keys up to itself.
    const int64_t last = (bm + 1) * kBM;
    const int64_t keys = p.causal && last < p.seqlen_k ? last : p.seqlen_k;
    return Fa3Tile{bm, hb % p.heads_q, hb / p.heads_q, ceil_div(keys, kBN)};
  };

  if (canonical_warp_group_idx() == 0) {
    // Producer: per tile Q, then K_n and V_n for every key block, each box origin a tile
    // coordinate of the (batch, head): Q and K (seq, D, head, batch), V (D, seq, head, batch).
    // The next tile's Q waits until both consumers have read this one's for the last time.
    producer_role<Cfg::kProducerRegs>();
    if (canonical_warp_idx_in_group() == 0 && elect_one_sync()) {
      PipelineState<Cfg::kQStages> write_q;
      PipelineState<kStages> write_k, write_v;
      for (auto t = walk.first(blockIdx.x); walk.valid(t); t = walk.next(t)) {
        const Fa3Tile w = tile_of(t);
        const int64_t h_kv = w.h / p.group;
        copy(TmaLoad<Cfg::kTmaQ>{&map_q}, Coord<4>{{w.bm * kBM, 0, w.h, w.b}},
             smem.q(_, _, write_q.stage).ptr,
             pipe_q.producer_acquire(write_q, uint32_t(Cfg::kQ.stage_bytes())));
        write_q.advance();
        for (int64_t n = 0; n < w.n_blocks; ++n) {
          copy(TmaLoad<Cfg::kTmaK>{&map_k}, Coord<4>{{n * kBN, 0, h_kv, w.b}},
               smem.k(_, _, write_k.stage).ptr,
               pipe_k.producer_acquire(write_k, uint32_t(Cfg::kK.stage_bytes())));
          write_k.advance();
          copy(TmaLoad<Cfg::kTmaV>{&map_v}, Coord<4>{{0, n * kBN, h_kv, w.b}},
               smem.v(_, _, write_v.stage).ptr,
               pipe_v.producer_acquire(write_v, uint32_t(Cfg::kV.stage_bytes())));
          write_v.advance();
        }
      }
      pipe_k.producer_tail(write_k);  // every stage consumed before the producer exits
      pipe_v.producer_tail(write_v);
    }
  } else {
    consumer_role<Cfg::kConsumerRegs>();
    const int consumer = canonical_warp_group_idx() - 1;
    const int64_t thread = int64_t(threadIdx.x) - 128;  // in the consumers' TiledMMAs
    const WarpgroupMMA<MmaS> mma_s{consumer};
    const WarpgroupMMA<MmaO> mma_o{consumer};
    const ThrMMA<MmaS> thr_s{thread};
    const ThrMMA<MmaO> thr_o{thread};
    PipelineState<Cfg::kQStages> read_q;
    PipelineState<kStages> read_k, read_v;
    // Ping-pong (Cfg::kPingPong): the two consumers take turns issuing their products, so that
    // one's softmax runs while the other's wgmmas do. Both consumers walk the same tiles and take
    // the same turns: n_blocks + 1 a tile (n_blocks where S_0 shares the last P V's turn).
    const WarpgroupTurns<Cfg::kConsumers> turns{consumer};  // named barriers 1, 2
    constexpr int kOBarrier = 3;  // O's staging: consumer c syncs on named barrier 3 + c
    const auto my_turn = [&] {
      if constexpr (Cfg::kPingPong) turns.wait();
    };
    const auto pass_turn = [&] {
      if constexpr (Cfg::kPingPong) turns.pass();
    };
    if constexpr (Cfg::kPingPong) turns.start();

    auto tSrS = mma_s.partition_fragment_C();  // ((2,2,BN/8),1,1) f32: wgmma's D registers
    auto tOrO = mma_o.partition_fragment_C();  // ((2,2,D/8),1,1) f32
    // A tile's first product, S_0 = Q K_0^T, in a turn of its own at the top of the tile, or
    // (kFirstSBeforeEpilogue) with the previous tile's last P V, before that tile's epilogue.
    // NOTE: in that kernel the loop is entered and continued only with S_0 in flight and left
    // with nothing in flight: where paths with and without a wgmma in flight meet, ptxas waits
    // there and serializes the kernel's wgmmas (C7514-C7517), so the epilogue is on both paths.
    const auto gemm_first_s = [&] {
      gemm(mma_s, mma_s.partition_A(smem.q(_, _, read_q.stage)),
           mma_s.partition_B(smem.k(_, _, read_k.stage)), tSrS, false);
    };
    const auto issue_first_s = [&] {
      pipe_q.consumer_wait(read_q);
      pipe_k.consumer_wait(read_k);
      my_turn();
      gemm_first_s();
      pass_turn();
    };
    auto t = walk.first(blockIdx.x);
    if (!walk.valid(t)) return;  // (the grid has no more CTAs than units: never taken)
    if constexpr (Cfg::kFirstSBeforeEpilogue) issue_first_s();
    for (;;) {
      if constexpr (!Cfg::kFirstSBeforeEpilogue) issue_first_s();
      const Fa3Tile w = tile_of(t);
      const int64_t bm = w.bm, n_blocks = w.n_blocks;
      // This (batch, head)'s O (Sq,D), and the coordinates of S (Sq,Sk) and of O.
      auto mO = make_tensor(static_cast<T*>(p.o), make_shape(p.batch, p.heads_q, p.seqlen_q, kD),
                            make_stride(p.o_sb, p.o_sh, p.o_ss, unit))(w.b, w.h, _, _);
      auto cQ = make_identity_tensor(mO.shape);
      auto cS = make_identity_tensor(make_shape(p.seqlen_q, p.seqlen_k));
      auto gS = local_tile<kTileS, Proj{1, 1, 0}>(cS, bm, _, 0);  // (BM,BN) coordinates
      auto gO = local_tile<kTileO, Proj{1, 1, 0}>(mO, bm, 0, 0);  // (BM,D)
      auto cO = local_tile<kTileO, Proj{1, 1, 0}>(cQ, bm, 0, 0);  // (BM,D) coordinates
      auto tScS = thr_s.partition_C(gS);                          // (V,M,N) (query, key)
      // This consumer's 64 rows of the tile's Q.
      const auto tSsQ = mma_s.partition_A(smem.q(_, _, read_q.stage));
      const int q_stage = read_q.stage;
      clear(tOrO);

      // The softmax state of this thread's rows: running maximum (of raw S) and sum.
      auto row_max = make_fragment_like<float>(acc_rowcol(thr_s, tSrS)(_, 0));  // (rows)
      auto row_sum = make_fragment_like(row_max);
#pragma unroll
      for (int r = 0; r < row_max.size(); ++r) row_max(r) = -INFINITY, row_sum(r) = 0.0f;

      // The online softmax of key block n's S, in place (online_softmax.cuh); O's rows are
      // rescaled by `correction` once the product in flight with it is done.
      auto correction = make_fragment_like(row_max);  // (rows)
      const auto softmax = [&](int64_t n) {
        softmax_block<kBM, kBN>(thr_s, tSrS, tScS.at(n), n, bm, p, row_max, row_sum, correction);
      };
      const auto rescale_o = [&] { rescale_rows(thr_o, tOrO, correction); };
      // After the tile's last S = Q K^T: Q's stage is free for a later tile's Q.
      const auto release_q_after = [&](int64_t n) {
        if (n == n_blocks - 1) pipe_q.consumer_release(q_stage);
      };

      // Key block 0: S_0 (in flight since the previous tile's last turn), its softmax (O is
      // still 0), P_0 in 16 bits.
      warpgroup_wait<0>(tSrS);
      pipe_k.consumer_release(read_k.stage);
      read_k.advance();
      release_q_after(0);
      softmax(0);
      auto tOrP = convert_pairs<T>(tSrS);  // P, read as the A operand of P V (acc_as_A)
      for (int64_t n = 1; n < n_blocks; ++n) {
        // S_n = Q K_n^T and O += P_{n-1} V_{n-1} in flight together: S_n's softmax runs while
        // the tensor cores compute P V (FlashAttention-3's overlap inside a warpgroup).
        pipe_k.consumer_wait(read_k);
        pipe_v.consumer_wait(read_v);
        my_turn();
        gemm(mma_s, tSsQ, mma_s.partition_B(smem.k(_, _, read_k.stage)), tSrS, false);
        gemm(mma_o, acc_as_A<MmaO>(mma_s, tOrP), mma_o.partition_B(smem.v(_, _, read_v.stage)),
             tOrO, true);
        pass_turn();
        warpgroup_wait<1>(tSrS);  // S_n is done; P V may be in flight
        pipe_k.consumer_release(read_k.stage);
        read_k.advance();
        release_q_after(n);
        softmax(n);
        warpgroup_wait<0>(tOrO);  // O = O + P_{n-1} V_{n-1}: rescaled to the new maxima
        pipe_v.consumer_release(read_v.stage);
        read_v.advance();
        rescale_o();
        tOrP = convert_pairs<T>(tSrS);
      }
      // The last P V, and O's normalization and stores once it is done. Where the next tile's Q
      // is already loaded (kFirstSBeforeEpilogue), its S_0 is issued in the same turn.
      const auto issue_last_pv = [&] {
        gemm(mma_o, acc_as_A<MmaO>(mma_s, tOrP), mma_o.partition_B(smem.v(_, _, read_v.stage)),
             tOrO, true);
      };
      const auto epilogue = [&] {
        pipe_v.consumer_release(read_v.stage);
        read_v.advance();
        if constexpr (Cfg::kOStaged) {
          using EpiO = typename Cfg::EpiO;
          normalize_output<MmaS, decltype(tSrS), kTileO>(thr_o, tOrO, row_max, row_sum, cO, p, w.b,
                                                         w.h, bm);
          // Chunk j: O's rows of this consumer, columns [64 j, 64 j + 64), of (batch, head).
          const auto box = [&](int j) {
            return Coord<4>{{bm * kBM + 64 * consumer, j * EpiO::kCols, w.h, w.b}};
          };
          EpiO::store_at(tOrO, smem.o.bytes + consumer * EpiO::kBytes, TmaStore<EpiO::kTma>{&map_o},
                         box, kOBarrier + consumer, [](float x) { return x; });
        } else {
          store_output<T, MmaS, decltype(tSrS), kTileO>(thr_o, tOrO, row_max, row_sum, gO, cO, p,
                                                        w.b, w.h, bm);
        }
      };
      read_q.advance();
      t = walk.next(t);
      const bool more = walk.valid(t);
      pipe_v.consumer_wait(read_v);
      if constexpr (Cfg::kFirstSBeforeEpilogue) {
        if (more) {
          pipe_q.consumer_wait(read_q);
          pipe_k.consumer_wait(read_k);
          my_turn();
          issue_last_pv();
          gemm_first_s();
          pass_turn();
          warpgroup_wait<1>(tOrO);  // P V is done; S_0 may be in flight
          epilogue();
          continue;
        }
      }
      my_turn();
      issue_last_pv();
      pass_turn();
      warpgroup_wait<0>(tOrO);
      epilogue();
      if (Cfg::kFirstSBeforeEpilogue || !more) break;
    }
    if constexpr (Cfg::kOStaged) Cfg::EpiO::drain();  // the last store has read its buffer
  }
}

// ---- host --------------------------------------------------------------------------------------
// A mode's stride in the tensor map: a mode of extent 1 is never stepped and gets 16 bytes.
inline int64_t tma_stride(int64_t extent, int64_t stride) { return extent <= 1 ? 8 : stride; }

template <class T, int64_t D, bool kNarrowKeys>
cudaError_t launch_fa3_sm90_tiles(AttnArgs const& p, cudaStream_t stream) {
  using Cfg = Fa3Cfg<T, D, kNarrowKeys>;
  // Maps: Q, K and O (seq, D, heads, batch), V (D, seq, heads, batch); extents and strides in that
  // order (a mode of extent 1 gets a stride TMA accepts). A tensor TMA cannot address (a stride
  // of 0 along a mode of extent > 1: broadcast heads) is cudaErrorNotSupported: the caller
  // checks fa3_sm90_addressable first and takes the SM80 kernel for it.
  CUtensorMap maps[4];
  struct Operand {
    const void* ptr;
    int64_t heads, seq, sb, sh, ss;
  };
  const Operand ops[4] = {{p.q, p.heads_q, p.seqlen_q, p.q_sb, p.q_sh, p.q_ss},
                          {p.k, p.heads_kv, p.seqlen_k, p.k_sb, p.k_sh, p.k_ss},
                          {p.v, p.heads_kv, p.seqlen_k, p.v_sb, p.v_sh, p.v_ss},
                          {p.o, p.heads_q, p.seqlen_q, p.o_sb, p.o_sh, p.o_ss}};
  const TmaTile tiles[4] = {Cfg::kTmaQ, Cfg::kTmaK, Cfg::kTmaV, Cfg::EpiO::kTma};
  if (!fa3_sm90_addressable(p)) return cudaErrorNotSupported;
  for (int i = 0; i < 4; ++i) {
    Operand const& o = ops[i];
    const int64_t sb = tma_stride(p.batch, o.sb), sh = tma_stride(o.heads, o.sh),
                  ss = tma_stride(o.seq, o.ss);
    const bool seq_first = i != 2;  // V is (D, seq, heads, batch)
    const Coord<4> shape =
        seq_first ? Coord<4>{{o.seq, D, o.heads, p.batch}} : Coord<4>{{D, o.seq, o.heads, p.batch}};
    const Coord<4> stride = seq_first ? Coord<4>{{ss, 1, sh, sb}} : Coord<4>{{1, ss, sh, sb}};
    const TmaArgs args =
        make_tma_args(tiles[i], tma_data_type<T>(), reinterpret_cast<uint64_t>(o.ptr), shape,
                      stride, TmaL2Promotion::k256B);
    if (!tma_encode(&maps[i], args)) return cudaErrorInvalidValue;  // the driver refused it
  }
  auto kernel = fa3_sm90_kernel<Cfg>;
  cudaError_t e = cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                       int(Cfg::kSmemBytes));
  if (e != cudaSuccess) return e;
  int dev = 0, sms = 0;
  if ((e = cudaGetDevice(&dev)) != cudaSuccess ||
      (e = cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev)) != cudaSuccess)
    return e;
  const dim3 grid(unsigned(fa3_sm90_ctas(p, sms)));
  kernel<<<grid, Cfg::kThreads, size_t(Cfg::kSmemBytes), stream>>>(
      maps[0], maps[1], maps[2], maps[3], p, fa3_sm90_walk(p, grid.x));
  return cudaGetLastError();
}

// The kernel of the narrow or the wide key block (fa3_sm90_tiles): one where both agree.
template <class T, int64_t D>
cudaError_t launch_fa3_sm90(AttnArgs const& p, bool narrow_keys, cudaStream_t stream) {
  if constexpr (fa3_sm90_tiles(D, true).bn == fa3_sm90_tiles(D, false).bn)
    return launch_fa3_sm90_tiles<T, D, false>(p, stream);
  else
    return narrow_keys ? launch_fa3_sm90_tiles<T, D, true>(p, stream)
                       : launch_fa3_sm90_tiles<T, D, false>(p, stream);
}

}  // namespace

}  // namespace tessera::attention
