// kernels/gemm/sm90_epilogue.cuh -- kernel 05's epilogues: a consumer warpgroup's 64 x kBN part
// of the C tile from its wgmma accumulators to global memory.
//
// Cfg (05_wgmma_tma.cuh's WgmmaTmaCfg) provides the fragment tables read off the TiledMMA's C
// partition (kThrCrdC, kFragment), the chunking (kChunk, kChunkLd, kPerChunk) and, for the TMA
// store, the store tile (kStoreTile) and its buffers (kStoreBuffers).
//   epilogue:      through a padded column-major shared buffer, then predicated (vector) stores
//                  applying beta (FP8 inputs: and the scales, C fp32, f16 or bf16): any C;
//   epilogue_tma:  tessera::SmemEpilogue (algorithm/sm90_epilogue.hpp): stmatrix into the
//                  swizzled store tile, one TMA store per chunk: 16-bit C (FP8 inputs too),
//                  beta = 0 and hopper_stores_by_tma (m % 8 == 0: a TMA store clips in 16-byte
//                  units, common.cuh).
#pragma once

#include <type_traits>

#include <tessera/algorithm/sm90_epilogue.hpp>
#include <tessera/atom/sm90.hpp>
#include <tessera/tma.hpp>

#include "elem.cuh"

namespace tessera::ladder {

// Four consecutive elements of C at dst (`inside` of them in bounds), C = out + beta * C: one
// 8-byte (16-bit) or 16-byte (fp32) access where `vector` and all four are inside.
template <class TC>
__device__ __forceinline__ void store_c4(TC* dst, float const (&out)[4], int64_t inside,
                                         float beta, bool vector) {
  using Info = OutInfo<TC>;
  if (vector && inside >= 4) {
    using Vec = std::conditional_t<sizeof(TC) == 2, uint2, uint4>;
    Vec old, val;
    TC* o = reinterpret_cast<TC*>(&old);
    TC* w = reinterpret_cast<TC*>(&val);
    if (beta != 0.0f) old = *reinterpret_cast<const Vec*>(dst);
#pragma unroll
    for (int e = 0; e < 4; ++e)
      w[e] = Info::from_float(beta != 0.0f ? out[e] + beta * Info::to_float(o[e]) : out[e]);
    *reinterpret_cast<Vec*>(dst) = val;
  } else {
    for (int e = 0; e < 4 && e < inside; ++e)
      dst[e] = Info::from_float(beta != 0.0f ? out[e] + beta * Info::to_float(dst[e]) : out[e]);
  }
}

// The same for element `at` of C whose type the call says (FP8 inputs: fp32, f16 or bf16).
__device__ __forceinline__ void store_c4(OutType type, void* c, int64_t at,
                                         float const (&out)[4], int64_t inside, float beta,
                                         bool vector) {
  if (type == OutType::kBF16)
    store_c4(static_cast<__nv_bfloat16*>(c) + at, out, inside, beta, vector);
  else if (type == OutType::kF16)
    store_c4(static_cast<__half*>(c) + at, out, inside, beta, vector);
  else
    store_c4(static_cast<float*>(c) + at, out, inside, beta, vector);
}

// FP8 with a scale per row of A and column of B (Scaling::kRow): x sa(r) sb(c) (in that order, as
// cuBLASLt rounds) for each value of a thread's wgmma fragment, 0 outside C. The thread's values
// lie on its first row and the one 8 below, and on columns first + 8 q + e (e = 0, 1): its two
// row scales and kBN / 4 column scales are loaded once per tile into registers, before the
// stores, and a value finds its own by its index (FragmentValue: constants, unrolled). Loaded
// per stored value inside the store loop, every chunk waited for its loads.
template <class Cfg>
struct RowColumnScales {
  static constexpr int kColumns = int(Cfg::kBN / 4);
  struct Slots {
    int column[Cfg::kAcc] = {};        // value v's column scale: cs[column[v]]
    bool second_row[Cfg::kAcc] = {};  // value v on the row 8 below the first
  };
  static constexpr Slots make_slots() {
    Slots s;
    for (int v = 0; v < Cfg::kAcc; ++v) {
      const int64_t row = Cfg::kFrgCrdC(v)[0], col = Cfg::kFrgCrdC(v)[1];
      if ((row != 0 && row != 8) || col % 8 > 1 || col / 8 * 2 + col % 8 >= kColumns)
        fail("05: an FP8 thread's values must lie on two rows and two columns of each 8");
      s.column[v] = int(col / 8 * 2 + col % 8);
      s.second_row[v] = row == 8;
    }
    return s;
  }
  static constexpr Slots kSlots = make_slots();

