// kernels/gemm/06_gemv_mma.cuh -- kernel 06's tensor-core GEMV for 16-bit elements: C = alpha X
// Y^T + beta C on S = 8 or 16 vectors at a time (NT = S / 8 tiles of mma.sync m16n8k16).
//
// The problem is 06_gemv.cuh's (X: L x K, the big operand; Y: S x K, the vectors). On CUDA cores
// a 16-bit X costs 8 FMAs and a conversion per 2 bytes at S = 8, which loses to the bytes' time
// (0.53-0.67x cuBLAS at 8 x 4096 x 4096); mma.sync does a 16 x 8 x 16 block per instruction, so
// X is read from HBM straight into the MMA's A fragments and the limit stays the bytes. No
// shared memory in the k-loop, no barrier: each warp issues U chunks of loads, then their MMAs.
//
// A chunk is 32 values of k, two MMAs per 16 rows and n-tile. The order of k inside a chunk is
// free (a sum), and so is the order of rows inside a warp's (the results are stored where they
// belong); both are chosen so that every load is a 16-byte vector. Thread t = 4g + q of a warp
// (the MMA's group g and quad lane q) holds, for MMA m = 0, 1, the logical k 2q, 2q + 1 as the
// chunk's k = 8q + 4m + (0, 1) and the logical 2q + 8, 2q + 9 as 8q + 4m + (2, 3). So its B
// registers are Y(8 nt + g, 8q .. 8q + 7) of the chunk, in order (one vector where Y lies along
// K), and its A registers, in (a) and (b):
//
//   (a) X contiguous along K (kAlongL false): a warp owns 16 rows. Thread (g, q) loads X(g, 8q ..
//       8q + 7) and X(g + 8, 8q .. 8q + 7): registers lo[0..3] and hi[0..3]; MMA m's A is
//       {lo[2m], hi[2m], lo[2m + 1], hi[2m + 1]}.
//   (b) X contiguous along L (kAlongL): a warp owns 32 rows. Thread (g, q) makes load c = 0..3 at
//       k = 8 floor(g/2) + g % 2 + 2c: the 8 rows 8q .. 8q + 7 (16 bytes). Register r of load c
//       is entry (g, q) of an 8x8 matrix whose column pair q holds rows 8q + 2r, + 1;
//       movmatrix.trans turns it into thread (g, q)'s pair of k = 8q + 2c, + 1 (rows 2q and 2q + 1
//       of the matrix, which the threads of groups 2q and 2q + 1 loaded) for row rho_r(g) =
//       8 floor(g/2) + 2r + g % 2. Row group j = 0, 1 is the 16 rows of rho_2j and rho_2j+1; MMA
//       (j, m)'s A is {T(2m, 2j), T(2m, 2j + 1), T(2m + 1, 2j), T(2m + 1, 2j + 1)}, T(c, r) the
//       transpose of load c's register r.
//
// Y contiguous along s instead (8 x N x K NN: A's rows are the vectors): a 4-byte load of the pair
// Y(8 nt + 2q, + 1) at k = 8 floor(g/2) + 2r + g % 2, transposed by movmatrix, gives thread (g,
// q) Y(8 nt + g) at k = 8q + 2r, + 1: B register r, the same order.
//
// A CTA's warps share its rows and split each stretch of K between them; their sums meet in
// shared memory once at the end, then gemv_store writes C or the split's partial sums
// (06_gemv.cuh). (a): 8 warps on 16 rows, 2 CTAs an SM; (b): 12 warps on 32 rows, or 2 x 6 on
// 64 where 32-row CTAs would take two waves (the host's plan), 1 CTA an SM. The common chunks
// (every load inside X, Y and the split's K, X aligned) are a branch of their own without
// predicates; the rest builds the same fragments element by element, zeros outside. Every branch
// around an MMA is uniform over the warp.
#pragma once

#include "06_gemv.cuh"

