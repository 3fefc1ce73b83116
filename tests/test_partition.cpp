// Partitioning: TiledMMA against the CuTe oracle and the worked examples, local_tile,
// identity-tensor predicates and TiledCopy.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <set>

#include <nlohmann/json.hpp>
#include <tessera.hpp>

#include "mma_cli.hpp"

using namespace tessera;
using namespace tessera::literals;
using nlohmann::json;

namespace {

// Same function: same size and the same offset at every index.
bool same_function(Layout const& a, Layout const& b) {
  if (a.size() != b.size()) return false;
  for (int64_t i = 0; i < a.size(); ++i)
    if (a(i) != b(i)) return false;
  return true;
}

// The flattened shape and stride without size-1 leaves: the worked examples' flat notation.
Layout flat_without_ones(Layout const& l) {
  Modes m = leaves(l), r;
  for (int i = 0; i < m.n; ++i)
    if (m.s[i] != 1) r.push(m.s[i], m.d[i]);
  return r.layout();
}

// (row, col) of every fragment element of `thread` in a (rows, cols) tile.
std::vector<std::pair<int64_t, int64_t>> owned(TiledMMA const& mma, Operand op, int64_t rows,
                                               int64_t cols, int64_t thread) {
  Layout tile(make_tuple(rows, cols));
  CoordTensor mine = make_tensor(make_identity_tensor(tile.shape), mma.partition(op, tile, thread));
  std::vector<std::pair<int64_t, int64_t>> out;
  for (int64_t i = 0; i < mine.size(); ++i) out.push_back({mine(i)[0].value(), mine(i)[1].value()});
  return out;
}

}  // namespace

TEST(TiledMmaOracle, EveryThreadEveryOperand) {
  const char* env = std::getenv("TESSERA_ORACLE_DIR");
  auto path = std::filesystem::path(env ? env : TESSERA_ORACLE_DIR) / "tiledmma_cases.json";
  if (!std::filesystem::exists(path))
    GTEST_SKIP() << "SKIPPED: oracle vectors not found at " << path;
  json cases = json::parse(std::ifstream(path))["cases"];
  ASSERT_EQ(cases.size(), 5u);
  for (json const& c : cases) {
    SCOPED_TRACE(c["id"].get<std::string>());
    auto tile = c["tile_mnk"].get<std::vector<int64_t>>();
    auto cfg =
        tools::mma_config(c["atom"], c["atom_layout"], c["permutation"], tile[0], tile[1], tile[2]);
    EXPECT_EQ(cfg.mma.threads(), c["threads"].get<int64_t>());
    EXPECT_EQ(to_string(cfg.mma.thr_vmnk),
              c["tiled_mma_layouts"]["thr_layout_vmnk"].get<std::string>());
    for (Operand op : {Operand::kC, Operand::kA, Operand::kB}) {
      json const& want = c[operand_name(op)];
      EXPECT_EQ(tools::operand_coords(cfg, op), want["coords"]) << operand_name(op);
      Layout frag =
          cfg.mma.partition(op, parse_layout(want["tensor_layout"].get<std::string>()), 0).layout;
      Layout expected = parse_layout(want["thread0_fragment"].get<std::string>());
      // The oracle's C++ printed some fragments unmerged, e.g. (2,4):(16,32) for 8:16; tessera
      // prints them merged like pycute and current CuTe. The function must be identical.
      EXPECT_TRUE(same_function(frag, expected))
          << to_string(frag) << " vs " << to_string(expected);
      EXPECT_EQ(frag.rank(), expected.rank()) << to_string(frag);
    }
  }
}