  float s0 = 0.0f, s8 = 0.0f;
  float cs[kColumns] = {};  // the scale of column first_col + 8 (q / 2) + q % 2
  RowColumnScales() = default;
  template <class Params>
  __device__ __forceinline__ RowColumnScales(Params const& p, int64_t first_row, int64_t first_col)
      : s0(first_row < p.m ? __ldg(p.scale_a + first_row) : 0.0f),
        s8(first_row + 8 < p.m ? __ldg(p.scale_a + first_row + 8) : 0.0f) {
#pragma unroll
    for (int q = 0; q < kColumns; ++q) {
      const int64_t c = first_col + 8 * (q / 2) + q % 2;
      cs[q] = c < p.n ? __ldg(p.scale_b + c) : 0.0f;
    }
  }
  __device__ __forceinline__ float operator()(float x, FragmentValue v) const {
    static constexpr Slots kS = kSlots;  // (re-bound: a member does not fold in device code)
    return x * (kS.second_row[v.index] ? s8 : s0) * cs[kS.column[v.index]];
  }
};

// The 16- and 32-bit kernels' stand-in: no scales.
struct NoScales {
  NoScales() = default;
  template <class Params>
  __device__ __forceinline__ NoScales(Params const&, int64_t, int64_t) {}
  __device__ __forceinline__ float operator()(float x, FragmentValue) const { return x; }
};

// One consumer's 64 x kBN part of the C tile: per chunk of kChunk columns, the fragment goes to
// the shared buffer (scaled by alpha, and with row scaling by scale_a[m] scale_b[n]), then the
// warpgroup copies the chunk out, 4 elements per thread along C's contiguous dimension, C =
// chunk + beta * C, predicated on the matrix. Column-major C (c_sm = 1): thread t
// takes rows 4(t%16).. +3 of columns t/16 + 8i; row-major C (the swapped problem's C^T, c_sn =
// 1): row t%64 of columns 4(t/64) + 8i .. +3. C's element type: the kernel's T, or for FP8
// inputs the call's (p.c_type, chosen per store: one loop for the three types, not unrolled: the
// three stores unrolled doubled the unit's compile time).
template <class Cfg, class Params>
__device__ __forceinline__ void epilogue(float const (&acc)[Cfg::kAcc], float* buf, int consumer,
                                         int64_t m0, int64_t n0, Params const& p) {
  constexpr bool kRunTimeC = Cfg::kBits == 8;
  constexpr int64_t kChunk = Cfg::kChunk, kLd = Cfg::kChunkLd;
  static constexpr CoordLayout<2> kThrCrdC = Cfg::kThrCrdC;
  const int t = threadIdx.x % 128;  // this thread in the consumer warpgroup
  static constexpr typename Cfg::Fragment kF = Cfg::kFragment;
  const Coord<2> first = kThrCrdC(t);  // (row, col) of the thread's first value
  const int row = int(first[0]), col = int(first[1]);
  // (FP8: a scale per tensor folds into alpha)
  const float alpha = kRunTimeC && p.scaling == Scaling::kTensor
                          ? p.alpha * *p.scale_a * *p.scale_b
                          : p.alpha;
  // C's contiguous dimension: rows, or columns (only the narrow tile runs swapped problems)
  const bool by_rows = !Cfg::kSwappable || p.c_sm == 1;
  const int64_t ld = by_rows ? p.c_sn : p.c_sm;
  const bool vector_ok = reinterpret_cast<uintptr_t>(p.c) % 16 == 0 && ld % 4 == 0;
  const bool by_row_scales = kRunTimeC && p.scaling == Scaling::kRow;
  using Scales = std::conditional_t<kRunTimeC, RowColumnScales<Cfg>, NoScales>;
  const Scales scales = by_row_scales ? Scales(p, m0 + 64 * consumer + row, n0 + col) : Scales{};
  const int64_t rows = min64(p.m - m0 - 64 * consumer, 64);  // this consumer's rows inside C
  const int r0 = by_rows ? 4 * (t % 16) : t % 64, c0 = by_rows ? t / 16 : 4 * (t / 64);
#pragma unroll
  for (int j = 0; j < Cfg::kBN / kChunk; ++j) {
#pragma unroll
    for (int i = 0; i < Cfg::kPerChunk; ++i) {
      const int v = kF.value[j][i];
      const float x = alpha * acc[v];
      buf[row + kF.row[v] + kLd * (col + kF.col[v])] =
          by_row_scales ? scales(x, FragmentValue{v}) : x;
    }
    ptx::named_barrier_sync(1 + consumer, 128);
#pragma unroll(kRunTimeC ? 1 : kChunk / 8)
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
      const int64_t m = m0 + 64 * consumer + r, at = m * p.c_sm + n * p.c_sn;
      if constexpr (kRunTimeC)
        store_c4(p.c_type, p.c, at, out, inside, p.beta, vector_ok);
      else
        store_c4(static_cast<typename Cfg::T*>(p.c) + at, out, inside, p.beta, vector_ok);
    }
    ptx::named_barrier_sync(1 + consumer, 128);  // the buffer is free for the next chunk
  }
}

