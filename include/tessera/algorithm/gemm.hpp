// tessera/algorithm/gemm.hpp -- gemm: one k-block of a TiledMMA on register fragments.
#pragma once

#include "../fragment.hpp"
#include "../thr_mma.hpp"

namespace tessera {

namespace detail {
TESSERA_HD constexpr bool same_name(const char* a, const char* b) {
  while (*a && *a == *b) ++a, ++b;
  return *a == *b;
}
}  // namespace detail

// gemm(thr_mma, A, B, C): C += A B for one k-block with the configuration's instruction (MmaOp):
// A (V,M) and B (V,N) are the operand registers of the k-block (fragment(_, _, k)), C (V,M,N)
// the accumulators. One instruction per (m, n) atom, m walked backwards on odd n so that
// consecutive instructions share an operand (FMAs: register banks; MMAs: B fragments).
template <class Cfg, class A, class B, class C>
TESSERA_HD inline void gemm(ThrMMA<Cfg> const&, A const& a, B const& b, C& c) {
  using Op = mma_op_t<Cfg>;
  static_assert(detail::same_name(Op::atom().name, Cfg::kMma.atom.name),
                "gemm: the configuration's MmaOp is not the TiledMMA's atom (name a matching MmaOp)");
  constexpr int kM = int(A::size()) / Op::kA, kN = int(B::size()) / Op::kB;
  static_assert(kM * Op::kA == A::size() && kN * Op::kB == B::size() && C::size() == kM * kN * Op::kC,
                "gemm: the fragments are not (V,M) x (V,N) -> (V,M,N) of the instruction");
TESSERA_UNROLL
  for (int n = 0; n < kN; ++n)
TESSERA_UNROLL
    for (int i = 0; i < kM; ++i) {
      const int m = n % 2 ? kM - 1 - i : i;
      Op::fma(&c(Op::kC * (m + kM * n)), &a(Op::kA * m), &b(Op::kB * n));
    }
}

// gemm for a scalar-FMA TiledMMA on one k-block: C(m,n) += A(m) * B(n), the (V,M) and (V,N)
// fragments of A and B (V = 1) against C's (V,M,N), all compact.
template <class T, int NM, int NN>
TESSERA_HD constexpr void gemm(Fragment<T, NM * NN>& c, Fragment<T, NM> const& a, Fragment<T, NN> const& b) {
TESSERA_UNROLL
  for (int n = 0; n < NN; ++n)
TESSERA_UNROLL
    for (int m = 0; m < NM; ++m) c(m + NM * n) = fmaf(a(m), b(n), c(m + NM * n));
}

}  // namespace tessera
