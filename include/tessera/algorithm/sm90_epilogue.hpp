// tessera/algorithm/sm90_epilogue.hpp -- a Hopper GEMM epilogue through shared memory: every
// wgmma accumulator through a user functor of (value, row, col), rounded to 16 bits, written with
// stmatrix into a swizzled staging tile, which one TMA store sends to global memory (CUTLASS's
// TMA warp-specialized epilogue with a fused visitor).
//
//   // the staging tile: one warpgroup's 64 rows x kChunk columns of D, as TMA stores it
//   static constexpr SwizzledLayout kStage = gmma_smem_tile(GmmaSwizzle::kB128, true, 16, 64, 64);
//   using Epi = SmemEpilogue<Cfg, bf16, kStage, 2>;    // 2 staging buffers in turn
//   Epi::store(acc, buffers, TmaStore<Epi::kTma>{&map_d}, m0, n0, warpgroup,
//              [&](float x, int64_t row, int64_t col) { return gelu(x + bias[col]); });
//   Epi::drain();                                      // before the CTA exits
//
// acc is WarpgroupMMA::partition_fragment_C() (or its registers, float[N/2]); the functor takes
// (value, row, col) in D, the value alone (then no coordinate is computed at all), or (value,
// FragmentValue): the value's index in acc, a constant of the unrolled loop, for a functor that
// holds per-value data in registers (indexed by a run-time coordinate, such an array would live
// in local memory).
//
// The plan, all read off layouts at compile time: warpgroup thread t holds value v of the C
// partition at (row, col) = thr(t) + frg(v) of its 64 x N block (EpilogueCoords:
// make_coord_layout of the TiledMMA's C partition). Chunk j is columns [j kChunk, (j+1) kChunk);
// its values pair into stmatrix's 8x8 blocks (values v, v + 1 are columns c, c + 1 of one row,
// the warp's 32 lanes at rows l/4, columns 2(l%4) of the block: the m8n8 register layout), four
// blocks per stmatrix.x4. Lane l addresses line l % 8 of block l / 8: a row of the staging tile
// (columns contiguous: stmatrix) or a column (rows contiguous: stmatrix.trans), 16 bytes the
// swizzle keeps together. Per chunk: the warpgroup fills buffer j % kBuffers, fences, syncs on
// its named barrier; one thread issues the TMA store, commits it and waits until at most
// kBuffers - 1 stores are still reading shared memory, so the buffer written next is free. The
// last stores of a tile are left in flight: they drain while the next tile's mainloop runs
// (drain() before the CTA exits).
//
// Ragged edges: the tensor map's extents are D's (rows, cols); a TMA store clips each box at them,
// so no predicate is needed. The clip is exact along the strided dimension and in 16-byte units
// along the contiguous one (the map also needs a 16-byte aligned base and row stride): D's
// contiguous extent must be a multiple of 8 16-bit elements; others take epilogue_store
// (fused_epilogue.hpp), which predicates each element.
#pragma once

#include <cstdint>
#include <type_traits>

#include "../coord_layout.hpp"
#include "../swizzle.hpp"
#include "../tma.hpp"
#include "fused_epilogue.hpp"

#if defined(__CUDACC__)
#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include "../atom/copy.hpp"
#include "../atom/sm90.hpp"
#endif

namespace tessera {

// Which of a thread's fragment values an epilogue functor is given (its index in acc).
struct FragmentValue {
  int index;
};

// The bytes of `buffers` staging tiles of 16-bit elements (for a SharedStorage member).
TESSERA_HD constexpr int64_t staging_bytes(SwizzledLayout const& stage, int buffers) {
  return buffers * make_tma_tile(stage, 16).bytes();
}

// kBoxRank: the rank of the tensor map the stores go through (2, or 4 with unit modes after the
// staging tile's two).
template <class Cfg, class T, SwizzledLayout kStage, int kBuffers, int kBoxRank = 2>
struct SmemEpilogue {
  static_assert(sizeof(T) == 2,
                "rule::ldmatrix_moves_16_bit_elements: SmemEpilogue: stmatrix stores 16-bit "
                "values");
  using E = detail::EpilogueCoords<Cfg>;
  static constexpr CoordLayout<2> kThr = E::kThr;  // warpgroup thread -> (row, col)
  static constexpr CoordLayout<2> kFrg = E::kFrg;  // value -> (row, col) from there
  static constexpr int kValues = int(E::kP.fragment.size());
  static constexpr int64_t kRows = kStage.layout[0].size(), kCols = kStage.layout[1].size();
  static constexpr int64_t kN = Cfg::kMma.tile_size(1);
  static constexpr int kChunks = int(kN / kCols), kPerChunk = kValues / (kChunks ? kChunks : 1);
  // The staging tile before its swizzle, r * kRowStride + c * kColStride (checked).
  static constexpr int64_t kRowStride = kStage.layout(make_tuple(1, 0));
  static constexpr int64_t kColStride = kStage.layout(make_tuple(0, 1));
  static constexpr bool kTrans = kRowStride == 1;  // rows contiguous: stmatrix .trans
  static constexpr TmaTile kTma = make_tma_tile(with_unit_modes(kStage, kBoxRank), 16);
  static constexpr int64_t kBufferBytes = kTma.bytes();
  static constexpr int64_t kBytes = staging_bytes(kStage, kBuffers);  // the buffers, all

