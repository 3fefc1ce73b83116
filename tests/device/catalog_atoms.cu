// Device test: the atom catalog's layouts (tessera/atom/catalog.hpp) against what Hopper does, one
// atom or more per family: f64 (m8n8k4, m16n8k{4,8,16}), s8 (m16n8k32), tf32 (m16n8k4), bf16
// (m16n8k8), fp8 e4m3 (m16n8k32) mma.sync; ldmatrix x1/x2/x4 with and without .trans; stmatrix
// x1/x2/x4 with and without .trans.
//
// MMA: the host places A[m][k] in thread t's value v where m + M*k = a_tv(t, v) (B likewise,
// C's values at c_tv), packs the values into registers in value order (low bits first), runs
// the instruction once and checks every accumulator against the reference sum. A wrong stride or
// a swapped mode gives wrong values at the predicted places.
// ldmatrix: shared memory holds element i at index i of the atom's tile; lane t supplies the
// address of element src_tv(t, 0) (its row); register value (t, v) must hold dst_tv(t, v).
// stmatrix: register value (t, v) holds src_tv(t, v); lane t supplies the address of dst_tv(t, 0);
// afterwards shared memory must hold i at every index i of the tile.
//
// Run on the GPU machine (exit 0: every atom matches):  OUT=/tmp/out scripts/gpu.sh atoms
//   or: nvcc -std=c++20 -O2 -gencode=arch=compute_90a,code=sm_90a -Iinclude \
//         tests/device/catalog_atoms.cu -o catalog_atoms && ./catalog_atoms
#include <cuda_bf16.h>
#include <cuda_fp8.h>

#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include <tessera.hpp>
#include <tessera/atom/catalog.hpp>
#include "harness.cuh"

using namespace tessera;

enum class Op {
  kF64_8x8x4,
  kF64_16x8x4,
  kF64_16x8x8,
  kF64_16x8x16,
  kS8_16x8x32,
  kTF32_16x8x4,
  kBF16_16x8x8,
  kE4M3_16x8x32
};

// Each lane's registers as 32-bit words (a 64-bit register is two words, low first).
constexpr int kWordsA = 16, kWordsB = 8, kWordsC = 8;

__device__ inline double as_double(uint32_t const* w) {
  return __hiloint2double(int(w[1]), int(w[0]));
}
__device__ inline void put_double(uint32_t* w, double x) {
  w[0] = uint32_t(__double2loint(x));
  w[1] = uint32_t(__double2hiint(x));
}

