// The FP8 compile tests' common part: a TiledMMA of two m64n128k32 e4m3 x e4m3 wgmma atoms and
// K-major stages of one-byte elements (128 rows, one 128-byte row of K).
#pragma once
#include <cuda_bf16.h>
#include <cuda_fp8.h>

#include <tessera/warpgroup_mma.hpp>

using namespace tessera;
using e4m3 = __nv_fp8_e4m3;
using bf16 = __nv_bfloat16;

struct Fp8Cfg {
  static constexpr TiledMMA kMma =
      make_tiled_mma(atom::sm90_64xNx32_f8(128, false), parse_layout("(2,1,1):(1,0,0)"));
  static constexpr StagedTile kA = make_staged_tile(8, 128, 128, true, 64, 1);
  static constexpr StagedTile kB = make_staged_tile(8, 128, 128, true, 128, 1);
};
