// The render verb: one self-contained interactive HTML page of a layout, a TiledMMA or a TiledCopy.
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <iterator>
#include <memory>
#include <stdexcept>

#include "attention_options.hpp"
#include "grid_picture.hpp"
#include "hopper_cli.hpp"
#include "latex.hpp"
#include "op_pictures.hpp"
#include "ops.hpp"
#include "render.hpp"
#include "problem_options.hpp"
#include "render_options.hpp"
#include "verbs.hpp"

namespace tessera::tools {
namespace {

struct RenderArgs {
  MmaArgs mma;
  std::string layout, output;
  std::string tv;      // a TV layout drawn on --tile M N (the raw TV picture)
  std::string format;  // html, svg or tikz; empty: by the output's extension
  bool latex = false;  // --latex: --format tikz
  std::string operand;  // the SVG's picture of a TiledMMA (C, A, B) or a TiledCopy (S, D)
  std::string op;                // an algebra op (ops.hpp) and its arguments as typed
  std::vector<std::string> op_args;
  std::vector<std::string> compare;
  CopySpec copy;
  AccessOptions access;
  std::string copy_atom, dtype = "float";
  int64_t thread = -1;  // selected when the page opens
  int64_t warp = -1;    // the overlay's warp when the page opens
  bool playground = false;
  ProblemWords problem;  // with a TiledMMA: the thread trace's page
  AttentionVariant attention;  // with --preset attention
};

int64_t dtype_bits(std::string const& t) {
  if (t == "half" || t == "bf16" || t == "f16") return 16;
  if (t == "float" || t == "f32" || t == "tf32") return 32;
  if (t == "double" || t == "f64") return 64;
  if (t == "int8" || t == "f8") return 8;
  throw std::invalid_argument("render: unknown --dtype '" + t +
                              "' (known: half, bf16, float, tf32, double, int8)");
}

// The library compiled to WebAssembly (the `playground` target writes tessera_wasm.js and
// tessera_wasm.wasm beside this executable; $TESSERA_WASM_JS names another loader, its .wasm
// beside it): with them the page's inputs are live. Empty strings if absent.
Playground playground_files() {
  std::string path;
  if (char const* env = std::getenv("TESSERA_WASM_JS")) {
    path = env;
  } else {
    std::error_code ec;
    auto exe = std::filesystem::read_symlink("/proc/self/exe", ec);
    if (ec) return {};
    path = (exe.parent_path() / "tessera_wasm.js").string();
  }
  auto read = [](std::string const& p) {
    std::ifstream f(p, std::ios::binary);
    return f ? std::string(std::istreambuf_iterator<char>(f), {}) : std::string();
  };
  Playground p{read(path), read(std::filesystem::path(path).replace_extension(".wasm").string())};
  if (p.loader.empty() || p.wasm.empty()) return {};
  return p;
}

// A TiledMMA is asked for: a preset, an atom layout, or one atom alone (--atom, as CuTe's
// TiledMMA of one atom).
bool mma_given(RenderArgs const& a) {
  return a.mma.given() || (a.mma.cmd && a.mma.cmd->count("--atom"));
}

void check_flags(RenderArgs const& a) {
  if (!a.op_args.empty() && a.op.empty())
    throw std::invalid_argument("render: --args needs --op");
  int what =
      int(!a.layout.empty()) + int(mma_given(a)) + int(!a.copy_atom.empty()) + int(a.playground) +
      int(!a.op.empty()) + int(!a.tv.empty());
  if (what != 1)
    throw std::invalid_argument(
        "render needs exactly one of --layout, --op, --preset (or --atom-layout/--tile), --copy, "
        "--tv and --playground");
  if (!a.tv.empty() && a.mma.tile.size() != 2)
    throw std::invalid_argument("render --tv " + a.tv +
                                " needs the tile it maps into: --tile M N (rows, columns)");
  if (mma_given(a) && a.mma.tile.size() == 2)
    throw std::invalid_argument("render: a TiledMMA's --tile is M N K (3 values), got 2");

  if (a.output.empty()) throw std::invalid_argument("render needs -o FILE.html");
  if (!a.compare.empty() && !mma_given(a))
    throw std::invalid_argument("render: --compare-perm needs a TiledMMA");
  if (!a.layout.empty() &&
      (!a.access.swizzle.empty() || a.access.overlay != "owner" || a.access.elem_bits))
    throw std::invalid_argument(
        "render: --swizzle, --overlay and --elem-bits need a TiledMMA or a TiledCopy");
  if (a.access.elem_bits && (a.access.elem_bits < 8 || a.access.elem_bits > 128 ||
                             (a.access.elem_bits & (a.access.elem_bits - 1)) != 0))
    throw std::invalid_argument("render: --elem-bits " + std::to_string(a.access.elem_bits) +
                                " is not a power of two from 8 to 128");
  if (a.access.max_vector_bits < 8)
    throw std::invalid_argument("render: --max-vector-bits must be at least 8");
}

// The flags as the page's state (render.hpp): the page opens with them in its inputs.
nlohmann::json state_of(RenderArgs& a) {
  nlohmann::json state;
  if (!mma_given(a)) attention_chosen(a.mma, "render");  // --kernel without the preset: an error
  if (a.playground) {  // the playground's first page: a divide, whose inputs invite the next op
    state = {{"kind", "op"}, {"op", "logical_divide"}, {"args", {"(8,16):(16,1)", "(2,4)"}}};
  } else if (!a.layout.empty()) {
    state = {{"kind", "layout"}, {"layout", a.layout}};
  } else if (!a.op.empty()) {
    state = {{"kind", "op"}, {"op", a.op}, {"args", a.op_args}};
  } else if (mma_given(a)) {
    // The flag rules (a preset fixes the rest); one atom's tile where none is given.
    const MmaConfig cfg = mma_from_args(a.mma, "render");
    if (attention_chosen(a.mma, "render"))
      state = {{"kind", "mma"},
               {"preset", a.mma.preset},
               {"kernel", a.attention.kernel},
               {"head_dim", a.attention.head_dim}};
    else if (!a.mma.preset.empty())
      state = {{"kind", "mma"}, {"preset", a.mma.preset}};
    else
      state = {{"kind", "mma"},
               {"atom", a.mma.atom},
               {"atom_layout", a.mma.atom_layout.empty() ? "(1,1,1)" : a.mma.atom_layout},
               {"perm", a.mma.permutation},
               {"tile", {cfg.tile[0], cfg.tile[1], cfg.tile[2]}}};
    state["compare"] = a.compare;
    if (a.problem.given()) {  // the thread trace: the problem, the CTA, the k_tile stepper
      if (!a.compare.empty() || !a.access.swizzle.empty() || a.access.elem_bits ||
          !a.access.smem_swizzle.empty() || !a.access.smem_major.empty() || a.warp >= 0 ||
          a.access.overlay != "owner")
        throw std::invalid_argument(
            "render --problem draws the thread trace: --compare-perm, --swizzle, --elem-bits, "
            "--smem-swizzle, --smem-major, --warp and --overlay are for a TiledMMA page");
      state["kind"] = "trace";
      state.erase("compare");
      state["problem"] = a.problem.problem;
      state["cta"] = a.problem.cta;
      for (Operand op : {Operand::kA, Operand::kB, Operand::kC})
        if (!a.problem.layout[int(op)].empty())
          state[std::string("layout_") + operand_name(op)] = a.problem.layout[int(op)];
      state["thread"] = a.thread < 0 ? 0 : a.thread;
      state["k_tile"] = 0;
      return state;
    }
  } else {
    state = {{"kind", "copy"},
             {"atom", a.copy_atom},
             {"elem_bits", a.access.elem_bits ? a.access.elem_bits : dtype_bits(a.dtype)},
             {"thr", a.copy.thr},
             {"val", a.copy.val},
             {"src", a.copy.src},
             {"dst", a.copy.dst}};
  }
  if (state["kind"] != "layout" && state["kind"] != "op") {
    state["space"] = a.access.space, state["overlay"] = a.access.overlay,
    state["swizzle"] = a.access.swizzle;
    state["access"] = a.access.access, state["max_vector_bits"] = a.access.max_vector_bits;
    if (state["kind"] == "mma" && a.access.elem_bits) state["elem_bits"] = a.access.elem_bits;
  }
  const bool smem_given = !a.access.smem_swizzle.empty() || !a.access.smem_major.empty();
  if (smem_given && state["kind"] != "mma")
    throw std::invalid_argument(
        "render: --smem-swizzle and --smem-major need a wgmma TiledMMA (an SM90_..._SS or _RS "
        "atom)");
  if (!a.access.smem_swizzle.empty()) state["smem_swizzle"] = a.access.smem_swizzle;
  if (!a.access.smem_major.empty()) state["smem_major"] = a.access.smem_major;
  if (a.thread >= 0) state["thread"] = a.thread;
  if (a.warp >= 0) state["warp"] = a.warp;
  return state;
}

// The page shows a tile wgmma cannot read inline; asked for on the command line, it is an error.
void check_smem(RenderArgs const& a, nlohmann::json const& data) {
  bool any = false;
  for (auto const& g : data["operands"]) {
    if (!g.contains("smem")) continue;
    any = true;
    if (g["smem"].contains("error"))
      throw std::invalid_argument(
          "render --smem-swizzle " +
          (a.access.smem_swizzle.empty() ? "auto" : a.access.smem_swizzle) + " --smem-major " +
          g["smem"]["major"].get<std::string>() + ", operand " +
          g["title"].get<std::string>().substr(0, 1) + ": " +
          g["smem"]["error"].get<std::string>());
  }
  if (!any)
    throw std::invalid_argument(
        "render: --smem-swizzle and --smem-major need a wgmma TiledMMA (an SM90_..._SS or _RS "
        "atom); " +
        data["atom"].get<std::string>() + " reads no operand from shared memory");
}

// The format asked for: --format, --latex, else by the output's extension (.svg, .tex).
std::string format_of(RenderArgs const& a) {
  if (a.latex && !a.format.empty() && a.format != "tikz")
    throw std::invalid_argument("render: --latex is --format tikz, not --format " + a.format);
  if (!a.operand.empty() && (a.latex || (!a.format.empty() && a.format != "svg") ||
                             (a.format.empty() && !a.output.ends_with(".svg"))))
    throw std::invalid_argument("render: --operand picks the SVG's picture (-o FILE.svg or "
                                "--format svg); the page and the LaTeX draw every operand");
  if (a.latex) return "tikz";
  if (!a.format.empty()) return a.format;
  if (a.output.ends_with(".svg")) return "svg";
  if (a.output.ends_with(".tex")) return "tikz";
  return "html";
}

void write_out(RenderArgs const& a, std::string const& text, std::string const& what) {
  if (a.output == "-") {
    std::cout << text;
    return;
  }
  std::ofstream f(a.output, std::ios::binary);
  if (!(f << text)) throw std::invalid_argument("render: cannot write " + a.output);
  std::cerr << "tessera: wrote " << a.output << " (" << what << ")\n";
}

// A picture for slides and papers (SVG or CuTe's print_latex TikZ) instead of the page; false
// where the format is the page (html).
bool write_picture(RenderArgs const& a, std::string const& format, nlohmann::json const& state,
                   nlohmann::json const& data) {
  if (format == "html") {
    if (!a.tv.empty())
      throw std::invalid_argument("render --tv draws SVG or TikZ: -o FILE.svg, -o FILE.tex, "
                                  "--format svg|tikz or --latex");
    return false;
  }
  const std::string kind = a.tv.empty() ? state["kind"].get<std::string>() : "tv";
  const bool tikz = format == "tikz";
  if (kind == "tv" || kind == "layout") {
    const GridPicture p = kind == "tv" ? tv_picture(layout_arg(a.tv), a.mma.tile[0],
                                                     a.mma.tile[1])
                                       : layout_picture(any_layout_arg(a.layout));
    write_out(a, tikz ? picture_latex(p) : picture_svg(p), tikz ? "LaTeX/TikZ" : "SVG");
  } else if (tikz && (kind == "mma" || kind == "copy")) {
    write_out(a, kind == "mma" ? mma_latex(data) : copy_latex(data), "LaTeX/TikZ");
  } else if (kind == "mma" || kind == "copy") {  // one operand's picture
    const std::string names = kind == "mma" ? "CAB" : "SD";
    const std::string op = a.operand.empty() ? names.substr(0, 1) : a.operand;
    if (op.size() != 1 || names.find(op) == std::string::npos)
      throw std::invalid_argument("render --operand " + op + ": a " +
                                  (kind == "mma" ? "TiledMMA has C, A and B" :
                                                   "TiledCopy has S and D"));
    const nlohmann::json& g = data["operands"][names.find(op)];
    write_out(a, picture_svg(owner_picture(g, data["threads"].get<int64_t>())), "SVG");
  } else if (!tikz && kind == "op") {  // the op's pictures alone
    std::string call = a.op + "(";
    for (size_t i = 0; i < a.op_args.size(); ++i) call += (i ? ", " : "") + a.op_args[i];
    write_out(a, op_svg(call + ") = " + data["result"].get<std::string>(), data["pictures"]),
              "SVG");
  } else {
    throw std::invalid_argument("render: --format " + format + " draws " +
                                "a layout, a TV layout (--tv), a TiledMMA or a TiledCopy" +
                                (tikz ? "" : " or an op (--op)") + "; this " + kind +
                                " page is HTML");
  }
  return true;
}

int run_render(RenderArgs a) {
  check_flags(a);
  check_problem_options(a.mma.cmd, a.problem, "render");
  if (a.problem.given() && !mma_given(a))
    throw std::invalid_argument("render: --problem needs a TiledMMA (--preset or --atom-layout)");
  const std::string format = format_of(a);
  if (!a.tv.empty()) return write_picture(a, format, {}, {}), 0;
  nlohmann::json state = state_of(a);
  nlohmann::json data;
  try {
    data = page_data(state);
  } catch (std::invalid_argument const& e) {
    std::string m = e.what();
    throw std::invalid_argument(m.rfind("render", 0) == 0 ? m : "render: " + m);
  }
  if (!a.access.smem_swizzle.empty() || !a.access.smem_major.empty()) check_smem(a, data);
  if (write_picture(a, format, state, data)) return 0;
  Playground wasm = playground_files();
  if (a.playground && wasm.wasm.empty())
    throw std::invalid_argument(
        "render --playground needs the library as WebAssembly (tessera_wasm.js and .wasm beside "
        "the tessera executable, or $TESSERA_WASM_JS): cmake --build build --target playground");
  std::string page = render_page(state, data, wasm);
  write_out(a, page, std::to_string(page.size() / 1024) + " KiB; open it in a browser");
  return 0;
}

}  // namespace

void add_render_verb(CLI::App& app, Verbs& verbs) {
  CLI::App* cmd = app.add_subcommand(
      "render",
      "Write one self-contained interactive HTML page of a layout, a TiledMMA or a TiledCopy");
  auto a = std::make_shared<RenderArgs>();
  cmd->add_option("-o,--output", a->output,
                  "the file to write, - for standard output: the HTML page, or by its extension "
                  "a picture (.svg: SVG of a layout, a TV layout or an op; .tex: LaTeX/TikZ)")
      ->required();
  cmd->add_option("--format", a->format,
                  "html (the page), svg, or tikz (a standalone LaTeX/TikZ document as CuTe's "
                  "print_latex: a layout, a TV layout, a TiledMMA's C, A, B or a TiledCopy's S, "
                  "D); default by -o's extension")
      ->check(CLI::IsMember({"html", "svg", "tikz"}));
  cmd->add_flag("--latex", a->latex, "--format tikz");
  cmd->add_option("--operand", a->operand,
                  "the SVG's picture: a TiledMMA's C (default), A or B, a TiledCopy's S "
                  "(default) or D, each cell T#V#");
  cmd->add_option("--tv", a->tv,
                  "a TV layout (thread, value) -> index of the --tile M N tile, drawn with each "
                  "cell's T#V# as CuTe's print_latex_tv, e.g. --tv \"((4,8),2):((16,1),8)\" "
                  "--tile 8 8");
  cmd->add_option("--layout", a->layout,
                  "a layout, e.g. \"(8,8):(8,1)\", a shape, or a swizzled layout "
                  "\"Sw<3,4,3> o 0 o (8,64):(64,1)\": its values as a grid");
  cmd->add_option("--op", a->op,
                  "an algebra op (as `tessera batch` names it), drawn with its inputs beside its "
                  "result and the tiles coloured, e.g. --op logical_divide --args "
                  "\"(8,16):(16,1)\" \"(2,4)\"");
  cmd->add_option("--args", a->op_args, "the op's arguments, as its verb takes them");
  add_mma_options(cmd, a->mma);
  cmd->get_option("--tile")->expected(2, 3)->description(
      "a TiledMMA's CTA tile M N K, or the tile M N of --tv");
  cmd->add_flag("--playground", a->playground,
                "the playground: the page with its inputs only (needs the "
                "WebAssembly build, `cmake --build build --target playground`)");
  cmd->add_option("--thread", a->thread, "the thread selected when the page opens");
  cmd->add_option("--compare-perm", a->compare,
                  "an alternative permutation to show beside C (repeatable), e.g. "
                  "\"(16,4):(1,16)\" for M and N");
  cmd->add_option("--copy", a->copy_atom,
                  "a TiledCopy atom: cp_async:4|8|16, universal:BITS, ldmatrix:x1|x2|x4[t]");
  cmd->add_option("--dtype", a->dtype, "element type of the copy (default float)");
  cmd->add_option("--thr", a->copy.thr, "copy thread layout, e.g. \"(32,8):(1,32)\"");
  cmd->add_option("--val", a->copy.val, "copy value layout, e.g. (4,1)");
  cmd->add_option("--src", a->copy.src, "copy source tensor (default: the tile, column-major)");
  cmd->add_option("--dst", a->copy.dst,
                  "copy destination tensor (default: the tile, column-major)");
  // The memory-access overlay (analysis.hpp): bank or sector of one warp's accesses, and the
  // numbers.
  cmd->add_option("--space", a->access.space,
                  "memory the operands are in for the headline verdict: global (default) "
                  "or shared; the page shows both")
      ->check(CLI::IsMember({"global", "shared"}));
  cmd->add_option("--overlay", a->access.overlay,
                  "overlay when the page opens: owner (default), bank or sector")
      ->check(CLI::IsMember({"owner", "bank", "sector"}));
  cmd->add_option("--warp", a->warp, "the overlay's warp when the page opens (default 0)");
  cmd->add_option("--elem-bits", a->access.elem_bits,
                  "element size for the analysis (default: 16 for f16/bf16 MMA "
                  "A/B, else 32; a copy's --dtype)");
  cmd->add_option("--swizzle", a->access.swizzle,
                  "swizzle of the shared-memory picture, e.g. \"Sw<3,3,3>\"");
  cmd->add_option("--access", a->access.access,
                  "load or store (default: C stores, A/B loads; copy source loads, "
                  "destination stores)")
      ->check(CLI::IsMember({"load", "store"}));
  cmd->add_option("--smem-swizzle", a->access.smem_swizzle,
                  "wgmma's shared-memory A/B tiles: the swizzle mode of "
                  "the canonical tile (default: 128B, else the widest the tile takes)")
      ->check(CLI::IsMember({"none", "32B", "64B", "128B"}));
  cmd->add_option("--smem-major", a->access.smem_major,
                  "wgmma's shared-memory A/B tiles: K-major (default) or "
                  "MN-major")
      ->check(CLI::IsMember({"K", "MN"}));
  cmd->add_option("--max-vector-bits", a->access.max_vector_bits,
                  "widest MMA operand access (default 128; a copy "
                  "uses its atom's width)");
  add_problem_options(cmd, a->problem, false, false);
  add_attention_options(cmd, a->attention);
  verbs.push_back({cmd, [a] { return run_render(*a); }});
}

}  // namespace tessera::tools