__global__ void run_mma(Op op, uint32_t const* a_all, uint32_t const* b_all, uint32_t* c_all) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  int lane = threadIdx.x;
  uint32_t a[kWordsA], b[kWordsB], c[kWordsC] = {};
  for (int i = 0; i < kWordsA; ++i) a[i] = a_all[lane * kWordsA + i];
  for (int i = 0; i < kWordsB; ++i) b[i] = b_all[lane * kWordsB + i];
  switch (op) {
    case Op::kF64_8x8x4: {
      double d0, d1;
      asm volatile("mma.sync.aligned.m8n8k4.row.col.f64.f64.f64.f64 {%0,%1}, {%2}, {%3}, {%4,%5};\n"
                   : "=d"(d0), "=d"(d1)
                   : "d"(as_double(a)), "d"(as_double(b)), "d"(0.0), "d"(0.0));
      put_double(c, d0), put_double(c + 2, d1);
      break;
    }
    case Op::kF64_16x8x4: {
      double d[4];
      asm volatile(
          "mma.sync.aligned.m16n8k4.row.col.f64.f64.f64.f64 {%0,%1,%2,%3}, {%4,%5}, {%6}, "
          "{%7,%8,%9,%10};\n"
          : "=d"(d[0]), "=d"(d[1]), "=d"(d[2]), "=d"(d[3])
          : "d"(as_double(a)), "d"(as_double(a + 2)), "d"(as_double(b)), "d"(0.0), "d"(0.0),
            "d"(0.0), "d"(0.0));
      for (int i = 0; i < 4; ++i) put_double(c + 2 * i, d[i]);
      break;
    }
    case Op::kF64_16x8x8: {
      double d[4];
      asm volatile(
          "mma.sync.aligned.m16n8k8.row.col.f64.f64.f64.f64 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, "
          "{%10,%11,%12,%13};\n"
          : "=d"(d[0]), "=d"(d[1]), "=d"(d[2]), "=d"(d[3])
          : "d"(as_double(a)), "d"(as_double(a + 2)), "d"(as_double(a + 4)), "d"(as_double(a + 6)),
            "d"(as_double(b)), "d"(as_double(b + 2)), "d"(0.0), "d"(0.0), "d"(0.0), "d"(0.0));
      for (int i = 0; i < 4; ++i) put_double(c + 2 * i, d[i]);
      break;
    }
    case Op::kF64_16x8x16: {
      double d[4];
      asm volatile(
          "mma.sync.aligned.m16n8k16.row.col.f64.f64.f64.f64 {%0,%1,%2,%3}, "
          "{%4,%5,%6,%7,%8,%9,%10,%11}, "
          "{%12,%13,%14,%15}, {%16,%17,%18,%19};\n"
          : "=d"(d[0]), "=d"(d[1]), "=d"(d[2]), "=d"(d[3])
          : "d"(as_double(a)), "d"(as_double(a + 2)), "d"(as_double(a + 4)), "d"(as_double(a + 6)),
            "d"(as_double(a + 8)), "d"(as_double(a + 10)), "d"(as_double(a + 12)),
            "d"(as_double(a + 14)), "d"(as_double(b)), "d"(as_double(b + 2)), "d"(as_double(b + 4)),
            "d"(as_double(b + 6)), "d"(0.0), "d"(0.0), "d"(0.0), "d"(0.0));
      for (int i = 0; i < 4; ++i) put_double(c + 2 * i, d[i]);
      break;
    }
    case Op::kS8_16x8x32: {
      int d[4];
      asm volatile(
          "mma.sync.aligned.m16n8k32.row.col.s32.s8.s8.s32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, "
          "{%10,%11,%12,%13};\n"
          : "=r"(d[0]), "=r"(d[1]), "=r"(d[2]), "=r"(d[3])
          : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]), "r"(0), "r"(0),
            "r"(0), "r"(0));
      for (int i = 0; i < 4; ++i) c[i] = uint32_t(d[i]);
      break;
    }
    case Op::kTF32_16x8x4:
    case Op::kBF16_16x8x8: {
      float d[4];
      if (op == Op::kTF32_16x8x4)
        asm volatile(
            "mma.sync.aligned.m16n8k4.row.col.f32.tf32.tf32.f32 {%0,%1,%2,%3}, {%4,%5}, {%6}, "
            "{%7,%8,%9,%10};\n"
            : "=f"(d[0]), "=f"(d[1]), "=f"(d[2]), "=f"(d[3])
            : "r"(a[0]), "r"(a[1]), "r"(b[0]), "f"(0.f), "f"(0.f), "f"(0.f), "f"(0.f));
      else
        asm volatile(
            "mma.sync.aligned.m16n8k8.row.col.f32.bf16.bf16.f32 {%0,%1,%2,%3}, {%4,%5}, {%6}, "
            "{%7,%8,%9,%10};\n"
            : "=f"(d[0]), "=f"(d[1]), "=f"(d[2]), "=f"(d[3])
            : "r"(a[0]), "r"(a[1]), "r"(b[0]), "f"(0.f), "f"(0.f), "f"(0.f), "f"(0.f));
      for (int i = 0; i < 4; ++i) c[i] = __float_as_uint(d[i]);
      break;
    }
    case Op::kE4M3_16x8x32: {
      float d[4];
      asm volatile(
          "mma.sync.aligned.m16n8k32.row.col.f32.e4m3.e4m3.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, "
          "{%8,%9}, "
          "{%10,%11,%12,%13};\n"
          : "=f"(d[0]), "=f"(d[1]), "=f"(d[2]), "=f"(d[3])
          : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]), "f"(0.f), "f"(0.f),
            "f"(0.f), "f"(0.f));
      for (int i = 0; i < 4; ++i) c[i] = __float_as_uint(d[i]);
      break;
    }
  }
  for (int i = 0; i < kWordsC; ++i) c_all[lane * kWordsC + i] = c[i];