  // ---- the checks (each a static_assert below) ----
  TESSERA_HD static constexpr bool tile_is_a_warpgroup_chunk() {
    return Cfg::kMma.atom.m == 64 && Cfg::kMma.atom.threads() == 128 && kRows == 64 &&
           kStage.layout.rank() == 2 && kN % kCols == 0 && kPerChunk % 8 == 0;
  }
  // 16-byte lines: 8 elements contiguous along one mode, whole 16-byte units of the swizzle.
  TESSERA_HD static constexpr bool lines_are_16_contiguous_bytes() {
    if (!(kRowStride == 1 || kColStride == 1) || kStage.offset % 8 != 0) return false;
    const int64_t other = kTrans ? kColStride : kRowStride;
    if (other % 8 != 0 || (kStage.swizzle.bits > 0 && kStage.swizzle.base < 3)) return false;
    for (int64_t r = 0; r < kRows; ++r)
      for (int64_t c = 0; c < kCols; ++c)
        if (kStage.layout(make_tuple(r, c)) != r * kRowStride + c * kColStride) return false;
    return true;
  }
  // The m8n8 register layout: lane l of each warp at (l / 4, 2 (l % 4)) from lane 0, which
  // starts a block (row on a multiple of 8, column 0); values v, v + 1 side by side.
  TESSERA_HD static constexpr bool accumulators_are_stmatrix_blocks() {
    for (int64_t t = 0; t < 128; ++t) {
      const int64_t l = t % 32;
      const Coord<2> c = kThr(t), c0 = kThr(t - l);
      if (c[0] != c0[0] + l / 4 || c[1] != c0[1] + 2 * (l % 4) || c0[0] % 8 || c0[1] != 0)
        return false;
    }
    for (int64_t v = 0; v < kValues; v += 2)
      if (kFrg(v + 1)[0] != kFrg(v)[0] || kFrg(v + 1)[1] != kFrg(v)[1] + 1 || kFrg(v)[0] % 8 ||
          kFrg(v)[1] % 8)
        return false;
    return true;
  }
  // A value stays in its chunk (and in the 64 rows) for every thread.
  TESSERA_HD static constexpr bool chunks_are_static() {
    int64_t max_row = 0, max_col = 0;
    for (int64_t t = 0; t < 128; ++t)
      max_row = max64(max_row, kThr(t)[0]), max_col = max64(max_col, kThr(t)[1]);
    for (int64_t v = 0; v < kValues; ++v)
      if (kFrg(v)[1] % kCols + max_col >= kCols || kFrg(v)[0] + max_row >= 64) return false;
    return true;
  }
  static constexpr bool kOk = tile_is_a_warpgroup_chunk() && lines_are_16_contiguous_bytes() &&
                              accumulators_are_stmatrix_blocks() && chunks_are_static();

  // ---- the plan: chunk j's blocks; each value's (row, col) in its chunk ----
  struct Plan {
    int block[kChunks ? kChunks : 1][kPerChunk / 2 ? kPerChunk / 2 : 1] = {};  // first values
    int row[kValues] = {}, col[kValues] = {};
  };
  TESSERA_HD static constexpr Plan make_plan() {
    Plan p;
    int filled[kChunks ? kChunks : 1] = {};
    for (int v = 0; kOk && v < kValues; v += 2) {
      const int j = int(kFrg(v)[1] / kCols);
      if (filled[j] == kPerChunk / 2) return Plan{};  // unequal chunks (plan_is_full fails)
      p.block[j][filled[j]++] = v;
    }
    for (int v = 0; v < kValues; ++v)
      p.row[v] = int(kFrg(v)[0]), p.col[v] = int(kFrg(v)[1] % kCols);
    return p;
  }
  static constexpr Plan kPlan = make_plan();
  TESSERA_HD static constexpr bool plan_is_full() {
    for (int j = 0; j < kChunks; ++j)
      for (int q = 0; q < kPerChunk / 2; ++q)
        if (kFrg(kPlan.block[j][q])[1] / kCols != j) return false;
    return true;
  }

