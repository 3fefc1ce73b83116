// Device test: wgmma and TMA driven by tessera/gmma.hpp and tessera/tma.hpp, against the hardware.
//
//   1. gemm(GmmaTensor A, GmmaTensor B, acc) for N = 8, 64, 128, 136, 256, f16 / bf16 / tf32 /
//      e4m3 / e5m2, SS and RS, A and B each K-major or MN-major (FP8 and tf32: K-major) with the
//      swizzle modes none, 32B, 64B, 128B: the
//      descriptors come from make_gmma_operand of the stage tile's layout. The host writes an
//      image of each tile (element (r, k) at tile(r, k), swizzle applied), one warpgroup copies
//      it to shared memory and runs one k-tile (BK = one 128-byte row: 4 wgmma k-steps), the
//      accumulators go out through the atom's C layout (sm90_64xNx16.c_tv) and are compared
//      exactly with the integer product (inputs are small integers: exact in every type).
//   2. TMA: for every swizzle mode and both majors, a tile from make_tma_tile(gmma_smem_tile(..))
//      loaded by copy(TmaLoad) from a (104, 72) tensor at an origin where the box runs past the
//      tensor's end (zeros there), checked element by element through the tile's layout; then
//      new values stored back by copy(TmaStore), which must write exactly the in-bounds part.
//
// Run on the GPU machine (scripts/gpu.sh hopper builds and runs it):
//   nvcc -std=c++20 -O3 -arch=sm_90a -Iinclude tests/device/hopper_layouts.cu
//     -o hopper_layouts -lcuda && ./hopper_layouts
//   (exit 0: every case matches; 1: a mismatch; 2: a CUDA error or not an sm_90 device)
#include <cuda.h>
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_fp8.h>

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <random>
#include <vector>

#include <tessera.hpp>
#include <tessera/gmma.hpp>
#include <tessera/tma.hpp>

#include "harness.cuh"

using namespace tessera;

