// The copies (algorithm/copy.hpp) run on the host: the examples' partitions and copies for every
// thread of every tile, against brute force, in guarded buffers; the vector widths they choose.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <tessera.hpp>
#include <tessera/device_tensor.hpp>
#include <vector>

using namespace tessera;

namespace {

// The transpose example's configuration (examples/transpose.cu).
struct Load {
  static constexpr TiledCopy kCopy = make_tiled_copy_tv(
      atom::universal_copy(128, 32), parse_layout("(16,16):(1,16)"), parse_layout("(4,1):(1,0)"));
};
struct Store {
  static constexpr TiledCopy kCopy = make_tiled_copy_tv(
      atom::universal_copy(128, 32), parse_layout("(8,32):(1,8)"), parse_layout("(4,1):(1,0)"));
};
constexpr Coord<2> kCopyTile = {{64, 64}};
constexpr SwizzledLayout kSmem = composition(Swizzle(3, 2, 6), parse_layout("(64,64):(1,64)"));
constexpr SwizzledLayout kSmemT = composition(Swizzle(3, 2, 6), parse_layout("(64,64):(64,1)"));

// A buffer of `n` floats between two guards of 64, 16-byte aligned, filled with `fill`.
struct Buffer {
  std::vector<float> storage;
  float* data;
  explicit Buffer(int64_t n, float fill) : storage(size_t(n + 128 + 4), fill) {
    data = storage.data() + 64;
    while (reinterpret_cast<uintptr_t>(data) % 16 != 0) ++data;
  }
};

// The transpose of an m x n matrix (leading dimensions lda, ldb) as the kernel does it: every
// thread of a tile loads and stores its shared tile, then every thread stores B.
void transpose(float const* a, float* b, int64_t m, int64_t n, int64_t lda, int64_t ldb) {
  auto mA = make_tensor(a, make_shape(m, n), make_stride(unit, lda));
  auto mB = make_tensor(b, make_shape(n, m), make_stride(unit, ldb));
  alignas(16) float smem[64 * 64];
  for (int64_t bm = 0; bm * 64 < m; ++bm)
    for (int64_t bn = 0; bn * 64 < n; ++bn) {
      auto gA = local_tile<kCopyTile, Proj{1, 1}>(mA, bm, bn);
      auto cA = local_tile<kCopyTile, Proj{1, 1}>(make_identity_tensor(mA.shape), bm, bn);
      auto gB = local_tile<kCopyTile, Proj{1, 1}>(mB, bn, bm);
      auto cB = local_tile<kCopyTile, Proj{1, 1}>(make_identity_tensor(mB.shape), bn, bm);
      auto sA = make_tensor<kSmem>(smem);
      auto sAt = make_tensor<kSmemT>(smem);
      std::memset(smem, 0, sizeof(smem));
      for (int t = 0; t < 256; ++t) {
        const ThrCopy<Load> load{t};
        auto tAgA = load.partition_S(gA);
        auto tArA = make_fragment_like<float>(tAgA);
        clear(tArA);
        copy_if(load.partition_S(cA), tAgA, tArA);
        copy(tArA, load.partition_D(sA));
      }
      for (int t = 0; t < 256; ++t) {
        const ThrCopy<Store> store{t};
        auto tBgB = store.partition_D(gB);
        auto tBrB = make_fragment_like<float>(tBgB);
        copy(store.partition_S(sAt), tBrB);
        copy_if(store.partition_D(cB), tBrB, tBgB);
      }
    }
}

TEST(Copy, TransposeOfEverySizeMatchesBruteForceAndKeepsTheGuards) {
  const int64_t sizes[][4] = {{1, 1, 1, 1},     {7, 13, 9, 15},     {64, 64, 64, 64},
                              {63, 65, 63, 65}, {100, 37, 104, 40}, {129, 130, 132, 130},
                              {65, 64, 68, 64}};
  for (auto const& s : sizes) {
    const int64_t m = s[0], n = s[1], lda = s[2], ldb = s[3];
    Buffer a(lda * n, -7.0f), b(ldb * m, -9.0f);
    for (int64_t j = 0; j < n; ++j)
      for (int64_t i = 0; i < m; ++i) a.data[i + j * lda] = float(i * 1000 + j);
    transpose(a.data, b.data, m, n, lda, ldb);
    for (int64_t i = 0; i < m; ++i)
      for (int64_t j = 0; j < n; ++j)
        ASSERT_EQ(b.data[j + i * ldb], float(i * 1000 + j))
            << m << "x" << n << " at (" << i << "," << j << ")";
    // Nothing outside B's block written: the rows between n and ldb, and the guards.
    for (size_t k = 0; k < b.storage.size(); ++k) {
      const int64_t off = int64_t(&b.storage[k] - b.data);
      const bool inside = off >= 0 && off < ldb * m && off % ldb < n;
      if (!inside) {
        ASSERT_EQ(b.storage[k], -9.0f) << m << "x" << n << " offset " << off;
      }
    }
  }
}

TEST(Copy, VectorWidthsAreTheWidestBothLayoutsAllow) {
  float* p = nullptr;
  auto gA = local_tile<kCopyTile, Proj{1, 1}>(
      make_tensor(p, make_shape(64, 64), make_stride(unit, 64)), 0, 0);
  auto gR = local_tile<kCopyTile, Proj{1, 1}>(
      make_tensor(p, make_shape(64, 64), make_stride(1, 64)), 0, 0);
  const ThrCopy<Load> load{0};
  const ThrCopy<Store> store{0};
  using GA = decltype(load.partition_S(gA));
  using GR = decltype(load.partition_S(gR));
  using SA = decltype(load.partition_D(make_tensor<kSmem>(p)));
  using ST = decltype(store.partition_S(make_tensor<kSmemT>(p)));
  using F = decltype(make_fragment_like<float>(std::declval<GA>()));
  EXPECT_EQ((max_common_vector<GA, F>()), 4);  // 4 floats along M, the unit stride
  EXPECT_EQ((max_common_vector<F, SA>()), 4);  // M-major shared, Sw<3,2,6> keeps 4 together
  EXPECT_EQ((max_common_vector<ST, F>()), 1);  // the transposed read runs along N: stride 64
  EXPECT_EQ((max_common_vector<GR, F>()), 1);  // a run-time stride is never vectorized along
  EXPECT_EQ(vector_fault<GR>(4), VectorFault::kRuntimeStride);
  EXPECT_EQ(vector_fault<decltype(load.partition_D(
                make_tensor<composition(Swizzle(3, 1, 6), parse_layout("(64,64):(1,64)"))>(p)))>(4),
            VectorFault::kSwizzleSplits);
}

// The GEMM example's epilogue (examples/gemm_epilogue_sm80.cu) without the MMA: accumulators
// set from their coordinates, the bias read through the stride-0 broadcast, 16-bit pairs stored
// through the predicated copy.
struct Step4 {
  static constexpr TiledMMA kMma = presets::step4();
};

TEST(Copy, EpilogueBroadcastsTheBiasAndStoresPairsInsideTheMatrix) {
  constexpr Coord<3> kCta = {{128, 128, 32}};
  const int64_t sizes[][3] = {{128, 128, 128}, {130, 250, 252}, {17, 33, 35}, {1, 1, 1}};
  for (auto const& s : sizes) {
    const int64_t m = s[0], n = s[1], ldd = s[2];
    std::vector<float> bias(static_cast<size_t>(n));
    for (int64_t j = 0; j < n; ++j) bias[size_t(j)] = float(j) * 0.5f;
    std::vector<uint16_t> d(size_t(m * ldd + 64), 0xFFFF);
    auto mD = make_tensor(d.data(), make_shape(m, n), make_stride(ldd, unit));
    auto mBias = make_tensor(bias.data(), make_shape(m, n), make_stride(fixed<0>, unit));
    auto cD = make_identity_tensor(mD.shape);
    for (int64_t bm = 0; bm * 128 < m; ++bm)
      for (int64_t bn = 0; bn * 128 < n; ++bn)
        for (int t = 0; t < 128; ++t) {
          const ThrMMA<Step4> thr{t};
          auto tCgD = thr.partition_C(local_tile<kCta, Proj{1, 1, 0}>(mD, bm, bn, _));
          auto tCcD = thr.partition_C(local_tile<kCta, Proj{1, 1, 0}>(cD, bm, bn, _));
          auto tCgBias = thr.partition_C(local_tile<kCta, Proj{1, 1, 0}>(mBias, bm, bn, _));
          auto tCrBias = make_fragment_like<float>(tCgBias);
          clear(tCrBias);
          copy_if(tCcD, tCgBias, tCrBias);
          auto tCrD = make_fragment_like<uint16_t>(tCgD);
          for (int i = 0; i < tCrD.size(); ++i) {
            const auto c = tCcD(i);  // (m, n): the accumulator's value is m + n, plus the bias
            tCrD(i) = uint16_t(float(c[0] % 100 + c[1] % 50) + tCrBias(i) * 2.0f);
          }
          copy_if(tCcD, tCrD, tCgD);
        }
    for (int64_t i = 0; i < m; ++i)
      for (int64_t k = 0; k < ldd; ++k) {
        const uint16_t want = k < n ? uint16_t(i % 100 + k % 50 + k) : uint16_t(0xFFFF);
        ASSERT_EQ(d[size_t(k + i * ldd)], want)
            << m << "x" << n << " ldd " << ldd << " at (" << i << "," << k << ")";
      }
    for (size_t k = size_t(m * ldd); k < d.size(); ++k) ASSERT_EQ(d[k], 0xFFFF);
  }
}

// The softmax example's partitions (examples/softmax.cu): rows of X in registers as 16-byte
// vectors, -inf past the row's end, combined per row, Y stored inside the matrix only. The
// lanes the example shuffles with (row_shuffles of the TiledCopy) hold the same row.
template <int64_t kBN, int kRowThreads, int kRows>
struct SoftmaxCopy {
  static constexpr TiledCopy kCopy =
      make_tiled_copy_tv(atom::universal_copy(128, 32),
                         Layout(make_tuple(kRows, kRowThreads), make_tuple(kRowThreads, 1)),
                         Layout(make_tuple(1, 4), make_tuple(0, 1)));
};

template <int64_t kBN, int kRowThreads, int kRows>
void check_softmax_partition(int64_t m, int64_t n, int64_t ld) {
  using Cfg = SoftmaxCopy<kBN, kRowThreads, kRows>;
  constexpr Coord<2> kT = {{kRows, kBN}};
  Buffer x(m * ld, 5.0f), y(m * ld, -3.0f);
  for (int64_t i = 0; i < m; ++i)
    for (int64_t j = 0; j < n; ++j) x.data[j + i * ld] = float((i * 7 + j * 13) % 17) * 0.25f;
  auto mX = make_tensor(static_cast<float const*>(x.data), make_shape(m, n), make_stride(ld, unit));
  auto mY = make_tensor(y.data, make_shape(m, n), make_stride(ld, unit));
  for (int64_t b = 0; b * kRows < m; ++b) {
    auto gX = local_tile<kT, Proj{1, 1}>(mX, b, 0);
    auto gY = local_tile<kT, Proj{1, 1}>(mY, b, 0);
    auto cX = local_tile<kT, Proj{1, 1}>(make_identity_tensor(mX.shape), b, 0);
    std::vector<float> row_max(kRows, -INFINITY), row_sum(kRows, 0.0f);
    for (int pass = 0; pass < 3; ++pass)
      for (int t = 0; t < kRows * kRowThreads; ++t) {
        const ThrCopy<Cfg> thr{t};
        auto tXgX = thr.partition_S(gX);
        auto tXcX = thr.partition_S(cX);
        auto r = make_fragment_like<float>(tXgX);
        for (int i = 0; i < r.size(); ++i) r(i) = -INFINITY;
        copy_if(tXcX, tXgX, r);
        const int64_t row = tXcX(0)[0] - b * kRows;
        for (int i = 0; i < r.size(); ++i)
          ASSERT_EQ(tXcX(i)[0] - b * kRows, row);  // one row per thread
        for (int i = 0; i < r.size(); ++i) {
          if (pass == 0) row_max[size_t(row)] = std::fmax(row_max[size_t(row)], r(i));
          if (pass == 1) row_sum[size_t(row)] += std::exp(r(i) - row_max[size_t(row)]);
          if (pass == 2) r(i) = std::exp(r(i) - row_max[size_t(row)]) / row_sum[size_t(row)];
        }
        if (pass == 2) copy_if(tXcX, r, thr.partition_D(gY));
      }
  }
  for (int64_t i = 0; i < m; ++i) {
    double mx = -INFINITY, sum = 0;
    for (int64_t j = 0; j < n; ++j) mx = std::fmax(mx, double(x.data[j + i * ld]));
    for (int64_t j = 0; j < n; ++j) sum += std::exp(double(x.data[j + i * ld]) - mx);
    for (int64_t j = 0; j < ld; ++j) {
      const float got = y.data[j + i * ld];
      if (j >= n) {
        ASSERT_EQ(got, -3.0f) << "written past the row's end at (" << i << "," << j << ")";
      } else {
        ASSERT_NEAR(got, std::exp(double(x.data[j + i * ld]) - mx) / sum, 1e-6)
            << "(" << i << "," << j << ")";
      }
    }
  }
  // The shuffle partners of every thread hold its row, and they are all of the row's threads.
  if constexpr (kRowThreads <= 32) {
    constexpr LaneShuffles kX = row_shuffles(Cfg::kCopy, Layout(make_tuple(int64_t(kRows), kBN)));
    EXPECT_EQ(1 << kX.n, kRowThreads);
    for (int s = 0; s < kX.n; ++s)
      for (int t = 0; t < kRows * kRowThreads; ++t)
        EXPECT_EQ(t / kRowThreads, (t ^ kX.xor_mask[s]) / kRowThreads);
  }
}

TEST(Copy, SoftmaxRowsInRegistersMatchBruteForce) {
  check_softmax_partition<1024, 32, 4>(7, 1000, 1004);
  check_softmax_partition<1024, 32, 4>(5, 1024, 1024);
  check_softmax_partition<1024, 32, 4>(3, 333, 333);
  check_softmax_partition<4096, 128, 1>(2, 4093, 4100);
  check_softmax_partition<32768, 1024, 1>(1, 32768, 32768);
  check_softmax_partition<32768, 1024, 1>(2, 5001, 5003);
}

}  // namespace
