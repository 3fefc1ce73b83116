// The algebra verbs: batch, one verb per op, show and demo.
#include <cstdio>
#include <cstdlib>
#include <unistd.h>
#include <iostream>
#include <map>
#include <memory>
#include <string>

#include <nlohmann/json.hpp>

#include "mma_cli.hpp"
#include "ops.hpp"
#include "verbs.hpp"

namespace tessera::tools {
namespace {

using nlohmann::json;

// Answers one JSON line; never throws.
json answer(std::string const& line) {
  json out;
  try {
    json in = json::parse(line);
    out["id"] = in.value("id", json());
    if (in.contains("atom")) return answer_tiledmma_case(in);
    OpResult r = run_op(in.at("op").get<std::string>(), in.at("args"));
    out["result"] = r.result;
    out["image"] = r.image ? json(*r.image) : json();
  } catch (std::exception const& e) {
    if (!out.contains("id")) out["id"] = nullptr;
    out.erase("result");
    out.erase("image");
    out["error"] = e.what();
  }
  return out;
}

int run_batch() {
  std::ios::sync_with_stdio(false);
  std::string line;
  while (std::getline(std::cin, line)) {
    if (line.find_first_not_of(" \t\r") == std::string::npos) continue;
    std::cout << answer(line).dump() << '\n';
  }
  std::cout.flush();
  return std::cin.bad() ? 2 : 0;
}

int run_op_verb(std::string const& op, std::vector<std::string> const& args, bool as_json) {
  json jargs = json::array();
  for (auto const& a : args) jargs.push_back(a);
  if (op == "swizzle" && args.size() == 3) {
    jargs = json::array();
    for (auto const& a : args) jargs.push_back(std::stoi(a));
  }
  OpResult r = run_op(op, jargs);
  if (as_json) {
    json out = {{"result", r.result}, {"image", r.image ? json(*r.image) : json()}};
    std::cout << out.dump() << '\n';
    return 0;
  }
  std::cout << r.result << '\n';
  if (!r.layout.empty()) print_table(parse_layout(r.layout));
  return 0;
}

// Seed 004's worked examples, computed by the library.
int run_demo() {
  using namespace tessera;
  struct Example {
    const char* what;
    std::string value;
  };
  Layout nested = parse_layout("((2,2),(2,2)):((1,4),(2,8))");
  std::vector<Example> examples = {
      {"size of ((2,2),(2,2)):((1,4),(2,8))", std::to_string(nested.size())},
      {"coalesce (2,4):(1,2)", to_string(coalesce(parse_layout("(2,4):(1,2)")))},
      {"6:2 o (3,2):(1,3)  [seed writes B o A]",
       to_string(composition(parse_layout("6:2"), parse_layout("(3,2):(1,3)")))},
      {"(4,3):(1,8) o 6:2", to_string(composition(parse_layout("(4,3):(1,8)"), parse_layout("6:2")))},
      {"complement(4:1, 12)", to_string(complement(parse_layout("4:1"), 12))},
      {"logical_divide(12:1, 4:1)", to_string(logical_divide(parse_layout("12:1"), parse_tiler("4:1")))},
      {"logical_divide((4,6):(1,4), (2,3))",
       to_string(logical_divide(parse_layout("(4,6):(1,4)"), parse_tiler("(2,3)")))},
      {"zipped_divide((4,6):(1,4), (2,3))",
       to_string(zipped_divide(parse_layout("(4,6):(1,4)"), parse_tiler("(2,3)")))},
      {"tiled_divide((4,6):(1,4), (2,3))",
       to_string(tiled_divide(parse_layout("(4,6):(1,4)"), parse_tiler("(2,3)")))},
      {"flat_divide((4,6):(1,4), (2,3))",
       to_string(flat_divide(parse_layout("(4,6):(1,4)"), parse_tiler("(2,3)")))},
      {"logical_product(4:1, 3:1)", to_string(logical_product(parse_layout("4:1"), parse_tiler("3:1")))},
      {"logical_product(4:1, 2:1)  [4 threads x 2 values]",
       to_string(logical_product(parse_layout("4:1"), parse_tiler("2:1")))},
      {"blocked_product((2,5):(5,1), (3,4):(1,3))",
       to_string(blocked_product(parse_layout("(2,5):(5,1)"), parse_layout("(3,4):(1,3)")))},
      {"raked_product((2,5):(5,1), (3,4):(1,3))",
       to_string(raked_product(parse_layout("(2,5):(5,1)"), parse_layout("(3,4):(1,3)")))},
  };
  std::printf("Seed 004, \"Honey, I tiled the tensors\": the worked examples, computed by tessera\n\n");
  for (auto const& e : examples) std::printf("  %-52s = %s\n", e.what, e.value.c_str());
  std::printf("\nThe 2-D logical divide as a table (rows: mode 0, columns: mode 1):\n");
  print_table(coalesce(logical_divide(parse_layout("(4,6):(1,4)"), parse_tiler("(2,3)")),
                       parse_int_tuple("(1,1)")));
  return 0;
}

}  // namespace

// The index table of a rank-1 or rank-2 layout: rows are mode 0, columns mode 1.
void print_table(Layout const& l) {
  if (l.rank() > 2 || l.size() > 4096) return;
  // Colored cells on a terminal (unless NO_COLOR is set), plain text into pipes and files.
  const bool color = isatty(fileno(stdout)) && !std::getenv("NO_COLOR");
  int64_t rows = l[0].size(), cols = l.rank() == 2 ? l[1].size() : 1;
  if (l.rank() == 1) std::swap(rows, cols);  // a rank-1 layout prints as one row
  int width = 1;
  for (int64_t i = 0; i < l.size(); ++i)
    width = std::max(width, int(std::to_string(l(i)).size()));
  width = std::max(width, int(std::to_string(std::max(rows, cols)).size()));
  std::printf("\n%*s", width + 2, "");
  for (int64_t c = 0; c < cols; ++c) std::printf(" %*lld", width, (long long)c);
  std::printf("\n");
  for (int64_t r = 0; r < rows; ++r) {
    std::printf("%*lld |", width + 1, (long long)r);
    for (int64_t c = 0; c < cols; ++c) {
      int64_t idx = l.rank() == 1 ? c : r + c * rows;
      int64_t v = l(idx);
      if (color) {  // equal offsets share a color, so repeats and strides stand out
        static const int palette[] = {196, 208, 34, 37, 33, 63, 129, 163, 130, 70, 31, 166};
        std::printf(" \x1b[38;5;%dm%*lld\x1b[0m", palette[((v % 12) + 12) % 12], width, (long long)v);
      } else {
        std::printf(" %*lld", width, (long long)v);
      }
    }
    std::printf("\n");
  }
}

void add_algebra_verbs(CLI::App& app, Verbs& verbs) {
  verbs.push_back({app.add_subcommand("batch", "Answer JSON Lines cases on stdin (the oracle format), one line each"),
                   run_batch});
  verbs.push_back({app.add_subcommand("demo", "Print seed 004's worked examples, computed by the library"), run_demo});

  std::map<std::string, std::string> help = {
      {"size", "Number of coordinates: size LAYOUT"},
      {"cosize", "Extent of the codomain, L(size-1)+1: cosize LAYOUT"},
      {"rank", "Number of top-level modes: rank LAYOUT"},
      {"depth", "Nesting depth: depth LAYOUT"},
      {"crd2idx", "Offset of a coordinate: crd2idx COORD LAYOUT"},
      {"idx2crd", "Coordinate of an index in a shape: idx2crd INDEX SHAPE"},
      {"coalesce", "Merge modes, same function: coalesce LAYOUT [PROFILE]"},
      {"filter", "Drop stride-0 and size-1 modes: filter LAYOUT"},
      {"composition", "A o B, R(c) = A(B(c)): composition A TILER"},
      {"complement", "Offsets A leaves free up to COTARGET: complement LAYOUT [COTARGET]"},
      {"right_inverse", "Largest R with L(R(i)) = i: right_inverse LAYOUT"},
      {"left_inverse", "L with L(A(i)) = i: left_inverse LAYOUT"},
      {"logical_divide", "Split A into tiles of TILER: logical_divide A TILER"},
      {"zipped_divide", "((tile),(rest)): zipped_divide A TILER"},
      {"tiled_divide", "((tile),rest0,rest1,..): tiled_divide A TILER"},
      {"flat_divide", "(tile0,tile1,..,rest0,..): flat_divide A TILER"},
      {"logical_product", "Replicate A as B says: logical_product A TILER"},
      {"zipped_product", "((A),(copies)): zipped_product A TILER"},
      {"tiled_product", "((A),copy0,copy1,..): tiled_product A TILER"},
      {"flat_product", "(a0,a1,..,copy0,..): flat_product A TILER"},
      {"blocked_product", "Copies of A as contiguous blocks: blocked_product A B"},
      {"raked_product", "Copies of A interleaved: raked_product A B"},
      {"swizzle", "The permutation of Sw<B,M,S>: swizzle B M S"},
      {"swizzle_layout", "Not a verb; use batch"},
      {"nullspace", "The coordinates L sends to 0, indexed compactly: nullspace LAYOUT"},
      {"upcast", "L over elements N times wider: upcast LAYOUT N"},
      {"downcast", "L over elements N times narrower: downcast LAYOUT N"},
      {"recast_layout", "L over OLD_BITS elements as NEW_BITS elements: recast_layout LAYOUT OLD_BITS NEW_BITS"},
      {"max_common_layout", "Largest R with A(R(i)) = B(R(i)) = i: max_common_layout A B"},
      {"max_common_vector", "Size of max_common_layout: max_common_vector A B"},
      {"make_ordered_layout", "Compact layout, modes in ORDER: make_ordered_layout SHAPE ORDER"},
      {"make_layout_like", "Compact layout ordered as L's strides: make_layout_like LAYOUT"},
      {"compact_col_major", "Compact column-major layout: compact_col_major SHAPE"},
      {"compact_row_major", "Compact row-major layout: compact_row_major SHAPE"},
      {"tile_to_shape", "Repeat a block over SHAPE: tile_to_shape LAYOUT SHAPE [col|row]"},
      {"layout_add", "R(i) = A(i) + B(i): layout_add A B"},
  };
  auto as_json = std::make_shared<bool>(false);
  for (auto const& op : op_names()) {
    if (op == "swizzle_layout") continue;
    CLI::App* sub = app.add_subcommand(op, help[op] + "\n  Layouts in CuTe notation, e.g. \"(4,3):(1,8)\"; "
                                               "a tiler is a layout, a shape such as (2,3), or "
                                               "(3:3,_,(2,4):(1,8))");
    if (op == "composition") sub->alias("compose");
    auto args = std::make_shared<std::vector<std::string>>();
    sub->add_option("args", *args, "operands")->required();
    sub->add_flag("--json", *as_json, "print {result, image} as JSON");
    verbs.push_back({sub, [op, args, as_json] { return run_op_verb(op, *args, *as_json); }});
  }

  CLI::App* show = app.add_subcommand("show", "Print a layout and its index table: show LAYOUT");
  auto text = std::make_shared<std::string>();
  show->add_option("layout", *text, "a layout in CuTe notation")->required();
  verbs.push_back({show, [text] {
                     Layout l = parse_layout(*text);
                     std::cout << to_string(l) << "  size " << l.size() << "  cosize " << l.cosize() << '\n';
                     print_table(l);
                     return 0;
                   }});
}

}  // namespace tessera::tools
