// kernels/gemm/06_gemv_mma.cuh -- kernel 06's tensor-core GEMV for 16-bit elements: C = alpha X
// Y^T + beta C on S = 8, 16 or 32 vectors at a time (NT = S / 8 tiles of mma.sync m16n8k16).
//
// The problem is 06_gemv.cuh's (X: L x K, the big operand; Y: S x K, the vectors). On CUDA cores
// a 16-bit X costs 8 FMAs and a conversion per 2 bytes at S = 8, which loses to the bytes' time
// (0.53-0.67x cuBLAS at 8 x 4096 x 4096); mma.sync does a 16 x 8 x 16 block per instruction, so
// X is read from HBM straight into the MMA's A fragments and the limit stays the bytes. No
// shared memory in the k-loop, no barrier: each warp issues U chunks of loads, then their MMAs.
//
// The order of K inside a chunk is free (a sum), and so is the order of X's rows inside a warp's
// rows (the results are stored where they belong); both are chosen so that a thread's loads are
// 16-byte vectors:
//
//   (a) X contiguous along K: gemv_mma_rows. A warp owns 16 rows; a chunk is 32 values of k.
//       Thread t = 4g + q loads X(g, 8q..8q+7) and X(g + 8, 8q..8q+7) (two vectors: registers
//       r0..r3 and r4..r7, two values of k each) and Y(s, 8q..8q+7) for its column s = g of each
//       n-tile (one vector along K, or 8 elements). The chunk is two MMAs whose k 2q, 2q+1, 2q+8,
//       2q+9 are, in order, k = 8q + (0,1), (2,3) for the first and (4,5), (6,7) for the second:
//       A = {r0, r4, r1, r5} and {r2, r6, r3, r7}, B = Y's registers 0, 1 and 2, 3.
//   (b) X contiguous along L: gemv_mma_columns. A warp owns 32 rows; a chunk is 16 values of k.
//       Thread t = 4g + q loads X(8q..8q+7, g) and X(8q..8q+7, 8 + g): register r of the first is
//       entry (g, q) of an 8x8 matrix T_r whose column pair q holds rows 8q + 2r, 8q + 2r + 1;
//       movmatrix.trans turns it into the A fragment of the 8 rows 8 floor(i/2) + 2r + i % 2 (i =
//       0..7) over k = 0..7 (the second load: k = 8..15). T_0 and T_1 are the first MMA's 16
//       rows, T_2 and T_3 the second's; B is Y(s, 2q, 2q+1) and Y(s, 2q+8, 2q+9) in k's own order.
//
// A CTA is 8 warps on 32 rows of X that split each stretch of K between them (rows: 2 x 4 warps,
// columns: 1 x 8); their sums meet in shared memory once at the end, then gemv_store writes C or
// the split's partial sums (06_gemv.cuh). The common chunk (every load inside X, Y and the split's
// K, X aligned) is a branch of its own without predicates; the rest builds the same fragments
// element by element, zeros outside. Every branch around an MMA is uniform over the warp.
#pragma once

#include "06_gemv.cuh"

