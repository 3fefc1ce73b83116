#include "render.hpp"

#include <algorithm>
#include <cstdio>
#include <functional>
#include <map>
#include <stdexcept>
#include <tessera/atom/smem.hpp>
#include <tessera/gmma.hpp>
#include <unordered_map>

#include "atom_names.hpp"
#include "grid_picture.hpp"
#include "attention_cli.hpp"
#include "hopper_cli.hpp"
#include "op_pictures.hpp"
#include "ops.hpp"
#include "trace.hpp"

namespace tessera::tools {
namespace {

using nlohmann::json;

// Pages stay responsive up to this many cells per picture (a 256x256 tile).
constexpr int64_t kMaxCells = 1 << 17;
// A cell owned by many threads lists this many of the others.
constexpr size_t kListedOwners = 8;

void check_cells(int64_t rows, int64_t cols, std::string const& what) {
  if (rows * cols > kMaxCells)
    throw std::invalid_argument("render: " + what + " has " + std::to_string(rows * cols) +
                                " cells; pictures are limited to " + std::to_string(kMaxCells));
}

// One picture of thread ownership over a rows x cols tile. `coords(t)` is thread t's partition of
// the compact column-major tile (index j is the element (j % rows, j / rows)) and `data(t)` its
// partition of the real tensor (it gives the offsets).
json ownership_grid(std::string const& title, char row_name, char col_name, int64_t rows,
                    int64_t cols, int64_t threads, std::function<View(int64_t)> const& coords,
                    std::function<View(int64_t)> const& data) {
  check_cells(rows, cols, title);
  int64_t cells = rows * cols;
  std::vector<int64_t> owner(cells, -1), value(cells, -1), offset(cells, -1);
  // Fragments are stored once and referenced per thread: with shared-memory wgmma operands every
  // thread's fragment of A and B is the whole tile.
  json frags = json::array(), frag_of = json::array(), layouts = json::array();
  // Per cell: its owners (counted) after the first, the first few of them listed.
  std::vector<int64_t> owners(cells, 0);
  std::vector<std::vector<int64_t>> listed(cells);
  std::map<std::vector<int64_t>, int64_t> seen;
  for (int64_t t = 0; t < threads; ++t) {
    const std::vector<int64_t> where = view_values(coords(t));
    const View v = data(t);
    const std::vector<int64_t> at = view_values(v);
    std::vector<int64_t> list;
    list.reserve(where.size());
    for (size_t i = 0; i < where.size(); ++i) {
      const int64_t cell = where[i] % rows * cols + where[i] / rows;
      list.push_back(cell);
      if (owner[cell] < 0) {
        owner[cell] = t, value[cell] = int64_t(i), offset[cell] = at[i];
      } else if (++owners[cell] <= int64_t(kListedOwners)) {  // also t's: A, B are replicated
        listed[cell].push_back(t);
      }
    }
    auto [it, fresh] = seen.emplace(std::move(list), int64_t(frags.size()));
    if (fresh) frags.push_back(it->first);
    frag_of.push_back(it->second);
    layouts.push_back(std::to_string(v.offset) + " + " + to_string(v.layout));
  }
  json shared = json::object();  // cell -> its owner count and the first few after the first
  for (int64_t cell = 0; cell < cells; ++cell)
    if (owners[cell] > 0)
      shared[std::to_string(cell)] = {{"n", owners[cell] + 1}, {"t", listed[cell]}};
  return {{"title", title},
          {"rows", rows},
          {"cols", cols},
          {"row_name", std::string(1, row_name)},
          {"col_name", std::string(1, col_name)},
          {"owner", owner},
          {"value", value},
          {"offset", offset},
          {"shared", shared},
          {"frags", frags},
          {"frag_of", frag_of},
          {"layouts", layouts}};
}

// ---------------------------------------------------------------------------------------------
// The memory-access overlay. Every number comes from tessera::analyze (analysis.hpp): the whole
// partition's report, and one report per warp instruction (the partition restricted to one warp
// and to the j-th run of each lane, the instruction analyze itself assigns: run_starts order).

// A partition given as a table of offsets, [thread * values + value]: one warp's instruction.
// (A tools-side helper: analysis.hpp takes any type with threads(), values() and offsets().)
struct TableAccess {
  int64_t const* table;
  int64_t n_threads, n_values;
  int64_t threads() const { return n_threads; }
  int64_t values() const { return n_values; }
  void offsets(int64_t t, int64_t* out) const {
    for (int64_t i = 0; i < n_values; ++i) out[i] = table[t * n_values + i];
  }
};

json report_json(AccessReport const& r) {
  int64_t q = r.requests ? r.requests : 1, w = r.warps ? r.warps : 1;
  return {{"vector_bits", r.vector_bits},
          {"run_bits", r.run_bits},
          {"in_order_bits", r.in_order_bits},
          {"instructions", r.instructions},
          {"min_instructions", r.min_instructions},
          {"warps", r.warps},
          {"requests", r.requests},
          {"sectors", r.sectors_per_request()},
          {"min_sectors", r.min_sectors / q},
          {"sector_eff", r.sector_efficiency()},
          {"lines", r.lines_per_request()},
          {"min_lines", r.min_lines / q},
          {"fp_sectors", r.footprint_sectors / w},
          {"fp_min_sectors", r.footprint_min_sectors / w},
          {"fp_eff", r.footprint_efficiency()},
          {"wavefronts", r.wavefronts},
          {"ideal", r.ideal_wavefronts},
          {"conflicts", r.conflicts()},
          {"wf_per", r.wavefronts_per_request()},
          {"ideal_per", r.ideal_wavefronts / q},
          {"way", r.max_way},
          {"grade", grade_name(r.grade)},
          {"verdict", r.verdict.c_str()}};
}

// One memory space's overlay of a grid: the report, the bank (shared) or sector (global) of
// every cell, the instruction of every fragment value, and per warp and instruction the numbers.
template <class Access>
json space_json(Access const& acc, AccessSpec spec, json const& grid) {
  AccessReport r = analyze(acc, spec);
  int64_t threads = r.threads, values = r.values, b = spec.elem_bits;
  int64_t v = r.vector_bits / b;
  bool shared = spec.space == MemSpace::kShared;
  std::vector<int64_t> table(threads * values);
  for (int64_t t = 0; t < threads; ++t) acc.offsets(t, table.data() + t * values);
  // Each lane's run starts in instruction order (the order analyze emits them).
  std::vector<int64_t> starts(threads * r.instructions);
  for (int64_t t = 0; t < threads; ++t)
    run_starts(table.data() + t * values, values, v, starts.data() + t * r.instructions);
  auto const& frags = grid["frags"];
  auto const& frag_of = grid["frag_of"];
  std::vector<int64_t> id(grid["owner"].size(), -1);
  json instr = json::array();
  std::vector<bool> done(frags.size(), false);
  for (int64_t t = 0; t < threads; ++t) {
    int64_t f = frag_of[t].get<int64_t>();
    if (done[f]) continue;
    done[f] = true;
    std::unordered_map<int64_t, int64_t> which;
    for (int64_t j = 0; j < r.instructions; ++j) which[starts[t * r.instructions + j]] = j;
    std::vector<int64_t> js(values);
    auto const& cells = frags[f];
    for (int64_t i = 0; i < values; ++i) {
      int64_t o = table[t * values + i];
      int64_t start = o - ((o % v) + v) % v;
      js[i] = which.count(start) ? which[start] : -1;
      int64_t bytes = o * b / 8;
      int64_t cell = cells[i].get<int64_t>();
      if (id[cell] < 0) id[cell] = shared ? (bytes / kBankBytes) % kBanks : bytes / kSectorBytes;
    }
    instr.push_back(std::move(js));
  }
  // Instructions are numbered per fragment; frag index f's list is instr[f] (threads visited in
  // order).
  json per = json::array();
  std::vector<int64_t> one(kWarpSize * v);
  for (int64_t w = 0; w < r.warps; ++w) {
    int64_t lanes = std::min<int64_t>(kWarpSize, threads - w * kWarpSize);
    json row = json::array();
    for (int64_t j = 0; j < r.instructions; ++j) {
      for (int64_t l = 0; l < lanes; ++l)
        for (int64_t k = 0; k < v; ++k)
          one[l * v + k] = starts[(w * kWarpSize + l) * r.instructions + j] + k;
      AccessReport q = analyze(TableAccess{one.data(), lanes, v}, spec);
      if (shared)
        row.push_back({q.wavefronts, q.ideal_wavefronts});
      else
        row.push_back({q.sectors, q.min_sectors, q.lines, q.min_lines});
    }
    per.push_back(std::move(row));
  }
  json out = report_json(r);
  out[shared ? "bank" : "sector"] = id;
  out["instr"] = instr;
  out["per"] = per;
  return out;
}

// Both spaces for one grid; a partition analyze cannot take (too many values per thread, an
// element size it rejects) gets an "error" the page shows instead of the overlay.
template <class Make>
json access_json(Make const& make, AccessSpec spec, Swizzle sw, std::string const& space,
                 json const& grid) {
  json out = {{"elem_bits", spec.elem_bits},
              {"access", spec.store ? "store" : "load"},
              {"swizzle", to_string(sw)},
              {"space", space},
              {"max_vector_bits", spec.max_vector_bits}};
  try {
    AccessSpec g = spec, s = spec;
    g.space = MemSpace::kGlobal;
    s.space = MemSpace::kShared;
    out["global"] = space_json(make(Swizzle()), g, grid);
    out["shared"] = space_json(make(sw), s, grid);
  } catch (tessera::Error const& e) {
    out["error"] = e.what();
  }
  return out;
}

Swizzle swizzle_arg(AccessOptions const& o) {
  if (o.swizzle.empty()) return Swizzle();
  try {
    return parse_swizzle(o.swizzle);
  } catch (tessera::Error const& e) {
    throw std::invalid_argument(std::string("render --swizzle ") + o.swizzle + ": " + e.what());
  }
}

json operand_grid(MmaConfig const& cfg, Operand op) {
  int i0 = TiledMMA::mode0(op), i1 = TiledMMA::mode1(op);
  Layout tile(make_tuple(cfg.tile[i0], cfg.tile[i1]));
  Layout tensor = cfg.tensor[int(op)];
  std::string title = std::string(operand_name(op)) + " (" + "MNK"[i0] + "," + "MNK"[i1] +
                      ") = " + to_string(tensor);
  auto const& mma = cfg.mma;
  // thrfrg once per layout, a slice per thread (the same as partition(op, layout, t)).
  const Layout tile_frg = mma.thrfrg(op, tile), tensor_frg = mma.thrfrg(op, tensor);
  return ownership_grid(
      title, "mnk"[i0], "mnk"[i1], cfg.tile[i0], cfg.tile[i1], mma.threads(),
      [&](int64_t t) { return mma.slice(op, tile_frg, t); },
      [&](int64_t t) { return mma.slice(op, tensor_frg, t); });
}

// ---------------------------------------------------------------------------------------------
// wgmma's shared-memory operands. An SS atom reads A and B, an RS atom B, from shared memory
// through 64-bit descriptors: the operand's stage tile (its MN extent x the CTA tile's K) is one
// of gmma_smem_tile's canonical tiles (a swizzle mode, K- or MN-major), cut by make_gmma_operand
// into one (atom MN x atom K) block per wgmma: block (i, j) is MN block i (A: the atom's M
// instance, B: its N instance) at k-step j. Worked example, m64n256k16 over (2,1,1), tile
// 128 x 256 x 64, 16-bit A, 128B K-major: Sw<3,3,3> o ((8,16),(64,1)):((64,512),(1,0)),
// blocks 64 x 16, SBO 1024 B, LBO 16 B, starts (i, j) = 8192 i + 32 j bytes.

bool wgmma_smem_operand(std::string const& atom, Operand op) {
  if (atom.rfind("SM90_64x", 0) != 0 || op == Operand::kC) return false;
  return atom.find("_SS") != std::string::npos ||
         (op == Operand::kB && atom.find("_RS") != std::string::npos);
}

constexpr const char* kSmemModes[] = {"none", "32B", "64B", "128B"};  // GmmaSwizzle's order

json smem_json(MmaConfig const& cfg, Operand op, AccessOptions const& ao, int64_t bits) {
  const bool is_a = op == Operand::kA;
  const int64_t rows = cfg.tile[is_a ? 0 : 1], k = cfg.tile[2];
  const int64_t mn = is_a ? cfg.mma.atom.m : cfg.mma.atom.n, kb = cfg.mma.atom.k;
  const bool k_major = ao.smem_major != "MN";
  json out = {{"elem_bits", bits},
              {"major", k_major ? "K" : "MN"},
              {"block", {mn, kb}},
              {"chosen", !ao.smem_swizzle.empty()}};
  // The mode asked for, else 128B down to none: the first the tile takes.
  std::string error;
  for (int b = 3; b >= 0; --b) {
    if (!ao.smem_swizzle.empty() && ao.smem_swizzle != kSmemModes[b]) continue;
    out["swizzle"] = kSmemModes[b];
    try {
      const SwizzledLayout tile = gmma_smem_tile(GmmaSwizzle(b), k_major, bits, rows, k);
      const GmmaOperand g = make_gmma_operand(tile, bits, mn, kb);
      const Layout atom = gmma_smem_atom(GmmaSwizzle(b), k_major, bits).layout;
      out["tile"] = to_string(tile);
      out["atom"] = {atom[0].size(), atom[1].size()};
      out["descriptor"] = {{"layout_type", g.desc.layout_type},
                           {"lbo_bytes", g.desc.lbo_bytes},
                           {"sbo_bytes", g.desc.sbo_bytes},
                           {"base_offset", g.desc.base_offset}};
      out["blocks"] = to_string(g.blocks);
      // One wgmma per (MN block, k-step): its block's start in the tile and the encoded
      // descriptor with the tile at shared address 0 (add the tile's address >> 4 to bits 0-13).
      json wgmma = json::array();
      for (int64_t j = 0; j < g.blocks[1].size(); ++j)
        for (int64_t i = 0; i < g.blocks[0].size(); ++i) {
          char hex[24];
          const int64_t start = g.block_bytes(i, j);
          std::snprintf(hex, sizeof hex, "0x%016llx",
                        static_cast<unsigned long long>(g.desc.encode(uint32_t(start))));
          wgmma.push_back(
              {{"mn_block", i}, {"k_step", j}, {"start_bytes", start}, {"encoded", hex}});
        }
      out["wgmma"] = wgmma;
      // Per cell (row = MN, col = K, as the grid): the tile offset, its swizzled offset, the bank.
      std::vector<int64_t> offset(rows * k), phys(rows * k), bank(rows * k);
      for (int64_t r = 0; r < rows; ++r)
        for (int64_t c = 0; c < k; ++c) {
          const int64_t o = tile.layout(make_tuple(r, c)), p = tile.swizzle(o);
          offset[r * k + c] = o, phys[r * k + c] = p;
          bank[r * k + c] = (p * bits / 8 / kBankBytes) % kBanks;
        }
      out["offset"] = offset, out["phys"] = phys, out["bank"] = bank;
      out.erase("error");
      return out;
    } catch (tessera::Error const& e) {
      error = e.what();  // with no mode asked for, the last (no swizzle, the smallest atom) names
                         // the rule
    }
  }
  out["error"] = ao.smem_swizzle.empty() ? "no wgmma swizzle mode fits this tile: " + error : error;
  return out;
}

// "(16,4):(1,16)" alone means that layout for M and N (the step 1 kernel's permutation comparison);
// anything else is a full per-mode permutation as `explain --perm` takes it.
std::string per_mode_permutation(std::string const& p) {
  if (p.find(':') != std::string::npos && p.find('_') == std::string::npos) {
    try {
      parse_layout(p);
      return "(" + p + "," + p + ",_)";
    } catch (tessera::Error const&) {
    }
  }
  return p;
}

}  // namespace

json layout_page_data(SwizzledLayout const& l) {
  int64_t rows = l.rank() >= 2 ? l.layout[0].size() : 1;
  int64_t cols = l.size() / rows;
  check_cells(rows, cols, "the layout " + layout_notation(l));
  std::vector<int64_t> values(rows * cols);
  json coords = json::array();
  coords.get_ref<json::array_t&>().resize(rows * cols);
  for (int64_t r = 0; r < rows; ++r)
    for (int64_t c = 0; c < cols; ++c) {
      int64_t i = r + c * rows;  // colexicographic index of (r, c)
      values[r * cols + c] = l(i);
      coords[r * cols + c] = to_string(idx2crd(i, l.layout.shape));
    }
  // A swizzle permutes offsets in place: the cosize is that of the plain layout.
  return {{"kind", "layout"}, {"layout", layout_notation(l)},
          {"size", l.size()}, {"cosize", l.layout.cosize()},
          {"rank", l.rank()}, {"rows", rows},
          {"cols", cols},     {"values", values},
          {"coords", coords}};
}

json mma_page_data(MmaConfig const& cfg, std::vector<std::string> const& compare_perms,
                   AccessOptions const& ao) {
  Swizzle sw = swizzle_arg(ao);
  std::string atom_name = cfg.mma.atom.name;
  bool halves =
      atom_name.find("F16") != std::string::npos || atom_name.find("BF16") != std::string::npos;
  auto const& mma = cfg.mma;
  json thr = json::array();
  for (int64_t t = 0; t < mma.threads(); ++t) thr.push_back(to_string(mma.thread_vmnk(t)));
  json out = {
      {"kind", "mma"},
      {"name", cfg.name},
      {"atom", mma.atom.name},
      {"atom_mnk", {mma.atom.m, mma.atom.n, mma.atom.k}},
      {"atom_layout", cfg.atom_layout_text},
      {"permutation", cfg.permutation_text},
      {"perm_layouts", {to_string(mma.perm[0]), to_string(mma.perm[1]), to_string(mma.perm[2])}},
      {"tile", {cfg.tile[0], cfg.tile[1], cfg.tile[2]}},
      {"threads", mma.threads()},
      {"thr_vmnk", to_string(mma.thr_vmnk)},
      {"thread_coord", thr}};
  for (Operand op : {Operand::kC, Operand::kA, Operand::kB}) {
    json g = operand_grid(cfg, op);
    AccessSpec spec;
    // The catalog's element type of the operand; else 16-bit A/B for f16/bf16 atoms, 32 otherwise.
    int64_t typed = mma_operand_bits(atom_name, op);
    spec.elem_bits = ao.elem_bits ? ao.elem_bits
                     : typed      ? typed
                                  : (op != Operand::kC && halves ? 16 : 32);
    spec.store = ao.access.empty() ? op == Operand::kC : ao.access == "store";
    spec.max_vector_bits = ao.max_vector_bits;
    Layout tensor = cfg.tensor[int(op)];
    // A wgmma operand in shared memory is read through its descriptor by the warpgroup, not by
    // per-thread loads: no per-warp access analysis, its banks and descriptor instead.
    const bool by_descriptor = wgmma_smem_operand(atom_name, op);
    if (by_descriptor)
      g["access"] = {
          {"error",
           "wgmma reads this operand from shared memory through its descriptor, not with "
           "per-thread "
           "loads; the shared tile's banks and the descriptor fields are shown with it"}};
    else
      g["access"] = access_json(
          [&](Swizzle s) {
            return MmaAccess{mma, op, SwizzledLayout{s, 0, tensor}};
          },
          spec, sw, ao.space, g);
    // Steps 1-4 do not depend on the thread; step 5 is the thread's entry of g["layouts"].
    g["steps"] = explain_json(cfg, op, 0)["steps"];
    if (by_descriptor) g["smem"] = smem_json(cfg, op, ao, typed ? typed : spec.elem_bits);
    out["operands"].push_back(std::move(g));
  }
  out["compare"] = json::array();
  for (auto const& p : compare_perms) {
    json g;
    try {  // name the alternative in the message: its own partition may be the one rejected
      MmaConfig alt = mma_config(mma.atom.name, cfg.atom_layout_text, per_mode_permutation(p),
                                 cfg.tile[0], cfg.tile[1], cfg.tile[2]);
      alt.tensor[int(Operand::kC)] = cfg.tensor[int(Operand::kC)];
      g = operand_grid(alt, Operand::kC);
      g["steps"] = explain_json(alt, Operand::kC, 0)["steps"];
    } catch (std::exception const& e) {
      throw std::invalid_argument("render --compare-perm " + p + ": " + e.what());
    }
    g["title"] = "permutation " + p;
    out["compare"].push_back(std::move(g));
  }
  return out;
}

CopyAtom copy_atom_of(std::string const& spec, int64_t elem_bits) {
  std::string kind = spec.substr(0, spec.find(':'));
  std::string arg = spec.find(':') == std::string::npos ? "" : spec.substr(spec.find(':') + 1);
  CopyAtom atom;
  if (kind == "cp_async" || kind == "universal") {
    if (arg.empty() || arg.find_first_not_of("0123456789") != std::string::npos)
      throw std::invalid_argument("render: --copy " + spec +
                                  " needs a number, e.g. cp_async:16 (bytes) "
                                  "or universal:128 (bits)");
    int64_t n = std::stoll(arg);
    atom = kind == "cp_async" ? atom::cp_async(n, elem_bits) : atom::universal_copy(n, elem_bits);
  } else if (kind == "ldmatrix" && (arg == "x1" || arg == "x2" || arg == "x4" || arg == "x1t" ||
                                    arg == "x2t" || arg == "x4t")) {
    atom = atom::ldmatrix(arg[1] - '0', arg.size() == 3, elem_bits);
  } else if (std::optional<CopyAtom> found = catalog_copy_atom(spec, elem_bits)) {
    atom = *found;  // any copy atom of the catalog by CuTe's name, e.g. SM90_U16x8_STSM_T
  } else {
    throw std::invalid_argument(
        "render: " + unknown_atom_message("copy", spec, catalog_copy_names()) +
        "; or cp_async:4|8|16, universal:BITS, ldmatrix:x1|x2|x4[t]");
  }
  return atom;
}

json copy_page_data(CopySpec const& s, AccessOptions const& ao) {
  Swizzle sw = swizzle_arg(ao);
  CopyAtom atom = copy_atom_of(s.atom, s.elem_bits);
  if (s.thr.empty() || s.val.empty())
    throw std::invalid_argument("render --copy needs --thr and --val layouts");
  TiledCopy copy = make_tiled_copy_tv(atom, layout_arg(s.thr), layout_arg(s.val));
  IntTuple tiler = copy.tiler;
  if (tiler.rank() > 2)
    throw std::invalid_argument("render: the copy tile " + to_string(tiler) + " is not 2-D");
  if (tiler.is_int()) tiler = make_tuple(tiler.value(), int64_t(1));
  Layout tile(tiler);
  json out = {{"kind", "copy"},
              {"atom", atom.name},
              {"elem_bits", s.elem_bits},
              {"thr", s.thr},
              {"val", s.val},
              {"tile", to_string(tiler)},
              {"layout_tv", to_string(copy.layout_tv)},
              {"threads", copy.threads()}};
  for (bool dst : {false, true}) {
    std::string given = dst ? s.dst : s.src;
    Layout tensor = given.empty() ? tile : layout_arg(given);
    if (tensor.rank() != 2)
      throw std::invalid_argument("render: the copy tensor " + to_string(tensor) + " is not 2-D");
    Layout shape(make_tuple(tensor[0].size(), tensor[1].size()));
    std::string title = std::string(dst ? "destination" : "source") + " " + to_string(tensor);
    const Layout shape_frg = copy.tidfrg(shape, dst), tensor_frg = copy.tidfrg(tensor, dst);
    json g = ownership_grid(
        title, 'm', 'n', shape[0].size(), shape[1].size(), copy.threads(),
        [&](int64_t t) { return copy.slice(shape_frg, t); },
        [&](int64_t t) { return copy.slice(tensor_frg, t); });
    // The atom's width per thread and side is the widest access the copy can make.
    Layout side = dst ? atom.dst_tv : atom.src_tv;
    AccessSpec spec;
    spec.elem_bits = s.elem_bits;
    spec.store = ao.access.empty() ? dst : ao.access == "store";
    spec.max_vector_bits =
        std::min<int64_t>(128, (side.rank() >= 2 ? side[1].size() : 1) * s.elem_bits);
    g["access"] = access_json(
        [&](Swizzle z) {
          return CopyAccess{copy, SwizzledLayout{z, 0, tensor}, dst};
        },
        spec, sw, ao.space, g);
    out["operands"].push_back(std::move(g));
  }
  return out;
}

}  // namespace tessera::tools