#endif
}

// Small integers: exact in every type here, and so are their dot products.
double a_value(int64_t m, int64_t k) { return double((m * 3 + k * 5) % 7 - 3); }
double b_value(int64_t n, int64_t k) { return double((n * 2 + k * 7) % 5 - 2); }

enum class Type { kF64, kS8, kTF32, kBF16, kE4M3, kF32, kS32 };
int bits_of(Type t) {
  return t == Type::kF64 ? 64 : t == Type::kS8 || t == Type::kE4M3 ? 8 : t == Type::kBF16 ? 16 : 32;
}
uint64_t encode(Type t, double x) {
  switch (t) {
    case Type::kF64: { uint64_t u; std::memcpy(&u, &x, 8); return u; }
    case Type::kS8: return uint8_t(int8_t(x));
    case Type::kTF32: { float f = float(x); uint32_t u; std::memcpy(&u, &f, 4); return u; }
    case Type::kBF16: {
      __nv_bfloat16 h = __float2bfloat16(float(x));
      uint16_t u;
      std::memcpy(&u, &h, 2);
      return u;
    }
    case Type::kE4M3: { __nv_fp8_e4m3 e{static_cast<float>(x)}; return e.__x; }
    default: return 0;
  }
}
double decode(Type t, uint32_t const* w) {
  if (t == Type::kF64) {
    uint64_t u = uint64_t(w[0]) | uint64_t(w[1]) << 32;
    double d;
    std::memcpy(&d, &u, 8);
    return d;
  }
  if (t == Type::kS32) return double(int32_t(w[0]));
  float f; std::memcpy(&f, w, 4); return f;
}

// Thread t's values of a TV layout in registers: value v at bit v * bits of the thread's words.
std::vector<uint32_t> pack(Type t, Layout const& tv, int64_t rows, int words,
                           double (*value)(int64_t, int64_t)) {
  std::vector<uint32_t> out(32 * words, 0);
  int bits = bits_of(t);
  for (int64_t thr = 0; thr < 32; ++thr) {
    for (int64_t v = 0; v < tv[1].size(); ++v) {
      int64_t idx = tv(thr, v);
      uint64_t x = encode(t, value(idx % rows, idx / rows));
      int64_t bit = v * bits;
      if (bit + bits > 32 * words) {
        std::printf("  too many values for the register file\n");
        std::exit(2);
      }
      out[thr * words + bit / 32] |= uint32_t(x << (bit % 32));
      if (bits == 64) out[thr * words + bit / 32 + 1] = uint32_t(x >> 32);
    }
  }
  return out;
}

bool check_mma(const char* name, Op op, Type in, Type acc) {
  catalog::AtomRef r = catalog::find_mma(name);
  if (!r.found()) { std::printf("%-34s NOT IN THE CATALOG\n", name); return false; }
  MmaAtom atom = catalog::mma_atom(r);
  auto a = pack(in, atom.a_tv, atom.m, kWordsA, a_value);
  auto b = pack(in, atom.b_tv, atom.n, kWordsB, b_value);
  uint32_t *da, *db, *dc;
  CHECK_CUDA(cudaMalloc(&da, a.size() * 4));
  CHECK_CUDA(cudaMalloc(&db, b.size() * 4));
  CHECK_CUDA(cudaMalloc(&dc, 32 * kWordsC * 4));
  CHECK_CUDA(cudaMemcpy(da, a.data(), a.size() * 4, cudaMemcpyHostToDevice));
  CHECK_CUDA(cudaMemcpy(db, b.data(), b.size() * 4, cudaMemcpyHostToDevice));
  CHECK_CUDA(cudaMemset(dc, 0xff, 32 * kWordsC * 4));  // poison: NaN / -1
  run_mma<<<1, 32>>>(op, da, db, dc);
  CHECK_CUDA(cudaGetLastError());
  std::vector<uint32_t> c(32 * kWordsC);
  CHECK_CUDA(cudaMemcpy(c.data(), dc, c.size() * 4, cudaMemcpyDeviceToHost));
  cudaFree(da), cudaFree(db), cudaFree(dc);
  int bad = 0, words = bits_of(acc) / 32;
  for (int64_t t = 0; t < 32; ++t) {
    for (int64_t v = 0; v < atom.values_c(); ++v) {
      int64_t idx = atom.c_tv(t, v), m = idx % atom.m, n = idx / atom.m;
      double want = 0;
      for (int64_t k = 0; k < atom.k; ++k) want += a_value(m, k) * b_value(n, k);
      double got = decode(acc, &c[t * kWordsC + v * words]);
      if (got != want && bad++ < 4)
        std::printf("  lane %lld value %lld (m=%lld, n=%lld): got %g, want %g\n", (long long)t,
                    (long long)v, (long long)m, (long long)n, got, want);
    }
  }
  std::printf("%-34s %s (%lld accumulators)\n", name, bad ? "MISMATCH" : "matches the hardware",
              (long long)(32 * atom.values_c()));
  return bad == 0;
}

