// The configurations of the register-level compile tests: scalar FMAs (the seeds' step 1) and
// mma.sync m16n8k16 with 4 warps along N and M (step 4) or along M only (an attention tile).
#pragma once
#include <tessera.hpp>
#include <tessera/device_tensor.hpp>
using namespace tessera;
using namespace tessera::literals;
struct Step1 {
  static constexpr TiledMMA kMma = presets::step1();
};
struct Step4 {
  static constexpr TiledMMA kMma = presets::step4();
};
struct WarpsM {
  static constexpr TiledMMA kMma =
      make_tiled_mma(atom::sm80_16x8x16_f32f16(), Layout("(4,1,1)"_tuple));
};