namespace tessera::ladder {

// Two 16-bit values as one MMA register, the first in the low half.
__device__ __forceinline__ uint32_t pack2(uint16_t lo, uint16_t hi) {
  return uint32_t(lo) | uint32_t(hi) << 16;
}

// The CTA of a kernel (threads, rows of X for kRowWarps warps along L, the rest split K):
// gemv_mma_threads and gemv_mma_tile_rows, gemv_shape.hpp.
// Chunks of 32 k a warp loads before their MMAs: 4 KB of X.
__host__ __device__ constexpr int gemv_mma_unroll(bool along_l) { return along_l ? 2 : 4; }

// The tile row that row i (0..15) of row group j holds.
__device__ __forceinline__ int gemv_mma_row(bool along_l, int j, int i) {
  if (!along_l) return i;
  const int r = 2 * j + i / 8, h = i % 8;  // rho_r(h)
  return 8 * (h / 2) + 2 * r + h % 2;
}

template <class E, int NT, bool kAlongL, int kRowWarps>
__global__ void __launch_bounds__(gemv_mma_threads(kAlongL), kAlongL ? 1 : 2) gemv_mma(GemvArgs a) {
  using Bits = uint16_t;
  constexpr int S = 8 * NT, kThreads = gemv_mma_threads(kAlongL);
  constexpr int kKWarps = kThreads / 32 / kRowWarps;
  constexpr int kWarpRows = gemv_mma_warp_rows(kAlongL), kTile = kWarpRows * kRowWarps;
  constexpr int J = kWarpRows / 16, kChunk = 32, U = gemv_mma_unroll(kAlongL);
  __shared__ float red[kKWarps][kTile][S];

  const int lane = int(threadIdx.x) % 32, warp = int(threadIdx.x) / 32;
  const int rw = warp % kRowWarps, kw = warp / kRowWarps, g = lane / 4, q = lane % 4;
  const int64_t tile = blockIdx.x % a.tiles, s0 = blockIdx.x / a.tiles * S;
  const int64_t l0 = tile * kTile + rw * kWarpRows;  // the warp's rows
  const int64_t k_begin = int64_t(blockIdx.y) * a.k_split, k_end = min64(a.k, k_begin + a.k_split);
  const Bits* x = static_cast<const Bits*>(a.x);
  const Bits* y = static_cast<const Bits*>(a.y) + s0 * a.y_ss;
  const int s_valid = int(min64(S, a.small - s0));  // the group's vectors inside Y
  const bool rows_inside = a.x_vec && l0 + kWarpRows <= a.rows;
  // This thread's first 16-byte load of X in a chunk (used where the warp's rows are inside X).
  const Bits* x_first =
      kAlongL ? x + l0 + 8 * q + (8 * (g / 2) + g % 2) * a.x_sk : x + (l0 + g) * a.x_sl + 8 * q;
  // X(l, k) and Y(s, k) with zeros outside (the slow chunks).
  auto xe = [&](int64_t l, int64_t k) -> Bits {
    return l < a.rows && k < k_end ? x[l * a.x_sl + k * a.x_sk] : Bits(0);
  };
  auto ye = [&](int s, int64_t k) -> Bits {
    return s < s_valid && k < k_end ? y[s * a.y_ss + k * a.y_sk] : Bits(0);
  };

  float acc[J][NT][4] = {};
  uint32_t xa[U][J][2][4], yb[U][NT][4];  // a chunk's A of MMA (j, m), B of n-tile nt
  auto chunk_mma = [&](int u) {
#pragma unroll
    for (int j = 0; j < J; ++j)
#pragma unroll
      for (int nt = 0; nt < NT; ++nt)
#pragma unroll
        for (int m = 0; m < 2; ++m)
          E::mma(acc[j][nt], xa[u][j][m], {yb[u][nt][2 * m], yb[u][nt][2 * m + 1]});
  };
  // The common chunks' loads: X as (a) or (b) say, Y by the given loader.
  auto fast_loads = [&](int64_t k, auto load_y) {
#pragma unroll
    for (int u = 0; u < U; ++u) {
      const int64_t kc = k + u * kChunk;
      if constexpr (kAlongL) {
        uint4 v[4];
#pragma unroll
        for (int c = 0; c < 4; ++c)
          v[c] = *reinterpret_cast<const uint4*>(x_first + (kc + 2 * c) * a.x_sk);
#pragma unroll
        for (int m = 0; m < 2; ++m) {
          const uint4 &lo = v[2 * m], &hi = v[2 * m + 1];
          xa[u][0][m][0] = ptx::movmatrix_trans(lo.x), xa[u][0][m][1] = ptx::movmatrix_trans(lo.y);
          xa[u][0][m][2] = ptx::movmatrix_trans(hi.x), xa[u][0][m][3] = ptx::movmatrix_trans(hi.y);
          xa[u][J - 1][m][0] = ptx::movmatrix_trans(lo.z);
          xa[u][J - 1][m][1] = ptx::movmatrix_trans(lo.w);
          xa[u][J - 1][m][2] = ptx::movmatrix_trans(hi.z);
          xa[u][J - 1][m][3] = ptx::movmatrix_trans(hi.w);
        }
      } else {
        const uint4 lo = *reinterpret_cast<const uint4*>(x_first + kc);
        const uint4 hi = *reinterpret_cast<const uint4*>(x_first + 8 * a.x_sl + kc);
        xa[u][0][0][0] = lo.x, xa[u][0][0][1] = hi.x, xa[u][0][0][2] = lo.y, xa[u][0][0][3] = hi.y;
        xa[u][0][1][0] = lo.z, xa[u][0][1][1] = hi.z, xa[u][0][1][2] = lo.w, xa[u][0][1][3] = hi.w;
      }
#pragma unroll
      for (int nt = 0; nt < NT; ++nt) load_y(yb[u][nt], nt, kc);
    }
  };

  for (int64_t k = k_begin + int64_t(kw) * U * kChunk; k < k_end;
       k += int64_t(kKWarps) * U * kChunk) {
    if (rows_inside && k + U * kChunk <= k_end) {  // the common chunks: no predicates
      if (a.y_mode == YMode::kAlongK) {  // Y(8 nt + g, 8q .. 8q + 7): one vector
        fast_loads(k, [&](uint32_t(&b)[4], int nt, int64_t kc) {
          const uint4 v =
              *reinterpret_cast<const uint4*>(y + y_row(8 * nt + g, s_valid) * a.y_ss + kc + 8 * q);
          b[0] = v.x, b[1] = v.y, b[2] = v.z, b[3] = v.w;
        });
      } else if (a.y_mode == YMode::kAlongS && s_valid % 2 == 0) {  // pairs along s, transposed
        fast_loads(k, [&](uint32_t(&b)[4], int nt, int64_t kc) {
          const Bits* p =
              y + min64(8 * nt + 2 * q, s_valid - 2) + (kc + 8 * (g / 2) + g % 2) * a.y_sk;
#pragma unroll
          for (int r = 0; r < 4; ++r)
            b[r] = ptx::movmatrix_trans(*reinterpret_cast<const uint32_t*>(p + 2 * r * a.y_sk));
        });
      } else {
        fast_loads(k, [&](uint32_t(&b)[4], int nt, int64_t kc) {
          const Bits* p = y + y_row(8 * nt + g, s_valid) * a.y_ss + (kc + 8 * q) * a.y_sk;
#pragma unroll
          for (int r = 0; r < 4; ++r) b[r] = pack2(p[2 * r * a.y_sk], p[(2 * r + 1) * a.y_sk]);
        });
      }
#pragma unroll
      for (int u = 0; u < U; ++u) chunk_mma(u);
    } else {
      // The edges (last rows, the end of K, a partial group) and unaligned X: a chunk at a time.
#pragma unroll 1
      for (int u = 0; u < U; ++u) {
        const int64_t kq = k + u * kChunk + 8 * q;  // register v of MMA m: k = kq + 4m + 2 (v / 2)
#pragma unroll
        for (int j = 0; j < J; ++j)
#pragma unroll
          for (int v = 0; v < 4; ++v) {
            const int64_t l = l0 + gemv_mma_row(kAlongL, j, g + 8 * (v % 2));
#pragma unroll
            for (int m = 0; m < 2; ++m) {
              const int64_t kv = kq + 4 * m + 2 * (v / 2);
              xa[0][j][m][v] = pack2(xe(l, kv), xe(l, kv + 1));
            }
          }
#pragma unroll
        for (int nt = 0; nt < NT; ++nt)
#pragma unroll
          for (int r = 0; r < 4; ++r)
            yb[0][nt][r] = pack2(ye(8 * nt + g, kq + 2 * r), ye(8 * nt + g, kq + 2 * r + 1));
        chunk_mma(0);
      }
    }
  }

  // acc[j][nt] holds row group j's rows g, g + 8 and vectors 8 nt + 2q, + 1 (the MMA's C).
#pragma unroll
  for (int j = 0; j < J; ++j)
#pragma unroll
    for (int nt = 0; nt < NT; ++nt)
#pragma unroll
      for (int i = 0; i < 4; ++i)
        red[kw][rw * kWarpRows + gemv_mma_row(kAlongL, j, g + 8 * (i / 2))]
           [8 * nt + 2 * q + i % 2] = acc[j][nt][i];
  __syncthreads();
  for (int n = int(threadIdx.x); n < kTile * S; n += kThreads) {
    const int i = n % kTile, s = n / kTile;
    float v = 0.0f;
#pragma unroll
    for (int w = 0; w < kKWarps; ++w) v += red[w][i][s];
    gemv_store<E>(a, tile * kTile + i, s0 + s, v);
  }
}

}  // namespace tessera::ladder
