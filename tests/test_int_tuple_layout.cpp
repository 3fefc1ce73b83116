// Integer tuples and layouts: structure, evaluation, capacity and overflow.
#include <gtest/gtest.h>

#include <tessera.hpp>

using namespace tessera;
using namespace tessera::literals;

// The value types are literal, trivially copyable and heap-free.
static_assert(std::is_trivially_copyable_v<IntTuple>);
static_assert(std::is_trivially_copyable_v<Layout>);
static_assert(std::is_trivially_copyable_v<Tiler>);

TEST(IntTuple, StructureQueries) {
  constexpr IntTuple t = "(2,(3,4))"_tuple;
  static_assert(t.rank() == 2 && depth(t) == 2 && product(t) == 24 && t.leaf_count() == 3);
  static_assert(t[1] == "(3,4)"_tuple && t[0] == IntTuple(2));
  static_assert(flatten(t) == "(2,3,4)"_tuple);
  static_assert(prefix_product(t) == "(1,(2,6))"_tuple);
  static_assert(depth(IntTuple(4)) == 0 && depth("(4)"_tuple) == 1);
  static_assert(!("(4)"_tuple == IntTuple(4)));  // a one-element tuple is not an integer
  EXPECT_TRUE(congruent("(1,(2,3))"_tuple, "(7,(8,9))"_tuple));
  EXPECT_FALSE(congruent("(1,(2,3))"_tuple, "(7,8,9)"_tuple));
  EXPECT_THROW(t[2], Error);
}

TEST(IntTuple, Idx2CrdIsColexicographic) {
  EXPECT_EQ(idx2crd(7, "(3,(2,4))"_tuple), "(1,(0,1))"_tuple);
  EXPECT_EQ(idx2crd(12, "(8,3)"_tuple), "(4,1)"_tuple);
  EXPECT_EQ(idx2crd(8, "(4,(1,6))"_tuple), "(0,(0,2))"_tuple);
}

TEST(IntTuple, ElemLess) {
  EXPECT_TRUE(elem_less("(3,4)"_tuple, "(4,5)"_tuple));
  EXPECT_FALSE(elem_less("(3,5)"_tuple, "(4,5)"_tuple));
  EXPECT_THROW(elem_less("(3,5)"_tuple, "(4,(5,1))"_tuple), Error);
}

TEST(Layout, NestedExampleEvaluatesAsTheTable) {
  // The tiling example: ((2,2),(2,2)):((1,4),(2,8)) visits 0 4 1 5 2 6 3 7 for the listed
  // coordinates.
  constexpr Layout L = "((2,2),(2,2)):((1,4),(2,8))"_layout;
  static_assert(L.size() == 16 && L.cosize() == 16 && L.rank() == 2 && L.depth() == 2);
  EXPECT_EQ(L("((0,1),(0,0))"_tuple), 4);
  EXPECT_EQ(L("((1,1),(1,0))"_tuple), 7);
  int expected[] = {0, 4, 1, 5, 2, 6, 3, 7};
  int order[][4] = {{0, 0, 0, 0}, {0, 1, 0, 0}, {1, 0, 0, 0}, {1, 1, 0, 0},
                    {0, 0, 1, 0}, {0, 1, 1, 0}, {1, 0, 1, 0}, {1, 1, 1, 0}};
  for (int k = 0; k < 8; ++k) {
    auto [i0, i1, j0, j1] = order[k];
    EXPECT_EQ(L(make_tuple(make_tuple(i0, i1), make_tuple(j0, j1))), expected[k]);
  }
}

TEST(Layout, CoordinateForms) {
  constexpr Layout L = "(4,(3,2)):(2,(8,1))"_layout;
  static_assert(L(1) == 2 && L(4) == 8 && L(12) == 1 && L(3, 3) == 6 + 1 &&
                L.cosize() == 24);  // 3 in (3,2) is (0,1)
  EXPECT_EQ(L("(3,(1,1))"_tuple), 15);
  EXPECT_EQ(L(3, 4), L("(3,(1,1))"_tuple));  // a rank-level coordinate splits inside the mode
  EXPECT_EQ(L(100), L(4 * 6 * 4 + 4));       // past size, the last mode extends
  EXPECT_THROW(L("(1,2,3)"_tuple), Error);   // rank mismatch is an error
}

TEST(Layout, ConstructionAndModes) {
  EXPECT_EQ(Layout("(4,(3,2))"_tuple), "(4,(3,2)):(1,(4,12))"_layout);  // column-major default
  EXPECT_EQ(make_layout("4:1"_layout, "3:4"_layout), "(4,3):(1,4)"_layout);
  EXPECT_EQ(("(4,(3,2)):(2,(8,1))"_layout)[1], "(3,2):(8,1)"_layout);
  EXPECT_EQ(flatten("(4,(3,2)):(2,(8,1))"_layout), "(4,3,2):(2,8,1)"_layout);
  EXPECT_THROW(Layout("(4,3)"_tuple, "(1,(3,4))"_tuple), Error);  // not congruent
}

TEST(Layout, CapacityAndOverflowAreErrors) {
  TupleBuilder b;
  for (int i = 0; i < kMaxNodes - 1; ++i) b.add(IntTuple(2));
  EXPECT_THROW(b.add(IntTuple(2)), Error);
  try {
    Layout("(1099511627776,1099511627776)"_tuple).size();
    FAIL() << "size overflow not detected";
  } catch (Error const& e) {
    EXPECT_NE(std::string(e.what()).find("overflow"), std::string::npos) << e.what();
  }
}

// A compact layout of a shape checks its extents like Layout(shape, stride): a zero extent is an
// error, not a division by zero later in the algebra.
TEST(Layout, CompactOfAShapeRejectsZeroExtents) {
  try {
    Layout l(make_tuple(int64_t(4), int64_t(0)));
    FAIL() << "expected an error, got " << to_string(l);
  } catch (tessera::Error const& e) {
    EXPECT_STREQ(e.what(), "layout: shape (4,0) has an extent below 1");
  }
}
