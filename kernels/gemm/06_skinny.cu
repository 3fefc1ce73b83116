// kernels/gemm/06_skinny.cu -- ladder step 06: a bandwidth-bound GEMM for skinny problems.
//
// When m or n is small (a decode step, a GEMV), C = alpha A B + beta C is limited by reading the
// big operand once from HBM, not by math: 8 x 4096 x 4096 in f16 reads 32 MiB of the big operand
// for 0.5 GFLOP, ~11 microseconds at ~3 TB/s. This step reads the big operand exactly once per
// group of vectors with wide, coalesced loads, enough of them in flight to cover HBM latency, and
// does the math in fp32 FMA on CUDA cores (06_gemv.cuh; 16-bit with 3 or more vectors: mma.sync,
// 06_gemv_mma.cuh). The launch is in 06_skinny.cuh, its plan in plan.cpp (plan_skinny); this
// file holds the F32 / TF32 launchers, 06_skinny_f16.cu and 06_skinny_bf16.cu the others (one
// compile per element type).
//
// The problem as the kernels see it: a big operand X (L rows, K) and a small one Y (S rows, K),
// C(l, s) = alpha sum_k X(l,k) Y(s,k) + beta C(l, s). With n <= m, X = A (L = m) and Y = B;
// otherwise the transposed problem C^T = B A^T (common.cuh, `transposed`), X = B. Y's rows are
// taken in groups of 1, 2, 4 or 8 (the smallest power of two >= S, at most 8; more loop over
// groups, each reading X again). F16 and BF16 with 3 or more vectors take the tensor-core kernels
// (06_gemv_mma.cuh) on groups of 8 or 16.
//
// TF32 runs the same fp32 kernels: full fp32 FMA, no rounding of the operands to tf32 -- more
// accurate than tf32, at the same speed (the limit is the bytes, not the math).
#include "06_skinny.cuh"

namespace tessera::ladder {

cudaError_t launch_06_f32(GemmArgs const& p, SkinnyPlan const& plan, cudaStream_t stream) {
  return launch<F32>(p, plan, stream);
}
cudaError_t launch_06_tf32(GemmArgs const& p, SkinnyPlan const& plan, cudaStream_t stream) {
  return launch<F32>(p, plan, stream);
}

}  // namespace tessera::ladder
