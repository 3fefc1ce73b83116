// Notation: CuTe's print form, parsing with spaces, round trips, errors with positions.
#include <gtest/gtest.h>

#include <sstream>

#include <tessera.hpp>

using namespace tessera;
using namespace tessera::literals;

TEST(Notation, PrintsCuTeForm) {
  EXPECT_EQ(to_string("8:1"_layout), "8:1");
  EXPECT_EQ(to_string("(4,3):(1,4)"_layout), "(4,3):(1,4)");
  EXPECT_EQ(to_string("((2,2),(3,2)):((1,2),(4,12))"_layout), "((2,2),(3,2)):((1,2),(4,12))");
  EXPECT_EQ(to_string("(4):(1)"_layout), "(4):(1)");  // a rank-1 tuple keeps its parentheses
  EXPECT_EQ(to_string("(2,(3,4))"_tuple), "(2,(3,4))");
  EXPECT_EQ(to_string(Swizzle(3, 4, 3)), "Sw<3,4,3>");
  EXPECT_EQ(to_string(parse_swizzled_layout("Sw<3,4,3> o 0 o (8,64):(64,1)")),
            "Sw<3,4,3> o 0 o (8,64):(64,1)");
}

TEST(Notation, ParsesSpacesAndRoundTrips) {
  EXPECT_EQ(parse_layout(" ( 4 , 2 ) : ( 1 , 64 ) "), "(4,2):(1,64)"_layout);
  for (const char* s : {"8:1", "(4):(1)", "((4),2):((1),4)", "(4,(3,2)):(-2,(8,0))",
                        "(((2,2)),2,4):(((4,1)),2,4)", "1:0"}) {
    EXPECT_EQ(to_string(parse_layout(s)), s);
    EXPECT_EQ(parse_layout(to_string(parse_layout(s))), parse_layout(s));
  }
}

TEST(Notation, Tilers) {
  Tiler t = parse_tiler("(3:3, _, (2,4):(1,8))");
  ASSERT_TRUE(t.by_mode);
  ASSERT_EQ(t.n, 3);
  EXPECT_EQ(t.mode[0], "3:3"_layout);
  EXPECT_TRUE(t.keep[1]);
  EXPECT_EQ(t.mode[2], "(2,4):(1,8)"_layout);
  Tiler shape = parse_tiler("(2,3)");  // a shape: by-mode compact layouts
  ASSERT_TRUE(shape.by_mode);
  EXPECT_EQ(shape.mode[1], "3:1"_layout);
  Tiler one = parse_tiler("(2,3):(3,1)");  // a layout
  EXPECT_FALSE(one.by_mode);
  EXPECT_EQ(one.mode[0], "(2,3):(3,1)"_layout);
  EXPECT_EQ(parse_tiler("4").mode[0], "4:1"_layout);
  EXPECT_EQ(to_string(t), "(3:3,_,(2,4):(1,8))");
  Tiler again = parse_tiler(to_string(t));  // print and parse round trip
  EXPECT_EQ(to_string(again), to_string(t));
}

