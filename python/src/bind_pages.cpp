// python/src/bind_pages.cpp -- the page of `tessera render` for a layout, a TiledMMA or a
// TiledCopy, and the data it draws (every number computed by the library, tools/render.cpp).
#include <nanobind/stl/string.h>

#include "bindings.hpp"
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

}  // namespace

// The page's inputs start with the object's own state (tools/render.hpp); the page is the static
// one (no WebAssembly in the package), showing `data`.
json layout_state(Layout const& l) { return {{"kind", "layout"}, {"layout", to_string(l)}}; }
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

void bind_pages(nb::module_& m) {
  m.def("_layout_page_data", [](nb::handle l) -> std::string {
    return tools::layout_page_data(SwizzledLayout{Swizzle(), 0, layout_of(l)}).dump();
  });
  m.def("_mma_page_data", [](tools::MmaConfig const& c) -> std::string {
    return tools::mma_page_data(c, {}).dump();
  });
  m.def("_copy_page_data", [](PyTiledCopy const& c) -> std::string { return copy_data(c).dump(); });
  m.def("_layout_page", [](nb::handle l) -> std::string {
    const Layout layout = layout_of(l);
    return tools::render_page(layout_state(layout),
                              tools::layout_page_data(SwizzledLayout{Swizzle(), 0, layout}),
                              tools::Playground{});
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
