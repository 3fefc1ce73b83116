// kernels/gemm_abi.cu -- libtessera_gemm.so: the C ABI of include/tessera/gemm.h.
//
// Every call: its plan (gemm/plan.hpp: the arguments' checks, the BLAS quick returns, the kernel
// and how it runs -- all on the host, no CUDA call), then the plan's launch. Only the launch
// touches the CUDA runtime.
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <tessera/gemm.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

#include "gemm/common.cuh"
#include "gemm/plan_text.hpp"

namespace tessera::ladder {
cudaError_t launch_01(GemmArgs const&, cudaStream_t);
cudaError_t launch_02(GemmArgs const&, cudaStream_t);
cudaError_t launch_03_run(SimtRun const&, cudaStream_t);
int ctas_03(int64_t bn);  // 03's CTAs on tiles bn wide resident on the GPU at once (0: no GPU)
cudaError_t launch_04_f16(GemmArgs const&, cudaStream_t);
cudaError_t launch_04_bf16(GemmArgs const&, cudaStream_t);
cudaError_t launch_04_tf32(GemmArgs const&, cudaStream_t);
// Kernel 05, one translation unit per dtype and C tile
// (05_wgmma_tma_<type>[_n128|_n64|_n64_m64].cu): its launcher, and its resident clusters (0 without
// a GPU; a_regs: its twin taking A through registers, tf32).
cudaError_t launch_05_f16_n256(WgmmaRun const&, cudaStream_t);
cudaError_t launch_05_f16_n128(WgmmaRun const&, cudaStream_t);
cudaError_t launch_05_f16_n64(WgmmaRun const&, cudaStream_t);
cudaError_t launch_05_bf16_n256(WgmmaRun const&, cudaStream_t);
cudaError_t launch_05_bf16_n128(WgmmaRun const&, cudaStream_t);
cudaError_t launch_05_bf16_n64(WgmmaRun const&, cudaStream_t);
cudaError_t launch_05_tf32_n256(WgmmaRun const&, cudaStream_t);
cudaError_t launch_05_tf32_n128(WgmmaRun const&, cudaStream_t);
cudaError_t launch_05_tf32_n64(WgmmaRun const&, cudaStream_t);
cudaError_t launch_05_f16_n64_m64(WgmmaRun const&, cudaStream_t);
cudaError_t launch_05_bf16_n64_m64(WgmmaRun const&, cudaStream_t);
int clusters_05_f16_n256(bool), clusters_05_f16_n128(bool), clusters_05_f16_n64(bool);
int clusters_05_bf16_n256(bool), clusters_05_bf16_n128(bool), clusters_05_bf16_n64(bool);
int clusters_05_tf32_n256(bool), clusters_05_tf32_n128(bool), clusters_05_tf32_n64(bool);
int clusters_05_f16_n64_m64(bool), clusters_05_bf16_n64_m64(bool);
cudaError_t launch_05_e4m3_n256(WgmmaRun const&, cudaStream_t);
cudaError_t launch_05_e4m3_n128(WgmmaRun const&, cudaStream_t);
cudaError_t launch_05_e4m3_n64(WgmmaRun const&, cudaStream_t);
cudaError_t launch_05_e5m2_n256(WgmmaRun const&, cudaStream_t);
cudaError_t launch_05_e5m2_n128(WgmmaRun const&, cudaStream_t);
cudaError_t launch_05_e5m2_n64(WgmmaRun const&, cudaStream_t);
int clusters_05_e4m3_n256(bool), clusters_05_e4m3_n128(bool), clusters_05_e4m3_n64(bool);
int clusters_05_e5m2_n256(bool), clusters_05_e5m2_n128(bool), clusters_05_e5m2_n64(bool);
cudaError_t launch_05_e4m3_promoted(WgmmaRun const&, cudaStream_t);
cudaError_t launch_05_e4m3_promoted_n64(WgmmaRun const&, cudaStream_t);
cudaError_t launch_05_e4m3_promoted_n64_m64(WgmmaRun const&, cudaStream_t);
cudaError_t launch_05_e4m3_promoted_m64(WgmmaRun const&, cudaStream_t);
cudaError_t launch_05_e5m2_promoted(WgmmaRun const&, cudaStream_t);
int clusters_05_e4m3_promoted(bool), clusters_05_e4m3_promoted_n64(bool);
int clusters_05_e4m3_promoted_n64_m64(bool), clusters_05_e4m3_promoted_m64(bool);
int clusters_05_e5m2_promoted(bool);
cudaError_t launch_06_f32(GemmArgs const&, SkinnyPlan const&, cudaStream_t);
cudaError_t launch_06_tf32(GemmArgs const&, SkinnyPlan const&, cudaStream_t);
cudaError_t launch_06_f16(GemmArgs const&, SkinnyPlan const&, cudaStream_t);
cudaError_t launch_06_bf16(GemmArgs const&, SkinnyPlan const&, cudaStream_t);

namespace {

// Kernel 05's launcher and resident clusters per dtype and tile (the tile the plan picks).
struct WgmmaEntry {
  cudaError_t (*launch)(WgmmaRun const&, cudaStream_t);
  int (*clusters)(bool a_regs);
};
// [TF32, F16, BF16, E4M3, E5M2][128 x 256, 128 x 128, 128 x 64, 64 x 64]
constexpr WgmmaEntry kWgmma[5][4] = {
    {{launch_05_tf32_n256, clusters_05_tf32_n256},
     {launch_05_tf32_n128, clusters_05_tf32_n128},
     {launch_05_tf32_n64, clusters_05_tf32_n64},
     {nullptr, nullptr}},  // (no short tile for tf32)
    {{launch_05_f16_n256, clusters_05_f16_n256},
     {launch_05_f16_n128, clusters_05_f16_n128},
     {launch_05_f16_n64, clusters_05_f16_n64},
     {launch_05_f16_n64_m64, clusters_05_f16_n64_m64}},
    {{launch_05_bf16_n256, clusters_05_bf16_n256},
     {launch_05_bf16_n128, clusters_05_bf16_n128},
     {launch_05_bf16_n64, clusters_05_bf16_n64},
     {launch_05_bf16_n64_m64, clusters_05_bf16_n64_m64}},
    {{launch_05_e4m3_n256, clusters_05_e4m3_n256},
     {launch_05_e4m3_n128, clusters_05_e4m3_n128},
     {launch_05_e4m3_n64, clusters_05_e4m3_n64},
     {nullptr, nullptr}},
    {{launch_05_e5m2_n256, clusters_05_e5m2_n256},
     {launch_05_e5m2_n128, clusters_05_e5m2_n128},
     {launch_05_e5m2_n64, clusters_05_e5m2_n64},
     {nullptr, nullptr}}};
// FP8 with its sums promoted to fp32 every 128 of K: [E4M3, E5M2][128 x 128, 128 x 64, 64 x 128,
// 64 x 64] (all but the first e4m3's only: the plan's rule "promoted sums").
constexpr WgmmaEntry kWgmmaPromoted[2][4] = {
    {{launch_05_e4m3_promoted, clusters_05_e4m3_promoted},
     {launch_05_e4m3_promoted_n64, clusters_05_e4m3_promoted_n64},
     {launch_05_e4m3_promoted_m64, clusters_05_e4m3_promoted_m64},
     {launch_05_e4m3_promoted_n64_m64, clusters_05_e4m3_promoted_n64_m64}},
    {{launch_05_e5m2_promoted, clusters_05_e5m2_promoted},
     {nullptr, nullptr},
     {nullptr, nullptr},
     {nullptr, nullptr}}};
WgmmaEntry const& wgmma_entry(tessera_dtype dtype, int64_t bm, int64_t bn, bool promoted) {
  if (promoted) {
    const int by_size =
        (bn == WgmmaShape::kPromotedN ? 0 : 1) + (bm == WgmmaShape::kShortBM ? 2 : 0);
    return kWgmmaPromoted[dtype == TESSERA_E4M3 ? 0 : 1][by_size];
  }
  const int by_type = dtype == TESSERA_TF32   ? 0
                      : dtype == TESSERA_F16  ? 1
                      : dtype == TESSERA_BF16 ? 2
                      : dtype == TESSERA_E4M3 ? 3
                                              : 4;
  const int by_size = bm == WgmmaShape::kShortBM ? 3 : bn == 256 ? 0 : bn == 128 ? 1 : 2;
  return kWgmma[by_type][by_size];
}

// The GPU as the plan sees it: the kernels' occupancy queries, asked once per device.
struct ThisGpu final : GemmDevice {
  int wgmma_clusters(tessera_dtype dtype, int64_t bm, int64_t bn, bool a_regs) const override {
    // (the promoted kernels' too; FP8's short tile exists promoted only)
    WgmmaEntry const& e = wgmma_entry(dtype, bm, bn, false);
    WgmmaEntry const& or_promoted = e.clusters ? e : wgmma_entry(dtype, bm, bn, true);
    return or_promoted.clusters ? or_promoted.clusters(a_regs) : 0;
  }
  int simt_ctas(int64_t bn) const override { return ctas_03(bn); }
};

// Runs the plan's kernel.
cudaError_t launch_plan(GemmPlan const& plan, cudaStream_t s) {
  GemmArgs const& p = plan.args;
  const tessera_dtype d = plan.call.dtype;
  switch (plan.kernel) {
    case GemmKernel::kSimtGlobal:
      return launch_01(p, s);
    case GemmKernel::kSimtCpAsync:
      return launch_02(p, s);
    case GemmKernel::kSimtPipelined:
      return launch_03_run(simt_run(plan), s);
    case GemmKernel::kMmaSync:
      return d == TESSERA_F16    ? launch_04_f16(p, s)
             : d == TESSERA_BF16 ? launch_04_bf16(p, s)
                                 : launch_04_tf32(p, s);
    case GemmKernel::kWgmmaTma:
      return wgmma_entry(d, plan.tile_m, plan.tile_n, plan.fp8.promoted)
          .launch(wgmma_run(plan), s);
    case GemmKernel::kSkinny: {
      auto* launch = d == TESSERA_F32    ? launch_06_f32
                     : d == TESSERA_TF32 ? launch_06_tf32
                     : d == TESSERA_F16  ? launch_06_f16
                                         : launch_06_bf16;
      return launch(p, plan.skinny, s);
    }
  }
  return cudaErrorInvalidValue;
}

// C = beta * C over an m x n column-major matrix (k = 0 or alpha = 0); beta = 0 writes zeros.
template <class T>
__global__ void scale_c(T* c, int64_t m, int64_t n, int64_t ldc, float beta) {
  const int64_t total = m * n;
  for (int64_t i = int64_t(blockIdx.x) * blockDim.x + threadIdx.x; i < total;
       i += int64_t(gridDim.x) * blockDim.x) {
    T* p = c + i % m + i / m * ldc;
    *p = beta == 0.0f ? T(0.0f) : T(beta * float(*p));
  }
}
cudaError_t launch_scale_c(GemmCall const& c, void* C, cudaStream_t s) {
  const unsigned blocks = unsigned(min64(ceil_div(c.m * c.n, 256), 65536));
  const tessera_dtype c_dtype = c.scaled ? c.c_dtype : c.dtype;
  if (c_dtype == TESSERA_F16)
    scale_c<<<blocks, 256, 0, s>>>(static_cast<__half*>(C), c.m, c.n, c.ldc, c.beta);
  else if (c_dtype == TESSERA_BF16)
    scale_c<<<blocks, 256, 0, s>>>(static_cast<__nv_bfloat16*>(C), c.m, c.n, c.ldc, c.beta);
  else
    scale_c<<<blocks, 256, 0, s>>>(static_cast<float*>(C), c.m, c.n, c.ldc, c.beta);
  return cudaGetLastError();
}

GemmPlan plan_call(const char* kernel, tessera_dtype dtype, char transa, char transb, int64_t m,
                   int64_t n, int64_t k, float alpha, const void* A, int64_t lda, const void* B,
                   int64_t ldb, float beta, const void* C, int64_t ldc) {
  const GemmCall call{kernel, dtype, transa, transb, m, n, k, alpha, A, lda, B, ldb, beta, C, ldc};
  return make_gemm_plan(call, ThisGpu{}, overrides_from_env());
}

// TESSERA_GEMM_LOG=1 in the environment: every call prints its plan on standard error.
bool log_plans() {
  static const bool on = [] {
    const char* v = std::getenv("TESSERA_GEMM_LOG");
    return v && *v && std::strcmp(v, "0") != 0;
  }();
  return on;
}

// Runs a plan: its status, the quick returns, the caller's workspace, the launch.
int run_plan(GemmPlan& plan, void* workspace, size_t workspace_bytes, void* stream) {
  if (log_plans()) std::fprintf(stderr, "tessera_gemm: %s\n", describe(plan).c_str());
  if (plan.status != TESSERA_SUCCESS || plan.quick == QuickReturn::kEmpty) return plan.status;
  if (workspace &&
      (workspace_bytes < plan.workspace || reinterpret_cast<uintptr_t>(workspace) % 256))
    return TESSERA_ERROR_WORKSPACE;
  cudaStream_t s = static_cast<cudaStream_t>(stream);
  if (plan.quick == QuickReturn::kScaleC) {  // C = beta * C over the m x n block
    if (plan.call.beta == 1.0f) return TESSERA_SUCCESS;
    void* c = const_cast<void*>(plan.call.c);
    return launch_scale_c(plan.call, c, s) == cudaSuccess ? TESSERA_SUCCESS : TESSERA_ERROR_CUDA;
  }
  plan.args.workspace = workspace, plan.args.workspace_bytes = workspace ? workspace_bytes : 0;
  return launch_plan(plan, s) == cudaSuccess ? TESSERA_SUCCESS : TESSERA_ERROR_CUDA;
}

// The FP8 call as a GemmCall (beta and C as given; the plan entry passes C for its checks).
GemmCall scaled_call(const char* kernel, tessera_dtype a_type, tessera_dtype b_type,
                     tessera_dtype c_type, char transa, char transb, int64_t m, int64_t n,
                     int64_t k, float alpha, const void* A, int64_t lda, const void* B,
                     int64_t ldb, tessera_scaling scaling, const float* scale_a,
                     const float* scale_b, tessera_accumulation accumulation, float beta,
                     const void* C, int64_t ldc) {
  GemmCall call{kernel, a_type, transa, transb, m, n, k, alpha, A, lda, B, ldb, beta, C, ldc};
  call.scaled = true, call.b_dtype = b_type, call.c_dtype = c_type;
  call.scaling = scaling, call.scale_a = scale_a, call.scale_b = scale_b;
  call.accumulation = accumulation;
  return call;
}

}  // namespace
}  // namespace tessera::ladder

