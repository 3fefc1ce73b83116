// kernels/gemm/plan_text.hpp -- a GEMM plan in words (tessera_gemm_plan's text, TESSERA_GEMM_LOG),
// and the C ABI's status messages. Host only; apart from plan.hpp so that the kernels'
// translation units, which include plan.hpp, do not compile <string>.
#pragma once

#include <string>

#include "plan.hpp"

namespace tessera::ladder {

// The words of a status code (tessera_status_string).
const char* status_text(int status);

// The plan: the problem, the kernel and why, how it reads A and B, its tile, orientation and
// schedule, the workspace and how C is stored; a failed plan is its status's words.
//   "F16 NN m=4096 n=64 k=4096 lda=4096 ldb=4096 ldc=4096: kernel 05_wgmma_tma, the built-in
//   choice for F16; A read by TMA where it lies (MN-major); ...; tile 64 x 64 (one consumer
//   warpgroup: ...); 32 cluster tiles on 32 clusters, whole; C stored by TMA"
std::string describe(GemmPlan const& plan);

}  // namespace tessera::ladder
