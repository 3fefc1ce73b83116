// python/src/convert.hpp -- Python values <-> tessera values, shared by the binding files.
//
//   int 4, tuple (2,(3,4)), list [2,3]        -> IntTuple (shapes, strides, coordinates)
//   Layout, int n (n:1), "notation", tuple of  -> Tiler; in a tuple each entry is a Layout, an int,
//   entries (None or "_" keeps a mode)            a shape tuple (its compact layout), or None
//   tuple with None entries                    -> TileCoord (local_tile's coord and proj)
//
// Wrong Python types raise TypeError naming the argument; rejected values raise tessera.Error
// from the library with its own message.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include <nanobind/nanobind.h>
#include <ops.hpp>
#include <stdexcept>
#include <tessera.hpp>

namespace tessera::py {

namespace nb = nanobind;

[[noreturn]] inline void type_error(const char* what, nb::handle got) {
  std::string msg = std::string(what) + ", got " + nb::cast<std::string>(nb::repr(got));
  throw nb::type_error(msg.c_str());
}

inline std::string_view text_of(nb::handle h) {
  Py_ssize_t n = 0;
  const char* s = PyUnicode_AsUTF8AndSize(h.ptr(), &n);
  if (!s) throw nb::python_error();
  return {s, size_t(n)};
}

inline int64_t int_of(nb::handle h, const char* what) {
  if (!PyLong_Check(h.ptr())) type_error(what, h);
  int overflow = 0;
  long long v = PyLong_AsLongLongAndOverflow(h.ptr(), &overflow);
  if (overflow) {
    Text t;
    t << what << ": " << nb::cast<std::string>(nb::repr(h)).c_str() << " does not fit in 64 bits";
    fail(t);
  }
  return int64_t(v);
}

// Appends the preorder nodes of a (nested) tuple or list of integers to `t`: no intermediate
// tuples.
inline void append_nodes(IntTuple& t, nb::handle h, const char* what) {
  if (t.n >= kMaxNodes) {
    Text m;
    m << "capacity: an integer tuple may hold at most " << kMaxNodes << " nodes";
    fail(m);
  }
  PyObject* p = h.ptr();
  if (PyLong_Check(p)) {
    t.tup[t.n] = false;
    t.v[t.n++] = int_of(h, what);
    return;
  }
  if (!PyTuple_Check(p) && !PyList_Check(p)) type_error(what, h);
  int at = t.n++;
  t.tup[at] = true;
  Py_ssize_t k = PySequence_Fast_GET_SIZE(p);
  if (k == 0)
    fail("an empty tuple () is not an integer tuple: every mode holds at least one integer");
  PyObject** items = PySequence_Fast_ITEMS(p);
  for (Py_ssize_t i = 0; i < k; ++i) append_nodes(t, items[i], what);
  t.v[at] = k;
}

// An integer, a (nested) tuple or list of integers, or its notation "(2,(3,4))".
inline IntTuple int_tuple_of(nb::handle h,
                             const char* what = "expected an int or a tuple of ints") {
  PyObject* p = h.ptr();
  if (PyLong_Check(p)) return IntTuple(int_of(h, what));
  if (PyTuple_Check(p) || PyList_Check(p)) {
    IntTuple t;
    t.n = 0;
    append_nodes(t, h, what);
    return t;
  }
  if (PyUnicode_Check(p)) return parse_int_tuple(text_of(h));
  type_error(what, h);
}

// Coordinates are never negative (as the CLI checks them); past the extent is CuTe's extension.
inline IntTuple const& checked_coordinate(IntTuple const& crd, IntTuple const& shape) {
  for (int i = 0; i < crd.n; ++i) {
    if (!crd.tup[i] && crd.v[i] < 0) {
      Text t;
      t << "crd2idx: coordinate " << crd << " has a negative entry; the coordinates of " << shape
        << " run from 0 to extent - 1 in each mode";
      fail(t);
    }
  }
  return crd;
}

// The compact column-major layout of a shape, through the checked constructor: an extent below 1
// is an error here, as the parser makes it one (the library's Layout(shape) trusts its caller).
inline Layout compact_of(IntTuple const& shape) { return Layout(shape, prefix_product(shape)); }

inline nb::object py_of(IntTuple const& t, int& i) {
  if (!t.tup[i]) return nb::steal(PyLong_FromLongLong(t.v[i++]));
  int k = int(t.v[i++]);
  nb::object r = nb::steal(PyTuple_New(k));
  for (int j = 0; j < k; ++j) PyTuple_SET_ITEM(r.ptr(), j, py_of(t, i).release().ptr());
  return r;
}
// An IntTuple as a Python int or nested tuple of ints.
inline nb::object py_of(IntTuple const& t) {
  int i = 0;
  return py_of(t, i);
}

// The Python type of tessera.Layout, set by bind_layout: an exact type check is one comparison,
// and layouts are the arguments of almost every call.
inline PyTypeObject* layout_type = nullptr;

inline bool is_layout(nb::handle h) {
  return Py_TYPE(h.ptr()) == layout_type || nb::isinstance<Layout>(h);
}

inline bool is_keep(nb::handle h) {
  return h.is_none() || (PyUnicode_Check(h.ptr()) && text_of(h) == "_");
}

// A Layout argument: a Layout, or its notation or C++ spelling (a shape alone means the compact
// layout).
inline Layout layout_of(nb::handle h,
                        const char* what = "expected a tessera.Layout or its notation") {
  if (is_layout(h)) return *nb::inst_ptr<Layout>(h);
  if (PyUnicode_Check(h.ptr())) {
    // CuTe's C++ spellings ("Layout<Shape<_4,_8>,Stride<_8,_1>>") as their notation first: a
    // shape alone (no ':') is the compact layout; C++'s bare integers are run-time (as the CLI's).
    std::string_view given = text_of(h);
    if (tools::is_swizzled(std::string(given)))
      throw std::invalid_argument(
          std::string(given) + " is a swizzled layout (Sw<B,M,S> o offset o L, CuTe's " +
          "ComposedLayout); a Layout is plain: read it as SwizzledLayout(\"" + std::string(given) +
          "\") or make_layout(\"" + std::string(given) + "\")");
    bool cpp = is_cpp_spelling(given);
    std::string s = from_cpp_spelling(given);
    if (s.find(':') == std::string::npos) return compact_of(parse_int_tuple(s, cpp));
    return parse_layout(s, cpp);
  }
  type_error(what, h);
}

// A SwizzledLayout, or the notation of one (tessera's "Sw<3,4,3> o 0 o (8,64):(64,1)", CuTe's
// "Sw<3,4,3> o _0 o (8,64):(64,1)" or the short "Sw<3,4,3> o (8,64):(64,1)"); nullopt otherwise.
inline std::optional<SwizzledLayout> swizzled_of(nb::handle h) {
  if (nb::isinstance<SwizzledLayout>(h)) return *nb::inst_ptr<SwizzledLayout>(h);
  if (PyUnicode_Check(h.ptr()) && tools::is_swizzled(std::string(text_of(h))))
    return tools::any_layout_arg(std::string(text_of(h)));
  return std::nullopt;
}

// A Layout argument without a copy when it is a Layout: `LayoutArg l(h); f(l.get())`, or passed
// straight to a function taking a Layout const& (it lives to the end of the full expression).
class LayoutArg {
 public:
  explicit LayoutArg(nb::handle h, const char* what = "expected a tessera.Layout or its notation") {
    if (is_layout(h)) {
      p_ = nb::inst_ptr<Layout>(h);
    } else {
      own_.emplace(layout_of(h, what));
      p_ = &*own_;
    }
  }
  LayoutArg(LayoutArg const&) = delete;
  LayoutArg& operator=(LayoutArg const&) = delete;
  Layout const& get() const { return *p_; }
  operator Layout const&() const { return *p_; }