// ---- ldmatrix / stmatrix ------------------------------------------------------------------------

// The atom's tile: at most 32 rows of 8 halves.
constexpr int kTile = 256;

__global__ void run_ldmatrix(int count, bool trans, int const* row_of_lane, uint32_t* out) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  __shared__ __align__(16) uint16_t tile[kTile];
  int lane = threadIdx.x;
  for (int i = lane; i < kTile; i += 32) tile[i] = uint16_t(i);
  __syncwarp();
  uint32_t addr = uint32_t(__cvta_generic_to_shared(&tile[row_of_lane[lane]]));
  uint32_t r[4] = {0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu};
  if (count == 1 && !trans)
    asm volatile("ldmatrix.sync.aligned.x1.m8n8.shared.b16 {%0}, [%1];\n" : "=r"(r[0]) : "r"(addr));
  if (count == 1 && trans)
    asm volatile("ldmatrix.sync.aligned.x1.trans.m8n8.shared.b16 {%0}, [%1];\n"
                 : "=r"(r[0])
                 : "r"(addr));
  if (count == 2 && !trans)
    asm volatile("ldmatrix.sync.aligned.x2.m8n8.shared.b16 {%0,%1}, [%2];\n"
                 : "=r"(r[0]), "=r"(r[1])
                 : "r"(addr));
  if (count == 2 && trans)
    asm volatile("ldmatrix.sync.aligned.x2.trans.m8n8.shared.b16 {%0,%1}, [%2];\n"
                 : "=r"(r[0]), "=r"(r[1])
                 : "r"(addr));
  if (count == 4 && !trans)
    asm volatile("ldmatrix.sync.aligned.x4.m8n8.shared.b16 {%0,%1,%2,%3}, [%4];\n"
                 : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3]) : "r"(addr));
  if (count == 4 && trans)
    asm volatile("ldmatrix.sync.aligned.x4.trans.m8n8.shared.b16 {%0,%1,%2,%3}, [%4];\n"
                 : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3]) : "r"(addr));
  for (int i = 0; i < 4; ++i) out[lane * 4 + i] = r[i];
#endif
}

