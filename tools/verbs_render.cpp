// The render verb: one self-contained interactive HTML page of a layout, a TiledMMA or a TiledCopy.
#include <fstream>
#include <iostream>
#include <memory>
#include <stdexcept>

#include "render.hpp"
#include "render_options.hpp"
#include "verbs.hpp"

namespace tessera::tools {
namespace {

struct RenderArgs {
  MmaArgs mma;
  std::string layout, output;
  std::vector<std::string> compare;
  CopySpec copy;
  std::string copy_atom, dtype = "float";
  int64_t thread = -1;  // selected when the page opens
};

int64_t dtype_bits(std::string const& t) {
  if (t == "half" || t == "bf16" || t == "f16") return 16;
  if (t == "float" || t == "f32" || t == "tf32") return 32;
  if (t == "double" || t == "f64") return 64;
  if (t == "int8" || t == "f8") return 8;
  throw std::invalid_argument("render: unknown --dtype '" + t + "' (known: half, bf16, float, tf32, double, int8)");
}

int run_render(RenderArgs a) {
  int what = int(!a.layout.empty()) + int(a.mma.given()) + int(!a.copy_atom.empty());
  if (what != 1)
    throw std::invalid_argument("render needs exactly one of --layout, --preset (or --atom-layout/--tile) and --copy");
  if (a.output.empty()) throw std::invalid_argument("render needs -o FILE.html");
  if (!a.compare.empty() && !a.mma.given()) throw std::invalid_argument("render: --compare-perm needs a TiledMMA");
  nlohmann::json data;
  if (!a.layout.empty()) {
    data = layout_page_data(parse_layout(a.layout));
  } else if (a.mma.given()) {
    data = mma_page_data(mma_from_args(a.mma, "render"), a.compare);
  } else {
    a.copy.atom = a.copy_atom;
    a.copy.elem_bits = dtype_bits(a.dtype);
    data = copy_page_data(a.copy);
  }
  if (a.thread >= 0) {
    if (!data.contains("threads") || a.thread >= data["threads"].get<int64_t>())
      throw std::invalid_argument("render: --thread " + std::to_string(a.thread) + " is not a thread of this page");
    data["initial_thread"] = a.thread;
  }
  std::string page = render_page(data);
  std::ofstream f(a.output, std::ios::binary);
  if (!(f << page)) throw std::invalid_argument("render: cannot write " + a.output);
  std::cerr << "tessera: wrote " << a.output << " (" << page.size() / 1024 << " KiB); open it in a browser\n";
  return 0;
}

}  // namespace

void add_render_verb(CLI::App& app, Verbs& verbs) {
  CLI::App* cmd = app.add_subcommand(
      "render", "Write one self-contained interactive HTML page of a layout, a TiledMMA or a TiledCopy");
  auto a = std::make_shared<RenderArgs>();
  cmd->add_option("-o,--output", a->output, "the HTML file to write")->required();
  cmd->add_option("--layout", a->layout, "a layout, e.g. \"(8,8):(8,1)\": its values as a grid");
  add_mma_options(cmd, a->mma);
  cmd->add_option("--thread", a->thread, "the thread selected when the page opens");
  cmd->add_option("--compare-perm", a->compare,
                  "an alternative permutation to show beside C (repeatable), e.g. \"(16,4):(1,16)\" for M and N");
  cmd->add_option("--copy", a->copy_atom, "a TiledCopy atom: cp_async:4|8|16, universal:BITS, ldmatrix:x1|x2|x4[t]");
  cmd->add_option("--dtype", a->dtype, "element type of the copy (default float)");
  cmd->add_option("--thr", a->copy.thr, "copy thread layout, e.g. \"(32,8):(1,32)\"");
  cmd->add_option("--val", a->copy.val, "copy value layout, e.g. (4,1)");
  cmd->add_option("--src", a->copy.src, "copy source tensor (default: the tile, column-major)");
  cmd->add_option("--dst", a->copy.dst, "copy destination tensor (default: the tile, column-major)");
  verbs.push_back({cmd, [a] { return run_render(*a); }});
}

}  // namespace tessera::tools