namespace {

int failures = 0;

template <class T>
T to_elem(float x) {
  if constexpr (std::is_same_v<T, __half>) return __float2half_rn(x);
  else if constexpr (std::is_same_v<T, __nv_bfloat16>) return __float2bfloat16_rn(x);
  else if constexpr (sizeof(T) == 1) return T(x);  // FP8: small integers are exact
  else return x;
}

// ---- 1. wgmma -----------------------------------------------------------------------------------
struct Case {
  int n;
  bool a_k_major;
  GmmaSwizzle a_sw;
  bool b_k_major;
  GmmaSwizzle b_sw;
  bool rs;  // A from registers
};

template <class T>
constexpr int64_t kBits = int64_t(sizeof(T)) * 8;
template <class T>
constexpr int64_t kBK = 1024 / kBits<T>;  // one 128-byte row of K
template <class T>
constexpr int64_t kInstK = 256 / kBits<T>;

// (Kernels are templated on this type, not on Case: nvcc's host stub cannot spell a class-type
// template argument of a kernel: nvcc cannot spell it in the host stub.)
template <class T_, Case C_>
struct Config {
  using T = T_;
  static constexpr Case C = C_;
  static constexpr SwizzledLayout kTileA =
      gmma_smem_tile(C.a_sw, C.a_k_major, kBits<T>, 64, kBK<T>);
  static constexpr SwizzledLayout kTileB =
      gmma_smem_tile(C.b_sw, C.b_k_major, kBits<T>, C.n, kBK<T>);
  static constexpr GmmaOperand kA = make_gmma_operand(kTileA, kBits<T>, 64, kInstK<T>);
  static constexpr GmmaOperand kB = make_gmma_operand(kTileB, kBits<T>, C.n, kInstK<T>);
  static constexpr int64_t kBytesA = 64 * kBK<T> * int64_t(sizeof(T)),
                           kBytesB = C.n * kBK<T> * int64_t(sizeof(T));
  static constexpr int kSteps = int(kBK<T> / kInstK<T>);
  static constexpr MmaAtom kAtom = sizeof(T) == 1 ? atom::sm90_64xNx32_f8(C.n, C.rs)
                                                  : atom::sm90_64xNx16(C.n, C.rs);
};

// threads 0..127: copy the tile images to shared memory, one k-tile of wgmma, accumulators out.
template <class Cfg>
__global__ void __launch_bounds__(128) wgmma_kernel(uint4 const* image_a, uint4 const* image_b,
                                                    uint32_t const* a_regs, float* d) {
  using T = typename Cfg::T;
  constexpr Case C = Cfg::C;
  extern __shared__ uint8_t smem_raw[];
  uint8_t* smem = smem_raw + (1024 - ptx::smem_u32(smem_raw) % 1024) % 1024;
  uint4* sa = reinterpret_cast<uint4*>(smem);
  uint4* sb = reinterpret_cast<uint4*>(smem + Cfg::kBytesA);
  for (int i = threadIdx.x; i < Cfg::kBytesA / 16; i += 128) sa[i] = image_a[i];
  for (int i = threadIdx.x; i < Cfg::kBytesB / 16; i += 128) sb[i] = image_b[i];
  ptx::fence_proxy_async_smem();  // the generic-proxy writes before wgmma's (async-proxy) reads
  __syncthreads();
  float acc[C.n / 2];
  for (int i = 0; i < C.n / 2; ++i) acc[i] = 0.0f;
  const auto b = make_gmma_tensor<Cfg::kB>(reinterpret_cast<T const*>(sb));
  if constexpr (C.rs) {
    uint32_t a[Cfg::kSteps][4];
    for (int j = 0; j < Cfg::kSteps; ++j)
      for (int r = 0; r < 4; ++r) a[j][r] = a_regs[(j * 128 + threadIdx.x) * 4 + r];
    gemm<C.n, T>(a, b, 0, acc, false);
  } else {
    const auto a = make_gmma_tensor<Cfg::kA>(reinterpret_cast<T const*>(sa));
    gemm<C.n, T>(a, 0, b, 0, acc, false);
  }
  warpgroup_wait<0>(acc);
  for (int v = 0; v < C.n / 2; ++v) d[threadIdx.x * (C.n / 2) + v] = acc[v];
}

// The image of a tile: element (r, k) at tile(r, k) (swizzle applied), as 16-byte words.
template <class T>
std::vector<uint4> image(SwizzledLayout const& tile, int64_t rows, int64_t cols,
                         std::vector<float> const& x) {
  std::vector<T> img(size_t(rows * cols));
  for (int64_t k = 0; k < cols; ++k)
    for (int64_t r = 0; r < rows; ++r)
      img[size_t(tile(make_tuple(r, k)))] = to_elem<T>(x[size_t(r + rows * k)]);
  std::vector<uint4> words(img.size() * sizeof(T) / 16);
  std::memcpy(words.data(), img.data(), words.size() * 16);
  return words;
}

template <class T, Case C>
void run_wgmma(const char* type) {
  using Cfg = Config<T, C>;
  constexpr int64_t kK = kBK<T>;
  std::mt19937 rng(unsigned(C.n * 7 + C.a_k_major * 3 + int(C.b_sw)));
  std::uniform_int_distribution<int> pick(-3, 3);
  std::vector<float> a(size_t(64 * kK)), b(size_t(C.n * kK));
  for (auto& x : a) x = float(pick(rng));
  for (auto& x : b) x = float(pick(rng));
  std::vector<uint4> ia = image<T>(Cfg::kTileA, 64, kK, a), ib = image<T>(Cfg::kTileB, C.n, kK, b);
  // RS: thread t's registers of k-step j: A values a_tv(t, v) = m + 64 k of the k-step, values
  // (e p, .., e p + e - 1) packed low first in register p (e = 4 FP8, 2 16-bit values).
  std::vector<uint32_t> regs(size_t(Cfg::kSteps * 128 * 4), 0);
  if (C.rs) {
    static_assert(!C.rs || sizeof(T) <= 2, "the RS cases are 16-bit or FP8");
    constexpr int e = int(4 / sizeof(T));
    for (int j = 0; j < Cfg::kSteps; ++j)
      for (int t = 0; t < 128; ++t)
        for (int p = 0; p < 4; ++p) {
          T h[e];
          for (int q = 0; q < e; ++q) {
            const int64_t idx = Cfg::kAtom.a_tv(make_tuple(t, e * p + q));
            const int64_t m = idx % 64, k = idx / 64 + j * kInstK<T>;
            h[q] = to_elem<T>(a[size_t(m + 64 * k)]);
          }
          std::memcpy(&regs[size_t((j * 128 + t) * 4 + p)], h, 4);
        }
  }
  uint4 *da = nullptr, *db = nullptr;
  uint32_t* dr = nullptr;
  float* dd = nullptr;
  CHECK_CUDA(cudaMalloc(&da, ia.size() * 16));
  CHECK_CUDA(cudaMalloc(&db, ib.size() * 16));
  CHECK_CUDA(cudaMalloc(&dr, regs.size() * 4));
  CHECK_CUDA(cudaMalloc(&dd, size_t(128 * C.n / 2) * 4));
  CHECK_CUDA(cudaMemcpy(da, ia.data(), ia.size() * 16, cudaMemcpyHostToDevice));
  CHECK_CUDA(cudaMemcpy(db, ib.data(), ib.size() * 16, cudaMemcpyHostToDevice));
  CHECK_CUDA(cudaMemcpy(dr, regs.data(), regs.size() * 4, cudaMemcpyHostToDevice));
  CHECK_CUDA(cudaMemset(dd, 0xff, size_t(128 * C.n / 2) * 4));  // NaN: every value must be written
  const int smem = int(Cfg::kBytesA + Cfg::kBytesB + 1024);
  CHECK_CUDA(
      cudaFuncSetAttribute(wgmma_kernel<Cfg>, cudaFuncAttributeMaxDynamicSharedMemorySize, smem));
  wgmma_kernel<Cfg><<<1, 128, smem>>>(da, db, dr, dd);
  CHECK_CUDA(cudaGetLastError());
  CHECK_CUDA(cudaDeviceSynchronize());
  std::vector<float> d(size_t(128 * C.n / 2));
  CHECK_CUDA(cudaMemcpy(d.data(), dd, d.size() * 4, cudaMemcpyDeviceToHost));
  int bad = 0;
  for (int t = 0; t < 128; ++t)
    for (int v = 0; v < C.n / 2; ++v) {
      const int64_t idx = Cfg::kAtom.c_tv(make_tuple(t, v)), m = idx % 64, n = idx / 64;
      double ref = 0;
      for (int64_t k = 0; k < kK; ++k)
        ref += double(a[size_t(m + 64 * k)]) * double(b[size_t(n + C.n * k)]);
      const float got = d[size_t(t * (C.n / 2) + v)];
      if (!(double(got) == ref) && bad++ < 3)
        std::printf("   C(%lld,%lld): got %g, expected %g\n", (long long)m, (long long)n, got, ref);
    }
  auto sw = [](GmmaSwizzle s) {
    return s == GmmaSwizzle::kInterleave ? "none"
           : s == GmmaSwizzle::kB32      ? "32B"
           : s == GmmaSwizzle::kB64      ? "64B"
                                         : "128B";
  };
  std::printf(
      "%s wgmma %s m64n%dk%lld A %s-major %s, B %s-major %s (LBO/SBO A %lld/%lld, B %lld/%lld): "
      "%s\n",
      bad ? "FAIL" : "ok  ", C.rs ? "RS" : "SS", C.n, (long long)kInstK<T>,
      C.a_k_major ? "K" : "MN", sw(C.a_sw), C.b_k_major ? "K" : "MN", sw(C.b_sw),
      (long long)Cfg::kA.desc.lbo_bytes, (long long)Cfg::kA.desc.sbo_bytes,
      (long long)Cfg::kB.desc.lbo_bytes, (long long)Cfg::kB.desc.sbo_bytes, type);
  failures += bad != 0;
  cudaFree(da), cudaFree(db), cudaFree(dr), cudaFree(dd);
}

// ---- 2. TMA -------------------------------------------------------------------------------------
// The global tensor (M, K). Its inner extent is a whole number of 16-byte units in both majors:
// TMA stores clip boxes in 16-byte units of the inner dimension (kernels/gemm/common.cuh,
// hopper_stores_by_tma), so with these extents a store must write exactly the in-bounds part.
constexpr int64_t kRowsG = 104, kColsG = 72;

// One (swizzle, major) case: the tile and its TMA tile (a type for the kernel, as above).
template <GmmaSwizzle kSw, bool kKMajor>
struct TmaCase {
  static constexpr int64_t kRows = 64, kCols = 64;
  static constexpr SwizzledLayout kTile = gmma_smem_tile(kSw, kKMajor, 16, kRows, kCols);
  static constexpr TmaTile kT = make_tma_tile(kTile, 16);
};

template <class Case>
__global__ void tma_kernel(const __grid_constant__ CUtensorMap map, uint16_t* out, int64_t r0,
                           int64_t c0) {
  constexpr int64_t kRows = Case::kRows, kCols = Case::kCols;
  constexpr uint32_t kBytes = uint32_t(Case::kT.bytes());
  extern __shared__ uint8_t smem_raw[];
  uint8_t* smem = smem_raw + (1024 - ptx::smem_u32(smem_raw) % 1024) % 1024;
  __shared__ alignas(8) uint64_t bar;
  if (threadIdx.x == 0) {
    ptx::mbarrier_init(&bar, 1);
    ptx::fence_barrier_init();
  }
  __syncthreads();
  const Coord<2> origin{{r0, c0}};
  if (threadIdx.x == 0) {
    ptx::mbarrier_arrive_expect_tx(&bar, kBytes);
    copy(TmaLoad<Case::kT>{&map}, origin, smem, &bar);
  }
  ptx::mbarrier_wait(&bar, 0);
  uint16_t* s = reinterpret_cast<uint16_t*>(smem);
  // The loaded tile out (in shared-memory order), then new values in: +1000 each.
  for (int64_t i = threadIdx.x; i < kRows * kCols; i += blockDim.x) {
    out[i] = s[i];
    s[i] = uint16_t(s[i] + 1000);
  }
  ptx::fence_proxy_async_smem();
  __syncthreads();
  if (threadIdx.x == 0) {
    copy(TmaStore<Case::kT>{&map}, smem, origin);
    tma_store_commit();
    tma_store_wait<0>();
  }
}

template <GmmaSwizzle kSw, bool kKMajor>
void run_tma() {
  using Case = TmaCase<kSw, kKMajor>;
  constexpr int64_t kRows = Case::kRows, kCols = Case::kCols;
  static constexpr SwizzledLayout kTile = Case::kTile;
  static constexpr TmaTile kT = Case::kT;
  // (M, K) with a padded leading dimension: K-major (M,K):(80,1), MN-major (M,K):(1,112).
  const int64_t ld = kKMajor ? 80 : 112;
  const int64_t sm = kKMajor ? ld : 1, sk = kKMajor ? 1 : ld;
  const size_t elems = size_t(kKMajor ? kRowsG * ld : kColsG * ld);
  std::vector<uint16_t> g(elems);
  for (size_t i = 0; i < elems; ++i) g[i] = uint16_t(i % 50000 + 1);
  uint16_t *dg = nullptr, *dout = nullptr;
  CHECK_CUDA(cudaMalloc(&dg, elems * 2));
  CHECK_CUDA(cudaMalloc(&dout, size_t(kRows * kCols) * 2));
  CHECK_CUDA(cudaMemcpy(dg, g.data(), elems * 2, cudaMemcpyHostToDevice));
  const TmaArgs args = make_tma_args(kT, TmaDataType::kUInt16, reinterpret_cast<uint64_t>(dg),
                                     Coord<2>{{kRowsG, kColsG}}, Coord<2>{{sm, sk}});
  CUtensorMap map;
  if (!tma_encode(&map, args)) {
    std::printf("FAIL tma: cuTensorMapEncodeTiled rejected the arguments\n");
    ++failures;
    return;
  }
  const int64_t r0 = 64, c0 = 32;  // rows 64..127 of 104, columns 32..95 of 72: past both ends
  const int smem = int(kRows * kCols * 2 + 1024);
  CHECK_CUDA(
      cudaFuncSetAttribute(tma_kernel<Case>, cudaFuncAttributeMaxDynamicSharedMemorySize, smem));
  tma_kernel<Case><<<1, 128, smem>>>(map, dout, r0, c0);
  CHECK_CUDA(cudaGetLastError());
  CHECK_CUDA(cudaDeviceSynchronize());
  std::vector<uint16_t> out(size_t(kRows * kCols)), g2(elems);
  CHECK_CUDA(cudaMemcpy(out.data(), dout, out.size() * 2, cudaMemcpyDeviceToHost));
  CHECK_CUDA(cudaMemcpy(g2.data(), dg, elems * 2, cudaMemcpyDeviceToHost));
  int bad_load = 0, bad_store = 0;
  for (int64_t c = 0; c < kCols; ++c)
    for (int64_t r = 0; r < kRows; ++r) {
      const int64_t gr = r0 + r, gc = c0 + c;
      const bool inside = gr < kRowsG && gc < kColsG;
      const uint16_t want = inside ? g[size_t(gr * sm + gc * sk)] : 0;
      if (out[size_t(kTile(make_tuple(r, c)))] != want) ++bad_load;
    }
  for (int64_t gc = 0; gc < kColsG; ++gc)
    for (int64_t gr = 0; gr < kRowsG; ++gr) {
      const bool in_tile = gr >= r0 && gc >= c0;
      const size_t at = size_t(gr * sm + gc * sk);
      if (g2[at] != uint16_t(in_tile ? g[at] + 1000 : g[at])) ++bad_store;
    }
  // The padding between the rows / columns of the tensor (at or past extent) must stay as it was.
  for (size_t i = 0; i < elems; ++i) {
    const int64_t outer = int64_t(i) / ld, inner = int64_t(i) % ld;
    if (inner >= (kKMajor ? kColsG : kRowsG) && g2[i] != g[i]) ++bad_store;
    (void)outer;
  }
  const char* sw = kSw == GmmaSwizzle::kInterleave ? "none"
                   : kSw == GmmaSwizzle::kB32      ? "32B"
                   : kSw == GmmaSwizzle::kB64      ? "64B"
                                                   : "128B";
  std::printf("%s tma %s-major swizzle %s: box (%lld,%lld) x %d, load %d / store %d mismatches\n",
              bad_load || bad_store ? "FAIL" : "ok  ", kKMajor ? "K" : "MN", sw,
              (long long)kT.box[0], (long long)kT.box[1], kT.boxes, bad_load, bad_store);
  failures += bad_load || bad_store;
  cudaFree(dg), cudaFree(dout);
}

}  // namespace

