// python/src/bind_layout.cpp -- Layout, Swizzle, SwizzledLayout and View as Python classes.
//
//   L = tessera.Layout("(4,3):(1,8)")        # or Layout((4,3), (1,8)); Layout((4,3)) is compact
//   str(L) == "(4,3):(1,8)"; L(5) == 9; L(1, 2) == L((1, 2)) == 17; L[1] == Layout("3:8")
#include <cstring>

#include <nanobind/operators.h>
#include <nanobind/stl/string.h>

#include "bindings.hpp"
#include "convert.hpp"

namespace tessera::py {

namespace {

uint64_t hash_nodes(IntTuple const& t, uint64_t h) {
  for (int i = 0; i < t.n; ++i) {
    h = (h ^ uint64_t(t.v[i]) ^ (uint64_t(t.tup[i]) << 63)) * 1099511628211ull;
  }
  return h;
}

Layout make_layout_of(nb::handle shape, nb::handle stride) {
  if (stride.is_none()) {
    if (nb::isinstance<Layout>(shape)) return *nb::inst_ptr<Layout>(shape);
    if (PyUnicode_Check(shape.ptr())) return layout_of(shape);
    return compact_of(
        int_tuple_of(shape, "Layout(shape, stride=None): shape is an int or a tuple of ints"));
  }
  return Layout(int_tuple_of(shape, "Layout(shape, stride): shape is an int or a tuple of ints"),
                int_tuple_of(stride, "Layout(shape, stride): stride is an int or a tuple of ints"));
}

// L(i), L(coord), L(i, j, ...): an integer goes through the colexicographic split, a tuple is a
// (nested) coordinate. Every sum and product is checked for overflow.
int64_t call_layout(Layout const& l, nb::args args) {
  if (args.size() == 0) throw nb::type_error("a Layout is called with a coordinate or an index");
  nb::handle a = args.size() == 1 ? args[0] : nb::handle(args);
  if (PyLong_Check(a.ptr())) {
    int64_t i = int_of(a, "a coordinate");
    if (i >= 0) return l.checked_at(i);
  }
  return l(
      checked_coordinate(int_tuple_of(a, "a coordinate is an int or a tuple of ints"), l.shape));
}

int mode_index(int k, int rank) {
  int i = k < 0 ? k + rank : k;
  if (i < 0 || i >= rank) {
    std::string m = "mode " + std::to_string(k) + " out of range for rank " + std::to_string(rank);
    throw nb::index_error(m.c_str());
  }
  return i;
}

void bind_layout_class(nb::module_& m) {
  auto layout = nb::class_<Layout>(
      m, "Layout", "A CuTe layout Shape:Stride, a function from coordinates to offsets.");
  layout_type = (PyTypeObject*)layout.ptr();
  layout
      .def(
          "__init__",
          [](Layout* self, nb::handle shape, nb::handle stride) {
            new (self) Layout(make_layout_of(shape, stride));
          },
          nb::arg("shape"), nb::arg("stride") = nb::none(),
          "Layout(\"(4,3):(1,8)\"), Layout((4,3), (1,8)), or Layout((4,3)) (compact column-major).")
      .def_prop_ro("shape", [](Layout const& l) { return py_of(l.shape); })
      .def_prop_ro("stride", [](Layout const& l) { return py_of(l.stride); })
      .def("size", &Layout::size, "Number of coordinates: the product of the shape.")
      .def("cosize", &Layout::cosize, "L(size - 1) + 1: the extent of the codomain.")
      .def("rank", &Layout::rank, "Number of top-level modes.")
      .def("depth", &Layout::depth, "Nesting depth of the shape (0 for an integer).")
      .def("__len__", &Layout::rank)
      .def("__call__", &call_layout)
      .def("__getitem__", [](Layout const& l, int k) { return l[mode_index(k, l.rank())]; })
      .def("__str__", &str_of<Layout>)
      .def("__repr__", [](Layout const& l) { return "Layout(\"" + to_string(l) + "\")"; })
      .def("__hash__",
           [](Layout const& l) {
             return int64_t(hash_nodes(l.stride, hash_nodes(l.shape, 1469598103934665603ull)) >> 1);
           })
      .def(nb::self == nb::self)
      .def(nb::self != nb::self)
      .def("__reduce__", [](Layout const& l) {
        return nb::make_tuple(nb::type<Layout>(), nb::make_tuple(to_string(l)));
      });
}

void bind_swizzle(nb::module_& m) {
  nb::class_<Swizzle>(m, "Swizzle",
                      "Sw<B,M,S>: XOR B bits at M+S.. into the bits at M.. of an offset.")
      .def(nb::init<int, int, int>(), nb::arg("bits"), nb::arg("base"), nb::arg("shift"))
      .def(
          "__init__",
          [](Swizzle* self, std::string const& s) { new (self) Swizzle(parse_swizzle(s)); },
          nb::arg("notation"))
      .def_ro("bits", &Swizzle::bits)
      .def_ro("base", &Swizzle::base)
      .def_ro("shift", &Swizzle::shift)
      .def("span", &Swizzle::span, "The offsets the swizzle permutes: [0, 2^(B+M+|S|)).")
      .def("__call__", [](Swizzle const& s, int64_t x) { return s(x); })
      .def("__str__", &str_of<Swizzle>)
      .def("__repr__", [](Swizzle const& s) { return "Swizzle(" + to_string(s) + ")"; })
      .def("__hash__", [](Swizzle const& s) { return (s.bits * 64 + s.base) * 128 + s.shift; })
      .def(nb::self == nb::self)
      .def(nb::self != nb::self)
      .def("__reduce__", [](Swizzle const& s) {
        return nb::make_tuple(nb::type<Swizzle>(), nb::make_tuple(s.bits, s.base, s.shift));
      });
}

void bind_swizzled_layout(nb::module_& m) {
  nb::class_<SwizzledLayout>(
      m, "SwizzledLayout",
      "Sw o offset o L: a layout, an offset, then a swizzle (CuTe's ComposedLayout).")
      .def(
          "__init__",
          [](SwizzledLayout* self, Swizzle const& s, int64_t offset, nb::handle l) {
            new (self) SwizzledLayout{s, offset, layout_of(l)};
          },
          nb::arg("swizzle"), nb::arg("offset"), nb::arg("layout"))
      .def(
          "__init__",
          [](SwizzledLayout* self, std::string const& s) {
            new (self) SwizzledLayout(parse_swizzled_layout(s));
          },
          nb::arg("notation"))
      .def_ro("swizzle", &SwizzledLayout::swizzle)
      .def_ro("offset", &SwizzledLayout::offset)
      .def_ro("layout", &SwizzledLayout::layout)
      .def("size", &SwizzledLayout::size)
      .def("rank", &SwizzledLayout::rank)
      .def("__call__",
           [](SwizzledLayout const& s, nb::args args) {
             return s.swizzle(s.offset + call_layout(s.layout, args));
           })
      .def("__str__", &str_of<SwizzledLayout>)
      .def("__repr__",
           [](SwizzledLayout const& s) { return "SwizzledLayout(\"" + to_string(s) + "\")"; })
      .def(nb::self == nb::self)
      .def(nb::self != nb::self)
      .def("__hash__",
           [](SwizzledLayout const& s) { return nb::hash(nb::str(to_string(s).c_str())); })
      .def("__reduce__", [](SwizzledLayout const& s) {
        return nb::make_tuple(nb::type<SwizzledLayout>(), nb::make_tuple(to_string(s)));
      });
}

void bind_view(nb::module_& m) {
  nb::class_<View>(m, "View",
                   "A partition or a tile: an offset and the layout of its elements from there.")
      .def(nb::init<>())
      .def(
          "__init__",
          [](View* self, int64_t offset, nb::handle l) {
            new (self) View{offset, layout_of(l)};
          },
          nb::arg("offset"), nb::arg("layout"))
      .def_ro("offset", &View::offset)
      .def_ro("layout", &View::layout)
      .def("size", [](View const& v) { return v.layout.size(); })
      .def("__call__",
           [](View const& v, nb::args args) { return v.offset + call_layout(v.layout, args); })
      .def("__str__",
           [](View const& v) { return std::to_string(v.offset) + " + " + to_string(v.layout); })
      .def("__repr__",
           [](View const& v) {
             return "View(" + std::to_string(v.offset) + ", \"" + to_string(v.layout) + "\")";
           })
      .def(
          "__eq__",
          [](View const& a, View const& b) { return a.offset == b.offset && a.layout == b.layout; },
          nb::is_operator())
      .def("__hash__", [](View const& v) {
        return nb::hash(nb::str((std::to_string(v.offset) + to_string(v.layout)).c_str()));
      });
}

}  // namespace

void bind_layout(nb::module_& m) {
  bind_layout_class(m);
  bind_swizzle(m);
  bind_swizzled_layout(m);
  bind_view(m);
}

}  // namespace tessera::py
