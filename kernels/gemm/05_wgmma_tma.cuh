// kernels/gemm/05_wgmma_tma.cuh -- ladder step 05: Hopper (sm_90a) tensor cores, wgmma + TMA,
// written in the vocabulary: this file is the schedule; the layouts say the rest.
//
// One element type and C tile per translation unit (05_wgmma_tma_{f16,bf16,tf32,e4m3,e5m2}.cu:
// 128 x 256, _n128.cu and _n64.cu: the narrow tiles of skinny problems, _n64_m64.cu: the short
// one, _promoted.cu: FP8 with its sums promoted to fp32; the plan picks one per problem,
// plan.cpp), so that each compiles on its own in seconds and they build in parallel.
//
// What it adds to 04, each a decision made once in WgmmaTmaCfg:
//   - the MMA is a warpgroup's wgmma m64n256k16 (f16, bf16), m64n256k8 (tf32) or m64n256k32 (FP8:
//     e4m3 or e5m2, C stored as fp32, f16 or bf16 after the call's scales); two consumer
//     warpgroups tile the CTA's 128x256 block along M (TiledMMA of atoms (2,1,1)), 128 F32
//     accumulators per thread (skinny problems: 128 x 128 or 128 x 64, and for f16 and bf16 the
//     short 64 x 64 tile of one consumer warpgroup, _m64.cu);
//   - the operand stage tiles are the 128-byte-swizzled GMMA smem atoms (gmma_smem_tile), K-major
//     or MN-major like global memory. Everything else is read off those tile layouts: the wgmma
//     descriptors and each block's offset (make_gmma_operand, tessera/gmma.hpp), the TMA boxes,
//     their swizzle mode and the multicast split (make_tma_tile, tessera/tma.hpp), the tensor
//     maps' arguments (make_tma_args);
//   - warp specialization: one producer warpgroup (one thread issues the TMA loads, registers
//     given up) and two consumer warpgroups (registers taken), a kStages ring of stages on
//     full/empty mbarriers (StagePipeline, tessera/pipeline.hpp);
//   - clusters of kCluster CTAs along M sharing their B tile: each CTA loads its share of the B
//     boxes and multicasts them;
//   - a persistent grid (one CTA per SM) walking the C tiles in grouped (L2-friendly) order, the
//     producer running ahead into the next tile while the consumers store the last one;
//   - residues: TMA fills out-of-bounds box elements with zeros (any M, N, K); the epilogue
//     (sm90_epilogue.cuh) is predicated, or stores through TMA where the plan says (tma_store).
//     TMA needs 16-byte aligned pointers and leading dimensions, and tf32 wgmma reads K-major
//     shared tiles only: a tf32 A that is MN-major goes through registers instead (kARegs: the
//     RS form of wgmma, a second kernel in each tf32 unit); other operands are first packed
//     K-major into a scratch buffer.
//
// NOTE: tf32. wgmma reads the fp32 bits TMA put in shared memory and drops the low 13 bits of
// the mantissa (truncation), where 04 rounds in registers: an operand's relative error is
// below 2^-10 instead of 2^-11, so a product's is below 2^-9 ~ 1.95e-3 (the test's bound for
// this kernel; measured errors are far smaller for K > 1). Packed operands are rounded; A through
// registers is truncated the same way.
#pragma once

#include <type_traits>

#include <cuda.h>

#include <tessera/device_tensor.hpp>
#include <tessera/gmma.hpp>
#include <tessera/pipeline.hpp>
#include <tessera/sm90_mainloop.hpp>
#include <tessera/staged_smem.hpp>
#include <tessera/tma.hpp>
#include <tessera/warpgroup.hpp>
#include <tessera/warpgroup_mma.hpp>

#include "elem.cuh"
#include "per_device_cache.hpp"
#include "sm90_epilogue.cuh"

namespace tessera::ladder {
namespace {

// An operand's stage tile (kRows, kBK), K-major or MN-major, loaded by kLoaders CTAs of a cluster
// (multicast), read by wgmma in blocks of kBlockRows rows: the layout, and what is read off it.
template <int64_t kBits, int64_t kRows, int64_t kBK, int64_t kBlockRows, bool kKMajor, int kLoaders>
struct StageTile {
  static constexpr SwizzledLayout kTile =
      gmma_smem_tile(GmmaSwizzle::kB128, kKMajor, kBits, kRows, kBK);
  static constexpr TmaTile kTma = make_tma_tile(kTile, kBits, kLoaders);
  static constexpr int64_t kBytes = kTma.bytes();
  static_assert(kBytes == kRows * kBK * kBits / 8, "05: the TMA boxes must cover the stage tile");
  // The tile as wgmma reads it (evaluated only where used: tf32's MN-major A is not readable).
  static constexpr StagedTile kStaged =
      make_staged_tile(kBits, kRows, kBK, kKMajor, kBlockRows, 1, kLoaders);
  static constexpr GmmaOperand kMma = kStaged.mma;
};

// kTileN: the C tile's columns, 256, 128 or 64 (wgmma_tile, plan.cpp, says which problems take
// which); each consumer thread holds kAcc = kTileN / 2 accumulators. kARegs: A reaches wgmma
// through registers (tf32 with A MN-major, which wgmma cannot read from shared memory).
// kConsumers_: consumer warpgroups, 64 rows of the tile each (2: 128 rows; 1: the short tile of
// skinny problems, 64 rows, f16, bf16 and e4m3 with promoted sums on 64 columns).
// kPromoted_: FP8 whose sums are promoted to fp32 every k-tile, with block scales or not, on the
// kPromotedN-wide tile, or kPromotedNarrowN-wide (128 or 64 rows) for few columns
// (mainloop_promoted; a kernel of its own: its sums are not wgmma accumulators, those of the
// other mainloops are).
template <Elem E, int64_t kTileN, bool kARegs_ = false, int kConsumers_ = 2,
          bool kPromoted_ = false>
struct WgmmaTmaCfg {
  using Info = ElemOut<E>;
  using T = typename Info::T;
  static constexpr int64_t kBits = Info::kBits;
  static constexpr bool kARegs = kARegs_, kPromoted = kPromoted_;
  static_assert(!kPromoted || (kBits == 8 && (kTileN == WgmmaShape::kPromotedN ||
                                                kTileN == WgmmaShape::kPromotedNarrowN)),
                "05: promoted sums are FP8's, on the kPromotedN or kPromotedNarrowN-wide tile "
                "(the plan's rule)");
  static_assert(!kARegs || kBits == 32,
                "05: only tf32 takes A through registers (16-bit wgmma reads MN-major tiles)");
  using WithARegs = WgmmaTmaCfg<E, kTileN, true, kConsumers_, kPromoted_>;
  static constexpr int kConsumers = kConsumers_, kThreads = 128 * (kConsumers + 1),
                       kAcc = int(kTileN / 2);
  static constexpr int64_t kBM = WgmmaShape::kConsumerRows * kConsumers, kBN = kTileN;
  static constexpr int64_t kBK = 1024 / kBits;  // one 128-byte row of K
  static_assert(
      kConsumers == 2 || (kConsumers == 1 && !kARegs),
      "05: one or two consumer warpgroups; A through registers needs two (kPermM covers 128 rows)");
  // wgmma_tile transposes only narrow tiles
  static constexpr bool kSwappable = kBN < WgmmaShape::kWideN;
  // tf32 and FP8 wgmma read K-major stage tiles only (the plan packs other operands first).
  static constexpr bool kKMajorOnly = kBits != 16;
  // A cluster of kCluster CTAs takes kCluster C tiles along M that share their B tile: each
  // CTA loads 1/kCluster of B and multicasts it to all (B from L2 once per cluster; 2 rather
  // than 1 or 4: bench/results/gemm_plan_rules.md).
  static constexpr int kCluster = 2;
  // Cluster tile-rows per L2 group: 16 C tile-rows (2048 rows of A) next to ~8 tile-columns
  // (66 clusters at once). The promoted kernel's 2: its running tiles drift apart in K, and
  // on big problems 8 cluster rows' share of A and B falls out of L2
  // (bench/results/gemm_plan_rules.md).
  static constexpr int64_t kGroupM = kPromoted_ ? 2 : 16 / kCluster;
  // Register budgets of the roles (setmaxnreg): at 40 the producer's tile walk spilled.
  static constexpr int kProducerRegs = 56, kConsumerRegs = 224;

