// kernels/gemm/05_wgmma_tma_legacy.cuh -- kernel 05 as it was before it was written in the
// vocabulary (raw ptx:: calls, hand-built descriptors and tensor maps), registered as
// 05_wgmma_tma_legacy beside the new 05_wgmma_tma until the new one is verified on the GPU
// (correctness suite, guards, speed in the same run); then this file and its three .cu go.
//
// (Former header comment:) ladder step 05: Hopper (sm_90a) tensor cores, wgmma + TMA.
//
// One element type per translation unit (05_wgmma_tma_{f16,bf16,tf32}.cu instantiate it), so
// that each compiles on its own in a few seconds and the three build in parallel.
//
// What it adds to 04 (each a layout decision, made once in the config below):
//   - the MMA atom is a warpgroup's wgmma m64n256k16 (f16, bf16) or m64n256k8 (tf32), reading A
//     and B straight from shared memory through descriptors; two consumer warpgroups tile the
//     CTA's 128x256 block along M (TiledMMA of atoms (2,1,1)), 128 F32 accumulators per thread;
//   - the operands reach shared memory through TMA boxes (cp.async.bulk.tensor) into 128-byte
//     swizzled stage tiles built from the GMMA smem atoms (gmma_smem_tile), K-major or MN-major
//     like global memory; the wgmma descriptors (LBO, SBO, swizzle) and every per-step offset
//     are read off those tile layouts (make_gmma_descriptor, tile(r, k));
//   - warp specialization: one producer warpgroup (one thread issues the TMA loads, its
//     registers cut with setmaxnreg) and two consumer warpgroups (registers raised), a
//     kStages-deep ring of stages with full/empty mbarriers instead of __syncthreads;
//   - a persistent grid (one CTA per SM) walking the C tiles in grouped (L2-friendly) order, the
//     producer running ahead into the next tile while the consumers store the last one;
//   - residues: TMA fills out-of-bounds box elements with zeros (any M, N, K), the epilogue is
//     predicated like 01-04. TMA needs 16-byte aligned pointers and leading dimensions, and tf32
//     wgmma reads K-major tiles only: other operands are first packed K-major into a scratch
//     buffer (stream-ordered allocation), so every shape and stride runs.
//
// NOTE: tf32. wgmma reads the fp32 bits TMA put in shared memory and drops the low 13 bits of
// the mantissa (truncation), where 04 rounds in registers: an operand's relative error is
// below 2^-10 instead of 2^-11, so a product's is below 2^-9 ~ 1.95e-3 (the test's bound for
// this kernel; measured errors are far smaller for K > 1). Packed operands are rounded.
#pragma once

#include <type_traits>

#include <cuda.h>
#include <cudaTypedefs.h>

#include <tessera/atom/sm90.hpp>

#include "elem.cuh"

