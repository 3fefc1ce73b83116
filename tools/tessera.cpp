// tessera -- the command-line face of the library.
//
//   tessera batch < cases.jsonl            JSON Lines in, one JSON answer per line (DESIGN.md)
//   tessera composition "(4,3):(1,8)" 6:2  one verb per algebra op, prints the result and table
//   tessera show "(4,3):(3,1)"             a layout as its index table
//   tessera demo                           the worked examples of seed 004
//   tessera explain --preset step1 --thread 0   how each thread's fragment is derived (seed 002)
//
// Exit status: 0 success, 1 user error (the message points at the bad argument), 2 internal.
#include <cstdio>
#include <iostream>
#include <map>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>
#include <tessera.hpp>

#include "mma_cli.hpp"
#include "ops.hpp"

namespace {

using nlohmann::json;
using tessera::Layout;
using tessera::tools::OpResult;

// Answers one JSON line; never throws.
json answer(std::string const& line) {
  json out;
  try {
    json in = json::parse(line);
    out["id"] = in.value("id", json());
    if (in.contains("atom")) return tessera::tools::answer_tiledmma_case(in);
    OpResult r = tessera::tools::run_op(in.at("op").get<std::string>(), in.at("args"));
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

// The index table of a rank-1 or rank-2 layout: rows are mode 0, columns mode 1.
void print_table(Layout const& l) {
  if (l.rank() > 2 || l.size() > 4096) return;
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
      std::printf(" %*lld", width, (long long)l(idx));
    }
    std::printf("\n");
  }
}

int run_op_verb(std::string const& op, std::vector<std::string> const& args, bool as_json) {
  json jargs = json::array();
  for (auto const& a : args) jargs.push_back(a);
  if (op == "swizzle" && args.size() == 3) {
    jargs = json::array();
    for (auto const& a : args) jargs.push_back(std::stoi(a));
  }
  OpResult r = tessera::tools::run_op(op, jargs);
  if (as_json) {
    json out = {{"result", r.result}, {"image", r.image ? json(*r.image) : json()}};
    std::cout << out.dump() << '\n';
    return 0;
  }
  std::cout << r.result << '\n';
  if (!r.layout.empty()) print_table(tessera::parse_layout(r.layout));
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

int run_explain(std::string const& preset, std::string const& atom_name, std::string const& atom_layout,
                std::string const& permutation, std::vector<int64_t> const& tile, int64_t thread,
                std::string const& operand, bool as_json) {
  using namespace tessera::tools;
  MmaConfig cfg;
  if (!preset.empty()) {
    cfg = mma_preset(preset);
  } else {
    if (atom_layout.empty() || tile.size() != 3)
      throw std::invalid_argument("explain needs --preset, or --atom-layout and --tile M N K");
    cfg = mma_config(atom_name, atom_layout, permutation, tile[0], tile[1], tile[2]);
  }
  std::vector<tessera::Operand> ops;
  for (auto op : {tessera::Operand::kC, tessera::Operand::kA, tessera::Operand::kB})
    if (operand == "all" || operand == tessera::operand_name(op)) ops.push_back(op);
  auto const& mma = cfg.mma;
  if (as_json) {
    json out = {{"config", {{"name", cfg.name}, {"atom", mma.atom.name}, {"atom_layout", cfg.atom_layout_text},
                            {"permutation", cfg.permutation_text},
                            {"tile_mnk", {cfg.tile[0], cfg.tile[1], cfg.tile[2]}},
                            {"threads", mma.threads()}, {"thr_layout_vmnk", tessera::to_string(mma.thr_vmnk)}}}};
    for (auto op : ops) out["operands"][tessera::operand_name(op)] = explain_json(cfg, op, thread);
    std::cout << out.dump() << '\n';
    return 0;
  }
  std::cout << "TiledMMA " << cfg.name << "\n"
            << "  atom " << mma.atom.name << " (" << mma.atom.m << "x" << mma.atom.n << "x" << mma.atom.k
            << ", " << mma.atom.threads() << " threads), atom layout " << cfg.atom_layout_text
            << ", permutation " << cfg.permutation_text << "\n"
            << "  " << mma.threads() << " threads, thread layout (V,M,N,K) " << tessera::to_string(mma.thr_vmnk)
            << ", one pass covers " << mma.tile_size(0) << "x" << mma.tile_size(1) << "x" << mma.tile_size(2)
            << ", CTA tile " << cfg.tile[0] << "x" << cfg.tile[1] << "x" << cfg.tile[2] << "\n"
            << "  permutation layouts M " << tessera::to_string(mma.perm[0]) << ", N "
            << tessera::to_string(mma.perm[1]) << ", K " << tessera::to_string(mma.perm[2]) << "\n\n";
  for (auto op : ops) std::cout << explain_text(cfg, op, thread) << '\n';
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"tessera: CuTe's layout algebra as plain values, at run time and compile time"};
  app.require_subcommand(1);
  bool as_json = false;

  app.add_subcommand("batch", "Answer JSON Lines cases on stdin (the oracle format), one line each");
  app.add_subcommand("demo", "Print seed 004's worked examples, computed by the library");

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
  };
  std::map<std::string, std::vector<std::string>> verb_args;
  std::map<std::string, CLI::App*> verbs;
  for (auto const& op : tessera::tools::op_names()) {
    if (op == "swizzle_layout") continue;
    CLI::App* sub = app.add_subcommand(op, help[op] + "\n  Layouts in CuTe notation, e.g. \"(4,3):(1,8)\"; "
                                               "a tiler is a layout, a shape such as (2,3), or "
                                               "(3:3,_,(2,4):(1,8))");
    if (op == "composition") sub->alias("compose");
    sub->add_option("args", verb_args[op], "operands")->required();
    sub->add_flag("--json", as_json, "print {result, image} as JSON");
    verbs[op] = sub;
  }
  CLI::App* explain = app.add_subcommand(
      "explain", "Derive one thread's partition of C, A and B step by step (seed 002)");
  std::string preset, atom_name = "UniversalFMA", atom_layout, permutation = "none", operand = "all";
  std::vector<int64_t> tile;
  int64_t thread = 0;
  explain->add_option("--preset", preset, "step1 or step4 (the seeds' configurations)");
  explain->add_option("--atom", atom_name, "MMA atom, e.g. UniversalFMA, SM80_16x8x16_F32F16F16F32_TN");
  explain->add_option("--atom-layout", atom_layout, "atoms over (M,N,K), e.g. \"(16,16,1):(16,1,0)\" or (2,2,1)");
  explain->add_option("--perm", permutation, "permutation per mode, e.g. \"((16,4):(4,1),(16,4):(4,1),_)\" or (32,32,16)");
  explain->add_option("--tile", tile, "CTA tile M N K")->expected(3);
  explain->add_option("--thread", thread, "thread index (default 0)");
  explain->add_option("--operand", operand, "C, A, B or all")->check(CLI::IsMember({"C", "A", "B", "all"}));
  explain->add_flag("--json", as_json, "print the derivation as JSON");

