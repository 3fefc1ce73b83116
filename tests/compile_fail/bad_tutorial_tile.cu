// Must NOT compile: the tutorial's kernel (kernels/tutorial/tutorial_gemm.cu) with a CTA tile of
// BK = 12, which the TiledCopy's (128,8) tile does not divide. The first error is the Config's
// static_assert naming the rule (docs/writing-a-kernel.md shows it).
#include "../../kernels/tutorial/tutorial_gemm.cu"

template __global__ void tutorial::tutorial_gemm_kernel<tutorial::Config<128, 128, 12>>(
    int64_t, int64_t, int64_t, float, const float*, int64_t, const float*, int64_t, float, float*,
    int64_t);
