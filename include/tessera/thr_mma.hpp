// tessera/thr_mma.hpp -- one thread's slice of a TiledMMA: partition_A/B/C and partition_fragment_*.
#pragma once

#include <type_traits>

#include "atom/mma.hpp"
#include "fragment.hpp"
#include "tensor_view.hpp"
#include "tiled_mma.hpp"

namespace tessera {

// The instruction of a TiledMMA configuration: Cfg::MmaOp, or scalar FMA when it names none.
template <class Cfg>
struct MmaOpOf {
  using type = atom::UniversalFMA;
};
template <class Cfg>
  requires requires { typename Cfg::MmaOp; }
struct MmaOpOf<Cfg> {
  using type = typename Cfg::MmaOp;
};
template <class Cfg>
using mma_op_t = typename MmaOpOf<Cfg>::type;

// One thread's slice of a TiledMMA (CuTe's thr_mma = tiled_mma.get_slice(t)). `Cfg::kMma` is
// the TiledMMA (a type carries it: an atom's name is a string, which a template argument cannot
// hold).
template <class Cfg>
struct ThrMMA {
  int64_t thread;

  // The thread's share of a tile view: its origin moves to the thread's first element and the
  // fragment becomes the partition's (V,M,N) / (V,M,K) / (V,N,K), checked to be linear in the
  // tile's coordinates together with the thread layout.
  template <Operand kOp, class T, int R, StaticStrides<R> kFix, Spec<R> kS>
  TESSERA_HD inline auto partition(TensorView<T, R, kFix, kS> const& v) const {
    static_assert(kS.frg == kS.compact(), "partition: the view must be a whole tile (local_tile)");
    static constexpr ThreadParts<R> kP = [] {
      // The TiledMMA's tile must divide the view's tile along the operand's two modes.
      const int modes[2] = {TiledMMA::mode0(kOp), TiledMMA::mode1(kOp)};
      for (int j = 0; j < 2; ++j)
        if (kS.tile.v[j] % Cfg::kMma.tile_size(modes[j]) != 0) {
          Text t;
          t << "partition: the TiledMMA's tile (" << Cfg::kMma.tile_size(modes[0]) << ','
            << Cfg::kMma.tile_size(modes[1]) << ") does not divide the view's tile (" << kS.tile.v[0] << ','
            << kS.tile.v[1] << ") in mode " << j;
          fail(t);
        }
      ThreadPartition p = Cfg::kMma.partitioner(kOp, kS.compact());
      return thread_parts(kS, p.thread, p.fragment);
    }();
    return v.template moved<kP.frg>(kP.thr(thread));
  }
  // The thread's share of a static tile (shared memory), (rows, cols) or with further modes
  // (pipeline stages), which stay last: offsets straight from the algebra.
  template <Operand kOp, class T, Layout kL, Swizzle kSw>
  TESSERA_HD inline auto partition(OffsetView<T, kL, kSw> const& v) const {
    static_assert(kL.rank() >= 2, "partition: the view must be a whole (rows, cols, ...) tile");
    static constexpr ThreadPartition kP = Cfg::kMma.partitioner(kOp, kL);
    return thread_offset_view<kP.fragment, kP.thread>(v, thread);
  }
  template <class V>
  TESSERA_HD inline auto partition_C(V const& v) const { return partition<Operand::kC>(v); }
  template <class V>
  TESSERA_HD inline auto partition_A(V const& v) const { return partition<Operand::kA>(v); }
  template <class V>
  TESSERA_HD inline auto partition_B(V const& v) const { return partition<Operand::kB>(v); }

  // The registers of this thread's A / B / C fragments for a tile (CuTe's partition_fragment_*):
  // the operand registers of the configuration's instruction (MmaOp), one slice per k-block
  // (A, B) or a single slice (C, fp32 accumulators), in the partition's value order.
  template <class V>
  TESSERA_HD static auto partition_fragment_A(V const&) { return typename FragmentOf<Operand::kA, V>::type{}; }
  template <class V>
  TESSERA_HD static auto partition_fragment_B(V const&) { return typename FragmentOf<Operand::kB, V>::type{}; }
  template <class V>
  TESSERA_HD static auto partition_fragment_C(V const&) { return typename FragmentOf<Operand::kC, V>::type{}; }

 private:
  // The (rows, cols) tile a view covers (its first two modes).
  template <class V>
  TESSERA_HD static constexpr Layout tile_layout() {
    if constexpr (requires { V::kLayout; }) {
      LayoutBuilder b;
      b.add(V::kLayout[0]);
      b.add(V::kLayout[1]);
      return b.get();
    } else {
      return V::kSpec.compact();
    }
  }
  template <Operand kOp, class V>
  struct FragmentOf {
    using Op = mma_op_t<Cfg>;
    using Reg = std::conditional_t<kOp == Operand::kA, typename Op::ARegister, typename Op::BRegister>;
    static constexpr Layout kFrg = Cfg::kMma.partitioner(kOp, tile_layout<V>()).fragment;  // (V,M,K) / (V,M,N)
    static constexpr int64_t kBits = [] {
      using E = std::remove_const_t<typename V::Element>;
      if constexpr (std::is_void_v<E>) return int64_t(32);
      else return 8 * int64_t(sizeof(E));
    }();
    static constexpr int64_t kRegs = kFrg.size() * kBits / (8 * int64_t(sizeof(Reg)));
    static_assert(kOp == Operand::kC || kFrg.rank() == 3, "partition_fragment: the tile must be (MN, K)");
    static_assert(kOp == Operand::kC || kRegs * 8 * int64_t(sizeof(Reg)) == kFrg.size() * kBits,
                  "partition_fragment: the values do not fill whole registers");
    using type = std::conditional_t<kOp == Operand::kC, Fragment<float, int(kFrg.size())>,
                                    Fragment<Reg, int(kRegs), int(kFrg[kFrg.rank() - 1].size())>>;
  };
};

}  // namespace tessera
