// tessera/algorithm/epilogue.hpp -- the epilogue: D = alpha * acc + beta * D through a predicated
// partition.
#pragma once

#include <cstdint>
#include <type_traits>

#include "../fragment.hpp"
#include "../tensor_view.hpp"

namespace tessera {

// The accumulators in groups of kGroup values: body(v0, a) with a[0..kGroup) holding values
// v0.. of acc.
// NOTE: a loop over the groups, not unrolled: the body uses a[i] with constant indices, then the
// values still to come move down by kGroup (register moves; a register array indexed at run time
// would go to local memory). Fully unrolled, 64-128 predicated read-modify-writes were the largest
// part of a kernel's cicc and ptxas time.
template <int kGroup, class F, class Body>
TESSERA_HD inline void for_each_group(F const& acc, Body const& body) {
  using T = std::remove_const_t<typename F::Element>;
  constexpr int N = int(F::size());
  T a[N];
TESSERA_UNROLL
  for (int v = 0; v < N; ++v) a[v] = acc(v);
TESSERA_NO_UNROLL
  for (int v0 = 0; v0 < N; v0 += kGroup) {
    body(v0, a);
TESSERA_UNROLL
    for (int i = 0; i + kGroup < N; ++i) a[i] = a[i + kGroup];
  }
}

// The epilogue: D(v) = alpha * acc(v) + beta * D(v) where pred(v) is inside the tensor; with
// beta == 0, D is not read (BLAS: it may hold NaN).
// axpby<128>: 16-byte stores where they are exact. The fragment's values must come in aligned
// runs along a mode (static: a static_assert names the rule); at run time that mode must have
// stride 1, the other strides and the pointer must keep each run 16-byte aligned, and the whole
// fragment must be inside the tensor (tested once per call), else it stores element by element.
// NOTE: opt-in, not automatic: the vector path's registers made step 2's kernel (capped at 128
// registers) spill 8 bytes.
template <int kStoreBits = 0, class F, class Dst, class Pred>
  requires requires { F::kCosize; }  // registers
  TESSERA_HD inline void axpby(float alpha, F const& acc, float beta, Dst const& d,
                               Pred const& pred) {
    using T = std::remove_const_t<typename F::Element>;
    constexpr int N = int(F::size());
    static_assert(kStoreBits == 0 || kStoreBits == 128,
                  "axpby: element stores (default) or axpby<128>");
    static_assert(Dst::size() == N && Pred::size() == N,
                  "axpby: fragment, destination and predicate sizes differ");
    constexpr int kGroup = N % 16 == 0 ? 16 : N;
    if constexpr (kStoreBits == 128) {
      using Out = typename Dst::Element;
      constexpr int kVec = int(16 / sizeof(Out));
      constexpr int kMode = aligned_runs_mode(coords_of(Dst::kSpec), kVec);
      static_assert(kMode >= 0 && kGroup % kVec == 0,
                    "axpby<128>: the fragment's values must come in runs of 16 bytes along one "
                    "mode of the tensor, "
                    "each starting at a multiple of 16 bytes");
      bool vec = d.stride(unit_coord<Dst::kRank>(kMode)) == 1 &&
                 reinterpret_cast<uintptr_t>(d.ptr) % 16 == 0 && pred.all_inside();
      TESSERA_UNROLL
      for (int j = 0; j < Dst::kRank; ++j)
        if (j != kMode) vec = vec && d.stride(unit_coord<Dst::kRank>(j)) % kVec == 0;
      if (vec) {
        struct alignas(16) Pack {
          Out x[kVec];
        };
        for_each_group<kGroup>(acc, [&](int v0, T const(&a)[N]) {
          TESSERA_UNROLL
          for (int i = 0; i < kGroup; i += kVec) {
            Pack* out = reinterpret_cast<Pack*>(&d(v0 + i));
            Pack r;
            if (beta != 0.0f) r = *out;
            TESSERA_UNROLL
            for (int e = 0; e < kVec; ++e)
              r.x[e] =
                  Out(beta == 0.0f ? alpha * a[i + e] : alpha * a[i + e] + beta * float(r.x[e]));
            *out = r;
          }
        });
        return;
      }
    }
    // Element by element, each under its predicate.
    using Out = std::remove_cvref_t<decltype(d(0))>;
    auto each = [&](auto const& test, auto const& update) {
      for_each_group<kGroup>(acc, [&](int v0, T const(&a)[N]) {
        TESSERA_UNROLL
        for (int i = 0; i < kGroup; ++i)
          if (test(v0 + i)) update(d(v0 + i), a[i]);
      });
    };
    auto inside = [&](int v) { return pred.inside(v); };
    if constexpr (kStoreBits == 128) {
      // axpby<128>'s fallback (edge tiles, unaligned C): one loop, reading C only where beta != 0
      // (BLAS: with beta = 0, C may hold NaN).
      each(inside, [&](Out& x, float a) {
        x = Out(beta == 0.0f ? alpha * a : alpha * a + beta * float(x));
      });
    } else {
      // A fragment wholly inside the tensor (every tile but the last row and column of tiles)
      // skips the per-element tests, and the two cases of beta are separate loops: straight-line
      // stores inside, predicated ones at the edges, no branch per element (the edge CTAs'
      // epilogue decides when a small GEMM ends: 04 at 1000^3 went from 0.92-0.96x its twin to
      // 0.98-1.02x). NOTE: not for axpby<128>, whose whole fragments take the vector path: the
      // four loops cost 03 (four instantiations per file) 1.4 s of compile time.
      auto every = [](int) { return true; };
      auto write = [&](Out& x, float a) { x = Out(alpha * a); };  // beta = 0: C not read
      auto blend = [&](Out& x, float a) { x = Out(alpha * a + beta * float(x)); };
      const bool whole = pred.all_inside();
      if (beta == 0.0f)
        whole ? each(every, write) : each(inside, write);
      else
        whole ? each(every, blend) : each(inside, blend);
    }
  }

}  // namespace tessera
