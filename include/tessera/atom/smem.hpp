// tessera/atom/smem.hpp -- Hopper (wgmma) shared-memory layout atoms.
//
// wgmma reads shared memory in 8-row core matrices whose 16-byte chunks are XOR-swizzled.
// The atoms below are the smallest tiles of each mode, in elements of `elem_bits`. On bytes the
// swizzle is Sw<B,4,3> (16-byte chunks, 8 rows); on elements of size 2^e bytes it is
// Sw<B,4-e,3>. K-major, 16-bit: one row of K is 16/32/64/128 bytes for INTER/SW32/SW64/SW128:
//   SW128: Sw<3,3,3> o 0 o (8,64):(64,1)      MN-major SW128: Sw<3,3,3> o 0 o (64,8):(1,64)
#pragma once

#include "../swizzle.hpp"

namespace tessera {

enum class GmmaSwizzle { kInterleave = 0, kB32 = 1, kB64 = 2, kB128 = 3 };

TESSERA_HD constexpr SwizzledLayout gmma_smem_atom(GmmaSwizzle sw, bool k_major, int64_t elem_bits) {
  if (elem_bits != 8 && elem_bits != 16 && elem_bits != 32) fail("gmma smem atom: element size must be 8, 16 or 32 bits");
  int b = int(sw);
  int64_t row_bytes = int64_t(16) << b;          // bytes of one swizzled row
  int64_t row = row_bytes * 8 / elem_bits;       // elements per row
  int e = elem_bits == 8 ? 0 : elem_bits == 16 ? 1 : 2;
  Layout l = k_major ? Layout(make_tuple(8, row), make_tuple(row, 1))
                     : Layout(make_tuple(row, 8), make_tuple(1, row));
  return SwizzledLayout{Swizzle(b, 4 - e, 3), 0, l};
}

}  // namespace tessera
