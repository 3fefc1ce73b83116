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
// shared -> registers with ldmatrix x4 over MmaF16's own partition of its operand kOp's (32,16)
// k-block (the registers it fills: kMma's kOperand, which retile_D checks).
template <Operand kOp, class Mma = MmaF16>
struct S2R {
  static constexpr TiledMMA kMma = MmaF16::kMma;
  static constexpr Operand kOperand = kOp;
  static constexpr TiledCopy kCopy =
      TiledCopy{atom::ldmatrix(4, false),
                make_layout(Mma::kMma.partitioner(kOp, kTileA).thread,
                            Mma::kMma.thrfrg(kOp, kTileA)[1]),
                kTileA.shape};
};
