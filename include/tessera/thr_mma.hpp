// tessera/thr_mma.hpp -- one thread's slice of a TiledMMA: partition_A/B/C and
// partition_fragment_*.
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
            << Cfg::kMma.tile_size(modes[1]) << ") does not divide the view's tile ("
            << kS.tile.v[0] << ',' << kS.tile.v[1] << ") in mode " << j;
          fail(t);
        }
      ThreadPartition p = Cfg::kMma.partitioner(kOp, kS.compact());
      return thread_parts(kS, p.thread, p.fragment);
    }();
    return v.template moved<kP.frg>(kP.thr(thread));
  }
  // The thread's share of a static tile (shared memory), (rows, cols) or with further modes
  // (pipeline stages), which stay last: offsets straight from the algebra.
  template <Operand kOp, class T, Layout kL, Swizzle kSw, int64_t kA>
  TESSERA_HD inline auto partition(OffsetView<T, kL, kSw, kA> const& v) const {
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
  // a compact fragment of the partition's shape, (V,M,K) / (V,N,K) / (V,M,N), of the
  // instruction's value types (MmaOp: e.g. __half for A and B, float for C).
  //   tCrA = thr_mma.partition_fragment_A(sA)   // ((2,2,2),4,2): 64 halves for mma.sync m16n8k16
  template <class V>
  TESSERA_HD static auto partition_fragment_A(V const&) {
    return FragmentOf<Operand::kA, V>::make();
  }
  template <class V>
  TESSERA_HD static auto partition_fragment_B(V const&) {
    return FragmentOf<Operand::kB, V>::make();
  }
  template <class V>
  TESSERA_HD static auto partition_fragment_C(V const&) {
    return FragmentOf<Operand::kC, V>::make();
  }
  // Registers for a partitioned view (tCgC = partition_C(gC)): make_fragment_C(tCgC) holds the
  // accumulators of the view's shape, (V,M,N) (CuTe's tiled_mma.make_fragment_C).
  template <class V>
  TESSERA_HD static auto make_fragment_A(V const& v) {
    return make_fragment_like<value_t<Operand::kA>>(v);
  }
  template <class V>
  TESSERA_HD static auto make_fragment_B(V const& v) {
    return make_fragment_like<value_t<Operand::kB>>(v);
  }
  template <class V>
  TESSERA_HD static auto make_fragment_C(V const& v) {
    return make_fragment_like<value_t<Operand::kC>>(v);
  }

  // The instruction's value type of an operand.
  template <Operand kOp>
  using value_t =
      std::conditional_t<kOp == Operand::kA, typename mma_op_t<Cfg>::AElement,
                         std::conditional_t<kOp == Operand::kB, typename mma_op_t<Cfg>::BElement,
                                            typename mma_op_t<Cfg>::CElement>>;

 private:
  // The (rows, cols) tile a view covers (its first two modes).
  template <class V>
  TESSERA_HD static constexpr Layout tile_layout() {
    if constexpr (requires { V::kSpec; }) {
      return V::kSpec.compact();
    } else {
      LayoutBuilder b;
      b.add(V::kLayout[0]);
      b.add(V::kLayout[1]);
      return b.get();
    }
  }
  template <Operand kOp, class V>
  struct FragmentOf {
    using Op = mma_op_t<Cfg>;
    // The data type of the tile the operand is read from (A, B) or written to (C).
    using Source =
        std::conditional_t<kOp == Operand::kA, typename Op::ASource,
                           std::conditional_t<kOp == Operand::kB, typename Op::BSource, void>>;
    using E = std::remove_const_t<typename V::Element>;
    static_assert(kOp == Operand::kC || std::is_void_v<E> || std::is_same_v<E, Source>,
                  "partition_fragment: the tile's element type is not the instruction's "
                  "(e.g. bf16 data for the f16 MMA): name the MmaOp of the data type");
    static constexpr Layout kFrg =
        Cfg::kMma.partitioner(kOp, tile_layout<V>()).fragment;  // (V,M,K) / (V,M,N)
    static_assert(kOp == Operand::kC || kFrg.rank() == 3,
                  "partition_fragment: the tile must be (MN, K)");
    TESSERA_HD static Fragment<value_t<kOp>, Layout(kFrg.shape)> make() { return {}; }
  };
};

}  // namespace tessera