TEST(Step1, SeedStatements) {
  TiledMMA mma = presets::step1();
  EXPECT_EQ(mma.threads(), 256);
  Layout C = "(128,128):(128,1)"_layout;
  EXPECT_EQ(to_string(mma.partition_C(C, 0).layout), "(1,(4,2),(4,2)):(0,(128,8192),(1,64))");
  // Thread 0 owns rows {0..3, 64..67} x cols {0..3, 64..67}.
  std::set<int64_t> rows, cols;
  for (auto [r, c] : owned(mma, Operand::kC, 128, 128, 0)) rows.insert(r), cols.insert(c);
  std::set<int64_t> expected = {0, 1, 2, 3, 64, 65, 66, 67};
  EXPECT_EQ(rows, expected);
  EXPECT_EQ(cols, expected);
  EXPECT_EQ(owned(mma, Operand::kC, 128, 128, 16)[0], std::make_pair(int64_t(4), int64_t(0)));
  EXPECT_EQ(owned(mma, Operand::kC, 128, 128, 255)[0], std::make_pair(int64_t(60), int64_t(60)));
  // Every element of the 128x128 tile is owned exactly once.
  std::vector<int> count(128 * 128, 0);
  for (int t = 0; t < 256; ++t)
    for (auto [r, c] : owned(mma, Operand::kC, 128, 128, t)) ++count[r * 128 + c];
  for (int k : count) ASSERT_EQ(k, 1);
}

TEST(Step1, LocalTileAndPartitionA) {
  // The step 1 kernel: A (256,32):(1,256), CTA (0,0): gA = (128,8,4):(1,256,2048) (BM,BK,k).
  View gA = local_tile("(256,32):(1,256)"_layout, "(128,128,8)"_tuple, make_coord(0, 0, _),
                       make_coord(1, _, 1));
  EXPECT_EQ(gA.offset, 0);
  EXPECT_EQ(to_string(gA.layout), "(128,8,4):(1,256,2048)");
  View gA1 = local_tile("(256,32):(1,256)"_layout, "(128,128,8)"_tuple, make_coord(1, 0, _),
                        make_coord(1, _, 1));
  EXPECT_EQ(gA1.offset, 128);
  // Thread 0's tCgA = (1,(4,2),8):(0,(1,64),256) (one k-tile of gA: (128,8):(1,256)).
  TiledMMA mma = presets::step1();
  EXPECT_EQ(to_string(mma.partition_A("(128,8):(1,256)"_layout, 0).layout),
            "(1,(4,2),8):(0,(1,64),256)");
  // C tile of CTA (1,0) of a (256,128):(128,1) C starts at row 128.
  View gC = local_tile("(256,128):(128,1)"_layout, "(128,128,8)"_tuple, make_coord(1, 0, _),
                       make_coord(1, 1, _));
  EXPECT_EQ(gC.offset, 128 * 128);
  EXPECT_EQ(to_string(gC.layout), "(128,128):(128,1)");
}

TEST(Step1, PermutationTable) {
  // logical_divide(128:128, permutation), in the hand-written kernel's flat notation.
  struct Row {
    const char* perm;
    const char* flat;
  } rows[] = {{"(16,4):(4,1)", "(16,4,2):(512,128,8192)"},
              {"(16,4):(1,16)", "(16,4,2):(128,2048,8192)"},
              {"(16,8):(8,1)", "(16,8):(1024,128)"}};
  for (auto const& r : rows) {
    Layout d = logical_divide("128:128"_layout, Tiler(parse_layout(r.perm)));
    EXPECT_EQ(to_string(flat_without_ones(d)), r.flat) << r.perm << " gives " << to_string(d);
  }
  EXPECT_EQ(to_string(logical_divide("128:128"_layout, Tiler("(16,4):(4,1)"_layout))),
            "((16,4),2):((512,128),8192)");
}

TEST(Step1, ExplainTraceShowsEachStepsLayout) {
  Derivation d = presets::step1().explain(Operand::kC, "(128,128):(128,1)"_layout, 0);
  // The thread trace writes these flattened; CuTe (and tessera) keep the nesting.
  EXPECT_EQ(to_string(d.step[0].layout), "(((16,4),2),((16,4),2)):(((512,128),8192),((4,1),64))");
  EXPECT_EQ(to_string(flat_without_ones(d.step[0].layout)),
            "(16,4,2,16,4,2):(512,128,8192,4,1,64)");
  EXPECT_EQ(to_string(d.step[2].layout.shape), "((1,1),((16,4,2),(16,4,2)))");
  EXPECT_EQ(to_string(d.step[3].layout),
            "((1,(16,16)),(1,((4,2),(4,2)))):((0,(512,4)),(0,((128,8192),(1,64))))");
  EXPECT_EQ(to_string(d.fragment.layout), "(1,(4,2),(4,2)):(0,(128,8192),(1,64))");
  EXPECT_EQ(d.fragment.offset, 0);
}