int main() {
  int device = 0;
  cudaDeviceProp prop;
  if (cudaGetDevice(&device) != cudaSuccess ||
      cudaGetDeviceProperties(&prop, device) != cudaSuccess || prop.major != 9) {
    std::printf("SKIPPED: needs an sm_90 GPU\n");
    return 2;
  }
  using S = GmmaSwizzle;
  run_wgmma<__half, Case{8, true, S::kB32, true, S::kB32, false}>("f16");
  run_wgmma<__half, Case{8, false, S::kB64, false, S::kInterleave, false}>("f16");
  run_wgmma<__half, Case{64, true, S::kB64, true, S::kB128, false}>("f16");
  run_wgmma<__half, Case{64, false, S::kB128, false, S::kB32, false}>("f16");
  run_wgmma<__nv_bfloat16, Case{136, true, S::kB128, true, S::kInterleave, false}>("bf16");
  run_wgmma<__nv_bfloat16, Case{136, false, S::kInterleave, false, S::kInterleave, false}>("bf16");
  run_wgmma<__half, Case{256, true, S::kB128, false, S::kB128, false}>("f16");
  run_wgmma<__nv_bfloat16, Case{256, false, S::kB128, true, S::kB64, false}>("bf16");
  run_wgmma<float, Case{136, true, S::kB128, true, S::kB32, false}>("tf32");
  run_wgmma<float, Case{64, true, S::kInterleave, true, S::kB64, false}>("tf32");
  run_wgmma<__half, Case{64, true, S::kB128, true, S::kB128, true}>("f16");
  run_wgmma<__nv_bfloat16, Case{256, true, S::kB128, false, S::kB128, true}>("bf16");
  // FP8 (m64nNk32, K-major only): the FP8 GEMM's 128-byte swizzle, other swizzles, RS.
  run_wgmma<__nv_fp8_e4m3, Case{128, true, S::kB128, true, S::kB128, false}>("e4m3");
  run_wgmma<__nv_fp8_e5m2, Case{64, true, S::kB64, true, S::kInterleave, false}>("e5m2");
  run_wgmma<__nv_fp8_e4m3, Case{256, true, S::kB32, true, S::kB128, false}>("e4m3");
  run_wgmma<__nv_fp8_e4m3, Case{128, true, S::kB128, true, S::kB128, true}>("e4m3");
  run_wgmma<__nv_fp8_e5m2, Case{64, true, S::kB128, true, S::kB64, true}>("e5m2");

  run_tma<S::kInterleave, true>();
  run_tma<S::kB32, true>();
  run_tma<S::kB64, true>();
  run_tma<S::kB128, true>();
  run_tma<S::kInterleave, false>();
  run_tma<S::kB32, false>();
  run_tma<S::kB64, false>();
  run_tma<S::kB128, false>();
  std::printf("%s: %d failing cases\n", failures ? "FAILED" : "PASSED", failures);
  return failures ? 1 : 0;
}