  // The unswizzled offset of the line lane `lane` addresses in its block (l / 8), whose first
  // element is at (row, col) of the staging tile: line l % 8 is a row (stmatrix) or a column
  // (stmatrix .trans) of the block.
  TESSERA_HD static constexpr int64_t line_offset(int row, int col, int lane) {
    return kTrans ? kRowStride * row + kColStride * (col + lane % 8)
                  : kRowStride * (row + lane % 8) + kColStride * col;
  }

  static_assert(tile_is_a_warpgroup_chunk(),
                "rule::staging_tile_is_not_a_warpgroup_chunk: SmemEpilogue: the staging tile must "
                "be (64, kChunk) of a wgmma TiledMMA's 64 x N warpgroup block, kChunk dividing N");
  static_assert(lines_are_16_contiguous_bytes(),
                "rule::ldmatrix_rows_are_16_contiguous_bytes: SmemEpilogue: the staging tile must "
                "be r * s_r + c * s_c with one stride 1 and its swizzle keeping 16-byte units");
  static_assert(accumulators_are_stmatrix_blocks(),
                "rule::accumulators_are_not_stmatrix_blocks: SmemEpilogue: the C partition must be "
                "wgmma's (8x8 blocks of value pairs in stmatrix's register layout)");
  static_assert(chunks_are_static() && plan_is_full(),
                "rule::values_leave_their_chunk: SmemEpilogue: a value must stay in its chunk of "
                "kChunk columns for every thread");
  static_assert(kChunks % kBuffers == 0,
                "rule::store_buffers_do_not_divide_the_chunks: SmemEpilogue: the chunks of a "
                "tile must rotate through the staging buffers evenly");
  static_assert(kTma.boxes == 1,
                "rule::staging_tile_is_one_tma_box: SmemEpilogue: one TMA store per chunk");
  static_assert(kBoxRank == 2 || kBoxRank == 4,
                "rule::staging_box_rank: SmemEpilogue: the stores' tensor map has 2 or 4 modes");

#if defined(__CUDACC__)
  // Two floats as one 32-bit register of two 16-bit values, the first in the low half.
  __device__ __forceinline__ static uint32_t pack2(float lo, float hi) {
    if constexpr (std::is_same_v<T, __half>) {
      const __half2 h = __floats2half2_rn(lo, hi);
      return reinterpret_cast<uint32_t const&>(h);
    } else if constexpr (std::is_same_v<T, __nv_bfloat16>) {
      const __nv_bfloat162 h = __floats2bfloat162_rn(lo, hi);
      return reinterpret_cast<uint32_t const&>(h);
    } else {
      const T h[2] = {T(lo), T(hi)};
      return reinterpret_cast<uint32_t const&>(h);
    }
  }

