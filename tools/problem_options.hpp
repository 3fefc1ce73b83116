// tools/problem_options.hpp -- the problem options shared by `trace`, `explain`, `render`,
// `analyze` and `codegen`: --problem M N K, --layout-A/B/C, --cta m n (and --thread). One parser:
// trace_input (trace.hpp) reads them.
#pragma once

#include <CLI/CLI.hpp>
#include <string>

#include "trace.hpp"

namespace tessera::tools {

// `required`: the verb needs a problem (trace); else the options are optional, and without
// --problem the verb works on the TiledMMA's own tile. `thread`: also add --thread.
inline void add_problem_options(CLI::App* cmd, ProblemWords& w, bool required, bool thread) {
  auto* p = cmd->add_option("--problem", w.problem,
                            "the problem M N K: the operands are the CTA's tiles of it (--cta)")
                ->expected(3);
  if (required) p->required();
  cmd->add_option("--layout-A", w.layout[int(Operand::kA)],
                  "with --problem: A's (M,K) layout, e.g. \"(256,32):(1,256)\", or M / K: the "
                  "contiguous mode (default M)");
  cmd->add_option("--layout-B", w.layout[int(Operand::kB)],
                  "with --problem: B's (N,K) layout, or N / K (default N)");
  cmd->add_option("--layout-C", w.layout[int(Operand::kC)],
                  "with --problem: C's (M,N) layout, or M / N (default N: row-major)");
  cmd->add_option("--cta", w.cta, "with --problem: the CTA's m n in the grid (default 0 0)")
      ->expected(2);
  if (thread) cmd->add_option("--thread", w.thread, "thread index (default 0)");
}

// The options given without --problem are an error: they would be ignored.
inline void check_problem_options(CLI::App* cmd, ProblemWords const& w, std::string const& verb) {
  if (w.given()) return;
  for (const char* f : {"--layout-A", "--layout-B", "--layout-C", "--cta"})
    if (cmd->count(f))
      throw std::invalid_argument(verb + ": " + f + " needs --problem M N K");
}

// The options as they would be typed (for generated files' header comments); "" without a problem.
inline std::string problem_flags(ProblemWords const& w) {
  if (!w.given()) return "";
  std::string s = " --problem";
  for (int64_t x : w.problem) s += " " + std::to_string(x);
  for (Operand op : {Operand::kA, Operand::kB, Operand::kC})
    if (!w.layout[int(op)].empty())
      s += std::string(" --layout-") + operand_name(op) + " \"" + w.layout[int(op)] + "\"";
  return s + " --cta " + std::to_string(w.cta[0]) + " " + std::to_string(w.cta[1]);
}

}  // namespace tessera::tools
