// The explain verb: the partition derivation of seed 002 for any TiledMMA.
#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "mma_cli.hpp"
#include "verbs.hpp"

namespace tessera::tools {
namespace {

using nlohmann::json;

struct ExplainArgs {
  std::string preset, atom = "UniversalFMA", atom_layout, permutation = "none", operand = "all";
  std::vector<int64_t> tile;
  int64_t thread = 0;
  bool as_json = false;
};

int run_explain(ExplainArgs const& a) {
  auto const& [preset, atom_name, atom_layout, permutation, operand, tile, thread, as_json] = a;
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

void add_explain_verb(CLI::App& app, Verbs& verbs) {
  CLI::App* explain = app.add_subcommand(
      "explain", "Derive one thread's partition of C, A and B step by step (seed 002)");
  auto a = std::make_shared<ExplainArgs>();
  explain->add_option("--preset", a->preset, "step1 or step4 (the seeds' configurations)");
  explain->add_option("--atom", a->atom, "MMA atom, e.g. UniversalFMA, SM80_16x8x16_F32F16F16F32_TN");
  explain->add_option("--atom-layout", a->atom_layout, "atoms over (M,N,K), e.g. \"(16,16,1):(16,1,0)\" or (2,2,1)");
  explain->add_option("--perm", a->permutation, "permutation per mode, e.g. \"((16,4):(4,1),(16,4):(4,1),_)\" or (32,32,16)");
  explain->add_option("--tile", a->tile, "CTA tile M N K")->expected(3);
  explain->add_option("--thread", a->thread, "thread index (default 0)");
  explain->add_option("--operand", a->operand, "C, A, B or all")->check(CLI::IsMember({"C", "A", "B", "all"}));
  explain->add_flag("--json", a->as_json, "print the derivation as JSON");
  verbs.push_back({explain, [a] { return run_explain(*a); }});
}

}  // namespace tessera::tools
