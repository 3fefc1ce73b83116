// tessera/staged_smem.hpp -- staged shared-memory operand tiles (a ring of kStages tiles, the
// stage a mode: sA(_, _, stage)) that both the TMA loads and the wgmma descriptors read, and the
// shared-memory carve-up of a kernel (CuTe's SharedStorage).
//
// A StagedTile states a stage tile once: its GMMA layout (gmma_smem_tile: the 128-byte swizzled
// atoms, K-major or MN-major), and everything read off it: the wgmma blocks (make_gmma_operand),
// the TMA boxes (make_tma_tile) and the bytes. A kernel declares its shared memory as a struct:
//
//   static constexpr StagedTile kA = make_staged_tile(16, 128, 64, /*k_major*/ true, 64, 4);
//   struct SharedStorage {
//     SmemStages<bf16, kA> a;          // 4 x (128,64), each on the 1024-byte swizzle period
//     SmemStages<bf16, kB> b;
//     PipelineStorage<4> pipe;         // full / empty barriers of the ring
//   };
//   SharedStorage& smem = shared_storage<SharedStorage>(smem_raw);
//   auto sA = smem.a(_, _, stage);     // StageTensor: copy(gA(_, _, k), sA, bar), partition_A(sA)
//
// Worked example: 16-bit, (128,64) K-major, 4 stages: one stage is 128 * 64 * 2 = 16 KB, the
// wgmma blocks are (64,16) (two along M: one per consumer warpgroup; four k-steps), the TMA box
// (64,128) once; sA(_, _, 2) starts 32 KB into the ring.
#pragma once

#include <cstdint>

#include "algebra.hpp"
#include "atom/smem.hpp"
#include "gmma.hpp"
#include "tma.hpp"

namespace tessera {

// One operand's stage tile and what is read off it.
struct StagedTile {
  SwizzledLayout tile;  // (rows, K) of one stage, element offsets
  GmmaOperand mma;      // its wgmma blocks (block_rows x 32 bytes of K)
  TmaTile tma;          // its TMA boxes (split among `loaders` CTAs of a cluster: multicast)
  int64_t elem_bits = 16;
  int64_t rows = 0, cols = 0;
  int64_t stages = 1;
  TESSERA_HD constexpr int64_t stage_elems() const { return rows * cols; }
  TESSERA_HD constexpr int64_t stage_bytes() const { return rows * cols * elem_bits / 8; }
  TESSERA_HD constexpr int64_t bytes() const { return stages * stage_bytes(); }
};

// The stage tile (rows, cols) of elem_bits elements, K-major or MN-major, 128-byte swizzled,
// read by wgmma in blocks of block_rows rows, loaded by `loaders` CTAs (multicast), kStages deep.
// Fails naming the rule where wgmma or TMA cannot read the tile (rule::wgmma_cannot_read_the_
// shared_layout, rule::tma_cannot_copy_the_layout).
TESSERA_HD constexpr StagedTile make_staged_tile(int64_t elem_bits, int64_t rows, int64_t cols,
                                                 bool k_major, int64_t block_rows, int64_t stages,
                                                 int loaders = 1,
                                                 GmmaSwizzle sw = GmmaSwizzle::kB128) {
  StagedTile s;
  s.elem_bits = elem_bits, s.rows = rows, s.cols = cols, s.stages = stages;
  s.tile = gmma_smem_tile(sw, k_major, elem_bits, rows, cols);
  s.mma = make_gmma_operand(s.tile, elem_bits, block_rows, 256 / elem_bits);
  s.tma = make_tma_tile(s.tile, elem_bits, loaders);
  if (s.tma.bytes() != s.stage_bytes()) fail("tma: the TMA boxes must cover the stage tile");
  if (stages < 1) fail("staged tile: at least one stage");
  return s;
}

}  // namespace tessera

#if defined(__CUDACC__)
#include "pipeline.hpp"

namespace tessera {

// One stage of a staged tile in shared memory: what TMA writes (copy(gA(_, _, k), sA, bar)) and
// wgmma reads (gmma(): the descriptors of its blocks).
template <class T, StagedTile kS>
struct StageTensor {
  T* ptr;  // the stage's first element, on the swizzle period
  static constexpr StagedTile kStaged = kS;
  __device__ __forceinline__ GmmaTensor<T, kS.mma> gmma() const {
    return make_gmma_tensor<kS.mma>(ptr);
  }
};

// The ring of a staged tile (a member of the kernel's SharedStorage): kS.stages tiles, each on
// the 1024-byte period of the 128-byte swizzle. s(_, _, stage) is stage `stage` (CuTe's
// sA(_, _, stage) of a (rows, K, stages) tensor).
template <class T, StagedTile kS>
struct SmemStages {
  static_assert(sizeof(T) * 8 == kS.elem_bits,
                "staged tile: the element type is not the tile's width");
  static_assert(kS.stage_bytes() % 1024 == 0,
                "staged tile: a stage must keep the next on the swizzle period");
  static constexpr StagedTile kStaged = kS;
  alignas(1024) T data[kS.stages * kS.stage_elems()];
  __device__ __forceinline__ StageTensor<T, kS> operator()(Underscore, Underscore, int stage) {
    return {data + stage * kS.stage_elems()};
  }
};

// The same ring where the kernel places the stages itself: stage s at base + s * kStrideBytes
// (e.g. A and B of a stage side by side).
template <class T, StagedTile kS, int64_t kStrideBytes>
struct SmemStagesAt {
  static_assert(kStrideBytes % 1024 == 0, "staged tile: stages must start on the swizzle period");
  static constexpr StagedTile kStaged = kS;
  uint8_t* base;
  __device__ __forceinline__ StageTensor<T, kS> operator()(Underscore, Underscore,
                                                           int stage) const {
    return {reinterpret_cast<T*>(base + stage * kStrideBytes)};
  }
};

// The barriers of a ring of kStages stages (StagePipeline reads them).
template <int kStages>
struct PipelineStorage {
  uint64_t full[kStages];
  uint64_t empty[kStages];
};

// The kernel's shared memory as its SharedStorage struct: the dynamic shared memory from the
// first 1024-byte-aligned address (ask for sizeof(Storage) + 1024 bytes at launch).
template <class Storage>
__device__ __forceinline__ Storage& shared_storage(uint8_t* smem_raw) {
  return *reinterpret_cast<Storage*>(align_shared<1024>(smem_raw));
}
template <class Storage>
inline constexpr int64_t kSharedStorageBytes = int64_t(sizeof(Storage)) + 1024;

}  // namespace tessera
#endif
