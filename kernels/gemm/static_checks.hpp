// kernels/gemm/static_checks.hpp -- what the kernels' configurations check their layouts with.
//
// A configuration's checks of its layouts (static_asserts that run the algebra) sit in a
// `__device__ static constexpr void check()` that its kernel calls, so they run in the front ends
// that see device code (EDG, in cudafe++ and cicc) and not in the host g++, whose constant
// evaluation cost 0.3-0.5 s per kernel file. The other members are evaluated where they are
// used: the host reads tile sizes, threads and shared-memory bytes only.
#pragma once

#include <tessera/tiled_copy.hpp>
#include <tessera/tiled_mma.hpp>

namespace tessera::ladder {

// A TiledCopy's thread -> offset layout over a tile (its thread mode already is one).
TESSERA_HD constexpr Layout copy_thread_offsets(TiledCopy const& copy, Layout const& tile,
                                                bool dst) {
  return copy.tidfrg(tile, dst)[0];
}

// Checks a derived layout against the library's own partition for a few threads (constexpr).
TESSERA_HD constexpr bool same_offsets(TiledMMA const& mma, Operand op, Layout const& tile,
                                       Layout const& thr) {
  int64_t n = mma.threads();
  int64_t probe[5] = {0, 1, 17, n / 2 + 3, n - 1};
  for (int64_t t : probe)
    if (thr(t) != mma.partition(op, tile, t).offset) return false;
  return true;
}

// Where two layouts' leaves are one contiguous run: the number of leading consecutive offsets
// 0,1,2,.. of `l` (how wide a vector load of a fragment can be).
TESSERA_HD constexpr int64_t contiguous_prefix(Layout const& l) {
  int64_t n = 1;
  while (n < l.size() && l(n) == n) ++n;
  return n;
}

}  // namespace tessera::ladder