 private:
  std::optional<Layout> own_;
  Layout const* p_;
};

// A layout argument that may be given as a shape, where a plain shape means its compact layout
// (CuTe's make_layout(shape)): a Layout, its notation, an int n (n:1) or a tuple of ints
// ((2,3) -> (2,3):(1,2)). The blocks and tilers of blocked_product / raked_product and the
// tensors of partition_* take it.
inline Layout layout_or_shape_of(nb::handle h, const char* what) {
  PyObject* p = h.ptr();
  if (PyLong_Check(p) || PyTuple_Check(p) || PyList_Check(p))
    return compact_of(int_tuple_of(h, what));
  return layout_of(h, what);
}

// One entry of a by-mode tiler: a layout, an integer n (n:1) or a shape (its compact layout).
inline Layout tiler_entry_of(nb::handle h) {
  if (is_layout(h)) return *nb::inst_ptr<Layout>(h);
  PyObject* p = h.ptr();
  if (PyLong_Check(p) || PyTuple_Check(p) || PyList_Check(p))
    return compact_of(int_tuple_of(h, "a tiler entry is a Layout, an int, a shape tuple or None"));
  if (PyUnicode_Check(p)) return layout_of(h);
  type_error("a tiler entry is a Layout, an int, a shape tuple or None", h);
}

inline Tiler tiler_of(nb::handle h) {
  if (is_layout(h)) return Tiler(*nb::inst_ptr<Layout>(h));
  PyObject* p = h.ptr();
  // Shapes as CuTe's compact layouts (make_col_major: an extent-1 mode has stride 0), checked
  // first by compact_of (a zero extent is an error).
  if (PyLong_Check(p)) {
    IntTuple n(int_of(h, "tiler"));
    compact_of(n);
    return Tiler(n);
  }
  if (PyUnicode_Check(p)) return parse_tiler(text_of(h));
  if (PyTuple_Check(p) || PyList_Check(p)) {
    Tiler t;
    t.by_mode = true;
    t.n = 0;
    for (nb::handle x : h) {
      PyObject* e = x.ptr();
      if (is_keep(x)) {
        t.add(_);
      } else if (PyLong_Check(e) || PyTuple_Check(e) || PyList_Check(e)) {
        IntTuple shape =
            int_tuple_of(x, "a tiler entry is a Layout, an int, a shape tuple or None");
        compact_of(shape);
        t.add_shape(shape);  // a tuple shape is a nested by-mode tiler, as in C++
      } else {
        t.add(tiler_entry_of(x));
      }
    }
    return t;
  }
  type_error(
      "a tiler is a Layout, an int, a tuple of Layouts / ints / shapes / None, or its notation", h);
}

// local_tile's coord and proj: ints and None (None: keep all tiles / drop the mode).
inline TileCoord tile_coord_of(nb::handle h, const char* what) {
  TileCoord c;
  if (!PyTuple_Check(h.ptr()) && !PyList_Check(h.ptr())) type_error(what, h);
  for (nb::handle x : h) {
    if (is_keep(x))
      c.add(_);
    else
      c.add(int_of(x, what));
  }
  return c;
}

template <class T>
std::string str_of(T const& x) {
  return to_string(x);
}

}  // namespace tessera::py
