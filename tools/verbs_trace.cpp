// The trace verbs: `trace` (one thread of one CTA through a tiled GEMM on a real problem) and
// `local_tile` (a CTA's tile of a tensor, in CuTe's spelling). Both print what tools/trace.cpp
// computes.
#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include "render_options.hpp"
#include "trace.hpp"
#include "verbs.hpp"

namespace tessera::tools {
namespace {

struct TraceArgs {
  MmaArgs mma;
  std::vector<int64_t> problem, cta = {0, 0};
  std::string layout[3];  // C, A, B
  std::vector<std::string> copy[2];  // A, B: atom, thread layout, value layout
  std::string smem[2];
  int64_t thread = 0;
  bool as_json = false;
};

int run_trace(TraceArgs const& a) {
  if (a.problem.size() != 3) throw std::invalid_argument("trace needs --problem M N K");
  TraceInput in;
  in.cfg = mma_from_args(a.mma, "trace");
  for (int i = 0; i < 3; ++i) in.problem[i] = a.problem[i];
  for (int i = 0; i < 3; ++i) {
    if (in.problem[i] <= 0) break;  // check_trace names it
    in.layout[i] = operand_layout(a.layout[i], Operand(i), in.problem);
  }
  in.cta[0] = a.cta[0], in.cta[1] = a.cta[1];
  in.thread = a.thread;
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
  bool as_json = false;
};

int run_local_tile(LocalTileArgs const& a) {
  View v = local_tile_words(a.tensor, a.tiler, a.coord, a.proj);
  if (a.as_json) {
    std::cout << nlohmann::json{{"result", to_string(v.layout)}, {"offset", v.offset}}.dump()
              << '\n';
    return 0;
  }
  std::cout << to_string(v.layout) << "\noffset " << v.offset << "\n";
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
  trace->add_option("--problem", a->problem, "the problem M N K")->expected(3)->required();
  trace->add_option("--layout-A", a->layout[int(Operand::kA)],
                    "A's (M,K) layout, e.g. \"(256,32):(1,256)\", or M / K: the contiguous mode "
                    "(default M)");
  trace->add_option("--layout-B", a->layout[int(Operand::kB)],
                    "B's (N,K) layout, or N / K (default N)");
  trace->add_option("--layout-C", a->layout[int(Operand::kC)],
                    "C's (M,N) layout, or M / N (default N: row-major)");
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
  trace->add_option("--cta", a->cta, "the CTA's m n in the grid (default 0 0)")->expected(2);
  trace->add_option("--thread", a->thread, "thread index (default 0)");
  trace->add_flag("--json", a->as_json, "print the trace as JSON");
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
  verbs.push_back({lt, [l] { return run_local_tile(*l); }});
}

}  // namespace tessera::tools
