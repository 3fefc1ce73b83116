// Coordinate layouts and the kernel vocabulary (device_tensor.hpp), run on the host: the same
// functions a kernel calls, checked against the host algebra by brute force.
#include <gtest/gtest.h>

#include <random>
#include <vector>

#include <tessera.hpp>

using namespace tessera;
using namespace tessera::literals;

namespace {

template <int R>
Coord<R> coord_in(int64_t index, Coord<R> const& tile) {  // mixed radix, the last mode unbounded
  Coord<R> c;
  for (int j = 0; j + 1 < R; ++j) c.v[j] = index % tile.v[j], index /= tile.v[j];
  c.v[R - 1] = index;
  return c;
}

// A coordinate layout gives, at every index, the tile coordinate of the index layout's offset.
template <int R>
void expect_same_coordinates(Layout const& l, Coord<R> const& tile) {
  CoordLayout<R> c = make_coord_layout(l, tile);
  ASSERT_EQ(c.size, l.size()) << to_string(l);
  for (int64_t i = 0; i < l.size(); ++i)
    ASSERT_EQ(c(i), coord_in(l(i), tile)) << to_string(l) << " at " << i;
}

TEST(CoordLayout, SplitsALeafAtTheModeBoundary) {
  // 256:4 in a (128,8) tile runs down a column and on into the next ones.
  CoordLayout<2> c = make_coord_layout("256:4"_layout, Coord<2>{{128, 8}});
  EXPECT_EQ(c.terms, 1);
  EXPECT_EQ(c.stride[0], (Coord<2>{{4, 0}}));
  EXPECT_EQ(c.last_stride, (Coord<2>{{0, 1}}));
  expect_same_coordinates("256:4"_layout, Coord<2>{{128, 8}});
}

TEST(CoordLayout, EveryPartitionOfTheSeedConfigurations) {
  // Thread and fragment layouts of step 1 and step 4, for C, A and B, checked jointly and by
  // brute force against the index layouts.
  struct Case {
    TiledMMA mma;
    int64_t m, n, k;
  };
  for (Case cs : {Case{presets::step1(), 128, 128, 8}, Case{presets::step4(), 128, 128, 32}}) {
    for (Operand op : {Operand::kC, Operand::kA, Operand::kB}) {
      const int64_t rows = op == Operand::kB ? cs.n : cs.m, cols = op == Operand::kC ? cs.n : cs.k;
      const Coord<2> tile{{rows, cols}};
      ThreadPartition p = cs.mma.partitioner(op, Layout(make_tuple(rows, cols)));
      Layout both[2] = {p.thread, p.fragment};
      CoordLayout<2> c[2];
      make_coord_layouts(both, c, 2, tile);
      for (int64_t t = 0; t < cs.mma.threads(); ++t)
        for (int64_t v = 0; v < p.fragment.size(); ++v)
          ASSERT_EQ(c[0](t) + c[1](v), coord_in(p.thread(t) + p.fragment(v), tile))
              << operand_name(op) << " thread " << t << " value " << v;
    }
  }
}

TEST(CoordLayout, RandomCompactSubLayouts) {
  // Leaves s:d of a compact tile's index space that never carry: products of the tile's own
  // leaves (divisors of its extents), shuffled; compared with the mixed-radix coordinates.
  std::mt19937 rng(7);
  for (int trial = 0; trial < 2000; ++trial) {
    const int64_t e0 = int64_t(1) << (rng() % 5), e1 = int64_t(1) << (rng() % 5),
                  e2 = 1 + rng() % 4;
    const Coord<3> tile{{e0, e1, e2}};
    // Split each mode into two factors and order the four or six leaves at random.
    Modes m;
    for (int j = 0; j < 3; ++j) {
      const int64_t ext = tile.v[j], pre = j == 0 ? 1 : j == 1 ? e0 : e0 * e1;
      int64_t a = 1;
      while (a < ext && rng() % 2) a *= 2;
      if (ext % a) a = 1;
      m.push(a, pre);
      m.push(ext / a, pre * a);
    }
    for (int i = m.n - 1; i > 0; --i) {
      int r = int(rng() % uint32_t(i + 1));
      std::swap(m.s[i], m.s[r]);
      std::swap(m.d[i], m.d[r]);
    }
    expect_same_coordinates(m.layout(), tile);
  }
}

TEST(CoordLayout, RejectsLeavesThatCarry) {
  // 3:50 and 3:30 in a 128-row tile reach row 100 + 60: the sum carries into the next column.
  try {
    make_coord_layout("(3,3):(50,30)"_layout, Coord<2>{{128, 8}});
    FAIL() << "expected an error";
  } catch (Error const& e) {
    EXPECT_STREQ(
        e.what(),
        "coord_layout: the leaves of (3,3):(50,30) reach 160 in mode 0 of a tile of extent "
        "128: their sum carries into the next mode, so tile coordinates are not linear in them");
  }
  EXPECT_THROW(make_coord_layout("4:-1"_layout, Coord<2>{{8, 8}}), Error);
}

// The vocabulary on the host: a (300,200) column-major matrix with ldc 307, the step 1
// partition of C's tile (1,1) -- every element reached through the views equals the element the
// host algebra names, and the identity partition's predicate says which are inside.
struct Step1 {
  static constexpr TiledMMA kMma = presets::step1();
};

TEST(DeviceTensor, TilePartitionAndPredicatesMatchTheHostAlgebra) {
  const int64_t M = 300, N = 200, ldc = 307;
  std::vector<float> data(size_t(ldc * N));
  for (size_t i = 0; i < data.size(); ++i) data[i] = float(i);
  static constexpr Coord<3> kCta{{128, 128, 8}};
  auto mC = make_tensor(data.data(), make_shape(M, N), make_stride(unit, ldc));
  auto cC = make_identity_tensor(mC.shape);
  auto gC = local_tile<kCta, Proj{1, 1, 0}>(mC, 2, 1, _);  // (128,128) at rows 256.., cols 128..
  auto tile_c = local_tile<kCta, Proj{1, 1, 0}>(cC, 2, 1, _);
  // The host partition of the compact tile names (row, col) in the tile.
  const Layout compact = Layout(make_tuple(int64_t(128), int64_t(128)));
  for (int64_t t : {0, 1, 17, 200, 255}) {
    const ThrMMA<Step1> thr{t};
    auto tCgC = thr.partition_C(gC);
    auto tCcC = thr.partition_C(tile_c);
    View host = Step1::kMma.partition_C(compact, t);
    ASSERT_EQ(tCgC.size(), host.layout.size());
    for (int64_t v = 0; v < tCgC.size(); ++v) {
      const int64_t row = 256 + host(v) % 128, col = 128 + host(v) / 128;
      EXPECT_EQ(&tCgC(v), data.data() + row + col * ldc) << "thread " << t << " value " << v;
      EXPECT_EQ(tCcC(v), (Coord<2>{{row, col}}));
      EXPECT_EQ(tCcC.inside(v), row < M && col < N);
    }
  }
}

TEST(DeviceTensor, KeptModeSlicesAndAxpby) {
  // A (M,K) operand with a run-time leading dimension: k-tile 2, k-block 3 of thread 5's A
  // partition are the elements the host algebra names; axpby writes only inside the matrix.
  const int64_t M = 130, K = 40, lda = 131;
  std::vector<float> a(size_t(lda * K));
  for (size_t i = 0; i < a.size(); ++i) a[i] = float(i);
  static constexpr Coord<3> kCta{{128, 128, 8}};
  auto mA = make_tensor(a.data(), make_shape(M, K), make_stride(1, lda));  // run-time unit stride
  auto gA = local_tile<kCta, Proj{1, 0, 1}>(mA, 1, 0, _);
  auto cA = local_tile<kCta, Proj{1, 0, 1}>(make_identity_tensor(mA.shape), 1, 0, _);
  const ThrMMA<Step1> thr{5};
  auto tCgA = thr.partition_A(gA).at(2)(_, _, 3);  // (V,M) of k-block 3 in k-tile 2
  auto tCcA = thr.partition_A(cA).at(2)(_, _, 3);
  View host = Step1::kMma.partition_A(Layout(make_tuple(int64_t(128), int64_t(8))), 5);
  auto row_of = [&](int v) { return 128 + host(v + 8 * 3) % 128; };  // m-tile 1, k-block 3
  auto col_of = [&](int v) { return 16 + host(v + 8 * 3) / 128; };   // k-tile 2
  auto r = make_fragment_like<float>(tCgA);  // (V,M) in registers
  copy(tCgA, r, tCcA);
  for (int v = 0; v < 8; ++v) {
    const bool inside = row_of(v) < M && col_of(v) < K;
    EXPECT_EQ(r(v), inside ? a[size_t(row_of(v) + col_of(v) * lda)] : 0.0f) << v;
    EXPECT_EQ(tCcA.inside(v), inside);
  }
  // axpby over the same elements: alpha 2, beta 0 -> only the elements inside change.
  std::vector<float> before = a;
  auto ones = make_fragment_like<float>(tCgA);
  for (int v = 0; v < 8; ++v) ones(v) = 1.0f;
  axpby(2.0f, ones, 0.0f, tCgA, tCcA);
  int written = 0;
  for (int v = 0; v < 8; ++v)
    if (row_of(v) < M) {
      EXPECT_EQ(a[size_t(row_of(v) + col_of(v) * lda)], 2.0f) << v;
      before[size_t(row_of(v) + col_of(v) * lda)] = 2.0f, ++written;
    }
  EXPECT_EQ(a, before);  // nothing else changed
  EXPECT_GT(written, 0);
}


TEST(DeviceTensor, SliceOfAWholeTensorKeepsTheUnderscoreModes) {
  // A (batch, heads, seq, dim) = (2,3,5,8) tensor with padded strides, dim the static unit: the
  // slice (1, 2, _, _) is (seq, dim):(s_seq, 1) at batch 1, head 2, and every element agrees.
  const int64_t B = 2, H = 3, S = 5, D = 8, s_seq = 10, s_head = 60, s_batch = 200;
  std::vector<float> q(size_t(B * s_batch));
  for (size_t i = 0; i < q.size(); ++i) q[i] = float(i);
  auto mQ =
      make_tensor(q.data(), make_shape(B, H, S, D), make_stride(s_batch, s_head, s_seq, unit));
  auto q12 = mQ(1, 2, _, _);
  EXPECT_EQ(q12.shape[0], S);
  EXPECT_EQ(q12.shape[1], D);
  EXPECT_EQ(q12.stride.s[0], s_seq);
  static_assert(decltype(q12.stride)::kStatic.v[1] == 1, "the unit stride stays static");
  static_assert(!decltype(q12.stride)::kStatic.is_static(0), "the seq stride stays run-time");
  for (int64_t i = 0; i < S; ++i)
    for (int64_t d = 0; d < D; ++d)
      EXPECT_EQ(q12.ptr[q12.stride(Coord<2>{{i, d}})],
                q[size_t(s_batch + 2 * s_head + i * s_seq + d)]);
  // Keeping a middle mode: (heads) at batch 0, seq 4, dim 3.
  auto heads = mQ(0, _, 4, 3);
  EXPECT_EQ(heads.shape[0], H);
  for (int64_t h = 0; h < H; ++h)
    EXPECT_EQ(heads.ptr[heads.stride(Coord<1>{{h}})], q[size_t(h * s_head + 4 * s_seq + 3)]);
  // The tile of a slice is the tile of the rank-2 tensor it names.
  static constexpr Coord<3> kCta{{4, 4, 8}};
  auto gQ = local_tile<kCta, Proj{1, 0, 1}>(q12, 1, 0, 0);  // rows 4..7 of (5,8): one inside
  EXPECT_EQ(gQ(0), q[size_t(s_batch + 2 * s_head + 4 * s_seq)]);
  EXPECT_TRUE(gQ.inside(0));
  EXPECT_FALSE(gQ.inside(1));
}


// axpby<128>: step 1's C fragment comes in runs of 4 rows starting at multiples of 4 (16-byte
// stores along M); a run-time leading dimension that breaks the alignment, or a tile reaching
// past the matrix, falls back to element stores. Every case: the same result, nothing outside
// the matrix or the tile touched.
TEST(DeviceTensor, Axpby128StoresRunsAndFallsBack) {
  const ThrMMA<Step1> thr0{0};
  float probe[1] = {};
  auto view = thr0.partition_C(local_tile<Coord<3>{{128, 128, 8}}, Proj{1, 1, 0}>(
      make_tensor(probe, make_shape(int64_t(1), int64_t(1)), make_stride(unit, int64_t(1))), 0, 0,
      _));
  static_assert(aligned_runs_mode(coords_of(decltype(view)::kSpec), 4) == 0);  // runs of 4 along M
  static_assert(aligned_runs_mode(coords_of(decltype(view)::kSpec), 8) == -1);  // not of 8
  for (const int64_t ldc : {int64_t(308), int64_t(307)}) {
    for (const int64_t tile : {int64_t(0), int64_t(2)}) {  // (0,0) inside; (2,1) reaches past M
      const int64_t M = 300, N = 200;
      std::vector<float, std::allocator<float>> storage(size_t(ldc * N + 8));
      float* c = storage.data() +
                 (4 - reinterpret_cast<uintptr_t>(storage.data()) / 4 % 4) % 4;  // 16-byte aligned
      for (int64_t i = 0; i < ldc * N; ++i) c[i] = float(i % 7);
      std::vector<float> want(c, c + ldc * N);
      auto mC = make_tensor(c, make_shape(M, N), make_stride(unit, ldc));
      auto gC = local_tile<Coord<3>{{128, 128, 8}}, Proj{1, 1, 0}>(mC, tile, tile / 2, _);
      auto cC = local_tile<Coord<3>{{128, 128, 8}}, Proj{1, 1, 0}>(make_identity_tensor(mC.shape),
                                                                   tile, tile / 2, _);
      for (int64_t t = 0; t < 256; ++t) {
        const ThrMMA<Step1> thr{t};
        auto tCgC = thr.partition_C(gC);
        auto tCcC = thr.partition_C(cC);
        auto acc = thr.partition_fragment_C(gC);  // (V,M,N)
        for (int v = 0; v < 64; ++v) acc(v) = float(t + v);
        for (int v = 0; v < 64; ++v)
          if (tCcC.inside(v)) {
            const Coord<2> rc = tCcC(v);
            want[size_t(rc.v[0] + rc.v[1] * ldc)] =
                2.0f * float(t + v) + 0.5f * want[size_t(rc.v[0] + rc.v[1] * ldc)];
          }
        axpby<128>(2.0f, acc, 0.5f, tCgC, tCcC);
      }
      for (int64_t i = 0; i < ldc * N; ++i)
        ASSERT_EQ(c[i], want[size_t(i)]) << "ldc " << ldc << " tile " << tile << " offset " << i;
    }
  }
}

}  // namespace
