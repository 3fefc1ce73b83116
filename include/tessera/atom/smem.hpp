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

TESSERA_HD constexpr SwizzledLayout gmma_smem_atom(GmmaSwizzle sw, bool k_major,
                                                   int64_t elem_bits) {
  if (elem_bits != 8 && elem_bits != 16 && elem_bits != 32)
    fail("gmma smem atom: element size must be 8, 16 or 32 bits");
  int b = int(sw);
  int64_t row_bytes = int64_t(16) << b;          // bytes of one swizzled row
  int64_t row = row_bytes * 8 / elem_bits;       // elements per row
  int e = elem_bits == 8 ? 0 : elem_bits == 16 ? 1 : 2;
  Layout l = k_major ? Layout(make_tuple(8, row), make_tuple(row, 1))
                     : Layout(make_tuple(row, 8), make_tuple(1, row));
  return SwizzledLayout{Swizzle(b, 4 - e, 3), 0, l};
}

// A (rows, k) stage tile of such atoms, the way TMA writes it. K-major: atoms stacked down the
// rows (one box of (k, rows)). MN-major: atoms along K first, then MN blocks (one box of
// (row elements, k) per block):
//   16-bit SW128, K-major  (128,64): Sw<3,3,3> o 0 o ((8,16),(64,1)):((64,512),(1,0))
//   16-bit SW128, MN-major (128,64): Sw<3,3,3> o 0 o ((64,2),(8,8)):((1,4096),(64,512))
TESSERA_HD constexpr SwizzledLayout gmma_smem_tile(GmmaSwizzle sw, bool k_major, int64_t elem_bits,
                                                   int64_t rows, int64_t k) {
  SwizzledLayout atom = gmma_smem_atom(sw, k_major, elem_bits);
  const int64_t atom_rows = atom.layout[0].size(), atom_k = atom.layout[1].size();
  if (rows <= 0 || k <= 0 || rows % atom_rows != 0 || k % atom_k != 0) {
    Text t;
    t << "gmma smem tile: (" << rows << ',' << k << ") is not a whole number of "
      << atom.layout << " atoms";
    fail(t);
  }
  const int64_t n_rows = rows / atom_rows, n_k = k / atom_k;
  Layout order = k_major ? Layout(make_tuple(n_rows, n_k), make_tuple(1, n_rows))
                         : Layout(make_tuple(n_rows, n_k), make_tuple(n_k, 1));
  return SwizzledLayout{atom.swizzle, 0, blocked_product(atom.layout, order)};
}

// The fields of a wgmma shared-memory matrix descriptor, read off a stage tile (in bytes):
//   K-major:  SBO = offset of row 8 (the next 8-row core-matrix group); LBO unused (16).
//   MN-major: LBO = offset of the next block of one swizzled row's elements along MN,
//             SBO = offset of k = 8 (the next 8-deep group along K).
// The tile must be canonical: rows of one swizzle width, 8-row atoms, the swizzle of the mode.
struct GmmaDescriptor {
  int64_t leading_bytes = 0, stride_bytes = 0;
  int layout_type = 0;  // descriptor bits 62-63: 1 = 128B, 2 = 64B, 3 = 32B swizzle
  // The 64-bit descriptor of the matrix starting at shared address `smem` (bytes).
  TESSERA_HD constexpr uint64_t encode(uint32_t smem) const {
    return uint64_t((smem >> 4) & 0x3FFF) | uint64_t((leading_bytes >> 4) & 0x3FFF) << 16 |
           uint64_t((stride_bytes >> 4) & 0x3FFF) << 32 | uint64_t(layout_type) << 62;
  }
};

TESSERA_HD constexpr GmmaDescriptor make_gmma_descriptor(SwizzledLayout const& tile, bool k_major,
                                                         int64_t elem_bits) {
  const int64_t bytes = elem_bits / 8;
  const int b = tile.swizzle.bits;
  const int e = elem_bits == 8 ? 0 : elem_bits == 16 ? 1 : 2;
  if (b < 1 || b > 3 || tile.swizzle.base != 4 - e || tile.swizzle.shift != 3 || tile.offset != 0) {
    Text t;
    t << "gmma descriptor: swizzle " << tile.swizzle << " is not a 32/64/128-byte swizzle of "
      << elem_bits << "-bit elements (Sw<1..3," << 4 - e << ",3>)";
    fail(t);
  }
  const int64_t row = (int64_t(16) << b) / bytes;  // elements of one swizzled row
  auto at = [&](int64_t r, int64_t k) { return tile.layout(make_tuple(r, k)) * bytes; };
  GmmaDescriptor d;
  d.layout_type = 4 - b;  // 128B -> 1, 64B -> 2, 32B -> 3
  const bool canonical = k_major ? at(1, 0) == row * bytes && at(0, 1) == bytes
                                 : at(1, 0) == bytes && at(0, 1) == row * bytes;
  if (!canonical) {
    Text t;
    t << "gmma descriptor: " << tile.layout << " is not a canonical "
      << (k_major ? "K" : "MN") << "-major tile of " << row << "-element rows";
    fail(t);
  }
  const int64_t rows = tile.layout[0].size();
  if (k_major) {
    d.leading_bytes = 16;
    d.stride_bytes = at(8, 0);
  } else {
    d.leading_bytes = rows > row ? at(row, 0) : 0;
    d.stride_bytes = at(0, 8);
  }
  return d;
}

}  // namespace tessera
