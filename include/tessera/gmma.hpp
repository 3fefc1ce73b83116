// tessera/gmma.hpp -- wgmma (SM90 warpgroup MMA) from layouts: shared-memory descriptors read off
// the operand tile's layout, and gemm over them.
//
// wgmma reads an operand block (MN x K, K = 32 bytes) from shared memory through a 64-bit
// descriptor: start address, LBO, SBO (byte offsets, in 16-byte units), a swizzle mode, a base
// offset. The block must be one of the canonical layouts (PTX ISA "Shared memory matrix layout";
// T = elements per 16 bytes, W = T * 2^B elements per swizzled row, B = 0 none, 1 32B, 2 64B, 3
// 128B):
//
//   K-major,  swizzled:   Sw<B,4-e,3> o ((8,m),(K)):((W,SBO),(1))          LBO unused (16 bytes)
//   K-major,  no swizzle:             ((8,m),(T,k)):((T,SBO),(1,LBO))     8x16-byte core matrices
//   MN-major, swizzled:   Sw<B,4-e,3> o ((W,m),(8,k)):((1,LBO),(W,SBO))
//   MN-major, no swizzle:             ((T,m),(8,k)):((1,SBO),(T,LBO))
//
// make_gmma_operand cuts a stage tile (rows, cols) into instruction blocks per mode (the first
// `mn` / `k` elements of each coalesced mode: logical_divide by a compact tile), checks the block
// against the form of its swizzle and major and reads LBO and SBO off it; the rest of each mode is
// the layout of the blocks (block (i, j) starts at element blocks(i, j) of the tile, before the
// swizzle, which the hardware applies on address bits). Worked example, kernel 05's A tile:
//
//   16-bit 128B K-major (128,64): Sw<3,3,3> o ((8,16),(64,1)):((64,512),(1,0)), block (64,16)
//     rows coalesced 128:64 -> block 64:64 = (8,8):(64,512): W = 64 ok, SBO = 512 el = 1024 B
//     k 64:1 -> block 16:1, contiguous ok; blocks (2,4):(4096,16): warpgroup 1 at +8 KB, k-step j
//     at +32 B
#pragma once

#include "atom/smem.hpp"
#include "coord_layout.hpp"
#include "swizzle.hpp"