namespace tessera::ladder {
namespace {

template <Elem E>
struct ElemInfo;
template <>
struct ElemInfo<Elem::kF16> : ElemOut<Elem::kF16> {
  static constexpr int64_t kInstK = 16;
  static constexpr CUtensorMapDataType kTmaType = CU_TENSOR_MAP_DATA_TYPE_FLOAT16;
};
template <>
struct ElemInfo<Elem::kBF16> : ElemOut<Elem::kBF16> {
  static constexpr int64_t kInstK = 16;
  static constexpr CUtensorMapDataType kTmaType = CU_TENSOR_MAP_DATA_TYPE_BFLOAT16;
};
template <>
struct ElemInfo<Elem::kTF32> : ElemOut<Elem::kTF32> {
  static constexpr int64_t kInstK = 8;
  static constexpr CUtensorMapDataType kTmaType = CU_TENSOR_MAP_DATA_TYPE_FLOAT32;
};

// One operand's stage tile (rows, BK) in one major, and what the kernel reads off it.
// The tile is loaded by kLoaders CTAs of a cluster, each its share of the rows (multicast).
template <int64_t kBits, int64_t kRows, int64_t kBK, int64_t kInstK, bool kKMajor, int kLoaders>
struct StageTile {
  static constexpr SwizzledLayout kTile =
      gmma_smem_tile(GmmaSwizzle::kB128, kKMajor, kBits, kRows, kBK);
  static constexpr GmmaDescriptor kDesc = make_gmma_descriptor(kTile, kKMajor, kBits);
  static constexpr bool kIsKMajor = kKMajor;
  static constexpr int64_t kRowElems = 1024 / kBits;  // elements of one 128-byte swizzled row
  // TMA boxes, innermost mode first: K-major (BK, rows / loaders), MN-major (row, BK) per block
  // of kRowElems rows; box i holds rows [i * kBoxRows, (i+1) * kBoxRows).
  static constexpr int64_t kBoxRows = kKMajor ? kRows / kLoaders : kRowElems;
  static constexpr TmaBox kBox = make_tma_box(
      kKMajor ? make_tuple(kBK, kBoxRows) : make_tuple(kRowElems, kBK), Swizzle(3, 4, 3));
  static constexpr int64_t kBoxes = kRows / kBoxRows, kBoxesPerLoader = kBoxes / kLoaders;
  static constexpr int64_t kBoxBytes = kBox.box[0] * kBox.box[1] * kBits / 8;
  static_assert(kBoxes % kLoaders == 0, "05: each loader of a cluster loads whole boxes");
  // Byte offset of (r, k) in the tile (before the swizzle, which the hardware applies).
  static constexpr int64_t bytes_at(int64_t r, int64_t k) {
    return kTile.layout(make_tuple(r, k)) * kBits / 8;
  }
  // The steps the kernel takes through the tile, as plain integers: k-step i starts at
  // i * kStepBytes, consumer warpgroup c's 64 rows at c * kRows64Bytes, box i at i * kBoxStride.
  static constexpr int64_t kStepBytes = bytes_at(0, kInstK);
  static constexpr int64_t kRows64Bytes = bytes_at(64, 0);
  static constexpr int64_t kBoxStride = bytes_at(kBoxRows, 0);
  static constexpr bool steps_are_linear() {
    for (int64_t i = 0; i < kBK / kInstK; ++i)
      for (int64_t c = 0; c < kRows / 64; ++c)
        if (bytes_at(64 * c, i * kInstK) != i * kStepBytes + c * kRows64Bytes) return false;
    for (int64_t i = 0; i < kBoxes; ++i)
      if (bytes_at(i * kBoxRows, 0) != i * kBoxStride) return false;
    return true;
  }
  static_assert(steps_are_linear(), "05: k-steps, consumer rows and boxes must be fixed strides");
  static_assert(kTile.layout.cosize() == kRows * kBK, "05: a stage tile must be compact");
  static_assert(kKMajor ? kBK == kRowElems : kRows % kRowElems == 0,
                "05: K-major tiles are one 128-byte row deep; MN-major tiles whole rows wide");
  static_assert(kBoxes * kBoxBytes == kRows * kBK * kBits / 8, "05: the boxes must cover the tile");
};

template <Elem E>
struct HopperCfg {
  using Info = ElemInfo<E>;
  using T = typename Info::T;
  static constexpr int64_t kBits = Info::kBits, kInstK = Info::kInstK;
  static constexpr int64_t kBM = 128, kBN = 256, kBK = 1024 / kBits;  // one 128-byte row of K
  static constexpr int kStages = 4, kConsumers = 2, kThreads = 128 * (kConsumers + 1);
  // A cluster of kCluster CTAs takes kCluster C tiles along M that share their B tile: each
  // CTA loads 1/kCluster of B and multicasts it to all (B from L2 once per cluster).
  // Measured (H200, ratio to cuBLAS, bf16 4096^3 / 8192^3): 1 CTA 0.97 / 0.94, 2 CTAs 0.99 /
  // 1.00, 4 CTAs 0.83 / 0.90 (fewer clusters fit at once, and four CTAs wait for each other).
  static constexpr int kCluster = 2;
  // Cluster tile-rows per L2 group: 16 C tile-rows (2048 rows of A) next to ~8 tile-columns
  // (66 clusters at once). Measured (H200, bf16 8192^3, ratio to cuBLAS in the same run): 4 / 8 /
  // 16 cluster rows 1.009 / 1.004 / 1.009 -- within noise.
  static constexpr int64_t kGroupM = 16 / kCluster;
  static constexpr int kKSteps = int(kBK / kInstK);

  template <bool kKMajor>
  using A = StageTile<kBits, kBM, kBK, kInstK, kKMajor, 1>;
  template <bool kKMajor>
  using B = StageTile<kBits, kBN, kBK, kInstK, kKMajor, kCluster>;
  static constexpr int64_t kStageBytesA = kBM * kBK * kBits / 8, kStageBytesB = kBN * kBK * kBits / 8;
  static constexpr int64_t kStageBytes = kStageBytesA + kStageBytesB;
  // Epilogue: each consumer stages its 64 rows of C, kChunk columns at a time, as floats in a
  // column-major buffer whose columns are padded to kChunkLd (68: the fragment's stores, rows
  // l/4 and columns 2(l%4) of a warp, fall in 32 distinct banks), then copies them out along
  // columns (coalesced) applying beta.
  static constexpr int64_t kChunk = 32, kChunkLd = 64 + 4;
  // With beta = 0 and 16-bit C, a chunk instead goes out by TMA: the (64, kChunk) box in the
  // 128B-swizzled layout of an MN-major GMMA tile, two buffers (fill one, store the other).
  static constexpr SwizzledLayout kStoreTile = gmma_smem_tile(GmmaSwizzle::kB128, false, 16, 64, kChunk);
  static constexpr TmaBox kStoreBox = make_tma_box(make_tuple(64, kChunk), Swizzle(3, 4, 3));
  static constexpr int64_t kStoreBytes = 64 * kChunk * 2;
  // The box tile before its swizzle is (64, kChunk):(1, 64): offset(r, c) = r + 64 c, which the
  // epilogue computes from its run-time row and column (checked here for every element).
  static constexpr int64_t kStoreColStride = kStoreTile.layout(make_tuple(0, 1));
  static constexpr bool store_tile_is_linear() {
    for (int64_t r = 0; r < 64; ++r)
      for (int64_t c = 0; c < kChunk; ++c)
        if (kStoreTile.layout(make_tuple(r, c)) != r + c * kStoreColStride) return false;
    return true;
  }
  static_assert(store_tile_is_linear(), "05: the store box tile must be r + stride * c");
  static constexpr int64_t kChunkBytes =
      ceil_div(max64(kChunkLd * kChunk * 4, 2 * kStoreBytes), int64_t(1024)) * 1024;
  // Stages, the consumers' epilogue buffers, the 2 x kStages barriers; +1024 to align the base
  // to the 128B swizzle period.
  static constexpr int64_t kEpilogueOffset = kStages * kStageBytes;
  static constexpr int64_t kBarrierOffset = kEpilogueOffset + kConsumers * kChunkBytes;
  static constexpr int64_t kSmemBytes = kBarrierOffset + 2 * kStages * 8 + 1024;
  static_assert(kSmemBytes <= 227 * 1024, "05: the stages do not fit in shared memory");