namespace tessera::tools {
namespace {

std::string text_field(json const& s, char const* key, std::string const& fallback = "") {
  if (!s.contains(key) || s[key].is_null()) return fallback;
  if (!s[key].is_string())
    throw std::invalid_argument(std::string("page state: \"") + key + "\" is not a string");
  return s[key].get<std::string>();
}

int64_t int_field(json const& s, char const* key, int64_t fallback) {
  if (!s.contains(key) || s[key].is_null() ||
      (s[key].is_string() && s[key].get<std::string>().empty()))
    return fallback;
  if (s[key].is_number_integer()) return s[key].get<int64_t>();
  if (s[key].is_string()) {
    std::string t = s[key].get<std::string>();
    if (t.find_first_not_of("0123456789") == std::string::npos && t.size() < 12)
      return std::stoll(t);
  }
  throw std::invalid_argument(std::string("page state: \"") + key +
                              "\" is not a non-negative integer: " + s[key].dump());
}

AccessOptions access_of(json const& s) {
  AccessOptions a;
  a.space = text_field(s, "space", a.space);
  a.overlay = text_field(s, "overlay", a.overlay);
  a.elem_bits = int_field(s, "elem_bits", 0);
  a.swizzle = text_field(s, "swizzle");
  a.access = text_field(s, "access");
  a.max_vector_bits = int_field(s, "max_vector_bits", a.max_vector_bits);
  a.smem_swizzle = text_field(s, "smem_swizzle");
  a.smem_major = text_field(s, "smem_major");
  if (!a.smem_swizzle.empty() && a.smem_swizzle != "none" && a.smem_swizzle != "32B" &&
      a.smem_swizzle != "64B" && a.smem_swizzle != "128B")
    throw std::invalid_argument("the wgmma shared-memory swizzle is none, 32B, 64B or 128B, not " +
                                a.smem_swizzle);
  if (!a.smem_major.empty() && a.smem_major != "K" && a.smem_major != "MN")
    throw std::invalid_argument("the wgmma shared-memory major is K or MN, not " + a.smem_major);
  if (a.space != "global" && a.space != "shared")
    throw std::invalid_argument("space is global or shared, not " + a.space);
  if (a.overlay != "owner" && a.overlay != "bank" && a.overlay != "sector")
    throw std::invalid_argument("overlay is owner, bank or sector, not " + a.overlay);
  if (!a.access.empty() && a.access != "load" && a.access != "store")
    throw std::invalid_argument("access is load or store, not " + a.access);
  if (a.elem_bits &&
      (a.elem_bits < 8 || a.elem_bits > 128 || (a.elem_bits & (a.elem_bits - 1)) != 0))
    throw std::invalid_argument("the element size " + std::to_string(a.elem_bits) +
                                " bits is not a power of two from 8 to 128");
  if (a.max_vector_bits < 8)
    throw std::invalid_argument("the widest vector must be at least 8 bits");
  return a;
}

// The element size of a state's banks: "elem_bits", 16 where absent.
int64_t bank_bits(json const& s) {
  const int64_t b = int_field(s, "elem_bits", 16);
  if (b < 8 || b > 128 || (b & (b - 1)) != 0)
    throw std::invalid_argument("the element size " + std::to_string(b) +
                                " bits is not a power of two from 8 to 128");
  return b;
}

// How a state's layout or op pictures are coloured: "colour" (value, bank or tile).
void check_colour(json const& s) {
  const std::string c = text_field(s, "colour", "value");
  if (c != "value" && c != "bank" && c != "tile")
    throw std::invalid_argument("a picture is coloured by value, bank or tile, not " + c);
}

// A layout's colourings (render.hpp): per cell the bank of its offset at "elem_bits", and with
// a "tiler" the tile it assigns each element (element_tiles, as the divides' pictures).
void layout_colours(json& data, SwizzledLayout const& l, json const& s) {
  check_colour(s);
  const int64_t bits = bank_bits(s), rows = data["rows"], cols = data["cols"];
  std::vector<int64_t> const values = data["values"];
  std::vector<int64_t> bank(values.size());
  for (size_t i = 0; i < values.size(); ++i) bank[i] = smem_bank(values[i], bits);
  data["elem_bits"] = bits, data["bank"] = bank;
  const std::string tiler = text_field(s, "tiler");
  if (tiler.empty()) return;
  ElementTiles et;
  try {
    et = element_tiles(l.layout.shape, parse_tiler(tiler));
  } catch (tessera::Error const& e) {
    throw std::invalid_argument("the tiler " + tiler + " (colour by tile) of the layout " +
                                layout_notation(l) + ": " + e.what());
  }
  std::vector<int64_t> tile(size_t(rows * cols));
  for (int64_t r = 0; r < rows; ++r)
    for (int64_t c = 0; c < cols; ++c) tile[size_t(r * cols + c)] = et.tile[size_t(r + c * rows)];
  data["tiler"] = tiler, data["tile"] = tile, data["tiles"] = et.tiles;
}

// An op's pictures' banks at the state's "elem_bits": per picture "bank", per cell.
void op_banks(json& data, json const& s) {
  check_colour(s);
  const int64_t bits = bank_bits(s);
  data["elem_bits"] = bits;
  for (json& p : data["pictures"]) {
    std::vector<int64_t> bank;
    for (auto const& v : p["values"]) bank.push_back(smem_bank(v.get<int64_t>(), bits));
    p["bank"] = bank;
  }
}

// The attention kernel of a state: "kernel" and "head_dim" (the defaults where absent).
AttentionVariant attention_of(json const& s) {
  AttentionVariant v;
  v.kernel = text_field(s, "kernel", v.kernel);
  v.head_dim = int_field(s, "head_dim", v.head_dim);
  return v;
}

// The TiledMMA of a state: its preset, or its atom, atom layout, permutation and tile.
MmaConfig mma_of(json const& s) {
  if (text_field(s, "preset") == kAttentionPreset) return attention_config(attention_of(s), 'S');
  if (!text_field(s, "preset").empty()) return mma_preset(text_field(s, "preset"));
  json t = s.value("tile", json::array());
  if (!t.is_array() || t.size() != 3)
    throw std::invalid_argument(
        "a TiledMMA needs a preset, or an atom layout and a CTA tile M N K");
  int64_t mnk[3];
  for (int i = 0; i < 3; ++i) mnk[i] = int_field(json{{"t", t[i]}}, "t", 0);
  return mma_config(text_field(s, "atom", "UniversalFMA"), text_field(s, "atom_layout"),
                    text_field(s, "perm", "none"), mnk[0], mnk[1], mnk[2]);
}

// A list of integers of a state ("problem": [M, N, K], "cta": [m, n]); `n` entries.
std::vector<int64_t> ints_field(json const& s, const char* key, size_t n,
                                std::vector<int64_t> fallback) {
  if (!s.contains(key)) return fallback;
  json const& v = s[key];
  if (!v.is_array() || v.size() != n)
    throw std::invalid_argument(std::string("page state: ") + key + " needs " +
                                std::to_string(n) + " integers, got " + v.dump());
  std::vector<int64_t> out;
  for (auto const& x : v) out.push_back(int_field(json{{"x", x}}, "x", 0));
  return out;
}

// The thread trace (trace.hpp) of a state: a TiledMMA, "problem", "cta", "thread",
// "layout_A"/"layout_B"/"layout_C"; "k_tile" is the page's stepper, checked against the K-loop.
json trace_page_data(json const& s) {
  ProblemWords w;
  w.problem = ints_field(s, "problem", 3, {});
  if (w.problem.empty()) throw std::invalid_argument("a trace needs a problem M N K");
  w.cta = ints_field(s, "cta", 2, {0, 0});
  w.thread = int_field(s, "thread", 0);
  for (Operand op : {Operand::kC, Operand::kA, Operand::kB})
    w.layout[int(op)] = text_field(s, (std::string("layout_") + operand_name(op)).c_str());
  TraceInput in = trace_input(mma_of(s), w, "trace");
  if (int64_t(in.problem[0]) * in.problem[1] > (int64_t(1) << 20) ||
      int64_t(in.problem[2]) * std::max(in.problem[0], in.problem[1]) > (int64_t(1) << 20))
    throw std::invalid_argument("trace: the page draws problems of up to 2^20 elements per "
                                "operand (M*N, M*K, N*K); use `tessera trace` for larger ones");
  json d = trace_page_json(in);
  int64_t k = int_field(s, "k_tile", 0), k_tiles = d["k_loop"]["k_tiles"];
  if (k < 0 || k >= k_tiles)
    throw std::invalid_argument("trace: k_tile " + std::to_string(k) +
                                " is outside the K-loop [0, " + std::to_string(k_tiles) + ")");
  d["k_tile"] = k;
  d["initial_thread"] = in.thread;
  return d;
}

}  // namespace

json page_data(json const& s) {
  if (!s.is_object()) throw std::invalid_argument("page state: a JSON object, got " + s.dump());
  std::string kind = text_field(s, "kind", "layout");
  json data;
  if (kind == "layout") {
    const SwizzledLayout l = any_layout_arg(text_field(s, "layout"));
    data = layout_page_data(l);
    layout_colours(data, l, s);
  } else if (kind == "op") {
    std::string op = text_field(s, "op");
    json args = s.value("args", json::array());
    OpResult r = run_op(op, args);
    // The result's picture when it is a layout; an integer or a tuple is only the result line.
    std::optional<SwizzledLayout> picture = layout_of(r.value);
    data = picture ? layout_page_data(*picture) : json{{"rows", 0}, {"cols", 0}};
    data["kind"] = "op";
    data["op"] = op;
    data["args"] = args;
    data["result"] = r.result;
    data["note"] = r.note;
    try {  // the inputs beside the result, the cells tagged by tile (op_pictures.hpp)
      json pics = op_pictures(op, args, r);
      data["pictures"] = pics["pictures"];
      data["tiles"] = pics["tiles"];
      data["tile_kind"] = pics["tile_kind"];
    } catch (std::exception const& e) {
      data["pictures"] = json::array();
      data["pictures_error"] = e.what();
    }
    op_banks(data, s);
  } else if (kind == "mma") {
    std::vector<std::string> compare;
    for (auto const& p : s.value("compare", json::array())) compare.push_back(p.get<std::string>());
    MmaConfig cfg = mma_of(s);
    data = mma_page_data(cfg, compare, access_of(s));
    if (text_field(s, "preset") ==
        kHopperPreset) {  // kernel 05's shared tiles, wgmma descriptors and TMA boxes
      data["hopper"] = hopper_json();
      data["hopper_text"] = hopper_text(data["hopper"]);
    }
    if (text_field(s, "preset") == kAttentionPreset)  // S's rows and lanes, P as P V's A
      data["attention"] =
          attention_json(attention_of(s), std::max<int64_t>(0, int_field(s, "thread", 0)));
  } else if (kind == "trace") {
    return trace_page_data(s);
  } else if (kind == "copy") {
    CopySpec c;
    c.atom = text_field(s, "atom", c.atom);
    c.elem_bits = int_field(s, "elem_bits", c.elem_bits);
    c.thr = text_field(s, "thr"), c.val = text_field(s, "val"), c.src = text_field(s, "src"),
    c.dst = text_field(s, "dst");
    data = copy_page_data(c, access_of(s));
  } else {
    throw std::invalid_argument("page state: kind is layout, op, mma, trace or copy, not " +
                                kind);
  }
  int64_t thread = int_field(s, "thread", -1), warp = int_field(s, "warp", -1);
  if (thread >= 0) {
    if (!data.contains("threads") || thread >= data["threads"].get<int64_t>())
      throw std::invalid_argument(
          "thread " + std::to_string(thread) + " is not a thread of this page" +
          (data.contains("threads")
               ? " (threads 0 to " + std::to_string(data["threads"].get<int64_t>() - 1) + ")"
               : std::string(" (it has no threads)")));
    data["initial_thread"] = thread;
  }
  if (data.contains("operands")) {
    if (warp >= 0 && warp * 32 >= data["threads"].get<int64_t>())
      throw std::invalid_argument(
          "warp " + std::to_string(warp) + " is not a warp of this page (warps 0 to " +
          std::to_string((data["threads"].get<int64_t>() + 31) / 32 - 1) + ")");
    data["initial_overlay"] = access_of(s).overlay;
    data["initial_warp"] = warp < 0 ? 0 : warp;
  }
  return data;
}

}  // namespace tessera::tools
