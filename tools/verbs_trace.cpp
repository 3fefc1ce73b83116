// The trace verbs: `trace` (one thread of one CTA through a tiled GEMM on a real problem) and
// `local_tile` (a CTA's tile of a tensor, in CuTe's spelling). Both print what tools/trace.cpp
// computes.
#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include "problem_options.hpp"
#include "render_options.hpp"
#include "trace.hpp"
#include "verbs.hpp"

namespace tessera::tools {
namespace {

struct TraceArgs {
  MmaArgs mma;
  ProblemWords problem;
  std::vector<std::string> copy[2];  // A, B: atom, thread layout, value layout
  std::string smem[2];
  bool as_json = false, cute = false;
};

int run_trace(TraceArgs const& a) {
  TraceInput in = trace_input(mma_from_args(a.mma, "trace"), a.problem, "trace");
  in.cute = a.cute;
  for (int i = 0; i < 2; ++i) {
    Operand op = i == 0 ? Operand::kA : Operand::kB;
    if (!a.copy[i].empty())
      in.copy[i] = trace_copy(in.cfg, op, a.copy[i][0], a.copy[i][1], a.copy[i][2], a.smem[i]);
    else if (!a.smem[i].empty())
      throw std::invalid_argument("trace: --smem-" + std::string(operand_name(op)) +
                                  " needs --copy-" + operand_name(op));
  }
  nlohmann::json j = trace_json(in);
  if (a.as_json) std::cout << j.dump() << '\n';
  else std::cout << trace_text(j);
  return 0;
}

struct LocalTileArgs {
  std::string tensor, tiler, coord, proj;
  bool as_json = false, runtime = false, cute = false;
};

int run_local_tile(LocalTileArgs const& a) {
  View v = local_tile_words(a.tensor, a.tiler, a.coord, a.proj, a.runtime);
  const std::string result = printed(v.layout, a.cute);
  if (a.as_json) {
    std::cout << nlohmann::json{{"result", result}, {"offset", v.offset}}.dump() << '\n';
    return 0;
  }
  std::cout << result << "\noffset " << v.offset << "\n";
  return 0;
}

}  // namespace

void add_trace_verbs(CLI::App& app, Verbs& verbs) {
  CLI::App* trace = app.add_subcommand(
      "trace",
      "Follow one thread of one CTA through a tiled GEMM on a problem: grid, local_tile, "
      "partitions, fragments, K-loop counts, epilogue, predicates");
  auto a = std::make_shared<TraceArgs>();
  add_mma_options(trace, a->mma);
  add_problem_options(trace, a->problem, true, true);
  for (int i = 0; i < 2; ++i) {
    std::string x = i == 0 ? "A" : "B";
    trace->add_option("--copy-" + x, a->copy[i],
                      "a TiledCopy of " + x + " into shared memory: ATOM THR VAL, e.g. "
                      "cp_async:16 \"(32,8):(8,1)\" (4,1)")
        ->expected(3);
    trace->add_option("--smem-" + x, a->smem[i],
                      "with --copy-" + x + ": the shared tile's layout (default: the tile, "
                      "column-major)");
  }
  trace->add_flag("--json", a->as_json, "print the trace as JSON");
  add_print_flags(trace, a->mma.runtime, a->cute, "--atom-layout and --perm");
  verbs.push_back({trace, [a] { return run_trace(*a); }});

  CLI::App* lt = app.add_subcommand(
      "local_tile",
      "A CTA's tile of a tensor: local_tile TENSOR TILER COORD [--proj P], e.g. "
      "\"(256,32):(1,256)\" \"(128,128,8)\" \"(0,0,_)\" --proj \"(1,X,1)\"");
  auto l = std::make_shared<LocalTileArgs>();
  lt->add_option("tensor", l->tensor, "the tensor's layout")->required();
  lt->add_option("tiler", l->tiler, "the tile shape, e.g. (128,128,8)")->required();
  lt->add_option("coord", l->coord, "the tile coordinate; _ keeps a mode's tiles")->required();
  lt->add_option("--proj", l->proj, "which tiler modes apply: 1 keeps one, X drops it");
  lt->add_flag("--json", l->as_json, "print the result as JSON");
  add_print_flags(lt, l->runtime, l->cute, "the tensor and the tiler");
  verbs.push_back({lt, [l] { return run_local_tile(*l); }});
}

}  // namespace tessera::tools
