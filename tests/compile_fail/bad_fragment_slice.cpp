// Must NOT compile: k-block 2 of a fragment holding k-blocks 0 and 1.
#include "register_common.hpp"
float f() {
  auto a = make_fragment<float, "(1,8,2)"_tuple>();  // (V,M,K)
  clear(a);
  return a(_, _, std::integral_constant<int, 2>{})(0);
}
