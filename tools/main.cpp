// tessera -- the command-line face of the library.
//
//   tessera batch < cases.jsonl                  JSON Lines in, one answer per line (docs/batch.md)
//   tessera composition "(4,3):(1,8)" 6:2        one verb per algebra op: result and index table
//   tessera show "(4,3):(3,1)"                   a layout as its index table
//   tessera demo                                 the worked examples of the algebra
//   tessera explain --preset step1 --thread 0    how a thread's fragment is derived
//   tessera ops                                  the verbs and the atoms
//   tessera atoms --arch sm80                    the atom catalog (every MMA and copy atom of CuTe)
//
// Exit status: 0 success, 1 user error (the message points at the bad argument), 2 internal.
// With --json anywhere on the command line, errors too are one JSON object on stdout:
// {"error": "..."}, with the same exit status.
#include <algorithm>
#include <cstdio>
#include <cstring>
#include <iostream>
#include <nlohmann/json.hpp>
#include <stdexcept>
#include <string>
#include <tessera/atom/catalog.hpp>
#include <vector>

#include "atom_names.hpp"
#include "mma_cli.hpp"
#include "verbs.hpp"

#ifndef TESSERA_VERSION
#define TESSERA_VERSION "unknown"
#endif

namespace {

using tessera::tools::Verbs;

std::vector<std::string> verb_names(CLI::App& app) {
  std::vector<std::string> names;
  for (CLI::App* sub : app.get_subcommands({})) {
    names.push_back(sub->get_name());
    for (auto const& alias : sub->get_aliases()) names.push_back(alias);
  }
  return names;
}

// "unknown verb 'compsoe'; did you mean 'compose'?" (the closest verb within a third of its
// length).
std::string unknown_verb_message(CLI::App& app, std::string const& verb) {
  std::string best;
  size_t best_d = verb.size() / 3 + 2;
  for (auto const& name : verb_names(app)) {
    size_t d = tessera::tools::edit_distance(verb, name);
    if (d < best_d) best_d = d, best = name;
  }
  std::string m = "unknown verb '" + verb + "'";
  if (!best.empty()) m += "; did you mean '" + best + "'?";
  return m + " (tessera ops lists the verbs)";
}

int report(bool as_json, std::string const& message, int status) {
  if (as_json)
    std::cout << nlohmann::json{{"error", message}}.dump() << '\n';
  else
    std::fprintf(stderr, "tessera: %s\n", message.c_str());
  return status;
}

int run_ops(CLI::App& app) {
  std::printf("verbs:\n");
  for (CLI::App* sub : app.get_subcommands({})) {
    std::string name = sub->get_name();
    for (auto const& alias : sub->get_aliases()) name += ", " + alias;
    std::printf("  %-21s %s\n", name.c_str(), sub->get_description().c_str());
  }
  std::printf("\nMMA atoms (--atom):\n");
  for (auto const& n : tessera::tools::mma_atom_names()) {
    tessera::MmaAtom a;
    tessera::mma_atom_by_name(n.c_str(), a);
    std::printf("  %-32s %lldx%lldx%lld, %lld thread%s\n", n.c_str(), (long long)a.m,
                (long long)a.n, (long long)a.k, (long long)a.threads(),
                a.threads() == 1 ? "" : "s");
  }
  std::printf(
      "  and every other atom of the catalog: tessera atoms lists all %d MMA and %d copy atoms\n",
      tessera::catalog::kMmaCount, tessera::catalog::kCopyCount);
  std::printf("\ncopy atoms (render --copy): %s\n", tessera::tools::kCopyAtomSpellings);
  std::printf(
      "presets (--preset): step1 (the step 1 kernel: UniversalFMA, 256 threads, 128x128x8), "
      "step4 (the step 4 kernel: SM80_16x8x16_F32F16F16F32_TN, 128 threads, 128x128x32), "
      "hopper (kernel 05: SM90_64x256x16_F32F16F16_SS, two consumer warpgroups, 128x256x64, with "
      "its "
      "shared tiles, wgmma descriptors and TMA boxes), "
      "attention (the attention kernels' S = Q K^T and O += P V: each thread's rows of S, the "
      "lanes that share them, P's accumulators as P V's A registers; explain and render take "
      "--kernel fa3_sm90|fa2_sm80 and --head-dim 64|128|256)\n");
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"tessera: CuTe's layout algebra as plain values, at run time and compile time"};
  app.require_subcommand(1);
  app.set_version_flag("--version", std::string("tessera ") + TESSERA_VERSION);
  app.footer(
      "\n" + tessera::tools::notation_help() +
      "\n\ntessera ops lists the verbs and atoms; tessera help VERB (or tessera VERB --help) "
      "describes one.\nExit status: 0 success, 1 user error, 2 internal error.");
  Verbs verbs;
  tessera::tools::add_algebra_verbs(app, verbs);
  tessera::tools::add_explain_verb(app, verbs);
  tessera::tools::add_analyze_verb(app, verbs);
  tessera::tools::add_render_verb(app, verbs);
  tessera::tools::add_codegen_verb(app, verbs);
  tessera::tools::add_atoms_verb(app, verbs);
  tessera::tools::add_trace_verbs(app, verbs);
  CLI::App* ops =
      app.add_subcommand("ops", "List the verbs, the MMA and copy atoms, and the presets");
  verbs.push_back({ops, [&app] { return run_ops(app); }});
  CLI::App* help = app.add_subcommand("help", "Describe tessera, or one verb: help [VERB]");
  std::string help_verb;
  help->add_option("verb", help_verb, "the verb to describe");

  const bool as_json = std::any_of(argv + 1, argv + argc,
                                   [](const char* a) { return std::strcmp(a, "--json") == 0; });
  // The verb is the first argument that is not a flag (the top level has no options with values).
  const char* const* verb =
      std::find_if(argv + 1, argv + argc, [](const char* a) { return a[0] != '-'; });
  if (verb != argv + argc) {
    auto names = verb_names(app);
    if (std::find(names.begin(), names.end(), *verb) == names.end())
      return report(as_json, unknown_verb_message(app, *verb), 1);
  }
  try {
    app.parse(argc, argv);
  } catch (CLI::Success const& e) {  // --help, --version
    return app.exit(e);
  } catch (CLI::ParseError const& e) {
    if (!as_json) return app.exit(e) == 0 ? 0 : 1;
    return report(true, e.what(), 1);
  }
  if (help->parsed()) {
    if (help_verb.empty()) {  // app.help() would describe the selected subcommand, `help` itself
      std::cout << app.get_formatter()->make_help(&app, app.get_name(), CLI::AppFormatMode::Normal);
      return 0;
    }
    auto names = verb_names(app);
    if (std::find(names.begin(), names.end(), help_verb) == names.end())
      return report(as_json, unknown_verb_message(app, help_verb), 1);
    std::cout << app.get_subcommand(help_verb)->help(app.get_name());
    return 0;
  }
  try {
    for (auto const& verb : verbs)
      if (verb.command->parsed()) return verb.run();
  } catch (tessera::Error const& e) {
    return report(as_json, e.what(), 1);
  } catch (std::invalid_argument const& e) {
    return report(as_json, e.what(), 1);
  } catch (std::exception const& e) {
    return report(as_json, std::string("internal error: ") + e.what(), 2);
  }
  return 2;
}
