// Device test: the TV layouts of the MMA and ldmatrix atoms against what the hardware does.
//
// For each atom the host lays out the inputs with tessera's layouts: thread t's value v of A is
// A[m][k] with m + M*k = a_tv(t, v), and likewise for B. The GPU runs the instruction once; the
// host then checks every thread's C value v against the reference at c_tv(t, v). A wrong layout
// (a swapped mode, a wrong stride) gives wrong values at the predicted places.
//
// Run on the GPU machine: nvcc -std=c++20 -O2 -gencode=arch=compute_90a,code=sm_90a -Iinclude \
//   tests/device/atoms.cu -o atoms && ./atoms        (exit 0: every atom matches)
#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include <cstdio>
#include <cstring>
#include <vector>

#include <tessera.hpp>
#include "harness.cuh"

using namespace tessera;


enum class Kind { kF16, kBF16, kTF32 };

// One mma per warp: a/b hold each lane's registers in value order (2 halves per register for
// f16/bf16, one tf32 per register), c receives each lane's 4 accumulators in value order.
__global__ void run_mma(Kind kind, uint32_t const* a, uint32_t const* b, float* c) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  int lane = threadIdx.x;
  uint32_t ra[4], rb[2];
  for (int i = 0; i < 4; ++i) ra[i] = a[lane * 4 + i];
  for (int i = 0; i < 2; ++i) rb[i] = b[lane * 2 + i];
  float rc[4] = {0, 0, 0, 0}, rd[4];
  if (kind == Kind::kF16) ptx::mma_m16n8k16_f32f16(rd, ra, rb, rc);
  if (kind == Kind::kBF16) ptx::mma_m16n8k16_f32bf16(rd, ra, rb, rc);
  if (kind == Kind::kTF32) ptx::mma_m16n8k8_f32tf32(rd, ra, rb, rc);
  for (int i = 0; i < 4; ++i) c[lane * 4 + i] = rd[i];
#endif
}

// Small integers: exact in f16, bf16 and tf32, and their dot products exact in f32.
float a_value(int m, int k) { return float((m * 3 + k * 5) % 7 - 3); }
float b_value(int n, int k) { return float((n * 2 + k * 7) % 5 - 2); }

uint32_t bits_of(Kind kind, float x) {
  if (kind == Kind::kTF32) {
    uint32_t u;
    std::memcpy(&u, &x, 4);
    return u;
  }
  uint16_t h;
  if (kind == Kind::kF16) {
    __half v = __float2half(x);
    std::memcpy(&h, &v, 2);
  } else {
    __nv_bfloat16 v = __float2bfloat16(x);
    std::memcpy(&h, &v, 2);
  }
  return h;
}

// Packs thread t's values of a TV layout into registers: 2 values per 32-bit register for 16-bit
// types (value 2i in the low half), 1 for tf32.
std::vector<uint32_t> pack(Kind kind, Layout const& tv, int rows, int regs,
                           float (*value)(int, int)) {
  std::vector<uint32_t> out(32 * regs, 0);
  int per_reg = kind == Kind::kTF32 ? 1 : 2;
  for (int t = 0; t < 32; ++t) {
    for (int v = 0; v < tv[1].size(); ++v) {
      int64_t idx = tv(t, v);
      uint32_t x = bits_of(kind, value(int(idx % rows), int(idx / rows)));
      out[t * regs + v / per_reg] |= x << (16 * (v % per_reg));
    }
  }
  return out;
}

