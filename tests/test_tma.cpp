// Tensor-map arguments from layouts (tessera/tma.hpp) against values worked out by hand from
// the canonical shared tiles of each swizzle mode, K-major and MN-major, and the driver's rules.
#include <gtest/gtest.h>

#include <string>

#include <tessera.hpp>
#include <tessera/tma.hpp>

using namespace tessera;

namespace {

// A 16-bit tile as the GMMA atoms build it (atom/smem.hpp).
SwizzledLayout tile16(GmmaSwizzle sw, bool k_major, int64_t rows, int64_t k) {
  return gmma_smem_tile(sw, k_major, 16, rows, k);
}

std::string tma_error_of(auto&& f) {
  try {
    f();
  } catch (Error const& e) {
    return e.what();
  }
  return "(no error)";
}

struct ExpectedTile {
  int dim_mode0;
  int64_t box0, box1;
  TmaSwizzle swizzle;
  int boxes;
  int64_t offset1;      // element offset of box 1 (0 when one box)
  int64_t coord1[2];    // tile coordinate of box 1
};

void expect_tile(TmaTile const& t, ExpectedTile const& e) {
  EXPECT_EQ(t.rank, 2);
  EXPECT_EQ(t.dim_mode[0], e.dim_mode0);
  EXPECT_EQ(t.dim_mode[1], 1 - e.dim_mode0);
  EXPECT_EQ(t.box[0], e.box0);
  EXPECT_EQ(t.box[1], e.box1);
  EXPECT_EQ(t.swizzle, e.swizzle);
  EXPECT_EQ(t.boxes, e.boxes);
  EXPECT_EQ(t.box_offset[0], 0);
  if (e.boxes > 1) {
    EXPECT_EQ(t.box_offset[1], e.offset1);
    EXPECT_EQ(t.box_coord[1][0], e.coord1[0]);
    EXPECT_EQ(t.box_coord[1][1], e.coord1[1]);
  }
}

}  // namespace

// K-major (rows, k) tiles: the box's inner dimension is K (one swizzle row), then rows.
TEST(TmaTile, KMajorEachSwizzle) {
  // none: atom (8,8):(8,1); tile (64,16) = k (8,2):(1,512), rows 64:8 -> box (8,64), 2 boxes
  // along k, 512 elements (1 KB) apart.
  expect_tile(make_tma_tile(tile16(GmmaSwizzle::kInterleave, true, 64, 16), 16),
              {1, 8, 64, TmaSwizzle::kNone, 2, 512, {0, 8}});
  // 32B: atom Sw<1,3,3> o (8,16):(16,1); tile (64,32) = k (16,2):(1,1024), rows 64:16.
  expect_tile(make_tma_tile(tile16(GmmaSwizzle::kB32, true, 64, 32), 16),
              {1, 16, 64, TmaSwizzle::k32B, 2, 1024, {0, 16}});
  // 64B: tile (64,64) = k (32,2):(1,2048), rows 64:32.
  expect_tile(make_tma_tile(tile16(GmmaSwizzle::kB64, true, 64, 64), 16),
              {1, 32, 64, TmaSwizzle::k64B, 2, 2048, {0, 32}});
  // 128B: tile (128,64) = k 64:1, rows 128:64: one box of the whole tile.
  expect_tile(make_tma_tile(tile16(GmmaSwizzle::kB128, true, 128, 64), 16),
              {1, 64, 128, TmaSwizzle::k128B, 1, 0, {0, 0}});
}

// MN-major tiles: the inner dimension is MN (one swizzle row of elements), then K; blocks of
// rows are the grid.
TEST(TmaTile, MNMajorEachSwizzle) {
  // none: atom (8,8):(1,8); tile (16,16) = rows (8,2):(1,128), k 16:8 -> box (8,16), 2 boxes.
  expect_tile(make_tma_tile(tile16(GmmaSwizzle::kInterleave, false, 16, 16), 16),
              {0, 8, 16, TmaSwizzle::kNone, 2, 128, {8, 0}});
  // 32B: atom (16,8):(1,16); tile (32,16) = rows (16,2):(1,256), k 16:16.
  expect_tile(make_tma_tile(tile16(GmmaSwizzle::kB32, false, 32, 16), 16),
              {0, 16, 16, TmaSwizzle::k32B, 2, 256, {16, 0}});
  // 64B: tile (64,16) = rows (32,2):(1,512), k 16:32.
  expect_tile(make_tma_tile(tile16(GmmaSwizzle::kB64, false, 64, 16), 16),
              {0, 32, 16, TmaSwizzle::k64B, 2, 512, {32, 0}});
  // 128B: kernel 05's B tile (256,64) = rows (64,4):(1,4096), k 64:64 -> 4 boxes of (64,64).
  TmaTile t = make_tma_tile(tile16(GmmaSwizzle::kB128, false, 256, 64), 16);
  expect_tile(t, {0, 64, 64, TmaSwizzle::k128B, 4, 4096, {64, 0}});
  EXPECT_EQ(t.box_offset[3], 3 * 4096);
  EXPECT_EQ(t.box_coord[3][0], 192);
  EXPECT_EQ(t.box_bytes(), 8192);
  EXPECT_EQ(t.bytes(), 256 * 64 * 2);
}

