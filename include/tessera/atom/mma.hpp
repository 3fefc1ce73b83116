// tessera/atom/mma.hpp -- MMA atoms: one hardware instruction's shape and thread-value layouts.
//
// An atom computes an (M,N,K) block with `thr_id`'s threads. Its TV layouts map
// (thread, value) to the column-major index of the element inside the atom's tile:
//   a_tv: (thr,val) -> m + M*k     b_tv: (thr,val) -> n + N*k     c_tv: (thr,val) -> m + M*n
// B is addressed as (N,K), like CuTe.
//
// Example, SM80 m16n8k16 C: ((4,8),(2,2)):((32,1),(16,8)). Lane t = t0 + 4*t1 holds value
// v = v0 + 2*v1 at row t1 + 8*v1 and column 2*t0 + v0: lane 5 (t0=1, t1=1), value 3 -> (9, 3).
//
// The layouts are CuTe's (facts of the hardware, cross-checked on the GPU by the device tests).
// The instructions themselves (inline PTX) are in this folder only.
#pragma once

#include <cmath>

#include "../notation.hpp"

#if defined(__CUDACC__)
// CUDA's 16-bit types name the ops' values; declared only (their headers cost a SIMT kernel's
// compile ~25 %): code that makes such fragments includes cuda_fp16.h / cuda_bf16.h.
struct __half;
struct __nv_bfloat16;
#endif

