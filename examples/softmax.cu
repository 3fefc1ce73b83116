// examples/softmax.cu -- row softmax Y = softmax(X) of an M x N matrix (row-major, any M, N up
// to 32768, leading dimensions ldx, ldy) in f16, bf16 or f32, each row held in registers.
//
// A CTA takes kRows rows; kRowThreads threads share a row, each holding 16-byte vectors of it
// (a TiledCopy: threads (kRows, kRowThreads), 16 bytes along N each, repeated along the row's
// static tile kBN >= N; the columns past N are predicated off). The row's maximum and sum are
// this thread's, then the lanes' that share the row (their shuffle distances come from the
// TiledCopy's partition: reduce_lanes), or the whole CTA's when a row takes several warps
// (cta_reduce). Global memory is read once and written once, in 16-byte vectors.
//   N <= 1024:   4 rows per CTA, a warp per row     (f32: 32 values per thread)
//   N <= 4096:   1 row per CTA of 128 threads
//   N <= 32768:  1 row per CTA of 1024 threads
#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include <tessera/device_tensor.hpp>

#include "common.cuh"

using namespace tessera;

template <class T, int64_t kBN, int kRowThreads, int kRowsIn>
struct SoftmaxCfg {
  static constexpr int kRows = kRowsIn;
  static constexpr int kThreads = kRows * kRowThreads;
  static constexpr int64_t kVec = 16 / int64_t(sizeof(T));  // values per 16-byte vector
  static constexpr Coord<2> kTile = {{kRows, kBN}};         // (rows, BN)
  struct Copy {
    static constexpr TiledCopy kCopy =
        make_tiled_copy_tv(atom::universal_copy(128, 8 * sizeof(T)),
                           Layout(make_tuple(kRows, kRowThreads), make_tuple(kRowThreads, 1)),
                           Layout(make_tuple(1, kVec), make_tuple(0, 1)));
  };
  // The lanes that share a row (a warp or part of one), from the copy's partition of the tile.
  static constexpr bool kCtaWide = kRowThreads > 32;
  static constexpr LaneShuffles kLanes =
      kCtaWide ? LaneShuffles{}
               : row_shuffles(Copy::kCopy, Layout(make_tuple(int64_t(kRows), kBN)));
};

struct Max {
  TESSERA_HD float operator()(float a, float b) const { return fmaxf(a, b); }
};
struct Plus {
  TESSERA_HD float operator()(float a, float b) const { return a + b; }
};

// x reduced over the threads that share this thread's row.
template <class Cfg, class Op>
__device__ inline float row_reduce(float x, Op const& op, float* smem) {
  if constexpr (Cfg::kCtaWide) {
    return cta_reduce<Cfg::kThreads>(x, op, smem);
  } else {
    Fragment<float, Layout(1)> r;
    r(0) = x;
    reduce_lanes<Cfg::kLanes>(r, op);
    return r(0);
  }
}