  CLI::App* show = app.add_subcommand("show", "Print a layout and its index table: show LAYOUT");
  std::string show_layout;
  show->add_option("layout", show_layout, "a layout in CuTe notation")->required();

  try {
    app.parse(argc, argv);
  } catch (CLI::ParseError const& e) {
    return app.exit(e) == 0 ? 0 : 1;
  }
  try {
    if (app.got_subcommand("batch")) return run_batch();
    if (app.got_subcommand("demo")) return run_demo();
    if (explain->parsed()) return run_explain(preset, atom_name, atom_layout, permutation, tile, thread,
                                              operand, as_json);
    if (show->parsed()) {
      Layout l = tessera::parse_layout(show_layout);
      std::cout << tessera::to_string(l) << "  size " << l.size() << "  cosize " << l.cosize()
                << '\n';
      print_table(l);
      return 0;
    }
    for (auto const& [op, sub] : verbs)
      if (sub->parsed()) return run_op_verb(op, verb_args[op], as_json);
  } catch (tessera::Error const& e) {
    std::fprintf(stderr, "tessera: %s\n", e.what());
    return 1;
  } catch (std::invalid_argument const& e) {
    std::fprintf(stderr, "tessera: %s\n", e.what());
    return 1;
  } catch (std::exception const& e) {
    std::fprintf(stderr, "tessera: internal error: %s\n", e.what());
    return 2;
  }
  return 2;
}
