// The codegen verb: plain CUDA index code for a TiledMMA partition (the step 1 kernel's
// my_rows/my_cols).
#include <fstream>
#include <iostream>
#include <memory>
#include <regex>
#include <stdexcept>

#include "codegen.hpp"
#include "problem_options.hpp"
#include "render_options.hpp"
#include "verbs.hpp"

namespace tessera::tools {
namespace {

struct CodegenArgs {
  MmaArgs mma;
  std::string operand = "C", output, ns = "tessera_gen";
  std::string command;
  bool kernel = false;
  ProblemWords problem;  // the partition of the CTA's tile of a problem
};

int run_codegen(CodegenArgs const& a) {
  MmaConfig cfg = mma_from_args(a.mma, "codegen");
  if (!std::regex_match(a.ns, std::regex("[A-Za-z_][A-Za-z0-9_]*")))
    throw std::invalid_argument("codegen: --namespace '" + a.ns + "' is not a C++ identifier");
  CodegenOptions opt;
  opt.op = a.operand == "A" ? Operand::kA : a.operand == "B" ? Operand::kB : Operand::kC;
  opt.ns = a.ns;
  opt.command = a.command;
  check_problem_options(a.mma.cmd, a.problem, "codegen");
  if (a.kernel && (a.problem.given() || a.mma.cmd->count("--operand")))
    throw std::invalid_argument(
        "codegen --kernel takes M, N, K and the strides at run time: no --problem or --operand");
  if (a.problem.given()) use_problem_tiles(trace_input(cfg, a.problem, "codegen"), cfg);
  std::string code = a.kernel ? codegen_kernel(cfg, opt) : codegen_partition(cfg, opt);
  if (a.output.empty() || a.output == "-") {
    std::cout << code;
    return 0;
  }
  std::ofstream f(a.output);
  if (!(f << code)) throw std::invalid_argument("codegen: cannot write " + a.output);
  return 0;
}

}  // namespace

void add_codegen_verb(CLI::App& app, Verbs& verbs) {
  CLI::App* cmd = app.add_subcommand(
      "codegen",
      "Emit plain CUDA index code (rows and columns per thread) for a TiledMMA partition, or "
      "(--kernel) the whole plain-CUDA GEMM kernel");
  auto a = std::make_shared<CodegenArgs>();
  add_mma_options(cmd, a->mma);
  cmd->add_option("--operand", a->operand, "C (default), A or B")
      ->check(CLI::IsMember({"C", "A", "B"}));
  cmd->add_option("--namespace", a->ns, "namespace of the emitted code (default tessera_gen)");
  cmd->add_option("-o,--output", a->output, "write to this file instead of stdout");
  cmd->add_flag("--kernel", a->kernel,
                "emit the whole GEMM kernel in plain CUDA (accumulators, K-loop, bounds-tested "
                "loads and stores) for a scalar-FMA TiledMMA");
  add_problem_options(cmd, a->problem, false, false);
  verbs.push_back({cmd, [a] {
                     a->command = "tessera codegen " + mma_flags(a->mma) +
                                  (a->kernel ? " --kernel" : " --operand " + a->operand) +
                                  problem_flags(a->problem);
                     return run_codegen(*a);
                   }});
}

}  // namespace tessera::tools