namespace tessera {

struct MmaAtom {
  const char* name = "";
  int64_t m = 1, n = 1, k = 1;
  Layout thr_id;  // logical thread -> thread index within the atom's group
  Layout a_tv, b_tv, c_tv;
  // Value counts per thread (registers of the element type).
  TESSERA_HD constexpr int64_t threads() const { return thr_id.size(); }
  TESSERA_HD constexpr int64_t values_a() const { return a_tv[1].size(); }
  TESSERA_HD constexpr int64_t values_b() const { return b_tv[1].size(); }
  TESSERA_HD constexpr int64_t values_c() const { return c_tv[1].size(); }
};

namespace atom {

// Scalar FMA: one thread, one value of each operand, d = a*b + c.
TESSERA_HD constexpr MmaAtom universal_fma() {
  return {"UniversalFMA", 1, 1, 1, parse_layout("1:0"), parse_layout("(1,1):(0,0)"),
          parse_layout("(1,1):(0,0)"), parse_layout("(1,1):(0,0)")};
}

// mma.sync.aligned.m16n8k16.row.col.f32.{f16,bf16}.{f16,bf16}.f32: one warp.
TESSERA_HD constexpr MmaAtom sm80_16x8x16(const char* name) {
  return {name, 16, 8, 16, parse_layout("32:1"),
          parse_layout("((4,8),(2,2,2)):((32,1),(16,8,128))"),
          parse_layout("((4,8),(2,2)):((16,1),(8,64))"),
          parse_layout("((4,8),(2,2)):((32,1),(16,8))")};
}
TESSERA_HD constexpr MmaAtom sm80_16x8x16_f32f16() {
  return sm80_16x8x16("SM80_16x8x16_F32F16F16F32_TN");
}
TESSERA_HD constexpr MmaAtom sm80_16x8x16_f32bf16() {
  return sm80_16x8x16("SM80_16x8x16_F32BF16BF16F32_TN");
}

// mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32: one warp.
TESSERA_HD constexpr MmaAtom sm80_16x8x8_f32tf32() {
  return {"SM80_16x8x8_F32TF32TF32F32_TN", 16, 8, 8, parse_layout("32:1"),
          parse_layout("((4,8),(2,2)):((16,1),(8,64))"), parse_layout("((4,8),2):((8,1),32)"),
          parse_layout("((4,8),(2,2)):((32,1),(16,8))")};
}

// wgmma.mma_async m64nNk16, f16/bf16 inputs, f32 accumulators: one warpgroup (128 threads).
// SS reads A and B from shared memory through descriptors (every thread sees the whole tile,
// thread stride 0); RS takes A from registers in the accumulator-like layout.
TESSERA_HD constexpr MmaAtom sm90_64xNx16(int64_t n, bool a_in_registers) {
  if (n < 8 || n > 256 || n % 8 != 0) {
    Text t;
    t << "wgmma: N = " << n << " must be a multiple of 8 in [8, 256]";
    fail(t);
  }
  // C: ((4,8,4),(2,2,N/8)):((128,1,16),(64,8,512)); row t1 + 16*warp + 8*v1, col 2*t0 + v0 + 8*v2.
  Layout c(make_tuple(make_tuple(4, 8, 4), make_tuple(2, 2, n / 8)),
           make_tuple(make_tuple(128, 1, 16), make_tuple(64, 8, 512)));
  Layout a_regs = parse_layout("((4,8,4),(2,2,2)):((128,1,16),(64,8,512))");
  Layout a_smem = parse_layout("(128,(64,16)):(0,(1,64))");
  Layout b_smem(make_tuple(128, make_tuple(n, 16)), make_tuple(0, make_tuple(1, n)));
  return {a_in_registers ? "SM90_64xNx16_F32F16F16_RS" : "SM90_64xNx16_F32F16F16_SS", 64, n, 16,
          parse_layout("128:1"), a_in_registers ? a_regs : a_smem, b_smem, c};
}

// wgmma.mma_async m64nNk8, tf32 inputs, f32 accumulators: the same C; K is 8 deep. RS's A is
// ((4,8,4),(2,2)):((64,1,16),(8,256)): lane t0 + 4 t1 of warp w holds (t1 + 16w + 8 v0, t0 + 4 v1),
// mma.sync m16n8k8's A per warp.
TESSERA_HD constexpr MmaAtom sm90_64xNx8_tf32(int64_t n, bool a_in_registers) {
  MmaAtom a = sm90_64xNx16(n, a_in_registers);
  a.name = a_in_registers ? "SM90_64xNx8_F32TF32TF32_RS_TN" : "SM90_64xNx8_F32TF32TF32_SS_TN";
  a.k = 8;
  a.a_tv = a_in_registers ? parse_layout("((4,8,4),(2,2)):((64,1,16),(8,256))")
                          : parse_layout("(128,(64,8)):(0,(1,64))");
  a.b_tv = Layout(make_tuple(128, make_tuple(n, 8)), make_tuple(0, make_tuple(1, n)));
  return a;
}

// The FP8 formats wgmma multiplies (PTX .e4m3, .e5m2; CUDA's __nv_fp8_e4m3, __nv_fp8_e5m2).
enum class Fp8 { kE4M3, kE5M2 };

// wgmma.mma_async m64nNk32, FP8 inputs (A and B each e4m3 or e5m2), f32 accumulators: the same C;
// K is 32 deep (32 bytes, as every wgmma). FP8 has no transposed form: A and B are K-major
// ("TN"). RS's A is ((4,8,4),(4,2,2)):((256,1,16),(64,8,1024)): lane t0 + 4 t1 of warp w holds
// (t1 + 16w + 8 v1, 4 t0 + v0 + 16 v2), four values (one register) per v1 + 2 v2.
TESSERA_HD constexpr MmaAtom sm90_64xNx32_f8(int64_t n, bool a_in_registers, Fp8 a = Fp8::kE4M3,
                                             Fp8 b = Fp8::kE4M3) {
  MmaAtom r = sm90_64xNx16(n, a_in_registers);
  // CuTe's names, N written as N (the names of sm90_64xNx16's atoms), indexed [a][b][rs].
  constexpr const char* kNames[2][2][2] = {
      {{"SM90_64xNx32_F32E4M3E4M3_SS_TN", "SM90_64xNx32_F32E4M3E4M3_RS_TN"},
       {"SM90_64xNx32_F32E4M3E5M2_SS_TN", "SM90_64xNx32_F32E4M3E5M2_RS_TN"}},
      {{"SM90_64xNx32_F32E5M2E4M3_SS_TN", "SM90_64xNx32_F32E5M2E4M3_RS_TN"},
       {"SM90_64xNx32_F32E5M2E5M2_SS_TN", "SM90_64xNx32_F32E5M2E5M2_RS_TN"}}};
  r.name = kNames[int(a)][int(b)][a_in_registers ? 1 : 0];
  r.k = 32;
  r.a_tv = a_in_registers ? parse_layout("((4,8,4),(4,2,2)):((256,1,16),(64,8,1024))")
                          : parse_layout("(128,(64,32)):(0,(1,64))");
  r.b_tv = Layout(make_tuple(128, make_tuple(n, 32)), make_tuple(0, make_tuple(1, n)));
  return r;
}

}  // namespace atom

// The atoms by name, for the CLI and tests. Returns false for an unknown name.
TESSERA_HD constexpr bool mma_atom_by_name(const char* name, MmaAtom& out) {
  auto same = [](const char* a, const char* b) {
    while (*a && *a == *b) ++a, ++b;
    return *a == *b;
  };
  if (same(name, "UniversalFMA") || same(name, "fma")) out = atom::universal_fma();
  else if (same(name, "SM80_16x8x16_F32F16F16F32_TN") || same(name, "sm80_16x8x16_f16"))
    out = atom::sm80_16x8x16_f32f16();
  else if (same(name, "SM80_16x8x16_F32BF16BF16F32_TN") || same(name, "sm80_16x8x16_bf16"))
    out = atom::sm80_16x8x16_f32bf16();
  else if (same(name, "SM80_16x8x8_F32TF32TF32F32_TN") || same(name, "sm80_16x8x8_tf32"))
    out = atom::sm80_16x8x8_f32tf32();
  else if (same(name, "SM90_64x64x16_F32F16F16_SS") || same(name, "sm90_64x64x16_ss"))
    out = atom::sm90_64xNx16(64, false);
  else if (same(name, "SM90_64x128x16_F32F16F16_SS") || same(name, "sm90_64x128x16_ss"))
    out = atom::sm90_64xNx16(128, false);
  else if (same(name, "SM90_64x256x16_F32F16F16_SS") || same(name, "sm90_64x256x16_ss"))
    out = atom::sm90_64xNx16(256, false);
  else if (same(name, "SM90_64x128x16_F32F16F16_RS") || same(name, "sm90_64x128x16_rs"))
    out = atom::sm90_64xNx16(128, true);
  else if (same(name, "SM90_64x128x32_F32E4M3E4M3_SS_TN") || same(name, "sm90_64x128x32_e4m3"))
    out = atom::sm90_64xNx32_f8(128, false);
  else if (same(name, "SM90_64x256x32_F32E4M3E4M3_SS_TN") || same(name, "sm90_64x256x32_e4m3"))
    out = atom::sm90_64xNx32_f8(256, false);
  else if (same(name, "SM90_64x128x32_F32E4M3E4M3_RS_TN") || same(name, "sm90_64x128x32_e4m3_rs"))
    out = atom::sm90_64xNx32_f8(128, true);
  else return false;
  return true;
}

// ---------------------------------------------------------------------------------------------
// The instructions (device code only).
// Declared in both nvcc passes (the host pass never compiles the bodies) so that __device__
// functions written against them compile in the host pass too.
#if defined(__CUDACC__)
namespace ptx {
// D = A*B + C for m16n8k16 with f16 inputs; a: 4 regs (8 halves), b: 2 regs, c/d: 4 floats.
__device__ inline void mma_m16n8k16_f32f16(float (&d)[4], uint32_t const (&a)[4],
                                           uint32_t const (&b)[2], float const (&c)[4]) {
  asm volatile(
      "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, "
      "{%10,%11,%12,%13};\n"
      : "=f"(d[0]), "=f"(d[1]), "=f"(d[2]), "=f"(d[3])
      : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]), "f"(c[0]), "f"(c[1]),
        "f"(c[2]), "f"(c[3]));
}
__device__ inline void mma_m16n8k16_f32bf16(float (&d)[4], uint32_t const (&a)[4],
                                            uint32_t const (&b)[2], float const (&c)[4]) {
  asm volatile(
      "mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, "
      "{%8,%9}, {%10,%11,%12,%13};\n"
      : "=f"(d[0]), "=f"(d[1]), "=f"(d[2]), "=f"(d[3])
      : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]), "f"(c[0]), "f"(c[1]),
        "f"(c[2]), "f"(c[3]));
}
// fp32 -> tf32 (round to nearest, ties away), the operand form of the tf32 mma.
__device__ inline uint32_t to_tf32(float x) {
  uint32_t r;
  asm("cvt.rna.tf32.f32 %0, %1;\n" : "=r"(r) : "f"(x));
  return r;
}
// m16n8k8 tf32: a: 4 regs, b: 2 regs (tf32 values in 32-bit registers).
__device__ inline void mma_m16n8k8_f32tf32(float (&d)[4], uint32_t const (&a)[4],
                                           uint32_t const (&b)[2], float const (&c)[4]) {
  asm volatile(
      "mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, "
      "{%10,%11,%12,%13};\n"
      : "=f"(d[0]), "=f"(d[1]), "=f"(d[2]), "=f"(d[3])
      : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]), "f"(c[0]), "f"(c[1]),
        "f"(c[2]), "f"(c[3]));
}
}  // namespace ptx
#endif

