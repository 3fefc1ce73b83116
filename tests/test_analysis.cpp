// Memory-access analysis: the stores table (R values per thread), hand-checked bank-conflict and
// coalescing cases.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include <tessera.hpp>

using namespace tessera;
using namespace tessera::literals;

namespace {

// A run-time copy: GCC tries to constant-fold every initializer whose inputs are constants, and a
// whole-tile analysis folded at compile time costs a minute of compilation. rt() stops that.
template <class T>
T rt(T const& x) {
  volatile int keep = 0;
  (void)keep;
  return x;
}

constexpr AccessSpec kSharedLoadF32{32, MemSpace::kShared, false, 128};
constexpr AccessSpec kSharedScalarF32{32, MemSpace::kShared, false, 32};
constexpr AccessSpec kSharedLoadF16{16, MemSpace::kShared, false, 128};
constexpr AccessSpec kGlobalLoadF32{32, MemSpace::kGlobal, false, 128};
constexpr AccessSpec kGlobalStoreF32{32, MemSpace::kGlobal, true, 128};

// Thread 0's positions grouped into runs of consecutive values: "[0,1],[32,33]".
std::string groups(PermutationChoice const& c) {
  std::string s;
  for (int64_t i = 0; i < c.n_positions; ++i) {
    bool opens = i == 0 || c.positions[i] != c.positions[i - 1] + 1;
    bool closes = i + 1 == c.n_positions || c.positions[i + 1] != c.positions[i] + 1;
    s += opens ? (i ? ", [" : "[") : ",";
    s += std::to_string(c.positions[i]);
    if (closes) s += "]";
  }
  return s;
}

// A warp reads a 32x32 float tile: lane l takes row l, value j column j.
TvAccess rows_by_lane(SwizzledLayout const& tile) {
  return TvAccess{rt("(32,32):(1,32)"_layout), tile};
}

// ldmatrix x4 over an (8,64) half tile: lane l gives the address of row l % 8, 16-byte chunk
// l / 8; the 8 halves of that row are its values. Tile index (r, c) = r + 8c.
TvAccess ldmatrix_rows(SwizzledLayout const& tile) {
  return TvAccess{rt("((8,4),8):((1,64),8)"_layout), tile};
}

}  // namespace

TEST(Analysis, StoresPerThreadTable) {
  struct Row {
    int64_t r, period, reps;
    const char* positions;
    const char* shape;
    int64_t access_bits, run_bits;
    Grade grade;
  };
  // The stores table: "Bad — scattered writes", "OK — 64-bit stores",
  // "Great — 128-bit vector stores", "Great — 256-bit, one contiguous block" (the widest single
  // access is 128 bits; the 256-bit contiguous run is stored as two).
  Row rows[] = {
      {1, 16, 8, "[0], [16], [32], [48], [64], [80], [96], [112]", "(1,8)", 32, 32, Grade::kBad},
      {2, 32, 4, "[0,1], [32,33], [64,65], [96,97]", "(2,4)", 64, 64, Grade::kOk},
      {4, 64, 2, "[0,1,2,3], [64,65,66,67]", "(4,2)", 128, 128, Grade::kGreat},
      {8, 128, 1, "[0,1,2,3,4,5,6,7]", "(8,1)", 128, 256, Grade::kGreat},
  };
  for (Row const& w : rows) {
    SCOPED_TRACE(w.r);
    PermutationChoice c = permutation_choice(rt(w.r));
    EXPECT_EQ(c.period, w.period);
    EXPECT_EQ(c.reps, w.reps);
    EXPECT_EQ(groups(c), w.positions);
    EXPECT_EQ("(" + std::to_string(c.r) + "," + std::to_string(c.reps) + ")", w.shape);
    EXPECT_EQ(c.report.vector_bits, w.access_bits);
    EXPECT_EQ(c.report.run_bits, w.run_bits);
    EXPECT_EQ(c.report.grade, w.grade);
    EXPECT_EQ(c.report.footprint_efficiency(), 100);  // every choice fills its sectors in the end
  }
  // The library's fragment modes: CuTe drops the size-1 modes of (1,8) and (8,1).
  EXPECT_EQ(to_string(permutation_choice(rt(int64_t(1))).shape), "8");
  EXPECT_EQ(to_string(permutation_choice(rt(int64_t(2))).shape), "(2,4)");
  EXPECT_EQ(to_string(permutation_choice(rt(int64_t(4))).shape), "(4,2)");
  EXPECT_EQ(to_string(permutation_choice(rt(int64_t(8))).shape), "8");
  EXPECT_EQ(std::string(permutation_choice(rt(int64_t(1))).report.verdict.c_str()),
            "32-bit stores, 64 bytes (half a line) per row of 16 threads: scattered, 4x the stores "
            "of 128-bit accesses");
  EXPECT_EQ(std::string(permutation_choice(rt(int64_t(2))).report.verdict.c_str()),
            "64-bit stores, 1 full line per row of 16 threads: coalesced, 2x the stores of 128-bit "
            "accesses");
  // R = 8: 16 bytes every 32 per store, so each store touches twice the sectors it fills.
  AccessReport r8 = permutation_choice(rt(int64_t(8))).report;
  EXPECT_EQ(r8.sectors_per_request(), 32);
  EXPECT_EQ(r8.sector_efficiency(), 50);
  EXPECT_EQ(
      std::string(r8.verdict.c_str()),
      "128-bit stores, 16 bytes every 32 per row of 16 threads: coalesced; each store uses 50% of "
      "its sectors, the warp's stores together fill them");
  EXPECT_THROW(permutation_choice(rt(int64_t(16))), Error);  // 16 x 16 does not divide 128
}

