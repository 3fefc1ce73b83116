// The thread trace (tools/trace.hpp): every number of the step 1 kernel's trace of thread 0 of
// CTA (0,0), brute-force checks of its elements, predicates and counts on random problems, tiles
// and CTAs, and its errors.
#include <gtest/gtest.h>

#include <map>
#include <random>
#include <set>
#include <utility>

#include "trace.hpp"

namespace tessera::tools {
namespace {

TraceInput make_input(MmaConfig cfg, int64_t m, int64_t n, int64_t k, std::string const& a,
                      std::string const& b, std::string const& c) {
  TraceInput in;
  in.cfg = std::move(cfg);
  in.problem[0] = m, in.problem[1] = n, in.problem[2] = k;
  in.layout[int(Operand::kA)] = operand_layout(a, Operand::kA, in.problem);
  in.layout[int(Operand::kB)] = operand_layout(b, Operand::kB, in.problem);
  in.layout[int(Operand::kC)] = operand_layout(c, Operand::kC, in.problem);
  return in;
}

TraceInput step1() {
  return make_input(mma_preset("step1"), 256, 128, 32, "(256,32):(1,256)", "(128,32):(1,128)",
                    "(256,128):(128,1)");
}

TEST(Trace, Step1Thread0EveryNumber) {
  nlohmann::json j = trace_json(step1());
  EXPECT_EQ(j["grid"], nlohmann::json({2, 1}));
  EXPECT_EQ(j["config"]["threads"], 256);
  EXPECT_EQ(j["local_tile"]["A"]["layout"], "(128,8,4):(1,256,2048)");
  EXPECT_EQ(j["local_tile"]["B"]["layout"], "(128,8,4):(1,128,1024)");
  EXPECT_EQ(j["local_tile"]["C"]["layout"], "(128,128):(128,1)");
  EXPECT_EQ(j["local_tile"]["A"]["proj"], "(1,X,1)");
  EXPECT_EQ(j["partitions"]["A"]["layout"], "(1,(4,2),8):(0,(1,64),256)");
  EXPECT_EQ(j["partitions"]["B"]["layout"], "(1,(4,2),8):(0,(1,64),128)");
  EXPECT_EQ(j["partitions"]["C"]["layout"], "(1,(4,2),(4,2)):(0,(128,8192),(1,64))");
  EXPECT_EQ(j["fragments"]["A"]["shape"], "(1,(4,2),8)");
  EXPECT_EQ(j["fragments"]["B"]["shape"], "(1,(4,2),8)");
  EXPECT_EQ(j["fragments"]["C"]["shape"], "(1,(4,2),(4,2))");
  EXPECT_EQ(j["fragments"]["C"]["size"], 64);
  auto const& sa = j["fragments"]["A"]["k_block_slice"];
  EXPECT_EQ(sa["shape"], "(1,(4,2))");
  EXPECT_EQ(sa["size"], 8);
  EXPECT_EQ(sa["rows"], nlohmann::json({0, 1, 2, 3, 64, 65, 66, 67}));
  EXPECT_EQ(sa["k"], nlohmann::json({0}));
  EXPECT_EQ(j["fragments"]["B"]["k_block_slice"]["rows"],
            nlohmann::json({0, 1, 2, 3, 64, 65, 66, 67}));
  auto const& k = j["k_loop"];
  EXPECT_EQ(k["k_tiles"], 4);
  EXPECT_EQ(k["k_blocks"], 8);
  EXPECT_EQ(k["unit"], "FMA");
  EXPECT_EQ(k["per_k_block"], 64);
  EXPECT_EQ(k["per_k_tile"], 512);
  EXPECT_EQ(k["total"], 2048);
  EXPECT_EQ(k["loads"]["A"]["elements"], 64);
  EXPECT_EQ(k["loads"]["B"]["elements"], 64);
  // A is M-major: rows {0..3} and {64..67} of each k are runs of 4 floats.
  EXPECT_EQ(k["loads"]["A"]["vector_bits"], 128);
  EXPECT_EQ(k["loads"]["A"]["instructions"], 16);
  EXPECT_EQ(j["epilogue"]["elements"], 64);
  EXPECT_EQ(j["epilogue"]["vector_bits"], 128);
  EXPECT_EQ(j["epilogue"]["instructions"], 16);
  EXPECT_EQ(j["predicates"]["C"]["residue"], nlohmann::json({256, 128}));
  EXPECT_FALSE(j["predicates"]["C"]["ragged"].get<bool>());
  EXPECT_TRUE(j["predicates"]["C"]["masked"].empty());
  // CTA (1,0) starts at row 128: the same fragment 128 rows down.
  TraceInput in = step1();
  in.cta[0] = 1;
  nlohmann::json j1 = trace_json(in);
  EXPECT_EQ(j1["local_tile"]["A"]["offset"], 128);
  EXPECT_EQ(j1["local_tile"]["C"]["offset"], 128 * 128);
  EXPECT_EQ(j1["partitions"]["C"]["layout"], "(1,(4,2),(4,2)):(0,(128,8192),(1,64))");
  std::string text = trace_text(j);
  for (const char* s : {"grid 2 x 1 CTAs", "gA = local_tile", "(128,8,4):(1,256,2048)",
                        "tCgA = partition_A(gA(_,_,0)) = (1,(4,2),8):(0,(1,64),256)",
                        "4 k_tiles", "8 k_blocks", "per k_block 64 FMAs", "per k_tile 512",
                        "in all 2048", "A 64 elements in 16 loads of 128 bits"})
    EXPECT_NE(text.find(s), std::string::npos) << s << "\n" << text;
}

TEST(Trace, LocalTileWords) {
  View v = local_tile_words("(256,32):(1,256)", "(128,128,8)", "(0,0,_)", "(1,X,1)");
  EXPECT_EQ(to_string(v.layout), "(128,8,4):(1,256,2048)");
  EXPECT_EQ(v.offset, 0);
  v = local_tile_words("(256,128):(128,1)", "(128,128,8)", "(1,0,_)", "(1,1,X)");
  EXPECT_EQ(to_string(v.layout), "(128,128):(128,1)");
  EXPECT_EQ(v.offset, 128 * 128);
  EXPECT_THROW(local_tile_words("(256,32):(1,256)", "(128,128,8)", "(0,0,_)", "(1,Y,1)"),
               std::invalid_argument);
  EXPECT_THROW(local_tile_words("(256,32):(1,256)", "(128,128,8)", "(0,0,_)", ""),
               std::invalid_argument);
}

std::string message_of(TraceInput const& in) {
  try {
    trace_json(in);
  } catch (std::exception const& e) {
    return e.what();
  }
  return "";
}

TEST(Trace, Errors) {
  TraceInput in = step1();
  in.cta[0] = 2;
  EXPECT_NE(message_of(in).find("CTA (2,0) is outside the grid 2 x 1"), std::string::npos)
      << message_of(in);
  in = step1();
  in.thread = 256;
  EXPECT_NE(message_of(in).find("thread 256 is outside the TiledMMA's threads [0, 256)"),
            std::string::npos)
      << message_of(in);
  in = step1();
  in.layout[int(Operand::kA)] = parse_layout("(128,32):(1,128)", true);
  EXPECT_NE(message_of(in).find("the layout of A (128,32):(1,128) does not match the problem: "
                                "an operand's layout has shape (M,K) = (256,32)"),
            std::string::npos)
      << message_of(in);
  int64_t p[3] = {256, 128, 32};
  EXPECT_THROW(operand_layout("N", Operand::kA, p), std::invalid_argument);
}

// The copies of A and B into shared memory (cp.async, 256 threads as (32,8), 4 values each):
// thread 33 sits at (1,1) of the thread layout and moves rows 4..7 of k = 1.
TEST(Trace, CopiesToSharedMemory) {
  TraceInput in = step1();
  in.thread = 33;
  in.copy[0] = trace_copy(in.cfg, Operand::kA, "cp_async:16", "(32,8):(1,32)", "(4,1)", "");
  in.copy[1] =
      trace_copy(in.cfg, Operand::kB, "cp_async:16", "(32,8):(1,32)", "(4,1)", "(128,8):(1,132)");
  nlohmann::json j = trace_json(in);
  auto const& a = j["copies"]["A"];
  EXPECT_EQ(a["S"]["name"], "tAgA");
  EXPECT_EQ(a["S"]["layout"], "((4,1),1,1):((1,0),0,0)");
  EXPECT_EQ(a["S"]["offset"], 4 + 256);  // A (256,32):(1,256) at (4,1)
  EXPECT_EQ(a["D"]["offset"], 4 + 128);  // sA (128,8):(1,128)
  EXPECT_EQ(a["loads"]["vector_bits"], 128);
  EXPECT_EQ(a["loads"]["instructions"], 1);
  EXPECT_EQ(j["copies"]["B"]["S"]["offset"], 4 + 128);
  EXPECT_EQ(j["copies"]["B"]["D"]["offset"], 4 + 132);  // the padded shared tile
  EXPECT_EQ(j["copies"]["B"]["D"]["name"], "tBsB");
  EXPECT_THROW(trace_copy(in.cfg, Operand::kA, "cp_async:16", "(32,4):(1,32)", "(4,1)", ""),
               std::invalid_argument);  // 128 threads for a 256-thread TiledMMA
  EXPECT_THROW(trace_copy(in.cfg, Operand::kA, "cp_async:16", "(32,8):(1,32)", "(4,1)",
                          "(64,8):(1,64)"),
               std::invalid_argument);  // not the CTA tile's shape
}

// A random FMA TiledMMA, its CTA tile and a problem with ragged edges in M, N and K, with
// M-/K-major A, N-/K-major B, row- or column-major C and padded leading dimensions.
TraceInput random_input(std::mt19937& rng) {
  auto pick = [&](int64_t lo, int64_t hi) {
    return std::uniform_int_distribution<int64_t>(lo, hi)(rng);
  };
  int64_t tm = int64_t(1) << pick(0, 3), tn = int64_t(1) << pick(0, 3);
  int64_t bm = tm * pick(1, 3), bn = tn * pick(1, 3), bk = pick(1, 4);
  MmaConfig cfg = pick(0, 4) == 0
                      ? mma_preset("step4")
                      : mma_config("UniversalFMA", "(" + std::to_string(tm) + "," +
                                                       std::to_string(tn) + ",1)",
                                   "none", bm, bn, bk);
  int64_t m = pick(1, 3 * cfg.tile[0]), n = pick(1, 3 * cfg.tile[1]), k = pick(1, 3 * cfg.tile[2]);
  auto lay = [&](int64_t e0, int64_t e1, bool first) {
    int64_t pad = pick(0, 3);
    return "(" + std::to_string(e0) + "," + std::to_string(e1) + "):" +
           (first ? "(1," + std::to_string(e0 + pad) + ")"
                  : "(" + std::to_string(e1 + pad) + ",1)");
  };
  TraceInput in = make_input(cfg, m, n, k, lay(m, k, pick(0, 1)), lay(n, k, pick(0, 1)),
                             lay(m, n, pick(0, 1)));
  return in;
}

// Every element of a thread's partition: its offset is the problem layout at its coordinate, and
// the predicate is exactly "inside the problem". C is owned exactly once over the grid; each
// in-bounds element of an A/B tile at each k_tile is read by the same number of threads.
TEST(Trace, BruteForceOwnershipAndPredicates) {
  std::mt19937 rng(2024);
  int64_t masked = 0, mma_trials = 0;  // the trials reach ragged edges and MMA atoms
  for (int trial = 0; trial < 24; ++trial) {
    TraceInput in = random_input(rng);
    mma_trials += in.cfg.mma.atom.threads() > 1;
    int64_t const* p = in.problem;
    nlohmann::json j0 = trace_json(in);
    int64_t gm = j0["grid"][0], gn = j0["grid"][1], k_tiles = j0["k_loop"]["k_tiles"];
    ASSERT_EQ(k_tiles, (p[2] + in.cfg.tile[2] - 1) / in.cfg.tile[2]);
    std::map<std::pair<int64_t, int64_t>, int> c_owned;
    for (int64_t cm = 0; cm < gm; ++cm)
      for (int64_t cn = 0; cn < gn; ++cn) {
        in.cta[0] = cm, in.cta[1] = cn;
        for (Operand op : {Operand::kC, Operand::kA, Operand::kB}) {
          int64_t e0 = p[TiledMMA::mode0(op)], e1 = p[TiledMMA::mode1(op)];
          for (int64_t kt = 0; kt < (op == Operand::kC ? 1 : k_tiles); ++kt) {
            std::map<std::pair<int64_t, int64_t>, int> seen;
            for (in.thread = 0; in.thread < in.cfg.mma.threads(); ++in.thread)
              for (TraceElement const& e : trace_elements(in, op, kt)) {
                bool inside = e.coord[0] < e0 && e.coord[1] < e1;
                ASSERT_EQ(e.valid, inside) << trial << " " << operand_name(op);
                masked += !inside;
                if (!inside) continue;
                ASSERT_EQ(e.offset, in.layout[int(op)](make_tuple(e.coord[0], e.coord[1])))
                    << trial << " " << operand_name(op);
                ++seen[{e.coord[0], e.coord[1]}];
                if (op == Operand::kC) ++c_owned[{e.coord[0], e.coord[1]}];
              }
            // The in-bounds part of this tile, each element read equally often.
            int64_t t0 = in.cfg.tile[TiledMMA::mode0(op)], t1 = in.cfg.tile[TiledMMA::mode1(op)];
            int64_t o0 = t0 * in.cta[op == Operand::kB ? 1 : 0];
            int64_t o1 = t1 * (op == Operand::kC ? in.cta[1] : kt);
            int64_t rect = (std::min(e0, o0 + t0) - o0) * (std::min(e1, o1 + t1) - o1);
            ASSERT_EQ(int64_t(seen.size()), rect) << trial << " " << operand_name(op);
            for (auto const& [c, count] : seen) {
              ASSERT_TRUE(c.first >= o0 && c.first < o0 + t0 && c.second >= o1 &&
                          c.second < o1 + t1);
              ASSERT_EQ(count, seen.begin()->second);
            }
          }
        }
      }
    ASSERT_EQ(int64_t(c_owned.size()), p[0] * p[1]) << trial;
    for (auto const& [c, count] : c_owned) ASSERT_EQ(count, 1) << trial;
  }
  EXPECT_GT(masked, 0);
  EXPECT_GT(mma_trials, 0);
}

// The K-loop's counts: a CTA's threads do BM*BN*BK multiply-adds per k_tile between them.
TEST(Trace, BruteForceCounts) {
  std::mt19937 rng(7);
  for (int trial = 0; trial < 24; ++trial) {
    TraceInput in = random_input(rng);
    nlohmann::json j = trace_json(in);
    auto const& k = j["k_loop"];
    MmaAtom const& atom = in.cfg.mma.atom;
    int64_t per_tile = k["per_k_tile"];
    EXPECT_EQ(per_tile, k["per_k_block"].get<int64_t>() * k["k_blocks"].get<int64_t>());
    EXPECT_EQ(per_tile * in.cfg.mma.threads() / atom.threads() * atom.m * atom.n * atom.k,
              in.cfg.tile[0] * in.cfg.tile[1] * in.cfg.tile[2])
        << trial;
    EXPECT_EQ(k["total"].get<int64_t>(), per_tile * k["k_tiles"].get<int64_t>());
    EXPECT_EQ(k["loads"]["A"]["elements"].get<int64_t>(),
              int64_t(trace_elements(in, Operand::kA, 0).size()));
    // Each accumulator of the CTA tile is held by exactly one thread.
    EXPECT_EQ(j["fragments"]["C"]["size"].get<int64_t>() * in.cfg.mma.threads(),
              in.cfg.tile[0] * in.cfg.tile[1]);
    int64_t masked = 0;
    for (auto const& e : trace_elements(in, Operand::kC, 0)) masked += !e.valid;
    EXPECT_EQ(int64_t(j["predicates"]["C"]["masked"].size()), masked);
  }
}

}  // namespace
}  // namespace tessera::tools
