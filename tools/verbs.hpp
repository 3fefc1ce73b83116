// tools/verbs.hpp -- how the CLI's verbs plug into `tessera`.
//
// Each verb module adds its subcommands to the app and a function that runs when one of them
// was given. Verbs return the exit status (0 success) and report user errors by throwing
// tessera::Error or std::invalid_argument (exit 1); anything else exits 2.
#pragma once

#include <functional>
#include <vector>

#include <CLI/CLI.hpp>
#include <tessera.hpp>

namespace tessera::tools {

struct Verb {
  CLI::App* command;
  std::function<int()> run;
};
using Verbs = std::vector<Verb>;

void add_algebra_verbs(CLI::App& app, Verbs& verbs);  // batch, one verb per op, show, demo
void add_explain_verb(CLI::App& app, Verbs& verbs);   // explain
void add_analyze_verb(CLI::App& app, Verbs& verbs);   // analyze (memory access: vectors, sectors, banks)
void add_render_verb(CLI::App& app, Verbs& verbs);    // render (self-contained HTML)
void add_codegen_verb(CLI::App& app, Verbs& verbs);   // codegen (plain CUDA index code)

// The index table of a rank-1 or rank-2 layout (rows: mode 0, columns: mode 1).
void print_table(Layout const& l);

}  // namespace tessera::tools
