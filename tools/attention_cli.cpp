// tools/attention_cli.cpp -- see attention_cli.hpp.
//
// Worked example, the Hopper kernel at head dim 128 (S is 128 x 128, two warpgroups of m64n128k16):
// thread 37 = warp 1, lane 5 holds S rows 17 and 25 (16 warp + lane / 4, + 8), keys 2, 3, 10, 11,
// ...; lanes 4-7 (the quad of lane 5: xor 1, 2) hold the rest of those rows. Its 64 f32
// accumulators become 32 registers of two 16-bit values, four per k-step of P V: k-step s reads
// accumulators 8 s .. 8 s + 7 (keys 16 s .. 16 s + 15).
#include "attention_cli.hpp"
#include "plural.hpp"

#include <attention/args.hpp>
#include <attention/tiled_mmas.hpp>
#include <set>
#include <sstream>
#include <stdexcept>
#include <tessera.hpp>

namespace tessera::tools {
namespace {

using nlohmann::json;

// The library's views of S's accumulators, as the kernels derive them (fragment_views.hpp).
struct AttnViews {
  TiledMMA s, o;
  int64_t bm = 0, bn = 0;
  Layout tile;          // (BM,BN): S's accumulator tile, P V's A tile
  ThreadPartition c;    // S's accumulator partition: thread -> tile index, value -> offset
  Layout regs;          // the accumulator registers: compact over the fragment's shape
  Layout rowcol;        // acc_rowcol: (rows, cols) -> register
  LaneShuffles lanes;   // row_shuffles: the xor distances of the lanes sharing a row
  Layout p_as_a;        // acc_as_operand: P V's A value (V,M,K) -> register
};

const char* attn_kernel_title(std::string const& k) {
  return k == "fa3_sm90" ? "the Hopper forward kernel (fa3_sm90: wgmma, two consumer warpgroups)"
                         : "the SM80 forward kernel (fa2_sm80: mma.sync, four warps)";
}

AttnViews attn_views(AttentionVariant const& v) {
  if (v.kernel != "fa3_sm90" && v.kernel != "fa2_sm80")
    throw std::invalid_argument("attention: unknown kernel '" + v.kernel +
                                "' (known: fa3_sm90, fa2_sm80)");
  if (v.head_dim != 64 && v.head_dim != 128 && v.head_dim != 256)
    throw std::invalid_argument("attention: head dim " + std::to_string(v.head_dim) +
                                " is not one of the kernels' (64, 128, 256)");
  AttnViews w;
  if (v.kernel == "fa3_sm90") {
    const attention::Fa3Tiles t = attention::fa3_sm90_tiles(v.head_dim, false);  // the wide block
    w.s = attention::fa3_sm90_mma_s(t.bn);
    w.o = attention::fa3_sm90_mma_o(v.head_dim);
    w.bm = t.bm, w.bn = t.bn;
  } else {
    const attention::Fa2Tiles t = attention::fa2_sm80_tiles(v.head_dim);
    w.s = w.o = attention::fa2_sm80_mma(atom::sm80_16x8x16_f32f16());
    w.bm = t.bm, w.bn = t.bn;
  }
  w.tile = Layout(make_tuple(w.bm, w.bn));
  w.c = w.s.partitioner(Operand::kC, w.tile);
  w.regs = Layout(w.c.fragment.shape);  // partition_fragment_C's registers
  w.rowcol = acc_rowcol(w.s, w.tile, w.regs);
  w.lanes = row_shuffles(w.s, w.tile);
  w.p_as_a = acc_as_operand(w.s, w.o, w.tile, w.regs);
  if (w.p_as_a.rank() != 3)
    throw std::logic_error("attention: P's A view " + to_string(w.p_as_a) + " is not (V,M,K)");
  return w;
}

// (row, col) of S of thread t's accumulator register i.
json attn_coord(AttnViews const& w, int64_t t, int64_t i) {
  const int64_t x = w.c.thread(t) + w.c.fragment(i);
  return {x % w.bm, x / w.bm};
}

// The threads that hold thread t's rows: t with every combination of the xor distances.
std::vector<int64_t> attn_row_threads(AttnViews const& w, int64_t t) {
  std::set<int64_t> all = {t};
  for (int s = 0; s < w.lanes.n; ++s)
    for (int64_t x : std::set<int64_t>(all)) all.insert(x ^ w.lanes.xor_mask[s]);
  return {all.begin(), all.end()};
}

// Register of thread-row r, thread-column c of the (rows, cols) view.
int64_t attn_reg(AttnViews const& w, int64_t r, int64_t c) {
  return w.rowcol[0](r) + w.rowcol[1](c);
}

json attn_product(MmaConfig const& cfg, const char* what, Layout const& frg_c) {
  TiledMMA const& m = cfg.mma;
  return {{"what", what},
          {"name", cfg.name},
          {"atom", m.atom.name},
          {"atom_mnk", {m.atom.m, m.atom.n, m.atom.k}},
          {"atom_layout", cfg.atom_layout_text},
          {"permutation", cfg.permutation_text},
          {"threads", m.threads()},
          {"thr_layout_vmnk", to_string(m.thr_vmnk)},
          {"tile_mnk", {cfg.tile[0], cfg.tile[1], cfg.tile[2]}},
          {"fragment_c", to_string(frg_c.shape)}};
}

// The chosen thread: its rows (in acc_rowcol order), their registers, the lanes it shuffles with.
json attn_thread(AttnViews const& w, int64_t t) {
  const int64_t rows = w.rowcol[0].size(), cols = w.rowcol[1].size();
  json rs = json::array(), regs = json::array(), keys = json::array();
  for (int64_t r = 0; r < rows; ++r) {
    rs.push_back(attn_coord(w, t, attn_reg(w, r, 0))[0]);
    json line = json::array();
    for (int64_t c = 0; c < cols; ++c) line.push_back(attn_reg(w, r, c));
    regs.push_back(line);
  }
  for (int64_t c = 0; c < cols; ++c) keys.push_back(attn_coord(w, t, attn_reg(w, 0, c))[1]);
  json shuffles = json::array();
  for (int s = 0; s < w.lanes.n; ++s) {
    const int64_t x = w.lanes.xor_mask[s], other = t ^ x;
    shuffles.push_back({{"xor", x}, {"lane", other % 32}, {"thread", other}});
  }
  json coords = json::array();  // of every accumulator register
  for (int64_t i = 0; i < w.regs.size(); ++i) coords.push_back(attn_coord(w, t, i));
  json lanes = json::array();
  const std::vector<int64_t> share = attn_row_threads(w, t);
  for (int64_t u : share) lanes.push_back(u % 32);
  return {{"thread", t},           {"warpgroup", t / 128}, {"warp", t / 32},
          {"lane", t % 32},        {"rows", rs},           {"cols", keys},
          {"row_registers", regs}, {"shuffles", shuffles}, {"row_threads", share},
          {"row_lanes", lanes},    {"register_coords", coords}};
}

// P -> A: for every (m, k-step) of the A view and each 32-bit register r of it, the two A values
// 2r, 2r+1 (16 bits each, low half first) and the accumulator registers they are converted from.
json attn_p_to_a(AttnViews const& w) {
  Layout const& a = w.p_as_a;
  const int64_t vals = a[0].size();
  json out = json::array();
  for (int64_t k = 0; k < a[2].size(); ++k)
    for (int64_t m = 0; m < a[1].size(); ++m)
      for (int64_t r = 0; r < vals / 2; ++r) {
        json c = json::array(), j = json::array();
        for (int64_t h = 0; h < 2; ++h) {
          j.push_back(2 * r + h);
          c.push_back(a[0](2 * r + h) + a[1](m) + a[2](k));
        }
        out.push_back({{"k_step", k}, {"m", m}, {"register", r}, {"a_values", j}, {"c", c}});
      }
  return out;
}

std::string attn_join(json const& a, const char* sep = ",") {
  std::string s;
  for (auto const& x : a) s += (s.empty() ? "" : sep) + x.dump();
  return s;
}

}  // namespace

MmaConfig attention_config(AttentionVariant const& v, char product) {
  const AttnViews w = attn_views(v);
  const int64_t d = v.head_dim, bm = w.bm, bn = w.bn;
  const bool s = product == 'S';
  if (!s && product != 'O')
    throw std::invalid_argument(std::string("attention: the product is S or O, not ") + product);
  const int64_t m = bm, n = s ? bn : d, k = s ? d : bn;
  MmaConfig cfg;
  cfg.mma = s ? w.s : w.o;
  cfg.name = std::string(s ? "S = Q K^T" : "O += P V") + " of " + v.kernel + ", head dim " +
             std::to_string(d) + " (attention)";
  cfg.tile[0] = m, cfg.tile[1] = n, cfg.tile[2] = k;
  // The tiles as the kernels see them: S / O row-major (keys or D contiguous), Q and P (M,K)
  // row-major, K (N,K) = (keys, D) row-major, V as P V's B (N,K) = (D, keys) D contiguous.
  cfg.tensor[int(Operand::kC)] = with_kind(Layout(make_tuple(m, n), make_tuple(n, 1)), true);
  cfg.tensor[int(Operand::kA)] = with_kind(Layout(make_tuple(m, k), make_tuple(k, 1)), true);
  cfg.tensor[int(Operand::kB)] = with_kind(
      s ? Layout(make_tuple(n, k), make_tuple(k, 1)) : Layout(make_tuple(n, k), make_tuple(1, n)),
      true);
  cfg.atom_layout_text = v.kernel == "fa3_sm90" ? "(2,1,1):(1,0,0)" : "(4,1,1)";
  cfg.permutation_text = v.kernel == "fa3_sm90" ? "none" : "(64,16,16)";
  return cfg;
}

json attention_json(AttentionVariant const& v, int64_t thread) {
  const AttnViews w = attn_views(v);
  const int64_t threads = w.s.threads();
  if (thread < 0 || thread >= threads)
    throw std::invalid_argument("attention: thread " + std::to_string(thread) + " is outside [0, " +
                                std::to_string(threads) + ")");
  json rows_of = json::array(), row_threads = json::array();
  for (int64_t t = 0; t < threads; ++t) {
    json rs = json::array();
    for (int64_t r = 0; r < w.rowcol[0].size(); ++r)
      rs.push_back(attn_coord(w, t, attn_reg(w, r, 0))[0]);
    rows_of.push_back(rs);
    row_threads.push_back(attn_row_threads(w, t));
  }
  json masks = json::array();
  for (int s = 0; s < w.lanes.n; ++s) masks.push_back(w.lanes.xor_mask[s]);
  const Layout frg_o = w.o.partitioner(Operand::kC, Layout(make_tuple(w.bm, v.head_dim))).fragment;
  return {{"kernel", v.kernel},
          {"title", attn_kernel_title(v.kernel)},
          {"head_dim", v.head_dim},
          {"bm", w.bm},
          {"bn", w.bn},
          {"S", attn_product(attention_config(v, 'S'), "S = Q K^T", Layout(w.c.fragment.shape))},
          {"O", attn_product(attention_config(v, 'O'), "O += P V", Layout(frg_o.shape))},
          {"p_fragment_a", to_string(w.p_as_a.shape)},
          {"rowcol", to_string(w.rowcol)},
          {"row_shuffles", masks},
          {"p_as_a", to_string(w.p_as_a)},
          {"p_to_a", attn_p_to_a(w)},
          {"rows_of", rows_of},
          {"row_threads", row_threads},
          {"thread", attn_thread(w, thread)}};
}

std::string attention_text(json const& j) {
  std::ostringstream o;
  o << "Attention: " << j["title"].get<std::string>() << ", head dim " << j["head_dim"]
    << "; a CTA computes " << j["bm"] << " query rows, " << j["bn"] << " keys per step\n";
  for (const char* p : {"S", "O"}) {
    json const& m = j[p];
    auto const& t = m["tile_mnk"];
    o << "  " << m["what"].get<std::string>() << ": TiledMMA of " << m["atom"].get<std::string>()
      << " (" << m["atom_mnk"][0] << "x" << m["atom_mnk"][1] << "x" << m["atom_mnk"][2]
      << "), atom layout " << m["atom_layout"].get<std::string>() << ", permutation "
      << m["permutation"].get<std::string>() << ", "
      << plural(m["threads"].get<int64_t>(), "thread") << " (V,M,N,K) "
      << m["thr_layout_vmnk"].get<std::string>() << ", tile (M,N,K) " << t[0] << "x" << t[1]
      << "x" << t[2] << "; accumulators per thread " << m["fragment_c"].get<std::string>()
      << " f32\n";
  }
  o << "  rows of S (acc_rowcol): (rows, keys) -> register " << j["rowcol"].get<std::string>()
    << "\n  lanes sharing a row (row_shuffles): shuffle xor " << attn_join(j["row_shuffles"], ", ")
    << "\n  P as the A operand of O += P V (acc_as_A): (V,M,K) -> register "
    << j["p_as_a"].get<std::string>() << "\n";
  json const& t = j["thread"];
  const int64_t id = t["thread"];
  o << "\nthread " << id << " (";
  if (j["kernel"] == "fa3_sm90") o << "warpgroup " << t["warpgroup"] << ", ";
  o << "warp " << t["warp"] << ", lane " << t["lane"] << ")\n  reduces S rows "
    << attn_join(t["rows"], ", ") << " (" << t["cols"].size()
    << " keys each in its registers: " << attn_join(t["cols"]) << ")\n";
  for (size_t r = 0; r < t["rows"].size(); ++r)
    o << "    row " << t["rows"][r] << ": registers " << attn_join(t["row_registers"][r]) << "\n";
  o << "  row max and row sum: over its registers of the row (reduce<1>), then";
  for (auto const& s : t["shuffles"])
    o << (s == t["shuffles"][0] ? "" : ",") << " shuffle xor " << s["xor"] << " with lane "
      << s["lane"] << " (thread " << s["thread"] << ")";
  o << ":\n    lanes " << attn_join(t["row_lanes"]) << " (threads " << attn_join(t["row_threads"])
    << ") hold rows " << attn_join(t["rows"]) << " of S and all end with the rows' results\n";
  o << "  P -> A of O += P V: P = convert<T>(S) keeps the registers; each pair of accumulators "
       "becomes one 32-bit A register of two 16-bit values (low half first):\n";
  json const& coords = t["register_coords"];
  int64_t last_k = -1, last_m = -1;
  for (auto const& e : j["p_to_a"]) {
    const int64_t k = e["k_step"], m = e["m"];
    if (k != last_k || m != last_m) {
      o << (last_k < 0 ? "" : "\n") << "    k-step " << k;
      if (j["kernel"] == "fa2_sm80") o << ", m-tile " << m;
      o << " (keys " << 16 * k << "-" << 16 * k + 15 << "):";
      last_k = k, last_m = m;
    }
    const int64_t c0 = e["c"][0], c1 = e["c"][1];
    o << " a" << e["register"] << "=(S" << c0 << " " << coords[c0].dump() << ", S" << c1 << " "
      << coords[c1].dump() << ")";
  }
  o << "\n";
  return o.str();
}

}  // namespace tessera::tools