// Error messages are API: each names the problem and the character position.
TEST(Notation, ErrorsNameThePosition) {
  auto message = [](auto f) {
    try {
      f();
    } catch (Error const& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  EXPECT_EQ(message([] { parse_layout("(4,2:(1,64)"); }),
            "parse: expected ',' or ')' at position 4 in \"(4,2:(1,64)\"");
  EXPECT_EQ(message([] { parse_layout("(4,2)"); }),
            "parse: expected ':' between shape and stride at position 5 in \"(4,2)\"");
  EXPECT_EQ(message([] { parse_layout("(4,2):(1,(64,2))"); }),
            "parse: stride is not congruent to the shape at position 6 in \"(4,2):(1,(64,2))\"");
  EXPECT_EQ(message([] { parse_layout("(4,0):(1,4)"); }),
            "parse: shape entries must be positive at position 0 in \"(4,0):(1,4)\"");
  EXPECT_EQ(message([] { parse_layout("4:1 x"); }),
            "parse: unexpected character after the end at position 4 in \"4:1 x\"");
  EXPECT_EQ(message([] { parse_layout("99999999999999999999:1"); }),
            "parse: integer does not fit in 64 bits at position 18 in \"99999999999999999999:1\"");
  EXPECT_EQ(message([] { parse_swizzle("Sw<3,0,2>"); }),
            "parse: Sw<B,M,S> needs B >= 0, M >= 0, |S| >= B and B+M+|S| <= 62 at position 9 in "
            "\"Sw<3,0,2>\"");
  EXPECT_EQ(message([] { parse_layout(""); }), "parse: expected an integer at position 0 in \"\"");
}

// Streams and the _tiler literal: the notation, as to_string prints it.
TEST(Notation, StreamsAndTilerLiteral) {
  std::ostringstream o;
  o << "(4,3):(1,8)"_layout << ' ' << "(2,(3,4))"_tuple << ' ' << Swizzle(3, 4, 3) << ' '
    << parse_swizzled_layout("Sw<1,2,3> o 4 o 8:1") << ' ' << "(3:3,_,(2,4):(1,8))"_tiler;
  EXPECT_EQ(o.str(), "(4,3):(1,8) (2,(3,4)) Sw<3,4,3> Sw<1,2,3> o 4 o 8:1 (3:3,_,(2,4):(1,8))");
  constexpr Tiler t = "(2,3)"_tiler;
  static_assert(t.by_mode && t.n == 2 && t.mode[1] == "3:1"_layout);
  constexpr Layout d = logical_divide("(4,6):(1,4)"_layout, "(2,3)"_tiler);
  static_assert(d == "((2,2),(3,2)):((1,2),(4,12))"_layout);
}

// A rejected operation keeps its message on the host (the rule functions throw it unchanged).
TEST(Notation, RuleFunctionsKeepTheMessage) {
  try {
    composition("(4,4):(1,5)"_layout, "3:6"_layout);
    FAIL() << "composition must fail";
  } catch (Error const& e) {
    EXPECT_EQ(
        std::string(e.what()),
        "composition: stride divisibility fails: stride 6 of 3:6 is neither a multiple of nor "
        "smaller than shape 4 of (4,4):(1,5)");
  }
  EXPECT_THROW(rule::operation_rejected(Text()), Error);
}

// CuTe's printed swizzled layout (offset _0, static leaves) and the short form without offset.
TEST(Notation, SwizzledLayoutAsCuTePrintsIt) {
  const std::string want = "Sw<3,4,3> o 0 o (8,64):(64,1)";
  EXPECT_EQ(to_string(parse_swizzled_layout(std::string("Sw<3,4,3> o _0 o (_8,_64):(_64,_1)"))),
            want);
  EXPECT_EQ(to_string(parse_swizzled_layout(std::string("Sw<3,4,3> o (8,64):(64,1)"))), want);
  EXPECT_EQ(to_string(parse_swizzled_layout(std::string("Sw<2,3,3> o 32 o 64:1"))),
            "Sw<2,3,3> o 32 o 64:1");
  EXPECT_THROW(parse_swizzled_layout(std::string("Sw<3,4,3> o (8,64) o 8:1")), Error);
  constexpr SwizzledLayout kS = parse_swizzled_layout("Sw<3,4,3> o _0 o (_8,_64):(_64,_1)");
  static_assert(kS.offset == 0 && kS.layout.size() == 512 && kS.swizzle == Swizzle(3, 4, 3));
}

// The C++ spellings a CuTe user pastes, read as the notation: static leaves as _n, a bare integer
// as a run-time int, make_layout(shape) compact column-major.
TEST(Notation, CppSpellings) {
  auto cute = [](std::string const& s) { return to_cute_string(parse_layout(s)); };
  EXPECT_EQ(cute("Layout<Shape<_4,_8>,Stride<_8,_1>>"), "(_4,_8):(_8,_1)");
  EXPECT_EQ(cute("cute::Layout<cute::Shape<cute::_4, cute::_8>, cute::Stride<cute::_8, "
                 "cute::_1>>{}"),
            "(_4,_8):(_8,_1)");
  EXPECT_EQ(cute("make_layout(make_shape(4,8), make_stride(8,1))"), "(4,8):(8,1)");
  EXPECT_EQ(cute("make_layout(make_shape(Int<4>{}, 8))"), "(_4,8):(_1,_4)");
  EXPECT_EQ(cute("Layout<Shape<Shape<_2,_2>,_4>>"), "((_2,_2),_4):((_1,_2),_4)");
  EXPECT_EQ(to_string(parse_tiler(std::string("Tile<_32,_32,_16>"))), "(32:1,32:1,16:1)");
  EXPECT_EQ(to_string(parse_tiler(std::string("make_tile(Layout<_4,_2>{}, _)"))), "(4:2,_)");
  EXPECT_EQ(to_string(parse_swizzled_layout(std::string(
                "composition(Swizzle<3,4,3>{}, make_layout(make_shape(_8{},_64{}), "
                "make_stride(_64{},_1{})))"))),
            "Sw<3,4,3> o 0 o (8,64):(64,1)");
  EXPECT_EQ(to_string(parse_swizzled_layout(std::string(
                "ComposedLayout<Swizzle<2,3,3>,_0,Layout<Shape<_8,_32>,Stride<_32,_1>>>"))),
            "Sw<2,3,3> o 0 o (8,32):(32,1)");
  EXPECT_EQ(from_cpp_spelling("(4,2):(1,64)"), "(4,2):(1,64)");  // the notation is left alone
  try {
    parse_layout(std::string("make_lyout(make_shape(4,8))"));
    ADD_FAILURE() << "no error";
  } catch (Error const& e) {
    EXPECT_NE(std::string(e.what()).find("C++ spelling: 'make_lyout' is not a CuTe layout"),
              std::string::npos)
        << e.what();
    EXPECT_NE(std::string(e.what()).find("tessera reads Layout<S,D>"), std::string::npos);
  }
}
