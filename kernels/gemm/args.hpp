// kernels/gemm/args.hpp -- the problem as the GEMM kernels see it (host and device, no CUDA).
//
// C(m,n) = alpha * sum_k A(m,k) B(n,k) + beta * C(m,n), with A addressed as (M,K) and B as (N,K)
// (CuTe's convention) through run-time strides. BLAS's column-major op(A), op(B) map onto it:
// op 'N' of A is (m,k):(1,lda), op 'T' is (m,k):(lda,1).
#pragma once

#include <cstddef>
#include <cstdint>

namespace tessera::ladder {

// FP8 problems (kernel 05): C's element type (the other dtypes store their own) and the scales.
enum class OutType { kF32, kF16, kBF16 };
// kRow: scale_a per row of A, scale_b per row of B; kBlockA: A per (row, 128 of K), B per
// (128 rows, 128 of K); kBlockB: the mirror (tessera_scaling of gemm.h says where each lies).
enum class Scaling { kNone, kTensor, kRow, kBlockA, kBlockB };

struct GemmArgs {
  int64_t m = 0, n = 0, k = 0;
  float alpha = 1, beta = 0;
  const float* a = nullptr;
  int64_t a_sm = 1, a_sk = 0;  // A(m,k) = a[m*a_sm + k*a_sk]
  const float* b = nullptr;
  int64_t b_sn = 1, b_sk = 0;  // B(n,k) = b[n*b_sn + k*b_sk]
  float* c = nullptr;
  int64_t ldc = 0;             // C(m,n) = c[m + n*ldc]
  void* workspace = nullptr;   // the caller's, for packed operands (nullptr: stream-ordered
  size_t workspace_bytes = 0;  // allocations instead)
};

// What an FP8 problem adds (kernel 05 only; apart from GemmArgs, which every kernel takes by value
// and whose size decides where some keep it): C = alpha * scales * sum_k A B + beta * C.
struct Fp8Args {
  OutType c_type = OutType::kF32;
  Scaling scaling = Scaling::kNone;
  const float* scale_a = nullptr;  // kTensor: scale_a[0]; kRow: scale_a[m]; blocks: gemm.h
  const float* scale_b = nullptr;  // kTensor: scale_b[0]; kRow: scale_b[n]
  bool promoted = false;           // the partial sums of every 128 of K added into fp32
  bool by_blocks() const { return scaling == Scaling::kBlockA || scaling == Scaling::kBlockB; }
  // The transposed problem's: A's scales are B's, and block scales change roles.
  Fp8Args transposed() const {
    Fp8Args t = *this;
    t.scale_a = scale_b, t.scale_b = scale_a;
    if (scaling == Scaling::kBlockA) t.scaling = Scaling::kBlockB;
    if (scaling == Scaling::kBlockB) t.scaling = Scaling::kBlockA;
    return t;
  }
};

// GemmArgs with C addressed through two strides, C(m,n) = p.c[m * c_sm + n * c_sn]: (1, ldc) as
// given, or (ldc, 1) for the transposed problem C^T = B A^T, which lets a kernel written for
// (MN, K)-major operands run BLAS TT's (K, MN) ones: one kernel fewer to compile (04, 03).
struct GemmArgsC {
  GemmArgs p;
  int64_t c_sm, c_sn;
};
inline GemmArgsC as_given(GemmArgs const& p) { return {p, 1, p.ldc}; }
inline GemmArgsC transposed(GemmArgs const& p) {
  GemmArgs t = p;
  t.m = p.n, t.n = p.m;
  t.a = p.b, t.a_sm = p.b_sn, t.a_sk = p.b_sk;
  t.b = p.a, t.b_sn = p.a_sm, t.b_sk = p.a_sk;
  return {t, p.ldc, 1};
}
inline GemmArgsC oriented(GemmArgs const& p, bool transpose) {
  return transpose ? transposed(p) : as_given(p);
}

}  // namespace tessera::ladder
