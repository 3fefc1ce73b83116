// tessera/algorithm/copy_atoms.hpp -- copy with a TiledCopy's atom (copy.hpp includes it).
//
//   UniversalCopy of W bits   any two of global, shared, registers: vectors of exactly W bits
//   ldmatrix{.trans}          shared -> registers, 16-bit values: each lane addresses a 16-byte row
//   stmatrix{.trans}          registers -> shared, its mirror image (sm_90)
//   cp.async of 4, 8, 16 B    global -> shared, asynchronously (cp_async_commit / cp_async_wait
//                             are the caller's schedule); predicated: zero-filled outside
#pragma once

#include <cstdint>
#include <type_traits>

#include "../atom/copy.hpp"
#include "../thr_copy.hpp"
#include "copy_vector.hpp"

namespace tessera {
namespace detail {

// UniversalCopy: vectors of exactly the atom's width, checked on both sides.
template <class Cfg, class P, class S, class D>
TESSERA_HD inline void atom_vector_copy(P const& pred, S const& src, D& dst) {
  static constexpr CopyAtom kAtom = Cfg::kCopy.atom;
  constexpr int64_t n = kAtom.values();
  check_sizes<S, D>();
  static_assert(
      int64_t(sizeof(element_of<S>)) * 8 == kAtom.elem_bits &&
          int64_t(sizeof(element_of<D>)) * 8 == kAtom.elem_bits,
      "rule::copy_element_size_differs_from_the_atom: copy: the tensors' elements are not the "
      "atom's element size");
  static_assert(
      std::remove_cvref_t<S>::size() % n == 0,
      "rule::vector_elements_are_not_consecutive: copy: the values are not a whole number of "
      "the atom's vectors");
  check_vector_side<S, n, true>();
  check_vector_side<D, n, false>();
  debug_check_aligned<n>(src, dst);
  copy_groups<n, (n > 1)>(pred, src, dst);
}

// ldmatrix / stmatrix: the shared side's values, 8 per atom row, must be 16 contiguous bytes
// from a 16-byte boundary, not split by the swizzle. A k-major operand's rows run along K; an
// MN-major one's along M or N, which the .trans atom reads.
template <class Sh>
TESSERA_HD constexpr void check_matrix_rows() {
  using X = std::remove_cvref_t<Sh>;
  static_assert(
      side_of<X> == CopySide::kShared,
      "rule::ldmatrix_rows_are_16_contiguous_bytes: copy: ldmatrix and stmatrix address shared "
      "memory (partition_S/D of a static-layout tile)");
  static_assert(
      sizeof(element_of<X>) == 2,
      "rule::ldmatrix_moves_16_bit_elements: copy: ldmatrix and stmatrix move 16-bit values");
  static_assert(
      shared_vector_fault(X::kLayout, X::kSwizzle, 8, X::kAligned) == VectorFault::kOk,
      "rule::ldmatrix_rows_are_16_contiguous_bytes: copy: each lane's ldmatrix/stmatrix row must "
      "be 8 consecutive 16-bit elements of the shared tile from a 16-byte boundary, not split by "
      "its swizzle (an MN-major tile needs the .trans atom)");
}

// The registers of one atom, packed in 32-bit pairs (a fragment of 32-bit registers holds them
// as they are; one of 16-bit values, two per register, low first).
template <int kRegs, class F>
TESSERA_HD inline void pack_regs(F const& f, int64_t v0, uint32_t (&r)[kRegs]) {
  using T = element_of<F>;
  if constexpr (sizeof(T) == 4) {
    TESSERA_UNROLL
    for (int i = 0; i < kRegs; ++i) r[i] = reinterpret_cast<uint32_t const&>(f(v0 + i));
  } else {
    TESSERA_UNROLL
    for (int i = 0; i < kRegs; ++i) {
      Pack<T, 2> p{{f(v0 + 2 * i), f(v0 + 2 * i + 1)}};
      r[i] = reinterpret_cast<uint32_t const&>(p);
    }
  }
}
template <int kRegs, class F>
TESSERA_HD inline void unpack_regs(uint32_t const (&r)[kRegs], F& f, int64_t v0) {
  using T = element_of<F>;
  if constexpr (sizeof(T) == 4) {
    TESSERA_UNROLL
    for (int i = 0; i < kRegs; ++i) f(v0 + i) = reinterpret_cast<T const&>(r[i]);
  } else {
    TESSERA_UNROLL
    for (int i = 0; i < kRegs; ++i) {
      auto const& p = reinterpret_cast<Pack<T, 2> const&>(r[i]);
      f(v0 + 2 * i) = p.x[0];
      f(v0 + 2 * i + 1) = p.x[1];
    }
  }
}

template <class Cfg, bool kLoad, class Sh, class F>
TESSERA_HD inline void matrix_copy(Sh const& sh, F& f) {
  static constexpr CopyAtom kAtom = Cfg::kCopy.atom;
  constexpr bool kTrans = kAtom.op == CopyOp::kLdsmTrans || kAtom.op == CopyOp::kStsmTrans;
  check_matrix_rows<Sh>();
  constexpr int64_t kValues = kAtom.values();  // 16-bit values per lane and atom
  constexpr int kRegs = int(kValues / 2);      // .x1 / .x2 / .x4
  using R = element_of<F>;
  static_assert(
      side_of<F> == CopySide::kRegisters && (sizeof(R) == 4 || sizeof(R) == 2),
      "rule::ldmatrix_moves_16_bit_elements: copy: ldmatrix/stmatrix registers hold 16-bit "
      "values or 32-bit pairs of them");
  constexpr int64_t kPerAtom = sizeof(R) == 4 ? kRegs : kValues;
  static_assert(
      Sh::size() % kValues == 0 && Sh::size() / kValues * kPerAtom == F::size(),
      "rule::copy_sizes_differ: copy: the registers must hold exactly the ldmatrix/stmatrix "
      "values of the shared tile");
  debug_require(
      reinterpret_cast<uintptr_t>(&sh(0)) % 16 == 0,
      "rule::ldmatrix_rows_are_16_contiguous_bytes: copy: a shared row is not 16-byte aligned");
  TESSERA_UNROLL
  for (int64_t c = 0; c < Sh::size() / kValues; ++c) {
    uint32_t r[kRegs];
#if defined(__CUDA_ARCH__)
    if constexpr (kLoad) {
      ptx::ldmatrix<kRegs, kTrans>(r, &sh(c * kValues));
      unpack_regs<kRegs>(r, f, c * kPerAtom);
    } else {
      pack_regs<kRegs>(f, c * kPerAtom, r);
      ptx::stmatrix<kRegs, kTrans>(&sh(c * kValues), r);
    }
#else
    (void)r;
    fail("copy: ldmatrix and stmatrix run on the device only");
#endif
  }
}

// cp.async: global -> shared, every element inside the tensor (P = NoPred) or zero-filled
// outside it (pred). A vector straddling the tensor's edge reads its leading elements inside
// (they run along the contiguous mode: inside is monotone).
// NOTE: the source address is passed whether or not it is inside: a cp.async of 0 source bytes
// reads nothing (as CuTe's zero-fill atoms do); a select between two addresses became branches.
// NOTE: an unswizzled destination's values lie at static offsets from its pointer, so the copy
// takes the pointer's shared address once, opaque (detail::opaque), and adds a constant per
// value. Without that, NVVM's rematerialization recomputed the thread's offset into the tile
// (from threadIdx) inside the k-loop of every caller, with the copy predicates' residues.
#if defined(__CUDA_ARCH__)
// x as computed here: an empty asm the compiler cannot see through, so it keeps the value in a
// register instead of recomputing it from its inputs where it is used (it may still hoist it).
__device__ __forceinline__ uint32_t opaque(uint32_t x) {
  asm("" : "+r"(x));
  return x;
}
#endif
template <class Cfg, class P, class S, class D>
TESSERA_HD inline void cp_async_copy(P const& pred, S const& src, D const& dst) {
  static constexpr CopyAtom kAtom = Cfg::kCopy.atom;
  constexpr int64_t kVec = kAtom.values();
  constexpr int64_t kBytes = kAtom.elem_bits / 8 * kVec;
  static_assert(
      kBytes == 4 || kBytes == 8 || kBytes == 16,
      "rule::cp_async_copies_4_8_or_16_bytes: copy: a cp.async copies 4, 8 or 16 bytes per thread");
  static_assert(side_of<S> == CopySide::kGlobal && side_of<D> == CopySide::kShared,
                "copy: cp.async copies a global tile (TensorView) to a shared one (OffsetView)");
  check_sizes<S, D>();
  check_vector_side<S, kVec, true>();
  check_vector_side<D, kVec, false>();
  debug_check_aligned<kVec>(src, dst);
#if defined(__CUDA_ARCH__)
  using X = std::remove_cvref_t<D>;
  uint32_t dst_base = 0;  // unswizzled: the shared address of dst.ptr, computed once
  if constexpr (!X::kSwizzled) dst_base = opaque(ptx::smem_address(dst.ptr));
  const auto dst_address = [&](int64_t v) -> uint32_t {
    static constexpr CoordLayout<1> kF = make_offset_layout(X::kLayout);
    if constexpr (X::kSwizzled)
      return ptx::smem_address(&dst(v));
    else
      return dst_base + uint32_t(kF(v)[0] * int64_t(sizeof(element_of<X>)));
  };
  if constexpr (std::is_same_v<P, NoPred>) {
    TESSERA_UNROLL
    for (int64_t v = 0; v < X::size(); v += kVec)
      ptx::cp_async_n<kBytes>(dst_address(v), &src(v), kBytes);
  } else {
    // The predicates as C(v) < shape - origin: the residue once, C(v) a constant per value.
    static constexpr CoordLayout<P::kRank> kC = coords_of(P::kSpec);
    static constexpr int kAlong = kVec == 1 ? -1 : aligned_runs_mode(kC, kVec);
    static_assert(
        kVec == 1 || kAlong >= 0,
        "rule::vector_elements_are_not_consecutive: copy: the predicate's vectors are not "
        "consecutive along one mode (partition it like the source)");
    const Coord<P::kRank> residue = pred.shape - pred.origin;
    TESSERA_UNROLL
    for (int64_t v = 0; v < X::size(); v += kVec) {
      const auto c = kC(v);
      if constexpr (kVec == 1) {
        ptx::cp_async_n<kBytes>(dst_address(v), &src(v), elem_less(c, residue) ? int(kBytes) : 0);
      } else {
        bool others = true;
        TESSERA_UNROLL
        for (int j = 0; j < P::kRank; ++j)
          if (j != kAlong) others = others && c[j] < residue[j];
        const int64_t n = others ? min64(max64(residue[kAlong] - c[kAlong], 0), kVec) : 0;
        ptx::cp_async_n<kBytes>(dst_address(v), &src(v), int(n * kBytes / kVec));
      }
    }
  }
#else
  (void)pred, (void)src, (void)dst;
  fail("copy: cp.async runs on the device only");
#endif
}
}  // namespace detail

// copy(thr_copy, src, dst): with the TiledCopy's atom (partition_S / partition_D of the two
// tiles, or registers: retile_D of a fragment).
template <class Cfg, class S, class D>
TESSERA_HD inline void copy(ThrCopy<Cfg> const&, S const& src, D&& dst) {
  static constexpr CopyOp kOp = Cfg::kCopy.atom.op;
  if constexpr (kOp == CopyOp::kCpAsync)
    detail::cp_async_copy<Cfg>(detail::NoPred{}, src, dst);
  else if constexpr (kOp == CopyOp::kLdsm || kOp == CopyOp::kLdsmTrans)
    detail::matrix_copy<Cfg, true>(src, dst);
  else if constexpr (kOp == CopyOp::kStsm || kOp == CopyOp::kStsmTrans)
    detail::matrix_copy<Cfg, false>(dst, src);
  else
    detail::atom_vector_copy<Cfg>(detail::NoPred{}, src, dst);
}

// copy_if(thr_copy, pred, src, dst): where pred(v) is inside the tensor; cp.async zero-fills
// the rest of the destination, a UniversalCopy leaves it as it is.
template <class Cfg, class P, class S, class D>
TESSERA_HD inline void copy_if(ThrCopy<Cfg> const&, P const& pred, S const& src, D&& dst) {
  static constexpr CopyOp kOp = Cfg::kCopy.atom.op;
  static_assert(P::size() == std::remove_cvref_t<S>::size(),
                "rule::copy_sizes_differ: copy_if: the predicate and the source hold different "
                "numbers of values");
  static_assert(kOp == CopyOp::kCpAsync || kOp == CopyOp::kUniversal,
                "copy_if: ldmatrix and stmatrix are not predicated (copy whole shared tiles)");
  if constexpr (kOp == CopyOp::kCpAsync)
    detail::cp_async_copy<Cfg>(pred, src, dst);
  else
    detail::atom_vector_copy<Cfg>(pred, src, dst);
}

// copy(thr_copy, src, dst, pred): global -> shared with a cp.async atom, zero-filled outside
// the tensor (CuTe's copy_if with a zero-filled destination).
template <class Cfg, class S, class D, class P>
TESSERA_HD inline void copy(ThrCopy<Cfg> const& c, S const& src, D const& dst, P const& pred) {
  static_assert(Cfg::kCopy.atom.op == CopyOp::kCpAsync,
                "copy: a predicated global -> shared copy needs a cp.async atom (or copy_if)");
  copy_if(c, pred, src, dst);
}

}  // namespace tessera
