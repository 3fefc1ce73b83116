// The operands of the copy compile-fail tests: the transpose's TiledCopy (16 x 16 threads, 4
// f32 values along M each, 128-bit vectors) and an ldmatrix copy of step 4's A operand.
#pragma once
#include <cstdint>
#include <tessera.hpp>
#include <tessera/device_tensor.hpp>
using namespace tessera;
struct Load128 {
  static constexpr TiledCopy kCopy = make_tiled_copy_tv(
      atom::universal_copy(128, 32), parse_layout("(16,16):(1,16)"), parse_layout("(4,1):(1,0)"));
};
inline constexpr Coord<2> kTile = {{64, 64}};
template <Operand kOp, CopyAtom (*kAtom)(int, bool, int64_t), bool kTrans>
struct MatrixCopy {
  static constexpr TiledMMA kMma = presets::step4();
  static constexpr Layout kPermTile = Layout(make_tuple(kMma.tile_size(0), kMma.tile_size(2)));
  static constexpr TiledCopy kCopy = TiledCopy{
      kAtom(4, kTrans, 16),
      make_layout(kMma.partitioner(kOp, kPermTile).thread, kMma.thrfrg(kOp, kPermTile)[1]),
      kPermTile.shape};
};
using Ldsm = MatrixCopy<Operand::kA, atom::ldmatrix, false>;
using LdsmT = MatrixCopy<Operand::kA, atom::ldmatrix, true>;
using Stsm = MatrixCopy<Operand::kA, atom::stmatrix, false>;
// A (32,16) tile of 16-bit values, K-major (rows of 16 contiguous values) or M-major.
inline constexpr Layout kKMajor = Layout(make_tuple(32, 16), make_tuple(16, 1));
inline constexpr Layout kMMajor = Layout(make_tuple(32, 16), make_tuple(1, 32));
template <class Cfg, auto kL, class T = uint16_t>
void load_matrix(T* smem) {
  const ThrCopy<Cfg> thr{0};
  auto tXsA = thr.partition_S(make_tensor<kL>(smem));
  Fragment<T, Layout(decltype(tXsA)::size())> regs;
  copy(thr, tXsA, regs);
}
