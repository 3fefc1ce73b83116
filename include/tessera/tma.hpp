// tessera/tma.hpp -- TMA tensor maps from layouts: the shared-memory stage tile says everything.
//
// A TMA copy moves a *box* between a global tensor and shared memory. In shared memory the box is
// one dense column-major block (box[0] innermost), swizzled on address bits by the map's swizzle
// mode. So a shared tile layout S (in elements, optionally Sw<B,4-e,3> o S with 2^e-byte
// elements) is a set of boxes when, per mode, the first leaf of the coalesced mode continues the
// dense block:
//
//   16-bit 128B-swizzled MN-major tile (256,64): Sw<3,3,3> o ((64,4),(8,8)):((1,4096),(64,512))
//     mode 0 (rows) coalesced (64,4):(1,4096): contiguous, box[0] = 64 (128 bytes = the swizzle
//     row) mode 1 (k)    coalesced 64:64          : stride 64 = box[0], box[1] = 64 what is left,
//     4:4096 along rows (step 64 rows), is the grid of boxes: 4 boxes, 8 KB apart.
//
// make_tma_tile reads that off the layout at compile time (box, swizzle mode, the boxes' shared
// offsets and tile coordinates, the split among the CTAs of a multicast); make_tma_args adds a
// global tensor's run-time address, extents and strides and gives cuTensorMapEncodeTiled's
// arguments, checking the driver's rules with an error that names the rule. The swizzle, the box
// and the element width are stated once: in the shared layout.
//
// Device side: copy(TmaLoad{map}, origin, smem, bar) issues the boxes (completing on the mbarrier
// `bar`, multicast among the loaders), copy(TmaStore{map}, smem, origin) the stores.
#pragma once

#include "coord_layout.hpp"
#include "swizzle.hpp"