using namespace tessera::ladder;

extern "C" int tessera_scaled_gemm(const char* kernel, tessera_dtype a_type, tessera_dtype b_type,
                                   tessera_dtype c_type, char transa, char transb, int64_t m,
                                   int64_t n, int64_t k, float alpha, const void* A, int64_t lda,
                                   const void* B, int64_t ldb, tessera_scaling scaling,
                                   const float* scale_a, const float* scale_b,
                                   tessera_accumulation accumulation, float beta, void* C,
                                   int64_t ldc, void* stream) {
  const GemmCall call =
      scaled_call(kernel, a_type, b_type, c_type, transa, transb, m, n, k, alpha, A, lda, B, ldb,
                  scaling, scale_a, scale_b, accumulation, beta, C, ldc);
  GemmPlan plan = make_gemm_plan(call, ThisGpu{}, overrides_from_env());
  return run_plan(plan, nullptr, 0, stream);
}

extern "C" int tessera_scaled_gemm_plan(const char* kernel, tessera_dtype a_type,
                                        tessera_dtype b_type, tessera_dtype c_type, char transa,
                                        char transb, int64_t m, int64_t n, int64_t k,
                                        const void* A, int64_t lda, const void* B, int64_t ldb,
                                        tessera_scaling scaling, const float* scale_a,
                                        const float* scale_b, tessera_accumulation accumulation,
                                        const void* C, int64_t ldc, char* text,
                                        size_t text_size) {
  const GemmCall call =
      scaled_call(kernel, a_type, b_type, c_type, transa, transb, m, n, k, 1.0f, A, lda, B, ldb,
                  scaling, scale_a, scale_b, accumulation, 0.0f, C, ldc);
  const GemmPlan plan = make_gemm_plan(call, ThisGpu{}, overrides_from_env());
  if (text && text_size > 0) std::snprintf(text, text_size, "%s", describe(plan).c_str());
  return plan.status;
}

