// tessera/algorithm/copy.hpp -- copy: global, shared and registers, with the TiledCopy's atom.
#pragma once

#include <cstdint>
#include <type_traits>

#include "../atom/copy.hpp"
#include "../fragment.hpp"
#include "../tensor_view.hpp"
#include "../thr_copy.hpp"

namespace tessera {

// copy(src, dst, pred): dst(v) = src(v) where pred(v) is inside the tensor, else zero (CuTe's
// copy_if with a zero-filled destination). `pred` is the identity tensor partitioned like src.
template <class Src, class Dst, class Pred>
  requires requires { std::remove_cvref_t<Dst>::kCosize; }  // registers
TESSERA_HD inline void copy(Src const& src, Dst&& dst, Pred const& pred) {
  using T = typename std::remove_cvref_t<Dst>::Element;
  constexpr int64_t N = std::remove_cvref_t<Dst>::size();
  static_assert(Src::size() == N && Pred::size() == N, "copy: source, destination and predicate sizes differ");
TESSERA_UNROLL
  for (int64_t v = 0; v < N; ++v) dst(v) = pred.inside(v) ? T(src(v)) : T(0);
}

// copy(src, dst): registers from a static-layout view (shared memory), each value converted to
// the register's type (e.g. fp32 -> tf32, rounded).
template <class T, Layout kL, Swizzle kSw, class Dst>
TESSERA_HD inline void copy(OffsetView<T, kL, kSw> const& src, Dst&& dst) {
  using D = std::remove_cvref_t<decltype(dst(0))>;
  static_assert(kL.size() == std::remove_cvref_t<Dst>::size(), "copy: source and destination sizes differ");
TESSERA_UNROLL
  for (int v = 0; v < int(kL.size()); ++v) dst(v) = D(src(v));
}

#if defined(__CUDACC__)
namespace detail {
// x as computed here: an empty asm the compiler cannot see through, so it keeps the value in a
// register instead of recomputing it from its inputs where it is used (it may still hoist it).
__device__ __forceinline__ uint32_t opaque(uint32_t x) {
  asm("" : "+r"(x));
  return x;
}
}  // namespace detail

// copy(thr_copy, src, dst, pred): global -> shared with the TiledCopy's cp.async atom (4 or 16
// bytes), asynchronously (cp_async_commit / cp_async_wait are the caller's schedule). An
// element outside the tensor (pred) is zero-filled; a 16-byte vector reads only its leading
// elements inside the tensor (they run along the contiguous mode: inside is monotone).
// NOTE: the source address is passed whether or not it is inside: a cp.async of 0 source bytes
// reads nothing (as CuTe's zero-fill atoms do); a select between two addresses became branches.
// NOTE: an unswizzled destination's values lie at static offsets from its pointer, so the copy
// takes the pointer's shared address once, opaque (detail::opaque), and adds a constant per
// value. Without that, NVVM's rematerialization recomputed the thread's offset into the tile
// (from threadIdx) inside the k-loop of every caller, with the copy predicates' residues (kernel
// 02, A k-major and B as 16-byte vectors: 611 PTX instructions in the k-loop, 588 with it, the
// hand-indexed twin 600).
template <class Cfg, class Src, class T, Layout kL, Swizzle kSw, class Pred>
__device__ __forceinline__ void copy(ThrCopy<Cfg> const&, Src const& src, OffsetView<T, kL, kSw> const& dst,
                                     Pred const& pred) {
  static_assert(Cfg::kCopy.atom.op == CopyOp::kCpAsync, "copy: a predicated global -> shared copy needs a cp.async atom");
  constexpr int64_t kVec = Cfg::kCopy.atom.values();
  constexpr int64_t kBytes = Cfg::kCopy.atom.elem_bits / 8 * kVec;
  static_assert(kBytes == 4 || kBytes == 16, "copy: the cp.async atoms copy 4 or 16 bytes");
  static_assert(Src::size() == kL.size() && Pred::size() == kL.size() && kL.size() % kVec == 0,
                "copy: source, destination and predicate sizes differ");
  uint32_t dst_base = 0;  // unswizzled: the shared address of dst.ptr, computed once
  if constexpr (!OffsetView<T, kL, kSw>::kSwizzled) dst_base = detail::opaque(ptx::smem_address(dst.ptr));
  const auto dst_address = [&](int64_t v) -> uint32_t {
    static constexpr CoordLayout<1> kF = make_offset_layout(kL);
    if constexpr (OffsetView<T, kL, kSw>::kSwizzled) return ptx::smem_address(&dst(v));
    else return dst_base + uint32_t(kF(v)[0] * int64_t(sizeof(T)));
  };
  // The predicates as C(v) < shape - origin: the residue once, C(v) a constant per value.
  static constexpr CoordLayout<Pred::kRank> kC = coords_of(Pred::kSpec);
  const Coord<Pred::kRank> residue = pred.shape - pred.origin;
TESSERA_UNROLL
  for (int64_t c = 0; c < kL.size() / kVec; ++c) {
    const int64_t v = c * kVec;
    if constexpr (kBytes == 4) {
      const bool valid = elem_less(kC(v), residue);
      ptx::cp_async_zfill<4>(dst_address(v), &src(v), valid ? 4 : 0);
    } else {
      // The vector runs along mode kAlong of the coordinates: the elements inside are the
      // first min(shape - c, kVec) there, if the other modes are inside.
      static constexpr int kAlong = [] {
        constexpr CoordLayout<Pred::kRank> kC = coords_of(Pred::kSpec);
        int along = -1;
        for (int j = 0; j < Pred::kRank; ++j)
          if (kC(1)[j] == 1) along = j;
        for (int64_t w = 0; w < Pred::size(); w += kVec)
          for (int64_t e = 0; e < kVec; ++e)
            for (int j = 0; j < Pred::kRank; ++j)
              if (kC(w + e)[j] != kC(w)[j] + (j == along ? e : 0))
                fail("copy: a vector's elements must be consecutive along one mode of the tensor");
        return along;
      }();
      const auto c = kC(v);
      bool others = true;
TESSERA_UNROLL
      for (int j = 0; j < Pred::kRank; ++j)
        if (j != kAlong) others = others && c[j] < residue[j];
      const int64_t n = others ? min64(max64(residue[kAlong] - c[kAlong], 0), kVec) : 0;
      ptx::cp_async_zfill<16>(dst_address(v), &src(v), int(n * kBytes / kVec));
    }
  }
}

// 16 bytes of T as one value (float4 for floats: a 128-bit load straight into float registers).
template <class T>
using Vector128 = std::conditional_t<std::is_same_v<std::remove_const_t<T>, float>, float4, uint4>;

// copy(thr_copy, src, dst): global -> shared with the cp.async atom, every element inside the
// tensor (the caller knows: e.g. an interior tile), so without predicates.
template <class Cfg, class T, int R, int kUnit, Spec<R> kS, class U, Layout kL, Swizzle kSw>
__device__ __forceinline__ void copy(ThrCopy<Cfg> const&, TensorView<T, R, kUnit, kS> const& src,
                                     OffsetView<U, kL, kSw> const& dst) {
  static_assert(Cfg::kCopy.atom.op == CopyOp::kCpAsync, "copy: global -> shared needs a cp.async atom");
  constexpr int64_t kVec = Cfg::kCopy.atom.values();
  constexpr int64_t kBytes = Cfg::kCopy.atom.elem_bits / 8 * kVec;
  static_assert(kBytes == 4 || kBytes == 16, "copy: the cp.async atoms copy 4 or 16 bytes");
  static_assert(kS.frg.size() == kL.size() && kL.size() % kVec == 0, "copy: source and destination sizes differ");
TESSERA_UNROLL
  for (int64_t v = 0; v < kL.size(); v += kVec) {
    if constexpr (kBytes == 4) ptx::cp_async_4(&dst(v), &src(v));
    else ptx::cp_async_16(&dst(v), &src(v));
  }
}

// copy(thr_copy, src, dst): shared -> registers with the TiledCopy's atom. `src` is the copy's
// partition_S of a shared tile (sliced to one k-block), `dst` the registers (retile_D of the
// MMA fragment: the configuration checks that the copy's values are the fragment's, in order).
//   ldmatrix .xN{.trans}: per atom, each lane gives the address of its first value (a 16-byte
//     row) and receives N 32-bit registers, i.e. the atom's values in order;
//   a plain copy: value by value, converted to the register type (fp32 -> tf32 rounds).
template <class Cfg, class T, Layout kL, Swizzle kSw, class Dst>
__device__ __forceinline__ void copy(ThrCopy<Cfg> const&, OffsetView<T, kL, kSw> const& src, Dst&& dst) {
  constexpr CopyAtom kAtom = Cfg::kCopy.atom;
  if constexpr (kAtom.op == CopyOp::kLdsm || kAtom.op == CopyOp::kLdsmTrans) {
    constexpr int64_t kValues = kAtom.values(), kBits = 8 * int64_t(sizeof(T));
    constexpr int kRegs = int(kValues * kBits / 32);  // ldmatrix .x1 / .x2 / .x4
    using D = std::remove_cvref_t<Dst>;
    static_assert(sizeof(typename D::Element) == sizeof(T), "copy: ldmatrix's registers hold the source's element type");
    static_assert(kL.size() % kValues == 0 && kL.size() == D::size(),
                  "copy: the registers must hold exactly the ldmatrix values of the source");
    static_assert(runs_of(D::kLayout, kValues),
                  "copy: each ldmatrix's values must be consecutive registers (retile_D of the fragment)");
TESSERA_UNROLL
    for (int c = 0; c < int(kL.size() / kValues); ++c)
      ptx::ldmatrix<kRegs, kAtom.op == CopyOp::kLdsmTrans>(reinterpret_cast<uint32_t*>(&dst(c * kValues)),
                                                           &src(c * kValues));
  } else if constexpr (kAtom.values() * kAtom.elem_bits == 128) {
    // 128-bit loads: the atom's values are consecutive in the source and in the registers.
    static_assert(kAtom.op == CopyOp::kUniversal, "copy: shared -> registers takes ldmatrix or a plain copy atom");
    constexpr int kVec = int(kAtom.values());
    static_assert(kL.size() % kVec == 0 && runs_of(kL, kVec),
                  "copy: a 128-bit copy's values must be consecutive in shared memory");
    static_assert(runs_of(std::remove_cvref_t<Dst>::kLayout, kVec),
                  "copy: a 128-bit copy's values must be consecutive registers");
TESSERA_UNROLL
    for (int v = 0; v < int(kL.size()); v += kVec)
      *reinterpret_cast<Vector128<T>*>(&dst(v)) = *reinterpret_cast<Vector128<T> const*>(&src(v));
  } else {
    static_assert(kAtom.op == CopyOp::kUniversal, "copy: shared -> registers takes ldmatrix or a plain copy atom");
    copy(src, dst);
  }
}
#endif

}  // namespace tessera