template <class Cfg, class T>
__global__ void __launch_bounds__(Cfg::kThreads)
    softmax_kernel(T const* x, T* y, int64_t m, int64_t n, int64_t ldx, int64_t ldy) {
  static constexpr Coord<2> kTile = Cfg::kTile;
  constexpr float kLog2e = 1.4426950408889634f;
  auto mX = make_tensor(x, make_shape(m, n), make_stride(ldx, unit));  // (M,N)
  auto mY = make_tensor(y, make_shape(m, n), make_stride(ldy, unit));  // (M,N)
  auto gX = local_tile<kTile, Proj{1, 1}>(mX, blockIdx.x, 0);          // (ROWS,BN)
  auto gY = local_tile<kTile, Proj{1, 1}>(mY, blockIdx.x, 0);
  auto cX = local_tile<kTile, Proj{1, 1}>(make_identity_tensor(mX.shape), blockIdx.x, 0);
  __shared__ float red[Cfg::kThreads / 32];

  // The thread's part of its row, in registers: 16-byte vectors, -inf past the row's end.
  const ThrCopy<typename Cfg::Copy> thr{threadIdx.x};
  auto tXgX = thr.partition_S(gX);  // (CPY,CPY_ROWS,CPY_N)
  auto tXcX = thr.partition_S(cX);
  auto tXrX = make_fragment_like<T>(tXgX);
#pragma unroll
  for (int i = 0; i < tXrX.size(); ++i) tXrX(i) = T(-INFINITY);
  copy_if(tXcX, tXgX, tXrX);

  // The row's maximum, then the sum of exp(x - max).
  float mx = -INFINITY;
#pragma unroll
  for (int i = 0; i < tXrX.size(); ++i) mx = fmaxf(mx, float(tXrX(i)));
  mx = row_reduce<Cfg>(mx, Max{}, red);
  const float shift = mx * kLog2e;
  // NOTE: 16-bit rows keep exp(x - max) in float registers, one exp per value: at 2 bytes a value
  // two exps per value, not the bytes, limit the kernel. f32 rows compute it twice: keeping it
  // would double the registers of a 1024-thread CTA, which has 64 a thread.
  constexpr bool kKeepExp = sizeof(T) < 4;
  auto tErE = make_fragment_like<float>(tXgX);
  float sum = 0.0f;
#pragma unroll
  for (int i = 0; i < tXrX.size(); ++i) {
    const float e = exp2f(float(tXrX(i)) * kLog2e - shift);
    if constexpr (kKeepExp) tErE(i) = e;
    sum += e;
  }
  sum = row_reduce<Cfg>(sum, Plus{}, red);

  // Y = exp(x - max) / sum, stored as 16-byte vectors inside the matrix.
  const float inv = 1.0f / sum;
  auto tYrY = make_fragment_like<T>(tXgX);
#pragma unroll
  for (int i = 0; i < tYrY.size(); ++i) {
    const float e = kKeepExp ? tErE(i) : exp2f(float(tXrX(i)) * kLog2e - shift);
    tYrY(i) = T(e * inv);
  }
  copy_if(tXcX, tYrY, thr.partition_D(gY));
}

template <class Cfg, class T>
static void launch(T const* x, T* y, int64_t m, int64_t n, int64_t ldx, int64_t ldy) {
  softmax_kernel<Cfg, T>
      <<<unsigned((m + Cfg::kRows - 1) / Cfg::kRows), Cfg::kThreads>>>(x, y, m, n, ldx, ldy);
}
// The configuration whose row tile holds N.
template <class T>
static void softmax(T const* x, T* y, int64_t m, int64_t n, int64_t ldx, int64_t ldy) {
  if (n <= 1024)
    launch<SoftmaxCfg<T, 1024, 32, 4>>(x, y, m, n, ldx, ldy);
  else if (n <= 4096)
    launch<SoftmaxCfg<T, 4096, 128, 1>>(x, y, m, n, ldx, ldy);
  else if (n <= 32768)
    launch<SoftmaxCfg<T, 32768, 1024, 1>>(x, y, m, n, ldx, ldy);
  else
    std::fprintf(stderr, "softmax: rows longer than 32768 are not supported\n"), std::exit(2);
}

template <class T>
static const char* name_of() {
  return sizeof(T) == 4 ? "f32" : std::is_same_v<T, __half> ? "f16" : "bf16";
}

