// tessera/algorithm/gemm.hpp -- gemm: one k-block (or several) of a TiledMMA on register fragments.
#pragma once

#include <type_traits>

#include "../fragment.hpp"
#include "../thr_mma.hpp"

namespace tessera {

namespace detail {
TESSERA_HD constexpr bool same_name(const char* a, const char* b) {
  while (*a && *a == *b) ++a, ++b;
  return *a == *b;
}
// Whether the n values of layout m lie in n consecutive registers, in order.
TESSERA_HD constexpr bool consecutive(Layout const& m, int64_t n) {
  if (m.size() != n) return false;
  for (int64_t i = 0; i < n; ++i)
    if (m(i) != m(0) + i) return false;
  return true;
}
// The registers of one instruction's operand (a rank-1 view of its kN values): in place where
// they are consecutive, else gathered into `tmp` (register moves once unrolled).
template <int kN, class V, class T>
TESSERA_HD inline T const* operand_registers(V const& v, T (&tmp)[kN]) {
  if constexpr (consecutive(V::kLayout, kN)) {
    return &v(0);
  } else {
TESSERA_UNROLL
    for (int i = 0; i < kN; ++i) tmp[i] = v(i);
    return tmp;
  }
}

// One instruction per (k, n, m), m walked backwards on odd n.
template <class Op, class A, class B, class C>
TESSERA_HD inline void gemm_atoms(A const& a, B const& b, C& c) {
  static constexpr Layout kA = A::kLayout, kB = B::kLayout, kC = C::kLayout;
  constexpr int kM = int(kC[1].size()), kN = int(kC[2].size());
  constexpr int kK = kA.rank() == 3 ? int(kA[2].size()) : 1;
TESSERA_UNROLL
  for (int k = 0; k < kK; ++k)
TESSERA_UNROLL
    for (int n = 0; n < kN; ++n)
TESSERA_UNROLL
      for (int i = 0; i < kM; ++i) {
        const int m = n % 2 ? kM - 1 - i : i;
        typename Op::AElement ta[Op::kA];
        typename Op::BElement tb[Op::kB];
        auto av = [&] {
          if constexpr (kA.rank() == 3)
            return a(_, m, k);
          else
            return a(_, m);
        }();
        auto bv = [&] {
          if constexpr (kB.rank() == 3)
            return b(_, n, k);
          else
            return b(_, n);
        }();
        Op::fma(&c(_, m, n)(0), operand_registers<Op::kA>(av, ta),
                operand_registers<Op::kB>(bv, tb));
      }
}
}  // namespace detail

// gemm(thr_mma, A, B, C): C += A B with the configuration's instruction (MmaOp) on fragments of
// its partition: A (V,M) and B (V,N) of one k-block (tCrA(_, _, k)) or A (V,M,K) and B (V,N,K)
// of K k-blocks, C (V,M,N) the accumulators. Mode 0 holds one instruction's values. Checked at
// compile time: the element types are the instruction's, A's M and B's N are C's, A and B have
// the same k-blocks, mode 0 is the instruction's (a fragment of another TiledMMA is not).
// One instruction per (m, n) atom, m walked backwards on odd n so that consecutive instructions
// share an operand (FMAs: register banks; MMAs: B fragments).
template <class Cfg, class A, class B, class C>
TESSERA_HD inline void gemm(ThrMMA<Cfg> const&, A const& a, B const& b, C&& c) {
  using Op = mma_op_t<Cfg>;
  using CF = std::remove_cvref_t<C>;
  static_assert(
      detail::same_name(Op::atom().name, Cfg::kMma.atom.name),
      "gemm: the configuration's MmaOp is not the TiledMMA's atom (name a matching MmaOp)");
  constexpr bool kTypes =
      std::is_same_v<std::remove_const_t<typename A::Element>, typename Op::AElement> &&
      std::is_same_v<std::remove_const_t<typename B::Element>, typename Op::BElement>;
  static_assert(kTypes,
                "gemm: the element type of A or B is not the instruction's (e.g. bf16 data through "
                "the f16 MMA)");
  static_assert(std::is_same_v<typename CF::Element, typename Op::CElement>,
                "gemm: the accumulators' element type is not the instruction's");
  static constexpr Layout kA = A::kLayout, kB = B::kLayout, kC = CF::kLayout;
  static_assert(kC.rank() == 3, "gemm: the accumulators must be (V,M,N)");
  static_assert(
      (kA.rank() == 2 && kB.rank() == 2) || (kA.rank() == 3 && kB.rank() == 3),
      "gemm: A and B must be one k-block, (V,M) and (V,N), or k-blocks, (V,M,K) and (V,N,K)");
  static_assert(kA[0].size() == Op::kA && kB[0].size() == Op::kB && kC[0].size() == Op::kC,
                "gemm: mode 0 of A, B and C must hold one instruction's values (a fragment of "
                "another TiledMMA?)");
  static_assert(kA[1].size() == kC[1].size(),
                "gemm: A's M (mode 1) is not the accumulators' M (mode 1)");
  static_assert(kB[1].size() == kC[2].size(),
                "gemm: B's N (mode 1) is not the accumulators' N (mode 2)");
  static_assert(kA.rank() == 2 || kA[2].size() == kB[2].size(),
                "gemm: A and B hold different numbers of k-blocks (mode 2)");
  static_assert(detail::consecutive(kC[0], Op::kC),
                "gemm: one instruction's accumulators must be consecutive registers");
  if constexpr (kTypes) detail::gemm_atoms<Op>(a, b, c);  // (else only the message above)
}

// gemm for scalar FMAs on one k-block: C(m,n) += A(m) * B(n), A (V,M) and B (V,N) with V = 1,
// C (V,M,N), element by element in index order.
template <class C, class A, class B>
TESSERA_HD constexpr void gemm(C&& c, A const& a, B const& b) {
  constexpr int NM = int(A::size()), NN = int(B::size());
  static_assert(std::remove_cvref_t<C>::size() == NM * NN,
                "gemm: the accumulators are not (V,M,N) of A's (V,M) and B's (V,N) (V = 1)");
TESSERA_UNROLL
  for (int n = 0; n < NN; ++n)
TESSERA_UNROLL
    for (int m = 0; m < NM; ++m) c(m + NM * n) = fmaf(a(m), b(n), c(m + NM * n));
}

}  // namespace tessera
