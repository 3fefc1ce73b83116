// kernels/gemm/sm90_epilogue.cuh -- kernel 05's epilogues: a consumer warpgroup's 64 x kBN part
// of the C tile from its wgmma accumulators to global memory.
//
// Cfg (05_wgmma_tma.cuh's WgmmaTmaCfg) provides the fragment tables read off the TiledMMA's C
// partition (kThrCrdC, kFragment, kBlocks), the chunking (kChunk, kChunkLd, kPerChunk) and, for
// the TMA store, the store tile (kStoreTile, its TmaTile kStoreTma).
//   epilogue:      through a padded column-major shared buffer, then predicated (vector) stores
//                  applying beta: any C;
//   epilogue_tma:  stmatrix into the swizzled store tile, one TMA store per chunk: 16-bit C,
//                  beta = 0 and hopper_stores_by_tma (m % 8 == 0: a TMA store clips in 16-byte
//                  units, common.cuh).
#pragma once

#include <type_traits>

#include <tessera/atom/copy.hpp>
#include <tessera/atom/sm90.hpp>
#include <tessera/tma.hpp>

#include "elem.cuh"

namespace tessera::ladder {

// One consumer's 64 x kBN part of the C tile: per chunk of kChunk columns, the fragment goes to
// the shared buffer (scaled by alpha), then the warpgroup copies the chunk out, 4 elements per
// thread along C's contiguous dimension, C = chunk + beta * C, predicated on the matrix
// (identity tensor). Column-major C (c_sm = 1): thread t takes rows 4(t%16).. +3 of columns
// t/16 + 8i; row-major C (the swapped problem's C^T, c_sn = 1): row t%64 of columns
// 4(t/64) + 8i .. +3.
template <class Cfg, class Params>
__device__ __forceinline__ void epilogue(float const (&acc)[Cfg::kAcc], float* buf, int consumer,
                                         int64_t m0, int64_t n0, Params const& p) {
  using T = typename Cfg::T;
  using Info = typename Cfg::Info;
  constexpr int64_t kChunk = Cfg::kChunk, kLd = Cfg::kChunkLd;
  static constexpr CoordLayout<2> kThrCrdC = Cfg::kThrCrdC;
  const int t = threadIdx.x % 128;  // this thread in the consumer warpgroup
  static constexpr typename Cfg::Fragment kF = Cfg::kFragment;
  const Coord<2> first = kThrCrdC(t);  // (row, col) of the thread's first value
  const int row = int(first[0]), col = int(first[1]);
  T* c = static_cast<T*>(p.c);
  // C's contiguous dimension: rows, or columns (only the narrow tile runs swapped problems)
  const bool by_rows = !Cfg::kSwappable || p.c_sm == 1;
  const int64_t ld = by_rows ? p.c_sn : p.c_sm;
  const bool vector_ok = reinterpret_cast<uintptr_t>(c) % 16 == 0 && ld % 4 == 0;
  const int64_t rows = min64(p.m - m0 - 64 * consumer, 64);  // this consumer's rows inside C
  const int r0 = by_rows ? 4 * (t % 16) : t % 64, c0 = by_rows ? t / 16 : 4 * (t / 64);
#pragma unroll
  for (int j = 0; j < Cfg::kBN / kChunk; ++j) {
#pragma unroll
    for (int i = 0; i < Cfg::kPerChunk; ++i) {
      const int v = kF.value[j][i];
      buf[row + kF.row[v] + kLd * (col + kF.col[v])] = p.alpha * acc[v];
    }
    ptx::named_barrier_sync(1 + consumer, 128);
#pragma unroll
    for (int i = 0; i < kChunk / 8; ++i) {
      const int r = r0, cc = c0 + 8 * i;
      const int64_t n = n0 + j * kChunk + cc;
      if (n >= p.n || r >= rows) continue;
      float out[4];
      if (by_rows) {
        const float4 f = *reinterpret_cast<const float4*>(&buf[r + kLd * cc]);
        out[0] = f.x, out[1] = f.y, out[2] = f.z, out[3] = f.w;
      } else {
#pragma unroll
        for (int e = 0; e < 4; ++e) out[e] = buf[r + kLd * (cc + e)];
      }
      // in bounds of the 4: rows r.. inside C (by_rows) or columns n.. inside C
      const int64_t inside = by_rows ? rows - r : p.n - n;
      T* dst = c + (m0 + 64 * consumer + r) * p.c_sm + n * p.c_sn;
      if (vector_ok && inside >= 4) {
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
        for (int e = 0; e < 4 && e < inside; ++e)
          dst[e] =
              Info::from_float(p.beta != 0.0f ? out[e] + p.beta * Info::to_float(dst[e]) : out[e]);
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
// to T) goes to buffer j % kStoreBuffers in the swizzled box layout, 8x8 blocks at a time with
// stmatrix (transposed: a block's columns are 16-byte runs of the column-major box); one thread
// stores the box and waits until the store of chunk j + 1 - kStoreBuffers has read its buffer,
// so the warpgroup can fill it next.
template <class Cfg>
__device__ __forceinline__ void epilogue_tma(float const (&acc)[Cfg::kAcc], uint8_t* buf,
                                             int consumer, int64_t m0, int64_t n0, float alpha,
                                             void const* map_c) {
  using T = typename Cfg::T;
  constexpr int64_t kChunk = Cfg::kChunk;
  static constexpr CoordLayout<2> kThrCrdC = Cfg::kThrCrdC;
  static constexpr Swizzle kSwizzle = Cfg::kStoreTile.swizzle;
  static constexpr typename Cfg::Fragment kF = Cfg::kFragment;
  static constexpr typename Cfg::Blocks kB = Cfg::kBlocks;
  const int t = threadIdx.x % 128, lane = t % 32;
  const int warp_row = int(kThrCrdC(t - lane)[0]);  // the warp's first row (lane 0, column 0)
#pragma unroll
  for (int j = 0; j < Cfg::kBN / kChunk; ++j) {
    T* box = reinterpret_cast<T*>(buf + (j % Cfg::kStoreBuffers) * Cfg::kStoreBytes);
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
      ptx::stmatrix_x4_trans(
          box + kSwizzle(warp_row + row + Cfg::kStoreColStride * (col + lane % 8)), regs);
    }
    fence_view_async_shared();
    ptx::named_barrier_sync(1 + consumer, 128);
    if (t == 0) {
      copy(TmaStore<Cfg::kStoreTma>{map_c}, box, Coord<2>{{m0 + 64 * consumer, n0 + j * kChunk}});
      tma_store_commit();
      tma_store_wait_read<Cfg::kStoreBuffers - 1>();
    }
    ptx::named_barrier_sync(1 + consumer, 128);
  }
}

}  // namespace tessera::ladder
