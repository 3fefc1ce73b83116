// python/src/bind_layout.cpp -- Layout, Swizzle, SwizzledLayout and View as Python classes.
//
//   L = tessera.Layout("(4,3):(1,8)")        # or Layout((4,3), (1,8)); Layout((4,3)) is compact
//   str(L) == "(4,3):(1,8)"; L(5) == 9; L(1, 2) == L((1, 2)) == 17; L[1] == Layout("3:8")
#include <cstring>

#include <nanobind/operators.h>
#include <nanobind/stl/string.h>

#include "bindings.hpp"
#include "convert.hpp"
#include "docs.hpp"

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

// The first integer entry of `crd` (its subtree at node ci) past the extent of its mode (the
// shape's subtree at node si: an integer entry over a nested mode is split over all of it), or -1
// when every entry is in range. A coordinate that does not match the modes is left to crd2idx.
int entry_past_extent(IntTuple const& crd, int ci, IntTuple const& shape, int si, int64_t& extent) {
  if (crd.tup[ci]) {
    if (!shape.tup[si] || shape.v[si] != crd.v[ci]) return -1;
    for (int k = 0; k < crd.v[ci]; ++k) {
      int c = crd.child_node(ci, k), s = shape.child_node(si, k);
      int bad = entry_past_extent(crd, c, shape, s, extent);
      if (bad >= 0) return bad;
    }
    return -1;
  }
  extent = 1;
  for (int i = si, e = shape.subtree_end(si); i < e; ++i)
    if (!shape.tup[i]) extent *= shape.v[i];
  return crd.v[ci] < extent ? -1 : ci;
}

// L(i), L(coord), L(i, j, ...): an integer goes through the colexicographic split, a tuple is a
// (nested) coordinate. A layout is a function on its domain, as CuTe defines it: an index in
// [0, size), a coordinate entry in [0, extent of its mode); past it is an IndexError naming the
// layout (crd2idx keeps CuTe's linear extension). Every sum and product is checked for overflow.
// `self` is the object called (a Layout, a SwizzledLayout or a View), named in the message.
int64_t call_layout(Layout const& l, nb::args args, nb::handle self) {
  if (args.size() == 0) throw nb::type_error("a Layout is called with a coordinate or an index");
  nb::handle a = args.size() == 1 ? args[0] : nb::handle(args);
  auto name = [&] { return nb::cast<std::string>(nb::str(self)); };
  if (PyLong_Check(a.ptr())) {
    int64_t i = int_of(a, "a coordinate");
    if (i >= l.size()) {
      std::string m = "index " + std::to_string(i) + " is out of range for the layout " + name() +
                      " of size " + std::to_string(l.size()) + ": its indices run from 0 to " +
                      std::to_string(l.size() - 1);
      throw nb::index_error(m.c_str());
    }
    if (i >= 0) return l.checked_at(i);
  }
  IntTuple crd =
      checked_coordinate(int_tuple_of(a, "a coordinate is an int or a tuple of ints"), l.shape);
  int64_t extent = 0;
  int bad = entry_past_extent(crd, 0, l.shape, 0, extent);
  if (bad >= 0) {
    Text t;
    t << "coordinate " << crd << " is out of range for the layout " << name().c_str()
      << ": its entry " << crd.v[bad] << " is past the extent " << extent
      << " of its mode; the coordinates of " << l.shape << " run from 0 to extent - 1 in each mode";
    throw nb::index_error(t.c_str());
  }
  return l(crd);
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
          nb::arg("shape"), nb::arg("stride") = nb::none(), SIG_DOC(layout_init))
      .def_prop_ro(
          "shape", [](Layout const& l) { return py_of(l.shape); },
          nb::sig("def shape(self) -> IntTuple"), "The shape, as nested tuples of ints.")
      .def_prop_ro(
          "stride", [](Layout const& l) { return py_of(l.stride); },
          nb::sig("def stride(self) -> IntTuple"), "The stride, as nested tuples of ints.")
      .def("size", &Layout::size, "Number of coordinates: the product of the shape.")
      .def("cosize", &Layout::cosize, "L(size - 1) + 1: the extent of the codomain.")
      .def("rank", &Layout::rank, "Number of top-level modes.")
      .def("depth", &Layout::depth, "Nesting depth of the shape (0 for an integer).")
      .def("__len__", &Layout::rank)
      .def(
          "__call__",
          [](nb::handle self, nb::args args) {
            return call_layout(*nb::inst_ptr<Layout>(self), args, self);
          },
          SIG_DOC(layout_call))
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
          nb::arg("swizzle"), nb::arg("offset"), nb::arg("layout"),
          nb::sig("def __init__(self, swizzle: Swizzle, offset: int, layout: LayoutLike) -> None"))
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
           [](nb::handle self, nb::args args) {
             SwizzledLayout const& s = *nb::inst_ptr<SwizzledLayout>(self);
             return s.swizzle(s.offset + call_layout(s.layout, args, self));
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
          nb::arg("offset"), nb::arg("layout"),
          nb::sig("def __init__(self, offset: int, layout: LayoutLike) -> None"))
      .def_ro("offset", &View::offset)
      .def_ro("layout", &View::layout)
      .def("size", [](View const& v) { return v.layout.size(); })
      .def("__call__",
           [](nb::handle self, nb::args args) {
             View const& v = *nb::inst_ptr<View>(self);
             return v.offset + call_layout(v.layout, args, self);
           })
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