namespace tessera {

// cuTensorMapEncodeTiled's enumerations, by value (cuda.h's CUtensorMap* enums; tma_encode
// checks they agree), so that host code and tests need no CUDA headers.
enum class TmaSwizzle : int { kNone = 0, k32B = 1, k64B = 2, k128B = 3 };
enum class TmaL2Promotion : int { kNone = 0, k64B = 1, k128B = 2, k256B = 3 };
enum class TmaDataType : int {
  kUInt8 = 0,
  kUInt16 = 1,
  kUInt32 = 2,
  kFloat16 = 6,
  kFloat32 = 7,
  kBFloat16 = 9
};

TESSERA_HD constexpr int64_t tma_data_type_bits(TmaDataType t) {
  return t == TmaDataType::kUInt8 ? 8
         : t == TmaDataType::kUInt16 || t == TmaDataType::kFloat16 || t == TmaDataType::kBFloat16
             ? 16
             : 32;
}
TESSERA_HD constexpr int tma_swizzle_bytes(TmaSwizzle s) {
  return s == TmaSwizzle::kNone ? 0 : 16 << int(s);
}

// The static part of a TMA copy of one shared tile: read off the tile's layout.
struct TmaTile {
  static constexpr int kMaxBoxes = 32;
  int rank = 0;                    // modes of the tile = modes of the global tensor
  int dim_mode[5] = {};  // tensor-map dimension i is tile mode dim_mode[i] (0: contiguous)
  int64_t box[5] = {};             // box extents, tensor-map dimension order
  TmaSwizzle swizzle = TmaSwizzle::kNone;
  int64_t elem_bits = 16;
  int boxes = 0, loaders = 1;      // loader r issues boxes [r, r+1) * boxes / loaders
  int64_t box_offset[kMaxBoxes] = {};  // element offset of box g in the tile (before the swizzle)
  int64_t box_coord[kMaxBoxes][5] =
      {};  // tile coordinate of box g's first element, tile mode order
  TESSERA_HD constexpr int64_t box_elems() const {
    int64_t n = 1;
    for (int i = 0; i < rank; ++i) n *= box[i];
    return n;
  }
  TESSERA_HD constexpr int64_t box_bytes() const { return box_elems() * elem_bits / 8; }
  TESSERA_HD constexpr int64_t bytes() const { return box_bytes() * boxes; }
  TESSERA_HD constexpr int boxes_per_loader() const { return boxes / loaders; }
};

namespace detail {
TESSERA_HD constexpr int log2_exact(int64_t x) {
  int e = 0;
  while ((int64_t(1) << e) < x) ++e;
  return (int64_t(1) << e) == x ? e : -1;
}
// The leaves of a shared tile's modes that one box does not cover: the grid of boxes.
struct BoxGrid {
  Modes leaves;                   // extents and element strides, colexicographic
  int mode[kMaxNodes] = {};       // the tile mode of each leaf
  int64_t step[kMaxNodes] = {};   // coordinate step of a leaf in its tile mode
  TESSERA_HD constexpr void push(int m, int64_t coord_step, int64_t extent, int64_t stride) {
    mode[leaves.n] = m, step[leaves.n] = coord_step;
    leaves.push(extent, stride);
  }
};

// Tensor-map dimension 0 is the tile mode whose first leaf has stride 1; the others follow in
// tile order.
TESSERA_HD constexpr void box_dimension_order(TmaTile& t, Modes const (&mode)[5],
                                              SwizzledLayout const& smem) {
  int unit = -1;
  for (int m = 0; m < t.rank; ++m)
    if (mode[m].d[0] == 1 && mode[m].s[0] > 1 && unit < 0) unit = m;
  if (unit < 0) {
    Text s;
    s << "tma: no mode of the shared tile " << smem.layout
      << " has stride 1; a box's inner dimension is contiguous in shared memory";
    fail(s);
  }
  t.dim_mode[0] = unit;
  for (int m = 0, i = 1; m < t.rank; ++m)
    if (m != unit) t.dim_mode[i++] = m;
}

// Per dimension, the box extent: the mode's first leaf, which must continue the dense block,
// halved while over the cap (outer dimensions only: the inner one is the dense row, cut only by
// the 256 rule). What a box leaves of each mode goes to the grid.
TESSERA_HD constexpr BoxGrid box_extents(TmaTile& t, Modes const (&mode)[5],
                                         SwizzledLayout const& smem, int64_t const (&cap)[5]) {
  BoxGrid grid;
  int64_t dense = 1;
  for (int i = 0; i < t.rank; ++i) {
    const int m = t.dim_mode[i];
    Modes const& l = mode[m];
    const int64_t s0 = l.s[0];
    if (s0 > 1 && l.d[0] != dense) {
      Text s;
      s << "tma: mode " << m << " of the shared tile " << smem.layout << " has stride " << l.d[0]
        << " where the box's dense block needs " << dense
        << " (TMA writes a box as one dense column-major block)";
      fail(s);
    }
    int64_t b = s0;
    while (i > 0 && b > cap[i] && b % 2 == 0) b /= 2;
    t.box[i] = b;
    if (b < s0) grid.push(m, b, s0 / b, b * l.d[0]);
    int64_t step = s0;
    for (int k = 1; k < l.n; ++k) {
      grid.push(m, step, l.s[k], l.d[k]);
      step *= l.s[k];
    }
    dense *= b;
  }
  return grid;
}

// The tensor map's swizzle mode: none, or Sw<B,4-e,3> with B = 1..3 on 2^e-byte elements
// (Sw<B,4,3> on bytes).
TESSERA_HD constexpr TmaSwizzle box_swizzle(SwizzledLayout const& smem, int64_t elem_bits) {
  const Swizzle sw = smem.swizzle;
  const int e = log2_exact(elem_bits / 8);
  if (sw.bits != 0 && (sw.bits > 3 || e < 0 || sw.base != 4 - e || sw.shift != 3)) {
    Text s;
    s << "tma: swizzle " << sw << " of " << elem_bits << "-bit elements is not a TMA swizzle mode "
      << "(Sw<1..3," << 4 - e << ",3>: 32, 64 or 128 bytes)";
    fail(s);
  }
  if (smem.offset != 0) fail("tma: the shared tile's swizzle offset must be 0");
  return TmaSwizzle(sw.bits);
}

// The box's rules: an inner row of a multiple of 16 bytes that fits the swizzle's width, and no
// extent over 256.
TESSERA_HD constexpr void check_box(TmaTile const& t, SwizzledLayout const& smem) {
  const int64_t row_bytes = t.box[0] * t.elem_bits / 8;
  if (row_bytes % 16 != 0) {
    Text s;
    s << "tma: the box's inner row is " << row_bytes << " bytes (" << t.box[0]
      << " elements); TMA needs a multiple of 16 bytes";
    fail(s);
  }
  if (t.swizzle != TmaSwizzle::kNone && row_bytes > tma_swizzle_bytes(t.swizzle)) {
    Text s;
    s << "tma: the box's inner row is " << row_bytes << " bytes but the swizzle "
      << smem.swizzle << " is " << tma_swizzle_bytes(t.swizzle)
      << " bytes wide; a swizzled box's inner row must fit in it";
    fail(s);
  }
  for (int i = 0; i < t.rank; ++i)
    if (t.box[i] > 256) {
      Text s;
      s << "tma: box extent " << t.box[i] << " along mode " << t.dim_mode[i]
        << " of the shared tile " << smem.layout << " is over 256, the largest box dimension";
      fail(s);
    }
}

// Each box's shared offset and tile coordinate, colexicographic over the grid's leaves.
TESSERA_HD constexpr void place_boxes(TmaTile& t, BoxGrid const& grid,
                                      SwizzledLayout const& smem) {
  Modes const& g = grid.leaves;
  int64_t count = 1;
  for (int k = 0; k < g.n; ++k) count *= g.s[k];
  if (count > TmaTile::kMaxBoxes) {
    Text s;
    s << "tma: the shared tile " << smem.layout << " is " << count << " boxes; at most "
      << TmaTile::kMaxBoxes << " (use a wider swizzle or larger boxes)";
    fail(s);
  }
  t.boxes = int(count);
  const int64_t bytes = t.elem_bits / 8;
  for (int64_t b = 0; b < count; ++b) {
    int64_t rest = b;
    for (int k = 0; k < g.n; ++k) {
      const int64_t digit = rest % g.s[k];
      rest /= g.s[k];
      t.box_offset[b] += digit * g.d[k];
      t.box_coord[b][grid.mode[k]] += digit * grid.step[k];
    }
    if (t.box_offset[b] * bytes % 128 != 0) {
      Text s;
      s << "tma: box " << b << " of the shared tile starts at byte " << t.box_offset[b] * bytes
        << "; TMA boxes start on 128-byte boundaries";
      fail(s);
    }
  }
}

// The box of one tile with per-dimension caps, or fails with the rule.
TESSERA_HD constexpr TmaTile tma_boxes(SwizzledLayout const& smem, int64_t elem_bits,
                                       int64_t const (&cap)[5]) {
  TmaTile t;
  t.elem_bits = elem_bits;
  t.rank = smem.layout.rank();
  Modes mode[5];
  for (int m = 0; m < t.rank; ++m) mode[m] = leaves(coalesce(smem.layout[m]));
  box_dimension_order(t, mode, smem);
  const BoxGrid grid = box_extents(t, mode, smem, cap);
  t.swizzle = box_swizzle(smem, elem_bits);
  check_box(t, smem);
  place_boxes(t, grid, smem);
  return t;
}
}  // namespace detail

// A 2-mode shared tile as a tile of `rank` modes (2 or 4): its own two, then two of extent 1
// (e.g. the head and batch modes of a rank-4 tensor: a box never crosses them).
TESSERA_HD constexpr SwizzledLayout with_unit_modes(SwizzledLayout const& tile, int rank) {
  if (rank == 2) return tile;
  return {tile.swizzle, tile.offset,
          make_layout(tile.layout[0], tile.layout[1], Layout(1), Layout(1))};
}

// The boxes of a shared tile (rank <= 5, modes in the global tensor's order), split among
// `loaders` CTAs of a cluster that multicast them to each other (1: no multicast). When the
// boxes do not divide among the loaders, the outermost box dimension that can is cut.
TESSERA_HD constexpr TmaTile make_tma_tile(SwizzledLayout const& smem, int64_t elem_bits,
                                           int loaders = 1) {
  if (smem.layout.rank() > 5) {
    Text s;
    s << "tma: the shared tile " << smem.layout << " has " << smem.layout.rank()
      << " modes; a tensor map has at most 5";
    fail(s);
  }
  if (elem_bits != 8 && elem_bits != 16 && elem_bits != 32 && elem_bits != 64)
    fail("tma: elements are 8, 16, 32 or 64 bits");
  if (loaders < 1 || loaders > 16) fail("tma: 1 to 16 loaders (a cluster has at most 16 CTAs)");
  int64_t cap[5] = {256, 256, 256, 256, 256};
  TmaTile t = detail::tma_boxes(smem, elem_bits, cap);
  if (t.boxes % loaders != 0) {
    int64_t need = loaders;
    for (int64_t g = t.boxes; g % 2 == 0 && need % 2 == 0; g /= 2)
      need /= 2;  // loaders are powers of 2
    int cut = -1;
    for (int i = t.rank - 1; i >= 1 && cut < 0; --i)
      if (t.box[i] % need == 0) cut = i;
    if (cut < 0) {
      Text s;
      s << "tma: the " << t.boxes << " boxes of the shared tile " << smem.layout
        << " cannot be split among " << loaders << " loaders";
      fail(s);
    }
    cap[cut] = t.box[cut] / need;
    t = detail::tma_boxes(smem, elem_bits, cap);
  }
  t.loaders = loaders;
  return t;
}
TESSERA_HD constexpr TmaTile make_tma_tile(Layout const& smem, int64_t elem_bits, int loaders = 1) {
  return make_tma_tile(SwizzledLayout{Swizzle(), 0, smem}, elem_bits, loaders);
}

// The same boxes, every one issued by one CTA for itself (no multicast): a tile that the tensor
// map describes for `loaders` CTAs, loaded whole by one of them.
TESSERA_HD constexpr TmaTile unicast(TmaTile t) {
  t.loaders = 1;
  return t;
}

// cuTensorMapEncodeTiled's arguments, in its order.
struct TmaArgs {
  TmaDataType data_type = TmaDataType::kFloat16;
  int rank = 0;
  uint64_t global_address = 0;
  uint64_t dims[5] = {};
  uint64_t strides[4] = {};        // bytes, of dimensions 1..rank-1
  uint32_t box[5] = {};
  uint32_t elem_strides[5] = {};
  int interleave = 0;              // CU_TENSOR_MAP_INTERLEAVE_NONE
  TmaSwizzle swizzle = TmaSwizzle::kNone;
  TmaL2Promotion l2_promotion = TmaL2Promotion::kNone;
  int oob_fill = 0;  // CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE: out-of-bounds elements are zeros
};

// The arguments for the global tensor at `address` with run-time extents `shape` and element
// strides `stride` (rank R, modes in the tile's order), for the tile's boxes.
template <int R>
TESSERA_HD constexpr TmaArgs make_tma_args(TmaTile const& t, TmaDataType type, uint64_t address,
                                           Coord<R> const& shape, Coord<R> const& stride,
                                           TmaL2Promotion l2 = TmaL2Promotion::kNone) {
  if (R != t.rank) {
    Text s;
    s << "tma: the global tensor has " << R << " modes, the shared tile " << t.rank;
    fail(s);
  }
  if (tma_data_type_bits(type) != t.elem_bits) {
    Text s;
    s << "tma: a " << tma_data_type_bits(type) << "-bit data type for a tile of " << t.elem_bits
      << "-bit elements";
    fail(s);
  }
  const int64_t bytes = t.elem_bits / 8;
  TmaArgs a;
  a.data_type = type;
  a.rank = R;
  a.global_address = address;
  a.swizzle = t.swizzle;
  a.l2_promotion = l2;
  if (address % 16 != 0) {
    Text s;
    s << "tma: the global address " << int64_t(address % 16)
      << " bytes past a 16-byte boundary; TMA needs 16-byte aligned tensors";
    fail(s);
  }
  for (int i = 0; i < R; ++i) {
    const int m = t.dim_mode[i];
    const int64_t extent = shape[m], st = stride[m];
    if (extent < 1 || extent > 0x7fffffff) {
      Text s;
      s << "tma: extent " << extent << " of mode " << m
        << " is not in [1, 2^31 - 1]: TMA box coordinates are int32";
      fail(s);
    }
    if (i == 0 && st != 1) {
      Text s;
      s << "tma: mode " << m << " of the global tensor has stride " << st
        << " but it is the box's inner (shared-memory contiguous) mode: it must have stride 1";
      fail(s);
    }
    if (i > 0 && (st < 1 || st * bytes % 16 != 0 || st * bytes >= (int64_t(1) << 40))) {
      Text s;
      s << "tma: mode " << m << " of the global tensor has a stride of " << st * bytes
        << " bytes; TMA needs a positive multiple of 16 below 2^40";
      fail(s);
    }
    a.dims[i] = uint64_t(extent);
    if (i > 0) a.strides[i - 1] = uint64_t(st * bytes);
    a.box[i] = uint32_t(t.box[i]);
    a.elem_strides[i] = 1;
  }
  return a;
}

}  // namespace tessera

