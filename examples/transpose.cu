// examples/transpose.cu -- out-of-place transpose B = A^T of an M x N f32 matrix (column-major,
// any M, N, leading dimensions) through a swizzled shared tile.
//
// A CTA moves one 64 x 64 tile. Loads: 16 x 16 threads, 4 values along M each, 16-byte vectors
// (A's M runs along its unit stride) into registers, then into the shared tile (M-major, the
// same 16-byte vectors). Stores: 8 x 32 threads, 4 values along N each, read from the shared
// tile one by one (N is its strided mode) and written as 16-byte vectors along B's unit stride.
// The swizzle Sw<3,2,6> XORs offset bits [8,11) (N / 4 mod 8) into bits [2,5): a warp of the
// store reads 8 groups of N x 4 rows of M, 32 different banks; the load's 16-byte vectors
// (bits [0,2)) stay whole.
#include <tessera/device_tensor.hpp>

#include "common.cuh"

using namespace tessera;

struct TransposeCfg {
  static constexpr int kThreads = 256;
  static constexpr Coord<2> kTile = {{64, 64}};  // (BM,BN) of A, (BN,BM) of B
  static constexpr Swizzle kSw = Swizzle(3, 2, 6);
  static constexpr SwizzledLayout kSmem =
      composition(kSw, parse_layout("(64,64):(1,64)"));  // (BM,BN)
  static constexpr SwizzledLayout kSmemT =
      composition(kSw, parse_layout("(64,64):(64,1)"));  // (BN,BM)
  struct Load {  // (64,16) per pass: 16 x 16 threads, 4 values along M
    static constexpr TiledCopy kCopy = make_tiled_copy_tv(
        atom::universal_copy(128, 32), parse_layout("(16,16):(1,16)"), parse_layout("(4,1):(1,0)"));
  };
  struct Store {  // (32,32) per pass: 8 x 32 threads, 4 values along N
    static constexpr TiledCopy kCopy = make_tiled_copy_tv(
        atom::universal_copy(128, 32), parse_layout("(8,32):(1,8)"), parse_layout("(4,1):(1,0)"));
  };
};

template <class Cfg>
__global__ void __launch_bounds__(Cfg::kThreads)
    transpose_kernel(float const* a, float* b, int64_t m, int64_t n, int64_t lda, int64_t ldb) {
  static constexpr Coord<2> kTile = Cfg::kTile;
  auto mA = make_tensor(a, make_shape(m, n), make_stride(unit, lda));   // (M,N)
  auto mB = make_tensor(b, make_shape(n, m), make_stride(unit, ldb));   // (N,M)
  auto gA = local_tile<kTile, Proj{1, 1}>(mA, blockIdx.x, blockIdx.y);  // (BM,BN)
  auto cA = local_tile<kTile, Proj{1, 1}>(make_identity_tensor(mA.shape), blockIdx.x, blockIdx.y);
  auto gB = local_tile<kTile, Proj{1, 1}>(mB, blockIdx.y, blockIdx.x);  // (BN,BM)
  auto cB = local_tile<kTile, Proj{1, 1}>(make_identity_tensor(mB.shape), blockIdx.y, blockIdx.x);

  __shared__ alignas(16) float smem[64 * 64];
  auto sA = make_tensor<Cfg::kSmem>(smem);    // (BM,BN), swizzled
  auto sAt = make_tensor<Cfg::kSmemT>(smem);  // the same tile as (BN,BM)

  // A -> registers -> shared: 16-byte vectors on both sides.
  const ThrCopy<typename Cfg::Load> load{threadIdx.x};
  auto tAgA = load.partition_S(gA);  // (CPY,CPY_M,CPY_N)
  auto tAcA = load.partition_S(cA);
  auto tAsA = load.partition_D(sA);
  auto tArA = make_fragment_like<float>(tAgA);
  copy_if(tAcA, tAgA, tArA);
  copy(tArA, tAsA);
  __syncthreads();

  // shared (transposed) -> registers -> B: element reads, 16-byte vector stores.
  const ThrCopy<typename Cfg::Store> store{threadIdx.x};
  auto tBsB = store.partition_S(sAt);  // (CPY,CPY_N,CPY_M)
  auto tBgB = store.partition_D(gB);
  auto tBcB = store.partition_D(cB);
  auto tBrB = make_fragment_like<float>(tBgB);
  copy(tBsB, tBrB);
  copy_if(tBcB, tBrB, tBgB);
}

static void transpose(float const* a, float* b, int64_t m, int64_t n, int64_t lda, int64_t ldb) {
  const dim3 grid(unsigned((m + 63) / 64), unsigned((n + 63) / 64));
  transpose_kernel<TransposeCfg><<<grid, TransposeCfg::kThreads>>>(a, b, m, n, lda, ldb);
}

// One size in guarded buffers: B poisoned with NaN, compared exactly with A^T.
static bool check(int64_t m, int64_t n, int64_t lda, int64_t ldb) {
  ex::Guarded<float> A(m, n, lda), B(n, m, ldb);
  std::vector<float> a(size_t(m * n));
  uint64_t seed = uint64_t(m * 7919 + n);
  for (float& x : a) x = ex::uniform(seed);
  A.upload(a);
  B.poison();
  transpose(A.data, B.data, m, n, lda, ldb);
  EX_CHECK(cudaGetLastError());
  EX_CHECK(cudaDeviceSynchronize());
  const std::vector<float> b = B.download();
  int64_t wrong = 0;
  for (int64_t i = 0; i < m; ++i)
    for (int64_t j = 0; j < n; ++j)
      wrong += std::memcmp(&b[size_t(j + i * n)], &a[size_t(i + j * m)], 4) != 0;
  const int64_t guards = A.broken_guards() + B.broken_guards();
  std::printf("transpose %lld x %lld (lda %lld, ldb %lld): %lld wrong, %lld guard bytes changed\n",
              (long long)m, (long long)n, (long long)lda, (long long)ldb, (long long)wrong,
              (long long)guards);
  return wrong == 0 && guards == 0;
}

int main(int argc, char** argv) {
  bool ok = true;
  const int64_t sizes[][4] = {
      {1, 1, 1, 1},          {7, 13, 9, 15},       {64, 64, 64, 64},        {63, 65, 63, 65},
      {100, 37, 104, 40},    {129, 257, 132, 260}, {1000, 999, 1001, 1003}, {1024, 512, 1024, 512},
      {513, 2049, 516, 2052}};
  for (auto const& s : sizes) ok = check(s[0], s[1], s[2], s[3]) && ok;
  if (argc > 1 && std::strcmp(argv[1], "--no-bench") == 0) return ok ? 0 : 1;

  const int64_t m = 8192, n = 8192;
  float *a = nullptr, *b = nullptr;
  EX_CHECK(cudaMalloc(&a, size_t(m * n) * 4));
  EX_CHECK(cudaMalloc(&b, size_t(m * n) * 4));
  ex::fill_random(a, size_t(m * n), 7);
  const float ms = ex::time_ms([&] { transpose(a, b, m, n, m, n); });
  const float ref = ex::memcpy_ms(size_t(m * n) * 4);
  ex::report("transpose", "8192x8192", "f32", size_t(m * n) * 4, ms, ref);
  cudaFree(a);
  cudaFree(b);
  std::printf("transpose: %s\n", ok ? "PASSED" : "FAILED");
  return ok ? 0 : 1;
}
