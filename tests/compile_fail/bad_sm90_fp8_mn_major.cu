// Must NOT compile: an MN-major stage of FP8 elements (wgmma reads FP8 K-major only).
#include "sm90_fp8_common.cuh"
constexpr StagedTile kBad = make_staged_tile(8, 128, 128, false, 128, 1);
__global__ void k(float* out) { out[threadIdx.x] = float(kBad.stages); }
