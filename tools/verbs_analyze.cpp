// The analyze verb: vector width, coalescing and bank conflicts of a partition (analysis.hpp).
//
//   tessera analyze --preset step1                       C stores of the step-1 tile
//   tessera analyze --preset step4 --operand A --space shared --swizzle "Sw<3,3,3>"
//   tessera analyze --tv "(32,4):(4,1)" --tensor 128:1   any TV layout over a tensor
//   tessera analyze --copy universal:128 --thr "(16,8):(8,1)" --val "(1,4)" --side D
//                                                        a TiledCopy's source or destination
//   tessera analyze --sweep-r                            the permutation table: R = 1, 2, 4, 8
#include <algorithm>
#include <cstdio>
#include <functional>
#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "analyze_report.hpp"
#include "plural.hpp"
#include "mma_cli.hpp"
#include "ops.hpp"
#include "problem_options.hpp"
#include "render.hpp"
#include "render_options.hpp"
#include "verbs.hpp"

namespace tessera::tools {
namespace {

using nlohmann::json;

struct AnalyzeArgs {
  MmaArgs mma;
  std::string operand = "C";
  std::string tensor, swizzle, tv, space = "global", direction;
  std::string copy, thr, val, side = "S";  // a TiledCopy: --copy ATOM --thr T --val V --side S|D
  int64_t elem_bits = 0, max_vector_bits = 128;
  bool sweep_r = false, find_swizzle = false, as_json = false;
  ProblemWords problem;
};

std::string positions_text(PermutationChoice const& c) {
  std::string s;
  for (int64_t i = 0; i < c.n_positions; ++i) {
    bool opens = i == 0 || c.positions[i] != c.positions[i - 1] + 1;
    bool closes = i + 1 == c.n_positions || c.positions[i + 1] != c.positions[i] + 1;
    s += opens ? (i ? ", [" : "[") : ",";
    s += std::to_string(c.positions[i]);
    if (closes) s += "]";
  }
  return s;
}

int run_sweep(bool as_json) {
  json rows = json::array();
  std::vector<PermutationChoice> all;
  for (int64_t r : {1, 2, 4, 8}) all.push_back(permutation_choice(r));
  if (as_json) {
    for (auto const& c : all) {
      json pos = json::array();
      for (int64_t i = 0; i < c.n_positions; ++i) pos.push_back(c.positions[i]);
      rows.push_back(
          {{"R", c.r},
           {"permutation", "(16," + std::to_string(c.r) + "):(" + std::to_string(c.r) + ",1)"},
           {"period", c.period},
           {"repetitions", c.reps},
           {"thread0_positions", pos},
           {"shape", "(" + std::to_string(c.r) + "," + std::to_string(c.reps) + ")"},
           {"fragment_mode", to_string(c.shape)},
           {"analysis", report_json(c.report)}});
    }
    std::cout << json{{"tile",
                       "step1: UniversalFMA, atoms (16,16,1):(16,1,0), C (128,128):(128,1) float, "
                       "global stores"},
                      {"rows", rows}}
                     .dump()
              << '\n';
    return 0;
  }
  std::cout << "The permutation table: permutation (16,R):(R,1) in M and N for the step 1 kernel's "
               "tile (scalar FMA,\n"
               "16x16 threads, C (128,128):(128,1) floats stored to global memory). Period = 16 R, "
               "repetitions = 128 / "
               "period.\n\n";
  std::printf("%-2s %-7s %-5s %-50s %-6s %-9s %-8s %-8s %-22s %s\n", "R", "period", "reps",
              "thread 0's M positions", "shape", "fragment", "run", "access", "per warp store",
              "coalescing");
  for (auto const& c : all) {
    auto const& r = c.report;
    std::string shape = "(" + std::to_string(c.r) + "," + std::to_string(c.reps) + ")";
    std::string run = std::to_string(r.run_bits) + "-bit";
    std::string access = std::to_string(r.vector_bits) + "-bit";
    std::string warp =
        plural(r.sectors_per_request(), "sector") + ", " + plural(r.lines_per_request(), "line");
    std::string grade = r.grade == Grade::kGreat ? "Great" : r.grade == Grade::kOk ? "OK" : "Bad";
    std::printf("%-2lld %-7lld %-5lld %-50s %-6s %-9s %-8s %-8s %-22s %s: %s\n", (long long)c.r,
                (long long)c.period, (long long)c.reps, positions_text(c).c_str(), shape.c_str(),
                to_string(c.shape).c_str(), run.c_str(), access.c_str(), warp.c_str(),
                grade.c_str(), r.verdict.c_str());
  }
  std::cout
      << "\nrun: contiguous aligned bits per thread group; access: the widest single store (128 "
         "bits at most);\n"
         "fragment: the M mode of the library's fragment (size-1 modes dropped, as in CuTe).\n";
  return 0;
}

using PartitionRun = std::function<AccessReport(Swizzle, AccessSpec)>;

// --copy ATOM --thr T --val V: the TiledCopy's source (--side S) or destination (D) accesses over
// --tensor (default: the copy's tile, column-major), each thread at most its atom's width per
// access, as the copy's page and Python's analyze(tiled_copy) measure them.
PartitionRun copy_partition(AnalyzeArgs const& a, AccessSpec& spec, std::string& title,
                            json& config) {
  if (a.thr.empty() || a.val.empty())
    throw std::invalid_argument("analyze --copy needs --thr and --val layouts");
  if (a.mma.given() || !a.tv.empty())
    throw std::invalid_argument(
        "analyze: give --copy, --tv or a TiledMMA (--preset, --atom-layout), one of them");
  if (a.problem.given()) throw std::invalid_argument("analyze: --problem needs a TiledMMA");
  const int64_t bits = a.elem_bits ? a.elem_bits : 32;
  TiledCopy copy =
      make_tiled_copy_tv(copy_atom_of(a.copy, bits), layout_arg(a.thr), layout_arg(a.val));
  const bool dst = a.side == "D";
  Layout tensor = a.tensor.empty() ? Layout(copy.tiler) : layout_arg(a.tensor);
  Layout atom_side = dst ? copy.atom.dst_tv : copy.atom.src_tv;
  spec.elem_bits = bits;
  spec.store = a.direction.empty() ? dst : a.direction == "store";
  spec.max_vector_bits = std::min<int64_t>(
      a.max_vector_bits, (atom_side.rank() >= 2 ? atom_side[1].size() : 1) * bits);
  title = std::string("TiledCopy ") + copy.atom.name + " (thr " + to_string(layout_arg(a.thr)) +
          ", val " + to_string(layout_arg(a.val)) + "), " + (dst ? "destination " : "source ") +
          to_string(tensor);
  config = {{"copy", copy.atom.name},
            {"thr", a.thr},
            {"val", a.val},
            {"side", dst ? "D" : "S"},
            {"tensor", to_string(tensor)},
            {"layout_tv", to_string(copy.layout_tv)}};
  return [copy, tensor, dst](Swizzle s, AccessSpec sp) {
    return analyze(CopyAccess{copy, SwizzledLayout{s, 0, tensor}, dst}, sp);
  };
}

// --tv TV --tensor T: any (thread,value) -> index layout over a tensor.
PartitionRun tv_partition(AnalyzeArgs const& a, AccessSpec& spec, std::string& title,
                          json& config) {
  if (a.tensor.empty())
    throw std::invalid_argument("analyze --tv needs --tensor, the layout the TV indexes");
  if (a.mma.given())
    throw std::invalid_argument(
        "analyze: give --tv or a TiledMMA (--preset, --atom-layout), not both");
  if (a.problem.given())
    throw std::invalid_argument("analyze: --problem needs a TiledMMA, not --tv");
  Layout tv = layout_arg(a.tv), tensor = layout_arg(a.tensor);
  spec.elem_bits = a.elem_bits ? a.elem_bits : 32;
  spec.store = a.direction == "store";
  title = "TV " + to_string(tv) + " over " + to_string(tensor);
  config = {{"tv", to_string(tv)}, {"tensor", to_string(tensor)}};
  return [tv, tensor](Swizzle s, AccessSpec sp) {
    return analyze(TvAccess{tv, SwizzledLayout{s, 0, tensor}}, sp);
  };
}

// A TiledMMA's operand (--preset or --atom, --atom-layout, --tile; --operand), over its tensor,
// --tensor, or with --problem the CTA's tile of the problem at k_tile 0, at its offset.
PartitionRun mma_partition(AnalyzeArgs const& a, AccessSpec& spec, std::string& title,
                           json& config) {
  if (!a.mma.given())
    throw std::invalid_argument(
        "analyze needs --preset, --atom-layout and --tile M N K, --tv and --tensor, --copy, "
        "--thr and --val, or --sweep-r");
  MmaConfig cfg = mma_from_args(a.mma, "analyze");
  Operand op = a.operand == "A" ? Operand::kA : a.operand == "B" ? Operand::kB : Operand::kC;
  int64_t offset = 0;
  check_problem_options(a.mma.cmd, a.problem, "analyze");
  if (a.problem.given()) {
    if (!a.tensor.empty())
      throw std::invalid_argument("analyze: give --tensor or --problem, not both");
    offset = use_problem_tiles(trace_input(cfg, a.problem, "analyze"), cfg)[size_t(int(op))];
  }
  Layout tensor = a.tensor.empty() ? cfg.tensor[int(op)] : layout_arg(a.tensor);
  spec = mma_access_spec(cfg, op, a.elem_bits, a.direction, spec.space, spec.max_vector_bits);
  const char* dims = op == Operand::kC ? "(M,N)" : op == Operand::kA ? "(M,K)" : "(N,K)";
  title = cfg.name + ", operand " + operand_name(op) + " " + dims + " = " + to_string(tensor);
  config = {{"name", cfg.name},
            {"operand", operand_name(op)},
            {"tensor", to_string(tensor)},
            {"offset", offset},
            {"tile_mnk", {cfg.tile[0], cfg.tile[1], cfg.tile[2]}}};
  if (a.problem.given())
    title += " (CTA (" + std::to_string(a.problem.cta[0]) + "," + std::to_string(a.problem.cta[1]) +
             ")'s tile at offset " + std::to_string(offset) + ")";
  TiledMMA mma = cfg.mma;
  return [mma, op, tensor, offset](Swizzle s, AccessSpec sp) {
    return analyze(MmaAccess{mma, op, SwizzledLayout{s, offset, tensor}}, sp);
  };
}

int run_analyze(AnalyzeArgs const& a) {
  if (a.sweep_r) {
    if (a.mma.given() || !a.tv.empty() || !a.copy.empty())
      throw std::invalid_argument(
          "analyze: --sweep-r is its own table; it takes no "
          "--preset, --atom-layout, --tv or --copy");
    return run_sweep(a.as_json);
  }
  AccessSpec spec;
  spec.space = a.space == "shared" ? MemSpace::kShared : MemSpace::kGlobal;
  spec.max_vector_bits = a.max_vector_bits;
  Swizzle sw = a.swizzle.empty() ? Swizzle() : parse_swizzle(a.swizzle);
  std::string title;
  json config;
  // The partition under analysis, for a given swizzle (derive_swizzle tries several).
  PartitionRun run;
  if (!a.copy.empty()) {
    run = copy_partition(a, spec, title, config);
  } else if (!a.tv.empty()) {
    run = tv_partition(a, spec, title, config);
  } else {
    run = mma_partition(a, spec, title, config);
  }
  AccessReport r = run(sw, spec);
  json derived;
  std::string derived_text;
  if (a.find_swizzle) {
    AccessSpec shared = spec;
    shared.space = MemSpace::kShared;
    bool found = false;
    Swizzle d = derive_swizzle_by([&](Swizzle s) { return run(s, shared); }, &found);
    derived = found ? json(to_string(d)) : json(nullptr);
    derived_text = found
                       ? "  swizzle     " + to_string(d) + " makes these accesses conflict-free (" +
                             run(d, shared).verdict.c_str() + ")\n"
                       : "  swizzle     no Sw<B,M,S> with B <= 5 removes the conflicts\n";
  }
  if (!a.swizzle.empty()) {
    title += " swizzled by " + to_string(sw);
    config["swizzle"] = to_string(sw);
  }
  if (a.as_json) {
    json out = {{"config", config}, {"analysis", report_json(r)}};
    if (a.find_swizzle) out["derived_swizzle"] = derived;
    std::cout << out.dump() << '\n';
    return 0;
  }
  std::cout << "analyze " << title << ", " << space_name(spec.space) << " memory\n"
            << report_text(r) << derived_text;
  return 0;
}

}  // namespace

void add_analyze_verb(CLI::App& app, Verbs& verbs) {
  CLI::App* cmd = app.add_subcommand("analyze",
                                     "Vector width, coalescing and bank conflicts of a partition; "
                                     "--sweep-r: the permutation table");
  auto a = std::make_shared<AnalyzeArgs>();
  add_mma_options(cmd, a->mma);
  cmd->add_option("--operand", a->operand, "C (default), A or B")
      ->check(CLI::IsMember({"C", "A", "B"}));
  cmd->add_option("--tensor", a->tensor,
                  "the operand's tensor layout (default: the configuration's)");
  cmd->add_option("--tv", a->tv, "a (thread,value) -> tensor index layout, instead of a TiledMMA");
  cmd->add_option("--copy", a->copy,
                  "a TiledCopy's atom instead of a TiledMMA: cp_async:4|8|16, universal:BITS, "
                  "ldmatrix:x1|x2|x4[t] or a copy atom of `tessera atoms`");
  cmd->add_option("--thr", a->thr, "the TiledCopy's thread layout, e.g. \"(32,8):(1,32)\"");
  cmd->add_option("--val", a->val, "the TiledCopy's value layout, e.g. (4,1)");
  cmd->add_option("--side", a->side, "the TiledCopy's source S (default) or destination D")
      ->check(CLI::IsMember({"S", "D"}));
  cmd->add_option("--swizzle", a->swizzle, "swizzle the tensor, e.g. \"Sw<3,3,3>\"");
  cmd->add_option("--space", a->space, "global (default) or shared")
      ->check(CLI::IsMember({"global", "shared"}));
  cmd->add_option("--access", a->direction, "load or store (default: C stores, A/B loads)")
      ->check(CLI::IsMember({"load", "store"}));
  cmd->add_option("--elem-bits", a->elem_bits,
                  "element size (default: 16 for f16/bf16 A/B, else 32)");
  cmd->add_option("--max-vector-bits", a->max_vector_bits,
                  "widest access to consider (32 models scalar code)");
  cmd->add_flag("--find-swizzle", a->find_swizzle,
                "derive a Sw<B,M,S> that makes the shared accesses conflict-free");
  cmd->add_flag("--sweep-r", a->sweep_r,
                "the permutation table: R = 1, 2, 4, 8 for the step 1 kernel's tile");
  cmd->add_flag("--json", a->as_json, "print the analysis as JSON");
  add_problem_options(cmd, a->problem, false, false);
  verbs.push_back({cmd, [a] { return run_analyze(*a); }});
}

}  // namespace tessera::tools
