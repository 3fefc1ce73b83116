// tessera/device_tensor.hpp -- tensors for kernels: static structure, run-time sizes and strides.
//
// A kernel's tensors mix two kinds of integers. The tile shapes and every thread partition are
// static (the algebra runs at compile time); the problem's M, N, K, leading dimensions, CTA and
// thread indices are run-time. The split here: a tensor view is
//
//   static   Spec  = { tile extents, fragment layout over the tile's compact index space,
//                      the tensor mode its `at(k)` steps along (a kept tile mode) }
//   run-time ptr (the element at `origin`), origin and shape (coordinates in the whole tensor),
//            strides (a static 1 where the tensor says so: `unit`)
//
// and element v of a view is at coordinate origin + C(v), C = the fragment's coordinate layout
// (coord_layout.hpp), in memory at ptr[sum_j C(v)_j * stride_j]. Every step of the vocabulary
// only moves origin and ptr by run-time amounts and replaces the static Spec:
//
//   mA   = make_tensor(A, make_shape(M, K), make_stride(unit, lda))   // (M,K):(1,lda)
//   gA   = local_tile<kCta, Proj{1, 0, 1}>(mA, m_blk, n_blk, _)       // (BM,BK) at k-tile 0
//   gA.at(k)                                                         // k-tile k (the kept mode)
//   tCgA = thr_mma.partition_A(gA)                                    // (V,M,K): this thread's
//   tCgA(_, _, kb)                                                    // (V,M) of k-block kb
//
// Identity tensors are the same views without data (`make_identity_tensor(shape)`): element v is
// its coordinate, so a partition of one gives the predicates elem_less(tCcC(v), shape).
//
// Folding: the Spec is a template argument, so C(v) is a constant in unrolled loops; the only
// run-time work is the thread's origin and pointer (once) and the dot products with the
// run-time strides. NOTE: never hold a Layout in a run-time variable in device code (it lives in
// local memory); everything Layout-valued here is a template argument or a static constexpr.
#pragma once

#include <type_traits>

#include "coord_layout.hpp"
#include "atom/copy.hpp"
#include "tiled_copy.hpp"
#include "tiled_mma.hpp"