TEST(Step4, SeedStatements) {
  TiledMMA mma = presets::step4();
  EXPECT_EQ(mma.threads(), 128);
  EXPECT_EQ(to_string(mma.thr_vmnk), "(32,2,2,1):(1,32,64,0)");
  View c0 = mma.partition_C("(128,128):(128,1)"_layout, 0);
  // 128x128 accumulators over 128 threads: 128 per thread. (The step 4 text counts 4x4x4 = 64,
  // but its own fragment ((2,2),4,(2,4)) has 4*4*8 = 128 elements; the oracle agrees.)
  EXPECT_EQ(c0.layout.size(), 128);
  EXPECT_EQ(c0.layout.size(), 128 * 128 / mma.threads());
  // The step 4 text prints ((2,2),4,(2,4)):((1,1024),4096,(16,32)); tessera merges (2,4):(16,32)
  // into 8:16 as current CuTe does. Same function, same modes.
  EXPECT_EQ(to_string(c0.layout), "((2,2),4,8):((1,1024),4096,16)");
  EXPECT_TRUE(same_function(c0.layout, "((2,2),4,(2,4)):((1,1024),4096,(16,32))"_layout));
  std::vector<int> count(128 * 128, 0);
  for (int t = 0; t < 128; ++t)
    for (auto [r, c] : owned(mma, Operand::kC, 128, 128, t)) ++count[r * 128 + c];
  for (int k : count) ASSERT_EQ(k, 1);
}

TEST(ThreadPartition, OneLayoutEvaluationPerThread) {
  // The kernel form of a partition agrees with the derivation for every thread and operand.
  for (TiledMMA mma : {presets::step1(), presets::step4()}) {
    for (Operand op : {Operand::kC, Operand::kA, Operand::kB}) {
      Layout t = op == Operand::kC ? "(128,128):(128,1)"_layout : "(128,32):(1,128)"_layout;
      if (mma.tile_size(2) == 1 && op != Operand::kC) t = "(128,8):(1,128)"_layout;
      ThreadPartition p = mma.partitioner(op, t);
      for (int64_t thr = 0; thr < mma.threads(); ++thr) {
        View want = mma.partition(op, t, thr);
        ASSERT_EQ(p(thr).offset, want.offset) << operand_name(op) << " thread " << thr;
        ASSERT_EQ(p(thr).layout, want.layout);
      }
    }
  }
  EXPECT_EQ(to_string(presets::step1().partitioner(Operand::kC, "(128,128):(128,1)"_layout).thread),
            "(16,16):(4,512)");  // offset = 4*(t%16) + 512*(t/16)
}

TEST(Predication, IdentityTensorResidue) {
  // A 128x128 C tile at CTA (0,0) of a 100x70 matrix: the predicate elem_less(coord, (100,70))
  // marks exactly the in-bounds elements, for every thread of step 1.
  TiledMMA mma = presets::step1();
  CoordTensor cC = make_identity_tensor("(128,128)"_tuple);
  IntTuple residue = make_tuple(100, 70);
  int64_t in_bounds = 0;
  for (int t = 0; t < 256; ++t) {
    CoordTensor tCcC = make_tensor(cC, mma.partition_C(Layout("(128,128)"_tuple), t));
    for (int64_t i = 0; i < tCcC.size(); ++i) {
      IntTuple c = tCcC(i);
      bool pred = elem_less(c, residue);
      EXPECT_EQ(pred, c[0].value() < 100 && c[1].value() < 70);
      in_bounds += pred;
    }
  }
  EXPECT_EQ(in_bounds, 100 * 70);
}

