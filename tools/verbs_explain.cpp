// The explain verb: the partition_C/A/B derivation for any TiledMMA.
#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "attention_options.hpp"
#include "plural.hpp"
#include "hopper_cli.hpp"
#include "mma_cli.hpp"
#include "problem_options.hpp"
#include "render_options.hpp"
#include "trace.hpp"
#include "verbs.hpp"

namespace tessera::tools {
namespace {

using nlohmann::json;

struct ExplainArgs {
  MmaArgs mma;
  std::string operand = "all";
  bool as_json = false, cute = false;
  ProblemWords problem;  // and the thread
  AttentionVariant attention;  // with --preset attention
};

// With --problem: each operand's tensor is the CTA's tile of the problem at k_tile 0, on the
// problem's strides (gC, gA(_,_,0), gB(_,_,0)); returns the tiles' offsets, as text.
std::string use_problem(ExplainArgs const& a, MmaConfig& cfg) {
  check_problem_options(a.mma.cmd, a.problem, "explain");
  if (!a.problem.given()) return "";
  TraceInput in = trace_input(cfg, a.problem, "explain");
  std::vector<int64_t> offsets = use_problem_tiles(in, cfg);
  std::string note = "  problem M=" + std::to_string(in.problem[0]) + ", N=" +
                     std::to_string(in.problem[1]) + ", K=" + std::to_string(in.problem[2]) +
                     ", CTA (" + std::to_string(in.cta[0]) + "," + std::to_string(in.cta[1]) +
                     "): the tensors are its tiles at k_tile 0, at offsets";
  for (auto op : {tessera::Operand::kC, tessera::Operand::kA, tessera::Operand::kB})
    note += std::string(" ") + tessera::operand_name(op) + " " +
            std::to_string(offsets[size_t(int(op))]);
  return note + "\n";
}

int run_explain(ExplainArgs const& a) {
  auto const& [args, operand, as_json, cute, problem, attention] = a;
  int64_t thread = problem.thread;
  MmaConfig cfg = mma_from_args(args, "explain");
  const bool attn = attention_chosen(args, "explain");
  if (attn) cfg = attention_config(attention, 'S');
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
                  {"thr_layout_vmnk", printed(mma.thr_vmnk, cute)}}}};
    for (auto op : ops)
      out["operands"][tessera::operand_name(op)] = explain_json(cfg, op, thread, cute);
    if (args.preset == kHopperPreset) out["hopper"] = hopper_json();
    if (attn) out["attention"] = attention_json(attention, thread);
    std::cout << out.dump() << '\n';
    return 0;
  }
  const auto threads = [](int64_t n) { return plural(n, "thread"); };
  std::cout << "TiledMMA " << cfg.name << "\n"
            << "  atom " << mma.atom.name << " (" << mma.atom.m << "x" << mma.atom.n << "x"
            << mma.atom.k << ", " << threads(mma.atom.threads()) << "), atom layout "
            << cfg.atom_layout_text << ", permutation " << cfg.permutation_text << "\n"
            << "  " << threads(mma.threads()) << ", thread layout (V,M,N,K) "
            << printed(mma.thr_vmnk, cute) << ", one pass covers " << mma.tile_size(0) << "x"
            << mma.tile_size(1) << "x" << mma.tile_size(2) << ", CTA tile " << cfg.tile[0] << "x"
            << cfg.tile[1] << "x" << cfg.tile[2] << "\n"
            << "  permutation layouts M " << printed(mma.perm[0], cute) << ", N "
            << printed(mma.perm[1], cute) << ", K " << printed(mma.perm[2], cute)
            << "\n"
            << problem_note << "\n";
  for (auto op : ops) std::cout << explain_text(cfg, op, thread, cute) << '\n';
  // Kernel 05: what its wgmma and TMA read off the shared-memory tiles.
  if (args.preset == kHopperPreset) std::cout << hopper_text(hopper_json());
  // The attention kernels: S's rows per thread, the lanes sharing them, P read as P V's A.
  if (attn) std::cout << attention_text(attention_json(attention, thread));
  return 0;
}

}  // namespace

void add_explain_verb(CLI::App& app, Verbs& verbs) {
  CLI::App* explain = app.add_subcommand("explain",
                                         "Derive one thread's partition of C, A and B step by step "
                                         "(partition_C, partition_A, partition_B)");
  auto a = std::make_shared<ExplainArgs>();
  add_mma_options(explain, a->mma);
  explain->add_option("--operand", a->operand, "C, A, B or all")
      ->check(CLI::IsMember({"C", "A", "B", "all"}));
  explain->add_flag("--json", a->as_json, "print the derivation as JSON");
  add_print_flags(explain, a->mma.runtime, a->cute, "--atom-layout and --perm");
  add_problem_options(explain, a->problem, false, true);
  add_attention_options(explain, a->attention);
  verbs.push_back({explain, [a] { return run_explain(*a); }});
}

}  // namespace tessera::tools