TEST(Analysis, Step1CStoresAre128BitCoalesced) {
  Layout c = rt("(128,128):(128,1)"_layout);
  AccessReport r =
      analyze(MmaAccess{rt(presets::step1()), Operand::kC, unswizzled(c)}, kGlobalStoreF32);
  EXPECT_EQ(r.threads, 256);
  EXPECT_EQ(r.warps, 8);
  EXPECT_EQ(r.values, 64);
  EXPECT_EQ(r.vector_bits, 128);
  EXPECT_EQ(r.in_order_bits, 32);  // fragment order (V,M,N) walks M first: stride 128
  EXPECT_EQ(r.instructions, 16);
  EXPECT_EQ(r.sectors_per_request(), 16);
  EXPECT_EQ(r.lines_per_request(), 4);
  EXPECT_EQ(r.sector_efficiency(), 100);
  EXPECT_EQ(r.grade, Grade::kGreat);
  EXPECT_EQ(std::string(r.verdict.c_str()),
            "128-bit stores, 2 full lines per row of 16 threads: coalesced");
}

TEST(Analysis, ColumnReadOf32x32FloatsIs32Way) {
  // One column: lane l reads (l, 0) of the row-major tile: all 32 words in bank 0.
  AccessReport one =
      analyze(TvAccess{rt("32:1"_layout), unswizzled(rt("(32,32):(32,1)"_layout))}, kSharedLoadF32);
  EXPECT_EQ(one.values, 1);
  EXPECT_EQ(one.vector_bits, 32);
  EXPECT_EQ(one.wavefronts, 32);
  EXPECT_EQ(one.ideal_wavefronts, 1);
  EXPECT_EQ(one.max_way, 32);
  EXPECT_EQ(one.grade, Grade::kBad);
  EXPECT_EQ(std::string(one.verdict.c_str()),
            "32-bit loads, 32-way bank conflicts (32 wavefronts per access, ideal 1)");
  // Every column, scalar code: 32 loads, each 32-way.
  AccessReport all =
      analyze(rows_by_lane(unswizzled(rt("(32,32):(32,1)"_layout))), kSharedScalarF32);
  EXPECT_EQ(all.instructions, 32);
  EXPECT_EQ(all.wavefronts, 32 * 32);
  EXPECT_EQ(all.conflicts(), 32 * 31);
  EXPECT_EQ(all.max_way, 32);
  // Vectorized, a lane reads 4 floats of its row: 8 lanes per phase all in banks 0-3: 8-way.
  AccessReport vec = analyze(rows_by_lane(unswizzled(rt("(32,32):(32,1)"_layout))), kSharedLoadF32);
  EXPECT_EQ(vec.vector_bits, 128);
  EXPECT_EQ(vec.wavefronts_per_request(), 32);
  EXPECT_EQ(vec.max_way, 8);
}

TEST(Analysis, PaddingRemovesTheConflicts) {
  // 32x33: row l starts at word 33 l, bank (l + j) % 32.
  AccessReport r = analyze(rows_by_lane(unswizzled(rt("(32,32):(33,1)"_layout))), kSharedLoadF32);
  EXPECT_EQ(r.vector_bits, 32);  // rows start at odd words: no 64-bit alignment
  EXPECT_EQ(r.conflicts(), 0);
  EXPECT_EQ(r.max_way, 1);
  EXPECT_EQ(r.grade, Grade::kBad);  // conflict-free, but 4x the loads of 128-bit accesses
  EXPECT_EQ(std::string(r.verdict.c_str()),
            "32-bit loads, conflict-free (1 wavefront per access, ideal 1), 4x the loads of "
            "128-bit accesses");
}