  // A: each consumer warpgroup reads its 64 rows; B: all 256 rows, loaded by the cluster.
  template <bool kKMajor>
  using A = StageTile<kBits, kBM, kBK, 64, kKMajor, 1>;
  template <bool kKMajor>
  using B = StageTile<kBits, kBN, kBK, kBN, kKMajor, kCluster>;
  static constexpr int64_t kStageBytesA = A<true>::kBytes, kStageBytesB = B<true>::kBytes;
  // B's tile loaded whole by its CTA, not multicast (the clusters along N: cta_tile).
  template <bool kKMajor>
  static constexpr TmaTile kTmaBOwn = unicast(B<kKMajor>::kTma);
  // The cluster along N on the 128-row tile (A read from shared memory, sums not promoted): the
  // two C tiles of a tile row share A's tile, each CTA loading half of it and multicasting it,
  // and each loads its own B tile (A, the larger, from L2 once per cluster instead of B).
  static constexpr bool kSharesA = kConsumers == 2 && !kARegs && !kPromoted;
  // How far the L2 widens the operands' TMA reads from DRAM: 256 bytes, but 128 on the 16-bit
  // short tile, whose skinny problems stream the big operand once (the wider promotion read
  // L2 sectors they never used: bench/results/gemm_plan_rules.md, "kernel 05's fixed choices").
  static constexpr TmaL2Promotion kL2Promotion =
      kBits == 16 && kConsumers == 1 ? TmaL2Promotion::k128B : TmaL2Promotion::k256B;
  template <bool kKMajor>
  using ASplit = StageTile<kBits, kBM, kBK, 64, kKMajor, kCluster>;
  static constexpr int64_t kStageBytes = kStageBytesA + kStageBytesB;

  // Epilogue: each consumer stages its 64 rows of C, kChunk columns at a time, as floats in a
  // column-major buffer whose columns are padded to kChunkLd (68: the fragment's stores, rows
  // l/4 and columns 2(l%4) of a warp, fall in 32 distinct banks), then copies them out along
  // columns (coalesced) applying beta.
  static constexpr int64_t kChunk = 32, kChunkLd = 64 + 4;
  // With beta = 0 and 16-bit C, a chunk instead goes out by TMA: the (64, kChunk) tile of an
  // MN-major GMMA tile, kStoreBuffers buffers in turn (fill one while the stores of the others
  // read theirs). A tile's chunks are a multiple of the buffers, so that chunk j of every tile
  // takes buffer j % kStoreBuffers and the rotation goes on across tiles (four buffers: the
  // storing thread waits less than with two; bench/results/gemm_plan_rules.md).
  static constexpr SwizzledLayout kStoreTile =
      gmma_smem_tile(GmmaSwizzle::kB128, false, 16, 64, kChunk);
  static constexpr TmaTile kStoreTma = make_tma_tile(kStoreTile, 16);
  // Transposed problems (C^T = B^T A^T, C's rows along the tile's columns) store the same chunk
  // with its columns contiguous (64-byte rows: the 64-byte swizzle; stmatrix).
  static constexpr SwizzledLayout kStoreTileRows =
      gmma_smem_tile(GmmaSwizzle::kB64, true, 16, 64, kChunk);
  static constexpr TmaTile kStoreTmaRows = make_tma_tile(kStoreTileRows, 16);
  // Which kernels store C^T by TMA (compiled for these only: beside the wide tile's accumulators
  // the second store tile spills).
  static constexpr bool kStoresRowsByTma = kBits != 32 && kSwappable;
  static constexpr int64_t kStoreBytes = kStoreTma.bytes();
  // (the promoted kernel's two: the room of two more holds its stages' block scales, below)
  static constexpr int kStoreBuffers = int(min64(kPromoted ? 2 : 4, kBN / kChunk));
  static_assert((kBN / kChunk) % kStoreBuffers == 0,
                "05: a tile's chunks must rotate through the store buffers evenly");
  static constexpr int64_t kChunkBytes =
      ceil_div(max64(kChunkLd * kChunk * 4, kStoreBuffers * kStoreBytes), int64_t(1024)) * 1024;
  // The promoted kernel's block scales of a k-tile come with its stage: A's, one per row of the
  // tile, by TMA (a (kBM, 1) box of the (M, KB) scales, M contiguous), then B's one by cp.async
  // (1-D TMA boxes starting off a 16-byte boundary stopped the kernel on the H100), in a slot of
  // kScaleStageBytes (128-byte aligned) per stage. Each warp reads its rows' scales and releases
  // the stage itself.
  static constexpr int64_t kScaleBytesA = kBM * 4;
  static constexpr int64_t kScaleStageBytes = kPromoted ? kScaleBytesA + 128 : 0;
  static constexpr TmaTile kScaleTmaA = make_tma_tile(Layout(make_tuple(kBM, int64_t(1))), 32);
  // As many stages as fit beside the epilogue buffers (the ring's barriers take 16 bytes a stage,
  // +1024 aligns the base to the 128B swizzle period), at most 16: 4 of the 128 x 256 tile's
  // 48 KB, 8 of the 128 x 64 tile's 24 KB, 13 of the short tile's 16 KB
  // (bench/results/gemm_plan_rules.md).
  static constexpr int64_t kMaxStages = 16;
  static constexpr int kStages =
      int(min64(kMaxStages, (227 * 1024 - 1024 - 256 - kConsumers * kChunkBytes) /
                                (kStageBytes + kScaleStageBytes)));
  using Pipeline = StagePipeline<kStages, kConsumers, kCluster, kPromoted ? 32 : 128>;
  // Stages, the consumers' epilogue buffers, the stages' scales, the barriers.
  static constexpr int64_t kEpilogueOffset = kStages * kStageBytes;
  static constexpr int64_t kScalesOffset = kEpilogueOffset + kConsumers * kChunkBytes;
  static constexpr int64_t kBarrierOffset = kScalesOffset + kStages * kScaleStageBytes;
  static constexpr int64_t kSmemBytes = kBarrierOffset + Pipeline::kBarrierBytes + 1024;
  static_assert(kSmemBytes <= 227 * 1024, "05: the stages do not fit in shared memory");
  static_assert((kBM == WgmmaShape::kBM || kBM == WgmmaShape::kShortBM) &&
                    (kBN == 256 || kBN == 128 || kBN == 64) && kCluster == WgmmaShape::kCluster &&
                    kBK * kBits / 8 == WgmmaShape::kKTileBytes,
                "05: the plan (WgmmaShape, plan.hpp) must know the kernel's tiles");

