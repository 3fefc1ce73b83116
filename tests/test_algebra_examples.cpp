// Every worked example of tiling (coalesce, composition, complement, divides, products),
// the rejections of undefined operations with their messages.
#include <gtest/gtest.h>

#include <tessera.hpp>

using namespace tessera;
using namespace tessera::literals;

// Coalescing: (2,4):(1,2) is 8:1; a size-1 mode is an identity for the merge.
static_assert(coalesce("(2,4):(1,2)"_layout) == "8:1"_layout);
static_assert(coalesce("(1,6):(7,2)"_layout) == "6:2"_layout);
// By-mode coalesce keeps the rank: 4 modes -> 2.
static_assert(coalesce("((2,2),(3,2)):((1,2),(4,12))"_layout, "(1,1)"_tuple) ==
              "(4,6):(1,4)"_layout);

// Composition: (6:2) o ((3,2):(1,3)) = (3,2):(2,6) (some texts write B o A for A then B).
static_assert(composition("6:2"_layout, "(3,2):(1,3)"_layout) == "(3,2):(2,6)"_layout);
// (4,3):(1,8) o 6:2 = (2,3):(2,8), the traced example.
static_assert(composition("(4,3):(1,8)"_layout, "6:2"_layout) == "(2,3):(2,8)"_layout);
// The recursive step of that trace: (3):(8) o 3:1 = 3:8.
static_assert(composition("(3):(8)"_layout, "3:1"_layout) == "3:8"_layout);

// Complement: 4:1 within 12 is 3:4 (tile offsets 0, 4, 8).
static_assert(complement("4:1"_layout, 12) == "3:4"_layout);

// Division: 12:1 / 4:1 = (4,3):(1,4); the 2-D example and its convenience forms.
static_assert(logical_divide("12:1"_layout, Tiler("4:1"_layout)) == "(4,3):(1,4)"_layout);
static_assert(logical_divide("(4,6):(1,4)"_layout, Tiler("(2,3)"_tuple)) ==
              "((2,2),(3,2)):((1,2),(4,12))"_layout);
static_assert(zipped_divide("(4,6):(1,4)"_layout, Tiler("(2,3)"_tuple)) ==
              "((2,3),(2,2)):((1,4),(2,12))"_layout);
static_assert(tiled_divide("(4,6):(1,4)"_layout, Tiler("(2,3)"_tuple)) ==
              "((2,3),2,2):((1,4),2,12)"_layout);
static_assert(flat_divide("(4,6):(1,4)"_layout, Tiler("(2,3)"_tuple)) ==
              "(2,3,2,2):(1,4,2,12)"_layout);

// Product: 4:1 x 3:1 = (4,3):(1,4), the dual of the divide above; 4 threads x 2 values.
static_assert(logical_product("4:1"_layout, Tiler("3:1"_layout)) == "(4,3):(1,4)"_layout);
static_assert(logical_product("4:1"_layout, Tiler("2:1"_layout)) == "(4,2):(1,4)"_layout);
static_assert(complement("4:1"_layout, 8) == "2:4"_layout);
// Blocked and raked products of (2,5):(5,1) by (3,4):(1,3).
static_assert(logical_product("(2,5):(5,1)"_layout, Tiler("(3,4):(1,3)"_layout)) ==
              "((2,5),(3,4)):((5,1),(10,30))"_layout);
static_assert(blocked_product("(2,5):(5,1)"_layout, "(3,4):(1,3)"_layout) ==
              "((2,3),(5,4)):((5,10),(1,30))"_layout);
static_assert(raked_product("(2,5):(5,1)"_layout, "(3,4):(1,3)"_layout) ==
              "((3,2),(4,5)):((10,5),(30,1))"_layout);
// Zipped and tiled products regroup ((m,tm),(n,tn)) into ((m,n),(tm,tn)) and ((m,n),tm,tn).
static_assert(zipped_product("(2,5):(5,1)"_layout, make_tile("3:5"_layout, "4:6"_layout)) ==
              "((2,5),(3,4)):((5,1),(10,30))"_layout);
static_assert(tiled_product("(2,5):(5,1)"_layout, make_tile("3:5"_layout, "4:6"_layout)) ==
              "((2,5),3,4):((5,1),10,30)"_layout);

// right_inverse skips broadcast (stride-0) modes, as CuTe's C++ does (pycute would stop there
// and return 1:0): the TV layouts of MMA operands shared by several threads need this.
static_assert(right_inverse("(2,4):(0,1)"_layout) == "4:2"_layout);
static_assert(right_inverse("(4,2):(2,1)"_layout) == "(2,4):(4,1)"_layout);

// Swizzle: Sw<3,4,3> moves 16-byte chunk 0 of row 1 (offset 128) to chunk 1 (offset 144).
static_assert(Swizzle(3, 4, 3)(128) == 144 && Swizzle(3, 4, 3)(144) == 128);
// Row 2 of an (8,64) row-major tile starts at offset 128, which the swizzle moves to 144.
static_assert(composition(Swizzle(3, 4, 3), "(8,64):(64,1)"_layout)(2) == 128 + 16);

namespace {
std::string algebra_error_of(auto f) {
  try {
    f();
  } catch (Error const& e) {
    return e.what();
  }
  return "no error";
}
}  // namespace

TEST(AlgebraErrors, CompositionDivisibility) {
  // CuTe's stride condition: B's stride is a multiple of A's mode, or smaller than it.
  EXPECT_EQ(algebra_error_of([] { composition("(4,4):(1,5)"_layout, "3:6"_layout); }),
            "composition: stride divisibility fails: stride 6 of 3:6 is neither a multiple of nor "
            "smaller than shape 4 of (4,4):(1,5)");
  // Stride 3 < 4 is allowed, but then 3 elements do not split as 2 in mode 4:1 and the rest.
  EXPECT_EQ(algebra_error_of([] { composition("(4,4):(1,5)"_layout, "3:3"_layout); }),
            "composition: shape divisibility fails: 2 elements of mode 4:1 of (4,4):(1,5) do not "
            "divide the remaining size 3 of 3:3");
  // Stride 3 does not divide 4: B must end inside the mode (C++ returns a wrong (2,3):(6,3)).
  EXPECT_EQ(
      algebra_error_of([] { composition("(4,6,8):(2,3,5)"_layout, "6:3"_layout); }),
      "composition: stride 3 of 6:3 does not divide shape 4 of (4,6,8):(2,3,5), so B must end "
      "inside that mode, but it needs 6 elements and the mode holds 2");
  EXPECT_EQ(algebra_error_of([] { composition("(4,3):(3,1)"_layout, "6:1"_layout); }),
            "composition: shape divisibility fails: 4 elements of mode 4:3 of (4,3):(3,1) do not "
            "divide the remaining size 6 of 6:1");
}

TEST(AlgebraErrors, ComplementNotInjective) {
  EXPECT_EQ(algebra_error_of([] { complement("(2,2):(1,1)"_layout, 4); }),
            "complement: (2,2):(1,1) is not injective: mode 2:1 starts inside the extent 2 of the "
            "smaller modes");
}

TEST(AlgebraErrors, TilerRank) {
  EXPECT_EQ(algebra_error_of([] { logical_divide("8:1"_layout, parse_tiler("(2,2)")); }),
            "logical_divide: the tiler (2:1,2:1) has 2 modes but 8:1 has rank 1");
}

TEST(AlgebraErrors, SwizzleShift) {
  EXPECT_EQ(algebra_error_of([] { Swizzle(3, 1, -2); }),
            "swizzle: Sw<3,1,-2> needs B >= 0, M >= 0 and |S| >= B");
}