TEST(TiledCopy, TilingExampleCopiesAndCuTeExample) {
  // The tiling example's B: cp.async of 4 floats, threads (32,8):(1,32), values (4,1): tile
  // (128,8).
  TiledCopy b =
      make_tiled_copy_tv(atom::cp_async(16, 32), "(32,8):(1,32)"_layout, Layout("(4,1)"_tuple));
  EXPECT_EQ(to_string(b.layout_tv), "(256,4):(4,1)");
  EXPECT_EQ(to_string(b.tiler), "(128,8)");
  // A: one float per thread, k-major threads (32,8):(8,1): tile (32,8).
  TiledCopy a =
      make_tiled_copy_tv(atom::cp_async(4, 32), "(32,8):(8,1)"_layout, Layout("(1,1)"_tuple));
  EXPECT_EQ(to_string(a.tiler), "(32,8)");
  View p = a.partition_S("(128,8):(1,128)"_layout, 9);  // thread 9: m = 1, k = 1
  EXPECT_EQ(p.offset, 1 + 128);
  EXPECT_EQ(p.layout.size(), 4);  // 4 copies down M
  // 128-bit copies of halves, threads (16,8):(8,1), values (1,8), S = (128,64):(64,1).
  TiledCopy h = make_tiled_copy_tv(atom::universal_copy(128, 16), "(16,8):(8,1)"_layout,
                                   Layout("(1,8)"_tuple));
  EXPECT_EQ(to_string(h.layout_tv), "((8,16),8):((128,1),16)");
  EXPECT_EQ(to_string(h.tidfrg("(128,64):(64,1)"_layout, false)),
            "((8,16),(8,1),(8,1)):((8,64),(1,0),(1024,0))");
  EXPECT_EQ(h.partition_S("(128,64):(64,1)"_layout, 8).offset, 64);
  // A tile that does not divide the tensor is an error, not an out-of-bounds partition.
  try {
    b.partition_S("(96,8):(1,96)"_layout, 0);
    ADD_FAILURE() << "a (128,8) tile of a (96,8) tensor was accepted";
  } catch (Error const& e) {
    EXPECT_EQ(std::string(e.what()),
              "TiledCopy: the tile (128,8) does not divide the tensor (96,8):(1,96) (mode 0)");
  }
  // Every element of the tile is copied exactly once.
  std::vector<int> count(128 * 8, 0);
  for (int t = 0; t < 256; ++t) {
    View v = b.partition_S(Layout("(128,8)"_tuple), t);
    for (int64_t i = 0; i < v.layout.size(); ++i) ++count[v(i)];
  }
  for (int k : count) ASSERT_EQ(k, 1);
}

TEST(TiledCopy, FromATiledMmaMatchesCuTe) {
  // The MMA's TV layouts in its tile's column-major frame (CuTe's get_layoutC_TV / A_TV print
  // the value mode nested, ((2,2),(1,2)); the functions are the same).
  TiledMMA s4 = presets::step4();
  EXPECT_TRUE(same_function(mma_layout_tv(s4, Operand::kC),
                            "((4,8,2,2),((2,2),(1,2))):((64,1,16,256),((32,8),(0,512)))"_layout));
  EXPECT_TRUE(same_function(mma_layout_tv(s4, Operand::kA),
                            "((4,8,2,2),((2,2,2),(1,1))):((64,1,16,0),((32,8,256),(0,0)))"_layout));
  EXPECT_TRUE(same_function(mma_layout_tv(presets::step1(), Operand::kC),
                            "((16,16),(1,(4,4))):((256,4),(0,(1,64)))"_layout));
  // ldmatrix x4 feeding step 4's A from a K-major (128,32) tile: CuTe gives tiler (32,16) and
  // thread 0's source partition ((8,1),4,2):((1,0),1024,16); lane t brings row t%16 of k-half t/16.
  TiledCopy ldsm = make_tiled_copy_A(atom::ldmatrix(4, false), s4);
  EXPECT_EQ(to_string(ldsm.tiler), "(32,16)");
  Layout sA = "(128,32):(32,1)"_layout;
  EXPECT_EQ(to_string(ldsm.partition_S(sA, 0).layout), "((8,1),4,2):((1,0),1024,16)");
  EXPECT_EQ(ldsm.partition_S(sA, 8).offset, 8 * 32);
  EXPECT_EQ(ldsm.partition_S(sA, 16).offset, 8);
  EXPECT_EQ(ldsm.partition_S(sA, 31).offset, 15 * 32 + 8);
  // Step 1 gives each thread 4 values of B per pass: an 8-value atom cannot move them.
  EXPECT_THROW(make_tiled_copy_B(atom::universal_copy(128, 16), presets::step1()), Error);
}

