// Must NOT compile: a 32-bit (tf32) MN-major stage tile, which wgmma cannot read from shared
// memory (its transposed layouts are for 16-bit elements).
#include "sm90_common.cuh"
constexpr StagedTile kBad = make_staged_tile(32, 128, 32, false, 64, 2);
__global__ void k(float* out) { out[threadIdx.x] = float(kBad.stages); }