// The same with TMA stores (16-bit C, beta = 0): the library's SmemEpilogue on the store tile
// (64 x kChunk, column-major: stmatrix .trans), kStoreBuffers buffers in turn, alpha (and FP8's
// scales) applied per value; the stores of a tile's last chunks drain while the next tile's
// mainloop runs.
template <class Cfg, class TC, class F, SwizzledLayout kTile = Cfg::kStoreTile>
__device__ __forceinline__ void store_by_tma(float const (&acc)[Cfg::kAcc], uint8_t* buf,
                                             int consumer, int64_t m0, int64_t n0,
                                             void const* map_c, F const& f) {
  using Epi = SmemEpilogue<Cfg, TC, kTile, Cfg::kStoreBuffers>;
  Epi::store(acc, buf, TmaStore<Epi::kTma>{map_c}, m0, n0, consumer, f);
}

// 16-bit C (TC) by TMA: column-major, or, for a transposed problem (c_sn = 1: only the narrow
// tiles run them, wgmma_tile and the rule "promoted sums"), row-major through the store tile
// whose columns are contiguous (Cfg::kStoresRowsByTma).
template <class Cfg, class TC, class Params, class F>
__device__ __forceinline__ void store_c_by_tma(float const (&acc)[Cfg::kAcc], uint8_t* buf,
                                               int consumer, int64_t m0, int64_t n0,
                                               Params const& p, void const* map_c, F const& f) {
  if constexpr (Cfg::kStoresRowsByTma) {
    if (p.c_sn == 1) {
      store_by_tma<Cfg, TC, F, Cfg::kStoreTileRows>(acc, buf, consumer, m0, n0, map_c, f);
      return;
    }
  }
  store_by_tma<Cfg, TC>(acc, buf, consumer, m0, n0, map_c, f);
}

template <class Cfg, class Params>
__device__ __forceinline__ void epilogue_tma(float const (&acc)[Cfg::kAcc], uint8_t* buf,
                                             int consumer, int64_t m0, int64_t n0,
                                             Params const& p, void const* map_c) {
  if constexpr (Cfg::kBits == 16) {  // (the 32-bit kernels never store by TMA: the plan's rule)
    const float alpha = p.alpha;
    store_c_by_tma<Cfg, typename Cfg::T>(acc, buf, consumer, m0, n0, p, map_c,
                                         [=](float x) { return alpha * x; });
  } else if constexpr (Cfg::kBits == 8) {  // C bf16 (the plan's rule)
    const float alpha =
        p.scaling == Scaling::kTensor ? p.alpha * *p.scale_a * *p.scale_b : p.alpha;
    if (p.scaling == Scaling::kRow) {
      static constexpr CoordLayout<2> kThrCrdC = Cfg::kThrCrdC;
      const Coord<2> first = kThrCrdC(threadIdx.x % 128);
      const RowColumnScales<Cfg> scales(p, m0 + 64 * consumer + first[0], n0 + first[1]);
      store_c_by_tma<Cfg, __nv_bfloat16>(
          acc, buf, consumer, m0, n0, p, map_c,
          [=](float x, FragmentValue v) { return scales(alpha * x, v); });
    } else
      store_c_by_tma<Cfg, __nv_bfloat16>(acc, buf, consumer, m0, n0, p, map_c,
                                         [=](float x) { return alpha * x; });
  }
}

}  // namespace tessera::ladder