TEST(Atoms, TvLayoutsCoverTheirTiles) {
  // Each non-broadcast TV layout is a bijection onto its atom's tile.
  auto bijective = [](Layout const& tv, int64_t extent) {
    std::vector<int> seen(extent, 0);
    for (int64_t i = 0; i < tv.size(); ++i) {
      int64_t x = tv(i);
      if (x < 0 || x >= extent || seen[x]++) return false;
    }
    return tv.size() == extent;
  };
  for (MmaAtom a :
       {atom::sm80_16x8x16_f32f16(), atom::sm80_16x8x8_f32tf32(), atom::sm90_64xNx16(128, true)}) {
    SCOPED_TRACE(a.name);
    EXPECT_TRUE(bijective(a.c_tv, a.m * a.n));
    EXPECT_TRUE(bijective(a.a_tv, a.m * a.k));
    if (a.m != 64) {  // wgmma reads B from shared memory: every thread sees all of it
      EXPECT_TRUE(bijective(a.b_tv, a.n * a.k));
    }
  }
  EXPECT_EQ(atom::sm80_16x8x16_f32f16().values_c(), 4);
  EXPECT_EQ(atom::sm80_16x8x16_f32f16().values_a(), 8);
  EXPECT_EQ(atom::sm90_64xNx16(256, false).values_c(), 128);
  // Lane 5, value 3 of m16n8k16's C is (row 9, col 3): 9 + 16*3 = 57.
  EXPECT_EQ(atom::sm80_16x8x16_f32f16().c_tv(5, 3), 57);
  // ldmatrix x4 in halves: each lane brings one row of 8 halves.
  EXPECT_EQ(to_string(atom::ldmatrix(4, false).src_tv), "(32,8):(8,1)");
  EXPECT_EQ(to_string(atom::ldmatrix(4, false).dst_tv), "(32,(2,4)):(2,(1,64))");
  EXPECT_THROW(atom::ldmatrix(3, false), Error);
  EXPECT_THROW(atom::cp_async(12, 32), Error);
  EXPECT_THROW(atom::sm90_64xNx16(100, false), Error);
  // GMMA 128-byte swizzled K-major atom for halves: Sw<3,3,3> o 0 o (8,64):(64,1).
  EXPECT_EQ(to_string(gmma_smem_atom(GmmaSwizzle::kB128, true, 16)),
            "Sw<3,3,3> o 0 o (8,64):(64,1)");
  TmaBox box = make_tma_box("(64,64)"_tuple, Swizzle(3, 4, 3));
  EXPECT_EQ(box.swizzle_bytes, 128);
  EXPECT_EQ(box.box[1], 64);
}

TEST(TiledMmaErrors, Messages) {
  EXPECT_THROW(presets::step1().thread_vmnk(256), Error);
  try {
    tools::mma_config("UniversalFMA", "(16,16,1):(16,1,0)", "((16,4):(4,1),(16,4):(4,1),_)", 100,
                      128, 8);
    FAIL();
  } catch (std::invalid_argument const& e) {
    EXPECT_NE(std::string(e.what()).find("not a multiple"), std::string::npos) << e.what();
  }
  EXPECT_THROW(tools::mma_config("NoSuchAtom", "(2,2,1)", "none", 64, 64, 16),
               std::invalid_argument);
}

