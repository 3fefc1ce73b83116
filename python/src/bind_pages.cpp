// python/src/bind_pages.cpp -- the page of `tessera render` for a layout, a TiledMMA or a
// TiledCopy, and the data it draws (every number computed by the library, tools/render.cpp).
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include "bindings.hpp"
#include "grid_picture.hpp"
#include "latex.hpp"
#include "op_pictures.hpp"
#include "ops.hpp"
#include "convert.hpp"
#include "tiled.hpp"

namespace tessera::py {

namespace {

using nlohmann::json;

// What `tessera render --thread T` adds to the data (tools/verbs_render.cpp).
json with_view(json data, int64_t thread) {
  if (thread >= 0) {
    if (!data.contains("threads") || thread >= data["threads"].get<int64_t>())
      throw std::invalid_argument("render: thread " + std::to_string(thread) +
                                  " is not a thread of this page");
    data["initial_thread"] = thread;
  }
  if (data.contains("operands")) {
    data["initial_overlay"] = "owner";
    data["initial_warp"] = 0;
  }
  return data;
}

json copy_data(PyTiledCopy const& c) {
  if (c.spec.thr.empty())
    throw std::invalid_argument(
        "render: pictures of a TiledCopy need make_tiled_copy_tv (thread and value layouts)");
  return tools::copy_page_data(c.spec);
}

// A layout or a swizzled layout (CuTe's ComposedLayout), or the notation of either.
SwizzledLayout any_layout_of(nb::handle h) {
  if (nb::isinstance<SwizzledLayout>(h)) return nb::cast<SwizzledLayout>(h);
  if (PyUnicode_Check(h.ptr()) && tools::is_swizzled(std::string(text_of(h))))
    return tools::any_layout_arg(std::string(text_of(h)));
  return SwizzledLayout{Swizzle(), 0, layout_of(h)};
}

// A partition's data: a TiledMMA's (C, A, B) or a TiledCopy's (S, D).
json partition_data(nb::handle obj) {
  if (nb::isinstance<tools::MmaConfig>(obj))
    return tools::mma_page_data(nb::cast<tools::MmaConfig const&>(obj), {});
  return copy_data(nb::cast<PyTiledCopy const&>(obj));
}

// The pictures for slides and papers (grid_picture.hpp, latex.hpp): SVG and CuTe's print_latex.
void bind_pictures(nb::module_& m) {
  m.def("_layout_svg", [](nb::handle l) {
    return tools::picture_svg(tools::layout_picture(any_layout_of(l)));
  });
  m.def("_layout_latex", [](nb::handle l) {
    return tools::picture_latex(tools::layout_picture(any_layout_of(l)));
  });
  m.def("_tv_svg", [](nb::handle tv, int64_t rows, int64_t cols) {
    return tools::picture_svg(tools::tv_picture(layout_of(tv), rows, cols));
  });
  m.def("_tv_latex", [](nb::handle tv, int64_t rows, int64_t cols) {
    return tools::picture_latex(tools::tv_picture(layout_of(tv), rows, cols));
  });
  m.def("_partition_latex", [](nb::handle obj) {
    json d = partition_data(obj);
    return nb::isinstance<tools::MmaConfig>(obj) ? tools::mma_latex(d) : tools::copy_latex(d);
  });
  // Operand `index` of the partition's data (C, A, B or S, D), drawn with or without labels.
  m.def("_partition_svg", [](nb::handle obj, int index, int64_t label_cells) {
    json d = partition_data(obj);
    return tools::picture_svg(
        tools::owner_picture(d["operands"][index], d["threads"].get<int64_t>()), label_cells);
  });
}

}  // namespace

// The page's inputs start with the object's own state (tools/render.hpp); the page is the static
// one (no WebAssembly in the package), showing `data`.
json mma_state(tools::MmaConfig const& c) {
  return {{"kind", "mma"},
          {"atom", c.name},
          {"atom_layout", c.atom_layout_text},
          {"perm", c.permutation_text},
          {"tile", {c.tile[0], c.tile[1], c.tile[2]}}};
}
json copy_state(PyTiledCopy const& c) {
  return {{"kind", "copy"},    {"atom", c.spec.atom}, {"elem_bits", c.spec.elem_bits},
          {"thr", c.spec.thr}, {"val", c.spec.val},   {"src", c.spec.src},
          {"dst", c.spec.dst}};
}

// An algebra op drawn as `tessera render --op NAME --args ...` draws it: its inputs beside its
// result, the tiles coloured (op_pictures.hpp); `args` are the op's words, as its verb takes them.
static std::string op_svg_of(std::string const& op, std::vector<std::string> const& args) {
  const json words = args;
  const tools::OpResult r = tools::run_op(op, words);
  const json pictures = tools::op_pictures(op, words, r);
  std::string call = op + "(";
  for (size_t i = 0; i < args.size(); ++i) call += (i ? ", " : "") + args[i];
  return tools::op_svg(call + ") = " + r.result, pictures["pictures"]);
}

void bind_pages(nb::module_& m) {
  bind_pictures(m);
  m.def("_op_svg", &op_svg_of, nb::arg("op"), nb::arg("args"));
  // A layout's page data as the CLI's (page_data of its state: the colourings too).
  const auto layout_state = [](nb::handle l) -> nlohmann::json {
    return {{"kind", "layout"}, {"layout", tools::layout_notation(any_layout_of(l))}};
  };
  m.def("_layout_page_data", [layout_state](nb::handle l) -> std::string {
    return tools::page_data(layout_state(l)).dump();
  });
  m.def("_mma_page_data", [](tools::MmaConfig const& c) -> std::string {
    return tools::mma_page_data(c, {}).dump();
  });
  m.def("_copy_page_data", [](PyTiledCopy const& c) -> std::string { return copy_data(c).dump(); });
  m.def("_layout_page", [layout_state](nb::handle l) -> std::string {
    const nlohmann::json state = layout_state(l);
    return tools::render_page(state, tools::page_data(state), tools::Playground{});
  });
  m.def(
      "_mma_page",
      [](tools::MmaConfig const& c, int64_t thread) -> std::string {
        return tools::render_page(mma_state(c), with_view(tools::mma_page_data(c, {}), thread),
                                  tools::Playground{});
      },
      nb::arg("mma"), nb::arg("thread") = -1);
  m.def("_copy_page", [](PyTiledCopy const& c, int64_t thread) -> std::string {
    return tools::render_page(copy_state(c), with_view(copy_data(c), thread), tools::Playground{});
  }, nb::arg("copy"), nb::arg("thread") = -1);
}

}  // namespace tessera::py
