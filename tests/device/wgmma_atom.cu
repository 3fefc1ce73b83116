// Device test: the wgmma m64n256 atom's C layout, and the wgmma descriptors of the shared tiles
// tessera builds, against what the hardware does (one warpgroup, one CTA, sm_90a).
//
// Inputs with a known product: A (64 x K) and B (256 x K) with
//   C(m, n) = sum_k A(m, k) B(n, k) = m + 64 n,
// the codomain index of the atom's c_tv (mma.hpp, sm90_64xNx16). So thread t's accumulator v must
// hold exactly c_tv(t, v): a wrong C layout puts the wrong index there, a wrong descriptor (LBO,
// SBO, swizzle) or tile layout reads elements from the wrong places and breaks the sum.
//
// A and B reach shared memory the way kernel 05 lays them out: the host writes an image of the
// 128B-swizzled stage tiles gmma_smem_tile(kB128, k_major, bits, rows, one 128-byte row of K),
// element (r, k) at byte tile(r, k) * bytes, the GPU copies it to a 1024-byte aligned buffer, and
// the descriptors are make_gmma_descriptor(tile, k_major, bits).encode(address), as in 05.
// Cases: f16 and bf16 (m64n256k16) with A and B each K-major or MN-major (transpose immediates
// = !k_major), tf32 (m64n256k8, K-major only).
//
// Run on the GPU machine (from the repository root):
//   nvcc -std=c++20 -O3 -gencode=arch=compute_90a,code=sm_90a -Iinclude tests/device/wgmma_atom.cu
//     -o wgmma_atom -lcublas -lcuda && ./wgmma_atom
//   (exit 0: every case matches; 1: a mismatch; 2: a CUDA error or not an sm_90 device)
#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include <cstdio>
#include <cstring>
#include <vector>

#include <tessera.hpp>
#include <tessera/atom/sm90.hpp>
#include "harness.cuh"

using namespace tessera;

enum class Kind { kF16, kBF16, kTF32 };

constexpr int kM = 64, kN = 256, kThreads = 128, kValues = 128;
constexpr int bits_of(Kind kind) { return kind == Kind::kTF32 ? 32 : 16; }
constexpr int inst_k(Kind kind) { return kind == Kind::kTF32 ? 8 : 16; }
// Both tiles are one 128-byte swizzled row deep in K (kernel 05's stage tiles); the instruction
// reads its first inst_k columns, the rest stays zero.
constexpr int tile_k(Kind kind) { return 1024 / bits_of(kind); }
constexpr int kBytesA = kM * 128, kBytesB = kN * 128;  // 8 KiB + 32 KiB, multiples of 1024
constexpr int kSmemBytes = kBytesA + kBytesB + 1024;   // + slack to align the base to 1024

// The operands, for an instruction of depth kk in halves of h = kk / 2 columns (8 f16/bf16, 4
// tf32: one 16-byte chunk of a K-major row; for 16-bit, one 8-deep group along K of an MN-major
// tile). Columns 0 and h + 1 give the product: A = (m, 1), B = (1, 64 n). The other columns form
// pairs j = 1..h-1 of a lower column j and an upper column h + (j + 1) % h, with A = (a, 2a) and
// B = (2b, -b), which cancel. So both halves matter (a half read from the wrong place, or as
// zeros, breaks the sum); the two columns of a pair lie in different rows of an MN-major swizzle
// period (a missing or wrong swizzle moves them differently); and all columns differ (a misplaced
// one breaks the sum). The periods 13 and 11 along m and n keep a 16-byte chunk read from rows 8,
// 16, .. away, or a 64-row block read from the wrong place, from giving equal values.
// All values are small integers (|x| <= 26, or 64 n = n * 2^6 with n < 256): exact in f16, bf16
// and tf32; every partial sum is an integer below 2^15, exact in the f32 accumulators.
int pair_of(int k, int h) { return k < h ? k : k == h + 1 ? 0 : (k - 1) % h; }  // 0: product
float a_value(int m, int k, int kk) {
  const int h = kk / 2, j = pair_of(k, h);
  if (j == 0) return k == 0 ? float(m) : 1.0f;
  const float a = float((5 * m + 3 * j) % 13 + 1);  // 1..13
  return k < h ? a : 2 * a;
}
float b_value(int n, int k, int kk) {
  const int h = kk / 2, j = pair_of(k, h);
  if (j == 0) return k == 0 ? 1.0f : float(64 * n);
  const float b = float((3 * n + 2 * j) % 11 + 1);  // 1..11
  return k < h ? 2 * b : -b;
}

