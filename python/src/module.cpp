// python/src/module.cpp -- tessera._tessera, the compiled half of the Python package.
//
// Every rejected operation raises tessera.Error (a ValueError) with the library's message: the
// rule and the operands, e.g. "complement: (2,2):(1,1) is not injective: ...".
#include <stdexcept>

#include "bindings.hpp"
#include "convert.hpp"

NB_MODULE(_tessera, m) {
  namespace nb = nanobind;
  m.doc() = "tessera: CuTe's layout algebra as plain C++ values (the compiled part of the package)";
  // Lives as long as the process (a static nb::object would be released after the interpreter).
  static PyObject* error = PyErr_NewExceptionWithDoc(
      "tessera.Error",
      "An operation tessera (like CuTe) rejects; the message names the rule and the operands.",
      PyExc_ValueError, nullptr);
  if (!error) throw nb::python_error();
  m.attr("Error") = nb::handle(error);
  nb::register_exception_translator([](std::exception_ptr const& p, void*) {
    try {
      std::rethrow_exception(p);
    } catch (tessera::Error const& e) {
      PyErr_SetString(error, e.what());
    } catch (std::invalid_argument const& e) {
      PyErr_SetString(error, e.what());
    }
  });
  tessera::py::bind_layout(m);
  tessera::py::bind_algebra(m);
  tessera::py::bind_tiled(m);
  tessera::py::bind_pages(m);
  tessera::py::bind_ops(m);  // after bind_algebra: it adds the ops not bound there
}
