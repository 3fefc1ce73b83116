// wgmma shared-memory descriptors from layouts (tessera/gmma.hpp) against fields worked out by
// hand from the PTX ISA's canonical layouts, for each swizzle mode, K-major and MN-major.
#include <gtest/gtest.h>

#include <string>

#include <tessera.hpp>
#include <tessera/gmma.hpp>
#include <tessera/staged_smem.hpp>

using namespace tessera;

namespace {

std::string gmma_error_of(auto&& f) {
  try {
    f();
  } catch (Error const& e) {
    return e.what();
  }
  return "(no error)";
}

struct ExpectedOperand {
  GmmaMajor major;
  int layout_type;
  int64_t lbo, sbo;                 // bytes
  const char* blocks;               // (MN blocks, K blocks) -> element offset
};

void expect_operand(GmmaOperand const& op, ExpectedOperand const& e) {
  EXPECT_EQ(op.major, e.major);
  EXPECT_EQ(op.desc.layout_type, e.layout_type);
  EXPECT_EQ(op.desc.lbo_bytes, e.lbo);
  EXPECT_EQ(op.desc.sbo_bytes, e.sbo);
  EXPECT_EQ(op.desc.base_offset, 0);
  EXPECT_EQ(to_string(op.blocks), e.blocks);
}

GmmaOperand operand16(GmmaSwizzle sw, bool k_major, int64_t rows, int64_t k, int64_t mn) {
  return make_gmma_operand(gmma_smem_tile(sw, k_major, 16, rows, k), 16, mn, 16);
}

}  // namespace

// K-major 16-bit: 8 rows one swizzle row (W elements) apart, SBO to the next 8 rows; LBO is
// unused with a swizzle (16 bytes) and the step between 8x16-byte core matrices along K without.
TEST(GmmaDesc, KMajorEachSwizzle) {
  // 128B: (128,64) = rows 128:64, k 64:1. SBO = 8 x 128 B; blocks (2,4):(4096,16).
  expect_operand(operand16(GmmaSwizzle::kB128, true, 128, 64, 64),
                 {GmmaMajor::kK, 1, 16, 1024, "(2,4):(4096,16)"});
  // 64B: (64,64) = rows 64:32, k (32,2):(1,2048). SBO = 8 x 64 B.
  expect_operand(operand16(GmmaSwizzle::kB64, true, 64, 64, 64),
                 {GmmaMajor::kK, 2, 16, 512, "(1,(2,2)):(0,(16,2048))"});
  // 32B: (64,32) = rows 64:16, k (16,2):(1,1024). SBO = 8 x 32 B.
  expect_operand(operand16(GmmaSwizzle::kB32, true, 64, 32, 64),
                 {GmmaMajor::kK, 3, 16, 256, "(1,2):(0,1024)"});
  // none: (64,16) = rows 64:8, k (8,2):(1,512): core matrices 128 B (8 rows of 16 B); SBO = 128 B
  // to the next 8 rows, LBO = 1024 B to the next 8 elements of K.
  expect_operand(operand16(GmmaSwizzle::kInterleave, true, 64, 16, 64),
                 {GmmaMajor::kK, 0, 1024, 128, "(1,1):(0,0)"});
}

// MN-major 16-bit: one swizzle row along MN, LBO to the next; 8 deep along K one row apart, SBO
// to the next 8. Without a swizzle the roles of LBO and SBO swap (SBO along MN).
TEST(GmmaDesc, MNMajorEachSwizzle) {
  // 128B: kernel 05's B (256,64), N = 256: rows (64,4):(1,4096) -> LBO 8 KB; k 64:64 -> SBO 1 KB.
  expect_operand(operand16(GmmaSwizzle::kB128, false, 256, 64, 256),
                 {GmmaMajor::kMN, 1, 8192, 1024, "(1,4):(0,1024)"});
  // 64B: (64,32): rows (32,2):(1,1024) -> LBO 2 KB; k 32:32 -> SBO 8 x 32 el = 512 B.
  expect_operand(operand16(GmmaSwizzle::kB64, false, 64, 32, 64),
                 {GmmaMajor::kMN, 2, 2048, 512, "(1,2):(0,512)"});
  // 32B: (32,16): rows (16,2):(1,256) -> LBO 512 B; k 16:16 -> SBO 256 B.
  expect_operand(operand16(GmmaSwizzle::kB32, false, 32, 16, 32),
                 {GmmaMajor::kMN, 3, 512, 256, "(1,1):(0,0)"});
  // none: (16,16): rows (8,2):(1,128) -> SBO 256 B along MN; k 16:8 -> LBO 8 x 16 B = 128 B along
  // K.
  expect_operand(operand16(GmmaSwizzle::kInterleave, false, 16, 16, 16),
                 {GmmaMajor::kMN, 0, 128, 256, "(1,1):(0,0)"});
}