// The bits shared memory holds for x (tf32: the fp32 bits, of which wgmma reads the top 19).
uint32_t elem_bits(Kind kind, float x) {
  uint32_t u = 0;
  if (kind == Kind::kTF32) {
    std::memcpy(&u, &x, 4);
  } else if (kind == Kind::kF16) {
    __half h = __float2half_rn(x);
    std::memcpy(&u, &h, 2);
  } else {
    __nv_bfloat16 h = __float2bfloat16_rn(x);
    std::memcpy(&u, &h, 2);
  }
  return u;
}
// x as the instruction sees it: the stored element converted back (tf32 truncated to 10 bits).
float elem_value(Kind kind, float x) {
  const uint32_t u = elem_bits(kind, x);
  if (kind == Kind::kF16) {
    __half_raw h;
    h.x = uint16_t(u);
    return __half2float(__half(h));
  }
  if (kind == Kind::kBF16) {
    __nv_bfloat16_raw h;
    h.x = uint16_t(u);
    return __bfloat162float(__nv_bfloat16(h));
  }
  const uint32_t t = u & ~uint32_t(0x1FFF);
  float f;
  std::memcpy(&f, &t, 4);
  return f;
}

// One wgmma of the whole warpgroup: copy the smem image in, fence it to the async proxy, issue
// the instruction with scale_d = 0, wait, and write each thread's 128 accumulators in value order.
template <Kind kKind, bool kAK, bool kBK>
__global__ void __launch_bounds__(kThreads, 1)
    run_wgmma(uint4 const* image, GmmaDescriptor desc_a, GmmaDescriptor desc_b, float* out) {
#if defined(__CUDA_ARCH_FEAT_SM90_ALL)
  extern __shared__ uint8_t smem_raw[];
  uint8_t* smem = smem_raw + (1024 - ptx::smem_u32(smem_raw) % 1024) % 1024;  // 128B swizzle period
  uint4* s = reinterpret_cast<uint4*>(smem);
  for (int i = threadIdx.x; i < (kBytesA + kBytesB) / 16; i += kThreads) s[i] = image[i];
  ptx::fence_proxy_async_smem();  // this thread's stores, before the wgmma (async proxy) reads
  __syncthreads();

  const uint64_t da = desc_a.encode(ptx::smem_u32(smem));
  const uint64_t db = desc_b.encode(ptx::smem_u32(smem + kBytesA));
  float d[kValues];
#pragma unroll
  for (int i = 0; i < kValues; ++i) d[i] = 0.0f, ptx::fence_operand(d[i]);
  ptx::wgmma_fence();
  if constexpr (kKind == Kind::kTF32) ptx::wgmma_m64n256k8_tf32(d, da, db, 0);
  else if constexpr (kKind == Kind::kF16) ptx::wgmma_m64n256k16_f16<!kAK, !kBK>(d, da, db, 0);
  else ptx::wgmma_m64n256k16_bf16<!kAK, !kBK>(d, da, db, 0);
  ptx::wgmma_commit();
  ptx::wgmma_wait<0>();
#pragma unroll
  for (int i = 0; i < kValues; ++i) ptx::fence_operand(d[i]);
#pragma unroll
  for (int i = 0; i < kValues; ++i) out[threadIdx.x * kValues + i] = d[i];
#endif
}

const char* kind_name(Kind kind) {
  return kind == Kind::kF16 ? "f16" : kind == Kind::kBF16 ? "bf16" : "tf32";
}

// Writes operand (rows x inst_k) into its tile's image: element (r, k) at byte tile(r, k) * bytes.
void place(std::vector<uint8_t>& image, int base, Kind kind, SwizzledLayout const& tile, int rows,
           float (*value)(int, int, int)) {
  const int bytes = bits_of(kind) / 8;
  for (int r = 0; r < rows; ++r)
    for (int k = 0; k < inst_k(kind); ++k) {
      const uint32_t u = elem_bits(kind, value(r, k, inst_k(kind)));
      std::memcpy(&image[size_t(base + tile(make_tuple(int64_t(r), int64_t(k))) * bytes)], &u,
                  size_t(bytes));
    }
}

