// The mma.sync configuration of the device compile tests: step 4 with the f16 instruction.
#pragma once
#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include "register_common.hpp"
struct MmaF16 {
  static constexpr TiledMMA kMma = presets::step4();
  using MmaOp = atom::SM80_16x8x16_F32F16F16F32_TN;
};
static constexpr Layout kTileA = Layout("(32,16)"_tuple);  // (M,K) of one k-block
