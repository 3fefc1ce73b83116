// tessera -- the command-line face of the library.
//
//   tessera batch < cases.jsonl                  JSON Lines in, one answer per line (DESIGN.md)
//   tessera composition "(4,3):(1,8)" 6:2        one verb per algebra op: result and index table
//   tessera show "(4,3):(3,1)"                   a layout as its index table
//   tessera demo                                 the worked examples of seed 004
//   tessera explain --preset step1 --thread 0    how a thread's fragment is derived (seed 002)
//
// Exit status: 0 success, 1 user error (the message points at the bad argument), 2 internal.
#include <cstdio>
#include <stdexcept>

#include "verbs.hpp"

int main(int argc, char** argv) {
  CLI::App app{"tessera: CuTe's layout algebra as plain values, at run time and compile time"};
  app.require_subcommand(1);
  tessera::tools::Verbs verbs;
  tessera::tools::add_algebra_verbs(app, verbs);
  tessera::tools::add_explain_verb(app, verbs);
  tessera::tools::add_analyze_verb(app, verbs);
  tessera::tools::add_render_verb(app, verbs);
  tessera::tools::add_codegen_verb(app, verbs);
  try {
    app.parse(argc, argv);
  } catch (CLI::ParseError const& e) {
    return app.exit(e) == 0 ? 0 : 1;
  }
  try {
    for (auto const& verb : verbs)
      if (verb.command->parsed()) return verb.run();
  } catch (tessera::Error const& e) {
    std::fprintf(stderr, "tessera: %s\n", e.what());
    return 1;
  } catch (std::invalid_argument const& e) {
    std::fprintf(stderr, "tessera: %s\n", e.what());
    return 1;
  } catch (std::exception const& e) {
    std::fprintf(stderr, "tessera: internal error: %s\n", e.what());
    return 2;
  }
  return 2;
}