#if defined(__CUDACC__)
#include <cuda.h>
#include <cudaTypedefs.h>
#include <cuda_runtime.h>

#include "atom/sm90.hpp"

namespace tessera {

static_assert(int(CU_TENSOR_MAP_SWIZZLE_128B) == int(TmaSwizzle::k128B) &&
                  int(CU_TENSOR_MAP_SWIZZLE_32B) == int(TmaSwizzle::k32B) &&
                  int(CU_TENSOR_MAP_L2_PROMOTION_L2_256B) == int(TmaL2Promotion::k256B) &&
                  int(CU_TENSOR_MAP_DATA_TYPE_BFLOAT16) == int(TmaDataType::kBFloat16) &&
                  int(CU_TENSOR_MAP_DATA_TYPE_FLOAT32) == int(TmaDataType::kFloat32) &&
                  int(CU_TENSOR_MAP_DATA_TYPE_FLOAT16) == int(TmaDataType::kFloat16),
              "tma.hpp: the enumerations must match cuda.h's");

// Encodes the tensor map (host). Returns false when the driver has no cuTensorMapEncodeTiled or
// rejects the arguments.
inline bool tma_encode(CUtensorMap* map, TmaArgs const& a) {
  static PFN_cuTensorMapEncodeTiled_v12000 encode = [] {
    void* f = nullptr;
    cudaDriverEntryPointQueryResult q;
    if (cudaGetDriverEntryPointByVersion("cuTensorMapEncodeTiled", &f, 12000, cudaEnableDefault,
                                         &q) != cudaSuccess ||
        q != cudaDriverEntryPointSuccess)
      f = nullptr;
    return reinterpret_cast<PFN_cuTensorMapEncodeTiled_v12000>(f);
  }();
  cuuint64_t dims[5], strides[4];
  cuuint32_t box[5], elem_strides[5];
  for (int i = 0; i < a.rank; ++i) {
    dims[i] = a.dims[i], box[i] = a.box[i], elem_strides[i] = a.elem_strides[i];
    if (i > 0) strides[i - 1] = a.strides[i - 1];
  }
  return encode && encode(map, CUtensorMapDataType(a.data_type), cuuint32_t(a.rank),
                          reinterpret_cast<void*>(a.global_address), dims, strides, box,
                          elem_strides, CUtensorMapInterleave(a.interleave),
                          CUtensorMapSwizzle(a.swizzle), CUtensorMapL2promotion(a.l2_promotion),
                          CUtensorMapFloatOOBfill(a.oob_fill)) == CUDA_SUCCESS;
}

// The tensor map's data type of an element type (16-bit floats by name: the type only matters
// for out-of-bounds NaN fills, which these maps do not request).
template <class T>
constexpr TmaDataType tma_data_type() {
  if constexpr (std::is_same_v<T, __half>) return TmaDataType::kFloat16;
  else if constexpr (std::is_same_v<T, __nv_bfloat16>) return TmaDataType::kBFloat16;
  else if constexpr (std::is_same_v<T, float>) return TmaDataType::kFloat32;
  else if constexpr (sizeof(T) == 1) return TmaDataType::kUInt8;
  else if constexpr (sizeof(T) == 2) return TmaDataType::kUInt16;
  else return TmaDataType::kUInt32;
}

// A TMA load of the tile kT through the tensor map `map` (kernel parameter or global memory).
template <TmaTile kT>
struct TmaLoad {
  void const* map;
};
template <TmaTile kT>
struct TmaStore {
  void const* map;
};

// This CTA's boxes of the tile whose first element is at tile coordinate `origin` of the global
// tensor, into the shared tile `smem` (aligned to the swizzle's period), completing their bytes
// on `bar`. With loaders > 1, CTA `loader` of the cluster issues its share, multicast to the
// CTAs in `cta_mask` (by default ranks 0..loaders-1), each completing on its barrier at `bar`'s
// offset. The caller expects kT.bytes() on `bar` in every receiving CTA (arrive_expect_tx).
template <TmaTile kT, int R>
__device__ __forceinline__ void copy(TmaLoad<kT> const& tma, Coord<R> const& origin, void* smem,
                                     uint64_t* bar, int loader = 0,
                                     uint16_t cta_mask = uint16_t((1u << kT.loaders) - 1)) {
  static_assert(R == kT.rank, "copy(TmaLoad): the origin has one coordinate per tile mode");
  constexpr int kPer = kT.boxes_per_loader();
TESSERA_UNROLL
  for (int j = 0; j < kPer; ++j) {
    const int g = kT.loaders == 1 ? j : loader * kPer + j;
    int32_t c[5] = {};
TESSERA_UNROLL
    for (int i = 0; i < R; ++i) {
      const int m = kT.dim_mode[i];
      // (box g's coordinate is a constant when g is: one loader, or the loop fully unrolled)
      int64_t bc = 0;
TESSERA_UNROLL
      for (int h = 0; h < kT.boxes; ++h) bc = h == g ? kT.box_coord[h][m] : bc;
      c[i] = int32_t(origin[m] + bc);
    }
    int64_t off = 0;
TESSERA_UNROLL
    for (int h = 0; h < kT.boxes; ++h) off = h == g ? kT.box_offset[h] : off;
    void* dst = static_cast<char*>(smem) + off * (kT.elem_bits / 8);
    if constexpr (kT.loaders == 1) ptx::tma_load<R>(dst, tma.map, c, bar);
    else ptx::tma_load_multicast<R>(dst, tma.map, c, bar, cta_mask);
  }
}

// Every box of the shared tile `smem` to the global tensor at tile coordinate `origin` (boxes
// clipped at the tensor's bounds). Asynchronous: tma_store_commit / tma_store_wait_read are the
// caller's schedule; shared-memory writes before it need fence_view_async_shared().
template <TmaTile kT, int R>
__device__ __forceinline__ void copy(TmaStore<kT> const& tma, void const* smem,
                                     Coord<R> const& origin) {
  static_assert(R == kT.rank, "copy(TmaStore): the origin has one coordinate per tile mode");
TESSERA_UNROLL
  for (int g = 0; g < kT.boxes; ++g) {
    int32_t c[5] = {};
TESSERA_UNROLL
for (int i = 0; i < R; ++i)
  c[i] = int32_t(origin[kT.dim_mode[i]] + kT.box_coord[g][kT.dim_mode[i]]);
ptx::tma_store<R>(tma.map, static_cast<char const*>(smem) + kT.box_offset[g] * (kT.elem_bits / 8),
                  c);
  }
}
__device__ __forceinline__ void tma_store_commit() { ptx::bulk_commit(); }
template <int N>
__device__ __forceinline__ void tma_store_wait_read() { ptx::bulk_wait_read<N>(); }
template <int N>
__device__ __forceinline__ void tma_store_wait() { ptx::bulk_wait<N>(); }
// Orders this thread's ordinary shared-memory writes before later TMA reads of them.
__device__ __forceinline__ void fence_view_async_shared() { ptx::fence_proxy_async_smem(); }
// Fetches a tensor map (kernel parameter or global memory) into the cache before its first use.
__device__ __forceinline__ void prefetch_tma_map(void const* map) { ptx::prefetch_tensor_map(map); }

}  // namespace tessera
#endif
