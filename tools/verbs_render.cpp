// The render verb: one self-contained interactive HTML page of a layout, a TiledMMA or a TiledCopy.
#include <fstream>
#include <iostream>
#include <memory>
#include <stdexcept>

#include "ops.hpp"
#include "hopper_cli.hpp"
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
  AccessOptions access;
  std::string copy_atom, dtype = "float";
  int64_t thread = -1;  // selected when the page opens
  int64_t warp = -1;    // the overlay's warp when the page opens
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
  if (!a.layout.empty() && (!a.access.swizzle.empty() || a.access.overlay != "owner" || a.access.elem_bits))
    throw std::invalid_argument("render: --swizzle, --overlay and --elem-bits need a TiledMMA or a TiledCopy");
  if (a.access.elem_bits && (a.access.elem_bits < 8 || a.access.elem_bits > 128 ||
                             (a.access.elem_bits & (a.access.elem_bits - 1)) != 0))
    throw std::invalid_argument("render: --elem-bits " + std::to_string(a.access.elem_bits) +
                                " is not a power of two from 8 to 128");
  if (a.access.max_vector_bits < 8) throw std::invalid_argument("render: --max-vector-bits must be at least 8");
  nlohmann::json data;
  if (!a.layout.empty()) {
    data = layout_page_data(any_layout_arg(a.layout));
  } else if (a.mma.given()) {
    data = mma_page_data(mma_from_args(a.mma, "render"), a.compare, a.access);
    if (a.mma.preset == kHopperPreset) {  // kernel 05's shared tiles, wgmma descriptors and TMA boxes
      data["hopper"] = hopper_json();
      data["hopper_text"] = hopper_text(data["hopper"]);
    }
  } else {
    a.copy.atom = a.copy_atom;
    a.copy.elem_bits = a.access.elem_bits ? a.access.elem_bits : dtype_bits(a.dtype);
    data = copy_page_data(a.copy, a.access);
  }
  if (a.thread >= 0) {
    if (!data.contains("threads") || a.thread >= data["threads"].get<int64_t>())
      throw std::invalid_argument("render: --thread " + std::to_string(a.thread) + " is not a thread of this page");
    data["initial_thread"] = a.thread;
  }
  if (data.contains("operands")) {
    if (a.warp >= 0 && a.warp * 32 >= data["threads"].get<int64_t>())
      throw std::invalid_argument("render: --warp " + std::to_string(a.warp) + " is not a warp of this page");
    data["initial_overlay"] = a.access.overlay;
    data["initial_warp"] = a.warp < 0 ? 0 : a.warp;
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
  cmd->add_option("--layout", a->layout, "a layout, e.g. \"(8,8):(8,1)\", a shape, or a swizzled layout "
                  "\"Sw<3,4,3> o 0 o (8,64):(64,1)\": its values as a grid");
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
  // The memory-access overlay (analysis.hpp): bank or sector of one warp's accesses, and the numbers.
  cmd->add_option("--space", a->access.space, "memory the operands are in for the headline verdict: global (default) "
                  "or shared; the page shows both")->check(CLI::IsMember({"global", "shared"}));
  cmd->add_option("--overlay", a->access.overlay, "overlay when the page opens: owner (default), bank or sector")
      ->check(CLI::IsMember({"owner", "bank", "sector"}));
  cmd->add_option("--warp", a->warp, "the overlay's warp when the page opens (default 0)");
  cmd->add_option("--elem-bits", a->access.elem_bits, "element size for the analysis (default: 16 for f16/bf16 MMA "
                  "A/B, else 32; a copy's --dtype)");
  cmd->add_option("--swizzle", a->access.swizzle, "swizzle of the shared-memory picture, e.g. \"Sw<3,3,3>\"");
  cmd->add_option("--access", a->access.access, "load or store (default: C stores, A/B loads; copy source loads, "
                  "destination stores)")->check(CLI::IsMember({"load", "store"}));
  cmd->add_option("--max-vector-bits", a->access.max_vector_bits, "widest MMA operand access (default 128; a copy "
                  "uses its atom's width)");
  verbs.push_back({cmd, [a] { return run_render(*a); }});
}

}  // namespace tessera::tools