  // C: kConsumers m64nN atoms along M. Consumer thread t (0 .. 128 kConsumers - 1) holds
  // (FrgV, 1, 1) = kAcc values.
  // With A in registers, the atom is m64nNk8's RS and M is permuted: atom row r (bits: 0-2 the
  // lane's t1, 3 the value's +8, 4-5 the warp, 6 the consumer) computes A's and C's row
  // kPermM(r), which moves bit 2 to 16, bit 3 to 4 and bit 4 to 8. Warp 0's fragment loads from
  // the MN-major tile, rows t1 and columns t0 of a k-step, then take rows {0-3, 16-19} (+ 4 for
  // the +8 values; + 8 for warp 1): two 16-byte chunks that the 128-byte swizzle sends, over the 4
  // columns, to 8 distinct chunks of a row: 32 banks (without it, rows 0-7: two chunks that the
  // swizzle sends to the same 4, a 2-way conflict). Checked by a_loads_conflict_free().
  static constexpr Layout kPermM = parse_layout("(4,2,2,2,2,2):(1,16,4,8,32,64)");
  static constexpr TiledMMA make_mma() {
    const Layout along_m = kConsumers == 2 ? parse_layout("(2,1,1):(1,0,0)")
                                           : parse_layout("(1,1,1):(0,0,0)");
    if constexpr (kARegs)
      return make_tiled_mma(atom::sm90_64xNx8_tf32(kBN, true), along_m,
                            make_tile(kPermM, Layout(kBN), Layout(8)));
    else if constexpr (kBits == 8)
      return make_tiled_mma(atom::sm90_64xNx32_f8(kBN, false, Info::kFormat, Info::kFormat),
                            along_m);
    else
      return make_tiled_mma(atom::sm90_64xNx16(kBN, false), along_m);
  }
  static constexpr TiledMMA kMma = make_mma();

  // A through registers: the MN-major stage tile as TMA writes it (the 16-bit kernels' MN-major
  // GMMA tile, here of 32-bit elements), and the shared -> register copy whose (thread, value)
  // layout is the TiledMMA's A partition of one k-step (128, 8): 32-bit loads, straight into
  // the RS atom's registers. kSteps k-steps of 4 registers per k-tile.
  struct ARegs {
    static constexpr SwizzledLayout kTile =
        gmma_smem_tile(GmmaSwizzle::kB128, false, kBits, kBM, kBK);
    static constexpr TmaTile kTma = make_tma_tile(kTile, kBits);
    static constexpr Layout kStep = Layout(make_tuple(kBM, int64_t(8)));
    static constexpr TiledCopy kCopy =
        TiledCopy{atom::universal_copy(32, 32),
                  make_layout(kMma.partitioner(Operand::kA, kStep).thread,
                              kMma.thrfrg(Operand::kA, kStep)[1]),
                  kStep.shape};
    static constexpr int kSteps = int(kBK / 8);
  };
  // Every warp's load of a fragment register hits 32 distinct banks (4-byte words of the
  // swizzled tile; the partition's offsets are the tile layout's, before the swizzle).
  // NOTE: analysis.hpp's analyze(MmaAccess{..}) says the same (0 conflicts; 2-way without
  // kPermM) but exceeds nvcc's constexpr evaluation budget here: it partitions per thread.
  static constexpr bool a_loads_conflict_free() {
    const ThreadPartition p = kMma.partitioner(Operand::kA, ARegs::kTile.layout);
    for (int64_t w = 0; w < kMma.threads() / 32; ++w)
      for (int64_t v = 0; v < p.fragment.size(); ++v) {
        bool bank[32] = {};
        for (int64_t l = 0; l < 32; ++l) {
          const int64_t b = ARegs::kTile.swizzle(p.thread(32 * w + l) + p.fragment(v)) % 32;
          if (bank[b]) return false;
          bank[b] = true;
        }
      }
    return true;
  }
  static constexpr Layout kTileC = Layout(make_tuple(kBM, kBN));
  static constexpr Layout kThrC = kMma.partitioner(Operand::kC, kTileC).thread;
  static constexpr Layout kFrgC = kMma.partitioner(Operand::kC, kTileC).fragment;
  // C's coordinates in the (BM,BN) tile (coord_layout.hpp): thread -> (row, col) of its first
  // value, value -> (row, col) from there.
  static constexpr CoordLayout<2> kThrCrdC = make_coord_layout(kThrC, Coord<2>{{kBM, kBN}});
  static constexpr CoordLayout<2> kFrgCrdC = make_coord_layout(kFrgC, Coord<2>{{kBM, kBN}});
  static_assert(kMma.threads() == 128 * kConsumers && kFrgC.size() == kAcc,
                "05: kConsumers consumer warpgroups of kAcc accumulators each");
  static_assert(same_offsets(kMma, Operand::kC, kTileC, kThrC),
                "05: thread-offset layout of C disagrees with TiledMMA::partition_C");
  static_assert(kMma.tile_size(0) == kBM && kMma.tile_size(1) == kBN,
                "05: the TiledMMA must cover the CTA tile");
  static_assert(A<true>::kMma.blocks[0].size() == kConsumers,
                "05: consumer warpgroup c reads A's row block c (the TiledMMA's atoms along M)");
  // (ARegs only where it is used: FP8's short tile has no MN-major tile to describe)
  static constexpr bool a_regs_fit() {
    if constexpr (kARegs)
      return same_partition(ARegs::kCopy, kMma, Operand::kA, ARegs::kTile.layout) &&
             ARegs::kTma.bytes() == kStageBytesA && a_loads_conflict_free();
    else
      return true;
  }
  static_assert(a_regs_fit(),
                "05: A's registers must be the RS atom's fragment, loaded from A's stage without "
                "bank conflicts");
  // Every value of a chunk is in that chunk for every thread: chunk(v) = (value v's column) /
  // kChunk.
  static constexpr bool chunks_are_static() {
    int64_t max_col = 0, max_row = 0;
    for (int64_t t = 0; t < 128; ++t) {  // consumer 0's threads; consumer 1 = rows + 64
      max_col = max64(max_col, kThrCrdC(t)[1]);
      max_row = max64(max_row, kThrCrdC(t)[0]);
      if (kConsumers == 2 &&
          (kThrCrdC(t + 128)[0] != kThrCrdC(t)[0] + 64 || kThrCrdC(t + 128)[1] != kThrCrdC(t)[1]))
        return false;
    }
    for (int64_t v = 0; v < kAcc; ++v)
      if (kFrgCrdC(v)[1] % kChunk + max_col >= kChunk || kFrgCrdC(v)[0] + max_row >= 64)
        return false;
    return true;
  }
  static_assert(chunks_are_static(),
                "05: a fragment value must stay in its chunk for every thread");