namespace tessera {

// A static stride of 1 (make_stride(unit, lda)): that mode's coordinate is added, not multiplied.
struct Unit {};
inline constexpr Unit unit{};

// The strides of a rank-R tensor: run-time, except mode kUnit (if >= 0), a static 1.
template <int R, int kUnit = -1>
struct Strides {
  int64_t s[R] = {};
  TESSERA_HD constexpr int64_t operator()(Coord<R> const& c) const {
    int64_t off = 0;
    for (int j = 0; j < R; ++j) off += j == kUnit ? c.v[j] : c.v[j] * s[j];
    return off;
  }
};

template <class... Ts>
TESSERA_HD constexpr Coord<int(sizeof...(Ts))> make_shape(Ts... xs) {
  return Coord<int(sizeof...(Ts))>{{int64_t(xs)...}};
}

namespace detail {
TESSERA_HD constexpr bool same_name(const char* a, const char* b) {
  while (*a && *a == *b) ++a, ++b;
  return *a == *b;
}
template <class... Ts>
TESSERA_HD constexpr int unit_mode() {
  constexpr bool is_unit[] = {std::is_same_v<Ts, Unit>...};
  int found = -1;
  for (int j = 0; j < int(sizeof...(Ts)); ++j)
    if (is_unit[j]) found = found < 0 ? j : -2;
  return found;
}
template <class T>
TESSERA_HD constexpr int64_t stride_value(T x) {
  if constexpr (std::is_same_v<T, Unit>) return 1;
  else return int64_t(x);
}
}  // namespace detail

template <class... Ts>
TESSERA_HD constexpr auto make_stride(Ts... xs) {
  constexpr int kUnit = detail::unit_mode<Ts...>();
  static_assert(kUnit >= -1, "make_stride: at most one mode can have the static unit stride");
  return Strides<int(sizeof...(Ts)), kUnit>{{detail::stride_value(xs)...}};
}

// Strides (s0, s1, ...) of which mode kUnit is known to be 1 (a static 1; its value is not
// read): for kernels instantiated per operand major, make_stride<kMajorMode>(s_m, s_k).
template <int kUnit, class... Ts>
TESSERA_HD constexpr auto make_stride(Ts... xs) {
  static_assert(kUnit >= 0 && kUnit < int(sizeof...(Ts)), "make_stride: the unit mode is not a mode");
  return Strides<int(sizeof...(Ts)), kUnit>{{int64_t(xs)...}};
}

// The static part of a view: the tile it lives in, its fragment over the tile's compact index
// space, and the tensor mode a kept tile mode steps along (-1: none).
template <int R>
struct Spec {
  Coord<R> tile;
  Layout frg;
  int keep = -1;
  TESSERA_HD constexpr Layout compact() const {
    TupleBuilder b;
    for (int j = 0; j < R; ++j) b.add(IntTuple(tile.v[j]));
    return Layout(b.get());
  }
};

// The fragment of `s` as coordinates (a static constexpr where it is used).
template <int R>
TESSERA_HD constexpr CoordLayout<R> coords_of(Spec<R> const& s) {
  return make_coord_layout(s.frg, s.tile);
}
// A layout without its mode `mode` (what slicing that mode leaves).
TESSERA_HD constexpr Layout drop_mode(Layout const& l, int mode) {
  LayoutBuilder b;
  for (int i = 0; i < l.rank(); ++i)
    if (i != mode) b.add(l[i]);
  return b.get();
}
template <int R>
TESSERA_HD constexpr Spec<R> drop_mode(Spec<R> const& s, int mode) {
  return Spec<R>{s.tile, drop_mode(s.frg, mode), s.keep};
}

// A thread's part of a whole tile: the coordinate of its first element (thread layout) and the
// fragment it keeps, from two index layouts over the tile, checked together to be linear in the
// tile's coordinates (make_coord_layouts).
template <int R>
struct ThreadParts {
  Spec<R> frg;
  CoordLayout<R> thr;
};
template <int R>
TESSERA_HD constexpr ThreadParts<R> thread_parts(Spec<R> const& tile, Layout const& thread,
                                                 Layout const& fragment) {
  Layout both[2] = {thread, fragment};
  CoordLayout<R> c[2];
  make_coord_layouts(both, c, 2, tile.tile);
  return {Spec<R>{tile.tile, fragment, tile.keep}, c[0]};
}

// A view of a rank-R tensor (T = void: an identity tensor, whose elements are coordinates).
template <class T, int R, int kUnit, Spec<R> kS>
struct TensorView {
  static constexpr Spec<R> kSpec = kS;
  static constexpr int kRank = R;
  using Element = T;
  T* ptr;                  // the element at origin (unused for identity tensors)
  Strides<R, kUnit> stride;
  Coord<R> origin, shape;  // in the whole tensor

