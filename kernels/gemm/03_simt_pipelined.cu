// kernels/gemm/03_simt_pipelined.cu -- kernel 03 (03_simt_pipelined.cuh) on the 128 x 128 tile,
// and its entry point launch_03_run, which runs the plan's tile and split of K (plan.cpp).
#include "03_simt_pipelined.cuh"

namespace tessera::ladder {

// Kernel 03 on the 128 x 64 and 128 x 32 tiles (03_simt_pipelined_n64.cu, _n32.cu): the problem
// as given or transposed, any operand strides.
cudaError_t launch_03_n64(GemmArgsC const& args, SimtSplit const& split, cudaStream_t stream);
cudaError_t launch_03_n32(GemmArgsC const& args, SimtSplit const& split, cudaStream_t stream);
int ctas_03_n64();
int ctas_03_n32();

int ctas_03(int64_t bn) {
  return bn == SimtShape::kNarrowBN ? ctas_03_n64()
         : bn == SimtShape::kThinBN ? ctas_03_n32()
                                    : resident_ctas<SimtShape::kBN>();
}

// BLAS TT (A k-contiguous, B MN-contiguous) has no kernel of its own on the 128 x 128 tile: it
// runs the NN kernel on the transposed problem C^T = B A^T, C written through its transpose (one
// kernel fewer to compile; the same speed, bench/results/gemm_plan_rules.md).
cudaError_t launch_03_run(SimtRun const& run, cudaStream_t stream) {
  if (run.bn == SimtShape::kNarrowBN) return launch_03_n64(run.args, run.split, stream);
  if (run.bn == SimtShape::kThinBN) return launch_03_n32(run.args, run.split, stream);
  GemmArgs const& p = run.args.p;
  const bool a_vec = vector_ok(p.a, p.a_sm, p.a_sk), b_vec = vector_ok(p.b, p.b_sn, p.b_sk);
  using K = CopyKind;
  constexpr int64_t kBN = SimtShape::kBN;
  const SimtSplit& s = run.split;
  if (a_vec)
    return b_vec ? launch<K::kVectorMN, K::kVectorMN, kBN>(as_given(p), s, stream)
                 : launch<K::kVectorMN, K::kScalarK, kBN>(as_given(p), s, stream);
  return b_vec ? launch<K::kVectorMN, K::kScalarK, kBN>(transposed(p), s, stream)
               : launch<K::kScalarK, K::kScalarK, kBN>(as_given(p), s, stream);
}

namespace {
// The GPU as kernel 03's plan sees it: its CTA slots per tile width.
struct SimtSlots final : GemmDevice {
  int wgmma_clusters(tessera_dtype, int64_t, int64_t, bool) const override { return 0; }
  int simt_ctas(int64_t bn) const override { return ctas_03(bn); }
};
}  // namespace

// The problem p in kernel 03's form: the plan's kernel 03 part, run (the benchmark of the
// hand-indexed twins calls it).
cudaError_t launch_03(GemmArgs const& p, cudaStream_t stream) {
  return launch_03_run(simt_run(plan_simt(p, SimtSlots{}, overrides_from_env())), stream);
}

}  // namespace tessera::ladder
