// Property tests of layout_ops.hpp against brute force on random layouts: nullspace, upcast /
// downcast / recast_layout, max_common_layout / max_common_vector, make_ordered_layout,
// make_layout_like, compact col/row major, tile_to_shape, layout_add. (CuTe's exact answers for
// the same ops are pinned by test_cute_cpp.cpp; these check the defining properties on thousands of
// operands.)
//
// Reproducing a failure: TESSERA_SEED=<n> tessera_unit_tests --gtest_filter=LayoutOps.<Name>; the
// assertion message prints the operands. The brute-force evaluator (brute_force.hpp) is
// independent of Layout::operator().
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <optional>
#include <random>
#include <set>
#include <string>
#include <vector>

#include <tessera.hpp>

#include "brute_force.hpp"

using namespace tessera;

namespace layout_ops_test {

using namespace tessera::testing;
constexpr int kCases = 2000;
constexpr int64_t kMinCases = 500;  // non-rejected cases each property must see

std::string str(Layout const& l) { return to_string(l); }

template <class F>
auto attempt(F const& f) -> std::optional<decltype(f())> {
  try {
    return f();
  } catch (Error const&) {
    return std::nullopt;
  }
}

// A random layout: a nesting skeleton over 1..4 leaves, extents from `ext`, strides from `strides`
// (0 with probability p0), at most 2048 elements.
Layout random_layout(Rng& r, Vec const& ext, Vec const& strides, double p0 = 0.15,
                     int max_leaves = 4) {
  int n = int(r.uni(1, max_leaves));
  Vec s, d;
  int64_t size = 1;
  for (int k = 0; k < n; ++k) {
    int64_t e = r.pick(ext);
    if (size * e > 2048) e = 1;
    size *= e;
    s.push_back(e);
    d.push_back(r.coin(p0) ? 0 : r.pick(strides));
  }
  // Nest: either flat, or the first two leaves grouped.
  TupleBuilder sh, st;
  if (n >= 3 && r.coin(0.3)) {
    sh.add(make_tuple(s[0], s[1]));
    st.add(make_tuple(d[0], d[1]));
    for (int k = 2; k < n; ++k) sh.add(IntTuple(s[k])), st.add(IntTuple(d[k]));
  } else if (n == 1 && r.coin(0.7)) {
    return Layout(IntTuple(s[0]), IntTuple(d[0]));
  } else {
    for (int k = 0; k < n; ++k) sh.add(IntTuple(s[k])), st.add(IntTuple(d[k]));
  }
  return Layout(sh.get(), st.get());
}
const Vec kExt = {1, 2, 3, 4, 5, 6, 8};
const Vec kExt2 = {1, 2, 4, 8};
const Vec kStrides = {1, 2, 3, 4, 5, 6, 8, 12, 16, 24, 32};
const Vec kStrides2 = {1, 2, 4, 8, 16, 32, 64};

void report(const char* property, std::vector<std::pair<const char*, int64_t>> const& counts) {
  std::printf("[  counts  ] %s:", property);
  for (auto const& [name, n] : counts) std::printf(" %s=%lld", name, (long long)n);
  std::printf("\n");
}

// nullspace(L) = K: L(K(i)) = 0, K injective into L's domain, size(K) = size(L) / size(filter(L)).
TEST(LayoutOps, Nullspace) {
  Rng r("Nullspace");
  int64_t cases = 0, nontrivial = 0;
  for (int c = 0; c < kCases; ++c) {
    Layout L = random_layout(r, kExt, kStrides, 0.4);
    Layout K = nullspace(L);
    Ref f(L), k(K);
    std::string ctx = "nullspace(" + str(L) + ") = " + str(K);
    ASSERT_EQ(k.size(), f.size() / Ref(filter(L)).size()) << ctx;
    std::set<int64_t> seen;
    for (int64_t i = 0; i < k.size(); ++i) {
      ASSERT_GE(k(i), 0) << ctx;
      ASSERT_LT(k(i), f.size()) << ctx;
      ASSERT_EQ(f(k(i)), 0) << ctx << " at " << i;
      seen.insert(k(i));
    }
    ASSERT_EQ(int64_t(seen.size()), k.size()) << ctx << " is not injective";
    ++cases;
    nontrivial += k.size() > 1;
  }
  report("Nullspace", {{"cases", cases}, {"nontrivial", nontrivial}});
  EXPECT_GE(nontrivial, kMinCases);
}

// downcast then upcast by n is the identity (for a layout with a stride-1 leaf); upcast maps each
// old offset x to x / n: image(upcast(L, n)) = { x / n : x in image(L) } when every stride is a
// multiple of n or divides n (the divisibility condition), with d * s a multiple of n for d < n.
TEST(LayoutOps, UpcastDowncast) {
  Rng r("UpcastDowncast");
  int64_t round_trips = 0, images = 0, rejected = 0;
  for (int c = 0; c < kCases; ++c) {
    int64_t n = r.pick(Vec{2, 4, 8});
    Layout L = random_layout(r, kExt2, kStrides2, 0.1);
    std::string ctx = str(L) + " by " + std::to_string(n);
    Ref f(L);
    bool has1 = std::count(f.d.begin(), f.d.end(), 1) > 0;
    auto D = attempt([&] { return downcast(L, n); });
    ASSERT_EQ(D.has_value(), has1) << "downcast " << ctx;
    if (D) {
      int64_t grown = f.size();  // each stride-1 leaf grows n-fold
      for (int64_t d : f.d) grown *= d == 1 ? n : 1;
      ASSERT_EQ(Ref(*D).size(), grown) << "downcast " << ctx;
      ASSERT_EQ(upcast(*D, n), L) << "upcast(downcast(" << ctx << ")) = " << str(upcast(*D, n));
      ASSERT_EQ(recast_layout(L, 32, 32 / n), *D) << ctx;
      ++round_trips;
    }
    // Every leaf steps over whole new elements, except at most one that fills them (stride d < n
    // with s*d a multiple of n); two such leaves would carry into each other.
    bool whole = true;
    int inside = 0;
    for (size_t k = 0; k < f.s.size(); ++k) {
      bool fills = f.d[k] != 0 && f.d[k] < n;
      inside += fills && f.s[k] > 1;
      whole &= f.d[k] == 0 || f.d[k] % n == 0 || (fills && (f.s[k] * f.d[k]) % n == 0);
    }
    whole &= inside <= 1;
    auto U = attempt([&] { return upcast(L, n); });
    if (!U) {
      ++rejected;
      continue;
    }
    ASSERT_EQ(recast_layout(L, 8, 8 * n), *U) << ctx;
    if (!whole) continue;
    std::set<int64_t> want;
    for (int64_t x : f.image_set()) want.insert(x / n);
    ASSERT_EQ(Ref(*U).image_set(), want) << "upcast(" << ctx << ") = " << str(*U);
    ++images;
  }
  report("UpcastDowncast",
         {{"round_trips", round_trips}, {"images", images}, {"rejected", rejected}});
  EXPECT_GE(round_trips, kMinCases / 2);
  EXPECT_GE(images, kMinCases / 2);
}

// max_common_layout(A, B) = R: A(R(i)) = B(R(i)) = i for i < size(R); max_common_vector = size(R);
// for A = B a bijection onto [0, size), R covers at least A's first contiguous run.
TEST(LayoutOps, MaxCommonLayout) {
  Rng r("MaxCommonLayout");
  int64_t cases = 0, longer = 0;
  for (int c = 0; c < kCases; ++c) {
    Layout A = random_layout(r, kExt, kStrides2, 0.1);
    Layout B = r.coin(0.3) ? A : random_layout(r, kExt, kStrides2, 0.1);
    if (r.coin(0.3)) B = make_layout_like(A);  // same order, compact: long common runs
    auto R = attempt([&] { return max_common_layout(A, B); });
    auto V = attempt([&] { return max_common_vector(A, B); });
    ASSERT_EQ(R.has_value(), V.has_value()) << str(A) << ", " << str(B);
    if (!R) continue;
    Ref a(A), b(B), g(*R);
    std::string ctx = "max_common_layout(" + str(A) + ", " + str(B) + ") = " + str(*R);
    ASSERT_EQ(g.size(), *V) << ctx;
    for (int64_t i = 0; i < g.size(); ++i) {
      ASSERT_EQ(a(g(i)), i) << ctx << " at " << i;
      ASSERT_EQ(b(g(i)), i) << ctx << " at " << i;
    }
    ++cases;
    longer += g.size() > 1;
  }
  report("MaxCommonLayout", {{"cases", cases}, {"longer_than_1", longer}});
  EXPECT_GE(cases, kMinCases);
  EXPECT_GE(longer, kMinCases / 4);
}

// Compact constructions: make_col_major(S)(i) = i; make_row_major is the same with the modes
// reversed; make_ordered_layout with distinct orders is a bijection onto [0, size) whose leaves'
// strides increase with their order; make_layout_like(L) keeps L's shape, its stride-0 leaves and
// the order of its other strides, and is compact over them.
TEST(LayoutOps, CompactOrderedLike) {
  Rng r("CompactOrderedLike");
  int64_t ordered = 0, like = 0;
  for (int c = 0; c < kCases; ++c) {
    Layout L = random_layout(r, kExt, kStrides, 0.2);
    Ref col(make_col_major(L.shape)), row(make_row_major(L.shape));
    Vec s = Ref(L).s;
    for (int64_t i = 0; i < col.size(); ++i) {
      ASSERT_EQ(col(i), i) << str(make_col_major(L.shape));
      // row-major: the last leaf varies fastest
      int64_t off = 0, rest = i;
      for (size_t k = 0; k < s.size(); ++k) {
        int64_t ck = k + 1 < s.size() ? rest % s[k] : rest;
        rest /= s[k];
        int64_t st = 1;
        for (size_t j = k + 1; j < s.size(); ++j) st *= s[j];
        off += ck * st;
      }
      ASSERT_EQ(row(i), off) << str(make_row_major(L.shape));
    }
    // Distinct orders: a random permutation of the leaves.
    Vec perm(s.size());
    for (size_t k = 0; k < perm.size(); ++k) perm[k] = int64_t(k);
    for (size_t k = perm.size(); k > 1; --k)
      std::swap(perm[k - 1], perm[size_t(r.uni(0, int64_t(k) - 1))]);
    IntTuple order = L.shape;
    for (int i = 0, k = 0; i < order.n; ++i)
      if (!order.tup[i]) order.v[i] = perm[size_t(k++)];
    Layout O = make_ordered_layout(L.shape, order);
    Ref o(O);
    std::string ctx =
        "make_ordered_layout(" + to_string(L.shape) + ", " + to_string(order) + ") = " + str(O);
    std::set<int64_t> img = o.image_set();
    ASSERT_EQ(int64_t(img.size()), o.size()) << ctx;
    ASSERT_EQ(*img.rbegin(), o.size() - 1) << ctx;
    for (size_t i = 0; i < s.size(); ++i)
      for (size_t j = 0; j < s.size(); ++j)
        if (s[i] > 1 && s[j] > 1 && perm[i] < perm[j]) {
          ASSERT_LT(o.d[i], o.d[j]) << ctx;
        }
    ++ordered;

    Layout K = make_layout_like(L);
    Ref k(K), f(L);
    ctx = "make_layout_like(" + str(L) + ") = " + str(K);
    ASSERT_EQ(K.shape, L.shape) << ctx;
    int64_t nonzero = 1;
    for (size_t i = 0; i < s.size(); ++i) {
      if (f.d[i] == 0) {
        ASSERT_EQ(k.d[i], 0) << ctx;
      } else {
        nonzero *= s[i];
      }
      for (size_t j = 0; j < s.size(); ++j)
        if (f.d[i] != 0 && f.d[j] != 0 && s[i] > 1 && s[j] > 1 && f.d[i] < f.d[j]) {
          ASSERT_LT(k.d[i], k.d[j]) << ctx;
        }
    }
    bool distinct = true;  // distinct non-zero strides: then compact over the non-zero leaves
    for (size_t i = 0; i < s.size(); ++i)
      for (size_t j = 0; j < i; ++j) distinct &= f.d[i] == 0 || f.d[i] != f.d[j];
    if (distinct) {
      std::set<int64_t> im = k.image_set();
      ASSERT_EQ(int64_t(im.size()), nonzero) << ctx;
      ASSERT_EQ(*im.rbegin(), nonzero - 1) << ctx;
      ++like;
    }
  }
  report("CompactOrderedLike", {{"ordered", ordered}, {"like_compact", like}});
  EXPECT_GE(ordered, kMinCases);
  EXPECT_GE(like, kMinCases);
}

// tile_to_shape(B, S) = R: mode i of R is (block_i, copies_i) with size(R_i) = size(S_i), and R is
// B plus the offset of the copy: R((b_0,c_0),(b_1,c_1),..) = B(b_0,b_1,..) + R((0,c_0),(0,c_1),..).
// A block that does not divide the shape is rejected; so is one whose blocked_product composition
// fails (CuTe's C++ rejects both).
TEST(LayoutOps, TileToShape) {
  Rng r("TileToShape");
  int64_t cases = 0, rejected = 0, product_rejected = 0;
  auto message = [](auto f) -> std::string {
    try {
      f();
    } catch (Error const& e) {
      return e.what();
    }
    return "(no error)";
  };
  for (int c = 0; c < kCases; ++c) {
    Layout B = random_layout(r, {1, 2, 3, 4}, kStrides, 0.1, 2);
    if (B.shape.is_int()) B = make_layout(B);
    int rank = B.rank() + int(r.uni(0, 1));
    TupleBuilder tb;
    bool divides = true;
    for (int i = 0; i < rank; ++i) {
      int64_t have = i < B.rank() ? B[i].size() : 1, reps = r.uni(1, 3);
      int64_t want = have * reps + (r.coin(0.1) ? 1 : 0);
      divides &= want % have == 0;
      tb.add(IntTuple(want));
    }
    IntTuple S = tb.get();
    bool row = r.coin(0.3);
    auto R = attempt([&] { return tile_to_shape(B, S, row); });
    std::string ctx = "tile_to_shape(" + str(B) + ", " + to_string(S) + (row ? ", row" : "") + ")";
    std::string why = message([&] { tile_to_shape(B, S, row); });
    if (!divides) {  // the block must divide the target shape
      ASSERT_FALSE(R) << ctx;
      ASSERT_NE(why.find("tile_to_shape: the block"), std::string::npos) << ctx << ": " << why;
      ++rejected;
      continue;
    }
    if (!R) {  // blocked_product's complement or composition fails (as in C++), e.g. 3:4 over (9,3)
      bool product_rule =
          why.find("composition:") != std::string::npos ||
          why.find("complement:") != std::string::npos;  // e.g. an overlapping block
      ASSERT_TRUE(product_rule) << ctx << ": " << why;
      ++product_rejected;
      continue;
    }
    ctx += " = " + str(*R);
    ASSERT_EQ(R->rank(), rank) << ctx;
    // Enumerate per-mode (block index, copy index) and check R = B + copy offset.
    Vec bs, cs;
    for (int i = 0; i < rank; ++i) {
      ASSERT_EQ((*R)[i].size(), product(S[i])) << ctx;
      bs.push_back(i < B.rank() ? B[i].size() : 1);
      cs.push_back(product(S[i]) / bs.back());
    }
    int64_t nb = 1, nc = 1;
    for (int i = 0; i < rank; ++i) nb *= bs[size_t(i)], nc *= cs[size_t(i)];
    for (int64_t ci = 0; ci < nc; ++ci) {
      for (int64_t bi = 0; bi < nb; ++bi) {
        TupleBuilder crd, bcrd, zero;
        int64_t b = bi, cc = ci;
        for (int i = 0; i < rank; ++i) {
          int64_t x = b % bs[size_t(i)], y = cc % cs[size_t(i)];
          b /= bs[size_t(i)], cc /= cs[size_t(i)];
          crd.add(make_tuple(x, y));
          zero.add(make_tuple(int64_t(0), y));
          if (i < B.rank()) bcrd.add(IntTuple(x));
        }
        int64_t got = (*R)(crd.get());
        int64_t want = B(B.rank() == 1 ? bcrd.get()[0] : bcrd.get()) + (*R)(zero.get());
        ASSERT_EQ(got, want) << ctx;
      }
    }
    ++cases;
  }
  report("TileToShape",
         {{"cases", cases}, {"rejected", rejected}, {"product_rejected", product_rejected}});
  EXPECT_GE(cases, kMinCases);
  EXPECT_GE(rejected, 10);
}

// layout_add(A, B) = R: R(i) = A(i) + B(i) for every i, and it commutes. B is drawn as another
// factorization of size(A) (so a common refinement exists when the extents divide one another).
TEST(LayoutOps, LayoutAdd) {
  Rng r("LayoutAdd");
  int64_t cases = 0, rejected = 0;
  for (int c = 0; c < kCases; ++c) {
    Layout A = random_layout(r, kExt2, kStrides, 0.2);
    Ref a(A);
    // B: split size(A) into random power-of-two (or odd, rarely) extents.
    int64_t left = a.size();
    TupleBuilder sh, st;
    while (left > 1) {
      Vec div;
      for (int64_t k = 2; k <= left; ++k)
        if (left % k == 0) div.push_back(k);
      int64_t e = r.pick(div);
      sh.add(IntTuple(e)), st.add(IntTuple(r.coin(0.2) ? 0 : r.pick(kStrides)));
      left /= e;
    }
    if (sh.size() == 0) sh.add(IntTuple(1)), st.add(IntTuple(r.pick(kStrides)));
    Layout B(sh.get(), st.get());
    if (r.coin(0.05)) B = make_layout(B, Layout(3, 1));  // different sizes: rejected
    auto R = attempt([&] { return layout_add(A, B); });
    std::string ctx = "layout_add(" + str(A) + ", " + str(B) + ")";
    if (!R) {
      ++rejected;
      continue;
    }
    Ref g(*R), b(B);
    ctx += " = " + str(*R);
    ASSERT_EQ(g.size(), a.size()) << ctx;
    for (int64_t i = 0; i < g.size(); ++i) ASSERT_EQ(g(i), a(i) + b(i)) << ctx << " at " << i;
    ASSERT_EQ(layout_add(B, A), *R) << ctx;
    ++cases;
  }
  report("LayoutAdd", {{"cases", cases}, {"rejected", rejected}});
  EXPECT_GE(cases, kMinCases);
  EXPECT_GE(rejected, 10);
}

// The worked examples of the header, and the error messages (rule and operands).
TEST(LayoutOps, ExamplesAndErrors) {
  EXPECT_EQ(to_string(upcast(parse_layout("(4,8):(1,4)"), 2)), "(2,8):(1,2)");
  EXPECT_EQ(to_string(downcast(parse_layout("(4,8):(1,4)"), 2)), "(8,8):(1,8)");
  EXPECT_EQ(to_string(make_ordered_layout(parse_int_tuple("(2,3,4)"), parse_int_tuple("(1,2,0)"))),
            "(2,3,4):(4,8,1)");
  EXPECT_EQ(to_string(make_layout_like(parse_layout("(4,3):(0,5)"))), "(4,3):(0,1)");
  EXPECT_EQ(to_string(tile_to_shape(parse_layout("(2,2):(1,2)"), parse_int_tuple("(4,6)"))),
            "((2,2),(2,3)):((1,4),(2,8))");
  EXPECT_EQ(to_string(layout_add(parse_layout("(4,3):(1,4)"), parse_layout("(4,3):(3,1)"))),
            "(4,3):(4,5)");
  EXPECT_EQ(to_string(make_col_major(parse_int_tuple("(4,1,3)"))), "(4,1,3):(1,0,4)");
  EXPECT_EQ(to_string(make_row_major(parse_int_tuple("(2,(3,4))"))), "(2,(3,4)):(12,(4,1))");

  auto message = [](auto f) -> std::string {
    try {
      f();
    } catch (Error const& e) {
      return e.what();
    }
    return "(no error)";
  };
  EXPECT_EQ(message([] { upcast(parse_layout("(4,3):(1,6)"), 4); }),
            "upcast: divisibility fails: stride 6 of (4,3):(1,6) and the factor 4 do not divide "
            "one another");
  EXPECT_EQ(message([] { downcast(parse_layout("4:2"), 2); }),
            "downcast: 4:2 needs a stride-1 mode and a positive factor, got 2");
  EXPECT_EQ(message([] { tile_to_shape(parse_layout("(2,3):(1,2)"), parse_int_tuple("(4,4)")); }),
            "tile_to_shape: the block (2,3):(1,2) (mode 1 of 3 elements) does not divide the "
            "target shape (4,4)");
  EXPECT_EQ(
      message([] { layout_add(parse_layout("(3,4):(1,3)"), parse_layout("(2,6):(1,2)")); }),
      "layout_add: (3,4):(1,3) and (2,6):(1,2) have no common refinement: extents 3 and 2 do not "
      "divide one another");
  EXPECT_EQ(message([] { layout_add(parse_layout("6:1"), parse_layout("8:1")); }),
            "layout_add: 6:1 and 8:1 have different sizes 6 and 8");
  EXPECT_EQ(
      message([] { make_ordered_layout(parse_int_tuple("(2,3)"), parse_int_tuple("(0,(1,2))")); }),
      "make_ordered_layout: the order (0,(1,2)) does not match the modes of the shape (2,3)");
}

}  // namespace layout_ops_test