// tf32 (32-bit elements, K = 8) K-major 128B (128,32): rows 128:32, k 32:1; blocks (2,4):(2048,8).
TEST(GmmaDesc, Tf32AndEncoding) {
  GmmaOperand op =
      make_gmma_operand(gmma_smem_tile(GmmaSwizzle::kB128, true, 32, 128, 32), 32, 64, 8);
  expect_operand(op, {GmmaMajor::kK, 1, 16, 1024, "(2,4):(2048,8)"});
  EXPECT_EQ(op.block_bytes(1, 3),
            2048 * 4 + 3 * 32);  // 64 rows of 32 elements on, 3 k-steps of 32 B
  // Bits: start 0x1230 >> 4 in 0-13, LBO 1 in 16-29, SBO 64 in 32-45, 128B (1) in 62-63.
  EXPECT_EQ(op.desc.encode(0x1230),
            uint64_t(0x123) | uint64_t(1) << 16 | uint64_t(64) << 32 | uint64_t(1) << 62);
  // The descriptor the former hand-built code encoded (make_gmma_descriptor) for kernel 05's tiles.
  for (bool k_major : {true, false}) {
    SwizzledLayout tile = gmma_smem_tile(GmmaSwizzle::kB128, k_major, 16, 256, 64);
    GmmaDescriptor old = make_gmma_descriptor(tile, k_major, 16);
    GmmaOperand now = make_gmma_operand(tile, 16, 256, 16);
    EXPECT_EQ(now.desc.encode(0x4000), old.encode(0x4000)) << k_major;
  }
}

// advance(encode(start), offset) is encode(start + offset) for every shared address (below 228
// KiB, on 16 bytes) and every block of five stage tiles: both majors, 16-bit, FP8 and tf32, the
// 128- and 64-byte swizzles.
TEST(GmmaDesc, AdvanceIsEncodeOfTheBlock) {
  struct Tile {
    GmmaSwizzle swizzle;
    bool k_major;
    int64_t bits, mn, k, block_mn;
  };
  const Tile tiles[] = {{GmmaSwizzle::kB128, true, 16, 128, 64, 64},
                        {GmmaSwizzle::kB128, false, 16, 256, 64, 256},
                        {GmmaSwizzle::kB64, false, 16, 64, 32, 64},
                        {GmmaSwizzle::kB128, true, 8, 128, 128, 64},
                        {GmmaSwizzle::kB128, true, 32, 128, 32, 64}};
  int checked = 0;
  for (Tile const& t : tiles) {
    const SwizzledLayout tile = gmma_smem_tile(t.swizzle, t.k_major, t.bits, t.mn, t.k);
    const GmmaOperand op = make_gmma_operand(tile, t.bits, t.block_mn, 256 / t.bits);
    ASSERT_TRUE(op.blocks_on_16_bytes());
    for (int64_t i = 0; i < op.blocks[0].size(); ++i)
      for (int64_t j = 0; j < op.blocks[1].size(); ++j) {
        const int64_t bytes = op.block_bytes(i, j);
        for (uint32_t start = 0; start + bytes < 228 * 1024; start += 16, ++checked)
          ASSERT_EQ(GmmaDesc::advance(op.desc.encode(start), uint32_t(bytes)),
                    op.desc.encode(start + uint32_t(bytes)))
              << "start " << start << ", block (" << i << "," << j << ")";
      }
  }
  EXPECT_GT(checked, 100000);
  // From 2^18 bytes on, the sum leaves the 14-bit start field (encode wraps the address): the
  // reason for the bound above.
  const SwizzledLayout tile = gmma_smem_tile(GmmaSwizzle::kB128, true, 16, 64, 64);
  const GmmaDesc d = make_gmma_operand(tile, 16, 64, 16).desc;
  EXPECT_NE(GmmaDesc::advance(d.encode((1u << 18) - 16), 16), d.encode(1u << 18));
}

