// python/src/bind_algebra.cpp -- every algebra op of the library as a Python function.
//
// Names and argument orders are CuTe's (and its DSL's): composition(A, B), complement(A, cotarget),
// logical_divide(A, tiler), blocked_product(A, B), crd2idx(coord, layout), idx2crd(idx, shape),
// local_tile(tensor, tiler, coord, proj). A tiler is a Layout, an int, a tuple of entries (Layout,
// int, shape tuple, or None to keep a mode) or its notation.
#include <nanobind/stl/string.h>

#include "bindings.hpp"
#include "convert.hpp"
#include "docs.hpp"

namespace tessera::py {

namespace {

using TilerOp = Layout (*)(Layout const&, Tiler const&);

constexpr const char* kProductOperand =
    "a product's operand is a Layout, its notation or a shape (its compact layout)";

// logical_divide / logical_product: a Layout tiler takes the direct overload.
template <Layout (*ByLayout)(Layout const&, Layout const&),
          Layout (*ByTiler)(Layout const&, Tiler const&)>
Layout split_op(nb::handle a, nb::handle t) {
  LayoutArg l(a);
  if (is_layout(t)) return ByLayout(l, *nb::inst_ptr<Layout>(t));
  return ByTiler(l, tiler_of(t));
}

template <TilerOp F>
void def_tiler_op(nb::module_& m, const char* name, docs::Doc const& doc) {
  m.def(
      name, [](nb::handle a, nb::handle t) { return F(LayoutArg(a), tiler_of(t)); },
      nb::arg("layout"), nb::arg("tiler"), nb::sig(doc.sig), doc.text);
}

nb::object composition_of(nb::handle a, nb::handle b) {
  if (nb::isinstance<Swizzle>(a))
    return nb::cast(composition(*nb::inst_ptr<Swizzle>(a), LayoutArg(b)));
  if (auto s = swizzled_of(a)) return nb::cast(composition(*s, tiler_of(b)));
  LayoutArg l(a);
  if (is_layout(b)) return nb::cast(composition(l, *nb::inst_ptr<Layout>(b)));
  return nb::cast(composition(l, tiler_of(b)));
}

// Making layouts, reading notation, and the ops that rewrite one layout (flatten, coalesce,
// filter, composition, complement, the inverses).
void bind_layout_ops(nb::module_& m) {
  m.def(
      "make_layout",
      [](nb::handle shape, nb::handle stride) -> nb::object {
        // A notation: a layout, a shape, or a swizzled layout in tessera's or CuTe's print
        // ("Sw<3,4,3> o _0 o (8,64):(64,1)", the short "Sw<3,4,3> o (8,64):(64,1)").
        if (stride.is_none() && PyUnicode_Check(shape.ptr())) {
          if (auto s = swizzled_of(shape)) return nb::cast(*s);
          return nb::cast(layout_of(shape));
        }
        if (stride.is_none())
          return nb::cast(
              compact_of(int_tuple_of(shape, "make_layout: shape is an int or a tuple of ints")));
        return nb::cast(
            Layout(int_tuple_of(shape, "make_layout: shape is an int or a tuple of ints"),
                   int_tuple_of(stride, "make_layout: stride is an int or a tuple of ints")));
      },
      nb::arg("shape"), nb::arg("stride") = nb::none(), SIG_DOC(make_layout));
  m.def("make_layout_modes", [](nb::args modes) {
    LayoutBuilder b;
    for (nb::handle x : modes) b.add(layout_of(x));
    return b.get();
  }, SIG_DOC(make_layout_modes));
  m.def(
      "parse_int_tuple", [](std::string const& s) { return py_of(parse_int_tuple(s)); },
      nb::arg("notation"), SIG_DOC(parse_int_tuple));
  m.def(
      "parse_tiler", [](std::string const& s) { return to_string(parse_tiler(s)); },
      nb::arg("notation"), SIG_DOC(parse_tiler));
  m.def(
      "flatten", [](nb::handle a) { return flatten(LayoutArg(a)); }, nb::arg("layout"),
      SIG_DOC(flatten));
  m.def("coalesce", [](nb::handle a, nb::handle profile) {
    LayoutArg l(a);
    return profile.is_none() ? coalesce(l)
                             : coalesce(l, int_tuple_of(profile, "coalesce: profile"));
  }, nb::arg("layout"), nb::arg("profile") = nb::none(),
        "Merge modes keeping the function; a tuple profile coalesces mode by mode.");
  m.def(
      "filter", [](nb::handle a) { return filter(LayoutArg(a)); }, nb::arg("layout"),
      SIG_DOC(filter));
  m.def("composition", &composition_of, nb::arg("a"), nb::arg("b"), SIG_DOC(composition));
  m.def("complement", [](nb::handle a, nb::handle cotarget) {
    return complement(LayoutArg(a), product(int_tuple_of(cotarget, "complement: cotarget")));
  }, nb::arg("layout"), nb::arg("cotarget") = 1, SIG_DOC(complement));
  m.def(
      "right_inverse", [](nb::handle a) { return right_inverse(LayoutArg(a)); }, nb::arg("layout"),
      SIG_DOC(right_inverse));
  m.def(
      "left_inverse", [](nb::handle a) { return left_inverse(LayoutArg(a)); }, nb::arg("layout"),
      SIG_DOC(left_inverse));
}

// The divides and the products.
void bind_divides_products(nb::module_& m) {
  m.def(
      "logical_divide",
      [](nb::handle a, nb::handle t) -> nb::object {
        if (auto s = swizzled_of(a)) return nb::cast(logical_divide(*s, tiler_of(t)));
        return nb::cast(split_op<logical_divide, logical_divide>(a, t));
      },
      nb::arg("layout"), nb::arg("tiler"), SIG_DOC(logical_divide));
  m.def(
      "zipped_divide",
      [](nb::handle a, nb::handle t) -> nb::object {
        if (auto s = swizzled_of(a)) return nb::cast(zipped_divide(*s, tiler_of(t)));
        return nb::cast(zipped_divide(LayoutArg(a), tiler_of(t)));
      },
      nb::arg("layout"), nb::arg("tiler"), SIG_DOC(zipped_divide));
  def_tiler_op<tiled_divide>(m, "tiled_divide", docs::tiled_divide);
  def_tiler_op<flat_divide>(m, "flat_divide", docs::flat_divide);
  m.def("logical_product", &split_op<logical_product, logical_product>, nb::arg("layout"),
        nb::arg("tiler"), SIG_DOC(logical_product));
  def_tiler_op<zipped_product>(m, "zipped_product", docs::zipped_product);
  def_tiler_op<tiled_product>(m, "tiled_product", docs::tiled_product);
  def_tiler_op<flat_product>(m, "flat_product", docs::flat_product);
  m.def(
      "blocked_product",
      [](nb::handle a, nb::handle b) {
        return blocked_product(layout_or_shape_of(a, kProductOperand),
                               layout_or_shape_of(b, kProductOperand));
      },
      nb::arg("a"), nb::arg("b"), SIG_DOC(blocked_product));
  m.def(
      "raked_product",
      [](nb::handle a, nb::handle b) {
        return raked_product(layout_or_shape_of(a, kProductOperand),
                             layout_or_shape_of(b, kProductOperand));
      },
      nb::arg("a"), nb::arg("b"), SIG_DOC(raked_product));
}

// Coordinates and indices, and the sizes of a layout or a shape.
void bind_coordinates(nb::module_& m) {
  m.def("crd2idx", [](nb::handle coord, nb::handle shape, nb::handle stride) {
    std::optional<LayoutArg> given;
    std::optional<Layout> made;
    if (stride.is_none()) given.emplace(shape);
    else
      made.emplace(int_tuple_of(shape, "crd2idx: shape"), int_tuple_of(stride, "crd2idx: stride"));
    Layout const& l = given ? given->get() : *made;
    return l(checked_coordinate(
        int_tuple_of(coord, "crd2idx: the coordinate is an int or a tuple of ints"), l.shape));
  }, nb::arg("coord"), nb::arg("layout"), nb::arg("stride") = nb::none(), SIG_DOC(crd2idx));
  m.def(
      "idx2crd",
      [](nb::handle idx, nb::handle shape) {
        IntTuple s = is_layout(shape) ? nb::inst_ptr<Layout>(shape)->shape
                                      : int_tuple_of(shape, "idx2crd: shape");
        int64_t i = int_of(idx, "idx2crd: the index is an int");
        if (i < 0) {
          Text t;
          t << "idx2crd: index " << i << " is negative; the indices of shape " << s
            << " run from 0 to " << product(s) - 1;
          fail(t);
        }
        return py_of(idx2crd(i, s));
      },
      nb::arg("idx"), nb::arg("shape"), SIG_DOC(idx2crd));
  m.def("size", [](nb::handle x) {
    if (is_layout(x)) return nb::inst_ptr<Layout>(x)->size();
    if (auto s = swizzled_of(x)) return s->size();
    return product(int_tuple_of(x, "size: a Layout or an int tuple"));
  }, nb::arg("x"));
  m.def(
      "cosize", [](nb::handle x) { return LayoutArg(x).get().cosize(); }, nb::arg("layout"),
      SIG_DOC(cosize));
  m.def("rank", [](nb::handle x) {
    if (is_layout(x)) return nb::inst_ptr<Layout>(x)->rank();
    return int_tuple_of(x, "rank: a Layout or an int tuple").rank();
  }, nb::arg("x"), SIG_DOC(rank));
  m.def("depth", [](nb::handle x) {
    if (is_layout(x)) return nb::inst_ptr<Layout>(x)->depth();
    return depth(int_tuple_of(x, "depth: a Layout or an int tuple"));
  }, nb::arg("x"), SIG_DOC(depth));
}

// Swizzles and swizzled layouts; local_tile (a CTA's tile of a tensor).
void bind_swizzles_tiles(nb::module_& m) {
  m.def(
      "make_swizzle", [](int b, int mm, int s) { return Swizzle(b, mm, s); }, nb::arg("bits"),
      nb::arg("base"), nb::arg("shift"), SIG_DOC(make_swizzle));
  m.def("make_composed_layout", [](Swizzle const& s, int64_t offset, nb::handle l) {
    return SwizzledLayout{s, offset, LayoutArg(l)};
  }, nb::arg("swizzle"), nb::arg("offset"), nb::arg("layout"), SIG_DOC(make_composed_layout));

  m.def(
      "local_tile",
      [](nb::handle l, nb::handle tiler, nb::handle coord, nb::handle proj) {
        TileCoord p = proj.is_none()
                          ? TileCoord{}
                          : tile_coord_of(proj, "local_tile: proj is a tuple of 1 and None");
        IntTuple shape = int_tuple_of(tiler, "local_tile: the tiler is a shape tuple");
        compact_of(shape);  // its extents are checked as a layout's
        TileCoord c = tile_coord_of(coord, "local_tile: coord is a tuple of ints and None");
        if (!nb::isinstance<View>(l)) return local_tile(LayoutArg(l), shape, c, p);
        // A tile of a tile (a View): the inner tile's offset adds the outer one's.
        View const& outer = *nb::inst_ptr<View>(l);
        View tile = local_tile(outer.layout, shape, c, p);
        tile.offset = checked_add(tile.offset, outer.offset);
        return tile;
      },
      nb::arg("layout"), nb::arg("tiler"), nb::arg("coord"), nb::arg("proj") = nb::none(),
      SIG_DOC(local_tile));
}

}  // namespace

void bind_algebra(nb::module_& m) {
  bind_layout_ops(m);
  bind_divides_products(m);
  bind_coordinates(m);
  bind_swizzles_tiles(m);
}

}  // namespace tessera::py