namespace {

// The defining property, for every thread t: copy value i (with its tile repetitions) of the
// retiled fragment is the register the MMA holds that element in. Registers are the offsets of
// F = make_fragment_like(partition): register F(k) holds the element partition(k).
// (a) In the copy's reference frame: partition_D(X, t)(i) is that element.
// (b) Simulating the atom: lane l of a group of atom.threads() lanes gets, as atom value a, atom
//     element e = dst_tv(l, a), which the lowest lane s with src_tv(s, j) = e reads as its
//     source value j: partition_S(X, group + s)(j + src values * (i / a's range)).
void check_retile(TiledCopy const& cp, TiledMMA const& mma, Operand op, Layout const& X,
                  bool store) {
  CopyAtom const& at = cp.atom;
  int64_t lanes = at.threads(), src_vals = at.src_tv[1].size(), dst_vals = at.values();
  std::vector<View> src;
  for (int64_t t = 0; t < cp.threads(); ++t) src.push_back(cp.partition_S(X, t));
  for (int64_t t = 0; t < cp.threads(); ++t) {
    View mine = mma.partition(op, X, t);
    Layout frag = make_fragment_like(mine.layout);
    std::vector<int64_t> reg2elem(frag.size(), -1);
    for (int64_t k = 0; k < frag.size(); ++k) reg2elem[frag(k)] = mine(k);
    Layout r = store ? retile_S(cp, frag) : retile_D(cp, frag);
    View d = cp.partition_D(X, t);
    ASSERT_EQ(r.rank(), d.layout.rank()) << to_string(r) << " vs " << to_string(d.layout);
    for (int m = 0; m < r.rank(); ++m) ASSERT_EQ(r[m].size(), d.layout[m].size()) << to_string(r);
    std::vector<int> hits(frag.size(), 0);
    int64_t lane = t % lanes, group = t - lane;
    for (int64_t i = 0; i < r.size(); ++i) {
      int64_t held = reg2elem[r(i)];
      ++hits[r(i)];
      ASSERT_EQ(d(i), held) << at.name << " thread " << t << " value " << i;
      int64_t a = i % dst_vals, e = at.dst_tv(lane, a), s = 0, j = 0;
      while (at.src_tv(s, j) != e) {
        if (++j == src_vals) j = 0, ++s;
        ASSERT_LT(s, lanes) << "element " << e << " has no source";
      }
      ASSERT_EQ(src[group + s](j + src_vals * (i / dst_vals)), held)
          << at.name << " thread " << t << " value " << i;
      // Where the atom's source is its reference (UniversalCopy), partition_S of the thread
      // itself reads the element: the copy fills the right registers directly.
      if (lanes == 1) {
        ASSERT_EQ(src[t](i), held);
      }
    }
    for (int h : hits)
      ASSERT_EQ(h, 1) << "thread " << t << ": " << to_string(r)
                      << " is no bijection onto the registers";
  }
}

}  // namespace

TEST(TiledCopy, RetileLinesUpWithMmaFragments) {
  // CuTe (notes 4.5): step 4 + ldmatrix x4 for A retiles tCrA ((2,2,2),4,2):((1,2,4),16,8) to
  // ((8,1),4,2):((1,0),16,8): the 8 registers of an MMA's A become the 8 values of one ldmatrix.
  TiledMMA s4 = presets::step4();
  TiledCopy ldsm_a = make_tiled_copy_A(atom::ldmatrix(4, false), s4);
  EXPECT_EQ(to_string(retile_D(ldsm_a, "((2,2,2),4,2):((1,2,4),16,8)"_layout)),
            "((8,1),4,2):((1,0),16,8)");
  EXPECT_EQ(retile_S(ldsm_a, "((2,2,2),4,2):((1,2,4),16,8)"_layout),
            retile_D(ldsm_a, "((2,2,2),4,2):((1,2,4),16,8)"_layout));
  // tessera's make_fragment_like is column-major over every mode (CuTe orders modes 1.. like the
  // partition's strides): the same regrouping over its strides.
  Layout sA = "(128,32):(32,1)"_layout;
  EXPECT_EQ(to_string(retile_D(ldsm_a, make_fragment_like(s4.partition_A(sA, 0).layout))),
            "((8,1),4,2):((1,0),8,32)");
  static_assert(retile_D(make_tiled_copy_A(atom::ldmatrix(4, false), presets::step4()),
                         Layout(make_tuple(make_tuple(2, 2, 2), 4, 2))) ==
                "((8,1),4,2):((1,0),8,32)"_layout);

  check_retile(ldsm_a, s4, Operand::kA, sA, false);
  TiledCopy ldsm_b = make_tiled_copy_B(atom::ldmatrix(2, false), s4);
  EXPECT_EQ(to_string(retile_D(ldsm_b, make_fragment_like(s4.partition_B(sA, 0).layout))),
            "((4,2),4,2):((1,4),8,32)");
  check_retile(ldsm_b, s4, Operand::kB, sA, false);
  // ldmatrix is no lane-local copy: lane 1 addresses row 1, but its first register holds (0,2).
  EXPECT_EQ(ldsm_a.partition_S(sA, 1).offset, 32);
  EXPECT_EQ(s4.partition_A(sA, 1).offset, 2);

  // Step 1's C through 128-bit stores of 4 floats: 16 values per thread, a multiple of 4.
  TiledMMA s1 = presets::step1();
  CopyAtom st = atom::universal_copy(128, 32);
  ASSERT_EQ(mma_layout_tv(s1, Operand::kC)[1].size() % st.values(), 0);
  TiledCopy store_c = make_tiled_copy_C(st, s1);
  Layout gC = "(128,128):(1,128)"_layout;
  EXPECT_EQ(to_string(retile_S(store_c, make_fragment_like(s1.partition_C(gC, 0).layout))),
            "((4,4),2,2):((1,8),4,32)");
  check_retile(store_c, s1, Operand::kC, gC, true);
}