extern "C" const char* tessera_gemm_kernels(void) {
  return "01_simt_global,02_simt_cp_async,03_simt_pipelined,04_mma_sync,05_wgmma_tma,06_skinny";
}

extern "C" const char* tessera_gemm_kernels_for(tessera_dtype dtype) {
  switch (dtype) {
    case TESSERA_F32:
      return "01_simt_global,02_simt_cp_async,03_simt_pipelined,06_skinny";
    case TESSERA_TF32:
      return "03_simt_pipelined,04_mma_sync,05_wgmma_tma,06_skinny";
    case TESSERA_F16:
    case TESSERA_BF16:
      return "04_mma_sync,05_wgmma_tma,06_skinny";
    case TESSERA_E4M3:
    case TESSERA_E5M2:
      return "05_wgmma_tma";
    default:
      return "";
  }
}

extern "C" const char* tessera_status_string(int status) { return status_text(status); }

extern "C" int tessera_gemm_plan(const char* kernel, tessera_dtype dtype, char transa, char transb,
                                 int64_t m, int64_t n, int64_t k, float alpha, const void* A,
                                 int64_t lda, const void* B, int64_t ldb, float beta, const void* C,
                                 int64_t ldc, char* text, size_t text_size) {
  const GemmPlan plan =
      plan_call(kernel, dtype, transa, transb, m, n, k, alpha, A, lda, B, ldb, beta, C, ldc);
  if (text && text_size > 0) std::snprintf(text, text_size, "%s", describe(plan).c_str());
  return plan.status;
}