// FP8 (one-byte elements), the FP8 GEMM's stage: K-major only, one 128-byte swizzled row holds 128
// elements of K (four k-steps of 32); Sw<3,4,3> on elements (16-byte chunks are 16 elements).
TEST(GmmaDesc, Fp8KMajor) {
  SwizzledLayout tile = gmma_smem_tile(GmmaSwizzle::kB128, true, 8, 128, 128);
  EXPECT_EQ(to_string(tile.swizzle), "Sw<3,4,3>");
  EXPECT_EQ(to_string(tile.layout), "((8,16),(128,1)):((128,1024),(1,16384))");
  GmmaOperand op = make_gmma_operand(tile, 8, 64, 32);
  // SBO: 8 rows of 128 bytes; blocks: 64 rows (8 KiB) apart along M, k-steps 32 bytes apart.
  expect_operand(op, {GmmaMajor::kK, 1, 16, 1024, "(2,4):(8192,32)"});
  EXPECT_EQ(op.block_bytes(1, 3), 8192 + 3 * 32);
  // The staged tile reads the same blocks (256 / 8 = 32 elements deep) and TMA boxes of bytes.
  constexpr StagedTile kA = make_staged_tile(8, 128, 128, true, 64, 4);
  expect_operand(kA.mma, {GmmaMajor::kK, 1, 16, 1024, "(2,4):(8192,32)"});
  EXPECT_EQ(kA.stage_bytes(), 16384);
  EXPECT_EQ(kA.tma.bytes(), 16384);
  // MN-major FP8 is not a wgmma layout: the rule says so.
  EXPECT_NE(gmma_error_of([] { (void)make_staged_tile(8, 128, 128, false, 128, 1); })
                .find("the 8-bit operand tile"),
            std::string::npos);
}

TEST(GmmaDesc, RulesNamed) {
  // 16-element rows under a 128-byte swizzle: row 1 must be 64 elements (one swizzle row) on.
  EXPECT_EQ(
      gmma_error_of([] {
        make_gmma_operand(parse_swizzled_layout("Sw<3,3,3> o 0 o (64,16):(16,1)"), 16, 64, 16);
      }),
      "gmma: the 64x16 block of the K-major operand tile Sw<3,3,3> o (64,16):(16,1) is not a "
      "canonical wgmma "
      "layout: its mode 0 must be 8:64 then at most one more stride (rows of one swizzle width)");
  EXPECT_EQ(
      gmma_error_of([] {
        make_gmma_operand(parse_swizzled_layout("Sw<3,4,3> o 0 o (64,64):(64,1)"), 16, 64, 16);
      }),
      "gmma: swizzle Sw<3,4,3> (offset 0) is not a wgmma swizzle mode of 16-bit elements: none, or "
      "Sw<1..3,3,3> (32, 64, 128 bytes) at offset 0");
  EXPECT_EQ(gmma_error_of([] { make_gmma_operand(parse_layout("(64,16):(17,64)"), 16, 64, 16); }),
            "gmma: the operand tile (64,16):(17,64) is neither K-major nor MN-major (no mode "
            "starts with stride 1)");
  EXPECT_EQ(gmma_error_of([] { make_gmma_operand(parse_layout("(64,32):(32,1)"), 16, 64, 32); }),
            "gmma: a wgmma block is 32 bytes deep along K: 16 elements of 16 bits, not 32");
  EXPECT_EQ(gmma_error_of([] { make_gmma_operand(parse_layout("(60,16):(16,1)"), 16, 64, 16); }),
            "gmma: mode 0 of the operand tile (60,16):(16,1) does not divide into blocks of 64");
  // Rows of 8 elements in no-swizzle K-major, but the 8 rows are not 16 bytes apart.
  EXPECT_EQ(
      gmma_error_of([] { make_gmma_operand(parse_layout("(64,16):(16,1)"), 16, 64, 16); }),
      "gmma: the 64x16 block of the K-major operand tile Sw<0,0,0> o (64,16):(16,1) is not a "
      "canonical wgmma "
      "layout: its mode 0 must be 8:8 then at most one more stride (8x16-byte core matrices)");
  // MN-major tiles are for 16-bit elements: a tf32 (32-bit) MN-major tile is canonical in shape but
  // not readable.
  EXPECT_EQ(gmma_error_of([] {
              make_gmma_operand(gmma_smem_tile(GmmaSwizzle::kB128, false, 32, 64, 8), 32, 64, 8);
            }),
            "gmma: wgmma reads MN-major tiles of 16-bit elements only (f16, bf16); the 32-bit "
            "operand tile "
            "((32,2),(8,1)):((1,256),(32,256)) must be K-major");
}

static_assert(make_gmma_operand(gmma_smem_tile(GmmaSwizzle::kB128, true, 16, 128, 64), 16, 64, 16)
                  .desc.sbo_bytes == 1024);