namespace tessera {

enum class GmmaMajor { kK, kMN };

// The fields of a wgmma shared-memory matrix descriptor.
struct GmmaDesc {
  int layout_type = 0;         // bits 62-63: 0 no swizzle (interleave), 1 128B, 2 64B, 3 32B
  int64_t lbo_bytes = 0;       // leading dimension byte offset (bits 16-29, 16-byte units)
  int64_t sbo_bytes = 0;       // stride dimension byte offset (bits 32-45, 16-byte units)
  int base_offset = 0;         // bits 49-51: 0, the tiles start on the swizzle's period
  // The descriptor of the block at shared address `start` (bytes; bits 0-13, 16-byte units).
  TESSERA_HD constexpr uint64_t encode(uint32_t start) const {
    return uint64_t((start >> 4) & 0x3FFF) | uint64_t((lbo_bytes >> 4) & 0x3FFF) << 16 |
           uint64_t((sbo_bytes >> 4) & 0x3FFF) << 32 | uint64_t(base_offset & 7) << 49 |
           uint64_t(layout_type) << 62;
  }
  // The descriptor of the block `bytes` (a multiple of 16) after the one `desc` encodes, by an
  // add to its start field: the field holds address / 16 in 14 bits and shared addresses are
  // below 2^18 bytes, so the sum stays inside the field and equals encode(start + bytes). A
  // tile's descriptor is encoded once; each block's then costs one 32-bit add.
  static TESSERA_HD constexpr uint64_t advance(uint64_t desc, uint32_t bytes) {
    return (desc & ~uint64_t(0xFFFFFFFFu)) | uint32_t(uint32_t(desc) + bytes / 16);
  }
  constexpr bool operator==(GmmaDesc const&) const = default;
};

// A stage tile as wgmma operands: the block descriptor's fields and where each block starts.
struct GmmaOperand {
  GmmaMajor major = GmmaMajor::kK;
  int64_t elem_bits = 16;
  int64_t mn = 64, k = 16;     // one instruction's block
  GmmaDesc desc;
  Layout blocks;               // (MN blocks, K blocks) -> element offset of the block in the tile
  Swizzle swizzle;
  // Byte offset of block (i, j) (i along MN, j along K).
  TESSERA_HD constexpr int64_t block_bytes(int64_t i, int64_t j) const {
    return blocks(make_tuple(i, j)) * elem_bits / 8;
  }
  // Whether every block starts on 16 bytes (the descriptor's unit).
  TESSERA_HD constexpr bool blocks_on_16_bytes() const {
    for (int64_t i = 0; i < blocks[0].size(); ++i)
      for (int64_t j = 0; j < blocks[1].size(); ++j)
        if (block_bytes(i, j) % 16 != 0) return false;
    return true;
  }
};

namespace detail {
// Splits the coalesced leaves `l` of one mode after its first `e` elements (e must divide
// through the leaves): head = the block's leaves, rest = the blocks'. False when it does not.
TESSERA_HD constexpr bool split_mode(Modes const& l, int64_t e, Modes& head, Modes& rest) {
  int i = 0;
  for (; i < l.n && e > 1; ++i) {
    if (e % l.s[i] == 0) {
      head.push(l.s[i], l.d[i]);
      e /= l.s[i];
    } else if (l.s[i] % e == 0) {
      head.push(e, l.d[i]);
      rest.push(l.s[i] / e, e * l.d[i]);
      e = 1;
      ++i;
      break;
    } else {
      return false;
    }
  }
  for (; i < l.n; ++i) rest.push(l.s[i], l.d[i]);
  return e == 1;
}

// A block mode of the canonical form (first : d0), then at most one more leaf: returns that
// leaf's stride (0 when there is none), or -1 when the mode is not of that form.
TESSERA_HD constexpr int64_t canonical_mode(Modes const& head, int64_t first, int64_t d0) {
  Modes a, b;
  if (!split_mode(head, first, a, b)) return -1;
  Layout la = coalesce(a.layout());
  if (first > 1 && (la.size() != first || la.stride.v[0] != d0 || la.shape.n != 1)) return -1;
  if (b.n == 0) return 0;
  Layout lb = coalesce(b.layout());
  if (lb.shape.n != 1) return -1;  // two or more strides: the descriptor has one
  return lb.size() == 1 ? 0 : lb.stride.v[0];
}
}  // namespace detail

namespace detail {
// The rules every operand tile meets: 8-, 16- or 32-bit elements, blocks 32 bytes deep along K,
// two modes (MN, K), no swizzle or a wgmma one at offset 0. Returns log2 of the element bytes.
TESSERA_HD constexpr int check_gmma_tile(SwizzledLayout const& tile, int64_t elem_bits,
                                         int64_t k) {
  const int64_t bytes = elem_bits / 8;
  const int e = elem_bits == 8 ? 0 : elem_bits == 16 ? 1 : elem_bits == 32 ? 2 : -1;
  if (e < 0) fail("gmma: elements are 8, 16 or 32 bits");
  if (k * bytes != 32) {
    Text t;
    t << "gmma: a wgmma block is 32 bytes deep along K: " << 32 / bytes << " elements of "
      << elem_bits << " bits, not " << k;
    fail(t);
  }
  if (tile.layout.rank() != 2) {
    Text t;
    t << "gmma: the operand tile " << tile.layout << " must have two modes (MN, K)";
    fail(t);
  }
  const Swizzle sw = tile.swizzle;
  const int b = sw.bits;
  if (tile.offset != 0 || b > 3 || (b > 0 && (sw.base != 4 - e || sw.shift != 3))) {
    Text t;
    t << "gmma: swizzle " << sw << " (offset " << tile.offset << ") is not a wgmma swizzle mode of "
      << elem_bits << "-bit elements: none, or Sw<1..3," << 4 - e
      << ",3> (32, 64, 128 bytes) at offset 0";
    fail(t);
  }
  return e;
}

// The descriptor's LBO and SBO from one block's modes head[0] (MN) and head[1] (K), which must
// be the canonical layout of the major and swizzle (the table above).
TESSERA_HD constexpr void set_gmma_strides(GmmaOperand& op, SwizzledLayout const& tile,
                                           Modes const (&head)[2]) {
  const bool k_major = op.major == GmmaMajor::kK;
  const int64_t bytes = op.elem_bits / 8, ext[2] = {op.mn, op.k};
  const int b = tile.swizzle.bits;
  const int64_t T = 16 / bytes, W = T << b;
  // The canonical form: (first extent, its stride) per mode; the extra leaf's stride is LBO or SBO.
  int64_t first[2] = {}, stride[2] = {};
  if (k_major) {
    first[0] = 8, stride[0] = b ? W : T;  // 8 rows, one swizzled row (or core-matrix row) apart
    first[1] = b ? op.k : T, stride[1] = 1;  // contiguous along K (a core matrix's 16 bytes)
  } else {
    first[0] = b ? W : T, stride[0] = 1;            // one swizzled row (or 16 bytes) along MN
    first[1] = 8, stride[1] = b ? W : T;            // 8 deep along K
  }
  int64_t extra[2] = {};
  for (int m = 0; m < 2; ++m) {
    if (ext[m] % first[m] != 0 || (extra[m] = canonical_mode(head[m], first[m], stride[m])) < 0) {
      Text t;
      t << "gmma: the " << op.mn << 'x' << op.k << " block of the " << (k_major ? "K" : "MN")
        << "-major operand tile " << tile.swizzle << " o " << tile.layout
        << " is not a canonical wgmma layout: its mode " << m << " must be " << first[m] << ':'
        << stride[m] << " then at most one more stride ("
        << (b ? "rows of one swizzle width" : "8x16-byte core matrices") << ")";
      fail(t);
    }
  }
  int64_t lbo = 0, sbo = 0;
  if (k_major) sbo = extra[0], lbo = b ? 16 / bytes : extra[1];
  else if (b) lbo = extra[0], sbo = extra[1];
  else sbo = extra[0], lbo = extra[1];
  const int64_t field[2] = {lbo * bytes, sbo * bytes};
  for (int f = 0; f < 2; ++f)
    if (field[f] % 16 != 0 || field[f] < 0 || field[f] >= (int64_t(1) << 18)) {
      Text t;
      t << "gmma: " << (f ? "SBO" : "LBO") << " of the operand tile " << tile.layout << " is "
        << field[f] << " bytes; the descriptor holds a multiple of 16 below 2^18";
      fail(t);
    }
  op.desc.lbo_bytes = field[0], op.desc.sbo_bytes = field[1];
}
}  // namespace detail

// The wgmma operand blocks (mn x k elements of elem_bits) of the stage tile `tile` (modes: MN,
// K). The major is the mode with stride 1. Fails naming the rule the tile breaks.
TESSERA_HD constexpr GmmaOperand make_gmma_operand(SwizzledLayout const& tile, int64_t elem_bits,
                                                   int64_t mn, int64_t k) {
  GmmaOperand op;
  op.elem_bits = elem_bits, op.mn = mn, op.k = k, op.swizzle = tile.swizzle;
  detail::check_gmma_tile(tile, elem_bits, k);
  const int b = tile.swizzle.bits;
  op.desc.layout_type = b == 0 ? 0 : 4 - b;
  Modes head[2], rest[2];
  const int64_t ext[2] = {mn, k};
  for (int m = 0; m < 2; ++m)
    if (!detail::split_mode(leaves(coalesce(tile.layout[m])), ext[m], head[m], rest[m])) {
      Text t;
      t << "gmma: mode " << m << " of the operand tile " << tile.layout
        << " does not divide into blocks of " << ext[m];
      fail(t);
    }
  const bool k_major = head[1].n > 0 && head[1].d[0] == 1;
  const bool mn_major = head[0].n > 0 && head[0].d[0] == 1;
  if (!k_major && !mn_major) {
    Text t;
    t << "gmma: the operand tile " << tile.layout
      << " is neither K-major nor MN-major (no mode starts with stride 1)";
    fail(t);
  }
  op.major = k_major ? GmmaMajor::kK : GmmaMajor::kMN;
  if (!k_major && elem_bits != 16) {  // PTX: the MN-major layouts are for f16 and bf16 only
    Text t;
    t << "gmma: wgmma reads MN-major tiles of 16-bit elements only (f16, bf16); the " << elem_bits
      << "-bit operand tile " << tile.layout << " must be K-major";
    fail(t);
  }
  detail::set_gmma_strides(op, tile, head);
  // The blocks: (MN blocks, K blocks) -> element offset (rest leaves, or 1:0 when one block).
  op.blocks = make_layout(rest[0].layout(), rest[1].layout());
  if (op.blocks.size() * mn * k != tile.layout.size())
    fail("gmma: the operand tile is not a whole number of blocks");
  return op;
}

TESSERA_HD constexpr GmmaOperand make_gmma_operand(Layout const& tile, int64_t elem_bits,
                                                   int64_t mn, int64_t k) {
  return make_gmma_operand(SwizzledLayout{Swizzle(), 0, tile}, elem_bits, mn, k);
}

}  // namespace tessera

