// Must NOT compile: A holds 2 k-blocks, B 4.
#include "register_common.hpp"
void f() {
  const ThrMMA<Step1> thr{0};
  auto acc = make_fragment<float, "(1,8,8)"_tuple>();  // (V,M,N)
  auto a = make_fragment<float, "(1,8,2)"_tuple>();    // (V,M,K)
  auto b = make_fragment<float, "(1,8,4)"_tuple>();    // (V,N,K)
  gemm(thr, a, b, acc);
}
