// The Hopper compile tests' common part: a 128 x 256 bf16 configuration of the library's Hopper
// pieces (examples/hopper_gemm_epilogue.cu's) and a second one of another TiledMMA.
#pragma once
#include <cuda_bf16.h>

#include <tessera/sm90_mainloop.hpp>

using namespace tessera;
using bf16 = __nv_bfloat16;

template <int64_t kBN>
struct Sm90Cfg {
  static constexpr TiledMMA kMma =
      make_tiled_mma(atom::sm90_64xNx16(kBN, false), parse_layout("(2,1,1):(1,0,0)"));
  static constexpr StagedTile kA = make_staged_tile(16, 128, 64, true, 64, 2);
  static constexpr StagedTile kB = make_staged_tile(16, kBN, 64, true, kBN, 2);
  struct SharedStorage {
    SmemStages<bf16, kA> a;
    SmemStages<bf16, kB> b;
  };
};
using Cfg = Sm90Cfg<256>;

// O = P V with P from registers (wgmma RS): S's accumulators (m64n64, one warpgroup, A and B
// from shared memory) read as the A operand of O's m64n128 RS TiledMMA; V one MN-major stage of
// (head dim 128, 64 keys).
struct SCfg {
  static constexpr TiledMMA kMma =
      make_tiled_mma(atom::sm90_64xNx16(64, false), parse_layout("(1,1,1):(0,0,0)"));
};
struct OCfg {
  static constexpr TiledMMA kMma =
      make_tiled_mma(atom::sm90_64xNx16(128, true), parse_layout("(1,1,1):(0,0,0)"));
  static constexpr StagedTile kV = make_staged_tile(16, 128, 64, false, 128, 1);
};