#if defined(__CUDACC__)
#include "atom/sm90.hpp"

namespace tessera {

// A stage tile of T in shared memory, as wgmma operands (kOp: make_gmma_operand of its layout).
template <class T, GmmaOperand kOp>
struct GmmaTensor {
  uint32_t smem;  // shared address of the tile (aligned to its swizzle's period)
  // The descriptor of block (i, j): the tile's, advanced by the block's offset (GmmaDesc::advance:
  // the wgmmas of a k-tile then differ by constants).
  __device__ __forceinline__ uint64_t descriptor(int i, int j) const {
    static constexpr CoordLayout<1> kMN = make_offset_layout(kOp.blocks[0]);
    static constexpr CoordLayout<1> kK = make_offset_layout(kOp.blocks[1]);
    static constexpr GmmaDesc kDesc = kOp.desc;
    static_assert(kOp.blocks_on_16_bytes(), "gmma: every block starts on a multiple of 16 bytes");
    return GmmaDesc::advance(kDesc.encode(smem),
                             uint32_t((kMN(i)[0] + kK(j)[0]) * int64_t(sizeof(T))));
  }
};
template <GmmaOperand kOp, class T>
__device__ __forceinline__ GmmaTensor<T, kOp> make_gmma_tensor(T const* smem) {
  return {ptx::smem_u32(smem)};
}

// Keeps the compiler from moving accesses of accumulators across wgmma issue and wait.
template <int N>
__device__ __forceinline__ void fence_operands(float (&acc)[N]) {
TESSERA_UNROLL
  for (int i = 0; i < N; ++i) ptx::fence_operand(acc[i]);
}

// gemm for an SM90 warpgroup MMA (m64nNk16 / k8 / k32), one k-tile: acc (64 x N) += A(block
// a_row, all K) * B(block b_row, all K)^T, one wgmma per K block, A and B from shared memory.
// A and B hold one 16-bit type or float (tf32), or FP8 (e4m3, e5m2) in any pair (TA, TB).
// The wgmma discipline is here: operand fences, wgmma.fence before the first instruction, one
// commit group for the k-tile. `accumulate` false overwrites acc at the first instruction.
// Wait with warpgroup_wait<n>(acc) before reading acc or reusing the stage.
template <int N, class TA, GmmaOperand kA, class TB, GmmaOperand kB, int kAcc>
__device__ __forceinline__ void gemm(GmmaTensor<TA, kA> const& a, int a_row,
                                     GmmaTensor<TB, kB> const& b, int b_row, float (&acc)[kAcc],
                                     bool accumulate) {
  static_assert(N % 8 == 0 && N >= 8 && N <= 256 && kAcc == N / 2 && kB.mn == N,
                "rule::wgmma_n_does_not_match: gemm<N> is wgmma m64nNk (N a multiple of 8 in "
                "[8, 256]): N/2 accumulators per thread and B blocks of N rows");
  static_assert(kA.mn == 64, "rule::wgmma_n_does_not_match: wgmma blocks of A are 64 rows");
  static_assert(kWgmmaTakes<TA, TB>,
                "rule::wgmma_cannot_mix_these_element_types: A and B tiles of one type (__half, "
                "__nv_bfloat16, float as tf32) or two FP8 formats (__nv_fp8_e4m3, __nv_fp8_e5m2)");
  static_assert(kA.k == kB.k && kA.k * int64_t(sizeof(TA)) == 32 && sizeof(TA) == sizeof(TB),
                "gemm: A and B blocks are 32 bytes deep");
  static_assert(kA.blocks[1].size() == kB.blocks[1].size(),
                "gemm: A and B tiles must have as many K blocks");
  static_assert(kWgmmaTransposes<TA> || (kA.major == GmmaMajor::kK && kB.major == GmmaMajor::kK),
                "rule::wgmma_reads_tf32_and_fp8_k_major: tf32 and FP8 wgmma read K-major tiles "
                "only");
  constexpr int kSteps = int(kA.blocks[1].size());
  constexpr int kTA = kA.major == GmmaMajor::kMN, kTB = kB.major == GmmaMajor::kMN;
  if constexpr (kAcc == N / 2 && N % 8 == 0 && kWgmmaTakes<TA, TB>) {  // (else the messages)
    fence_operands(acc);
    ptx::wgmma_fence();
TESSERA_UNROLL
    for (int j = 0; j < kSteps; ++j)
      ptx::wgmma_ss<N, TA, TB, kTA, kTB>(acc, a.descriptor(a_row, j), b.descriptor(b_row, j),
                                         (accumulate || j > 0) ? 1 : 0);
    ptx::wgmma_commit();
  }
}

// The same with A from registers: a[j] is the k-step j fragment (4 registers) of the RS atom,
// holding values of TA (B's type T, or the other FP8 format).
template <int N, class T, class TA = T, int kSteps, GmmaOperand kB>
__device__ __forceinline__ void gemm(uint32_t const (&a)[kSteps][4], GmmaTensor<T, kB> const& b,
                                     int b_row, float (&acc)[N / 2], bool accumulate) {
  static_assert(kB.mn == N && kB.k * int64_t(sizeof(T)) == 32,
                "gemm: B blocks are N rows, 32 bytes deep");
  static_assert(kB.blocks[1].size() == kSteps, "gemm: one A fragment per K block of B");
  static_assert(kWgmmaTakes<TA, T>,
                "rule::wgmma_cannot_mix_these_element_types: A's registers and B's tile of one "
                "type, or two FP8 formats");
  static_assert(kWgmmaTransposes<T> || kB.major == GmmaMajor::kK,
                "rule::wgmma_reads_tf32_and_fp8_k_major: tf32 and FP8 wgmma read K-major tiles "
                "only");
  constexpr int kTB = kB.major == GmmaMajor::kMN;
  fence_operands(acc);
  ptx::wgmma_fence();
TESSERA_UNROLL
  for (int j = 0; j < kSteps; ++j)
    ptx::wgmma_rs<N, TA, T, kTB>(acc, a[j], b.descriptor(b_row, j),
                                 (accumulate || j > 0) ? 1 : 0);
  ptx::wgmma_commit();
}

// wgmma reads A's registers (RS) until the wait that retires its group. The registers of a
// group still in flight must not be reused for anything else: keep_operands(a) after that wait
// keeps them live up to it. (ptxas serializes every wgmma of the kernel, warning C7513, where a
// wgmma's input registers are written while any wgmma is in flight; the kernel loads the next
// group's fragments into other registers, and a clean loop of alternating register sets
// is what ptxas accepts.)
template <int kSteps>
__device__ __forceinline__ void keep_operands(uint32_t const (&a)[kSteps][4]) {
TESSERA_UNROLL
  for (int j = 0; j < kSteps; ++j)
TESSERA_UNROLL
    for (int i = 0; i < 4; ++i) ptx::keep_live(a[j][i]);
}

// Warp specialization: a warpgroup gives registers up (producer) or takes them (consumers),
// kRegs per thread (a multiple of 8 in [24, 256]); every warp of the warpgroup executes it.
template <int kRegs>
__device__ __forceinline__ void warpgroup_reg_dealloc() {
  ptx::setmaxnreg_dec<kRegs>();
}
template <int kRegs>
__device__ __forceinline__ void warpgroup_reg_alloc() {
  ptx::setmaxnreg_inc<kRegs>();
}

// Waits until at most kPending committed k-tiles of this warpgroup are in flight.
template <int kPending, int N>
__device__ __forceinline__ void warpgroup_wait(float (&acc)[N]) {
  ptx::wgmma_wait<kPending>();
  fence_operands(acc);
}

}  // namespace tessera
#endif