namespace tessera::ladder {

// Two 16-bit values as one MMA register, the first in the low half.
__device__ __forceinline__ uint32_t pack2(uint16_t lo, uint16_t hi) { return uint32_t(lo) | uint32_t(hi) << 16; }

// The CTAs: gemv_mma_rows 8 warps on 16 rows, gemv_mma_columns 16 warps on 32 rows, the warps
// of a CTA splitting K (each CTA one stretch of 16 or 32 rows: 256 CTAs for 4096 rows of X
// contiguous along K, 128 of 16 warps along L).
constexpr int kGemvMmaRowsThreads = 256, kGemvMmaRowsTile = 16;
constexpr int kGemvMmaColumnsThreads = 512, kGemvMmaColumnsTile = 32;
// Chunks of loads a warp issues before their MMAs: 3-4 KB of X a warp, within 128 registers.
__host__ __device__ constexpr int gemv_mma_unroll(int nt, bool columns) { return columns && nt == 2 ? 2 : 4; }

// (a) X contiguous along K. All 8 warps on the tile's 16 rows, chunks of 32 values of k: each
// warp takes U consecutive chunks, the 8 warps the next U x 8 chunks in the next step.
template <class E, int NT>
__global__ void __launch_bounds__(kGemvMmaRowsThreads, 2) gemv_mma_rows(GemvArgs a) {
  using Bits = uint16_t;
  constexpr int S = 8 * NT, kKWarps = kGemvMmaRowsThreads / 32, kChunk = 32, U = gemv_mma_unroll(NT, false);
  __shared__ float red[kKWarps][kGemvMmaRowsTile][S];

  const int lane = int(threadIdx.x) % 32, kw = int(threadIdx.x) / 32;
  const int g = lane / 4, q = lane % 4;
  const int64_t tile = blockIdx.x % a.tiles, s0 = blockIdx.x / a.tiles * S;
  const int64_t l0 = tile * kGemvMmaRowsTile;
  const int64_t k_begin = int64_t(blockIdx.y) * a.k_split, k_end = min64(a.k, k_begin + a.k_split);
  const Bits* x = static_cast<const Bits*>(a.x);
  const Bits* y = static_cast<const Bits*>(a.y) + s0 * a.y_ss;
  const int s_valid = int(min64(S, a.small - s0));
  const bool y_along_k = a.y_mode == YMode::kAlongK;
  // Y along s by pairs (4-byte loads, transposed by movmatrix): pairs of vectors inside the group.
  const bool y_pairs = a.y_mode == YMode::kAlongS && s_valid % 2 == 0;
  const bool rows_inside = a.x_vec && l0 + 16 <= a.rows;
  const Bits* x_lo = x + (l0 + g) * a.x_sl;  // rows g and g + 8 (used where they are inside X)
  const Bits* x_hi = x_lo + 8 * a.x_sl;
  // X(l, k) and Y(s, k) with zeros outside (the slow chunks).
  auto xe = [&](int64_t l, int64_t k) -> Bits { return l < a.rows && k < k_end ? x[l * a.x_sl + k * a.x_sk] : Bits(0); };
  auto ye = [&](int s, int64_t k) -> Bits { return s < s_valid && k < k_end ? y[s * a.y_ss + k * a.y_sk] : Bits(0); };

  float acc[NT][4] = {};
  // A chunk's two MMAs per n-tile (the order of k: the header).
  auto chunk_mma = [&](uint32_t const (&xa)[8], uint32_t const (&yb)[NT][4]) {
#pragma unroll
    for (int nt = 0; nt < NT; ++nt) {
      E::mma(acc[nt], {xa[0], xa[4], xa[1], xa[5]}, {yb[nt][0], yb[nt][1]});
      E::mma(acc[nt], {xa[2], xa[6], xa[3], xa[7]}, {yb[nt][2], yb[nt][3]});
    }
  };
  for (int64_t k = k_begin + int64_t(kw) * U * kChunk; k < k_end; k += int64_t(kKWarps) * U * kChunk) {
    uint32_t xa[U][8], yb[U][NT][4];
    if (rows_inside && k + U * kChunk <= k_end) {  // the common chunks: no predicates
      // X by two 16-byte vectors a chunk; Y as its mode says (a branch per mode around the loads).
      auto load = [&](auto load_y) {
#pragma unroll
        for (int u = 0; u < U; ++u) {
          const int64_t kc = k + u * kChunk;
          const uint4 lo = *reinterpret_cast<const uint4*>(x_lo + kc + 8 * q);
          const uint4 hi = *reinterpret_cast<const uint4*>(x_hi + kc + 8 * q);
          xa[u][0] = lo.x, xa[u][1] = lo.y, xa[u][2] = lo.z, xa[u][3] = lo.w;
          xa[u][4] = hi.x, xa[u][5] = hi.y, xa[u][6] = hi.z, xa[u][7] = hi.w;
#pragma unroll
          for (int nt = 0; nt < NT; ++nt) load_y(yb[u][nt], nt, kc);
        }
      };
      if (y_along_k) {  // Y(8 nt + g, 8q .. 8q + 7): one vector
        load([&](uint32_t(&b)[4], int nt, int64_t kc) {
          const uint4 v = *reinterpret_cast<const uint4*>(y + y_row(8 * nt + g, s_valid) * a.y_ss + kc + 8 * q);
          b[0] = v.x, b[1] = v.y, b[2] = v.z, b[3] = v.w;
        });
      } else if (y_pairs) {
        // Register r is the transpose of the 8x8 matrix whose row i is Y(8 nt + 2q, + 1) at k = 8
        // floor(i/2) + 2r + i % 2 of the chunk: thread (g, q) gets Y(8 nt + g) at the chunk's k =
        // 8q + 2r, + 1, the order of X's registers.
        load([&](uint32_t(&b)[4], int nt, int64_t kc) {
          const Bits* yp = y + min64(8 * nt + 2 * q, s_valid - 2) + (kc + 8 * (g / 2) + g % 2) * a.y_sk;
#pragma unroll
          for (int r = 0; r < 4; ++r) b[r] = ptx::movmatrix_trans(*reinterpret_cast<const uint32_t*>(yp + 2 * r * a.y_sk));
        });
      } else {
        load([&](uint32_t(&b)[4], int nt, int64_t kc) {
          const Bits* ys = y + y_row(8 * nt + g, s_valid) * a.y_ss + (kc + 8 * q) * a.y_sk;
#pragma unroll
          for (int r = 0; r < 4; ++r) b[r] = pack2(ys[2 * r * a.y_sk], ys[(2 * r + 1) * a.y_sk]);
        });
      }
    } else {  // the edges (last rows, the end of K, a partial group) and unaligned X: a chunk at a time
#pragma unroll 1
      for (int u = 0; u < U; ++u) {
        const int64_t kk = k + u * kChunk + 8 * q;
#pragma unroll
        for (int r = 0; r < 4; ++r) {
          xa[0][r] = pack2(xe(l0 + g, kk + 2 * r), xe(l0 + g, kk + 2 * r + 1));
          xa[0][4 + r] = pack2(xe(l0 + g + 8, kk + 2 * r), xe(l0 + g + 8, kk + 2 * r + 1));
#pragma unroll
          for (int nt = 0; nt < NT; ++nt) yb[0][nt][r] = pack2(ye(8 * nt + g, kk + 2 * r), ye(8 * nt + g, kk + 2 * r + 1));
        }
        chunk_mma(xa[0], yb[0]);
      }
      continue;
    }
#pragma unroll
    for (int u = 0; u < U; ++u) chunk_mma(xa[u], yb[u]);
  }

  // acc[nt] holds rows g, g + 8 and vectors 8 nt + 2q, + 1 (the MMA's C).
#pragma unroll
  for (int nt = 0; nt < NT; ++nt)
#pragma unroll
    for (int i = 0; i < 4; ++i) red[kw][g + 8 * (i / 2)][8 * nt + 2 * q + i % 2] = acc[nt][i];
  __syncthreads();
  for (int n = int(threadIdx.x); n < kGemvMmaRowsTile * S; n += kGemvMmaRowsThreads) {
    const int i = n % kGemvMmaRowsTile, s = n / kGemvMmaRowsTile;
    float v = 0.0f;
#pragma unroll
    for (int w = 0; w < kKWarps; ++w) v += red[w][i][s];
    gemv_store<E>(a, l0 + i, s0 + s, v);
  }
}

// (b) X contiguous along L. All 16 warps on the tile's 32 rows, chunks of 16 values of k: each
// warp takes U consecutive chunks, the 16 warps the next U x 16 chunks in the next step.
// The row of a tile that MMA j's row i (0..15) holds: T_{2j + i / 8}'s row i % 8.
__device__ __forceinline__ int gemv_mma_column_row(int j, int i) {
  const int r = 2 * j + i / 8, h = i % 8;
  return 8 * (h / 2) + 2 * r + h % 2;
}
template <class E, int NT>
__global__ void __launch_bounds__(kGemvMmaColumnsThreads, 1) gemv_mma_columns(GemvArgs a) {
  using Bits = uint16_t;
  constexpr int S = 8 * NT, kKWarps = kGemvMmaColumnsThreads / 32, kChunk = 16, U = gemv_mma_unroll(NT, true);
  __shared__ float red[kKWarps / 2][kGemvMmaColumnsTile][S];  // warps w and w + 8 share a slot

  const int lane = int(threadIdx.x) % 32, kw = int(threadIdx.x) / 32;
  const int g = lane / 4, q = lane % 4;
  const int64_t tile = blockIdx.x % a.tiles, s0 = blockIdx.x / a.tiles * S;
  const int64_t l0 = tile * kGemvMmaColumnsTile;
  const int64_t k_begin = int64_t(blockIdx.y) * a.k_split, k_end = min64(a.k, k_begin + a.k_split);
  const Bits* x = static_cast<const Bits*>(a.x);
  const Bits* y = static_cast<const Bits*>(a.y) + s0 * a.y_ss;
  const int s_valid = int(min64(S, a.small - s0));
  const bool y_along_k = a.y_mode == YMode::kAlongK;
  const bool y_pairs = a.y_mode == YMode::kAlongS && s_valid % 2 == 0;  // as in gemv_mma_rows
  const bool rows_inside = a.x_vec && l0 + kGemvMmaColumnsTile <= a.rows;
  const Bits* x_col = x + l0 + 8 * q + g * a.x_sk;  // X(8q .. 8q + 7, g) of the tile
  auto xe = [&](int64_t l, int64_t k) -> Bits { return l < a.rows && k < k_end ? x[l * a.x_sl + k * a.x_sk] : Bits(0); };
  auto ye = [&](int s, int64_t k) -> Bits { return s < s_valid && k < k_end ? y[s * a.y_ss + k * a.y_sk] : Bits(0); };

  float acc[2][NT][4] = {};
  auto chunk_mma = [&](uint32_t const (&xa)[2][4], uint32_t const (&yb)[NT][2]) {
#pragma unroll
    for (int nt = 0; nt < NT; ++nt) {
      E::mma(acc[0][nt], xa[0], yb[nt]);
      E::mma(acc[1][nt], xa[1], yb[nt]);
    }
  };
  for (int64_t k = k_begin + int64_t(kw) * U * kChunk; k < k_end; k += int64_t(kKWarps) * U * kChunk) {
    uint32_t xa[U][2][4], yb[U][NT][2];  // per chunk: MMA j's A; n-tile nt's B
    if (rows_inside && k + U * kChunk <= k_end) {  // the common chunks: no predicates
      // X by two 16-byte vectors a chunk, transposed by movmatrix; Y as its mode says (a branch
      // per mode around the loads).
      auto load = [&](auto load_y) {
#pragma unroll
        for (int u = 0; u < U; ++u) {
          const int64_t kc = k + u * kChunk;
          const uint4 lo = *reinterpret_cast<const uint4*>(x_col + kc * a.x_sk);
          const uint4 hi = *reinterpret_cast<const uint4*>(x_col + (kc + 8) * a.x_sk);
          xa[u][0][0] = ptx::movmatrix_trans(lo.x), xa[u][0][1] = ptx::movmatrix_trans(lo.y);
          xa[u][0][2] = ptx::movmatrix_trans(hi.x), xa[u][0][3] = ptx::movmatrix_trans(hi.y);
          xa[u][1][0] = ptx::movmatrix_trans(lo.z), xa[u][1][1] = ptx::movmatrix_trans(lo.w);
          xa[u][1][2] = ptx::movmatrix_trans(hi.z), xa[u][1][3] = ptx::movmatrix_trans(hi.w);
#pragma unroll
          for (int nt = 0; nt < NT; ++nt) load_y(yb[u][nt], nt, kc);
        }
      };
      if (y_along_k) {  // Y(8 nt + g, 2q, 2q + 1) and (2q + 8, 2q + 9)
        load([&](uint32_t(&b)[2], int nt, int64_t kc) {
          const Bits* ys = y + y_row(8 * nt + g, s_valid) * a.y_ss + kc + 2 * q;
          b[0] = *reinterpret_cast<const uint32_t*>(ys);
          b[1] = *reinterpret_cast<const uint32_t*>(ys + 8);
        });
      } else if (y_pairs) {  // row i of matrix h: Y(8 nt + 2q, + 1) at k = 8h + i
        load([&](uint32_t(&b)[2], int nt, int64_t kc) {
          const Bits* yp = y + min64(8 * nt + 2 * q, s_valid - 2) + (kc + g) * a.y_sk;
          b[0] = ptx::movmatrix_trans(*reinterpret_cast<const uint32_t*>(yp));
          b[1] = ptx::movmatrix_trans(*reinterpret_cast<const uint32_t*>(yp + 8 * a.y_sk));
        });
      } else {
        load([&](uint32_t(&b)[2], int nt, int64_t kc) {
          const Bits* ys = y + y_row(8 * nt + g, s_valid) * a.y_ss + (kc + 2 * q) * a.y_sk;
#pragma unroll
          for (int h = 0; h < 2; ++h) b[h] = pack2(ys[8 * h * a.y_sk], ys[(8 * h + 1) * a.y_sk]);
        });
      }
    } else {  // the edges (last rows, the end of K, a partial group) and unaligned X: a chunk at a time
#pragma unroll 1
      for (int u = 0; u < U; ++u) {
        const int64_t kk = k + u * kChunk + 2 * q;
#pragma unroll
        for (int j = 0; j < 2; ++j)
#pragma unroll
          for (int v = 0; v < 4; ++v) {  // register v: row g (+ 8 for odd v), k + 8 for v >= 2
            const int64_t l = l0 + gemv_mma_column_row(j, g + 8 * (v % 2)), kv = kk + 8 * (v / 2);
            xa[0][j][v] = pack2(xe(l, kv), xe(l, kv + 1));
          }
#pragma unroll
        for (int nt = 0; nt < NT; ++nt)
#pragma unroll
          for (int h = 0; h < 2; ++h) yb[0][nt][h] = pack2(ye(8 * nt + g, kk + 8 * h), ye(8 * nt + g, kk + 8 * h + 1));
        chunk_mma(xa[0], yb[0]);
      }
      continue;
    }
#pragma unroll
    for (int u = 0; u < U; ++u) chunk_mma(xa[u], yb[u]);
  }

  // acc[j][nt] holds MMA j's rows g, g + 8 and vectors 8 nt + 2q, + 1: warps 8..15 store them,
  // warps 0..7 add theirs.
  for (int half = 1; half >= 0; --half) {
    if (kw / (kKWarps / 2) == half) {
#pragma unroll
      for (int j = 0; j < 2; ++j)
#pragma unroll
        for (int nt = 0; nt < NT; ++nt)
#pragma unroll
          for (int i = 0; i < 4; ++i) {
            float& slot = red[kw % (kKWarps / 2)][gemv_mma_column_row(j, g + 8 * (i / 2))][8 * nt + 2 * q + i % 2];
            slot = half ? acc[j][nt][i] : slot + acc[j][nt][i];
          }
    }
    __syncthreads();
  }
  for (int n = int(threadIdx.x); n < kGemvMmaColumnsTile * S; n += kGemvMmaColumnsThreads) {
    const int i = n % kGemvMmaColumnsTile, s = n / kGemvMmaColumnsTile;
    float v = 0.0f;
#pragma unroll
    for (int w = 0; w < kKWarps / 2; ++w) v += red[w][i][s];
    gemv_store<E>(a, l0 + i, s0 + s, v);
  }
}

}  // namespace tessera::ladder