// ---------------------------------------------------------------------------------------------
// The instructions as types, for the device algorithms (gemm in device_tensor.hpp): an op names
// the atom whose layouts describe it, the register types and counts of each operand per thread,
// and issues one instruction, D = A * B + D. A TiledMMA's configuration names its op
// (`using MmaOp = atom::SM80_16x8x16_F32F16F16F32_TN;`) and gemm checks that the op's atom is
// the TiledMMA's.

// A tf32 operand register: an fp32 value rounded to tf32 (to nearest, ties away) as it is made.
struct tf32 {
  uint32_t bits;
  tf32() = default;
#if defined(__CUDACC__)
  __device__ explicit tf32(float x) : bits(ptx::to_tf32(x)) {}
#endif
};

// Each op: the value types of its fragments (AElement, BElement: the registers' values;
// CElement: the accumulators), the data types of the tiles its operands come from (ASource,
// BSource: fp32 for tf32), and kA / kB / kC values of each per thread and instruction (mode 0 of
// the fragments), consecutive in registers.
namespace atom {
struct UniversalFMA {
  using AElement = float;
  using BElement = float;
  using CElement = float;
  using ASource = float;
  using BSource = float;
  static constexpr int kA = 1, kB = 1, kC = 1;
  TESSERA_HD static constexpr MmaAtom atom() { return universal_fma(); }
  TESSERA_HD static void fma(float* d, float const* a, float const* b) { *d = fmaf(*a, *b, *d); }
};

#if defined(__CUDACC__)
#define TESSERA_MMA_SYNC_OP(Name, AtomFn, Value, Source, kValuesA, kValuesB, Instr)            \
  struct Name {                                                                                \
    using AElement = Value;                                                                    \
    using BElement = Value;                                                                    \
    using CElement = float;                                                                    \
    using ASource = Source;                                                                    \
    using BSource = Source;                                                                    \
    static constexpr int kA = kValuesA, kB = kValuesB, kC = 4;                                 \
    TESSERA_HD static constexpr MmaAtom atom() { return AtomFn(); }                            \
    __device__ static void fma(float* d, Value const* a, Value const* b) {                     \
      ptx::Instr(*reinterpret_cast<float(*)[4]>(d), *reinterpret_cast<uint32_t const(*)[4]>(a), \
                 *reinterpret_cast<uint32_t const(*)[2]>(b), *reinterpret_cast<float(*)[4]>(d)); \
    }                                                                                          \
  };
// mma.sync m16n8k16 (two 16-bit values per register) and m16n8k8 tf32, f32 accumulators.
TESSERA_MMA_SYNC_OP(SM80_16x8x16_F32F16F16F32_TN, sm80_16x8x16_f32f16, __half, __half, 8, 4,
                    mma_m16n8k16_f32f16)
TESSERA_MMA_SYNC_OP(SM80_16x8x16_F32BF16BF16F32_TN, sm80_16x8x16_f32bf16, __nv_bfloat16,
                    __nv_bfloat16, 8, 4, mma_m16n8k16_f32bf16)
TESSERA_MMA_SYNC_OP(SM80_16x8x8_F32TF32TF32F32_TN, sm80_16x8x8_f32tf32, tf32, float, 4, 2,
                    mma_m16n8k8_f32tf32)
#else
// Host compilers without CUDA's 16-bit types: the atoms only (their layouts are the same).
#define TESSERA_MMA_SYNC_OP(Name, AtomFn)                                                      \
  struct Name {                                                                                \
    TESSERA_HD static constexpr MmaAtom atom() { return AtomFn(); }                            \
  };
TESSERA_MMA_SYNC_OP(SM80_16x8x16_F32F16F16F32_TN, sm80_16x8x16_f32f16)
TESSERA_MMA_SYNC_OP(SM80_16x8x16_F32BF16BF16F32_TN, sm80_16x8x16_f32bf16)
TESSERA_MMA_SYNC_OP(SM80_16x8x8_F32TF32TF32F32_TN, sm80_16x8x8_f32tf32)
#endif
#undef TESSERA_MMA_SYNC_OP
}  // namespace atom

}  // namespace tessera
