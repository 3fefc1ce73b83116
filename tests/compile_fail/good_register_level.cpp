// Must compile: the register-level cases of bad_gemm_*, bad_fragment_slice, bad_register_view,
// bad_acc_as_operand and bad_row_reduction with valid operands.
#include "register_common.hpp"
float f() {
  const ThrMMA<Step1> thr{0};
  auto acc = make_fragment<float, "(1,8,8)"_tuple>();
  auto a = make_fragment<float, "(1,8,2)"_tuple>();
  auto b = make_fragment<float, "(1,8,2)"_tuple>();
  clear(acc), clear(a), clear(b);
  gemm(thr, a, b, acc);                                                   // two k-blocks
  gemm(thr, a(_, _, std::integral_constant<int, 1>{}), b(_, _, 1), acc);  // one
  auto v = make_tensor<"(4,4):(1,4)"_layout>(a.data());
  const ThrMMA<WarpsM> thr_s{0};
  auto s = make_fragment<float, "((2,2),1,8)"_tuple>();  // (V,M,N) of a 64x64 tile
  clear(s);
  constexpr LaneShuffles kRow = acc_row_shuffles<WarpsM, decltype(s)>();
  static_assert(kRow.n == 2 && kRow.xor_mask[0] == 1 && kRow.xor_mask[1] == 2);
  auto mx = reduce<1>(acc_rowcol(thr_s, s), [](float x, float y) { return x > y ? x : y; });
  return v(3, 3) + acc_as_A<WarpsM>(thr_s, s)(0, 0, 3) + mx(1);
}