template <Kind kKind, bool kAK, bool kBK>
bool check_case(std::vector<int64_t> const& want) {
  constexpr int bits = bits_of(kKind);
  const SwizzledLayout tile_a = gmma_smem_tile(GmmaSwizzle::kB128, kAK, bits, kM, tile_k(kKind));
  const SwizzledLayout tile_b = gmma_smem_tile(GmmaSwizzle::kB128, kBK, bits, kN, tile_k(kKind));
  const GmmaDescriptor desc_a = make_gmma_descriptor(tile_a, kAK, bits);
  const GmmaDescriptor desc_b = make_gmma_descriptor(tile_b, kBK, bits);
  std::vector<uint8_t> image(kBytesA + kBytesB, 0);
  place(image, 0, kKind, tile_a, kM, a_value);
  place(image, kBytesA, kKind, tile_b, kN, b_value);

  uint4* d_image;
  float* d_out;
  CHECK_CUDA(cudaMalloc(&d_image, image.size()));
  CHECK_CUDA(cudaMalloc(&d_out, kThreads * kValues * 4));
  CHECK_CUDA(cudaMemcpy(d_image, image.data(), image.size(), cudaMemcpyHostToDevice));
  CHECK_CUDA(cudaMemset(d_out, 0xff, kThreads * kValues * 4));  // poison: NaN
  run_wgmma<kKind, kAK, kBK><<<1, kThreads, kSmemBytes>>>(d_image, desc_a, desc_b, d_out);
  CHECK_CUDA(cudaGetLastError());
  std::vector<float> got(kThreads * kValues);
  CHECK_CUDA(cudaMemcpy(got.data(), d_out, got.size() * 4, cudaMemcpyDeviceToHost));
  cudaFree(d_image), cudaFree(d_out);

  int bad = 0;
  for (int t = 0; t < kThreads; ++t)
    for (int v = 0; v < kValues; ++v) {
      const float g = got[t * kValues + v];
      const int64_t w = want[t * kValues + v];
      if (g != float(w) && bad++ < 4)
        std::printf("  thread %d value %d (m=%lld, n=%lld): got %g, want %lld\n", t, v,
                    (long long)(w % kM), (long long)(w / kM), g, (long long)w);
    }
  char name[96];
  std::snprintf(name, sizeof name, "wgmma m64n256k%d %-4s A %s B %s", inst_k(kKind),
                kind_name(kKind), kAK ? "K " : "MN", kBK ? "K " : "MN");
  std::printf("%-40s LBO/SBO A %lld/%lld B %lld/%lld: %s (%d accumulators checked)\n", name,
              (long long)desc_a.leading_bytes, (long long)desc_a.stride_bytes,
              (long long)desc_b.leading_bytes, (long long)desc_b.stride_bytes,
              bad ? "MISMATCH" : "matches the hardware", kThreads * kValues);
  return bad == 0;
}

// The test's own premise: the operands are exact in the element type and multiply to m + 64 n.
bool product_is_exact(Kind kind) {
  for (int m = 0; m < kM; ++m)
    for (int n = 0; n < kN; ++n) {
      double c = 0;
      for (int k = 0; k < inst_k(kind); ++k) {
        const float a = a_value(m, k, inst_k(kind)), b = b_value(n, k, inst_k(kind));
        if (elem_value(kind, a) != a || elem_value(kind, b) != b) return false;
        c += double(a) * double(b);
      }
      if (c != double(m + 64 * n)) return false;
    }
  return true;
}

int main() {
  cudaDeviceProp p;
  CHECK_CUDA(cudaGetDeviceProperties(&p, 0));
  std::printf("device: %s (sm_%d%d)\n", p.name, p.major, p.minor);
  if (p.major != 9) {
    std::printf("wgmma needs an sm_90 device\n");
    return 2;
  }
  for (Kind kind : {Kind::kF16, Kind::kBF16, Kind::kTF32})
    if (!product_is_exact(kind)) {
      std::printf("test inputs are not exact in %s\n", kind_name(kind));
      return 1;
    }

  // want[t][v] = c_tv(t, v) = m + 64 n: the element of C that thread t's value v holds.
  const MmaAtom atom = atom::sm90_64xNx16(kN, false);
  std::vector<int64_t> want(kThreads * kValues);
  for (int t = 0; t < kThreads; ++t)
    for (int v = 0; v < kValues; ++v) want[t * kValues + v] = atom.c_tv(t, v);

  bool ok = true;
  ok &= check_case<Kind::kF16, true, true>(want);
  ok &= check_case<Kind::kF16, true, false>(want);
  ok &= check_case<Kind::kF16, false, true>(want);
  ok &= check_case<Kind::kF16, false, false>(want);
  ok &= check_case<Kind::kBF16, true, true>(want);
  ok &= check_case<Kind::kBF16, true, false>(want);
  ok &= check_case<Kind::kBF16, false, true>(want);
  ok &= check_case<Kind::kBF16, false, false>(want);
  ok &= check_case<Kind::kTF32, true, true>(want);
  std::printf("%s\n", ok ? "the wgmma atom and descriptors match the hardware"
                         : "SOME WGMMA CASES DO NOT MATCH");
  return ok ? 0 : 1;
}