__global__ void run_stmatrix(int count, bool trans, int const* row_of_lane, uint32_t const* regs,
                             uint16_t* out) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  __shared__ __align__(16) uint16_t tile[kTile];
  int lane = threadIdx.x;
  for (int i = lane; i < kTile; i += 32) tile[i] = 0xffff;  // poison
  __syncwarp();
  uint32_t addr = uint32_t(__cvta_generic_to_shared(&tile[row_of_lane[lane]]));
  uint32_t r[4];
  for (int i = 0; i < 4; ++i) r[i] = regs[lane * 4 + i];
  if (count == 1 && !trans)
    asm volatile("stmatrix.sync.aligned.x1.m8n8.shared.b16 [%0], {%1};\n" ::"r"(addr), "r"(r[0])
                 : "memory");
  if (count == 1 && trans)
    asm volatile("stmatrix.sync.aligned.x1.trans.m8n8.shared.b16 [%0], {%1};\n" ::"r"(addr),
                 "r"(r[0])
                 : "memory");
  if (count == 2 && !trans)
    asm volatile("stmatrix.sync.aligned.x2.m8n8.shared.b16 [%0], {%1,%2};\n" ::"r"(addr), "r"(r[0]),
                 "r"(r[1])
                 : "memory");
  if (count == 2 && trans)
    asm volatile("stmatrix.sync.aligned.x2.trans.m8n8.shared.b16 [%0], {%1,%2};\n" ::"r"(addr),
                 "r"(r[0]), "r"(r[1])
                 : "memory");
  if (count == 4 && !trans)
    asm volatile("stmatrix.sync.aligned.x4.m8n8.shared.b16 [%0], {%1,%2,%3,%4};\n" ::"r"(addr),
                 "r"(r[0]), "r"(r[1]), "r"(r[2]), "r"(r[3])
                 : "memory");
  if (count == 4 && trans)
    asm volatile(
        "stmatrix.sync.aligned.x4.trans.m8n8.shared.b16 [%0], {%1,%2,%3,%4};\n" ::"r"(addr),
        "r"(r[0]), "r"(r[1]), "r"(r[2]), "r"(r[3])
        : "memory");
  __syncwarp();
  for (int i = lane; i < kTile; i += 32) out[i] = tile[i];
#endif
}

// The element each lane's row address points at: its first value in the shared-memory layout.
std::vector<int> row_addresses(Layout const& smem_tv) {
  std::vector<int> rows(32);
  for (int t = 0; t < 32; ++t) rows[t] = int(smem_tv(t, 0));
  return rows;
}

bool check_ldmatrix(const char* name, int count, bool trans) {
  CopyAtom atom = catalog::copy_atom(catalog::find_copy(name), 16);
  std::vector<int> rows = row_addresses(atom.src_tv);
  int* drows;
  uint32_t* d;
  CHECK_CUDA(cudaMalloc(&drows, 32 * 4));
  CHECK_CUDA(cudaMalloc(&d, 32 * 4 * 4));
  CHECK_CUDA(cudaMemcpy(drows, rows.data(), 32 * 4, cudaMemcpyHostToDevice));
  run_ldmatrix<<<1, 32>>>(count, trans, drows, d);
  CHECK_CUDA(cudaGetLastError());
  std::vector<uint32_t> r(32 * 4);
  CHECK_CUDA(cudaMemcpy(r.data(), d, r.size() * 4, cudaMemcpyDeviceToHost));
  cudaFree(d), cudaFree(drows);
  int bad = 0;
  int64_t values = atom.dst_tv[1].size();
  for (int t = 0; t < 32; ++t) {
    for (int64_t v = 0; v < values; ++v) {
      int64_t got = uint16_t(r[t * 4 + v / 2] >> (16 * (v % 2)));
      int64_t want = atom.dst_tv(t, v);
      if (got != want && bad++ < 4)
        std::printf("  lane %d value %lld: got %lld, want %lld\n", t, (long long)v, (long long)got,
                    (long long)want);
    }
  }
  std::printf("%-34s %s (%lld values)\n", name, bad ? "MISMATCH" : "matches the hardware",
              (long long)(32 * values));
  return bad == 0;
}

