// tessera/atom/copy.hpp -- copy atoms: one copy instruction's thread-value layouts.
//
// A copy atom moves values with `thr_id`'s threads. Its layouts map (thread, value) to the
// element moved, for the source, the destination and the reference (the frame both are
// compared in). CuTe writes them in bits; `recast_bits` turns them into elements, e.g.
// ldmatrix x4's source (32,128):(128,1) bits is (32,8):(8,1) halves: each lane brings one
// 16-byte row of 8 halves.
#pragma once

#include "../notation.hpp"

namespace tessera {

// A layout over bits as a layout over elements of `elem_bits`: each leaf s:d becomes
// (s / g):(d / elem_bits) where g = elem_bits / d groups bits into one element (stride 0 stays).
TESSERA_HD constexpr Layout recast_bits(Layout const& bits, int64_t elem_bits) {
  Layout r = bits;
  for (int i = 0; i < r.shape.n; ++i) {
    if (r.shape.tup[i]) continue;
    int64_t s = r.shape.v[i], d = r.stride.v[i];
    if (d == 0) continue;
    int64_t g = d % elem_bits == 0 ? 1 : ceil_div(elem_bits, d);
    r.shape.v[i] = s % g == 0 ? s / g : ceil_div(s, g);
    r.stride.v[i] = d % elem_bits == 0 ? d / elem_bits : 1;
  }
  return r;
}

// The instruction a copy atom issues (what device code dispatches on).
enum class CopyOp { kUniversal, kCpAsync, kLdsm, kLdsmTrans, kStsm, kStsmTrans };

struct CopyAtom {
  const char* name = "";
  int64_t elem_bits = 32;
  Layout thr_id;
  Layout src_tv, dst_tv, ref_tv;  // (thr, val) -> element, in elements of elem_bits
  CopyOp op = CopyOp::kUniversal;
  TESSERA_HD constexpr int64_t threads() const { return ref_tv[0].size(); }
  TESSERA_HD constexpr int64_t values() const { return ref_tv[1].size(); }
};

namespace atom {

// A plain load/store of `copy_bits` per thread (32, 64, 128: a vector of elements).
TESSERA_HD constexpr CopyAtom universal_copy(int64_t copy_bits, int64_t elem_bits) {
  if (copy_bits < 8 || copy_bits % elem_bits != 0) {
    Text t;
    t << "copy atom: " << copy_bits << " bits is not a whole number of " << elem_bits
      << "-bit elements";
    fail(t);
  }
  Layout tv(make_tuple(1, copy_bits), make_tuple(0, 1));
  Layout e = recast_bits(tv, elem_bits);
  return {"UniversalCopy", elem_bits, parse_layout("1:0"), e, e, e};
}

// cp.async.{ca,cg}.shared.global of 4, 8 or 16 bytes per thread.
TESSERA_HD constexpr CopyAtom cp_async(int64_t bytes, int64_t elem_bits) {
  if (bytes != 4 && bytes != 8 && bytes != 16) {
    Text t;
    t << "cp.async: " << bytes << " bytes; the instruction copies 4, 8 or 16 bytes";
    fail(t);
  }
  CopyAtom a = universal_copy(bytes * 8, elem_bits);
  a.name = "SM80_CP_ASYNC_CACHEALWAYS";
  a.op = CopyOp::kCpAsync;
  return a;
}

// ldmatrix.sync.aligned.m8n8{.x1,.x2,.x4}{,.trans}.shared.b16: a warp loads 1, 2 or 4 8x8
// matrices of 16-bit elements; each lane supplies one row address.
TESSERA_HD constexpr CopyAtom ldmatrix(int count, bool transpose, int64_t elem_bits = 16) {
  if (count != 1 && count != 2 && count != 4) {
    Text t;
    t << "ldmatrix: x" << count << "; the instruction loads x1, x2 or x4 matrices";
    fail(t);
  }
  const char* src = count == 1 ? "((8,4),128):((128,0),1)"
                    : count == 2 ? "((16,2),128):((128,0),1)"
                                 : "(32,128):(128,1)";
  const char* dst_n = count == 1 ? "(32,32):(32,1)"
                      : count == 2 ? "(32,(32,2)):(32,(1,1024))"
                                   : "(32,(32,4)):(32,(1,1024))";
  const char* dst_t = count == 1 ? "((4,8),(16,2)):((256,16),(1,128))"
                      : count == 2 ? "((4,8),(16,2,2)):((256,16),(1,128,1024))"
                                   : "((4,8),(16,2,4)):((256,16),(1,128,1024))";
  const char* names[2][3] = {{"SM75_U32x1_LDSM_N", "SM75_U32x2_LDSM_N", "SM75_U32x4_LDSM_N"},
                             {"SM75_U16x2_LDSM_T", "SM75_U16x4_LDSM_T", "SM75_U16x8_LDSM_T"}};
  Layout d = recast_bits(parse_layout(transpose ? dst_t : dst_n), elem_bits);
  return {names[transpose][count == 4 ? 2 : count - 1], elem_bits, parse_layout("32:1"),
          recast_bits(parse_layout(src), elem_bits), d, d,
          transpose ? CopyOp::kLdsmTrans : CopyOp::kLdsm};
}

// stmatrix.sync.aligned.m8n8{.x1,.x2,.x4}{,.trans}.shared.b16 (sm_90): ldmatrix's mirror image,
// registers (its destination layout) to shared rows (its source layout); the registers are the
// reference, as in CuTe's SM90_U32x4_STSM_N.
TESSERA_HD constexpr CopyAtom stmatrix(int count, bool transpose, int64_t elem_bits = 16) {
  CopyAtom l = ldmatrix(count, transpose, elem_bits);
  const char* names[2][3] = {{"SM90_U32x1_STSM_N", "SM90_U32x2_STSM_N", "SM90_U32x4_STSM_N"},
                             {"SM90_U16x2_STSM_T", "SM90_U16x4_STSM_T", "SM90_U16x8_STSM_T"}};
  return {names[transpose][count == 4 ? 2 : count - 1], elem_bits, l.thr_id, l.dst_tv, l.src_tv,
          l.dst_tv, transpose ? CopyOp::kStsmTrans : CopyOp::kStsm};
}

}  // namespace atom

// The host-side description of a TMA box (cuTensorMapEncodeTiled): the box extents per mode of
// the shared-memory tile and the swizzle mode (0, 32, 64 or 128 bytes) from Sw<B,4,3> on bytes.
struct TmaBox {
  int rank = 0;
  int64_t box[5] = {};
  int swizzle_bytes = 0;
};

// A tensor map can address a matrix when its base address and its leading dimension (in bytes)
// are multiples of 16 (cuTensorMapEncodeTiled's requirements for a 2-D tile map).
TESSERA_HD constexpr bool tma_addressable(uint64_t address, int64_t leading_bytes) {
  return address % 16 == 0 && leading_bytes % 16 == 0;
}

TESSERA_HD constexpr TmaBox make_tma_box(IntTuple const& tile_shape, Swizzle const& byte_swizzle) {
  if (tile_shape.rank() > 5) fail("tma: a box has at most 5 modes");
  if (byte_swizzle.bits > 0 && (byte_swizzle.base != 4 || byte_swizzle.shift != 3)) {
    Text t;
    t << "tma: swizzle " << byte_swizzle << " is not a TMA mode (Sw<1..3,4,3> on bytes)";
    fail(t);
  }
  TmaBox b;
  b.rank = tile_shape.rank();
  for (int i = 0; i < b.rank; ++i) {
    b.box[i] = product(tile_shape[i]);
    if (b.box[i] < 1 || b.box[i] > 256) {
      Text t;
      t << "tma: box extent " << b.box[i] << " of mode " << i << " must be in [1, 256]";
      fail(t);
    }
  }
  b.swizzle_bytes = byte_swizzle.bits == 0 ? 0 : 16 << byte_swizzle.bits;
  return b;
}

// ---------------------------------------------------------------------------------------------
// Declared in both nvcc passes (the host pass never compiles the bodies) so that __device__
// functions written against them compile in the host pass too.
#if defined(__CUDACC__)
namespace ptx {
__device__ inline uint32_t smem_address(void const* p) {
  return static_cast<uint32_t>(__cvta_generic_to_shared(p));
}
// cp.async of kBytes (4 or 16) to the shared-memory address `smem`, of which only the first
// `bytes` are read from global memory (0: nothing); the rest of the destination is zero-filled.
template <int kBytes>
__device__ inline void cp_async_zfill(uint32_t smem, void const* gmem, int bytes) {
  static_assert(kBytes == 4 || kBytes == 16, "cp_async_zfill: 4 or 16 bytes");
  if constexpr (kBytes == 4)
    asm volatile("cp.async.ca.shared.global [%0], [%1], 4, %2;\n" ::"r"(smem), "l"(gmem),
                 "r"(bytes));
  else
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;\n" ::"r"(smem), "l"(gmem),
                 "r"(bytes));
}
// cp.async of 16 bytes; `valid` false fills the destination with zeros (src-size 0).
__device__ inline void cp_async_16(void* smem, void const* gmem, bool valid = true) {
  cp_async_zfill<16>(smem_address(smem), gmem, valid ? 16 : 0);
}
// cp.async of a 16-byte vector of which only the first `bytes` (0..16) are read: the rest of the
// destination is zero-filled (a vector straddling the edge of a matrix).
__device__ inline void cp_async_16_partial(void* smem, void const* gmem, int bytes) {
  cp_async_zfill<16>(smem_address(smem), gmem, bytes);
}
__device__ inline void cp_async_4(void* smem, void const* gmem, bool valid = true) {
  cp_async_zfill<4>(smem_address(smem), gmem, valid ? 4 : 0);
}
__device__ inline void cp_async_commit() { asm volatile("cp.async.commit_group;\n" ::); }
template <int N>
__device__ inline void cp_async_wait() { asm volatile("cp.async.wait_group %0;\n" ::"n"(N)); }

__device__ inline void ldmatrix_x4(uint32_t (&r)[4], void const* smem_row) {
  asm volatile("ldmatrix.sync.aligned.x4.m8n8.shared.b16 {%0,%1,%2,%3}, [%4];\n"
               : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3])
               : "r"(smem_address(smem_row)));
}
__device__ inline void ldmatrix_x2(uint32_t (&r)[2], void const* smem_row) {
  asm volatile("ldmatrix.sync.aligned.x2.m8n8.shared.b16 {%0,%1}, [%2];\n"
               : "=r"(r[0]), "=r"(r[1])
               : "r"(smem_address(smem_row)));
}
__device__ inline void ldmatrix_x1(uint32_t (&r)[1], void const* smem_row) {
  asm volatile("ldmatrix.sync.aligned.x1.m8n8.shared.b16 {%0}, [%1];\n"
               : "=r"(r[0])
               : "r"(smem_address(smem_row)));
}
// stmatrix .x4 .trans: four 8x8 16-bit matrices from registers (thread t holds row t/4, columns
// 2(t%4) and 2(t%4)+1 of each, packed low-first) to shared memory, transposed: lane 8i + j gives
// the address of the 16 bytes that receive column j of matrix i.
__device__ inline void stmatrix_x4_trans(void* smem_row, uint32_t const (&r)[4]) {
  asm volatile("stmatrix.sync.aligned.x4.trans.m8n8.shared.b16 [%0], {%1,%2,%3,%4};\n" ::"r"(
                   smem_address(smem_row)),
               "r"(r[0]), "r"(r[1]), "r"(r[2]), "r"(r[3])
               : "memory");
}
__device__ inline void ldmatrix_x4_trans(uint32_t (&r)[4], void const* smem_row) {
  asm volatile("ldmatrix.sync.aligned.x4.trans.m8n8.shared.b16 {%0,%1,%2,%3}, [%4];\n"
               : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3])
               : "r"(smem_address(smem_row)));
}
__device__ inline void ldmatrix_x2_trans(uint32_t (&r)[2], void const* smem_row) {
  asm volatile("ldmatrix.sync.aligned.x2.trans.m8n8.shared.b16 {%0,%1}, [%2];\n"
               : "=r"(r[0]), "=r"(r[1])
               : "r"(smem_address(smem_row)));
}
__device__ inline void ldmatrix_x1_trans(uint32_t (&r)[1], void const* smem_row) {
  asm volatile("ldmatrix.sync.aligned.x1.trans.m8n8.shared.b16 {%0}, [%1];\n"
               : "=r"(r[0])
               : "r"(smem_address(smem_row)));
}
// movmatrix.trans: the warp's 8x8 16-bit matrix (thread t holds row t/4, columns 2(t%4) and
// 2(t%4)+1, packed low-first) transposed in registers: thread t gets row t/4 of the transpose.
__device__ inline uint32_t movmatrix_trans(uint32_t r) {
  uint32_t d;
  asm volatile("movmatrix.sync.aligned.m8n8.trans.b16 %0, %1;\n" : "=r"(d) : "r"(r));
  return d;
}
// stmatrix .x{kCount}{.trans} from r[0..kCount): lane i gives the address of row i % (8 kCount).
template <int kCount, bool kTrans>
__device__ inline void stmatrix(void* smem_row, uint32_t const* r) {
  static_assert(kCount == 1 || kCount == 2 || kCount == 4, "stmatrix: x1, x2 or x4");
  const uint32_t a = smem_address(smem_row);
  if constexpr (kCount == 4 && kTrans)
    asm volatile("stmatrix.sync.aligned.x4.trans.m8n8.shared.b16 [%0], {%1,%2,%3,%4};\n" ::"r"(a),
                 "r"(r[0]), "r"(r[1]), "r"(r[2]), "r"(r[3]) : "memory");
  else if constexpr (kCount == 4)
    asm volatile("stmatrix.sync.aligned.x4.m8n8.shared.b16 [%0], {%1,%2,%3,%4};\n" ::"r"(a),
                 "r"(r[0]), "r"(r[1]), "r"(r[2]), "r"(r[3]) : "memory");
  else if constexpr (kCount == 2 && kTrans)
    asm volatile("stmatrix.sync.aligned.x2.trans.m8n8.shared.b16 [%0], {%1,%2};\n" ::"r"(a),
                 "r"(r[0]), "r"(r[1]) : "memory");
  else if constexpr (kCount == 2)
    asm volatile("stmatrix.sync.aligned.x2.m8n8.shared.b16 [%0], {%1,%2};\n" ::"r"(a), "r"(r[0]),
                 "r"(r[1]) : "memory");
  else if constexpr (kTrans)
    asm volatile("stmatrix.sync.aligned.x1.trans.m8n8.shared.b16 [%0], {%1};\n" ::"r"(a), "r"(r[0])
                 : "memory");
  else
    asm volatile("stmatrix.sync.aligned.x1.m8n8.shared.b16 [%0], {%1};\n" ::"r"(a), "r"(r[0])
                 : "memory");
}
// cp.async of kBytes (4, 8 or 16) with `bytes` read and the rest zero-filled.
template <int kBytes>
__device__ inline void cp_async_n(uint32_t smem, void const* gmem, int bytes) {
  static_assert(kBytes == 4 || kBytes == 8 || kBytes == 16, "cp.async: 4, 8 or 16 bytes");
  if constexpr (kBytes == 16) cp_async_zfill<16>(smem, gmem, bytes);
  else if constexpr (kBytes == 4) cp_async_zfill<4>(smem, gmem, bytes);
  else
    asm volatile("cp.async.ca.shared.global [%0], [%1], 8, %2;\n" ::"r"(smem), "l"(gmem),
                 "r"(bytes));
}
// ldmatrix .x{kCount}{.trans} into r[0..kCount).
template <int kCount, bool kTrans>
__device__ inline void ldmatrix(uint32_t* r, void const* smem_row) {
  static_assert(kCount == 1 || kCount == 2 || kCount == 4, "ldmatrix: x1, x2 or x4");
  if constexpr (kCount == 4) {
    if constexpr (kTrans) ldmatrix_x4_trans(*reinterpret_cast<uint32_t(*)[4]>(r), smem_row);
    else ldmatrix_x4(*reinterpret_cast<uint32_t(*)[4]>(r), smem_row);
  } else if constexpr (kCount == 2) {
    if constexpr (kTrans) ldmatrix_x2_trans(*reinterpret_cast<uint32_t(*)[2]>(r), smem_row);
    else ldmatrix_x2(*reinterpret_cast<uint32_t(*)[2]>(r), smem_row);
  } else {
    if constexpr (kTrans) ldmatrix_x1_trans(*reinterpret_cast<uint32_t(*)[1]>(r), smem_row);
    else ldmatrix_x1(*reinterpret_cast<uint32_t(*)[1]>(r), smem_row);
  }
}
}  // namespace ptx
#endif

}  // namespace tessera
