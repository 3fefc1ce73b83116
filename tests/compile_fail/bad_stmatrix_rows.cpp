// stmatrix (not .trans) into an M-major tile: rule::ldmatrix_rows_are_16_contiguous_bytes.
#include "copy_common.hpp"
void store(uint16_t* smem) {
  const ThrCopy<Stsm> thr{0};
  auto tXsA = thr.partition_D(make_tensor<kMMajor>(smem));
  Fragment<uint16_t, Layout(decltype(tXsA)::size())> regs{};
  copy(thr, regs, tXsA);
}