TEST(TiledCopy, RetileOrdersCopyValuesOverTheFragment) {
  // A copy whose value order is not the fragment's: 64-bit copies of floats, threads (4,4), values
  // (2,2):(2,1) (N fastest) over a fragment (1,M,N) of 2x2 blocks, M first. Thread (tm,tn)'s
  // register (0, bm + 2 tile_m, bn + 2 tile_n) holds (8 tile_m + 2 tm + bm, 8 tile_n + 2 tn + bn).
  TiledCopy rows =
      make_tiled_copy_tv(atom::universal_copy(64, 32), "(4,4):(1,4)"_layout, "(2,2):(2,1)"_layout);
  Layout x = "(16,16):(1,16)"_layout, frag("(1,4,4)"_tuple);
  Layout r = retile_D(rows, frag);
  EXPECT_EQ(to_string(r), "((2,2),2,2):((4,1),2,8)");  // copy values (n, m) -> registers (bn, bm)
  for (int64_t t = 0; t < 16; ++t) {
    View d = rows.partition_D(x, t);
    ASSERT_EQ(to_string(d.layout.shape), "((2,2),2,2)");
    for (int64_t i = 0; i < r.size(); ++i) {
      IntTuple c = idx2crd(r(i), frag.shape);
      int64_t m1 = c[1].value(), n1 = c[2].value();
      int64_t m = 8 * (m1 / 2) + 2 * (t % 4) + m1 % 2, n = 8 * (n1 / 2) + 2 * (t / 4) + n1 % 2;
      ASSERT_EQ(d(i), x(m, n)) << "thread " << t << " value " << i;
    }
  }
}

TEST(TiledCopy, RetileErrorsNameBothLayouts) {
  // A fragment that does not hold the copy's values is an error that names both layouts.
  TiledCopy ldsm_a = make_tiled_copy_A(atom::ldmatrix(4, false), presets::step4());
  TiledCopy store_c = make_tiled_copy_C(atom::universal_copy(128, 32), presets::step1());
  try {
    retile_D(ldsm_a, Layout("((2,2,2,2),4,2)"_tuple));
    ADD_FAILURE() << "a 16-value block was retiled for an 8-value copy";
  } catch (Error const& e) {
    EXPECT_EQ(std::string(e.what()),
              "retile: the fragment ((2,2,2,2),4,2):((1,2,4,8),16,64) does not line up with the "
              "TiledCopy's 8 "
              "values per thread (TV layout "
              "((4,8,2,2),((2,2,2),1,1)):((64,1,16,0),((32,8,256),0,0)), tile "
              "(32,16)): its mode 0 holds 16 values and a thread has (1,1) blocks of them per "
              "tile, 16 values, not 8");
  }
  EXPECT_THROW(retile_D(ldsm_a, Layout("(8,4)"_tuple)), Error);
  EXPECT_THROW(retile_D(store_c, Layout("(1,(4,2),3)"_tuple)), Error);
}
