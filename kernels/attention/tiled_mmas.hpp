// kernels/attention/tiled_mmas.hpp -- the TiledMMAs of the attention kernels' two products, host
// and device, no CUDA: the kernels bind them to static constexpr members, and `tessera explain` /
// `tessera render --preset attention` draw the same values.
//
//   Hopper (fa3_sm90)  S = Q K^T   wgmma m64n{BN}k16 SS, two atoms along M, (2,1,1):(1,0,0):
//                                  consumer warpgroup c computes query rows [64 c, 64 c + 64)
//                      O += P V    wgmma m64n{D}k16 RS, the same arrangement, P from registers
//   SM80 (fa2_sm80)    both        mma.sync m16n8k16, 4 warps along M, permutation (64,16,16)
//
// BN comes from the tiles (args.hpp, fa3_sm90_tiles: per head dim and causal flag).
#pragma once

#include <tessera/atom/mma.hpp>
#include <tessera/tiled_mma.hpp>

namespace tessera::attention {

// S = Q K^T of the Hopper kernel: (M,N,K) = (BM,BN,D), bn = fa3_sm90_tiles(D, causal).bn keys
// per step.
TESSERA_HD constexpr TiledMMA fa3_sm90_mma_s(int64_t bn) {
  return make_tiled_mma(atom::sm90_64xNx16(bn, false), parse_layout("(2,1,1):(1,0,0)"));
}

// O += P V of the Hopper kernel: (M,N,K) = (BM,D,BN), A (P) from registers.
TESSERA_HD constexpr TiledMMA fa3_sm90_mma_o(int64_t head_dim) {
  return make_tiled_mma(atom::sm90_64xNx16(head_dim, true), parse_layout("(2,1,1):(1,0,0)"));
}

// Both products of the SM80 kernel (`atom`: the f16 or bf16 m16n8k16): the permutation tile
// (64,16,16) lets one ldmatrix x4 read two n-atoms of B.
TESSERA_HD constexpr TiledMMA fa2_sm80_mma(MmaAtom const& atom) {
  return make_tiled_mma(atom, Layout(make_tuple(int64_t(4), int64_t(1), int64_t(1))),
                        make_tile(Layout(64), Layout(16), Layout(16)));
}

}  // namespace tessera::attention
