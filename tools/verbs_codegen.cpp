// The codegen verb: plain CUDA index code for a TiledMMA partition (the step 1 kernel's
// my_rows/my_cols).
#include <fstream>
#include <iostream>
#include <memory>
#include <regex>
#include <stdexcept>

#include "codegen.hpp"
#include "render_options.hpp"
#include "verbs.hpp"

namespace tessera::tools {
namespace {

struct CodegenArgs {
  MmaArgs mma;
  std::string operand = "C", output, ns = "tessera_gen";
  std::string command;
};

int run_codegen(CodegenArgs const& a) {
  MmaConfig cfg = mma_from_args(a.mma, "codegen");
  if (!std::regex_match(a.ns, std::regex("[A-Za-z_][A-Za-z0-9_]*")))
    throw std::invalid_argument("codegen: --namespace '" + a.ns + "' is not a C++ identifier");
  CodegenOptions opt;
  opt.op = a.operand == "A" ? Operand::kA : a.operand == "B" ? Operand::kB : Operand::kC;
  opt.ns = a.ns;
  opt.command = a.command;
  std::string code = codegen_partition(cfg, opt);
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
      "Emit plain CUDA index code (rows and columns per thread) for a TiledMMA partition");
  auto a = std::make_shared<CodegenArgs>();
  add_mma_options(cmd, a->mma);
  cmd->add_option("--operand", a->operand, "C (default), A or B")
      ->check(CLI::IsMember({"C", "A", "B"}));
  cmd->add_option("--namespace", a->ns, "namespace of the emitted code (default tessera_gen)");
  cmd->add_option("-o,--output", a->output, "write to this file instead of stdout");
  verbs.push_back({cmd, [a] {
                     a->command =
                         "tessera codegen " + mma_flags(a->mma) + " --operand " + a->operand;
                     return run_codegen(*a);
                   }});
}

}  // namespace tessera::tools