  TESSERA_HD static constexpr int64_t size() { return kS.frg.size(); }
  // Element v: its coordinate (identity tensor) or a reference to it.
  TESSERA_HD inline decltype(auto) operator()(int64_t v) const {
    static constexpr CoordLayout<R> kC = coords_of(kS);
    if constexpr (std::is_void_v<T>) return origin + kC(v);
    else return ptr[stride(kC(v))];
  }
  // Whether element v lies inside the tensor (the identity tensor's elem_less, built in).
  // (As C(v) < shape - origin: the residue is loop-invariant, C(v) a constant.)
  TESSERA_HD inline bool inside(int64_t v) const {
    static constexpr CoordLayout<R> kC = coords_of(kS);
    return elem_less(kC(v), shape - origin);
  }
  // Whether every element lies inside the tensor: one test of the fragment's largest coordinate
  // per mode (a constant) against the residue.
  TESSERA_HD inline bool all_inside() const {
    static constexpr Coord<R> kLast = last_coords(coords_of(kS));
    return elem_less(kLast, shape - origin);
  }
  // The elements from coordinate c on, described by kNew: every step of the vocabulary (slice,
  // at, partition) only moves the origin and the pointer and replaces the static part.
  template <Spec<R> kNew>
  TESSERA_HD inline TensorView<T, R, kUnit, kNew> moved(Coord<R> const& c) const {
    TensorView<T, R, kUnit, kNew> r{ptr, stride, origin + c, shape};
    if constexpr (!std::is_void_v<T>) r.ptr = ptr + stride(c);
    return r;
  }
  // The view with mode `kMode` of the fragment fixed at k: origin moves to that slice.
  template <int kMode>
  TESSERA_HD inline auto slice(int64_t k) const {
    static constexpr CoordLayout<R> kM = make_coord_layout(kS.frg[kMode], kS.tile);
    return moved<drop_mode(kS, kMode)>(kM(k));
  }
  TESSERA_HD inline auto operator()(Underscore, int64_t k) const { return slice<1>(k); }
  TESSERA_HD inline auto operator()(Underscore, Underscore, int64_t k) const { return slice<2>(k); }
  // The k-th tile along the kept mode (local_tile's `_`): origin + k * tile extent.
  TESSERA_HD TensorView at(int64_t k) const {
    static_assert(kS.keep >= 0, "at: the view has no kept tile mode (local_tile coordinate `_`)");
    Coord<R> step;
    step.v[kS.keep] = k * kS.tile.v[kS.keep];
    return moved<kS>(step);
  }
};

// Whether every offset of `mode` is a multiple of the swizzle's span: moving along it commutes
// with the swizzle, Sw(x + o) = Sw(x) + o (a pipeline stage of whole swizzle periods).
TESSERA_HD constexpr bool commutes_with(Swizzle const& sw, Layout const& mode) {
  for (int64_t i = 0; i < mode.size(); ++i)
    if (mode(i) % sw.span() != 0) return false;
  return true;
}

// Whether the values of `l` come in runs of n consecutive offsets (n | size): l(v + e) = l(v) + e
// for every v that is a multiple of n and e < n (what a vector access of n values needs).
TESSERA_HD constexpr bool runs_of(Layout const& l, int64_t n) {
  if (l.size() % n != 0) return false;
  for (int64_t v = 0; v < l.size(); v += n)
    for (int64_t e = 1; e < n; ++e)
      if (l(v + e) != l(v) + e) return false;
  return true;
}

// A view whose memory layout is static (shared memory, a fixed tile), possibly swizzled: element
// v is at ptr[Sw(off + F(v))], F the fragment's offset layout (a template argument, lowered like
// a coordinate layout of rank 1), Sw the swizzle (none: ptr[F(v)]). Partitions of it are the
// algebra's partitions of the layout itself. A step inside a swizzled tile (a thread's offset, a
// k-block) moves `off`, under the swizzle; a step by whole swizzle periods (a pipeline stage)
// moves `ptr`, which costs nothing per element.
template <class T, Layout kFrg, Swizzle kSw = Swizzle{}>
struct OffsetView {
  static constexpr Layout kLayout = kFrg;
  static constexpr Swizzle kSwizzle = kSw;
  static constexpr bool kSwizzled = kSw.bits > 0;
  using Element = T;
  T* ptr;
  int64_t off = 0;  // swizzled views only: the offset inside the swizzled tile
  TESSERA_HD static constexpr int64_t size() { return kFrg.size(); }
  TESSERA_HD inline T& operator()(int64_t v) const {
    static constexpr CoordLayout<1> kF = make_offset_layout(kFrg);
    if constexpr (kSwizzled) return ptr[kSw.apply32(uint32_t(off + kF(v)[0]))];  // a tile's offsets are small
    else return ptr[kF(v)[0]];
  }
  // The view moved by offset o and described by kNew.
  template <Layout kNew, bool kUnderSwizzle = kSwizzled>
  TESSERA_HD inline OffsetView<T, kNew, kSw> moved(int64_t o) const {
    if constexpr (kUnderSwizzle) return {ptr, off + o};
    else return {ptr + o, off};
  }
  template <int kMode>
  TESSERA_HD inline auto slice(int64_t k) const {
    static constexpr CoordLayout<1> kM = make_offset_layout(kFrg[kMode]);
    return moved<drop_mode(kFrg, kMode), kSwizzled && !commutes_with(kSw, kFrg[kMode])>(kM(k)[0]);
  }
  TESSERA_HD inline auto operator()(Underscore, int64_t k) const { return slice<1>(k); }
  TESSERA_HD inline auto operator()(Underscore, Underscore, int64_t k) const { return slice<2>(k); }
  TESSERA_HD inline auto operator()(Underscore, Underscore, Underscore, int64_t k) const {
    return slice<3>(k);
  }
};

// The thread's share of a static tile: its first element at offset kThr(thread), then kFrg.
template <Layout kFrg, Layout kThr, class T, Layout kL, Swizzle kSw>
TESSERA_HD inline OffsetView<T, kFrg, kSw> thread_offset_view(OffsetView<T, kL, kSw> const& v,
                                                              int64_t thread) {
  static constexpr CoordLayout<1> kT = make_offset_layout(kThr);
  return v.template moved<kFrg>(kT(thread)[0]);
}

// A tensor over a static layout, e.g. a shared-memory tile: make_tensor<kSA>(smem), or over a
// swizzled one (Sw o off o L): make_tensor<composition(Swizzle(3, 3, 4), kSA)>(smem).
template <Layout kL, class T>
TESSERA_HD constexpr OffsetView<T, kL> make_tensor(T* ptr) {
  return {ptr};
}
template <SwizzledLayout kL, class T>
TESSERA_HD constexpr OffsetView<T, kL.layout, kL.swizzle> make_tensor(T* ptr) {
  return {ptr, kL.offset};
}

// A whole tensor: pointer, run-time shape and strides, e.g. (M,K):(1,lda).
template <class T, int R, int kUnit>
struct Tensor {
  T* ptr;
  Coord<R> shape;
  Strides<R, kUnit> stride;
};

template <class T, int R, int kUnit>
TESSERA_HD constexpr Tensor<T, R, kUnit> make_tensor(T* ptr, Coord<R> const& shape,
                                                     Strides<R, kUnit> const& stride) {
  return {ptr, shape, stride};
}
// The identity tensor of a shape: element c is c itself (CuTe's make_identity_tensor).
template <int R>
TESSERA_HD constexpr Tensor<void, R, -1> make_identity_tensor(Coord<R> const& shape) {
  return {nullptr, shape, {}};
}

// proj of local_tile: which modes of the CTA tiler apply to a tensor (1 keep, 0 drop: CuTe's X).
template <int N>
struct Proj {
  int on[N];
};
template <class... Ts>
Proj(Ts...) -> Proj<int(sizeof...(Ts))>;

namespace detail {
template <int R, int N>
TESSERA_HD constexpr Spec<R> tile_spec(Coord<N> const& tiler, Proj<N> const& proj, int keep_at) {
  Spec<R> s;
  int j = 0;
  for (int i = 0; i < N; ++i)
    if (proj.on[i]) {
      if (j == R) fail("local_tile: proj selects more tiler modes than the tensor has");
      s.tile.v[j++] = tiler.v[i];
    }
  if (j != R) fail("local_tile: proj selects fewer tiler modes than the tensor has");
  s.frg = s.compact();
  s.keep = keep_at;
  return s;
}
template <int N>
TESSERA_HD constexpr int projected(Proj<N> const& proj, int i) {
  int j = 0;
  for (int q = 0; q < i; ++q) j += proj.on[q];
  return j;
}
}  // namespace detail

// The CTA's tile of a tensor (CuTe's local_tile(t, tiler, coord, proj)): kTiler is the static
// CTA tiler (e.g. (BM,BN,BK)), kProj picks the modes that apply to this tensor, `coord` gives
// the tile index per tiler mode: an integer, or `_` to keep that mode (step along it with at(k);
// at most one kept mode). Entries of dropped modes are ignored.
//   local_tile<kCta, Proj{1, 0, 1}>(mA, bm, bn, _)    // A's (BM,BK) tile at (bm, k-tile 0)
template <auto kTiler, auto kProj, class T, int R, int kUnit, class... Cs>
TESSERA_HD inline auto local_tile(Tensor<T, R, kUnit> const& t, Cs... coord) {
  constexpr int N = int(sizeof...(Cs));
  static_assert(N == int(sizeof(kTiler.v) / sizeof(int64_t)), "local_tile: one coordinate per tiler mode");
  constexpr bool kept[] = {std::is_same_v<Cs, Underscore>...};
  constexpr int keep_at = [&] {
    int at = -1;
    for (int i = 0; i < N; ++i)
      if (kept[i] && kProj.on[i]) at = at < 0 ? detail::projected(kProj, i) : -2;
    return at;
  }();
  static_assert(keep_at >= -1, "local_tile: at most one kept (`_`) mode per tensor");
  static constexpr Spec<R> kS = detail::tile_spec<R>(kTiler, kProj, keep_at);
  int64_t idx[N] = {};
  int q = 0;
  ((idx[q++] = [](auto c) -> int64_t {
     if constexpr (std::is_same_v<decltype(c), Underscore>) return 0;
     else return int64_t(c);
   }(coord)),
   ...);
  Coord<R> origin;
  for (int i = 0, j = 0; i < N; ++i)
    if (kProj.on[i]) origin.v[j] = idx[i] * kTiler.v[i], ++j;
  return TensorView<T, R, kUnit, kS>{t.ptr, t.stride, {}, t.shape}.template moved<kS>(origin);
}

// A register fragment: N values of T, compact (CuTe's make_fragment_like / make_tensor<T>), in
// kSlices equal slices along its last mode (a k-block each for an MMA operand):
// fragment(_, _, k) is slice k, a reference to N / kSlices of the same registers.
template <class T, int N, int kSlices = 1>
struct FragmentRef {
  static_assert(N % kSlices == 0, "Fragment: the slices must divide the values");
  T* v;
  TESSERA_HD constexpr T& operator()(int i) const { return v[i]; }
  TESSERA_HD static constexpr int size() { return N; }
  TESSERA_HD constexpr FragmentRef<T, N / kSlices> operator()(Underscore, Underscore, int k) const {
    return {v + k * (N / kSlices)};
  }
};
template <class T, int N, int kSlices = 1>
struct Fragment {
  static_assert(N % kSlices == 0, "Fragment: the slices must divide the values");
  T v[N];
  TESSERA_HD constexpr T& operator()(int i) { return v[i]; }
  TESSERA_HD constexpr T const& operator()(int i) const { return v[i]; }
  TESSERA_HD static constexpr int size() { return N; }
  TESSERA_HD constexpr FragmentRef<T, N / kSlices> operator()(Underscore, Underscore, int k) {
    return {v + k * (N / kSlices)};
  }
  TESSERA_HD constexpr FragmentRef<T const, N / kSlices> operator()(Underscore, Underscore, int k) const {
    return {v + k * (N / kSlices)};
  }
  // The same registers as a view (what a copy writes through: `auto` of it does not copy them).
  TESSERA_HD constexpr FragmentRef<T, N, kSlices> ref() { return {v}; }
};
template <class T, class V>
TESSERA_HD constexpr Fragment<T, int(V::size())> make_fragment_like(V const&) {
  return {};
}
// Every value of a fragment set to zero.
template <class F>
TESSERA_HD constexpr void clear(F& f) {
TESSERA_UNROLL
  for (int i = 0; i < F::size(); ++i) f(i) = {};
}

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
  template <Operand kOp, class T, int R, int kUnit, Spec<R> kS>
  TESSERA_HD inline auto partition(TensorView<T, R, kUnit, kS> const& v) const {
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

// Equal partitions, value by value, for every thread: how a copy into registers (its
// destination; retile_D) is checked against the MMA's fragment, as functions of the tile's coordinates. Each side is (thread -> offset) + (value -> offset), so
// c_thr(t) + c_frg(i) == m_thr(t) + m_frg(i) for every (t, i) exactly when the thread offsets
// differ by one constant for every t and the value offsets by its opposite for every i (take
// i = 0, then t = 0): threads + values evaluations instead of threads x values.
// NOTE: the product form cost every front end (EDG twice, g++ once) seconds per configuration.
TESSERA_HD constexpr bool same_partition(TiledCopy const& copy, TiledMMA const& mma, Operand op,
                                         Layout const& tile) {
  Layout c_thr = copy.tidfrg(tile, true)[0], c_frg = copy.partition_D(tile, 0).layout;
  Layout m_thr = mma.partitioner(op, tile).thread, m_frg = mma.partitioner(op, tile).fragment;
  if (c_frg.size() != m_frg.size()) return false;
  const int64_t delta = c_thr(0) - m_thr(0);
  for (int64_t t = 0; t < mma.threads(); ++t)
    if (c_thr(t) - m_thr(t) != delta) return false;
  for (int64_t i = 0; i < c_frg.size(); ++i)
    if (c_frg(i) - m_frg(i) != -delta) return false;
  return true;
}

// One thread's slice of a TiledCopy (`Cfg::kCopy`): partition_S of the source tile and
// partition_D of the destination, each (CPY, CPY_M, CPY_N) with the atom's values first.
template <class Cfg>
struct ThrCopy {
  int64_t thread;

  template <class V>
  TESSERA_HD inline auto partition_S(V const& v) const { return partition<false>(v); }
  template <class V>
  TESSERA_HD inline auto partition_D(V const& v) const { return partition<true>(v); }

  // The copy's registers are a fragment's own, in its value order (CuTe's retile_D): a view of
  // the same registers. The configuration checks that the copy's (thread, value) layout is the
  // fragment's partition.
  template <class F>
  TESSERA_HD static constexpr auto retile_D(F& fragment) { return fragment.ref(); }

 private:
  template <bool kDst, class T, int R, int kUnit, Spec<R> kS>
  TESSERA_HD inline auto partition(TensorView<T, R, kUnit, kS> const& v) const {
    static_assert(kS.frg == kS.compact(), "partition_S/D: the view must be a whole tile (local_tile)");
    static constexpr ThreadParts<R> kP =
        thread_parts(kS, Cfg::kCopy.tidfrg(kS.compact(), kDst)[0],
                     Cfg::kCopy.partition(kS.compact(), 0, kDst).layout);
    return v.template moved<kP.frg>(kP.thr(thread));
  }
  template <bool kDst, class T, Layout kL, Swizzle kSw>
  TESSERA_HD inline auto partition(OffsetView<T, kL, kSw> const& v) const {
    return thread_offset_view<Cfg::kCopy.partition(kL, 0, kDst).layout, Cfg::kCopy.tidfrg(kL, kDst)[0]>(
        v, thread);
  }
};

// copy(src, dst, pred): dst(v) = src(v) where pred(v) is inside the tensor, else zero (CuTe's
// copy_if with a zero-filled destination). `pred` is the identity tensor partitioned like src.
template <class Src, class T, int N, class Pred>
TESSERA_HD inline void copy(Src const& src, Fragment<T, N>& dst, Pred const& pred) {
  static_assert(Src::size() == N && Pred::size() == N, "copy: source, destination and predicate sizes differ");
TESSERA_UNROLL
  for (int v = 0; v < N; ++v) dst(v) = pred.inside(v) ? T(src(v)) : T(0);
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
    using Reg = std::remove_cvref_t<decltype(dst(0))>;
    static_assert(sizeof(Reg) == 4, "copy: ldmatrix fills 32-bit registers");
    static_assert(kL.size() % kValues == 0 && kL.size() / kValues * kRegs == std::remove_cvref_t<Dst>::size(),
                  "copy: the registers must hold exactly the ldmatrix values of the source");
TESSERA_UNROLL
    for (int c = 0; c < int(kL.size() / kValues); ++c)
      ptx::ldmatrix<kRegs, kAtom.op == CopyOp::kLdsmTrans>(reinterpret_cast<uint32_t*>(&dst(c * kRegs)),
                                                           &src(c * kValues));
  } else if constexpr (kAtom.values() * kAtom.elem_bits == 128) {
    // 128-bit loads: the atom's values are consecutive in the source and in the registers.
    static_assert(kAtom.op == CopyOp::kUniversal, "copy: shared -> registers takes ldmatrix or a plain copy atom");
    constexpr int kVec = int(kAtom.values());
    static_assert(kL.size() % kVec == 0 && runs_of(kL, kVec),
                  "copy: a 128-bit copy's values must be consecutive in shared memory");
TESSERA_UNROLL
    for (int v = 0; v < int(kL.size()); v += kVec)
      *reinterpret_cast<Vector128<T>*>(&dst(v)) = *reinterpret_cast<Vector128<T> const*>(&src(v));
  } else {
    static_assert(kAtom.op == CopyOp::kUniversal, "copy: shared -> registers takes ldmatrix or a plain copy atom");
    copy(src, dst);
  }
}
#endif

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

// The mode along which a fragment's values come in aligned runs of n (-1: none): every run of
// values v .. v+n-1 (v a multiple of n) is n consecutive coordinates of that mode, starting at a
// multiple of n. Step 3's C fragment ((4,2),(4,2)) per thread: runs of 4 along M (mode 0).
template <int R>
TESSERA_HD constexpr int aligned_runs_mode(CoordLayout<R> const& c, int64_t n) {
  if (n < 2 || c.size % n != 0) return -1;
  for (int m = 0; m < R; ++m) {
    bool ok = true;
    for (int64_t v = 0; ok && v < c.size; v += n) {
      const Coord<R> start = c(v);
      ok = start.v[m] % n == 0;
      for (int64_t e = 1; ok && e < n; ++e) {
        Coord<R> want = start;
        want.v[m] += e;
        for (int j = 0; j < R; ++j) ok = ok && c(v + e).v[j] == want.v[j];
      }
    }
    if (ok) return m;
  }
  return -1;
}

// The accumulators in groups of kGroup values: body(v0, a) with a[0..kGroup) holding values
// v0.. of acc.
// NOTE: a loop over the groups, not unrolled: the body uses a[i] with constant indices, then the
// values still to come move down by kGroup (register moves; a register array indexed at run time
// would go to local memory). Fully unrolled, 64-128 predicated read-modify-writes were the largest
// part of a kernel's cicc and ptxas time.
template <int kGroup, class T, int N, class Body>
TESSERA_HD inline void for_each_group(Fragment<T, N> const& acc, Body const& body) {
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
template <int kStoreBits = 0, class T, int N, class Dst, class Pred>
TESSERA_HD inline void axpby(float alpha, Fragment<T, N> const& acc, float beta, Dst const& d,
                             Pred const& pred) {
  static_assert(kStoreBits == 0 || kStoreBits == 128, "axpby: element stores (default) or axpby<128>");
  static_assert(Dst::size() == N && Pred::size() == N, "axpby: fragment, destination and predicate sizes differ");
  constexpr int kGroup = N % 16 == 0 ? 16 : N;
  if constexpr (kStoreBits == 128) {
    using Out = typename Dst::Element;
    constexpr int kVec = int(16 / sizeof(Out));
    constexpr int kMode = aligned_runs_mode(coords_of(Dst::kSpec), kVec);
    static_assert(kMode >= 0 && kGroup % kVec == 0,
                  "axpby<128>: the fragment's values must come in runs of 16 bytes along one mode of the tensor, "
                  "each starting at a multiple of 16 bytes");
    bool vec = d.stride(unit_coord<Dst::kRank>(kMode)) == 1 && reinterpret_cast<uintptr_t>(d.ptr) % 16 == 0 &&
               pred.all_inside();
TESSERA_UNROLL
    for (int j = 0; j < Dst::kRank; ++j)
      if (j != kMode) vec = vec && d.stride(unit_coord<Dst::kRank>(j)) % kVec == 0;
    if (vec) {
      struct alignas(16) Pack { Out x[kVec]; };
      for_each_group<kGroup>(acc, [&](int v0, T const (&a)[N]) {
TESSERA_UNROLL
        for (int i = 0; i < kGroup; i += kVec) {
          Pack* out = reinterpret_cast<Pack*>(&d(v0 + i));
          Pack r;
          if (beta != 0.0f) r = *out;
TESSERA_UNROLL
          for (int e = 0; e < kVec; ++e)
            r.x[e] = Out(beta == 0.0f ? alpha * a[i + e] : alpha * a[i + e] + beta * float(r.x[e]));
          *out = r;
        }
      });
      return;
    }
  }
  // Element by element, each under its predicate.
  using Out = std::remove_cvref_t<decltype(d(0))>;
  auto each = [&](auto const& test, auto const& update) {
    for_each_group<kGroup>(acc, [&](int v0, T const (&a)[N]) {
TESSERA_UNROLL
      for (int i = 0; i < kGroup; ++i)
        if (test(v0 + i)) update(d(v0 + i), a[i]);
    });
  };
  auto inside = [&](int v) { return pred.inside(v); };
  if constexpr (kStoreBits == 128) {
    // axpby<128>'s fallback (edge tiles, unaligned C): one loop, reading C only where beta != 0
    // (BLAS: with beta = 0, C may hold NaN).
    each(inside, [&](Out& x, float a) { x = Out(beta == 0.0f ? alpha * a : alpha * a + beta * float(x)); });
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
    if (beta == 0.0f) whole ? each(every, write) : each(inside, write);
    else whole ? each(every, blend) : each(inside, blend);
  }
}

}  // namespace tessera
