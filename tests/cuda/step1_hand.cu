// step1_hand.cu -- the reference for kernel 01: the hand-written step 1 kernel (plain
// CUDA, explicit my_rows / my_cols arrays, acc[8][8]), given kernel 01's interface so that their
// compiled code can be compared instruction class by instruction class (check_ffma.py on PTX in
// CI, ffma_check.sh on SASS on the device machine).
//
// What makes it comparable with 01 (kernels/gemm/01_simt_global.cu):
//   - the same problem: GemmArgs, C(m,n) = alpha * sum_k A(m,k) B(n,k) + beta * C(m,n), A, B read
//     from global memory through run-time strides, C column-major (BLAS);
//   - the same tiling: CTA 128x128, 256 threads, thread t owning rows {4tm..4tm+3, 64+4tm..}
//     and columns {4tn.., 64+4tn..} (64 accumulators); the step 1 kernel is row-major with tm = t /
//     16, column-major C swaps the roles (tm = t % 16), so that neighbouring threads still touch
//     neighbouring elements;
//   - the same k-loop: k-tiles of 8, one k-tile per iteration (not unrolled further), each
//     k-step loading 8 A and 8 B values (zero outside the matrix) and doing 8x8 FMAs;
//   - the same predicated epilogue (any M, N, K; beta == 0 does not read C).
// Nothing here comes from tessera's layouts: this is the code they must match.
#include "../../kernels/gemm/common.cuh"  // GemmArgs

using tessera::ladder::GemmArgs;

__global__ void __launch_bounds__(256) step1_hand(GemmArgs p) {
  // The mapping (what partition_C computes): my 8 rows and 8 columns of the 128x128 tile.
  const int tm = threadIdx.x % 16, tn = threadIdx.x / 16;
  int my_rows[8], my_cols[8];
  for (int i = 0; i < 4; ++i) {
    my_rows[i] = tm * 4 + i;
    my_rows[4 + i] = tm * 4 + 64 + i;
    my_cols[i] = tn * 4 + i;
    my_cols[4 + i] = tn * 4 + 64 + i;
  }

  // This CTA's tile and what is left of the matrix from its corner.
  const int64_t m0 = int64_t(blockIdx.x) * 128, n0 = int64_t(blockIdx.y) * 128;
  const float* A = p.a + m0 * p.a_sm;
  const float* B = p.b + n0 * p.b_sn;
  float* C = p.c + m0 + n0 * p.ldc;
  const int64_t res_m = p.m - m0, res_n = p.n - n0;

  float acc[8][8] = {};
#pragma unroll 1
  for (int64_t k0 = 0; k0 < p.k; k0 += 8) {
#pragma unroll
    for (int kk = 0; kk < 8; ++kk) {
      const int64_t k = k0 + kk;
      float a[8], b[8];
      for (int mi = 0; mi < 8; ++mi)
        a[mi] = my_rows[mi] < res_m && k < p.k ? A[my_rows[mi] * p.a_sm + k * p.a_sk] : 0.0f;
      for (int ni = 0; ni < 8; ++ni)
        b[ni] = my_cols[ni] < res_n && k < p.k ? B[my_cols[ni] * p.b_sn + k * p.b_sk] : 0.0f;
      for (int mi = 0; mi < 8; ++mi)
        for (int ni = 0; ni < 8; ++ni) acc[mi][ni] += a[mi] * b[ni];
    }
  }

  for (int mi = 0; mi < 8; ++mi)
    for (int ni = 0; ni < 8; ++ni)
      if (my_rows[mi] < res_m && my_cols[ni] < res_n) {
        float* c = C + my_rows[mi] + my_cols[ni] * p.ldc;
        *c = p.beta == 0.0f ? p.alpha * acc[mi][ni] : p.alpha * acc[mi][ni] + p.beta * *c;
      }
}