  // C: two m64n256 atoms along M. Consumer thread t (0..255) holds (FrgV, 1, 1) = 128 values.
  static constexpr TiledMMA kMma =
      make_tiled_mma(atom::sm90_64xNx16(kBN, false), parse_layout("(2,1,1):(1,0,0)"));
  static constexpr Layout kTileC = Layout(make_tuple(kBM, kBN));
  static constexpr Layout kThrC = kMma.partitioner(Operand::kC, kTileC).thread;
  static constexpr Layout kFrgC = kMma.partitioner(Operand::kC, kTileC).fragment;
  static constexpr TileCoords kCrdC = make_coords(kThrC, kFrgC, kBM);
  static_assert(kMma.threads() == 128 * kConsumers && kFrgC.size() == 128,
                "05: two consumer warpgroups of 128 accumulators each");
  static_assert(same_offsets(kMma, Operand::kC, kTileC, kThrC),
                "05: thread-offset layout of C disagrees with TiledMMA::partition_C");
  static_assert(kMma.tile_size(0) == kBM && kMma.tile_size(1) == kBN,
                "05: the TiledMMA must cover the CTA tile");
  // Every value of a chunk is in that chunk for every thread: chunk(v) = frg_col(v) / kChunk.
  static constexpr bool chunks_are_static() {
    int64_t max_col = 0, max_row = 0;
    for (int64_t t = 0; t < 128; ++t) {  // consumer 0's threads; consumer 1 = rows + 64
      max_col = max64(max_col, kCrdC.thr_col(t));
      max_row = max64(max_row, kCrdC.thr_row(t));
      if (kCrdC.thr_row(t + 128) != kCrdC.thr_row(t) + 64 || kCrdC.thr_col(t + 128) != kCrdC.thr_col(t))
        return false;
    }
    for (int64_t v = 0; v < 128; ++v)
      if (kCrdC.frg_col(v) % kChunk + max_col >= kChunk || kCrdC.frg_row(v) + max_row >= 64)
        return false;
    return true;
  }
  static_assert(chunks_are_static(), "05: a fragment value must stay in its chunk for every thread");

  // The fragment read off kCrdC once, in the front end, as small integer tables the unrolled
  // epilogue indexes with constants: chunk j holds values value[j][0..kPerChunk), value v sits
  // at (row[v], col[v]) from the thread's first element, col relative to its chunk.
  static constexpr int kChunks = int(kBN / kChunk), kPerChunk = int(128 / kChunks);
  struct Fragment {
    int value[kChunks][kPerChunk] = {};
    int row[128] = {}, col[128] = {};
  };
  static constexpr Fragment make_fragment() {
    Fragment f;
    int filled[kChunks] = {};
    for (int v = 0; v < 128; ++v) {
      const int j = int(kCrdC.frg_col(v) / kChunk);
      if (filled[j] == kPerChunk) fail("05: the chunks of the fragment must be equal");
      f.value[j][filled[j]++] = v;
      f.row[v] = int(kCrdC.frg_row(v));
      f.col[v] = int(kCrdC.frg_col(v) % kChunk);
    }
    return f;
  }
  static constexpr Fragment kFragment = make_fragment();