TEST(Analysis, DerivedXorSwizzleForFloats) {
  // The column read needs 32 distinct banks for 32 rows: XOR the 5 row bits (offset bits 5..9)
  // into the 5 word bits 0..4 of a float offset: Sw<5,0,5>. Sw<3,2,3> (16-byte chunks, 8 rows)
  // leaves rows r and r+8 in the same bank: 4-way.
  auto make = [](Swizzle sw) {
    return rows_by_lane(SwizzledLayout{sw, 0, rt("(32,32):(32,1)"_layout)});
  };
  bool found = false;
  Swizzle sw = derive_swizzle(make, kSharedScalarF32, &found);
  EXPECT_TRUE(found);
  EXPECT_EQ(sw, Swizzle(5, 0, 5));
  AccessReport r = analyze(make(sw), kSharedScalarF32);
  EXPECT_EQ(r.conflicts(), 0);
  EXPECT_EQ(r.wavefronts, 32);
  EXPECT_EQ(analyze(make(Swizzle(3, 2, 3)), kSharedScalarF32).max_way, 4);
  // Already conflict-free: the identity.
  auto padded = [](Swizzle s) {
    return rows_by_lane(SwizzledLayout{s, 0, rt("(32,32):(33,1)"_layout)});
  };
  EXPECT_EQ(derive_swizzle(padded, kSharedScalarF32), Swizzle());
}

TEST(Analysis, LdmatrixOver128BSwizzleIsConflictFree) {
  // Sw<3,4,3> on bytes = Sw<3,3,3> on halves over (8,64):(64,1), the wgmma SW128 K-major atom.
  SwizzledLayout sw128 = gmma_smem_atom(GmmaSwizzle::kB128, true, 16);
  EXPECT_EQ(sw128, (SwizzledLayout{Swizzle(3, 3, 3), 0, rt("(8,64):(64,1)"_layout)}));
  AccessReport r = analyze(ldmatrix_rows(sw128), kSharedLoadF16);
  EXPECT_EQ(r.vector_bits, 128);
  EXPECT_EQ(r.instructions, 1);
  EXPECT_EQ(r.wavefronts, 4);
  EXPECT_EQ(r.conflicts(), 0);
  EXPECT_EQ(r.grade, Grade::kGreat);
  EXPECT_EQ(std::string(r.verdict.c_str()),
            "128-bit loads, conflict-free (4 wavefronts per access, ideal 4)");
  // Unswizzled: the 8 rows of a phase start 128 bytes apart, all in banks 0-3.
  AccessReport plain =
      analyze(ldmatrix_rows(unswizzled(rt("(8,64):(64,1)"_layout))), kSharedLoadF16);
  EXPECT_EQ(plain.vector_bits, 128);
  EXPECT_EQ(plain.wavefronts, 32);
  EXPECT_EQ(plain.max_way, 8);
  // And the search finds the 128B swizzle.
  auto make = [](Swizzle s) {
    return ldmatrix_rows(SwizzledLayout{s, 0, rt("(8,64):(64,1)"_layout)});
  };
  EXPECT_EQ(derive_swizzle(make, kSharedLoadF16), Swizzle(3, 3, 3));
}

TEST(Analysis, ConsecutiveVectorsFromGlobalTouchFourLines) {
  AccessReport r =
      analyze(TvAccess{rt("(32,4):(4,1)"_layout), unswizzled(rt("128:1"_layout))}, kGlobalLoadF32);
  EXPECT_EQ(r.vector_bits, 128);
  EXPECT_EQ(r.requests, 1);
  EXPECT_EQ(r.lines, 4);
  EXPECT_EQ(r.min_lines, 4);
  EXPECT_EQ(r.sectors, 16);
  EXPECT_EQ(r.sector_efficiency(), 100);
  EXPECT_EQ(std::string(r.verdict.c_str()), "128-bit loads, 4 full lines per warp: coalesced");
  // Misaligned by one float: the vector falls to 32 bits, each of the 4 loads has lanes 16 bytes
  // apart (half of each sector used), and the warp's footprint spans 17 sectors for 16 of data.
  AccessReport off =
      analyze(TvAccess{rt("(32,4):(4,1)"_layout), SwizzledLayout{Swizzle(), 1, rt("128:1"_layout)}},
              kGlobalLoadF32);
  EXPECT_EQ(off.vector_bits, 32);
  EXPECT_EQ(off.requests, 4);
  EXPECT_EQ(off.lines, 4 + 4 + 4 + 5);
  EXPECT_EQ(off.footprint_sectors, 17);
  EXPECT_EQ(off.footprint_min_sectors, 16);
  EXPECT_EQ(off.grade, Grade::kBad);
}