// One size in guarded buffers (the matrix is an N x M column-major block: rows of X contiguous),
// Y poisoned with NaN, against a float64 reference.
template <class T>
static bool check(int64_t m, int64_t n, int64_t ldx, int64_t ldy) {
  ex::Guarded<T> X(n, m, ldx), Y(n, m, ldy);
  std::vector<T> x(size_t(m * n));
  uint64_t seed = uint64_t(m * 131 + n);
  for (T& v : x) v = T(4.0f * ex::uniform(seed));
  X.upload(x);
  Y.poison();
  softmax(X.data, Y.data, m, n, ldx, ldy);
  EX_CHECK(cudaGetLastError());
  EX_CHECK(cudaDeviceSynchronize());
  const std::vector<T> y = Y.download();
  const double tol = sizeof(T) == 4 ? 1e-5 : std::is_same_v<T, __half> ? 2e-3 : 1.6e-2;
  // Relative error down to the format's smallest normal value: below it (f16: 2^-14) a value
  // carries absolute precision only (subnormals), so it is compared against that floor.
  const double tiny = std::is_same_v<T, __half> ? 6.103515625e-5 : 1e-6;
  double worst = 0.0;
  for (int64_t i = 0; i < m; ++i) {
    double mx = -INFINITY, sum = 0.0;
    for (int64_t j = 0; j < n; ++j) mx = std::fmax(mx, double(float(x[size_t(j + i * n)])));
    for (int64_t j = 0; j < n; ++j) sum += std::exp(double(float(x[size_t(j + i * n)])) - mx);
    for (int64_t j = 0; j < n; ++j) {
      const double want = std::exp(double(float(x[size_t(j + i * n)])) - mx) / sum;
      const double got = double(float(y[size_t(j + i * n)]));
      const double err = std::isnan(got) ? 1e30 : std::fabs(got - want) / std::fmax(want, tiny);
      worst = err > worst ? err : worst;
    }
  }
  const int64_t guards = X.broken_guards() + Y.broken_guards();
  const bool ok = worst < tol && guards == 0;
  std::printf(
      "softmax %s %lld x %lld (ldx %lld, ldy %lld): max relative error %.2e, %lld guard bytes "
      "changed: %s\n",
      name_of<T>(), (long long)m, (long long)n, (long long)ldx, (long long)ldy, worst,
      (long long)guards, ok ? "ok" : "FAILED");
  return ok;
}

template <class T>
static bool check_all() {
  const int64_t sizes[][4] = {
      {1, 1, 1, 1},          {3, 1000, 1000, 1000}, {37, 1024, 1032, 1040},   {5, 1025, 1025, 1027},
      {9, 4096, 4096, 4104}, {2, 4097, 4104, 4097}, {3, 32768, 32768, 32776}, {130, 333, 336, 333}};
  bool ok = true;
  for (auto const& s : sizes) ok = check<T>(s[0], s[1], s[2], s[3]) && ok;
  return ok;
}

template <class T>
static void bench() {
  const int64_t sizes[][2] = {{16384, 4096}, {65536, 1024}, {4096, 32768}};
  for (auto const& s : sizes) {
    const int64_t m = s[0], n = s[1];
    const size_t bytes = size_t(m * n) * sizeof(T);
    T *x = nullptr, *y = nullptr;
    EX_CHECK(cudaMalloc(&x, bytes));
    EX_CHECK(cudaMalloc(&y, bytes));
    ex::fill_random(x, size_t(m * n), uint64_t(m + n), 4.0f);
    const float ms = ex::time_ms([&] { softmax(x, y, m, n, n, n); });
    const float ref = ex::memcpy_ms(bytes);
    char size[32];
    std::snprintf(size, sizeof(size), "%lldx%lld", (long long)m, (long long)n);
    ex::report("softmax", size, name_of<T>(), bytes, ms, ref);
    cudaFree(x);
    cudaFree(y);
  }
}

int main(int argc, char** argv) {
  const bool ok = check_all<float>() & check_all<__half>() & check_all<__nv_bfloat16>();
  if (argc > 1 && std::strcmp(argv[1], "--no-bench") == 0) return ok ? 0 : 1;
  bench<float>();
  bench<__half>();
  bench<__nv_bfloat16>();
  std::printf("softmax: %s\n", ok ? "PASSED" : "FAILED");
  return ok ? 0 : 1;
}