extern "C" size_t tessera_gemm_workspace_size(const char* kernel, tessera_dtype dtype, char transa,
                                              char transb, int64_t m, int64_t n, int64_t k,
                                              const void* A, int64_t lda, const void* B,
                                              int64_t ldb) {
  // (alpha = 1, beta = 0 and C only matter for quick returns and the epilogue, not for packing.)
  const void* c = reinterpret_cast<const void*>(uintptr_t(256));
  const GemmPlan plan = plan_call(kernel, dtype, transa, transb, m, n, k, 1.0f, A, lda, B, ldb,
                                  0.0f, c, tessera::max64(1, m));
  return plan.status == TESSERA_SUCCESS ? plan.workspace : 0;
}

extern "C" int tessera_gemm_ex(const char* kernel, tessera_dtype dtype, char transa, char transb,
                               int64_t m, int64_t n, int64_t k, float alpha, const void* A,
                               int64_t lda, const void* B, int64_t ldb, float beta, void* C,
                               int64_t ldc, void* workspace, size_t workspace_bytes, void* stream) {
  GemmPlan plan =
      plan_call(kernel, dtype, transa, transb, m, n, k, alpha, A, lda, B, ldb, beta, C, ldc);
  return run_plan(plan, workspace, workspace_bytes, stream);
}

extern "C" int tessera_gemm_named(const char* kernel, tessera_dtype dtype, char transa, char transb,
                                  int64_t m, int64_t n, int64_t k, float alpha, const void* A,
                                  int64_t lda, const void* B, int64_t ldb, float beta, void* C,
                                  int64_t ldc, void* stream) {
  return tessera_gemm_ex(kernel, dtype, transa, transb, m, n, k, alpha, A, lda, B, ldb, beta, C,
                         ldc, nullptr, 0, stream);
}

extern "C" int tessera_gemm(tessera_dtype dtype, char transa, char transb, int64_t m, int64_t n,
                            int64_t k, float alpha, const void* A, int64_t lda, const void* B,
                            int64_t ldb, float beta, void* C, int64_t ldc, void* stream) {
  return tessera_gemm_named(nullptr, dtype, transa, transb, m, n, k, alpha, A, lda, B, ldb, beta, C,
                            ldc, stream);
}
