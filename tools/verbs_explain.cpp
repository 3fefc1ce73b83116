// The explain verb: the partition_C/A/B derivation for any TiledMMA.
#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "hopper_cli.hpp"
#include "mma_cli.hpp"
#include "render_options.hpp"
#include "trace.hpp"
#include "verbs.hpp"

namespace tessera::tools {
namespace {

using nlohmann::json;

struct ExplainArgs {
  MmaArgs mma;
  std::string operand = "all";
  int64_t thread = 0;
  bool as_json = false;
  std::vector<int64_t> problem, cta = {0, 0};
  std::string layout[3];  // C, A, B of the problem
};

// With --problem: each operand's tensor is the CTA's tile of the problem at k_tile 0, on the
// problem's strides (gC, gA(_,_,0), gB(_,_,0)); returns the tiles' offsets, as text.
std::string use_problem(ExplainArgs const& a, MmaConfig& cfg) {
  if (a.problem.empty()) return "";
  if (a.problem.size() != 3) throw std::invalid_argument("explain: --problem needs M N K");
  TraceInput in;
  in.cfg = cfg;
  for (int i = 0; i < 3; ++i) in.problem[i] = a.problem[i];
  for (int i = 0; i < 3 && in.problem[0] > 0 && in.problem[1] > 0 && in.problem[2] > 0; ++i)
    in.layout[i] = operand_layout(a.layout[i], tessera::Operand(i), in.problem);
  in.cta[0] = a.cta[0], in.cta[1] = a.cta[1];
  in.thread = a.thread;
  check_trace(in);
  std::string note = "  problem M=" + std::to_string(in.problem[0]) + ", N=" +
                     std::to_string(in.problem[1]) + ", K=" + std::to_string(in.problem[2]) +
                     ", CTA (" + std::to_string(in.cta[0]) + "," + std::to_string(in.cta[1]) +
                     "): the tensors are its tiles at k_tile 0, at offsets";
  for (auto op : {tessera::Operand::kC, tessera::Operand::kA, tessera::Operand::kB}) {
    View tile = operand_tile(in, op, 0);
    cfg.tensor[int(op)] = tile.layout;
    note += std::string(" ") + tessera::operand_name(op) + " " + std::to_string(tile.offset);
  }
  return note + "\n";
}

int run_explain(ExplainArgs const& a) {
  auto const& [args, operand, thread, as_json, problem, cta, layout] = a;
  MmaConfig cfg = mma_from_args(args, "explain");
  std::string problem_note = use_problem(a, cfg);
  std::vector<tessera::Operand> ops;
  for (auto op : {tessera::Operand::kC, tessera::Operand::kA, tessera::Operand::kB})
    if (operand == "all" || operand == tessera::operand_name(op)) ops.push_back(op);
  auto const& mma = cfg.mma;
  if (as_json) {
    json out = {{"config",
                 {{"name", cfg.name},
                  {"atom", mma.atom.name},
                  {"atom_layout", cfg.atom_layout_text},
                  {"permutation", cfg.permutation_text},
                  {"tile_mnk", {cfg.tile[0], cfg.tile[1], cfg.tile[2]}},
                  {"threads", mma.threads()},
                  {"thr_layout_vmnk", tessera::to_string(mma.thr_vmnk)}}}};
    for (auto op : ops) out["operands"][tessera::operand_name(op)] = explain_json(cfg, op, thread);
    if (args.preset == kHopperPreset) out["hopper"] = hopper_json();
    std::cout << out.dump() << '\n';
    return 0;
  }
  std::cout << "TiledMMA " << cfg.name << "\n"
            << "  atom " << mma.atom.name << " (" << mma.atom.m << "x" << mma.atom.n << "x"
            << mma.atom.k << ", " << mma.atom.threads() << " threads), atom layout "
            << cfg.atom_layout_text << ", permutation " << cfg.permutation_text << "\n"
            << "  " << mma.threads() << " threads, thread layout (V,M,N,K) "
            << tessera::to_string(mma.thr_vmnk) << ", one pass covers " << mma.tile_size(0) << "x"
            << mma.tile_size(1) << "x" << mma.tile_size(2) << ", CTA tile " << cfg.tile[0] << "x"
            << cfg.tile[1] << "x" << cfg.tile[2] << "\n"
            << "  permutation layouts M " << tessera::to_string(mma.perm[0]) << ", N "
            << tessera::to_string(mma.perm[1]) << ", K " << tessera::to_string(mma.perm[2])
            << "\n"
            << problem_note << "\n";
  for (auto op : ops) std::cout << explain_text(cfg, op, thread) << '\n';
  // Kernel 05: what its wgmma and TMA read off the shared-memory tiles.
  if (args.preset == kHopperPreset) std::cout << hopper_text(hopper_json());
  return 0;
}

}  // namespace

void add_explain_verb(CLI::App& app, Verbs& verbs) {
  CLI::App* explain = app.add_subcommand("explain",
                                         "Derive one thread's partition of C, A and B step by step "
                                         "(partition_C, partition_A, partition_B)");
  auto a = std::make_shared<ExplainArgs>();
  add_mma_options(explain, a->mma);
  explain->add_option("--thread", a->thread, "thread index (default 0)");
  explain->add_option("--operand", a->operand, "C, A, B or all")
      ->check(CLI::IsMember({"C", "A", "B", "all"}));
  explain->add_flag("--json", a->as_json, "print the derivation as JSON");
  explain->add_option("--problem", a->problem,
                      "a problem M N K: partition the CTA's tiles of it (see --cta)")
      ->expected(3);
  explain->add_option("--cta", a->cta, "with --problem: the CTA's m n (default 0 0)")->expected(2);
  explain->add_option("--layout-A", a->layout[1], "with --problem: A's layout, or M / K");
  explain->add_option("--layout-B", a->layout[2], "with --problem: B's layout, or N / K");
  explain->add_option("--layout-C", a->layout[0], "with --problem: C's layout, or M / N");
  verbs.push_back({explain, [a] { return run_explain(*a); }});
}

}  // namespace tessera::tools
