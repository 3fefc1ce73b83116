// python/src/bind_tiled.cpp -- MMA and copy atoms, TiledMMA, TiledCopy, explain and analyze.
//
//   mma = tessera.make_tiled_mma("UniversalFMA", (16,16,1), ("(16,4):(4,1)", "(16,4):(4,1)", None),
//                                tile=(128,128,8))
//   mma.partition_C(tessera.Layout("(128,128):(128,1)"), 0)
//       # View 0 + (1,(4,2),(4,2)):(0,(128,8192),(1,64))
//   print(mma.explain_text("C", 0))   # the five derivation steps
#include <nanobind/stl/pair.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/tuple.h>

#include "analyze_report.hpp"
#include "atom_names.hpp"
#include <map>

#include "bindings.hpp"
#include "convert.hpp"
#include "docs.hpp"
#include "tiled.hpp"
#include "trace.hpp"

namespace tessera::py {

namespace {

using tools::MmaConfig;

// The tensors of partition_* and thrfrg: a shape alone is its compact layout, as CuTe's
// partition_shape_C / partition_fragment_C take a shape.
constexpr const char* kTensor =
    "a tensor is a Layout, a View (a tile), its notation or a shape (compact)";

// A partition of a tensor that may be a View (a tile of local_tile): the partition of its layout
// shifted by the tile's offset, so thr_mma.partition_C(gC) is the partition of the tile gC in the
// whole tensor, as CuTe's partition of a tile is.
template <class F>
View partition_of(nb::handle tensor, F const& partition) {
  if (!nb::isinstance<View>(tensor)) return partition(layout_or_shape_of(tensor, kTensor));
  View const& tile = *nb::inst_ptr<View>(tensor);
  View p = partition(tile.layout);
  p.offset = checked_add(p.offset, tile.offset);
  return p;
}

// An atom layout over (M,N,K): a Layout, its notation, or a shape (compact).
std::string atom_layout_text(nb::handle h) {
  if (PyTuple_Check(h.ptr()) || PyList_Check(h.ptr()) || PyLong_Check(h.ptr()))
    return to_string(compact_of(int_tuple_of(h, "make_tiled_mma: atom_layout")));
  return to_string(
      layout_of(h, "make_tiled_mma: atom_layout is a Layout, its notation or a shape tuple"));
}

MmaConfig make_mma(nb::handle atom, nb::handle atom_layout, nb::handle permutation,
                   nb::handle tile) {
  std::string name = nb::isinstance<PyMmaAtom>(atom) ? nb::inst_ptr<PyMmaAtom>(atom)->key
                                                     : nb::cast<std::string>(atom);
  std::string layout = atom_layout_text(atom_layout);
  Tiler perm;
  std::string perm_text = "none";
  if (!permutation.is_none()) {
    perm = tiler_of(permutation);
    if (!perm.by_mode)
      throw std::invalid_argument(
          "make_tiled_mma: the permutation needs one entry per mode (M,N,K): " + to_string(perm));
    perm_text = to_string(perm);
  }
  int64_t mnk[3] = {1, 1, 1};
  if (tile.is_none()) {
    // The TiledMMA's own tile: one pass of its atoms over M, N and K (an unknown atom is reported
    // by mma_config below).
    MmaAtom a;
    std::optional<MmaAtom> found = tools::catalog_mma_atom(name);
    if (mma_atom_by_name(name.substr(0, name.find('<')).c_str(), a) ||
        (found && (a = *found, true))) {
      TiledMMA t = make_tiled_mma(a, parse_layout(layout), perm);
      for (int i = 0; i < 3; ++i) mnk[i] = t.tile_size(i);
    }
  } else {
    IntTuple t = int_tuple_of(tile, "make_tiled_mma: tile is (M, N, K)");
    if (t.rank() != 3 || depth(t) != 1)
      throw std::invalid_argument("make_tiled_mma: tile " + to_string(t) + " is not (M, N, K)");
    for (int i = 0; i < 3; ++i) mnk[i] = t[i].value();
  }
  return tools::mma_config(name, layout, perm_text, mnk[0], mnk[1], mnk[2]);
}

MmaConfig with_tensors(MmaConfig cfg, nb::handle c, nb::handle a, nb::handle b) {
  if (!c.is_none()) cfg.tensor[int(Operand::kC)] = layout_of(c);
  if (!a.is_none()) cfg.tensor[int(Operand::kA)] = layout_of(a);
  if (!b.is_none()) cfg.tensor[int(Operand::kB)] = layout_of(b);
  return cfg;
}

Layout tensor_or(MmaConfig const& cfg, Operand op, nb::handle tensor) {
  return tensor.is_none() ? cfg.tensor[int(op)] : layout_of(tensor);
}

MemSpace space_of(std::string const& s) {
  if (s == "global") return MemSpace::kGlobal;
  if (s == "shared") return MemSpace::kShared;
  throw std::invalid_argument("analyze: space '" + s + "': expected \"global\" or \"shared\"");
}

std::string access_of(nb::handle h) {
  if (h.is_none()) return "";
  std::string s = nb::cast<std::string>(h);
  if (s != "load" && s != "store")
    throw std::invalid_argument("analyze: access '" + s + "': expected \"load\" or \"store\"");
  return s;
}

Swizzle swizzle_of(nb::handle h) {
  if (h.is_none()) return Swizzle();
  if (nb::isinstance<Swizzle>(h)) return *nb::inst_ptr<Swizzle>(h);
  return parse_swizzle(nb::cast<std::string>(h));
}

// (JSON, text) of a report: the Python side wraps them in tessera.AccessReport.
std::pair<std::string, std::string> report_of(AccessReport const& r) {
  return {tools::report_json(r).dump(), tools::report_text(r)};
}

void bind_atoms(nb::module_& m) {
  nb::class_<PyMmaAtom>(m, "MmaAtom", "One MMA instruction: its shape and thread-value layouts.")
      .def(
          "__init__",
          [](PyMmaAtom* self, std::string const& name) {
            PyMmaAtom a;
            if (!mma_atom_by_name(name.c_str(), a.atom)) {
              std::optional<MmaAtom> found =
                  tools::catalog_mma_atom(name);  // any atom of `tessera atoms`
              if (!found)
                throw std::invalid_argument(
                    tools::unknown_atom_message("MMA", name, tools::catalog_mma_names()));
              a.atom = *found;
            }
            a.key = name;
            new (self) PyMmaAtom(a);
          },
          nb::arg("name"))
      .def_prop_ro("name", [](PyMmaAtom const& a) { return std::string(a.atom.name); })
      .def_prop_ro("shape_mnk",
                   [](PyMmaAtom const& a) { return nb::make_tuple(a.atom.m, a.atom.n, a.atom.k); })
      .def_prop_ro("thr_id", [](PyMmaAtom const& a) { return a.atom.thr_id; })
      .def_prop_ro("layout_a_tv", [](PyMmaAtom const& a) { return a.atom.a_tv; })
      .def_prop_ro("layout_b_tv", [](PyMmaAtom const& a) { return a.atom.b_tv; })
      .def_prop_ro("layout_c_tv", [](PyMmaAtom const& a) { return a.atom.c_tv; })
      .def("__repr__",
           [](PyMmaAtom const& a) { return "MmaAtom(\"" + std::string(a.atom.name) + "\")"; });

  nb::class_<PyCopyAtom>(m, "CopyAtom",
                         "One copy instruction: its thread-value layouts (in elements).")
      .def(
          "__init__",
          [](PyCopyAtom* self, std::string const& spec, int64_t elem_bits) {
            new (self) PyCopyAtom{tools::copy_atom_of(spec, elem_bits), spec};
          },
          nb::arg("spec"), nb::arg("elem_bits") = 32,
          "CopyAtom(\"cp_async:16\" | \"universal:128\" | \"ldmatrix:x4\" | \"ldmatrix:x4t\", "
          "elem_bits=32)")
      .def_prop_ro("name", [](PyCopyAtom const& a) { return std::string(a.atom.name); })
      .def_prop_ro("spec", [](PyCopyAtom const& a) { return a.spec; })
      .def_prop_ro("elem_bits", [](PyCopyAtom const& a) { return a.atom.elem_bits; })
      .def_prop_ro("layout_src_tv", [](PyCopyAtom const& a) { return a.atom.src_tv; })
      .def_prop_ro("layout_dst_tv", [](PyCopyAtom const& a) { return a.atom.dst_tv; })
      .def_prop_ro("layout_ref_tv", [](PyCopyAtom const& a) { return a.atom.ref_tv; })
      .def("__repr__", [](PyCopyAtom const& a) {
        return "CopyAtom(\"" + a.spec + "\", elem_bits=" + std::to_string(a.atom.elem_bits) + ")";
      });
}

// The TiledMMA's parts: atom, thread layout, permutation, tile and the operand tensors.
void def_mma_parts(nb::class_<MmaConfig>& mma) {
  mma.def_prop_ro("name", [](MmaConfig const& c) { return c.name; })
      .def_prop_ro("atom",
                   [](MmaConfig const& c) {
                     PyMmaAtom a{c.mma.atom, c.mma.atom.name};
                     return a;
                   })
      .def_prop_ro("atom_layout", [](MmaConfig const& c) { return c.atom_layout_text; })
      .def_prop_ro("permutation_text", [](MmaConfig const& c) { return c.permutation_text; })
      .def_prop_ro("thr_layout_vmnk", [](MmaConfig const& c) { return c.mma.thr_vmnk; })
      .def_prop_ro("permutation_mnk",
                   [](MmaConfig const& c) {
                     return nb::make_tuple(c.mma.perm[0], c.mma.perm[1], c.mma.perm[2]);
                   })
      .def_prop_ro(
          "tile_mnk",
          [](MmaConfig const& c) { return nb::make_tuple(c.tile[0], c.tile[1], c.tile[2]); })
      .def(
          "size", [](MmaConfig const& c) { return c.mma.threads(); }, "Number of threads.")
      .def(
          "tile_size_mnk",
          [](MmaConfig const& c, int mode) {
            if (mode < 0 || mode > 2) throw nb::index_error("mode is 0 (M), 1 (N) or 2 (K)");
            return c.mma.tile_size(mode);
          },
          nb::arg("mode"), "The extent one pass of the atoms covers in M (0), N (1) or K (2).")
      .def(
          "tensor",
          [](MmaConfig const& c, std::string const& op) { return c.tensor[int(operand_of(op))]; },
          nb::arg("operand"), "The operand's tensor layout the pictures, explain and analyze use.")
      .def("with_tensors", &with_tensors, nb::arg("C") = nb::none(), nb::arg("A") = nb::none(),
           nb::arg("B") = nb::none(),
           nb::sig("def with_tensors(self, C: LayoutLike | None = None, A: LayoutLike | None = "
                   "None, B: LayoutLike | None = None) -> TiledMMA"),
           "A copy whose operand tensors are the given layouts.")
      .def("__repr__", [](MmaConfig const& c) {
        return "TiledMMA(" + std::string(c.mma.atom.name) + ", atom_layout " + c.atom_layout_text +
               ", permutation " + c.permutation_text + ", tile " + std::to_string(c.tile[0]) + "x" +
               std::to_string(c.tile[1]) + "x" + std::to_string(c.tile[2]) + ", " +
               std::to_string(c.mma.threads()) + " threads)";
      });
}

// A thread's coordinates and its partitions of a tensor.
void def_mma_partitions(nb::class_<MmaConfig>& mma) {
  mma.def(
         "thread_vmnk", [](MmaConfig const& c, int64_t t) { return py_of(c.mma.thread_vmnk(t)); },
         nb::arg("thread"), SIG_DOC(thread_vmnk))
      .def(
          "partition",
          [](MmaConfig const& c, std::string const& op, nb::handle t, int64_t thread) {
            return partition_of(
                t, [&](Layout const& l) { return c.mma.partition(operand_of(op), l, thread); });
          },
          nb::arg("operand"), nb::arg("tensor"), nb::arg("thread"), SIG_DOC(partition))
      .def(
          "partition_C",
          [](MmaConfig const& c, nb::handle t, int64_t thread) {
            return partition_of(t, [&](Layout const& l) { return c.mma.partition_C(l, thread); });
          },
          nb::arg("tensor"), nb::arg("thread"), SIG_DOC(partition_C))
      .def(
          "partition_A",
          [](MmaConfig const& c, nb::handle t, int64_t thread) {
            return partition_of(t, [&](Layout const& l) { return c.mma.partition_A(l, thread); });
          },
          nb::arg("tensor"), nb::arg("thread"), SIG_DOC(partition_A))
      .def(
          "partition_B",
          [](MmaConfig const& c, nb::handle t, int64_t thread) {
            return partition_of(t, [&](Layout const& l) { return c.mma.partition_B(l, thread); });
          },
          nb::arg("tensor"), nb::arg("thread"), SIG_DOC(partition_B))
      .def(
          "thrfrg",
          [](MmaConfig const& c, std::string const& op, nb::handle t) {
            return c.mma.thrfrg(operand_of(op), layout_or_shape_of(t, kTensor));
          },
          nb::arg("operand"), nb::arg("tensor"), SIG_DOC(thrfrg))
      .def(
          "partitioner",
          [](MmaConfig const& c, std::string const& op, nb::handle t) {
            ThreadPartition p = c.mma.partitioner(operand_of(op), layout_or_shape_of(t, kTensor));
            return nb::make_tuple(p.thread, p.fragment);
          },
          nb::arg("operand"), nb::arg("tensor"), SIG_DOC(partitioner));
}

// explain, analyze and the thread trace: the JSON and text the Python side wraps.
void def_mma_reports(nb::class_<MmaConfig>& mma) {
  mma.def(
         "_explain_json",
         [](MmaConfig const& c, std::string const& op, int64_t thread, nb::handle tensor) {
           MmaConfig cfg = c;
           Operand o = operand_of(op);
           cfg.tensor[int(o)] = tensor_or(c, o, tensor);
           cfg.mma.thread_vmnk(thread);  // the thread's range check, before the derivation
           return tools::explain_json(cfg, o, thread).dump();
         },
         nb::arg("operand"), nb::arg("thread"), nb::arg("tensor") = nb::none())
      .def(
          "explain_text",
          [](MmaConfig const& c, std::string const& op, int64_t thread, nb::handle tensor) {
            MmaConfig cfg = c;
            Operand o = operand_of(op);
            cfg.tensor[int(o)] = tensor_or(c, o, tensor);
            cfg.mma.thread_vmnk(thread);
            return tools::explain_text(cfg, o, thread);
          },
          nb::arg("operand") = "C", nb::arg("thread") = 0, nb::arg("tensor") = nb::none(),
          nb::sig("def explain_text(self, operand: str = 'C', thread: int = 0, "
                  "tensor: LayoutLike | None = None) -> str"),
          "The derivation of a thread's fragment, as `tessera explain` prints it.")
      .def(
          "_analyze",
          [](MmaConfig const& c, std::string const& op, nb::handle tensor, std::string const& space,
             nb::handle access, int64_t elem_bits, nb::handle swizzle, int64_t max_vector_bits) {
            Operand o = operand_of(op);
            AccessSpec spec = tools::mma_access_spec(c, o, elem_bits, access_of(access),
                                                     space_of(space), max_vector_bits);
            return report_of(
                analyze(MmaAccess{c.mma, o,
                                  SwizzledLayout{swizzle_of(swizzle), 0, tensor_or(c, o, tensor)}},
                        spec));
          },
          nb::arg("operand"), nb::arg("tensor").none(), nb::arg("space"), nb::arg("access").none(),
          nb::arg("elem_bits"), nb::arg("swizzle").none(), nb::arg("max_vector_bits"))
      .def(
          "_trace_json",
          [](MmaConfig const& c, int64_t m, int64_t n, int64_t k, std::string const& a,
             std::string const& b, std::string const& cc, int64_t cta_m, int64_t cta_n,
             int64_t thread) {
            // One thread of one CTA through the GEMM on a problem (tools/trace.hpp): JSON and text.
            tools::TraceInput in;
            in.cfg = c;
            in.problem[0] = m, in.problem[1] = n, in.problem[2] = k;
            in.cta[0] = cta_m, in.cta[1] = cta_n;
            in.thread = thread;
            std::string text[3] = {cc, a, b};  // C, A, B
            if (m > 0 && n > 0 && k > 0)
              for (int i = 0; i < 3; ++i)
                in.layout[i] = tools::operand_layout(text[i], Operand(i), in.problem);
            nlohmann::json j = tools::trace_json(in);
            return std::make_pair(j.dump(), tools::trace_text(j));
          },
          nb::arg("m"), nb::arg("n"), nb::arg("k"), nb::arg("a"), nb::arg("b"), nb::arg("c"),
          nb::arg("cta_m"), nb::arg("cta_n"), nb::arg("thread"));
}

void bind_tiled_mma(nb::module_& m) {
  nb::class_<MmaConfig> mma(
      m, "TiledMMA",
      "An MMA atom tiled over threads, with the CTA tile and operand tensors its pictures use.");
  def_mma_parts(mma);
  def_mma_partitions(mma);
  def_mma_reports(mma);
  m.def("make_tiled_mma", &make_mma, nb::arg("atom"),
        nb::arg("atom_layout") = nb::make_tuple(1, 1, 1), nb::arg("permutation") = nb::none(),
        nb::arg("tile") = nb::none(),
        "make_tiled_mma(atom, atom_layout=(1,1,1), permutation=None, tile=None). permutation: one "
        "entry per "
        "mode (M,N,K), a Layout, an int or None; tile: the CTA tile (M,N,K) for pictures (default: "
        "one pass).");
  m.def(
      "_mma_preset",
      [](std::string const& name) {
        // Each preset by what it is; the attention preset keeps the library's own name.
        static const std::map<std::string, std::string> kLabels = {
            {"step1", "the step 1 kernel: UniversalFMA, 16x16 threads"},
            {"step4", "the step 4 kernel: mma.sync m16n8k16, 2x2 warps"},
            {"hopper", "the Hopper kernel: wgmma m64n256k16, two consumer warpgroups"}};
        MmaConfig c = tools::mma_preset(name);
        if (auto it = kLabels.find(name); it != kLabels.end()) c.name = it->second;
        return c;
      },
      nb::arg("name"));
}

void bind_tiled_copy(nb::module_& m) {
  nb::class_<PyTiledCopy>(m, "TiledCopy",
                          "A copy atom tiled over threads: a (thread, value) -> tile layout.")
      .def_prop_ro("atom",
                   [](PyTiledCopy const& c) {
                     return PyCopyAtom{c.copy.atom, c.spec.atom};
                   })
      .def_prop_ro("layout_tv", [](PyTiledCopy const& c) { return c.copy.layout_tv; })
      .def_prop_ro(
          "tiler_mn", [](PyTiledCopy const& c) { return py_of(c.copy.tiler); },
          nb::sig("def tiler_mn(self) -> IntTuple"), "The tile the copy covers, (M,N).")
      .def(
          "size", [](PyTiledCopy const& c) { return c.copy.threads(); }, "Number of threads.")
      .def(
          "partition_S",
          [](PyTiledCopy const& c, nb::handle t, int64_t thread) {
            return partition_of(t, [&](Layout const& l) { return c.copy.partition_S(l, thread); });
          },
          nb::arg("tensor"), nb::arg("thread"), SIG_DOC(partition_S))
      .def(
          "partition_D",
          [](PyTiledCopy const& c, nb::handle t, int64_t thread) {
            return partition_of(t, [&](Layout const& l) { return c.copy.partition_D(l, thread); });
          },
          nb::arg("tensor"), nb::arg("thread"), SIG_DOC(partition_D))
      .def(
          "retile",
          [](PyTiledCopy const& c, nb::handle frag) {
            return retile(c.copy, layout_or_shape_of(frag, kTensor));
          },
          nb::arg("fragment"), SIG_DOC(retile))
      .def(
          "_analyze",
          [](PyTiledCopy const& c, bool dst, nb::handle tensor, std::string const& space,
             nb::handle access, nb::handle swizzle) {
            AccessSpec spec;
            spec.elem_bits = c.copy.atom.elem_bits;
            spec.space = space_of(space);
            std::string a = access_of(access);
            spec.store = a.empty() ? dst : a == "store";
            // The atom's width per thread on that side is the widest access the copy makes (as the
            // page).
            Layout side = dst ? c.copy.atom.dst_tv : c.copy.atom.src_tv;
            spec.max_vector_bits =
                std::min<int64_t>(128, (side.rank() >= 2 ? side[1].size() : 1) * spec.elem_bits);
            Layout t = tensor.is_none() ? Layout(c.copy.tiler) : layout_of(tensor);
            return report_of(
                analyze(CopyAccess{c.copy, SwizzledLayout{swizzle_of(swizzle), 0, t}, dst}, spec));
          },
          nb::arg("dst"), nb::arg("tensor").none(), nb::arg("space"), nb::arg("access").none(),
          nb::arg("swizzle").none())
      .def("__repr__", [](PyTiledCopy const& c) {
        return "TiledCopy(" + std::string(c.copy.atom.name) + ", layout_tv " +
               to_string(c.copy.layout_tv) + ", tile " + to_string(c.copy.tiler) + ")";
      });
}

// make_tiled_copy_tv (threads and values), make_tiled_copy_A/B/C (after a TiledMMA's operand).
void bind_copy_makers(nb::module_& m) {
  m.def(
      "make_tiled_copy_tv",
      [](PyCopyAtom const& atom, nb::handle thr, nb::handle val) {
        Layout t = PyTuple_Check(thr.ptr()) ? compact_of(int_tuple_of(thr)) : layout_of(thr);
        Layout v = PyTuple_Check(val.ptr()) ? compact_of(int_tuple_of(val)) : layout_of(val);
        PyTiledCopy c{make_tiled_copy_tv(atom.atom, t, v), {}};
        c.spec.atom = atom.spec;
        c.spec.elem_bits = atom.atom.elem_bits;
        c.spec.thr = to_string(t);
        c.spec.val = to_string(v);
        return c;
      },
      nb::arg("atom"), nb::arg("thr_layout"), nb::arg("val_layout"), SIG_DOC(make_tiled_copy_tv));
  const char* names[3] = {"make_tiled_copy_A", "make_tiled_copy_B", "make_tiled_copy_C"};
  const Operand ops[3] = {Operand::kA, Operand::kB, Operand::kC};
  for (int i = 0; i < 3; ++i) {
    Operand op = ops[i];
    m.def(
        names[i],
        [op](PyCopyAtom const& atom, MmaConfig const& mma) {
          PyTiledCopy c{make_tiled_copy(atom.atom, mma.mma, op), {}};
          c.spec.atom = atom.spec;
          c.spec.elem_bits = atom.atom.elem_bits;
          return c;
        },
        nb::arg("atom"), nb::arg("tiled_mma"), nb::sig(docs::make_tiled_copy_operand[i].sig),
        docs::make_tiled_copy_operand[i].text);
  }
}

}  // namespace

void bind_tiled(nb::module_& m) {
  bind_atoms(m);
  bind_tiled_mma(m);
  bind_tiled_copy(m);
  bind_copy_makers(m);
}

}  // namespace tessera::py
