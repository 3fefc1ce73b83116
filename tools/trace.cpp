#include "trace.hpp"

#include <cstdio>
#include <iterator>
#include <set>
#include <sstream>
#include <stdexcept>

#include "analyze_report.hpp"
#include "ops.hpp"
#include "plural.hpp"
#include "render.hpp"

namespace tessera::tools {
namespace {

using nlohmann::json;

int64_t cdiv(int64_t a, int64_t b) { return (a + b - 1) / b; }

// The problem's extents of an operand's two modes: A (M,K), B (N,K), C (M,N).
int64_t extent(int64_t const problem[3], Operand op, int i) {
  return problem[i == 0 ? TiledMMA::mode0(op) : TiledMMA::mode1(op)];
}
int64_t tile_extent(MmaConfig const& cfg, Operand op, int i) {
  return cfg.tile[i == 0 ? TiledMMA::mode0(op) : TiledMMA::mode1(op)];
}
const char* mode_letters(Operand op) {
  return op == Operand::kC ? "MN" : op == Operand::kA ? "MK" : "NK";
}
std::string tensor_name(const char* prefix, Operand op) {
  return prefix + std::string(operand_name(op));
}

// The CTA tile (local_tile) of an operand: A (BM,BK,k_tiles), B (BN,BK,k_tiles), C (BM,BN).
// The projection drops the tiler mode the operand does not span (CuTe's X).
View cta_tile(TraceInput const& in, Operand op) {
  IntTuple tiler = make_tuple(in.cfg.tile[0], in.cfg.tile[1], in.cfg.tile[2]);
  TileCoord coord = make_coord(in.cta[0], in.cta[1], _), proj;
  for (int i = 0; i < 3; ++i) {
    if (i == TiledMMA::mode0(op) || i == TiledMMA::mode1(op)) proj.add(1);
    else proj.add(_);
  }
  return local_tile(in.layout[int(op)], tiler, coord, proj);
}
std::string proj_text(Operand op) {
  return op == Operand::kC ? "(1,1,X)" : op == Operand::kA ? "(1,X,1)" : "(X,1,1)";
}

// gX(_,_,k): the k-th tile of A or B (C has one tile).
View k_slice(View const& g, Operand op, int64_t k) {
  if (op == Operand::kC) return g;
  return View{g.offset + g.layout[2](k), make_layout(g.layout[0], g.layout[1])};
}

// The thread's partition of the tile, on the problem's strides (offset into the problem tensor).
View thread_part(TraceInput const& in, Operand op, int64_t k) {
  View tile = operand_tile(in, op, k);
  View p = in.cfg.mma.partition(op, tile.layout, in.thread);
  return View{tile.offset + p.offset, p.layout};
}

// {0,1,2,3,64,65,66,67}; runs of five or more as a..b: {0..63}.
std::string join(std::set<int64_t> const& s) {
  std::string out = "{";
  for (auto it = s.begin(); it != s.end();) {
    auto end = std::next(it);
    while (end != s.end() && *end == *std::prev(end) + 1) ++end;
    int64_t n = std::distance(it, end);
    if (out.size() > 1) out += ",";
    if (n >= 5) {
      out += std::to_string(*it) + ".." + std::to_string(*std::prev(end));
      it = end;
      continue;
    }
    for (int64_t i = 0; i < n; ++i, ++it) out += (i ? "," : "") + std::to_string(*it);
  }
  return out + "}";
}

// Loads (A, B) or stores (C) of the thread's partition at k_tile 0, from the access analysis.
json access_json(TraceInput const& in, Operand op) {
  View tile = k_slice(cta_tile(in, op), op, 0);
  AccessSpec spec = mma_access_spec(in.cfg, op, 0, "", MemSpace::kGlobal, 128);
  json out = {{"elements", in.cfg.mma.partition(op, tile.layout, 0).layout.size()},
              {"elem_bits", spec.elem_bits},
              {"access", spec.store ? "store" : "load"}};
  try {
    AccessReport r = analyze(MmaAccess{in.cfg.mma, op, SwizzledLayout{Swizzle(), tile.offset,
                                                                      tile.layout}},
                             spec);
    out["vector_bits"] = r.vector_bits;
    out["instructions"] = r.instructions;
    out["verdict"] = r.verdict.c_str();
  } catch (Error const& e) {  // a partition the analysis does not model (too many values)
    out["vector_bits"] = nullptr;
    out["instructions"] = nullptr;
    out["verdict"] = e.what();
  }
  return out;
}

// The copy of A or B into shared memory: the thread's source partition of gX(_,_,0) (tAgA), its
// destination partition of the shared tile (tAsA), the global loads and the shared stores.
json copy_json(TraceInput const& in, Operand op) {
  TraceCopy const& c = in.copy[op == Operand::kA ? 0 : 1];
  std::string x = op == Operand::kA ? "A" : "B";
  View tile = operand_tile(in, op, 0);
  View src = c.copy.partition_S(tile.layout, in.thread);
  View dst = c.copy.partition_D(c.smem, in.thread);
  int64_t bits = mma_access_spec(in.cfg, op, 0, "", MemSpace::kGlobal, 128).elem_bits;
  AccessReport ld = analyze(CopyAccess{c.copy, SwizzledLayout{Swizzle(), tile.offset, tile.layout},
                                       false},
                            AccessSpec{bits, MemSpace::kGlobal, false, 128});
  AccessReport st = analyze(CopyAccess{c.copy, SwizzledLayout{Swizzle(), 0, c.smem}, true},
                            AccessSpec{bits, MemSpace::kShared, true, 128});
  auto counts = [](AccessReport const& r) {
    return json{{"elements", r.values},
                {"vector_bits", r.vector_bits},
                {"instructions", r.instructions},
                {"verdict", r.verdict.c_str()}};
  };
  return {{"atom", c.copy.atom.name},
          {"threads", c.copy.threads()},
          {"smem", printed(c.smem, in.cute)},
          {"S", {{"name", "t" + x + "g" + x}, {"offset", src.offset + tile.offset},
                 {"layout", printed(src.layout, in.cute)}}},
          {"D", {{"name", "t" + x + "s" + x}, {"offset", dst.offset},
                 {"layout", printed(dst.layout, in.cute)}}},
          {"loads", counts(ld)},
          {"stores", counts(st)},
          {"bank_conflicts", st.conflicts()}};
}

// The register fragment of an operand and, for A and B, its k_block 0 slice tCrX(_,_,0) with the
// problem coordinates it holds.
json fragment_json(TraceInput const& in, Operand op, View const& part) {
  Layout frag = make_fragment_like(part.layout);
  json out = {{"name", tensor_name("tCr", op)},
              {"layout", printed(frag, in.cute)},
              {"shape", printed(frag.shape, in.cute)},
              {"size", frag.size()}};
  if (op == Operand::kC) return out;
  Layout slice = make_layout(frag[0], frag[1]);
  std::vector<TraceElement> els = trace_elements(in, op, 0);
  std::set<int64_t> rows, cols;
  for (int64_t i = 0; i < slice.size(); ++i)
    rows.insert(els[size_t(i)].coord[0]), cols.insert(els[size_t(i)].coord[1]);
  out["k_block_slice"] = {{"name", tensor_name("tCr", op) + "(_,_,0)"},
                          {"layout", printed(slice, in.cute)},
                          {"shape", printed(slice.shape, in.cute)},
                          {"size", slice.size()},
                          {"rows", rows},
                          {"k", cols}};
  return out;
}

// The identity tensor's coordinates, the residue and the masked elements of an operand at one
// k_tile (A and B: the last one, where K's residue applies).
json predicate_json(TraceInput const& in, Operand op, int64_t k_tiles) {
  int64_t k = op == Operand::kC ? 0 : k_tiles - 1;
  int64_t origin[2] = {tile_extent(in.cfg, op, 0) * in.cta[op == Operand::kB ? 1 : 0],
                       op == Operand::kC ? tile_extent(in.cfg, op, 1) * in.cta[1]
                                         : tile_extent(in.cfg, op, 1) * k};
  json coords = json::array(), masked = json::array(), per_k = json::array();
  for (auto const& e : trace_elements(in, op, k)) {
    coords.push_back({e.coord[0] - origin[0], e.coord[1] - origin[1]});
    if (!e.valid) masked.push_back(coords.size() - 1);
  }
  for (int64_t kk = 0; kk < (op == Operand::kC ? 1 : k_tiles); ++kk) {
    int64_t n = 0;
    for (auto const& e : trace_elements(in, op, kk)) n += !e.valid;
    per_k.push_back(n);
  }
  int64_t res[2] = {extent(in.problem, op, 0) - origin[0], extent(in.problem, op, 1) - origin[1]};
  bool ragged = res[0] < tile_extent(in.cfg, op, 0) || res[1] < tile_extent(in.cfg, op, 1);
  return {{"name", tensor_name("tCp", op)},
          {"identity", tensor_name("tCc", op)},
          {"k_tile", op == Operand::kC ? json(nullptr) : json(k)},
          {"residue", {res[0], res[1]}},
          {"ragged", ragged},
          {"coords", coords},
          {"masked", masked},
          {"masked_per_k_tile", per_k}};
}

// The K-loop: k_tiles from gA's last mode, k_blocks from tCgA's, and per k_block one atom per
// (M,N) position of the accumulator fragment tCgC (V,RestM,RestN).
json counts_json(TraceInput const& in) {
  Layout a = thread_part(in, Operand::kA, 0).layout;
  Layout c = thread_part(in, Operand::kC, 0).layout;
  int64_t k_tiles = cta_tile(in, Operand::kA).layout[2].size();
  int64_t k_blocks = a[2].size();
  int64_t per_block = c[1].size() * c[2].size();
  MmaAtom const& atom = in.cfg.mma.atom;
  bool fma = atom.m * atom.n * atom.k == 1 && atom.threads() == 1;
  return {{"k_tiles", k_tiles},
          {"k_blocks", k_blocks},
          {"unit", fma ? "FMA" : "MMA instruction"},
          {"per_k_block", per_block},
          {"per_k_tile", per_block * k_blocks},
          {"total", per_block * k_blocks * k_tiles},
          {"loads", {{"A", access_json(in, Operand::kA)}, {"B", access_json(in, Operand::kB)}}}};
}

}  // namespace

Layout operand_layout(std::string const& text, Operand op, int64_t const problem[3]) {
  int64_t e0 = extent(problem, op, 0), e1 = extent(problem, op, 1);
  std::string t = text.empty() ? std::string(1, op == Operand::kA ? 'M' : 'N') : text;
  const char* letters = mode_letters(op);
  if (t.size() == 1 && (t[0] == letters[0] || t[0] == letters[1])) {
    bool first = t[0] == letters[0];  // contiguous in the operand's first mode
    return with_kind(Layout(make_tuple(e0, e1), first ? make_tuple(int64_t(1), e0)
                                                      : make_tuple(e1, int64_t(1))),
                     true);
  }
  if (t.size() == 1)
    throw std::invalid_argument(std::string("trace: the major letter of ") + operand_name(op) +
                                " is " + letters[0] + " or " + letters[1] + ", not " + t);
  return parse_layout(t, true);
}

TraceCopy trace_copy(MmaConfig const& cfg, Operand op, std::string const& atom,
                     std::string const& thr, std::string const& val, std::string const& smem) {
  int64_t bits = mma_access_spec(cfg, op, 0, "", MemSpace::kGlobal, 128).elem_bits;
  TraceCopy c;
  c.given = true;
  c.copy = make_tiled_copy_tv(copy_atom_of(atom, bits), layout_arg(thr), layout_arg(val));
  int64_t t0 = tile_extent(cfg, op, 0), t1 = tile_extent(cfg, op, 1);
  c.smem = smem.empty() ? Layout(make_tuple(t0, t1)) : layout_arg(smem);
  if (c.smem.rank() != 2 || c.smem[0].size() != t0 || c.smem[1].size() != t1)
    throw std::invalid_argument("trace: the shared tile of " + std::string(operand_name(op)) + " " +
                                to_string(c.smem) + " must have the CTA tile's shape (" +
                                std::to_string(t0) + "," + std::to_string(t1) + ")");
  if (c.copy.threads() != cfg.mma.threads())
    throw std::invalid_argument("trace: the copy of " + std::string(operand_name(op)) + " has " +
                                plural(c.copy.threads(), "thread") + "; the TiledMMA has " +
                                std::to_string(cfg.mma.threads()));
  return c;
}

void check_trace(TraceInput const& in) {
  for (int i = 0; i < 3; ++i)
    if (in.problem[i] <= 0)
      throw std::invalid_argument("trace: the problem's " + std::string(1, "MNK"[i]) + " = " +
                                  std::to_string(in.problem[i]) + " must be positive");
  for (Operand op : {Operand::kA, Operand::kB, Operand::kC}) {
    Layout const& l = in.layout[int(op)];
    int64_t e0 = extent(in.problem, op, 0), e1 = extent(in.problem, op, 1);
    if (l.rank() != 2 || l[0].size() != e0 || l[1].size() != e1) {
      std::ostringstream m;
      m << "trace: the layout of " << operand_name(op) << " " << to_string(l)
        << " does not match the problem: an operand's layout has shape (" << mode_letters(op)[0]
        << "," << mode_letters(op)[1] << ") = (" << e0 << "," << e1 << ")";
      throw std::invalid_argument(m.str());
    }
  }
  int64_t grid[2] = {cdiv(in.problem[0], in.cfg.tile[0]), cdiv(in.problem[1], in.cfg.tile[1])};
  if (in.cta[0] < 0 || in.cta[0] >= grid[0] || in.cta[1] < 0 || in.cta[1] >= grid[1]) {
    std::ostringstream m;
    m << "trace: CTA (" << in.cta[0] << "," << in.cta[1] << ") is outside the grid " << grid[0]
      << " x " << grid[1] << " (ceil(M/BM) x ceil(N/BN) = ceil(" << in.problem[0] << "/"
      << in.cfg.tile[0] << ") x ceil(" << in.problem[1] << "/" << in.cfg.tile[1] << "))";
    throw std::invalid_argument(m.str());
  }
  if (in.thread < 0 || in.thread >= in.cfg.mma.threads())
    throw std::invalid_argument("trace: thread " + std::to_string(in.thread) +
                                " is outside the TiledMMA's threads [0, " +
                                std::to_string(in.cfg.mma.threads()) + ")");
}

TraceInput trace_input(MmaConfig const& cfg, ProblemWords const& w, std::string const& verb) {
  try {
    if (w.problem.size() != 3) throw std::invalid_argument("trace: --problem needs M N K");
    if (w.cta.size() != 2) throw std::invalid_argument("trace: --cta needs m n");
    TraceInput in;
    in.cfg = cfg;
    for (int i = 0; i < 3; ++i) in.problem[i] = w.problem[size_t(i)];
    for (int i = 0; i < 3 && in.problem[0] > 0 && in.problem[1] > 0 && in.problem[2] > 0; ++i)
      in.layout[i] = operand_layout(w.layout[i], Operand(i), in.problem);
    in.cta[0] = w.cta[0], in.cta[1] = w.cta[1];
    in.thread = w.thread;
    check_trace(in);
    return in;
  } catch (std::invalid_argument const& e) {  // the rule's message, under the verb's name
    std::string m = e.what();
    if (m.rfind("trace: ", 0) == 0) m = m.substr(7);
    throw std::invalid_argument(verb + ": " + m);
  }
}

std::vector<int64_t> use_problem_tiles(TraceInput const& in, MmaConfig& cfg) {
  std::vector<int64_t> offsets(3);
  for (Operand op : {Operand::kC, Operand::kA, Operand::kB}) {
    View tile = operand_tile(in, op, 0);
    cfg.tensor[int(op)] = tile.layout;
    offsets[size_t(int(op))] = tile.offset;
  }
  return offsets;
}

json trace_page_json(TraceInput const& in) {
  json j = trace_json(in);
  j["kind"] = "trace";
  j["text"] = trace_text(j);
  int64_t k_tiles = j["k_loop"]["k_tiles"];
  for (Operand op : {Operand::kA, Operand::kB, Operand::kC}) {
    json per_k = json::array();
    for (int64_t k = 0; k < (op == Operand::kC ? 1 : k_tiles); ++k) {
      json els = json::array();
      for (auto const& e : trace_elements(in, op, k))
        els.push_back({e.coord[0], e.coord[1], e.valid});
      per_k.push_back(els);
    }
    j["elements"][operand_name(op)] = per_k;
  }
  return j;
}

View operand_tile(TraceInput const& in, Operand op, int64_t k_tile) {
  return k_slice(cta_tile(in, op), op, k_tile);
}

std::vector<TraceElement> trace_elements(TraceInput const& in, Operand op, int64_t k_tile) {
  int64_t t0 = tile_extent(in.cfg, op, 0), t1 = tile_extent(in.cfg, op, 1);
  // The tile's origin in the problem: C (BM*m, BN*n), A (BM*m, BK*k), B (BN*n, BK*k).
  int64_t origin[2] = {t0 * in.cta[op == Operand::kB ? 1 : 0],
                       t1 * (op == Operand::kC ? in.cta[1] : k_tile)};
  const int64_t residue[2] = {extent(in.problem, op, 0) - origin[0],
                              extent(in.problem, op, 1) - origin[1]};
  // The identity tensor of the tile, partitioned like the data: element i's index j in the
  // compact column-major tile is its tile coordinate (j % t0, j / t0).
  const Layout tile = Layout(make_tuple(t0, t1));
  const std::vector<int64_t> where = view_values(in.cfg.mma.partition(op, tile, in.thread));
  const std::vector<int64_t> at = view_values(thread_part(in, op, k_tile));
  std::vector<TraceElement> out;
  out.reserve(where.size());
  for (size_t i = 0; i < where.size(); ++i) {
    const int64_t c0 = where[i] % t0, c1 = where[i] / t0;
    out.push_back({{origin[0] + c0, origin[1] + c1}, at[i], c0 < residue[0] && c1 < residue[1]});
  }
  return out;
}

json trace_json(TraceInput const& in) {
  check_trace(in);
  MmaConfig const& cfg = in.cfg;
  json j = {{"config",
             {{"name", cfg.name},
              {"atom", cfg.mma.atom.name},
              {"atom_layout", cfg.atom_layout_text},
              {"permutation", cfg.permutation_text},
              {"tile_mnk", {cfg.tile[0], cfg.tile[1], cfg.tile[2]}},
              {"threads", cfg.mma.threads()},
              {"thr_layout_vmnk", printed(cfg.mma.thr_vmnk, in.cute)}}},
            {"problem", {in.problem[0], in.problem[1], in.problem[2]}},
            {"grid", {cdiv(in.problem[0], cfg.tile[0]), cdiv(in.problem[1], cfg.tile[1])}},
            {"cta", {in.cta[0], in.cta[1]}},
            {"thread", in.thread},
            {"thread_vmnk", printed(cfg.mma.thread_vmnk(in.thread), in.cute)}};
  for (Operand op : {Operand::kA, Operand::kB, Operand::kC}) {
    const char* n = operand_name(op);
    View g = cta_tile(in, op);
    View p = thread_part(in, op, 0);
    j["layouts"][n] = printed(in.layout[int(op)], in.cute);
    j["local_tile"][n] = {{"name", tensor_name("g", op)},
                          {"proj", proj_text(op)},
                          {"offset", g.offset},
                          {"layout", printed(g.layout, in.cute)}};
    j["partitions"][n] = {{"name", tensor_name("tCg", op)},
                          {"of", op == Operand::kC ? "gC" : tensor_name("g", op) + "(_,_,0)"},
                          {"offset", p.offset},
                          {"layout", printed(p.layout, in.cute)},
                          {"size", p.layout.size()}};
    j["fragments"][n] = fragment_json(in, op, p);
  }
  for (Operand op : {Operand::kA, Operand::kB})
    if (in.copy[op == Operand::kA ? 0 : 1].given) j["copies"][operand_name(op)] = copy_json(in, op);
  j["k_loop"] = counts_json(in);
  int64_t k_tiles = j["k_loop"]["k_tiles"];
  j["epilogue"] = access_json(in, Operand::kC);
  for (Operand op : {Operand::kA, Operand::kB, Operand::kC})
    j["predicates"][operand_name(op)] = predicate_json(in, op, k_tiles);
  return j;
}

namespace {

std::string str(json const& v) { return v.is_string() ? v.get<std::string>() : v.dump(); }
// "1 element", "64 elements" of a count in the trace's JSON.
std::string counted(json const& n, std::string const& noun) {
  return plural(n.get<int64_t>(), noun);
}

// "64 elements in 16 loads of 128 bits" (from the access analysis).
std::string access_text(json const& a) {
  std::string s = counted(a["elements"], "element");
  if (a["vector_bits"].is_null()) return s + " (" + str(a["verdict"]) + ")";
  return s + " in " + counted(a["instructions"], str(a["access"])) + " of " +
         str(a["vector_bits"]) + " bits";
}

void text_tiles(std::ostringstream& o, json const& j) {
  auto const& t = j["config"]["tile_mnk"];
  std::string tiler = "(" + str(t[0]) + "," + str(t[1]) + "," + str(t[2]) + ")";
  o << "local_tile: this CTA's tiles (tiler " << tiler << ", coordinate (" << str(j["cta"][0])
    << "," << str(j["cta"][1]) << ",_))\n";
  for (const char* n : {"A", "B", "C"}) {
    auto const& g = j["local_tile"][n];
    o << "  " << str(g["name"]) << " = local_tile(m" << n << " " << str(j["layouts"][n]) << ", "
      << tiler << ", proj " << str(g["proj"]) << ") = " << str(g["layout"]) << " at offset "
      << str(g["offset"]) << "\n";
  }
  o << "\npartitions of thread " << str(j["thread"]) << " (at (v,m,n,k) = "
    << str(j["thread_vmnk"]) << "), on the problem's strides\n";
  for (const char* n : {"A", "B", "C"}) {
    auto const& p = j["partitions"][n];
    o << "  " << str(p["name"]) << " = partition_" << n << "(" << str(p["of"])
      << ") = " << str(p["layout"]) << " at offset " << str(p["offset"]) << " ("
      << counted(p["size"], "element") << ")\n";
  }
  o << "\nregister fragments\n";
  for (const char* n : {"A", "B", "C"}) {
    auto const& f = j["fragments"][n];
    o << "  " << str(f["name"]) << " shape " << str(f["shape"]) << " ("
      << counted(f["size"], "register") << ")";
    if (f.contains("k_block_slice")) {
      auto const& s = f["k_block_slice"];
      std::set<int64_t> rows = s["rows"], ks = s["k"];
      o << "; " << str(s["name"]) << " shape " << str(s["shape"]) << " = "
        << counted(s["size"], "value") << ": " << (std::string(n) == "A" ? "m" : "n") << " in "
        << join(rows)
        << ", k in " << join(ks);
    }
    o << "\n";
  }
}

void text_copies(std::ostringstream& o, json const& j) {
  if (!j.contains("copies")) return;
  o << "\ncopies to shared memory (per k_tile)\n";
  for (auto const& [n, c] : j["copies"].items()) {
    auto const& s = c["S"];
    auto const& d = c["D"];
    o << "  " << n << ": " << str(c["atom"]) << ", " << str(s["name"]) << " = partition_S(g" << n
      << "(_,_,0)) = " << str(s["layout"]) << " at offset " << str(s["offset"]) << "; "
      << str(d["name"]) << " = partition_D(s" << n << " " << str(c["smem"]) << ") = "
      << str(d["layout"]) << " at offset " << str(d["offset"]) << "\n    "
      << counted(c["loads"]["elements"], "element") << " in "
      << counted(c["loads"]["instructions"], "global load") << " of "
      << str(c["loads"]["vector_bits"]) << " bits, "
      << counted(c["stores"]["instructions"], "shared store") << " of "
      << str(c["stores"]["vector_bits"]) << " bits ("
      << counted(c["bank_conflicts"], "bank conflict") << ")\n";
  }
}

void text_loop(std::ostringstream& o, json const& j) {
  text_copies(o, j);
  auto const& k = j["k_loop"];
  o << "\nK-loop: " << counted(k["k_tiles"], "k_tile") << " (ceil(K/BK)) x "
    << counted(k["k_blocks"], "k_block") << " per tile\n"
    << "  per k_block " << counted(k["per_k_block"], str(k["unit"]))
    << " (tCrA(_,_,kb) x tCrB(_,_,kb)"
    << " into tCrC), per k_tile " << str(k["per_k_tile"]) << ", in all " << str(k["total"]) << "\n"
    << "  per k_tile: A " << access_text(k["loads"]["A"]) << "; B "
    << access_text(k["loads"]["B"]) << "\n"
    << "\nepilogue: copy(tCrC, tCgC): " << access_text(j["epilogue"]) << "\n";
  bool ragged = false;
  for (const char* n : {"A", "B", "C"}) ragged = ragged || j["predicates"][n]["ragged"].get<bool>();
  if (!ragged) {
    o << "\npredicates: no ragged edge for this CTA (every residue covers its tile)\n";
    return;
  }
  o << "\npredicates: tCpX(i) = elem_less(tCcX(i), residue), tCcX the identity tensor's "
       "partition\n";
  for (const char* n : {"A", "B", "C"}) {
    auto const& p = j["predicates"][n];
    std::set<int64_t> rows, cols, masked = p["masked"];
    for (auto const& c : p["coords"])
      rows.insert(c[0].get<int64_t>()), cols.insert(c[1].get<int64_t>());
    std::string dims = n == std::string("A") ? "mk" : n == std::string("B") ? "nk" : "mn";
    o << "  " << str(p["name"]) << (p["k_tile"].is_null() ? "" : " at k_tile " + str(p["k_tile"]))
      << ": residue " << str(p["residue"]) << "; " << str(p["identity"]) << " holds "
      << dims[0] << " in " << join(rows) << " x " << dims[1] << " in " << join(cols)
      << "\n    masked: " << masked.size() << " of " << p["coords"].size()
      << " (fragment indices " << join(masked) << "); masked per k_tile "
      << str(p["masked_per_k_tile"]) << "\n";
  }
}

void text_summary(std::ostringstream& o, json const& j) {
  auto const& k = j["k_loop"];
  auto const& c = j["fragments"]["C"];
  int64_t bits = j["epilogue"]["elem_bits"];
  auto row = [&](std::string const& q, std::string const& v, std::string const& d) {
    char line[160];
    std::snprintf(line, sizeof line, "| %-24s | %-12s | %s\n", q.c_str(), v.c_str(), d.c_str());
    o << line;
  };
  o << "\nsummary\n";
  row("quantity", "value", "derivation");
  row("CTAs", str(j["grid"][0].get<int64_t>() * j["grid"][1].get<int64_t>()),
      str(j["grid"][0]) + " x " + str(j["grid"][1]) + " = ceil(M/BM) x ceil(N/BN)");
  row("threads per CTA", str(j["config"]["threads"]), "size of the TiledMMA's thread layout");
  row("C elements per thread", str(c["size"]), "tCgC " + str(j["partitions"]["C"]["layout"]));
  row("k_tiles", str(k["k_tiles"]), "ceil(K/BK)");
  row("k_blocks per k_tile", str(k["k_blocks"]), "mode 2 of tCrA");
  row("A loads per k_tile", str(k["loads"]["A"]["elements"]), "size of tCgA");
  row("B loads per k_tile", str(k["loads"]["B"]["elements"]), "size of tCgB");
  row(str(k["unit"]) + "s in all", str(k["total"]),
      str(k["per_k_block"]) + " x " + str(k["k_blocks"]) + " x " + str(k["k_tiles"]));
  row("accumulator registers", str(c["size"]) + " x " + std::to_string(bits) + "b",
      std::to_string(c["size"].get<int64_t>() * bits / 8) + " bytes per thread");
}

// "(0,0,_)" -> entries; `_` keeps a mode (coordinates), X drops one (projections).
TileCoord read_coord(std::string const& text, bool proj) {
  std::string s;
  for (char ch : text)
    if (ch != ' ') s += ch;
  if (s.size() >= 2 && s.front() == '(' && s.back() == ')') s = s.substr(1, s.size() - 2);
  TileCoord c;
  std::string what = proj ? "projection" : "coordinate";
  size_t at = 0;
  while (at <= s.size()) {
    size_t end = s.find(',', at);
    std::string e = s.substr(at, end == std::string::npos ? std::string::npos : end - at);
    if (proj && (e == "X" || e == "x" || e == "None")) c.add(_);
    else if (proj && (e == "1" || e == "_1")) c.add(1);
    else if (!proj && e == "_") c.add(_);
    else if (!proj && !e.empty() && e.find_first_not_of("0123456789") == std::string::npos)
      c.add(std::stoll(e));
    else
      throw std::invalid_argument("local_tile: the " + what + " " + text + " has an entry '" + e +
                                  (proj ? "' (each entry is 1 to keep a tiler mode or X to drop it)"
                                        : "' (each entry is a tile index or _ to keep the mode)"));
    if (end == std::string::npos) break;
    at = end + 1;
  }
  return c;
}

}  // namespace

std::string trace_text(json const& j) {
  std::ostringstream o;
  auto const& cfg = j["config"];
  o << "TiledMMA " << str(cfg["name"]) << ": atom layout " << str(cfg["atom_layout"])
    << ", permutation " << str(cfg["permutation"]) << ", " << counted(cfg["threads"], "thread")
    << ", CTA tile " << str(cfg["tile_mnk"][0]) << "x" << str(cfg["tile_mnk"][1]) << "x"
    << str(cfg["tile_mnk"][2]) << "\n"
    << "problem M=" << str(j["problem"][0]) << ", N=" << str(j["problem"][1])
    << ", K=" << str(j["problem"][2]) << "; grid " << str(j["grid"][0]) << " x "
    << str(j["grid"][1])
    << (j["grid"][0].get<int64_t>() * j["grid"][1].get<int64_t>() == 1 ? " CTA" : " CTAs")
    << "; tracing CTA (" << str(j["cta"][0]) << ","
    << str(j["cta"][1]) << "), thread " << str(j["thread"]) << "\n\n";
  text_tiles(o, j);
  text_loop(o, j);
  text_summary(o, j);
  return o.str();
}

View local_tile_words(std::string const& tensor, std::string const& tiler,
                      std::string const& coord, std::string const& proj, bool runtime) {
  Layout l = layout_arg(tensor, runtime);
  IntTuple t = parse_int_tuple(tiler, runtime);
  TileCoord c = read_coord(coord, false);
  TileCoord p = proj.empty() ? TileCoord{} : read_coord(proj, true);
  int kept = 0;
  for (int i = 0; i < p.n; ++i) kept += !p.all[i];
  if (p.n != 0 && kept != l.rank())
    throw std::invalid_argument("local_tile: the projection " + proj + " keeps " +
                                std::to_string(kept) + " tiler modes; the tensor " +
                                to_string(l) + " has " + std::to_string(l.rank()));
  if (p.n == 0 && t.rank() != l.rank())
    throw std::invalid_argument("local_tile: the tiler " + tiler + " has " +
                                std::to_string(t.rank()) + " modes and the tensor " +
                                to_string(l) + " " + std::to_string(l.rank()) +
                                "; give a projection (--proj) that drops the extra ones");
  return local_tile(l, t, c, p);
}

}  // namespace tessera::tools
