// Must NOT compile: B holds 4 columns (N) where the accumulators have 8.
#include "register_common.hpp"
void f() {
  const ThrMMA<Step1> thr{0};
  auto acc = make_fragment<float, "(1,8,8)"_tuple>();  // (V,M,N)
  auto a = make_fragment<float, "(1,8)"_tuple>();      // (V,M)
  auto b = make_fragment<float, "(1,4)"_tuple>();      // (V,N): N = 4, not 8
  gemm(thr, a, b, acc);
}