bool check_mma(Kind kind, MmaAtom const& atom) {
  int regs_a = 4, regs_b = 2;
  auto a = pack(kind, atom.a_tv, int(atom.m), regs_a, a_value);
  auto b = pack(kind, atom.b_tv, int(atom.n), regs_b, b_value);
  uint32_t *da, *db;
  float* dc;
  CHECK_CUDA(cudaMalloc(&da, a.size() * 4));
  CHECK_CUDA(cudaMalloc(&db, b.size() * 4));
  CHECK_CUDA(cudaMalloc(&dc, 32 * 4 * 4));
  CHECK_CUDA(cudaMemcpy(da, a.data(), a.size() * 4, cudaMemcpyHostToDevice));
  CHECK_CUDA(cudaMemcpy(db, b.data(), b.size() * 4, cudaMemcpyHostToDevice));
  CHECK_CUDA(cudaMemset(dc, 0xff, 32 * 4 * 4));  // poison: NaN
  run_mma<<<1, 32>>>(kind, da, db, dc);
  CHECK_CUDA(cudaGetLastError());
  std::vector<float> c(32 * 4);
  CHECK_CUDA(cudaMemcpy(c.data(), dc, c.size() * 4, cudaMemcpyDeviceToHost));
  int bad = 0;
  for (int t = 0; t < 32; ++t) {
    for (int v = 0; v < 4; ++v) {
      int64_t idx = atom.c_tv(t, v);
      int m = int(idx % atom.m), n = int(idx / atom.m);
      float want = 0;
      for (int k = 0; k < atom.k; ++k) want += a_value(m, k) * b_value(n, k);
      if (c[t * 4 + v] != want && bad++ < 4)
        std::printf("  lane %d value %d (m=%d, n=%d): got %g, want %g\n", t, v, m, n, c[t * 4 + v],
                    want);
    }
  }
  cudaFree(da), cudaFree(db), cudaFree(dc);
  std::printf("%-34s %s (128 accumulators checked)\n", atom.name,
              bad ? "MISMATCH" : "matches the hardware");
  return bad == 0;
}

// ldmatrix x4: lane t gives the address of row t of a 32x8 half matrix holding 0..255.
__global__ void run_ldmatrix(uint32_t* out, bool trans) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  __shared__ __half tile[256];
  int lane = threadIdx.x;
  for (int i = lane; i < 256; i += 32) tile[i] = __float2half(float(i));
  __syncwarp();
  uint32_t r[4];
  if (trans) ptx::ldmatrix_x4_trans(r, &tile[lane * 8]);
  else ptx::ldmatrix_x4(r, &tile[lane * 8]);
  for (int i = 0; i < 4; ++i) out[lane * 4 + i] = r[i];
#endif
}

bool check_ldmatrix(bool trans) {
  CopyAtom atom = atom::ldmatrix(4, trans);
  uint32_t* d;
  CHECK_CUDA(cudaMalloc(&d, 32 * 4 * 4));
  run_ldmatrix<<<1, 32>>>(d, trans);
  CHECK_CUDA(cudaGetLastError());
  std::vector<uint32_t> r(32 * 4);
  CHECK_CUDA(cudaMemcpy(r.data(), d, r.size() * 4, cudaMemcpyDeviceToHost));
  cudaFree(d);
  // The source layout says which element each lane's row holds; the destination layout which
  // element lands in each lane's value v (2 halves per register, low half first).
  int bad = 0;
  for (int t = 0; t < 32; ++t) {
    for (int v = 0; v < 8; ++v) {
      uint16_t h = uint16_t(r[t * 4 + v / 2] >> (16 * (v % 2)));
      __half x;
      std::memcpy(&x, &h, 2);
      int64_t want = atom.dst_tv(t, v);  // element index in the (lane, row-value) frame of src
      if (int64_t(__half2float(x)) != want && bad++ < 4)
        std::printf("  lane %d value %d: got %g, want %lld\n", t, v, __half2float(x),
                    (long long)want);
    }
  }
  std::printf("%-34s %s (256 values checked)\n", atom.name,
              bad ? "MISMATCH" : "matches the hardware");
  return bad == 0;
}