  // The TMA-store epilogue writes the fragment with stmatrix .x4 .trans: it must be made of 8x8
  // blocks in stmatrix's register layout. Per warp: lane l at (+l/4, +2(l%4)) from lane 0; value
  // pairs (2p, 2p+1) side by side in a row, each pair's block origin on multiples of 8.
  // matrix[j][q] = the first value of the q-th 8x8 block of chunk j.
  struct Blocks {
    int matrix[kChunks][kPerChunk / 2] = {};
  };
  static constexpr Blocks make_blocks() {
    for (int64_t t = 0; t < 128; ++t) {
      const int64_t lane0 = t - t % 32, l = t % 32;
      if (kCrdC.thr_row(t) != kCrdC.thr_row(lane0) + l / 4 ||
          kCrdC.thr_col(t) != kCrdC.thr_col(lane0) + 2 * (l % 4) || kCrdC.thr_col(lane0) != 0 ||
          kCrdC.thr_row(lane0) % 8 != 0)
        fail("05: the C fragment's lanes are not stmatrix's");
    }
    Blocks b;
    for (int j = 0; j < kChunks; ++j)
      for (int q = 0; q < kPerChunk / 2; ++q) {
        const int v = kFragment.value[j][2 * q], w = kFragment.value[j][2 * q + 1];
        if (w != v + 1 || kFragment.row[w] != kFragment.row[v] ||
            kFragment.col[w] != kFragment.col[v] + 1 || kFragment.row[v] % 8 != 0 ||
            kFragment.col[v] % 8 != 0)
          fail("05: the C fragment's values are not stmatrix's 8x8 blocks");
        b.matrix[j][q] = v;
      }
    return b;
  }
  static constexpr Blocks kBlocks = make_blocks();
};

struct Params05 {
  int64_t m, n, k;
  float alpha, beta;
  void* c;
  int64_t ldc;
  int64_t tiles_m, tiles_n, k_tiles;
  bool a_k_major, b_k_major;
  bool tma_store;  // C leaves through the tensor map map_c (16-bit, beta = 0, 16-byte aligned)
};

// The descriptor of k-step `step` of a stage tile at shared address `stage`, from row block
// `block` (64 rows: the consumer's part of A), encoded with the tile's LBO / SBO / swizzle.
template <class Tile>
__device__ __forceinline__ uint64_t descriptor(uint32_t stage, int block, int step) {
  static constexpr GmmaDescriptor kDesc = Tile::kDesc;
  return kDesc.encode(stage + uint32_t(block * Tile::kRows64Bytes + step * Tile::kStepBytes));
}

// The k-steps of one k-tile for one pair of operand majors (the transposes are immediates).
template <class Cfg, bool kAK, bool kBK>
__device__ __forceinline__ void mma_k_tile(float (&acc)[128], uint32_t sa, uint32_t sb,
                                           int consumer, bool accumulate) {
  using A = typename Cfg::template A<kAK>;
  using B = typename Cfg::template B<kBK>;
#pragma unroll
  for (int k = 0; k < Cfg::kKSteps; ++k) {
    const uint64_t da = descriptor<A>(sa, consumer, k);
    const uint64_t db = descriptor<B>(sb, 0, k);
    const int scale_d = accumulate || k > 0;
    if constexpr (Cfg::kBits == 32) ptx::wgmma_m64n256k8_tf32(acc, da, db, scale_d);
    else if constexpr (std::is_same_v<typename Cfg::T, __half>)
      ptx::wgmma_m64n256k16_f16<!kAK, !kBK>(acc, da, db, scale_d);
    else ptx::wgmma_m64n256k16_bf16<!kAK, !kBK>(acc, da, db, scale_d);
  }
}

// This CTA's boxes of one operand's stage (rank `loader` of the tile's loaders): K-major boxes
// at coordinates (k, row), MN-major at (row, k); multicast to all loaders when they share it.
template <class Tile, bool kKMajor, int kLoaders>
__device__ __forceinline__ void tma_operand(void const* map, uint8_t* stage, int64_t row0,
                                            int64_t k0, uint64_t* full, int loader) {
#pragma unroll
  for (int j = 0; j < Tile::kBoxesPerLoader; ++j) {
    const int64_t i = loader * Tile::kBoxesPerLoader + j;
    const int32_t row = int32_t(row0 + i * Tile::kBoxRows), k = int32_t(k0);
    uint8_t* dst = stage + i * Tile::kBoxStride;
    if constexpr (kLoaders == 1)
      ptx::tma_load_2d(dst, map, kKMajor ? k : row, kKMajor ? row : k, full);
    else
      ptx::tma_load_2d_multicast(dst, map, kKMajor ? k : row, kKMajor ? row : k, full,
                                 uint16_t((1u << kLoaders) - 1));
  }
}

// A consumer warpgroup frees a stage in every CTA of the cluster (their producers multicast into
// it): one arrival per warpgroup on each CTA's empty barrier.
template <class Cfg>
__device__ __forceinline__ void release(uint64_t* empty) {
  if (threadIdx.x % 128 != 0) return;
  if constexpr (Cfg::kCluster == 1) {
    ptx::mbarrier_arrive(empty);
  } else {
#pragma unroll
    for (int r = 0; r < Cfg::kCluster; ++r) ptx::mbarrier_arrive_cluster(empty, r);
  }
}

// A consumer's k-loop over one C tile for one pair of operand majors (the transposes are
// immediates of the instruction): wait for a stage, issue its k-steps, keep one k-tile of wgmmas
// in flight, hand the stage before it back to the producer. On return acc holds the tile.
template <class Cfg, bool kAK, bool kBK>
__device__ __forceinline__ void mainloop(float (&acc)[128], int64_t k_tiles, uint64_t* full,
                                         uint64_t* empty, uint8_t* smem, int& stage,
                                         uint32_t& phase, int consumer) {
  int previous = -1;
  for (int64_t kt = 0; kt < k_tiles; ++kt) {
    ptx::mbarrier_wait(&full[stage], phase);
    uint8_t* s = smem + stage * Cfg::kStageBytes;
    const uint32_t sa = ptx::smem_u32(s), sb = ptx::smem_u32(s + Cfg::kStageBytesA);
#pragma unroll
    for (int i = 0; i < 128; ++i) ptx::fence_operand(acc[i]);
    ptx::wgmma_fence();
    mma_k_tile<Cfg, kAK, kBK>(acc, sa, sb, consumer, kt > 0);
    ptx::wgmma_commit();
    ptx::wgmma_wait<1>();  // the k-tile before this one is done: its stage is free
#pragma unroll
    for (int i = 0; i < 128; ++i) ptx::fence_operand(acc[i]);
    if (previous >= 0) release<Cfg>(&empty[previous]);
    previous = stage;
    if (++stage == Cfg::kStages) stage = 0, phase ^= 1;
  }
  ptx::wgmma_wait<0>();
#pragma unroll
  for (int i = 0; i < 128; ++i) ptx::fence_operand(acc[i]);
  release<Cfg>(&empty[previous]);
}

// One consumer's 64 x kBN part of the C tile: per chunk of kChunk columns, the fragment goes to
// the shared buffer (scaled by alpha), then the warpgroup copies the chunk out, 4 rows per
// thread along columns, C = chunk + beta * C, predicated on the matrix (identity tensor).
template <class Cfg>
__device__ __forceinline__ void epilogue(float const (&acc)[128], float* buf, int consumer,
                                         int64_t m0, int64_t n0, Params05 const& p) {
  using T = typename Cfg::T;
  using Info = typename Cfg::Info;
  constexpr int64_t kChunk = Cfg::kChunk, kLd = Cfg::kChunkLd;
  static constexpr TileCoords kCrdC = Cfg::kCrdC;
  const int t = threadIdx.x % 128;  // this thread in the consumer warpgroup
  static constexpr typename Cfg::Fragment kF = Cfg::kFragment;
  const int row = int(kCrdC.thr_row(t)), col = int(kCrdC.thr_col(t));
  T* c = static_cast<T*>(p.c);
  const bool vector_ok = reinterpret_cast<uintptr_t>(c) % 16 == 0 && p.ldc % 4 == 0;
  const int64_t rows = min64(p.m - m0 - 64 * consumer, 64);  // this consumer's rows inside C
#pragma unroll
  for (int j = 0; j < Cfg::kBN / kChunk; ++j) {
#pragma unroll
    for (int i = 0; i < Cfg::kPerChunk; ++i) {
      const int v = kF.value[j][i];
      buf[row + kF.row[v] + kLd * (col + kF.col[v])] = p.alpha * acc[v];
    }
    ptx::named_barrier_sync(1 + consumer, 128);
    // Copy-out: thread t takes rows 4(t%16).. +3 of columns t/16 + 8i.
    const int r = 4 * (t % 16);
#pragma unroll
    for (int i = 0; i < kChunk / 8; ++i) {
      const int cc = t / 16 + 8 * i;
      const int64_t n = n0 + j * kChunk + cc;
      if (n >= p.n || r >= rows) continue;
      const float4 f = *reinterpret_cast<const float4*>(&buf[r + kLd * cc]);
      float out[4] = {f.x, f.y, f.z, f.w};
      T* dst = c + (m0 + 64 * consumer + r) + n * p.ldc;
      if (vector_ok && r + 4 <= rows) {
        // 4 consecutive elements: one 8-byte (16-bit) or 16-byte (fp32) access.
        using Vec = std::conditional_t<sizeof(T) == 2, uint2, uint4>;
        Vec old, val;
        T* o = reinterpret_cast<T*>(&old);
        T* w = reinterpret_cast<T*>(&val);
        if (p.beta != 0.0f) old = *reinterpret_cast<const Vec*>(dst);
#pragma unroll
        for (int e = 0; e < 4; ++e)
          w[e] = Info::from_float(p.beta != 0.0f ? out[e] + p.beta * Info::to_float(o[e]) : out[e]);
        *reinterpret_cast<Vec*>(dst) = val;
      } else {
        for (int e = 0; e < 4 && r + e < rows; ++e)
          dst[e] = Info::from_float(p.beta != 0.0f ? out[e] + p.beta * Info::to_float(dst[e]) : out[e]);
      }
    }
    ptx::named_barrier_sync(1 + consumer, 128);  // the buffer is free for the next chunk
  }
}

// Two floats as one 32-bit register of two 16-bit values, the first in the low half.
template <class T>
__device__ __forceinline__ uint32_t pack2(float lo, float hi) {
  if constexpr (std::is_same_v<T, __half>) {
    const __half2 h = __floats2half2_rn(lo, hi);
    return *reinterpret_cast<const uint32_t*>(&h);
  } else {
    const __nv_bfloat162 h = __floats2bfloat162_rn(lo, hi);
    return *reinterpret_cast<const uint32_t*>(&h);
  }
}

// The same with TMA stores (16-bit C, beta = 0): per chunk, the fragment (alpha * acc, rounded
// to T) goes to buffer j % 2 in the swizzled box layout, 8x8 blocks at a time with stmatrix
// (transposed: a block's columns are 16-byte runs of the column-major box); one thread stores
// the box and waits until the store of chunk j - 1 has read its buffer, so the warpgroup can
// fill it next.
template <class Cfg>
__device__ __forceinline__ void epilogue_tma(float const (&acc)[128], uint8_t* buf, int consumer,
                                             int64_t m0, int64_t n0, float alpha,
                                             void const* map_c) {
  using T = typename Cfg::T;
  constexpr int64_t kChunk = Cfg::kChunk;
  static constexpr TileCoords kCrdC = Cfg::kCrdC;
  static constexpr Swizzle kSwizzle = Cfg::kStoreTile.swizzle;
  static constexpr typename Cfg::Fragment kF = Cfg::kFragment;
  static constexpr typename Cfg::Blocks kB = Cfg::kBlocks;
  const int t = threadIdx.x % 128, lane = t % 32;
  const int warp_row = int(kCrdC.thr_row(t - lane));  // the warp's first row (lane 0, column 0)
#pragma unroll
  for (int j = 0; j < Cfg::kBN / kChunk; ++j) {
    T* box = reinterpret_cast<T*>(buf + (j % 2) * Cfg::kStoreBytes);
#pragma unroll
    for (int s = 0; s < Cfg::kPerChunk / 8; ++s) {  // 4 blocks per stmatrix.x4
      uint32_t regs[4];
      int row = 0, col = 0;  // the block this lane addresses: block lane / 8, its column lane % 8
#pragma unroll
      for (int i = 0; i < 4; ++i) {
        const int v = kB.matrix[j][4 * s + i];
        regs[i] = pack2<T>(alpha * acc[v], alpha * acc[v + 1]);
        if (lane / 8 == i) row = kF.row[v], col = kF.col[v];
      }
      ptx::stmatrix_x4_trans(box + kSwizzle(warp_row + row + Cfg::kStoreColStride * (col + lane % 8)), regs);
    }
    ptx::fence_proxy_async_smem();
    ptx::named_barrier_sync(1 + consumer, 128);
    if (t == 0) {
      ptx::tma_store_2d(map_c, box, int32_t(m0 + 64 * consumer), int32_t(n0 + j * kChunk));
      ptx::bulk_commit();
      ptx::bulk_wait_read<1>();
    }
    ptx::named_barrier_sync(1 + consumer, 128);
  }
}

template <class Cfg>
__global__ void __launch_bounds__(Cfg::kThreads, 1)
    gemm_05_kernel(const __grid_constant__ CUtensorMap map_a,
                   const __grid_constant__ CUtensorMap map_b,
                   const __grid_constant__ CUtensorMap map_c, Params05 p) {
  using T = typename Cfg::T;
  constexpr int kStages = Cfg::kStages;
  constexpr int64_t kBM = Cfg::kBM, kBN = Cfg::kBN, kBK = Cfg::kBK;

  // Shared memory: kStages x (A, B) stage tiles at 1024-byte aligned addresses, then barriers.
  extern __shared__ uint8_t smem_raw[];
  // (An integer offset from smem_raw, so that the compiler still sees shared memory.)
  uint8_t* smem = smem_raw + (1024 - ptx::smem_u32(smem_raw) % 1024) % 1024;
  auto stage_a = [&](int s) { return smem + s * Cfg::kStageBytes; };
  auto stage_b = [&](int s) { return smem + s * Cfg::kStageBytes + Cfg::kStageBytesA; };
  uint64_t* full = reinterpret_cast<uint64_t*>(smem + Cfg::kBarrierOffset);
  uint64_t* empty = full + kStages;

  const int warpgroup = threadIdx.x / 128;
  if (threadIdx.x == 0) {
    ptx::prefetch_tensor_map(&map_a);
    ptx::prefetch_tensor_map(&map_b);
    for (int s = 0; s < kStages; ++s) {
      ptx::mbarrier_init(&full[s], 1);                 // the producer's arrive (+ TMA bytes)
      ptx::mbarrier_init(&empty[s], Cfg::kConsumers * Cfg::kCluster);  // every consumer's
    }
    ptx::fence_barrier_init();
  }
  ptx::cluster_sync();  // barriers initialized in every CTA before any remote arrive or multicast

  // The cluster walks cluster tiles (kCluster C tiles along M sharing a B tile) in grouped
  // order; this CTA takes C tile-row tm = cluster tile-row * kCluster + rank.
  const int rank = int(ptx::cluster_ctarank());
  const int64_t cluster = blockIdx.x / Cfg::kCluster, clusters = gridDim.x / Cfg::kCluster;
  const int64_t cluster_rows = ceil_div(p.tiles_m, int64_t(Cfg::kCluster));
  const int64_t tiles = cluster_rows * p.tiles_n;
  if (warpgroup == 0) {
    // Producer: one thread walks the same tiles as the consumers and fills the ring.
    ptx::setmaxnreg_dec<56>();
    if (threadIdx.x == 0) {
      int stage = 0;
      uint32_t phase = 0;
      for (int64_t tile = cluster; tile < tiles; tile += clusters) {
        const auto [cm, tn] = grouped_tile(tile, cluster_rows, p.tiles_n, Cfg::kGroupM);
        const int64_t tm = cm * Cfg::kCluster + rank;
        for (int64_t kt = 0; kt < p.k_tiles; ++kt) {
          ptx::mbarrier_wait(&empty[stage], phase ^ 1);  // the consumers freed this stage
          ptx::mbarrier_arrive_expect_tx(&full[stage], uint32_t(Cfg::kStageBytes));
          using A = typename Cfg::template A<true>;
          using AT = typename Cfg::template A<false>;
          using B = typename Cfg::template B<true>;
          using BT = typename Cfg::template B<false>;
          constexpr int kC = Cfg::kCluster;
          if (p.a_k_major) tma_operand<A, true, 1>(&map_a, stage_a(stage), tm * kBM, kt * kBK, &full[stage], 0);
          else tma_operand<AT, false, 1>(&map_a, stage_a(stage), tm * kBM, kt * kBK, &full[stage], 0);
          if (p.b_k_major) tma_operand<B, true, kC>(&map_b, stage_b(stage), tn * kBN, kt * kBK, &full[stage], rank);
          else tma_operand<BT, false, kC>(&map_b, stage_b(stage), tn * kBN, kt * kBK, &full[stage], rank);
          if (++stage == kStages) stage = 0, phase ^= 1;
        }
      }
    }
  } else {
    // Consumers: warpgroup c computes rows [64c, 64c+64) of every tile.
    ptx::setmaxnreg_inc<224>();
    const int consumer = warpgroup - 1;
    int stage = 0;
    uint32_t phase = 0;
    float acc[128];
    for (int64_t tile = cluster; tile < tiles; tile += clusters) {
      const auto [cm, tn] = grouped_tile(tile, cluster_rows, p.tiles_n, Cfg::kGroupM);
      const int64_t tm = cm * Cfg::kCluster + rank;  // may be past M (odd tiles_m): all predicated off
      if constexpr (Cfg::kBits == 32) {
        mainloop<Cfg, true, true>(acc, p.k_tiles, full, empty, smem, stage, phase, consumer);
      } else if (p.a_k_major) {
        if (p.b_k_major) mainloop<Cfg, true, true>(acc, p.k_tiles, full, empty, smem, stage, phase, consumer);
        else mainloop<Cfg, true, false>(acc, p.k_tiles, full, empty, smem, stage, phase, consumer);
      } else {
        if (p.b_k_major) mainloop<Cfg, false, true>(acc, p.k_tiles, full, empty, smem, stage, phase, consumer);
        else mainloop<Cfg, false, false>(acc, p.k_tiles, full, empty, smem, stage, phase, consumer);
      }

      uint8_t* buf = smem + Cfg::kEpilogueOffset + consumer * Cfg::kChunkBytes;
      if (Cfg::kBits == 16 && p.tma_store)
        epilogue_tma<Cfg>(acc, buf, consumer, tm * kBM, tn * kBN, p.alpha, &map_c);
      else
        epilogue<Cfg>(acc, reinterpret_cast<float*>(buf), consumer, tm * kBM, tn * kBN, p);
    }
    if (threadIdx.x % 128 == 0) ptx::bulk_wait<0>();  // this warpgroup's stores have landed
  }
  ptx::cluster_sync();  // no CTA leaves while its peers may still arrive on its barriers
}

// ---------------------------------------------------------------------------------------------
// Host side: tensor maps, packing, launch.

PFN_cuTensorMapEncodeTiled_v12000 encode_tiled() {
  static PFN_cuTensorMapEncodeTiled_v12000 fn = [] {
    void* f = nullptr;
    cudaDriverEntryPointQueryResult q;
    if (cudaGetDriverEntryPointByVersion("cuTensorMapEncodeTiled", &f, 12000, cudaEnableDefault, &q) !=
            cudaSuccess ||
        q != cudaDriverEntryPointSuccess)
      f = nullptr;
    return reinterpret_cast<PFN_cuTensorMapEncodeTiled_v12000>(f);
  }();
  return fn;
}

// A 2-D tensor map over (dim0 contiguous, dim1 every ld_bytes) for 128B-swizzled boxes `box`.
bool encode_2d(CUtensorMap* map, CUtensorMapDataType type, void const* ptr, int64_t dim0,
               int64_t dim1, int64_t ld_bytes, TmaBox const& box, CUtensorMapL2promotion l2) {
  const cuuint64_t dims[2] = {cuuint64_t(dim0), cuuint64_t(dim1)};
  const cuuint64_t strides[1] = {cuuint64_t(ld_bytes)};
  const cuuint32_t box_dims[2] = {cuuint32_t(box.box[0]), cuuint32_t(box.box[1])};
  const cuuint32_t elem_strides[2] = {1, 1};
  auto encode = encode_tiled();
  return encode && encode(map, type, 2, const_cast<void*>(ptr), dims, strides, box_dims,
                          elem_strides, CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_128B,
                          l2, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE) == CUDA_SUCCESS;
}

// The tensor map of one operand (rows, K) with leading dimension `ld` (elements), for the box of
// its stage tile: K-major dims (K, rows), MN-major dims (rows, K).
template <class Cfg, class Tile>
bool make_map(CUtensorMap* map, void const* ptr, int64_t rows, int64_t k, int64_t ld) {
  constexpr bool k_major = Tile::kIsKMajor;
  return encode_2d(map, Cfg::Info::kTmaType, ptr, k_major ? k : rows, k_major ? rows : k,
                   ld * Cfg::kBits / 8, Tile::kBox, CU_TENSOR_MAP_L2_PROMOTION_L2_256B);
}

// C (M, N) column-major with leading dimension ldc, for the epilogue's (64, kChunk) store boxes.
template <class Cfg>
bool make_store_map(CUtensorMap* map, void* c, int64_t m, int64_t n, int64_t ldc) {
  return encode_2d(map, Cfg::Info::kTmaType, c, m, n, ldc * 2, Cfg::kStoreBox,
                   CU_TENSOR_MAP_L2_PROMOTION_NONE);
}

// An operand as TMA reads it: pointer, leading dimension, major. Operands TMA cannot read (not
// 16-byte aligned) or wgmma cannot read (tf32 MN-major) are packed into `scratch`.
struct Operand05 {
  const void* ptr;
  int64_t ld;
  bool k_major;
};

template <class Cfg>
Operand05 prepare_operand(const void* ptr, int64_t s_r, int64_t s_k, int64_t rows, int64_t k,
                          Scratch& scratch, cudaError_t* err) {
  constexpr int64_t bytes = Cfg::kBits / 8;
  // NOTE: an operand with one row or one column has both strides "contiguous"; the unit stride
  // along K picks K-major.
  const bool k_major = s_k == 1;
  const int64_t ld = k_major ? s_r : s_k;
  if (hopper_reads_directly(ptr, s_r, s_k, bytes)) return {ptr, ld, k_major};
  // (packed fp32 is rounded to tf32, as 04 does in registers)
  using Bits = std::conditional_t<Cfg::kBits == 16, uint16_t, uint32_t>;
  int64_t ld_packed = 0;
  void* packed = nullptr;
  *err = pack_operand<Bits, Cfg::kBits == 32>(scratch, &packed, &ld_packed, ptr, s_r, s_k, rows, k);
  return {packed, ld_packed, true};
}

template <Elem E>
cudaError_t launch_elem(GemmArgs const& g, cudaStream_t stream) {
  using Cfg = HopperCfg<E>;
  cudaError_t err = cudaSuccess;
  Scratch scratch(g, stream);
  const Operand05 a = prepare_operand<Cfg>(g.a, g.a_sm, g.a_sk, g.m, g.k, scratch, &err);
  const Operand05 b = err == cudaSuccess
                          ? prepare_operand<Cfg>(g.b, g.b_sn, g.b_sk, g.n, g.k, scratch, &err)
                          : Operand05{};
  if (err == cudaSuccess) {
    CUtensorMap map_a, map_b;
    bool ok =
        (a.k_major ? make_map<Cfg, typename Cfg::template A<true>>(&map_a, a.ptr, g.m, g.k, a.ld)
                   : make_map<Cfg, typename Cfg::template A<false>>(&map_a, a.ptr, g.m, g.k, a.ld)) &&
        (b.k_major ? make_map<Cfg, typename Cfg::template B<true>>(&map_b, b.ptr, g.n, g.k, b.ld)
                   : make_map<Cfg, typename Cfg::template B<false>>(&map_b, b.ptr, g.n, g.k, b.ld));
    // C by TMA stores: 16-bit, beta = 0 (C is not read), aligned, whole 16-byte runs of rows.
    CUtensorMap map_c = map_a;  // (unused unless tma_store)
    const bool tma_store = hopper_stores_by_tma(Cfg::kBits / 8, g.beta, g.m, g.c, g.ldc);
    if (ok && tma_store) ok = make_store_map<Cfg>(&map_c, g.c, g.m, g.n, g.ldc);
    if (!ok) err = cudaErrorInvalidValue;
    Params05 p{g.m, g.n, g.k, g.alpha, g.beta, g.c, g.ldc,
               ceil_div(g.m, Cfg::kBM), ceil_div(g.n, Cfg::kBN), ceil_div(g.k, Cfg::kBK),
               a.k_major, b.k_major, tma_store};
    auto kernel = gemm_05_kernel<Cfg>;
    cudaLaunchConfig_t config = {};
    cudaLaunchAttribute cluster_dim;
    cluster_dim.id = cudaLaunchAttributeClusterDimension;
    cluster_dim.val.clusterDim.x = Cfg::kCluster, cluster_dim.val.clusterDim.y = 1,
    cluster_dim.val.clusterDim.z = 1;
    config.blockDim = dim3(Cfg::kThreads);
    config.dynamicSmemBytes = size_t(Cfg::kSmemBytes);
    config.stream = stream;
    config.attrs = &cluster_dim;
    config.numAttrs = 1;
    // Persistent: as many clusters as fit on the GPU at once (asked once per device).
    static int max_clusters[64] = {};
    int device = 0;
    if (err == cudaSuccess) err = cudaGetDevice(&device);
    if (err == cudaSuccess && device < 64 && max_clusters[device] == 0) {
      err = cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, int(Cfg::kSmemBytes));
      config.gridDim = dim3(Cfg::kCluster);
      if (err == cudaSuccess) err = cudaOccupancyMaxActiveClusters(&max_clusters[device], kernel, &config);
      if (err == cudaSuccess && max_clusters[device] < 1) err = cudaErrorInvalidConfiguration;
    }
    if (err == cudaSuccess) {
      const int64_t cluster_tiles = ceil_div(p.tiles_m, int64_t(Cfg::kCluster)) * p.tiles_n;
      const int64_t clusters = min64(cluster_tiles, device < 64 ? max_clusters[device] : 1);
      config.gridDim = dim3(unsigned(clusters * Cfg::kCluster));
      err = cudaLaunchKernelEx(&config, kernel, map_a, map_b, map_c, p);
    }
  }
  return err;
}

}  // namespace
}  // namespace tessera::ladder