  // The fragment read off kFrgCrdC once, in the front end, as small integer tables the unrolled
  // epilogue indexes with constants: chunk j holds values value[j][0..kPerChunk), value v sits
  // at (row[v], col[v]) from the thread's first element, col relative to its chunk.
  static constexpr int kChunks = int(kBN / kChunk), kPerChunk = kAcc / kChunks;
  struct Fragment {
    int value[kChunks][kPerChunk] = {};
    int row[kAcc] = {}, col[kAcc] = {};
  };
  static constexpr Fragment make_fragment() {
    Fragment f;
    int filled[kChunks] = {};
    for (int v = 0; v < kAcc; ++v) {
      const int j = int(kFrgCrdC(v)[1] / kChunk);
      if (filled[j] == kPerChunk) fail("05: the chunks of the fragment must be equal");
      f.value[j][filled[j]++] = v;
      f.row[v] = int(kFrgCrdC(v)[0]);
      f.col[v] = int(kFrgCrdC(v)[1] % kChunk);
    }
    return f;
  }
  static constexpr Fragment kFragment = make_fragment();

};

struct WgmmaTmaParams {
  int64_t m, n, k;
  float alpha, beta;
  void* c;
  int64_t c_sm,
      c_sn;  // C(m, n) = c[m * c_sm + n * c_sn]: (1, ldc), or (ldc, 1) swapped (C^T = B A^T)
  int64_t tiles_m, tiles_n, k_tiles;
  bool a_k_major, b_k_major;
  bool tma_store;  // C leaves through the tensor map map_c (16-bit, beta = 0: the plan's rule)
  StreamK work;    // which cluster computes which tiles and k-tiles (stream_k.hpp)
  GroupedOrder order;  // where the work's tiles are: cluster tiles (ceil(tiles_m / kCluster),
                       // tiles_n), or (tiles_m, ceil(tiles_n / kCluster)) along N, grouped
  float* partials;  // stream-K: a slot of partial sums per consumer warpgroup of the grid,
  uint32_t* flags;  // and its flag (zeroed before the launch)
  // FP8 inputs: C's element type and the scales (Fp8Args, args.hpp).
  OutType c_type;
  Scaling scaling;
  const float *scale_a, *scale_b;
  // The cluster's CTAs take neighbouring tiles along N (the promoted kernel on one tile row;
  // the kernels that share A's tile, Cfg::kSharesA): cta_tile.
  bool cluster_along_n;
};

// The C tile (m, n) of the CTA of cluster rank `rank` in cluster tile `tile` of the grouped
// order: kCluster tiles along M that share B's tile (multicast), or, with p.cluster_along_n,
// along N, each CTA loading its own B tile (and its share of A's where the kernel shares A).
// Either may lie past C (odd tile counts): its loads read zeros, its stores are predicated off.
struct CtaTile {
  int64_t m, n;
};
template <class Cfg>
__device__ __forceinline__ CtaTile cta_tile(WgmmaTmaParams const& p, int64_t tile, int rank) {
  const auto [cm, cn] = p.order.tile(int32_t(tile));
  if (p.cluster_along_n) return {cm, cn * Cfg::kCluster + rank};
  return {cm * Cfg::kCluster + rank, cn};
}

// Producer, block scales of k-tile kt (gemm.h's layouts; kb = p.k_tiles, a k-tile being a block
// of K) into the stage's slot: B's for C tile column tn, scale_b[kt + (j / 128) kb], by cp.async
// (before producer_expect; a zero for a tile past N, which the cluster along N may take), then
// A's for tile row tm, (i, kt) of the (M, KB) map, by TMA (zeros past M).
template <class Cfg>
__device__ __forceinline__ void load_scale_b(typename Cfg::Pipeline const& pipe,
                                             PipelineState<Cfg::kStages> const& write,
                                             uint8_t* slot, int64_t tn, int64_t kt,
                                             WgmmaTmaParams const& p) {
  const int64_t block_column = tn * Cfg::kBN / WgmmaShape::kBlockScaleK;
  const bool inside = tn * Cfg::kBN < p.n;
  pipe.producer_copy4(write, slot + Cfg::kScaleBytesA,
                      p.scale_b + (inside ? block_column * p.k_tiles + kt : 0), inside);
}
template <class Cfg>
__device__ __forceinline__ void load_scales_a(void const* map_sa, uint8_t* slot, int64_t tm,
                                              int64_t kt, uint64_t* full) {
  copy(TmaLoad<Cfg::kScaleTmaA>{map_sa}, Coord<2>{{tm * Cfg::kBM, kt}}, slot, full);
}

// Producer: the TMA loads of one k-tile's stage, completing on `full`: A by this CTA and its
// share of B multicast to the cluster, or with shares_a (Cfg::kSharesA) its share of A
// multicast and B by this CTA.
template <class Cfg, bool kAK, bool kBK>
__device__ __forceinline__ void load_stage(void const* map_a, void const* map_b, uint8_t* stage,
                                           Coord<2> a_at, Coord<2> b_at, uint64_t* full, int rank,
                                           bool shares_a) {
  uint8_t* stage_b = stage + Cfg::kStageBytesA;
  if constexpr (Cfg::kSharesA) {
    if (shares_a) {
      copy(TmaLoad<Cfg::template ASplit<kAK>::kTma>{map_a}, a_at, stage, full, rank);
      copy(TmaLoad<Cfg::template kTmaBOwn<kBK>>{map_b}, b_at, stage_b, full);
      return;
    }
  }
  copy(TmaLoad<Cfg::template A<kAK>::kTma>{map_a}, a_at, stage, full);
  copy(TmaLoad<Cfg::template B<kBK>::kTma>{map_b}, b_at, stage_b, full, rank);
}

// The same with A MN-major through registers (Cfg::kARegs, tf32): TMA writes A's MN-major tile,
// each consumer thread loads its RS fragments from it (a copy of the TiledMMA's A partition),
// and gemm takes them with B from shared memory. wgmma reads A's registers until its group is
// retired, so k-tiles alternate between two register sets, `even` and `odd`: k-tile kt loads its
// set while kt - 1 (the other set) is in flight, and the other set is kept live up to the wait
// that retires kt - 1. The loop takes k-tiles in pairs, an odd one first: ptxas serializes the
// wgmmas (C7513) of a loop whose second half is conditional.
template <class Cfg>
__device__ __forceinline__ void mainloop_a_regs(float (&acc)[Cfg::kAcc], int64_t k_tiles,
                                                typename Cfg::Pipeline const& pipe, uint8_t* smem,
                                                PipelineState<Cfg::kStages>& read) {
  using ARegs = typename Cfg::ARegs;
  constexpr int kSteps = ARegs::kSteps;
  const ThrCopy<ARegs> s2r{threadIdx.x - 128};
  uint32_t even[kSteps][4], odd[kSteps][4];
  int previous = -1;
  const auto k_tile = [&](uint32_t(&a)[kSteps][4], uint32_t const(&other)[kSteps][4], int64_t kt) {
    pipe.consumer_wait(read);
    uint8_t* s = smem + read.stage * Cfg::kStageBytes;
    const auto tXsA = s2r.partition_S(
        make_tensor<ARegs::kTile>(reinterpret_cast<float const*>(s)));  // (CPY,CPY_M,CPY_K)
    static_assert(decltype(tXsA)::size() == kSteps * 4, "05: 4 A registers per k-step");
TESSERA_UNROLL
for (int v = 0; v < kSteps * 4; ++v)
  a[v / 4][v % 4] = __float_as_uint(tXsA(v));  // fp32 bits: wgmma reads tf32
const auto sB = make_gmma_tensor<Cfg::template B<true>::kMma>(
    reinterpret_cast<float const*>(s + Cfg::kStageBytesA));
gemm<Cfg::kBN, float>(a, sB, 0, acc, kt > 0);
warpgroup_wait<1>(acc);  // k-tile kt - 1 is done: its stage and its registers are free
keep_operands(other);
if (previous >= 0) pipe.consumer_release(previous);
previous = read.stage;
read.advance();
  };
  int64_t kt = 0;
  if (k_tiles % 2 == 1) k_tile(odd, even, kt++);
  for (; kt < k_tiles; kt += 2) {
    k_tile(even, odd, kt);
    k_tile(odd, even, kt + 1);
  }
  warpgroup_wait<0>(acc);
  pipe.consumer_release(previous);
}

// Stream-K: the slot of partial sums of consumer warpgroup `consumer` of CTA `rank` of a cluster.
template <class Cfg>
__device__ __forceinline__ int64_t partial_slot(int64_t cluster, int rank, int consumer) {
  return (cluster * Cfg::kCluster + rank) * Cfg::kConsumers + consumer;
}

// Consumer: C tile (tm, tn)'s 64 rows of this consumer from its accumulators, by TMA or not.
template <class Cfg>
__device__ __forceinline__ void store_tile(float const (&acc)[Cfg::kAcc], uint8_t* buf,
                                           int consumer, int64_t tm, int64_t tn,
                                           WgmmaTmaParams const& p, void const* map_c) {
  if (Cfg::kBits != 32 && p.tma_store)
    epilogue_tma<Cfg>(acc, buf, consumer, tm * Cfg::kBM, tn * Cfg::kBN, p, map_c);
  else
    epilogue<Cfg>(acc, reinterpret_cast<float*>(buf), consumer, tm * Cfg::kBM, tn * Cfg::kBN, p);
}

// Consumer: the k-loop over one C tile for one pair of operand majors (the transposes are
// immediates of the instruction): the library's mainloop (sm90_mainloop.hpp) on the ring of
// stages, A then B in each. On return acc holds the tile.
template <class Cfg, bool kAK, bool kBK>
__device__ __forceinline__ void mainloop(typename WarpgroupMMA<Cfg>::FragmentC& acc,
                                         int64_t k_tiles, typename Cfg::Pipeline const& pipe,
                                         uint8_t* smem, PipelineState<Cfg::kStages>& read,
                                         int consumer) {
  using T = typename Cfg::T;
  SmemStagesAt<T, Cfg::template A<kAK>::kStaged, Cfg::kStageBytes> sA{smem};
  SmemStagesAt<T, Cfg::template B<kBK>::kStaged, Cfg::kStageBytes> sB{smem + Cfg::kStageBytesA};
  mainloop_mma(WarpgroupMMA<Cfg>{consumer}, pipe, read, sA, sB, acc, k_tiles);
}

// Every accumulator of a thread lies on its first row or 8 rows below (the m64nN atom's C).
template <class Cfg>
TESSERA_HD constexpr bool values_on_two_rows() {
  for (int v = 0; v < Cfg::kAcc; ++v)
    if (Cfg::kFragment.row[v] != 0 && Cfg::kFragment.row[v] != 8) return false;
  return true;
}

constexpr int kStaggerBarrier = 3;  // (1, 2: each consumer's own, in the epilogue and stream-K)

// Consumer, FP8 with its sums promoted to fp32 (DeepGEMM's promotion, cuBLASLt's default): each
// k-tile, 128 of K, is a product of its own, added into acc once retired, with block scales
// (Scaling::kBlockA, the plan's orientation) acc += sa(row) sb part: sa one per row of A and
// block, sb one per block for the tile's columns (at most 128: one block of B's rows); with other
// scalings acc += part (their scales are the epilogue's). k-tiles go in pairs, into two
// fragments, `even` and `odd`, issued together: k is promoted while k + 1 runs. Nothing is in
// flight between pairs (else ptxas cannot tell which fragment a wait retired and serializes
// the wgmmas, C7514); the other consumer warpgroup's products fill that gap, so the second
// consumer starts each tile once the first has issued its first pair (WarpgroupStagger): in
// step, the two would promote at the same time and leave the tensor pipe idle. A kernel of its
// own: beside the other mainloops' accumulators ptxas serializes its wgmmas too. The block
// scales come with their stage (load_scale_b, load_scales_a), read off it before it is released.
template <class Cfg>
__device__ __forceinline__ void mainloop_promoted(typename WarpgroupMMA<Cfg>::FragmentC& acc,
                                                  int64_t k_tiles,
                                                  typename Cfg::Pipeline const& pipe,
                                                  uint8_t* smem, PipelineState<Cfg::kStages>& read,
                                                  int consumer, bool by_blocks) {
  using T = typename Cfg::T;
  static_assert(Cfg::kBK == WgmmaShape::kBlockScaleK && Cfg::kBN <= WgmmaShape::kBlockScaleK &&
                    values_on_two_rows<Cfg>(),
                "05: promoted sums need one block of K per k-tile, at most one block of B's rows "
                "per tile, and each thread's values on two rows");
  SmemStagesAt<T, Cfg::template A<true>::kStaged, Cfg::kStageBytes> sA{smem};
  SmemStagesAt<T, Cfg::template B<true>::kStaged, Cfg::kStageBytes> sB{smem + Cfg::kStageBytesA};
  const WarpgroupMMA<Cfg> mma{consumer};
  static constexpr typename Cfg::Fragment kF = Cfg::kFragment;
  static constexpr CoordLayout<2> kThrCrdC = Cfg::kThrCrdC;
  // The thread's first row in the tile, and the scales of its two rows in a stage's k-tile
  // (times B's block's; 1 without block scales). Rows past M read zeros (TMA's fill); C never
  // receives them.
  const int64_t row = 64 * consumer + kThrCrdC(threadIdx.x % 128)[0];
  struct RowScales {
    float s0 = 1.0f, s8 = 1.0f;
  };
  const auto scales = [&](int stage) {
    RowScales r;
    if (!by_blocks) return r;
    const float* slot =
        reinterpret_cast<const float*>(smem + Cfg::kScalesOffset + stage * Cfg::kScaleStageBytes);
    const float b = slot[Cfg::kBM];
    r.s0 = slot[row] * b;
    r.s8 = slot[row + 8] * b;
    return r;
  };
  using Frag = typename WarpgroupMMA<Cfg>::FragmentC;
  Frag even, odd;
  const auto issue = [&](Frag& part) {
    pipe.consumer_wait(read);
    gemm(mma, mma.partition_A(sA(_, _, read.stage)), mma.partition_B(sB(_, _, read.stage)), part,
         false);
    const int stage = read.stage;
    read.advance();
    return stage;
  };
  // acc (+)= part scaled by r, once part (k-tile k, in stage `stage`) is done: one multiply (the
  // first k-tile) or one fused multiply-add a value (a select between the two, per value, tripled
  // the instructions of a promotion); with r = 1 the sums are cuBLASLt's, bit for bit.
  const auto promote = [&](Frag& part, int64_t k, int stage, RowScales r) {
    warpgroup_wait<1>(part);  // (or <0>: the caller's order says which group is done)
    pipe.consumer_release(stage);
    if (k == 0) {
TESSERA_UNROLL
      for (int v = 0; v < Cfg::kAcc; ++v) acc.v[v] = part.v[v] * (kF.row[v] == 0 ? r.s0 : r.s8);
    } else {
TESSERA_UNROLL
      for (int v = 0; v < Cfg::kAcc; ++v)
        acc.v[v] = fmaf(part.v[v], kF.row[v] == 0 ? r.s0 : r.s8, acc.v[v]);
    }
  };
  // (the short tile's one consumer has no partner to stagger with)
  constexpr bool kStaggered = Cfg::kConsumers == 2;
  const WarpgroupStagger<kStaggerBarrier> stagger{consumer};
  if (kStaggered && k_tiles > 0) stagger.follow();
  int64_t k = 0;
  for (; k + 1 < k_tiles; k += 2) {
    const int first = issue(even), second = issue(odd);
    const RowScales r0 = scales(first), r1 = scales(second);  // (read while the products run)
    if (kStaggered && k == 0) stagger.lead();
    promote(even, k, first, r0);  // k + 1 runs meanwhile
    warpgroup_wait<0>(odd);
    promote(odd, k + 1, second, r1);
  }
  if (k < k_tiles) {
    const int last = issue(even);
    const RowScales r = scales(last);
    if (kStaggered && k == 0) stagger.lead();
    warpgroup_wait<0>(even);
    promote(even, k, last, r);
  }
}

template <class Cfg>
__global__ void __launch_bounds__(Cfg::kThreads, 1)
    gemm_05_kernel(const __grid_constant__ CUtensorMap map_a,
                   const __grid_constant__ CUtensorMap map_b,
                   const __grid_constant__ CUtensorMap map_c,
                   const __grid_constant__ CUtensorMap map_sa, WgmmaTmaParams p) {
  constexpr int kStages = Cfg::kStages;
  constexpr int64_t kBM = Cfg::kBM, kBN = Cfg::kBN, kBK = Cfg::kBK;

  // Shared memory: kStages x (A, B) stage tiles on the swizzle period, the consumers' epilogue
  // buffers, then the ring's barriers.
  extern __shared__ uint8_t smem_raw[];
  uint8_t* smem = align_shared<1024>(smem_raw);
  const typename Cfg::Pipeline pipe{
      reinterpret_cast<uint64_t*>(smem + Cfg::kBarrierOffset),
      reinterpret_cast<uint64_t*>(smem + Cfg::kBarrierOffset) + kStages};
  const int warpgroup = canonical_warp_group_idx();  // (warp-uniform: so are the descriptors)
  if (threadIdx.x == 0) {
    prefetch_tma_map(&map_a);
    prefetch_tma_map(&map_b);
    if (Cfg::kPromoted && p.scaling == Scaling::kBlockA) prefetch_tma_map(&map_sa);
    pipe.init();
  }
  cluster_sync_after_init();  // barriers initialized in every CTA before any remote arrive or
                              // multicast

  // The cluster walks its segments of cluster tiles (kCluster C tiles, in grouped order; p.work
  // says which tiles and k-tiles); this CTA takes its C tile (cta_tile).
  const int rank = cluster_rank();
  const int64_t cluster = blockIdx.x / Cfg::kCluster;
  if (warpgroup == 0) {
    // Producer: one thread walks the same tiles as the consumers and fills the ring.
    producer_role<Cfg::kProducerRegs>();
    if (threadIdx.x == 0) {
      PipelineState<kStages> write;
      const bool by_blocks = Cfg::kPromoted && p.scaling == Scaling::kBlockA;
      const uint32_t bytes = uint32_t(Cfg::kStageBytes + (by_blocks ? Cfg::kScaleBytesA : 0));
      const bool shares_a = Cfg::kSharesA && p.cluster_along_n;
      const Walk walk = p.work.walk(cluster);
      for (Segment s = p.work.first(walk); s.valid(); s = p.work.next(walk, s)) {
        const auto [tm, tn] = cta_tile<Cfg>(p, s.tile, rank);
        for (int64_t kt = s.k_begin; kt < s.k_end; ++kt) {
          uint64_t* full = pipe.producer_wait(write);
          uint8_t* scales = smem + Cfg::kScalesOffset + write.stage * Cfg::kScaleStageBytes;
          if (by_blocks) load_scale_b<Cfg>(pipe, write, scales, tn, kt, p);
          pipe.producer_expect(write, bytes);
          if (by_blocks) load_scales_a<Cfg>(&map_sa, scales, tm, kt, full);
          uint8_t* stage = smem + write.stage * Cfg::kStageBytes;
          const Coord<2> a_at{{tm * kBM, kt * kBK}}, b_at{{tn * kBN, kt * kBK}};  // (rows, k)
          if constexpr (Cfg::kARegs) {
            copy(TmaLoad<Cfg::ARegs::kTma>{&map_a}, a_at, stage, full);
            copy(TmaLoad<Cfg::template B<true>::kTma>{&map_b}, b_at, stage + Cfg::kStageBytesA,
                 full, rank);
          } else if constexpr (Cfg::kPromoted) {
            if (p.cluster_along_n) {
              copy(TmaLoad<Cfg::template A<true>::kTma>{&map_a}, a_at, stage, full);
              copy(TmaLoad<Cfg::template kTmaBOwn<true>>{&map_b}, b_at, stage + Cfg::kStageBytesA,
                   full);
            } else {
              load_stage<Cfg, true, true>(&map_a, &map_b, stage, a_at, b_at, full, rank, false);
            }
          } else {
            // (the operands' majors, K-major (K) or MN-major (MN), as template arguments)
            const auto load = [&](auto a_major, auto b_major) {
              load_stage<Cfg, decltype(a_major)::value, decltype(b_major)::value>(
                  &map_a, &map_b, stage, a_at, b_at, full, rank, shares_a);
            };
            using K = std::true_type;
            using MN = std::false_type;
            if constexpr (Cfg::kKMajorOnly) load(K{}, K{});
            else if (p.a_k_major) p.b_k_major ? load(K{}, K{}) : load(K{}, MN{});
            else p.b_k_major ? load(MN{}, K{}) : load(MN{}, MN{});
          }
          write.advance();
        }
      }
      pipe.producer_tail(write);  // (in place of a cluster synchronization at exit)
    }
  } else {
    // Consumers: warpgroup c computes rows [64c, 64c+64) of every tile.
    consumer_role<Cfg::kConsumerRegs>();
    const int consumer = warpgroup - 1;
    PipelineState<kStages> read;
    // (FrgV,1,1): wgmma's D registers, the type of WarpgroupMMA::partition_fragment_C() (not
    // zeroed: the first k-tile of every tile overwrites it)
    typename WarpgroupMMA<Cfg>::FragmentC acc;
    const Walk walk = p.work.walk(cluster);
    for (Segment s = p.work.first(walk); s.valid(); s = p.work.next(walk, s)) {
      const auto [tm, tn] = cta_tile<Cfg>(p, s.tile, rank);
      const int64_t k_tiles = s.k_end - s.k_begin;
      if constexpr (Cfg::kARegs) {
        mainloop_a_regs<Cfg>(acc.v, k_tiles, pipe, smem, read);
      } else if constexpr (Cfg::kPromoted) {
        mainloop_promoted<Cfg>(acc, k_tiles, pipe, smem, read, consumer,
                               p.scaling == Scaling::kBlockA);
      } else if constexpr (Cfg::kKMajorOnly) {
        mainloop<Cfg, true, true>(acc, k_tiles, pipe, smem, read, consumer);
      } else if (p.a_k_major) {
        if (p.b_k_major) mainloop<Cfg, true, true>(acc, k_tiles, pipe, smem, read, consumer);
        else mainloop<Cfg, true, false>(acc, k_tiles, pipe, smem, read, consumer);
      } else {
        if (p.b_k_major) mainloop<Cfg, false, true>(acc, k_tiles, pipe, smem, read, consumer);
        else mainloop<Cfg, false, false>(acc, k_tiles, pipe, smem, read, consumer);
      }
      // Stream-K and split-K: a piece without k-tile 0 hands its sums to the tile's owner. An owner
      // whose tile goes on past its range (its range's last segment) adds the pieces of the
      // clusters after it, every piece_stride() (their first segments), into a fresh array and
      // stores C from it: adding into acc itself would feed non-wgmma results into the next tile's
      // wgmmas, and ptxas then serializes every wgmma of the kernel (warning C7515).
      const int t = threadIdx.x % 128;
      const PartialSums<128, Cfg::kAcc> partials{p.partials, p.flags};
      uint8_t* buf = smem + Cfg::kEpilogueOffset + consumer * Cfg::kChunkBytes;
      if (!s.owner()) {
        partials.publish(partial_slot<Cfg>(cluster, rank, consumer), acc.v, t, 1 + consumer);
        continue;
      }
      const int64_t last = p.work.last_piece(walk, s);
      if (last != cluster) {
        float total[Cfg::kAcc];
        const int64_t stride = p.work.piece_stride();
        partials.wait_and_add(total, acc.v, partial_slot<Cfg>(cluster + stride, rank, consumer),
                              partial_slot<Cfg>(last, rank, consumer),
                              stride * Cfg::kCluster * Cfg::kConsumers, t, 1 + consumer);
        store_tile<Cfg>(total, buf, consumer, tm, tn, p, &map_c);
        break;  // (the last segment of this cluster's range)
      }
      store_tile<Cfg>(acc.v, buf, consumer, tm, tn, p, &map_c);
    }
    // This warpgroup's TMA stores have read their shared memory (which goes away with the CTA);
    // their writes to C land before the kernel is complete (bench/results/gemm_plan_rules.md).
    if (threadIdx.x % 128 == 0) tma_store_wait_read<0>();  // (SmemEpilogue::drain)
  }
  // The CTA leaves once its producer has seen every stage released by the whole cluster
  // (producer_tail): its peers have no arrive on its barriers left.
}

// ---------------------------------------------------------------------------------------------
// Host side: tensor maps, packing, launch.

// The tensor map of a (rows, cols) matrix with leading dimension `ld` (elements), contiguous
// along the rows (column-major, `rows_contiguous`) or along the columns, for the TMA tile kT.
template <class T>
bool make_map(CUtensorMap* map, TmaTile const& tile, void const* ptr, int64_t rows, int64_t cols,
              int64_t ld, bool rows_contiguous, TmaL2Promotion l2) {
  try {
    const Coord<2> stride = rows_contiguous ? Coord<2>{{1, ld}} : Coord<2>{{ld, 1}};
    return tma_encode(map, make_tma_args(tile, tma_data_type<T>(), reinterpret_cast<uint64_t>(ptr),
                                         Coord<2>{{rows, cols}}, stride, l2));
  } catch (...) {  // a rule of tma.hpp (the plan checked them before: its TMA reads rule)
    return false;
  }
}

// The tensor map of A's block scales (M, KB), M contiguous, copied first to a pitch TMA reads
// where the plan says so (block_scales_copied).
template <class Cfg>
cudaError_t block_scales_map(CUtensorMap* map, WgmmaRun const& run, int64_t k_tiles,
                             Scratch& scratch, cudaStream_t stream) {
  const int64_t m = run.args.p.m;
  const void* scales = run.fp8.scale_a;
  int64_t ld = m;
  if (run.copy_block_scales) {
    void* copy = nullptr;
    ld = block_scales_pitch(m);
    cudaError_t err = scratch.get(&copy, block_scales_bytes(m, k_tiles));
    if (err == cudaSuccess)
      err = cudaMemcpy2DAsync(copy, size_t(ld) * 4, scales, size_t(m) * 4, size_t(m) * 4,
                              size_t(k_tiles), cudaMemcpyDeviceToDevice, stream);
    if (err != cudaSuccess) return err;
    scales = copy;
  }
  return make_map<float>(map, Cfg::kScaleTmaA, scales, m, k_tiles, ld, true, TmaL2Promotion::kNone)
             ? cudaSuccess
             : cudaErrorInvalidValue;
}

// An operand as TMA reads it: pointer, leading dimension, major. Operands the plan packs (TMA or
// wgmma cannot read them where they lie) are packed K-major into `scratch`.
struct TmaOperand {
  const void* ptr;
  int64_t ld;
  bool k_major;
};

template <class Cfg>
TmaOperand prepare_operand(const void* ptr, int64_t s_r, int64_t s_k, int64_t rows, int64_t k,
                           bool pack, Scratch& scratch, cudaError_t* err) {
  // NOTE: an operand with one row or one column has both strides "contiguous"; the unit stride
  // along K picks K-major.
  const bool k_major = s_k == 1;
  if (!pack) return {ptr, k_major ? s_r : s_k, k_major};
  // (packed fp32 is rounded to tf32, as 04 does in registers)
  using Bits = std::conditional_t<Cfg::kBits == 8, uint8_t,
                                  std::conditional_t<Cfg::kBits == 16, uint16_t, uint32_t>>;
  int64_t ld_packed = 0;
  void* packed = nullptr;
  *err = pack_operand<Bits, Cfg::kBits == 32>(scratch, &packed, &ld_packed, ptr, s_r, s_k, rows, k);
  return {packed, ld_packed, true};
}

// Stream-K's slots of partial sums and their flags (zeroed), from the scratch.
template <class Cfg>
cudaError_t stream_k_slots(WgmmaTmaParams& p, Scratch& scratch, cudaStream_t stream) {
  const WgmmaPartials parts(p.work.clusters, Cfg::kBN, Cfg::kConsumers);
  void* piece = nullptr;
  const cudaError_t err = scratch.get(&piece, parts.bytes());
  if (err != cudaSuccess) return err;
  p.flags = static_cast<uint32_t*>(piece);
  p.partials = reinterpret_cast<float*>(static_cast<char*>(piece) + parts.flag_bytes());
  return cudaMemsetAsync(p.flags, 0, parts.flag_bytes(), stream);
}

// The kernel's launch configuration: a cluster of kCluster CTAs, the stage ring's shared memory.
template <class Cfg>
struct ClusterLaunch {
  cudaLaunchAttribute cluster_dim;
  cudaLaunchConfig_t config = {};
  ClusterLaunch(cudaStream_t stream) {
    cluster_dim.id = cudaLaunchAttributeClusterDimension;
    cluster_dim.val.clusterDim.x = Cfg::kCluster, cluster_dim.val.clusterDim.y = 1,
    cluster_dim.val.clusterDim.z = 1;
    config.gridDim = dim3(Cfg::kCluster);
    config.blockDim = dim3(Cfg::kThreads);
    config.dynamicSmemBytes = size_t(Cfg::kSmemBytes);
    config.stream = stream;
    config.attrs = &cluster_dim;
    config.numAttrs = 1;
  }
};

// How many clusters of the kernel are resident on the current GPU at once (the persistent grid;
// stream-K relies on all of them running together). Asked once per device; 0 when there is no GPU.
template <class Cfg>
int max_clusters() {
  return per_device([](int) {
    auto kernel = gemm_05_kernel<Cfg>;
    ClusterLaunch<Cfg> launch(nullptr);
    int n = 0;
    if (cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                             int(Cfg::kSmemBytes)) != cudaSuccess ||
        cudaOccupancyMaxActiveClusters(&n, kernel, &launch.config) != cudaSuccess)
      return 0;
    return n;
  });
}

// The clusters resident at once of the kernel on Cfg's tile, or (a_regs, tf32) of its twin that
// takes A through registers.
template <class Cfg>
int resident_clusters(bool a_regs) {
  if constexpr (Cfg::kBits == 32 && !Cfg::kARegs)
    if (a_regs) return max_clusters<typename Cfg::WithARegs>();
  return max_clusters<Cfg>();
}

// A's boxes where the cluster shares A's tile (split between its CTAs; an MN-major A only where
// wgmma reads one), else A's own.
template <class Cfg>
TmaTile shared_a_tile(bool k_major) {
  if constexpr (Cfg::kSharesA)
    return k_major ? Cfg::template ASplit<true>::kTma
                   : Cfg::template ASplit<Cfg::kKMajorOnly>::kTma;
  else
    return Cfg::template A<true>::kTma;  // (the promoted kernel's cluster along N loads its own)
}

// The tensor maps of A (M, K) and B (N, K), each for the TMA tile of its major (A's split
// between the cluster's CTAs where they share it).
template <class Cfg>
bool operand_maps(WgmmaRun const& run, TmaOperand const& a, TmaOperand const& b,
                  CUtensorMap* map_a, CUtensorMap* map_b) {
  using T = typename Cfg::T;
  GemmArgs const& g = run.args.p;
  constexpr TmaL2Promotion kL2 = Cfg::kL2Promotion;
  // (MN-major tiles: 16-bit operands, and tf32's A through registers; the plan packs the others)
  constexpr TmaTile kTmaAMN = [] {
    if constexpr (Cfg::kARegs) return Cfg::ARegs::kTma;
    else if constexpr (Cfg::kKMajorOnly) return Cfg::template A<true>::kTma;
    else return Cfg::template A<false>::kTma;
  }();
  constexpr TmaTile kTmaBMN = [] {
    if constexpr (Cfg::kKMajorOnly) return Cfg::template B<true>::kTma;
    else return Cfg::template B<false>::kTma;
  }();
  const TmaTile tma_a = run.cluster_along_n ? shared_a_tile<Cfg>(a.k_major)
                        : a.k_major         ? Cfg::template A<true>::kTma
                                            : kTmaAMN;
  return make_map<T>(map_a, tma_a, a.ptr, g.m, g.k, a.ld, !a.k_major, kL2) &&
         make_map<T>(map_b, b.k_major ? Cfg::template B<true>::kTma : kTmaBMN, b.ptr, g.n, g.k,
                     b.ld, !b.k_major, kL2);
}

// Runs the plan's kernel 05 part (WgmmaRun: the problem in the kernel's orientation, the packs,
// the store, the clusters' work) on the tile of Cfg: tf32 with A through registers runs the
// kernel that takes A to wgmma through registers (Cfg::WithARegs), which reads A where it lies.
template <class Cfg>
cudaError_t launch_tile(WgmmaRun const& run, cudaStream_t stream) {
  using T = typename Cfg::T;
  GemmArgs const& g = run.args.p;
  if constexpr (Cfg::kBits == 32 && !Cfg::kARegs)
    if (run.a_through_registers) return launch_tile<typename Cfg::WithARegs>(run, stream);
  // (no GPU when planned; max_clusters also lets this kernel have its shared memory, once per
  // device: the plan may have asked another kernel of the same tile, as for block scales)
  if (run.resident < 1 || max_clusters<Cfg>() < 1) return cudaErrorInvalidConfiguration;
  // Promoted sums run on the promoted kernel, block scales oriented with A's per-row scales (the
  // plan's rule "promoted sums"); it and the kernels that share A put their clusters along N.
  Fp8Args const& f = run.fp8;
  if (f.scaling == Scaling::kBlockB || f.promoted != Cfg::kPromoted ||
      (run.cluster_along_n && !Cfg::kPromoted && !Cfg::kSharesA))
    return cudaErrorInvalidConfiguration;
  cudaError_t err = cudaSuccess;
  Scratch scratch(g, stream);
  const TmaOperand a =
      prepare_operand<Cfg>(g.a, g.a_sm, g.a_sk, g.m, g.k, run.pack_a, scratch, &err);
  const TmaOperand b =
      err == cudaSuccess
          ? prepare_operand<Cfg>(g.b, g.b_sn, g.b_sk, g.n, g.k, run.pack_b, scratch, &err)
          : TmaOperand{};
  if (err != cudaSuccess) return err;
  CUtensorMap map_a, map_b;
  bool ok = operand_maps<Cfg>(run, a, b, &map_a, &map_b);
  CUtensorMap map_c = map_a;  // (unused unless tma_store: 16-bit C)
  // (a transposed problem's C^T, contiguous along n, by TMA: the tiles that have the row-major
  // store tile)
  const bool c_rows_contiguous = run.args.c_sn == 1;
  if (run.tma_store && c_rows_contiguous && !Cfg::kStoresRowsByTma)
    return cudaErrorInvalidConfiguration;
  if (ok && run.tma_store) {
    if constexpr (Cfg::kBits == 16)
      ok = make_map<T>(&map_c, c_rows_contiguous ? Cfg::kStoreTmaRows : Cfg::kStoreTma, g.c, g.m,
                       g.n, g.ldc, !c_rows_contiguous, TmaL2Promotion::kNone);
    else  // (FP8: bf16 C, the plan's rule)
      ok = f.c_type == OutType::kBF16 &&
           make_map<__nv_bfloat16>(&map_c,
                                   c_rows_contiguous ? Cfg::kStoreTmaRows : Cfg::kStoreTma, g.c,
                                   g.m, g.n, g.ldc, !c_rows_contiguous, TmaL2Promotion::kNone);
  }
  CUtensorMap map_sa = map_a;  // (unused without block scales)
  const int64_t k_tiles = ceil_div(g.k, Cfg::kBK);
  if (ok && f.scaling == Scaling::kBlockA &&
      (err = block_scales_map<Cfg>(&map_sa, run, k_tiles, scratch, stream)) != cudaSuccess)
    return err;
  if (!ok) return cudaErrorInvalidValue;
  WgmmaTmaParams p{g.m, g.n, g.k, g.alpha, g.beta, g.c, run.args.c_sm, run.args.c_sn,
                   ceil_div(g.m, Cfg::kBM), ceil_div(g.n, Cfg::kBN), k_tiles,
                   a.k_major, b.k_major, run.tma_store, run.work, {}, nullptr, nullptr,
                   f.c_type, f.scaling, f.scale_a, f.scale_b};
  p.cluster_along_n = run.cluster_along_n;
  const int64_t cluster = Cfg::kCluster;
  p.order = run.cluster_along_n
                ? GroupedOrder(p.tiles_m, ceil_div(p.tiles_n, cluster), Cfg::kGroupM)
                : GroupedOrder(ceil_div(p.tiles_m, cluster), p.tiles_n, Cfg::kGroupM);
  if (p.work.streams() && (err = stream_k_slots<Cfg>(p, scratch, stream)) != cudaSuccess)
    return err;
  ClusterLaunch<Cfg> launch(stream);
  launch.config.gridDim = dim3(unsigned(p.work.clusters * Cfg::kCluster));
  return cudaLaunchKernelEx(&launch.config, gemm_05_kernel<Cfg>, map_a, map_b, map_c, map_sa,
                            p);
}

}  // namespace
}  // namespace tessera::ladder