  // D(m0 + r, n0 + c) = f(acc(v), m0 + r, n0 + c) (or f(acc(v))) for warpgroup w's 64 x N block
  // of the tile at (m0, n0) (its rows 64 w .. 64 w + 63; thread t = threadIdx.x % 128), through
  // the kBuffers staging buffers at `smem` (kBytes, 1024-byte aligned). The warpgroup syncs on
  // named barrier 1 + w (0 is __syncthreads').
  template <class F>
  __device__ __forceinline__ static void store(float const (&acc)[kValues], uint8_t* smem,
                                               TmaStore<kTma> const& tma, int64_t m0,
                                               int64_t n0, int w, F const& f) {
    static_assert(kBoxRank == 2, "SmemEpilogue::store(m0, n0): a rank-2 map (else store_at)");
    store_at(
        acc, smem, tma, [&](int j) { return Coord<2>{{m0 + 64 * w, n0 + j * kCols}}; }, 1 + w, f);
  }
  // The same for this warpgroup's 64 x N block where box_origin(j) is chunk j's box coordinate
  // (Coord<kBoxRank>: its first row and column, then the unit modes'), syncing on named barrier
  // `barrier` (1..15). (A function of j, called where the coordinate is used: computed before
  // the call, the coordinates changed what NVVM hoists out of the caller's tile loop.)
  template <class Origin, class F>
  __device__ __forceinline__ static void store_at(float const (&acc)[kValues], uint8_t* smem,
                                                  TmaStore<kTma> const& tma,
                                                  Origin const& box_origin, int barrier,
                                                  F const& f) {
    static constexpr Swizzle kSwizzle = kStage.swizzle;
    static constexpr Plan kP = kPlan;
    static constexpr CoordLayout<2> kT = kThr;  // (re-bound: a member does not fold in device code)
    const int t = int(threadIdx.x % 128), lane = t % 32;
    const int warp_row = int(kT(t - lane)[0]);  // the warp's first row (its column is 0)
    // f(value, row, col), or f(value): then no coordinate is computed (NOTE: unused ones, though
    // dead, changed what NVVM hoists out of the caller's tile loop).
    constexpr bool kWithCoords = std::is_invocable_v<F const&, float, int64_t, int64_t>;
    constexpr bool kWithIndex = std::is_invocable_v<F const&, float, FragmentValue>;
    Coord<2> first{};
    if constexpr (kWithCoords) first = kT(t);
    TESSERA_UNROLL
    for (int j = 0; j < kChunks; ++j) {
      T* box = reinterpret_cast<T*>(smem + (j % kBuffers) * kBufferBytes);
      TESSERA_UNROLL
      for (int s = 0; s < kPerChunk / 8; ++s) {  // 4 blocks per stmatrix.x4
        uint32_t regs[4];
        int row = 0, col = 0;  // the block this lane addresses: block lane / 8
        TESSERA_UNROLL
        for (int i = 0; i < 4; ++i) {
          const int v = kP.block[j][4 * s + i];
          if constexpr (kWithIndex) {
            regs[i] = pack2(f(acc[v], FragmentValue{v}), f(acc[v + 1], FragmentValue{v + 1}));
          } else if constexpr (kWithCoords) {
            const Coord<kBoxRank> o = box_origin(j);
            const int64_t r = o[0] + first[0] + kP.row[v];
            const int64_t c = o[1] + first[1] + kP.col[v];
            regs[i] = pack2(f(acc[v], r, c), f(acc[v + 1], r, c + 1));
          } else {
            regs[i] = pack2(f(acc[v]), f(acc[v + 1]));
          }
          if (lane / 8 == i) row = kP.row[v], col = kP.col[v];
        }
        ptx::stmatrix<4, kTrans>(box + kSwizzle(line_offset(warp_row + row, col, lane)), regs);
      }
      fence_view_async_shared();
      ptx::named_barrier_sync(barrier, 128);
      if (t == 0) {
        copy(tma, box, box_origin(j));
        tma_store_commit();
        tma_store_wait_read<kBuffers - 1>();
      }
      ptx::named_barrier_sync(barrier, 128);
    }
  }
  template <Layout kL, class F>
  __device__ __forceinline__ static void store(Fragment<float, kL> const& acc, uint8_t* smem,
                                               TmaStore<kTma> const& tma, int64_t m0,
                                               int64_t n0, int w, F const& f) {
    static_assert(Fragment<float, kL>::size() == kValues && registers_in_value_order<kL>(),
                  "rule::fragment_is_not_the_partition_of_c: SmemEpilogue takes the TiledMMA's "
                  "accumulators");
    store(acc.v, smem, tma, m0, n0, w, f);
  }
  template <Layout kL, class Origin, class F>
  __device__ __forceinline__ static void store_at(Fragment<float, kL> const& acc, uint8_t* smem,
                                                  TmaStore<kTma> const& tma,
                                                  Origin const& box_origin, int barrier,
                                                  F const& f) {
    static_assert(Fragment<float, kL>::size() == kValues && registers_in_value_order<kL>(),
                  "rule::fragment_is_not_the_partition_of_c: SmemEpilogue takes the TiledMMA's "
                  "accumulators");
    store_at(acc.v, smem, tma, box_origin, barrier, f);
  }
  template <Layout kL>
  TESSERA_HD static constexpr bool registers_in_value_order() {
    for (int64_t i = 0; i < kL.size(); ++i)
      if (kL(i) != i) return false;
    return true;
  }
  // Before the CTA exits (its shared memory goes away): the stores have read their buffers.
  __device__ __forceinline__ static void drain() {
    if (threadIdx.x % 128 == 0) tma_store_wait_read<0>();
  }
#endif
};

}  // namespace tessera
