// The explain verb: the partition_C/A/B derivation for any TiledMMA.
#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "hopper_cli.hpp"
#include "mma_cli.hpp"
#include "render_options.hpp"
#include "verbs.hpp"

namespace tessera::tools {
namespace {

using nlohmann::json;

struct ExplainArgs {
  MmaArgs mma;
  std::string operand = "all";
  int64_t thread = 0;
  bool as_json = false;
};

int run_explain(ExplainArgs const& a) {
  auto const& [args, operand, thread, as_json] = a;
  MmaConfig cfg = mma_from_args(args, "explain");
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
            << "\n\n";
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
  verbs.push_back({explain, [a] { return run_explain(*a); }});
}

}  // namespace tessera::tools
