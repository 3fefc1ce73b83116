// Must NOT compile: step 4's warps along N hold different columns of the accumulator but, as the
// A operand (which spans no N), the same elements: no thread-local view exists.
#include "register_common.hpp"
float f() {
  const ThrMMA<Step4> thr{0};
  auto acc = make_fragment<float, "((2,2),2,4)"_tuple>();  // (V,M,N) of a 64x64 tile
  clear(acc);
  return acc_as_A<Step4>(thr, acc)(0);
}
