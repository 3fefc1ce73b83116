#include "mma_cli.hpp"
#include "plural.hpp"

#include <set>
#include <sstream>
#include <stdexcept>

#include "atom_names.hpp"
#include "attention_cli.hpp"

namespace tessera::tools {
namespace {

using nlohmann::json;

Layout tile_layout(int64_t rows, int64_t cols) { return Layout(make_tuple(rows, cols)); }

// [i] = [row, col] of a fragment of the compact column-major rows x cols tile.
json tile_coords(View const& fragment, int64_t rows) {
  json coords = json::array();
  for (int64_t j : view_values(fragment)) coords.push_back({j % rows, j / rows});
  return coords;
}

// "(M=(16,4):(4,1), N=(16,4):(4,1), K=_)" -> "((16,4):(4,1),(16,4):(4,1),_)"
std::string strip_mode_names(std::string s) {
  for (const char* key : {"M=", "N=", "K="}) {
    for (size_t at = s.find(key); at != std::string::npos; at = s.find(key)) s.erase(at, 2);
  }
  return s;
}

std::string join_set(std::set<int64_t> const& s) {
  std::string out = "{";
  for (int64_t v : s) out += (out.size() > 1 ? "," : "") + std::to_string(v);
  return out + "}";
}

}  // namespace

std::vector<std::string> const& mma_atom_names() {
  static const std::vector<std::string> names = {"UniversalFMA",
                                                 "SM80_16x8x16_F32F16F16F32_TN",
                                                 "SM80_16x8x16_F32BF16BF16F32_TN",
                                                 "SM80_16x8x8_F32TF32TF32F32_TN",
                                                 "SM90_64x64x16_F32F16F16_SS",
                                                 "SM90_64x128x16_F32F16F16_SS",
                                                 "SM90_64x256x16_F32F16F16_SS",
                                                 "SM90_64x128x16_F32F16F16_RS",
                                                 "SM90_64x128x32_F32E4M3E4M3_SS_TN",
                                                 "SM90_64x256x32_F32E4M3E4M3_SS_TN",
                                                 "SM90_64x128x32_F32E4M3E4M3_RS_TN"};
  return names;
}

MmaConfig mma_config(std::string const& atom_name, std::string const& atom_layout,
                     std::string const& permutation, int64_t m, int64_t n, int64_t k,
                     bool runtime) {
  MmaAtom atom;
  std::string name = atom_name.substr(0, atom_name.find('<'));  // UniversalFMA<float,...>
  // The kernels' atoms and their short aliases first, then every atom of the catalog.
  if (!mma_atom_by_name(name.c_str(), atom)) {
    std::optional<MmaAtom> found = catalog_mma_atom(atom_name);
    if (!found)
      throw std::invalid_argument(unknown_atom_message("MMA", atom_name, catalog_mma_names()));
    atom = *found;
  }
  Layout layout = atom_layout.find(':') == std::string::npos
                      ? Layout(parse_int_tuple(atom_layout, runtime))
                      : parse_layout(atom_layout, runtime);
  Tiler perm;
  if (permutation != "none" && !permutation.empty())
    perm = parse_tiler(strip_mode_names(permutation), runtime);
  if (!perm.by_mode && permutation != "none" && !permutation.empty())
    throw std::invalid_argument("a permutation needs one entry per mode (M,N,K): " + permutation);
  MmaConfig cfg;
  cfg.name = atom.name;
  cfg.mma = make_tiled_mma(atom, layout, perm);
  cfg.tile[0] = m, cfg.tile[1] = n, cfg.tile[2] = k;
  if (m == 0 && n == 0 && k == 0) {  // no tile given: the TiledMMA's own
    m = cfg.mma.tile_size(0), n = cfg.mma.tile_size(1), k = cfg.mma.tile_size(2);
    cfg.tile[0] = m, cfg.tile[1] = n, cfg.tile[2] = k;
  }
  for (int i = 0; i < 3; ++i) {
    if (cfg.tile[i] <= 0 || cfg.tile[i] % cfg.mma.tile_size(i) != 0)
      throw std::invalid_argument("the CTA tile " + std::to_string(cfg.tile[i]) + " of mode " +
                                  "MNK"[i] + " is not a multiple of the TiledMMA's " +
                                  std::to_string(cfg.mma.tile_size(i)));
  }
  // The tensors are the kernel's: their extents and strides are run-time integers (CuTe's
  // make_shape(M, N)), which is how CuTe partitions them and how the thread trace prints the
  // fragments.
  cfg.tensor[int(Operand::kC)] = with_kind(Layout(make_tuple(m, n), make_tuple(n, 1)), true);
  cfg.tensor[int(Operand::kA)] = with_kind(Layout(make_tuple(m, k), make_tuple(1, m)), true);
  cfg.tensor[int(Operand::kB)] = with_kind(Layout(make_tuple(n, k), make_tuple(1, n)), true);
  cfg.atom_layout_text = to_string(layout);
  cfg.permutation_text = permutation.empty() ? "none" : permutation;
  return cfg;
}

MmaConfig mma_preset(std::string const& name) {
  if (name == "step1") {
    MmaConfig c = mma_config("UniversalFMA", "(16,16,1):(16,1,0)", "((16,4):(4,1),(16,4):(4,1),_)",
                             128, 128, 8);
    c.name = "step1 (the step 1 kernel's TiledMMA): UniversalFMA";
    c.tensor[int(Operand::kA)] = parse_layout("(128,8):(1,128)", true);
    c.tensor[int(Operand::kB)] = parse_layout("(128,8):(1,128)", true);
    return c;
  }
  if (name == "step4") {
    MmaConfig c =
        mma_config("SM80_16x8x16_F32F16F16F32_TN", "(2,2,1):(1,2,0)", "(32,32,16)", 128, 128, 32);
    c.name = "step4 (the step 4 kernel's TiledMMA): SM80_16x8x16_F32F16F16F32_TN";
    c.tensor[int(Operand::kA)] = parse_layout("(128,32):(32,1)", true);
    c.tensor[int(Operand::kB)] = parse_layout("(128,32):(32,1)", true);
    return c;
  }
  if (name == "hopper") {
    // Kernel 05 (16-bit): two consumer warpgroups of m64n256k16 along M, CTA tile 128x256x64.
    MmaConfig c =
        mma_config("SM90_64x256x16_F32F16F16_SS", "(2,1,1):(1,0,0)", "none", 128, 256, 64);
    c.name = "hopper (kernel 05's TiledMMA): SM90_64x256x16_F32F16F16_SS, two consumer warpgroups";
    return c;
  }
  // The attention kernels' S = Q K^T (the Hopper kernel, head dim 128; explain and render take
  // --kernel and --head-dim).
  if (name == kAttentionPreset) return attention_config({}, 'S');
  throw std::invalid_argument("unknown preset '" + name +
                              "' (known: step1, step4, hopper, attention)");
}

// An odometer over the layout's leaves s:d, leaf 0 the fastest digit: element i + 1 adds d_0, or
// carries (d_k less (s_j - 1) d_j for each digit j < k that wraps): one addition an element.
std::vector<int64_t> view_values(View const& v) {
  const Modes m = leaves(v.layout);
  std::vector<int64_t> out(size_t(v.layout.size()));
  int64_t digit[kMaxNodes] = {}, value = v.offset;
  for (int64_t& o : out) {
    o = value;
    for (int k = 0; k < m.n; ++k) {
      value += m.d[k];
      if (++digit[k] < m.s[k]) break;
      value -= m.s[k] * m.d[k], digit[k] = 0;
    }
  }
  return out;
}

json operand_coords(MmaConfig const& cfg, Operand op) {
  int i0 = TiledMMA::mode0(op), i1 = TiledMMA::mode1(op);
  Layout tile = tile_layout(cfg.tile[i0], cfg.tile[i1]);
  const Layout frg = cfg.mma.thrfrg(op, tile);  // once; each thread's partition is a slice of it
  json all = json::array();
  for (int64_t t = 0; t < cfg.mma.threads(); ++t)
    all.push_back(tile_coords(cfg.mma.slice(op, frg, t), cfg.tile[i0]));
  return all;
}

json answer_tiledmma_case(json const& c) {
  std::vector<int64_t> tile = c.at("tile_mnk").get<std::vector<int64_t>>();
  if (tile.size() != 3) throw std::invalid_argument("tile_mnk must have 3 entries");
  MmaConfig cfg =
      mma_config(c.at("atom").get<std::string>(), c.at("atom_layout").get<std::string>(),
                 c.value("permutation", std::string("none")), tile[0], tile[1], tile[2]);
  json out = {{"id", c.value("id", json())}};
  for (Operand op : {Operand::kC, Operand::kA, Operand::kB}) {
    const char* key = operand_name(op);
    Layout tensor = cfg.tensor[int(op)];
    if (c.contains(key) && c[key].contains("tensor_layout"))
      tensor = parse_layout(c[key]["tensor_layout"].get<std::string>(),
                            true);  // run-time, as CuTe's int
    out[key] = {{"thread0_fragment", to_string(cfg.mma.partition(op, tensor, 0).layout)},
                {"coords", operand_coords(cfg, op)}};
  }
  return out;
}

json explain_json(MmaConfig const& cfg, Operand op, int64_t thread, bool cute) {
  Derivation d = cfg.mma.explain(op, cfg.tensor[int(op)], thread);
  json steps = json::array();
  for (auto const& s : d.step)
    steps.push_back({{"name", s.name}, {"what", s.what}, {"layout", printed(s.layout, cute)}});
  int i0 = TiledMMA::mode0(op), i1 = TiledMMA::mode1(op);
  Layout tile = tile_layout(cfg.tile[i0], cfg.tile[i1]);
  json coords = tile_coords(cfg.mma.partition(op, tile, thread), cfg.tile[i0]);
  return {{"operand", operand_name(op)},
          {"tensor", printed(cfg.tensor[int(op)], cute)},
          {"thread", thread},
          {"thread_vmnk", printed(cfg.mma.thread_vmnk(thread), cute)},
          {"steps", steps},
          {"offset", d.fragment.offset},
          {"fragment", printed(d.fragment.layout, cute)},
          {"coords", coords}};
}

std::string explain_text(MmaConfig const& cfg, Operand op, int64_t thread, bool cute) {
  json j = explain_json(cfg, op, thread, cute);
  std::ostringstream o;
  const char* dims = op == Operand::kC ? "(M,N)" : op == Operand::kA ? "(M,K)" : "(N,K)";
  o << operand_name(op) << " " << dims << " = " << j["tensor"].get<std::string>() << ", thread "
    << thread << " at (v,m,n,k) = " << j["thread_vmnk"].get<std::string>() << "\n";
  int k = 1;
  for (auto const& s : j["steps"]) {
    o << "  " << k++ << ". " << s["name"].get<std::string>() << ": " << s["what"].get<std::string>()
      << "\n"
      << "       " << s["layout"].get<std::string>() << "\n";
  }
  o << "  => offset " << j["offset"].get<int64_t>() << ", fragment "
    << j["fragment"].get<std::string>() << "\n";
  std::set<int64_t> rows, cols;
  for (auto const& c : j["coords"])
    rows.insert(c[0].get<int64_t>()), cols.insert(c[1].get<int64_t>());
  const char* r = op == Operand::kB ? "n" : "m";
  const char* c = op == Operand::kC ? "n" : "k";
  o << "  thread " << thread << " owns " << plural(int64_t(j["coords"].size()), "element")
    << " of the tile: " << r
    << " in " << join_set(rows) << " x " << c << " in " << join_set(cols);
  o << (rows.size() * cols.size() == j["coords"].size() ? "" : " (not a full product)") << "\n";
  return o.str();
}

}  // namespace tessera::tools