bool check_stmatrix(const char* name, int count, bool trans) {
  CopyAtom atom = catalog::copy_atom(catalog::find_copy(name), 16);
  std::vector<int> rows = row_addresses(atom.dst_tv);
  std::vector<uint32_t> regs(32 * 4, 0);
  int64_t values = atom.src_tv[1].size();
  for (int t = 0; t < 32; ++t)
    for (int64_t v = 0; v < values; ++v)
      regs[t * 4 + v / 2] |= uint32_t(atom.src_tv(t, v)) << (16 * (v % 2));
  int* drows;
  uint32_t* dregs;
  uint16_t* dout;
  CHECK_CUDA(cudaMalloc(&drows, 32 * 4));
  CHECK_CUDA(cudaMalloc(&dregs, regs.size() * 4));
  CHECK_CUDA(cudaMalloc(&dout, kTile * 2));
  CHECK_CUDA(cudaMemcpy(drows, rows.data(), 32 * 4, cudaMemcpyHostToDevice));
  CHECK_CUDA(cudaMemcpy(dregs, regs.data(), regs.size() * 4, cudaMemcpyHostToDevice));
  run_stmatrix<<<1, 32>>>(count, trans, drows, dregs, dout);
  CHECK_CUDA(cudaGetLastError());
  std::vector<uint16_t> out(kTile);
  CHECK_CUDA(cudaMemcpy(out.data(), dout, kTile * 2, cudaMemcpyDeviceToHost));
  cudaFree(drows), cudaFree(dregs), cudaFree(dout);
  int64_t tile = 32 * values;  // 64 halves per matrix
  int bad = 0;
  for (int64_t i = 0; i < tile; ++i)
    if (out[i] != i && bad++ < 4)
      std::printf("  element %lld: got %d, want %lld\n", (long long)i, out[i], (long long)i);
  std::printf("%-34s %s (%lld values)\n", name, bad ? "MISMATCH" : "matches the hardware",
              (long long)tile);
  return bad == 0;
}

int main() {
  cudaDeviceProp p;
  CHECK_CUDA(cudaGetDeviceProperties(&p, 0));
  std::printf("device: %s (sm_%d%d)\n", p.name, p.major, p.minor);
  if (p.major < 9) {
    std::printf("SKIPPED: needs sm_90\n");
    return 77;
  }
  bool ok = true;
  ok &= check_mma("SM80_8x8x4_F64F64F64F64_TN", Op::kF64_8x8x4, Type::kF64, Type::kF64);
  ok &= check_mma("SM90_16x8x4_F64F64F64F64_TN", Op::kF64_16x8x4, Type::kF64, Type::kF64);
  ok &= check_mma("SM90_16x8x8_F64F64F64F64_TN", Op::kF64_16x8x8, Type::kF64, Type::kF64);
  ok &= check_mma("SM90_16x8x16_F64F64F64F64_TN", Op::kF64_16x8x16, Type::kF64, Type::kF64);
  ok &= check_mma("SM80_16x8x32_S32S8S8S32_TN", Op::kS8_16x8x32, Type::kS8, Type::kS32);
  ok &= check_mma("SM80_16x8x4_F32TF32TF32F32_TN", Op::kTF32_16x8x4, Type::kTF32, Type::kF32);
  ok &= check_mma("SM80_16x8x8_F32BF16BF16F32_TN", Op::kBF16_16x8x8, Type::kBF16, Type::kF32);
  ok &= check_mma("SM89_16x8x32_F32E4M3E4M3F32_TN", Op::kE4M3_16x8x32, Type::kE4M3, Type::kF32);
  ok &= check_ldmatrix("SM75_U32x1_LDSM_N", 1, false);
  ok &= check_ldmatrix("SM75_U32x2_LDSM_N", 2, false);
  ok &= check_ldmatrix("SM75_U32x4_LDSM_N", 4, false);
  ok &= check_ldmatrix("SM75_U16x2_LDSM_T", 1, true);
  ok &= check_ldmatrix("SM75_U16x4_LDSM_T", 2, true);
  ok &= check_ldmatrix("SM75_U16x8_LDSM_T", 4, true);
  ok &= check_stmatrix("SM90_U32x1_STSM_N", 1, false);
  ok &= check_stmatrix("SM90_U32x2_STSM_N", 2, false);
  ok &= check_stmatrix("SM90_U32x4_STSM_N", 4, false);
  ok &= check_stmatrix("SM90_U16x2_STSM_T", 1, true);
  ok &= check_stmatrix("SM90_U16x4_STSM_T", 2, true);
  ok &= check_stmatrix("SM90_U16x8_STSM_T", 4, true);
  std::printf("%s\n", ok ? "all catalog atoms checked match the hardware"
                         : "SOME CATALOG ATOMS DO NOT MATCH");
  return ok ? 0 : 1;
}