// Multicast: the boxes are split among the loaders; a single box is cut along its outer
// dimension first.
TEST(TmaTile, MulticastSplit) {
  // kernel 05's K-major B (256,64), 2 loaders: (64,256) -> two (64,128) boxes, rows 0 and 128.
  TmaTile t = make_tma_tile(tile16(GmmaSwizzle::kB128, true, 256, 64), 16, 2);
  expect_tile(t, {1, 64, 128, TmaSwizzle::k128B, 2, 128 * 64, {128, 0}});
  EXPECT_EQ(t.boxes_per_loader(), 1);
  // MN-major: 4 boxes already divide among 2 loaders.
  TmaTile u = make_tma_tile(tile16(GmmaSwizzle::kB128, false, 256, 64), 16, 2);
  EXPECT_EQ(u.boxes, 4);
  EXPECT_EQ(u.boxes_per_loader(), 2);
  EXPECT_EQ(u.box[0], 64);
}

// The arguments of cuTensorMapEncodeTiled for run-time tensors.
TEST(TmaArgs, KMajorAndMNMajor) {
  // A K-major (M,K) = (1000,520), lda = 520 (1040 bytes): dims (K, M), strides {1040}.
  TmaTile t = make_tma_tile(tile16(GmmaSwizzle::kB32, true, 64, 32), 16);
  TmaArgs a = make_tma_args(t, TmaDataType::kBFloat16, 0x10000, Coord<2>{{1000, 520}},
                            Coord<2>{{520, 1}}, TmaL2Promotion::k256B);
  EXPECT_EQ(a.rank, 2);
  EXPECT_EQ(a.data_type, TmaDataType::kBFloat16);
  EXPECT_EQ(a.global_address, 0x10000u);
  EXPECT_EQ(a.dims[0], 520u);
  EXPECT_EQ(a.dims[1], 1000u);
  EXPECT_EQ(a.strides[0], 1040u);
  EXPECT_EQ(a.box[0], 16u);
  EXPECT_EQ(a.box[1], 64u);
  EXPECT_EQ(a.elem_strides[0], 1u);
  EXPECT_EQ(a.elem_strides[1], 1u);
  EXPECT_EQ(a.swizzle, TmaSwizzle::k32B);
  EXPECT_EQ(a.interleave, 0);
  EXPECT_EQ(a.l2_promotion, TmaL2Promotion::k256B);
  EXPECT_EQ(a.oob_fill, 0);
  // An MN-major B (N,K) = (300,77), ldb = 304: dims (N, K), strides {608}, box (64,64).
  TmaTile u = make_tma_tile(tile16(GmmaSwizzle::kB128, false, 256, 64), 16, 2);
  TmaArgs b =
      make_tma_args(u, TmaDataType::kFloat16, 0x20000, Coord<2>{{300, 77}}, Coord<2>{{1, 304}});
  EXPECT_EQ(b.dims[0], 300u);
  EXPECT_EQ(b.dims[1], 77u);
  EXPECT_EQ(b.strides[0], 608u);
  EXPECT_EQ(b.box[0], 64u);
  EXPECT_EQ(b.box[1], 64u);
  EXPECT_EQ(b.swizzle, TmaSwizzle::k128B);
  EXPECT_EQ(b.l2_promotion, TmaL2Promotion::kNone);
  // 32-bit (tf32) K-major, 128B: one row of 32 elements.
  TmaTile f = make_tma_tile(gmma_smem_tile(GmmaSwizzle::kB128, true, 32, 128, 32), 32);
  EXPECT_EQ(f.box[0], 32);
  EXPECT_EQ(f.box[1], 128);
  EXPECT_EQ(f.swizzle, TmaSwizzle::k128B);
  TmaArgs c =
      make_tma_args(f, TmaDataType::kFloat32, 0x30000, Coord<2>{{129, 33}}, Coord<2>{{36, 1}});
  EXPECT_EQ(c.strides[0], 144u);
}

