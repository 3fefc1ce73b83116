// tools/verbs.hpp -- how the CLI's verbs plug into `tessera`.
//
// Each verb module adds its subcommands to the app and a function that runs when one of them
// was given. Verbs return the exit status (0 success) and report user errors by throwing
// tessera::Error or std::invalid_argument (exit 1); anything else exits 2.
#pragma once

#include <CLI/CLI.hpp>
#include <functional>
#include <optional>
#include <string>
#include <tessera.hpp>
#include <vector>

namespace tessera::tools {

struct Verb {
  CLI::App* command;
  std::function<int()> run;
};
using Verbs = std::vector<Verb>;

void add_algebra_verbs(CLI::App& app, Verbs& verbs);  // batch, one verb per op, show, demo
void add_explain_verb(CLI::App& app, Verbs& verbs);   // explain
void add_analyze_verb(CLI::App& app,
                      Verbs& verbs);  // analyze (memory access: vectors, sectors, banks)
void add_render_verb(CLI::App& app, Verbs& verbs);   // render (self-contained HTML)
void add_codegen_verb(CLI::App& app, Verbs& verbs);  // codegen (plain CUDA index code)
void add_atoms_verb(CLI::App& app, Verbs& verbs);    // atoms (the atom catalog)
void add_trace_verbs(CLI::App& app, Verbs& verbs);   // trace, local_tile

// The index table of a layout (rows: mode 0, columns: mode 1, one table per index of the modes
// after them); at most 32 rows and columns each, saying what it leaves out.
void print_table(Layout const& l);
void print_table(SwizzledLayout const& l);
// A grid of values cell(r, c) with row labels r * row_step (nullopt ends a row), capped the same
// way.
void print_grid(int64_t rows, int64_t cols, int64_t row_step,
                std::function<std::optional<int64_t>(int64_t, int64_t)> const& cell);
// The notation paragraph of the algebra verbs' help.
std::string const& notation_help();

// --runtime and --cute, with one meaning on every verb that prints a layout: bare integers of the
// layouts typed (`typed` names them) are run-time, CuTe's int (_4 stays static); layouts print
// as CuTe's C++ does (static _4, run-time 4).
inline void add_print_flags(CLI::App* cmd, bool& runtime, bool& cute, std::string const& typed) {
  cmd->add_flag("--runtime", runtime,
                "bare integers of " + typed +
                    " are run-time values (CuTe's int); _4 stays static (CuTe's Int<4>)");
  cmd->add_flag("--cute", cute, "print the layouts as CuTe's C++ does: static _4, run-time 4");
}

}  // namespace tessera::tools