// The seeds' TiledMMAs and every atom, evaluated in device code: each thread computes its own
// partition of C (offset + fragment) and writes the offsets; the host compares with the library.
struct Step1 {
  static constexpr TiledMMA mma = presets::step1();
  static constexpr Layout C = parse_layout("(128,128):(128,1)");
};
struct Step4 {
  static constexpr TiledMMA mma = presets::step4();
  static constexpr Layout C = parse_layout("(128,128):(128,1)");
};
struct Atoms {
  MmaAtom mma[6] = {atom::universal_fma(), atom::sm80_16x8x16_f32f16(),
                                    atom::sm80_16x8x16_f32bf16(), atom::sm80_16x8x8_f32tf32(),
                                    atom::sm90_64xNx16(256, false), atom::sm90_64xNx16(128, true)};
  CopyAtom copy[5] = {atom::universal_copy(128, 32), atom::cp_async(16, 32),
                                      atom::ldmatrix(1, false), atom::ldmatrix(2, true),
                                      atom::ldmatrix(4, false)};
};

template <class Config>
__global__ void partition_offsets(int64_t* out) {
  // The derivation is folded at compile time into thread -> offset and the fragment; only one
  // layout evaluation per thread runs. A static constexpr local is a device constant (a class
  // member used by reference in device code is not).
  static constexpr ThreadPartition part = Config::mma.partitioner(Operand::kC, Config::C);
  View v = part(threadIdx.x);
  for (int64_t i = 0; i < v.layout.size(); ++i) out[threadIdx.x * v.layout.size() + i] = v(i);
}

__global__ void atom_sizes(int64_t* out) {
  static constexpr Atoms atoms{};
  int i = threadIdx.x;
  if (i < 6) out[i] = atoms.mma[i].c_tv.size();
  if (i < 5) out[6 + i] = atoms.copy[i].src_tv.size();
}

template <class Config>
bool check_partition(const char* name) {
  int64_t threads = Config::mma.threads(),
          per = Config::mma.partition_C(Config::C, 0).layout.size();
  int64_t* d;
  CHECK_CUDA(cudaMalloc(&d, threads * per * 8));
  partition_offsets<Config><<<1, int(threads)>>>(d);
  CHECK_CUDA(cudaGetLastError());
  std::vector<int64_t> got(threads * per);
  CHECK_CUDA(cudaMemcpy(got.data(), d, got.size() * 8, cudaMemcpyDeviceToHost));
  cudaFree(d);
  int bad = 0;
  for (int64_t t = 0; t < threads; ++t) {
    View v = Config::mma.partition_C(Config::C, t);
    for (int64_t i = 0; i < per; ++i) bad += got[t * per + i] != v(i);
  }
  std::printf("%-34s %s (%lld offsets)\n", name,
              bad ? "MISMATCH between device and host" : "device == host",
              (long long)(threads * per));
  return bad == 0;
}

int main() {
  cudaDeviceProp p;
  CHECK_CUDA(cudaGetDeviceProperties(&p, 0));
  std::printf("device: %s (sm_%d%d)\n", p.name, p.major, p.minor);
  bool ok = true;
  ok &= check_mma(Kind::kF16, atom::sm80_16x8x16_f32f16());
  ok &= check_mma(Kind::kBF16, atom::sm80_16x8x16_f32bf16());
  ok &= check_mma(Kind::kTF32, atom::sm80_16x8x8_f32tf32());
  ok &= check_ldmatrix(false);
  ok &= check_ldmatrix(true);
  ok &= check_partition<Step1>("step1 partition_C on the device");
  ok &= check_partition<Step4>("step4 partition_C on the device");
  int64_t* sizes;
  CHECK_CUDA(cudaMalloc(&sizes, 11 * 8));
  atom_sizes<<<1, 32>>>(sizes);
  CHECK_CUDA(cudaDeviceSynchronize());
  cudaFree(sizes);
  std::printf("%s\n", ok ? "all atoms match the hardware" : "SOME ATOMS DO NOT MATCH");
  return ok ? 0 : 1;
}