// Lanes 0..31 read floats 0..31, then 32..63, ..: four 32-bit loads per thread, each a
// full line per warp. Coalesced (not "scattered"); only the instruction count is 4x that of
// 128-bit loads, so the grade is ok, not bad.
TEST(Analysis, NarrowLoadsFillingWholeLinesAreCoalesced) {
  AccessReport r =
      analyze(TvAccess{rt("(32,4):(1,32)"_layout), unswizzled(rt("128:1"_layout))}, kGlobalLoadF32);
  EXPECT_EQ(r.vector_bits, 32);
  EXPECT_EQ(r.requests, 4);
  EXPECT_EQ(r.lines, 4);
  EXPECT_EQ(r.min_lines, 4);
  EXPECT_EQ(r.grade, Grade::kOk);
  EXPECT_EQ(std::string(r.verdict.c_str()),
            "32-bit loads, 1 full line per warp: coalesced, 4x the loads of 128-bit accesses");
}

TEST(Analysis, StridedGlobalLoadIsUncoalesced) {
  // Lane l reads float 32 l: 32 sectors for 128 bytes.
  AccessReport r =
      analyze(TvAccess{rt("32:32"_layout), unswizzled(rt("1024:1"_layout))}, kGlobalLoadF32);
  EXPECT_EQ(r.sectors, 32);
  EXPECT_EQ(r.min_sectors, 4);
  EXPECT_EQ(r.grade, Grade::kBad);
  EXPECT_EQ(std::string(r.verdict.c_str()),
            "32-bit loads, 4 bytes every 128 per warp: uncoalesced, 12% of the bytes of the "
            "sectors touched are used");
}

TEST(Analysis, TiledCopyOfTheBTile) {
  // cp.async of 4 floats per thread, threads (32,8):(1,32) over the (128,8) B tile: 128-bit,
  // a warp covers 512 contiguous bytes.
  TiledCopy b =
      make_tiled_copy_tv(atom::cp_async(16, 32), rt("(32,8):(1,32)"_layout), Layout("(4,1)"_tuple));
  AccessReport r =
      analyze(CopyAccess{b, unswizzled(rt("(128,8):(1,128)"_layout)), false}, kGlobalLoadF32);
  EXPECT_EQ(r.threads, 256);
  EXPECT_EQ(r.vector_bits, 128);
  EXPECT_EQ(r.lines_per_request(), 4);
  EXPECT_EQ(r.grade, Grade::kGreat);
}

TEST(Analysis, Step4OperandsFromSharedMemory) {
  // mma.sync A fragments read straight from a row-major (128,32) half tile: each lane's pairs of
  // halves are 32-bit runs; 8 lanes of a quad-group read 8 rows 64 bytes apart.
  TiledMMA mma = rt(presets::step4());
  AccessReport a = analyze(MmaAccess{mma, Operand::kA, unswizzled(rt("(128,32):(32,1)"_layout))},
                           kSharedLoadF16);
  EXPECT_EQ(a.vector_bits, 32);
  // Lane t0 + 4 t1 reads word 16 t1 + t0 (rows 64 bytes apart): rows 0, 2, 4, 6 share a bank.
  EXPECT_EQ(a.max_way, 4);
  EXPECT_EQ(a.grade, Grade::kBad);
}

TEST(Analysis, ConstexprAndErrors) {
  constexpr AccessReport r =
      analyze(TvAccess{Layout(make_tuple(32, 4), make_tuple(4, 1)), unswizzled(Layout(128))},
              AccessSpec{32, MemSpace::kGlobal, false, 128});
  static_assert(r.vector_bits == 128 && r.lines == 4 && r.sectors == 16 &&
                r.grade == Grade::kGreat);
  EXPECT_THROW(analyze(TvAccess{rt("(32,4):(4,1)"_layout), unswizzled(rt("128:1"_layout))},
                       AccessSpec{12, MemSpace::kGlobal, false, 128}),
               Error);
  try {
    analyze(TvAccess{rt("(32,512):(512,1)"_layout), unswizzled(rt("16384:1"_layout))},
            kGlobalLoadF32);
    FAIL();
  } catch (Error const& e) {
    EXPECT_STREQ(e.what(), "analyze: 512 values per thread; the analysis holds at most 256");
  }
}
