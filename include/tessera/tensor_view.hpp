// tessera/tensor_view.hpp -- tensors for kernels: static structure, run-time sizes and strides.
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
#pragma once

#include <type_traits>

#include "coord_layout.hpp"
#include "swizzle.hpp"

namespace tessera {

// Static strides: make_stride(unit, lda) has mode 0's stride a static 1 (its coordinate is
// added, not multiplied); fixed<N> is any static stride N, e.g. fixed<0> for a broadcast: a bias
// along M read as an (M,N) tensor, make_stride(unit, fixed<0>), whose N coordinate never moves
// the pointer (CuTe's Int<0>{} / _0{}; unit is fixed<1>). The other modes' strides are run-time.
template <int64_t N>
struct StaticStride {
  static constexpr int64_t value = N;
};
template <int64_t N>
inline constexpr StaticStride<N> fixed{};
using Unit = StaticStride<1>;
inline constexpr Unit unit{};

// Which strides of a rank-R tensor are static, and their values (kRuntime: a run-time stride).
inline constexpr int64_t kRuntime = INT64_MIN;
template <int R>
struct StaticStrides {
  int64_t v[R];
  TESSERA_HD constexpr bool is_static(int j) const { return v[j] != kRuntime; }
};
template <int R>
TESSERA_HD constexpr StaticStrides<R> runtime_strides(int unit_mode = -1) {
  StaticStrides<R> s{};
  for (int j = 0; j < R; ++j) s.v[j] = j == unit_mode ? 1 : kRuntime;
  return s;
}

// The strides of a rank-R tensor: run-time, except the static ones of kFix (folded into the
// offset: a static 0 drops the mode, a static 1 adds its coordinate).
template <int R, StaticStrides<R> kFix = runtime_strides<R>()>
struct Strides {
  static constexpr StaticStrides<R> kStatic = kFix;
  int64_t s[R] = {};
  TESSERA_HD constexpr int64_t operator()(Coord<R> const& c) const {
    int64_t off = 0;
    for (int j = 0; j < R; ++j) off += c.v[j] * (kFix.is_static(j) ? kFix.v[j] : s[j]);
    return off;
  }
};

template <class... Ts>
TESSERA_HD constexpr Coord<int(sizeof...(Ts))> make_shape(Ts... xs) {
  return Coord<int(sizeof...(Ts))>{{int64_t(xs)...}};
}

namespace detail {
template <class T>
struct static_stride_of {
  static constexpr int64_t value = kRuntime;
};
template <int64_t N>
struct static_stride_of<StaticStride<N>> {
  static constexpr int64_t value = N;
};
template <class T>
TESSERA_HD constexpr int64_t stride_value(T x) {
  if constexpr (static_stride_of<T>::value != kRuntime) return static_stride_of<T>::value;
  else return int64_t(x);
}
}  // namespace detail

// make_stride(unit, lda), make_stride(unit, fixed<0>), make_stride(ld, fixed<4>): integers are
// run-time strides, unit and fixed<N> static ones.
template <class... Ts>
TESSERA_HD constexpr auto make_stride(Ts... xs) {
  constexpr int R = int(sizeof...(Ts));
  return Strides<R, StaticStrides<R>{{detail::static_stride_of<Ts>::value...}}>{
      {detail::stride_value(xs)...}};
}

// Strides (s0, s1, ...) of which mode kUnit is known to be 1 (a static 1; its value is not
// read): for kernels instantiated per operand major, make_stride<kMajorMode>(s_m, s_k).
template <int kUnit, class... Ts>
TESSERA_HD constexpr auto make_stride(Ts... xs) {
  constexpr int R = int(sizeof...(Ts));
  static_assert(kUnit >= 0 && kUnit < R, "make_stride: the unit mode is not a mode");
  return Strides<R, runtime_strides<R>(kUnit)>{{int64_t(xs)...}};
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
template <class T, int R, StaticStrides<R> kFix, Spec<R> kS>
struct TensorView {
  static constexpr Spec<R> kSpec = kS;
  static constexpr StaticStrides<R> kStatic = kFix;
  static constexpr int kRank = R;
  using Element = T;
  T* ptr;                  // the element at origin (unused for identity tensors)
  Strides<R, kFix> stride;
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
  TESSERA_HD inline TensorView<T, R, kFix, kNew> moved(Coord<R> const& c) const {
    TensorView<T, R, kFix, kNew> r{ptr, stride, origin + c, shape};
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

// A view whose memory layout is static (shared memory, a fixed tile), possibly swizzled: element
// v is at ptr[Sw(off + F(v))], F the fragment's offset layout (a template argument, lowered like
// a coordinate layout of rank 1), Sw the swizzle (none: ptr[F(v)]). Partitions of it are the
// algebra's partitions of the layout itself. A step inside a swizzled tile (a thread's offset, a
// k-block) moves `off`, under the swizzle; a step by whole swizzle periods (a pipeline stage)
// moves `ptr`, which costs nothing per element.
// The largest power of 2, at most cap, that divides every offset of l (0 offsets aside): the
// alignment a move by one of l's offsets keeps.
TESSERA_HD constexpr int64_t offsets_alignment(Layout const& l, int64_t cap) {
  int64_t a = cap;
  for (int64_t i = 0; i < l.size() && a > 1; ++i)
    while (a > 1 && l(i) % a != 0) a /= 2;
  return a;
}
// A shared tile's pointer is 16-byte aligned (kAlign counts elements from there).
template <class T>
inline constexpr int64_t kSharedAlign = 16 % sizeof(T) == 0 ? int64_t(16 / sizeof(T)) : 1;

// kAlign: a power of 2 that divides the view's offset from its tile's 16-byte aligned pointer
// (before the swizzle), known statically: the thread offsets and slices that moved it were all
// multiples of it. What a vector copy of the view may assume (copy_vector.hpp).
template <class T, Layout kFrg, Swizzle kSw = Swizzle{}, int64_t kAlign = kSharedAlign<T>>
struct OffsetView {
  static constexpr Layout kLayout = kFrg;
  static constexpr Swizzle kSwizzle = kSw;
  static constexpr bool kSwizzled = kSw.bits > 0;
  static constexpr int64_t kAligned = kAlign;
  using Element = T;
  T* ptr;
  int64_t off = 0;  // swizzled views only: the offset inside the swizzled tile
  TESSERA_HD static constexpr int64_t size() { return kFrg.size(); }
  TESSERA_HD inline T& operator()(int64_t v) const {
    static constexpr CoordLayout<1> kF = make_offset_layout(kFrg);
    if constexpr (kSwizzled)
      return ptr[kSw.apply32(uint32_t(off + kF(v)[0]))];  // a tile's offsets are small
    else return ptr[kF(v)[0]];
  }
  // The view moved by offset o (a multiple of kNewAlign) and described by kNew.
  template <Layout kNew, bool kUnderSwizzle = kSwizzled, int64_t kNewAlign = kAlign>
  TESSERA_HD inline OffsetView<T, kNew, kSw, kNewAlign> moved(int64_t o) const {
    if constexpr (kUnderSwizzle) return {ptr, off + o};
    else return {ptr + o, off};
  }
  template <int kMode>
  TESSERA_HD inline auto slice(int64_t k) const {
    static constexpr CoordLayout<1> kM = make_offset_layout(kFrg[kMode]);
    return moved<drop_mode(kFrg, kMode), kSwizzled && !commutes_with(kSw, kFrg[kMode]),
                 offsets_alignment(kFrg[kMode], kAlign)>(kM(k)[0]);
  }
  TESSERA_HD inline auto operator()(Underscore, int64_t k) const { return slice<1>(k); }
  TESSERA_HD inline auto operator()(Underscore, Underscore, int64_t k) const { return slice<2>(k); }
  TESSERA_HD inline auto operator()(Underscore, Underscore, Underscore, int64_t k) const {
    return slice<3>(k);
  }
};

// The thread's share of a static tile: its first element at offset kThr(thread), then kFrg.
template <Layout kFrg, Layout kThr, class T, Layout kL, Swizzle kSw, int64_t kAlign>
TESSERA_HD inline auto thread_offset_view(OffsetView<T, kL, kSw, kAlign> const& v, int64_t thread) {
  static constexpr CoordLayout<1> kT = make_offset_layout(kThr);
  constexpr bool kSwizzled = OffsetView<T, kL, kSw, kAlign>::kSwizzled;
  return v.template moved<kFrg, kSwizzled, offsets_alignment(kThr, kAlign)>(kT(thread)[0]);
}

// A tensor over a static layout, e.g. a shared-memory tile: make_tensor<kSA>(smem), or over a
// swizzled one (Sw o off o L): make_tensor<composition(Swizzle(3, 3, 4), kSA)>(smem). The
// pointer must be 16-byte aligned (vector copies rely on it; TESSERA_DEBUG checks it).
template <Layout kL, class T>
TESSERA_HD constexpr OffsetView<T, kL> make_tensor(T* ptr) {
  return {ptr};
}
template <SwizzledLayout kL, class T>
TESSERA_HD constexpr auto make_tensor(T* ptr) {
  constexpr int64_t kAlign = offsets_alignment(Layout(1, kL.offset), kSharedAlign<T>);
  return OffsetView<T, kL.layout, kL.swizzle, kAlign>{ptr, kL.offset};
}

namespace detail {
// The static strides of the modes of kFix kept by a slice (keep[j]: mode j is `_`).
template <int R, int K>
TESSERA_HD constexpr StaticStrides<K> kept_strides(StaticStrides<R> const& fix,
                                                   const bool (&keep)[R]) {
  StaticStrides<K> r{};
  for (int j = 0, k = 0; j < R; ++j)
    if (keep[j]) r.v[k++] = fix.v[j];
  return r;
}
template <class C>
TESSERA_HD constexpr int64_t slice_coordinate(C c) {
  if constexpr (std::is_same_v<C, Underscore>) return 0;
  else return int64_t(c);
}
}  // namespace detail

// A whole tensor: pointer, run-time shape and strides, e.g. (M,K):(1,lda).
//
// t(c0, c1, ...) with one integer or `_` per mode is the sub-tensor of the modes marked `_`
// (CuTe's slice): the integers fix their modes and move the pointer, the kept modes keep their
// extents and strides (static ones stay static). Attention's (batch, heads, seq, head_dim)
// tensor of one (b, h): mQ(b, h, _, _), (seq, head_dim):(s_seq, 1). (An identity tensor's slice
// counts the kept modes' coordinates from 0.)
template <class T, int R, StaticStrides<R> kFix>
struct Tensor {
  T* ptr;
  Coord<R> shape;
  Strides<R, kFix> stride;

  template <class... Cs>
    requires(sizeof...(Cs) == R && R > 1)
  TESSERA_HD inline auto operator()(Cs... cs) const {
    static constexpr bool kKeep[R] = {std::is_same_v<Cs, Underscore>...};
    constexpr int K = (int(std::is_same_v<Cs, Underscore>) + ...);
    static_assert(K > 0, "Tensor slice: keep at least one mode (`_`)");
    static constexpr StaticStrides<K> kNewFix = detail::kept_strides<R, K>(kFix, kKeep);
    const Coord<R> at{{detail::slice_coordinate(cs)...}};
    Tensor<T, K, kNewFix> r{ptr, {}, {}};
    if constexpr (!std::is_void_v<T>) r.ptr = ptr + stride(at);
    for (int j = 0, k = 0; j < R; ++j)
      if (kKeep[j]) r.shape.v[k] = shape.v[j], r.stride.s[k++] = stride.s[j];
    return r;
  }
};

template <class T, int R, StaticStrides<R> kFix>
TESSERA_HD constexpr Tensor<T, R, kFix> make_tensor(T* ptr, Coord<R> const& shape,
                                                     Strides<R, kFix> const& stride) {
  return {ptr, shape, stride};
}
// The identity tensor of a shape: element c is c itself (CuTe's make_identity_tensor).
template <int R>
TESSERA_HD constexpr Tensor<void, R, runtime_strides<R>()> make_identity_tensor(
    Coord<R> const& shape) {
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
template <auto kTiler, auto kProj, class T, int R, StaticStrides<R> kFix, class... Cs>
TESSERA_HD inline auto local_tile(Tensor<T, R, kFix> const& t, Cs... coord) {
  constexpr int N = int(sizeof...(Cs));
  static_assert(N == int(sizeof(kTiler.v) / sizeof(int64_t)),
                "local_tile: one coordinate per tiler mode");
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
  return TensorView<T, R, kFix, kS>{t.ptr, t.stride, {}, t.shape}.template moved<kS>(origin);
}

}  // namespace tessera
