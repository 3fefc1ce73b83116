// Static and run-time integers (CuTe's Int<4> and int): the run-time marks carried through the
// algebra, both printed forms, the parser, and what CuTe's C++ prints for the same operands with
// every integer static, every integer run-time, or static shapes with run-time strides
// (tests/data/cute_kinds_cases.json, made by tests/data/cute_kinds/gen.py from CuTe's headers).
//
// Each data case runs through the `batch` op table (run_op, bare integers run-time as the operands
// are written in CuTe's form) or the CLI's TiledMMA configuration, and must print exactly what
// C++ printed, underscores included; the TiledMMA cases also check the thread's offset.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>

#include <nlohmann/json.hpp>
#include <tessera.hpp>

#include "mma_cli.hpp"
#include "ops.hpp"

using nlohmann::json;
using namespace tessera;

namespace {

Layout cute(const char* s) { return parse_layout(std::string_view(s), true); }
std::string cute_text(Layout const& l) { return to_cute_string(l); }

TEST(Kinds, ParserReadsBothForms) {
  // The notation contract: bare integers are static.
  Layout plain = parse_layout("(4,2):(1,4)");
  EXPECT_EQ(cute_text(plain), "(_4,_2):(_1,_4)");
  EXPECT_EQ(to_string(plain), "(4,2):(1,4)");
  // CuTe's form: _4 static, bare run-time, whichever way the parser was asked.
  Layout mixed = parse_layout("((_2,_2),4,(_2,4)):((1,1024),4096,(16,32))");
  EXPECT_EQ(cute_text(mixed), "((_2,_2),4,(_2,4)):((1,1024),4096,(16,32))");
  EXPECT_EQ(to_string(mixed), "((2,2),4,(2,4)):((1,1024),4096,(16,32))");
  // Asked for run-time bare integers.
  EXPECT_EQ(cute_text(cute("(128,128):(128,1)")), "(128,128):(128,1)");
  EXPECT_EQ(cute_text(cute("(128,128):(_128,_1)")), "(128,128):(_128,_1)");
  // Negative static leaves, and `_` still keeps a tiler mode.
  EXPECT_EQ(cute_text(parse_layout("(_4):(_-1)")), "(_4):(_-1)");
  Tiler t = parse_tiler("(_,_4:_1)");
  EXPECT_TRUE(t.keep[0]);
  EXPECT_EQ(to_cute_string(t.mode[1]), "_4:_1");
  EXPECT_THROW(parse_layout("(_,4):(1,4)"), Error);
}

TEST(Kinds, RoundTrips) {
  for (const char* s : {"_8:_1", "(_4,2):(1,_4)", "((_2,_2),4,(_2,4)):((1,1024),4096,(16,32))",
                        "(3,(_1,5)):(_0,(7,1))"}) {
    Layout l = parse_layout(std::string_view(s));
    EXPECT_EQ(cute_text(l), s);
    EXPECT_TRUE(same_kinds(parse_layout(cute_text(l), true), l)) << s;
    EXPECT_EQ(parse_layout(to_string(l)), l) << s;  // parse(print(L)) == L: values and structure
  }
  Layout all_runtime = cute("(4,2):(1,4)");
  EXPECT_TRUE(same_kinds(parse_layout(cute_text(all_runtime), true), all_runtime));
  EXPECT_FALSE(same_kinds(parse_layout(cute_text(all_runtime)), all_runtime));  // needs `true`
  EXPECT_EQ(parse_layout(cute_text(all_runtime)), all_runtime);
}

TEST(Kinds, ArithmeticAsCuTe) {
  EXPECT_TRUE((Int{4} * Int{8, true}).dyn);
  EXPECT_FALSE((Int{4} * Int{8}).dyn);
  EXPECT_FALSE((Int{0} * Int{8, true}).dyn);  // _0 * x = _0
  EXPECT_FALSE((Int{0} / Int{8, true}).dyn);
  EXPECT_TRUE(ceil_div(Int{8}, Int{2, true}).dyn);
  EXPECT_TRUE(min(Int{8}, Int{2, true}).dyn);
  EXPECT_EQ(cute_text(Layout(with_kind(parse_int_tuple("(2,3,4)"), true))), "(2,3,4):(_1,2,6)");
  // A run-time extent 1 keeps its stride and makes the later strides run-time.
  EXPECT_EQ(cute_text(make_col_major(parse_int_tuple("(_2,1,_1,4)"))), "(_2,1,_1,4):(_1,_2,_0,2)");
}

TEST(Kinds, MarksDecideMerging) {
  // Static integers merge, run-time ones never (CuTe cannot see that they are contiguous).
  EXPECT_EQ(cute_text(coalesce(parse_layout("(2,4):(1,2)"))), "_8:_1");
  EXPECT_EQ(cute_text(coalesce(cute("(2,4):(1,2)"))), "(2,4):(1,2)");
  EXPECT_EQ(cute_text(coalesce(cute("(_2,_4,8):(_1,_2,8)"))), "(_8,8):(_1,8)");
  // A static 1 is dropped, a run-time 1 stays with its stride.
  EXPECT_EQ(cute_text(coalesce(cute("(_1,4):(_0,2)"))), "4:2");
  EXPECT_EQ(cute_text(coalesce(cute("(1,4):(7,2)"))), "(1,4):(7,2)");
  EXPECT_EQ(cute_text(filter(cute("(_4,4):(_0,0)"))), "4:0");
  // The run-time tensor's rest modes stay apart: logical_divide by a static tile.
  EXPECT_EQ(cute_text(logical_divide(cute("(128,128):(128,1)"), make_tile(Layout(32), Layout(32)))),
            "((_32,4),(_32,4)):((128,4096),(1,32))");
  EXPECT_EQ(to_string(logical_divide(parse_layout("(128,128):(128,1)"),
                                     make_tile(Layout(32), Layout(32)))),
            "((32,4),(32,4)):((128,4096),(1,32))");
}

TEST(Kinds, Step4Fragments) {
  TiledMMA m = presets::step4();
  // CuTe's C++ prints these for thread 0 (static tensors first, then run-time ones).
  EXPECT_EQ(cute_text(m.partition_C(parse_layout("(128,128):(128,1)"), 0).layout),
            "((_2,_2),_4,_8):((_1,_1024),_4096,_16)");
  EXPECT_EQ(cute_text(m.partition_C(cute("(128,128):(128,1)"), 0).layout),
            "((_2,_2),4,(_2,4)):((1,1024),4096,(16,32))");
  EXPECT_EQ(cute_text(m.partition_A(cute("(128,32):(32,1)"), 0).layout),
            "((_2,_2,_2),4,2):((1,256,8),1024,16)");
  EXPECT_EQ(cute_text(m.partition_B(cute("(128,32):(32,1)"), 0).layout),
            "((_2,_2),(_2,4),2):((1,8),(512,1024),16)");
  // The step 4 preset of the CLI partitions run-time tensors, as the step 4 kernel does.
  tools::MmaConfig cfg = tools::mma_preset("step4");
  json c = tools::explain_json(cfg, Operand::kC, 0);
  EXPECT_EQ(c["fragment"], "((2,2),4,(2,4)):((1,1024),4096,(16,32))");
  EXPECT_EQ(tools::explain_json(cfg, Operand::kA, 0)["fragment"],
            "((2,2,2),4,2):((1,256,8),1024,16)");
  EXPECT_EQ(tools::explain_json(cfg, Operand::kB, 0)["fragment"],
            "((2,2),(2,4),2):((1,8),(512,1024),16)");
  // The step 1 kernel's fragment, as the partition_C derivation prints it.
  EXPECT_EQ(tools::explain_json(tools::mma_preset("step1"), Operand::kC, 0)["fragment"],
            "(1,(4,2),(4,2)):(0,(128,8192),(1,64))");
}

json load_cases() {
  std::filesystem::path p =
      std::filesystem::path(TESSERA_SOURCE_DIR) / "tests/data/cute_kinds_cases.json";
  std::ifstream in(p);
  if (!in) ADD_FAILURE() << "cannot read " << p;
  return json::parse(in);
}

// The differences (tests/data/cute_kinds_gaps.json): cases where CuTe's run-time result breaks
// the op's own definition (each entry says how). For those, tessera's answer is asserted, and that
// it differs from C++ (an entry that comes to match must go).
TEST(Kinds, CuteCppLayoutOps) {
  json data = load_cases();
  std::ifstream gin(std::filesystem::path(TESSERA_SOURCE_DIR) / "tests/data/cute_kinds_gaps.json");
  json gaps = json::parse(gin)["cases"];
  json all = data["layout"];
  for (json const& c : data["layout_ops"]) all.push_back(c);  // nullspace, upcast, .. tile_to_shape
  int checked = 0, exact = 0;
  for (json const& c : all) {
    std::string id = c["id"], got;
    try {
      got = tools::run_op(c["op"], c["args"], true).cute;
    } catch (std::exception const& e) {
      got = "error";
    }
    std::string expected = c["expected"];
    if (gaps.contains(id)) {
      EXPECT_EQ(got, gaps[id]["tessera"].get<std::string>())
          << id << ": " << c["op"] << c["args"].dump();
      EXPECT_NE(got, expected) << id << " now matches C++: remove it from cute_kinds_gaps.json";
    } else {
      EXPECT_EQ(got, expected) << id << ": " << c["op"] << c["args"].dump();
      exact += got == expected;
    }
    ++checked;
  }
  EXPECT_GT(checked, 400);
  std::printf(
      "%d layout-op cases (static, run-time and mixed integers) against CuTe's C++: %d exact, %d "
      "documented differences\n",
      checked, exact, int(gaps.size()));
}

TEST(Kinds, CuteCppTiledMma) {
  json data = load_cases();
  int checked = 0;
  for (json const& c : data["tiledmma"]) {
    std::string id = c["id"];
    tools::MmaConfig cfg =
        tools::mma_config(c["atom"], c["atom_layout"], c["permutation"], 128, 128, 32);
    Operand op = c["operand"] == "C"   ? Operand::kC
                 : c["operand"] == "A" ? Operand::kA
                                       : Operand::kB;
    View v = cfg.mma.partition(op, parse_layout(c["tensor"].get<std::string>(), true),
                               c["thread"].get<int64_t>());
    EXPECT_EQ(to_cute_string(v.layout), c["expected"].get<std::string>()) << id;
    EXPECT_EQ(v.offset, c["offset"].get<int64_t>()) << id;
    ++checked;
  }
  EXPECT_GT(checked, 200);
  std::printf("%d TiledMMA partitions checked against CuTe's C++\n", checked);
}

}  // namespace
