// python/src/bindings.hpp -- one function per binding file, called by module.cpp.
#pragma once

#include <nanobind/nanobind.h>

namespace tessera::py {
void bind_layout(nanobind::module_& m);   // Layout, Swizzle, SwizzledLayout, View
void bind_algebra(nanobind::module_& m);  // the algebra ops, tensors' local_tile
void bind_tiled(nanobind::module_& m);    // atoms, TiledMMA, TiledCopy, explain, analyze
void bind_pages(nanobind::module_& m);    // the page of `tessera render` and its data
void bind_ops(nanobind::module_& m);      // the op table: ops() and the ops not bound by hand
}  // namespace tessera::py
