// Must NOT compile: an (8,8) view of a fragment of 16 registers.
#include "register_common.hpp"
float f() {
  auto a = make_fragment<float, "(4,4)"_tuple>();
  clear(a);
  auto v = make_tensor<"(8,8):(1,8)"_layout>(a.data());
  return v(0);
}