// A rank-3 tile (a batch mode) keeps the tile's mode order after the contiguous mode.
TEST(TmaArgs, ThreeModes) {
  TmaTile t = make_tma_tile(parse_layout("(8,64,2):(64,1,512)"), 16);
  EXPECT_EQ(t.rank, 3);
  EXPECT_EQ(t.dim_mode[0], 1);
  EXPECT_EQ(t.dim_mode[1], 0);
  EXPECT_EQ(t.dim_mode[2], 2);
  EXPECT_EQ(t.box[0], 64);
  EXPECT_EQ(t.box[1], 8);
  EXPECT_EQ(t.box[2], 2);
  TmaArgs a =
      make_tma_args(t, TmaDataType::kUInt16, 0, Coord<3>{{100, 200, 3}}, Coord<3>{{256, 1, 25600}});
  EXPECT_EQ(a.dims[0], 200u);
  EXPECT_EQ(a.dims[1], 100u);
  EXPECT_EQ(a.dims[2], 3u);
  EXPECT_EQ(a.strides[0], 512u);
  EXPECT_EQ(a.strides[1], 51200u);
}

// Each rule the driver (or the instruction) imposes, named in the message.
TEST(TmaArgs, RulesNamed) {
  TmaTile t = make_tma_tile(tile16(GmmaSwizzle::kB128, true, 128, 64), 16);
  auto args = [&](uint64_t address, int64_t m, int64_t k, int64_t lda) {
    return make_tma_args(t, TmaDataType::kFloat16, address, Coord<2>{{m, k}}, Coord<2>{{lda, 1}});
  };
  EXPECT_EQ(
      tma_error_of([&] { args(0x1008, 64, 64, 64); }),
      "tma: the global address 8 bytes past a 16-byte boundary; TMA needs 16-byte aligned tensors");
  EXPECT_EQ(tma_error_of([&] { args(0x1000, 64, 63, 63); }),
            "tma: mode 0 of the global tensor has a stride of 126 bytes; TMA needs a positive "
            "multiple of 16 below 2^40");
  EXPECT_EQ(
      tma_error_of([&] { args(0x1000, int64_t(1) << 31, 64, 64); }),
      "tma: extent 2147483648 of mode 0 is not in [1, 2^31 - 1]: TMA box coordinates are int32");
  EXPECT_EQ(tma_error_of([&] {
              make_tma_args(t, TmaDataType::kFloat16, 0, Coord<2>{{64, 64}}, Coord<2>{{1, 64}});
            }),
            "tma: mode 1 of the global tensor has stride 64 but it is the box's inner "
            "(shared-memory contiguous) "
            "mode: it must have stride 1");
  EXPECT_EQ(tma_error_of([&] {
              make_tma_args(t, TmaDataType::kFloat32, 0, Coord<2>{{64, 64}}, Coord<2>{{64, 1}});
            }),
            "tma: a 32-bit data type for a tile of 16-bit elements");
  EXPECT_EQ(
      tma_error_of([&] { make_tma_tile(parse_layout("(2,2,2,2,2,2):(1,2,4,8,16,32)"), 16); }),
      "tma: the shared tile (2,2,2,2,2,2):(1,2,4,8,16,32) has 6 modes; a tensor map has at most 5");
  EXPECT_EQ(tma_error_of([&] { make_tma_tile(parse_layout("(512,2):(1,512)"), 16); }),
            "tma: box extent 512 along mode 0 of the shared tile (512,2):(1,512) is over 256, the "
            "largest box "
            "dimension");
  // Sw<3,3,3> over 128-element (256-byte) rows: wider than the 128-byte swizzle.
  EXPECT_EQ(tma_error_of([&] {
              make_tma_tile(parse_swizzled_layout("Sw<3,3,3> o 0 o (8,128):(128,1)"), 16);
            }),
            "tma: the box's inner row is 256 bytes but the swizzle Sw<3,3,3> is 128 bytes wide; a "
            "swizzled box's "
            "inner row must fit in it");
  EXPECT_EQ(
      tma_error_of(
          [&] { make_tma_tile(parse_swizzled_layout("Sw<3,4,3> o 0 o (8,64):(64,1)"), 16); }),
      "tma: swizzle Sw<3,4,3> of 16-bit elements is not a TMA swizzle mode (Sw<1..3,3,3>: 32, 64 "
      "or 128 "
      "bytes)");
  EXPECT_EQ(tma_error_of([&] { make_tma_tile(parse_layout("(4,64):(1,8)"), 16); }),
            "tma: mode 1 of the shared tile (4,64):(1,8) has stride 8 where the box's dense block "
            "needs 4 (TMA "
            "writes a box as one dense column-major block)");
  EXPECT_EQ(tma_error_of([&] { make_tma_tile(parse_layout("(8,4):(4,8)"), 16); }),
            "tma: no mode of the shared tile (8,4):(4,8) has stride 1; a box's inner dimension is "
            "contiguous in "
            "shared memory");
  EXPECT_EQ(tma_error_of([&] { make_tma_tile(parse_layout("(4,8):(1,4)"), 16); }),
            "tma: the box's inner row is 8 bytes (4 elements); TMA needs a multiple of 16 bytes");
}

// The tile is a compile-time value: a kernel binds it as a constant.
static_assert(make_tma_tile(gmma_smem_tile(GmmaSwizzle::kB128, false, 16, 256, 64), 16, 2).boxes ==
              4);
