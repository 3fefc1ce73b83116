// tests/test_gemm_plan.cpp -- the GEMM plan (kernels/gemm/plan.hpp) against the choices recorded
// from the library before the plan module (tests/data/gemm_plans.tsv, described in
// tests/data/gemm_plans.md): for every recorded problem and device, the same status, workspace
// and words, and typed fields that say what the words say.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "../kernels/gemm/plan.hpp"
#include "../kernels/gemm/plan_text.hpp"

namespace {

using namespace tessera::ladder;

// A device described by its resident counts (tests/data/gemm_plans.md).
struct TableDevice : GemmDevice {
  int clusters = 0, ctas128 = 0, ctas64 = 0, ctas32 = 0;
  int wgmma_clusters(tessera_dtype, int64_t, int64_t, bool) const override { return clusters; }
  int simt_ctas(int64_t bn) const override {
    return bn == 64 ? ctas64 : bn == 32 ? ctas32 : ctas128;
  }
};
TableDevice device_named(std::string const& name) {
  TableDevice d;
  if (name == "h100_sxm" || name == "h200")
    d.clusters = 66, d.ctas128 = d.ctas64 = 264, d.ctas32 = 396;
  else if (name == "h100_pcie")
    d.clusters = 57, d.ctas128 = d.ctas64 = 228, d.ctas32 = 342;
  else if (name != "none")
    ADD_FAILURE() << "unknown device " << name;
  return d;
}

struct Recorded {
  std::string device, kernel, text;
  GemmCall call;
  int status = 0;
  size_t workspace = 0;
  int line = 0;
};

tessera_dtype dtype_named(std::string const& s) {
  return s == "F32"    ? TESSERA_F32
         : s == "TF32" ? TESSERA_TF32
         : s == "F16"  ? TESSERA_F16
                       : TESSERA_BF16;
}

std::vector<Recorded> read_recorded() {
  std::ifstream in(std::string(TESSERA_SOURCE_DIR) + "/tests/data/gemm_plans.tsv");
  std::vector<Recorded> out;
  std::string line;
  for (int n = 1; std::getline(in, line); ++n) {
    if (line.empty() || line[0] == '#') continue;
    std::vector<std::string> f;
    std::stringstream ss(line);
    for (std::string cell; std::getline(ss, cell, '\t');) f.push_back(cell);
    if (f.size() != 18) {
      ADD_FAILURE() << "line " << n << ": " << f.size() << " fields";
      continue;
    }
    Recorded r;
    r.line = n, r.device = f[0], r.kernel = f[14], r.text = f[17];
    GemmCall& c = r.call;
    c.dtype = dtype_named(f[1]), c.transa = f[2][0], c.transb = f[2][1];
    c.m = std::atoll(f[3].c_str()), c.n = std::atoll(f[4].c_str()), c.k = std::atoll(f[5].c_str());
    c.lda = std::atoll(f[6].c_str()), c.ldb = std::atoll(f[7].c_str()),
    c.ldc = std::atoll(f[8].c_str());
    c.a = reinterpret_cast<const void*>(std::strtoull(f[9].c_str(), nullptr, 16));
    c.b = reinterpret_cast<const void*>(std::strtoull(f[10].c_str(), nullptr, 16));
    c.c = reinterpret_cast<const void*>(std::strtoull(f[11].c_str(), nullptr, 16));
    c.alpha = std::strtof(f[12].c_str(), nullptr), c.beta = std::strtof(f[13].c_str(), nullptr);
    r.status = std::atoi(f[15].c_str()), r.workspace = size_t(std::atoll(f[16].c_str()));
    out.push_back(r);
  }
  return out;
}

bool has(std::string const& text, const char* part) { return text.find(part) != std::string::npos; }
// The number after `part` in text (-1 when absent).
long long after(std::string const& text, const char* part) {
  const size_t at = text.find(part);
  return at == std::string::npos ? -1 : std::atoll(text.c_str() + at + std::strlen(part));
}
// The number just before `part` in text (-1 when absent).
long long before(std::string const& text, const char* part) {
  size_t at = text.find(part);
  if (at == std::string::npos) return -1;
  while (at > 0 && text[at - 1] >= '0' && text[at - 1] <= '9') --at;
  return std::atoll(text.c_str() + at);
}

Schedule schedule_in(std::string const& t) {
  return has(t, "decided at launch") ? Schedule::kAtLaunch
         : has(t, "; split-K:")      ? Schedule::kSplitK
         : has(t, "; stream-K on")   ? Schedule::kStreamK
                                     : Schedule::kWholeTiles;
}

// The plan's typed fields against the recorded words.
void expect_fields(GemmPlan const& p, std::string const& t, std::string const& where) {
  if (p.status != TESSERA_SUCCESS || p.quick != QuickReturn::kNone) return;
  EXPECT_TRUE(has(t, (std::string("kernel ") + kernel_name(p.kernel) + ",").c_str())) << where;
  EXPECT_EQ(p.pack_a, has(t, "; A packed")) << where;
  EXPECT_EQ(p.pack_b, has(t, "; B packed")) << where;
  EXPECT_EQ(static_cast<long long>(p.workspace), std::max(0LL, after(t, "; workspace "))) << where;
  EXPECT_EQ(p.transposed, has(t, "on the transposed problem") || has(t, ": B (")) << where;
  if (p.kernel == GemmKernel::kWgmmaTma) {
    EXPECT_EQ(p.tile_m, after(t, "; tile ")) << where;
    EXPECT_EQ(p.tile_n, after(t, (" tile " + std::to_string(p.tile_m) + " x ").c_str())) << where;
    EXPECT_EQ(p.tma_store, has(t, "; C stored by TMA") || has(t, "; C^T stored by TMA")) << where;
    EXPECT_EQ(p.cluster_shares_b, has(t, "on the problem as given")) << where;
    const Schedule s = schedule_in(t);
    EXPECT_EQ(int(p.schedule), int(s)) << where;
    if (s == Schedule::kSplitK) {
      EXPECT_EQ(p.work.splits, after(t, " cluster tiles x ")) << where;
    } else if (s == Schedule::kStreamK) {
      EXPECT_EQ(p.work.dp_tiles, after(t, " clusters: ")) << where;
    } else if (s == Schedule::kWholeTiles) {
      EXPECT_EQ(p.work.clusters, before(t, " clusters, whole")) << where;
    }
  }
  if (p.kernel == GemmKernel::kSimtPipelined) {
    EXPECT_EQ(p.tile_n, after(t, " tiles of 128 x ")) << where;
    const Schedule s = schedule_in(t);
    EXPECT_EQ(int(p.schedule), int(s)) << where;
    EXPECT_EQ(p.split.splits, s == Schedule::kSplitK ? before(t, " splits of ") : 1) << where;
  }
  if (p.kernel == GemmKernel::kSkinny) {
    EXPECT_EQ(p.skinny.splits, std::max(1LL, after(t, "; K split over "))) << where;
  }
}

// tessera_gemm_workspace_size's call: alpha = 1, beta = 0, C at 256, ldc = max(1, m).
size_t workspace_of(GemmCall c, GemmDevice const& device) {
  c.alpha = 1.0f, c.beta = 0.0f;
  c.c = reinterpret_cast<const void*>(uintptr_t(256)), c.ldc = c.m > 1 ? c.m : 1;
  const GemmPlan p = make_gemm_plan(c, device);
  return p.status == TESSERA_SUCCESS ? p.workspace : 0;
}

// A call on operands at fake, aligned addresses (only their alignment matters to the plan), with
// op(A) m x k (lda), op(B) k x n (ldb) and C m x n (ldc).
GemmCall call_of(tessera_dtype dtype, char transa, char transb, int64_t m, int64_t n, int64_t k,
                 int64_t lda, int64_t ldb, int64_t ldc) {
  GemmCall c;
  c.dtype = dtype, c.transa = transa, c.transb = transb, c.m = m, c.n = n, c.k = k;
  c.a = reinterpret_cast<const void*>(0x10000), c.lda = lda;
  c.b = reinterpret_cast<const void*>(0x20000), c.ldb = ldb;
  c.c = reinterpret_cast<const void*>(0x30000), c.ldc = ldc;
  return c;
}

// y = x W^T from PyTorch in FP8 of dtype t (column-major 'T','N': m = out features, n = tokens,
// k = in features), C bf16, one scale for each operand unless the test points them elsewhere.
GemmCall fp8_projection(tessera_dtype t, int64_t out, int64_t tokens, int64_t k,
                        tessera_scaling scaling = TESSERA_SCALE_TENSOR,
                        tessera_accumulation accumulation = TESSERA_ACCUMULATE_PROMOTED) {
  static const float one = 1.0f;
  GemmCall c = call_of(t, 'T', 'N', out, tokens, k, k, k, out);
  c.b_dtype = t, c.c_dtype = TESSERA_BF16, c.scaled = true, c.scaling = scaling;
  c.scale_a = c.scale_b = &one;
  c.accumulation = accumulation;
  return c;
}

TEST(GemmPlan, ReproducesTheRecordedChoices) {
  std::vector<Recorded> all = read_recorded();
  ASSERT_GT(all.size(), 6000u);
  int mismatches = 0;
  for (Recorded& r : all) {
    r.call.kernel = r.kernel == "-" ? nullptr : r.kernel.c_str();
    const TableDevice device = device_named(r.device);
    const GemmPlan p = make_gemm_plan(r.call, device);
    const std::string where = r.device + ", line " + std::to_string(r.line) + ": " + r.text;
    const std::string text = describe(p);
    EXPECT_EQ(p.status, r.status) << where;
    EXPECT_EQ(text, r.text) << where;
    EXPECT_EQ(workspace_of(r.call, device), r.workspace) << where;
    expect_fields(p, r.text, where);
    if (text != r.text && ++mismatches > 20) FAIL() << "more than 20 plans differ";
  }
}

// The recorded problems cover every kernel, tile, orientation and schedule the plan has.
TEST(GemmPlan, RecordedProblemsCoverEveryChoice) {
  std::vector<Recorded> all = read_recorded();
  bool kernel[6] = {}, short_tile = false, shares_b = false, a_regs = false;
  bool schedule[4] = {}, tma_store = false, simt_split = false, skinny_split = false;
  for (Recorded& r : all) {
    r.call.kernel = r.kernel == "-" ? nullptr : r.kernel.c_str();
    const GemmPlan p = make_gemm_plan(r.call, device_named(r.device));
    if (p.status != TESSERA_SUCCESS || p.quick != QuickReturn::kNone) continue;
    kernel[int(p.kernel)] = true;
    if (p.kernel == GemmKernel::kWgmmaTma) {
      schedule[int(p.schedule)] = true;
      short_tile |= p.tile_m == WgmmaShape::kShortBM, shares_b |= p.cluster_shares_b;
      a_regs |= p.a_through_registers, tma_store |= p.tma_store;
    }
    simt_split |= p.kernel == GemmKernel::kSimtPipelined && p.split.splits > 1;
    skinny_split |= p.kernel == GemmKernel::kSkinny && p.skinny.splits > 1;
  }
  for (int k = 0; k < 6; ++k) EXPECT_TRUE(kernel[k]) << kernel_name(GemmKernel(k));
  for (int s = 0; s < 4; ++s) EXPECT_TRUE(schedule[s]) << s;
  EXPECT_TRUE(short_tile && shares_b && a_regs && tma_store && simt_split && skinny_split);
}

// The launchers' view of a plan: kernel 05 transposed runs the caller's B in A's role.
TEST(GemmPlan, LaunchersGetTheKernelsRoles) {
  TableDevice h100 = device_named("h100_sxm");
  GemmCall c = call_of(TESSERA_TF32, 'N', 'T', 256, 4096, 4096, 256, 4096, 256);
  const GemmPlan p = make_gemm_plan(c, h100);
  ASSERT_EQ(p.kernel, GemmKernel::kWgmmaTma);
  EXPECT_TRUE(p.transposed);
  EXPECT_TRUE(p.pack_a && !p.pack_b) << describe(p);
  const WgmmaRun run = wgmma_run(p);
  EXPECT_EQ(run.args.p.m, 4096);  // the caller's n
  EXPECT_EQ(run.args.p.a, static_cast<const float*>(c.b));
  EXPECT_TRUE(run.a_through_registers && !run.pack_a && run.pack_b);
  EXPECT_EQ(run.args.c_sm, 256);  // C^T: C's columns along the kernel's m
  // The environment's overrides: TESSERA_GEMM_SCHEDULE=tiles keeps whole tiles.
  c.transb = 'N', c.m = c.n = 1024, c.k = 16384, c.lda = 1024, c.ldb = 16384, c.ldc = 1024;
  c.dtype = TESSERA_F16;
  EXPECT_EQ(make_gemm_plan(c, h100).schedule, Schedule::kSplitK);
  PlanOverrides whole;
  whole.whole_tiles = true;
  EXPECT_EQ(make_gemm_plan(c, h100, whole).schedule, Schedule::kWholeTiles);
  PlanOverrides wide;
  wide.tile_width = 256;
  EXPECT_EQ(make_gemm_plan(c, h100, wide).tile_n, 256);
  // TESSERA_GEMM_SPLITS=s: K in s parts where the cluster tiles times s fit the 66 clusters;
  // where they do not, the rules' choice.
  for (int64_t size : {1024, 512}) {
    c.m = c.n = c.lda = c.ldc = size;
    const GemmPlan chosen = make_gemm_plan(c, h100);
    for (int64_t s = 2; s <= 8; ++s) {
      PlanOverrides split;
      split.splits = s;
      const GemmPlan p = make_gemm_plan(c, h100, split);
      if (chosen.work.tiles * s > 66) {
        EXPECT_EQ(describe(p), describe(chosen));
        continue;
      }
      EXPECT_EQ(p.schedule, Schedule::kSplitK) << describe(p);
      EXPECT_EQ(p.work.splits, s) << describe(p);
      EXPECT_EQ(p.work.clusters, p.work.tiles * s) << describe(p);
      const std::string says = "split-K: " + std::to_string(p.work.tiles) + " cluster tiles x " +
                               std::to_string(s) + " splits";
      EXPECT_NE(describe(p).find(says), std::string::npos) << describe(p);
    }
  }
}

// Rules "wgmma schedule" and "wgmma tile" on a long K (y = x W^T in bf16, 4096 outputs): 64
// tokens on the short tile (32 cluster tiles of 64 x 64, more than a quarter of the clusters)
// run whole over K = 4096 (64 k-tiles) and split K in two over a down projection's 14336 inputs
// (224 k-tiles); 128 tokens keep the short tile whole over K = 4096 (64 cluster tiles) and take
// the 128 x 128 tile over 14336, K in four parts (16 cluster tiles).
TEST(GemmPlan, ALongKIsSplit) {
  TableDevice h100 = device_named("h100_sxm");
  const auto plan_of = [&](int64_t tokens, int64_t in) {
    return make_gemm_plan(call_of(TESSERA_BF16, 'T', 'N', 4096, tokens, in, in, in, 4096), h100);
  };
  const GemmPlan o = plan_of(64, 4096), down = plan_of(64, 14336);
  EXPECT_EQ(o.tile_m, WgmmaShape::kShortBM) << describe(o);
  EXPECT_EQ(o.work.tiles, 32) << describe(o);
  EXPECT_EQ(o.schedule, Schedule::kWholeTiles) << describe(o);
  EXPECT_EQ(down.tile_m, WgmmaShape::kShortBM) << describe(down);
  EXPECT_EQ(down.work.splits, 2) << describe(down);
  const GemmPlan o128 = plan_of(128, 4096), down128 = plan_of(128, 14336);
  EXPECT_EQ(o128.tile_m, WgmmaShape::kShortBM) << describe(o128);
  EXPECT_EQ(o128.schedule, Schedule::kWholeTiles) << describe(o128);
  EXPECT_EQ(down128.tile_m, WgmmaShape::kBM) << describe(down128);
  EXPECT_EQ(down128.tile_n, 128) << describe(down128);
  EXPECT_EQ(down128.work.splits, 4) << describe(down128);
}

// Rule "FP8 split": a 64-token down-projection in e5m2 with fast accumulation (y = x W^T: 2112
// outputs, K = 7168, 56 k-tiles of 128 FP8 elements; 9 cluster tiles of 128 x 64 on 66 clusters)
// splits K in 3 parts of ~19 k-tiles, where 16-bit's minimum (32 k-tiles a part) would keep the
// tiles whole.
TEST(GemmPlan, Fp8SplitsKIntoShorterParts) {
  TableDevice h100 = device_named("h100_sxm");
  GemmCall c =
      fp8_projection(TESSERA_E5M2, 2112, 64, 7168, TESSERA_SCALE_TENSOR, TESSERA_ACCUMULATE_FAST);
  EXPECT_EQ(min_split_k_tiles(TESSERA_E4M3), 16);
  EXPECT_EQ(min_split_k_tiles(TESSERA_E5M2), 16);
  EXPECT_EQ(min_split_k_tiles(TESSERA_F16), kMinSplitKTiles);
  const GemmPlan fp8 = make_gemm_plan(c, h100);
  EXPECT_EQ(fp8.schedule, Schedule::kSplitK) << describe(fp8);
  EXPECT_EQ(fp8.work.splits, 3) << describe(fp8);
  EXPECT_EQ(fp8.work.k_tiles, 56) << describe(fp8);
  // 2048 of K (16 k-tiles) is one part's worth: whole tiles.
  c.k = c.lda = c.ldb = 2048;
  EXPECT_EQ(make_gemm_plan(c, h100).work.splits, 1) << describe(make_gemm_plan(c, h100));
  // The same 9 cluster tiles of 56 k-tiles under 16-bit's minimum: whole tiles.
  EXPECT_EQ(wgmma_schedule({.tiles_m = 18, .tiles_n = 1, .k_tiles = 56, .clusters = 66}).splits, 1);
  EXPECT_EQ(wgmma_schedule({.tiles_m = 18, .tiles_n = 1, .k_tiles = 56, .clusters = 66,
                            .min_split = 16})
                .splits,
            3);
}

// Rule "promoted sums": e4m3 promoted every 128 of K (y = x W^T at 64 and 128 tokens, and its
// transpose) takes a 64-column tile where "wgmma tile" picks 64 columns and either the problem
// has at most 64 (128 x 64 or the short 64 x 64) or the short tile fits; 65-128 columns on a
// 128 x 64 tile, e5m2 and block scales keep the 128 x 128 one.
TEST(GemmPlan, FewE4m3ColumnsTakeTheNarrowPromotedTiles) {
  TableDevice h100 = device_named("h100_sxm");
  const auto tile_of = [&](tessera_dtype t, int64_t m, int64_t n, int64_t k,
                           tessera_scaling scaling) {
    const GemmPlan p = make_gemm_plan(fp8_projection(t, m, n, k, scaling), h100);
    EXPECT_EQ(p.status, TESSERA_SUCCESS) << describe(p);
    return std::to_string(p.tile_m) + "x" + std::to_string(p.tile_n);
  };
  const tessera_scaling tensor = TESSERA_SCALE_TENSOR;
  EXPECT_EQ(tile_of(TESSERA_E4M3, 4096, 64, 7168, tensor), "64x64");
  EXPECT_EQ(tile_of(TESSERA_E4M3, 4096, 64, 7168, TESSERA_SCALE_ROW), "64x64");
  EXPECT_EQ(tile_of(TESSERA_E4M3, 48, 4096, 7168, tensor), "64x64");
  EXPECT_EQ(tile_of(TESSERA_E4M3, 24576, 64, 1536, tensor), "128x64");
  EXPECT_EQ(tile_of(TESSERA_E4M3, 4096, 128, 7168, tensor), "64x64");
  EXPECT_EQ(tile_of(TESSERA_E4M3, 7168, 128, 16384, tensor), "128x128");
  EXPECT_EQ(tile_of(TESSERA_E5M2, 4096, 64, 7168, tensor), "128x128");
  // Block scales on at most 128 rows of the scaled operand: the short tile, 128 wide.
  EXPECT_EQ(tile_of(TESSERA_E4M3, 4096, 64, 7168, TESSERA_SCALE_BLOCK_B_COLUMNS), "64x128");
  EXPECT_EQ(tile_of(TESSERA_E4M3, 4096, 128, 7168, TESSERA_SCALE_BLOCK_B_COLUMNS), "64x128");
  EXPECT_EQ(tile_of(TESSERA_E4M3, 4096, 129, 7168, TESSERA_SCALE_BLOCK_B_COLUMNS), "128x128");
  EXPECT_EQ(tile_of(TESSERA_E5M2, 4096, 128, 7168, TESSERA_SCALE_BLOCK_B_COLUMNS), "128x128");
  // A short tile less than half full splits K as 16-bit's does (24 tokens: 32 cluster tiles, 56
  // k-tiles in two parts).
  const GemmPlan split = make_gemm_plan(fp8_projection(TESSERA_E4M3, 4096, 24, 7168), h100);
  EXPECT_EQ(split.tile_m, WgmmaShape::kShortBM) << describe(split);
  EXPECT_EQ(split.work.splits, 2) << describe(split);
  // The promoted short tile fills the clusters by splitting K as well: block scales at 128
  // tokens, per tensor and row-wise at 64 (2112 outputs: 17 cluster tiles, 56 k-tiles in three
  // parts; 4096 outputs: 32, in two; 7168: 56, whole).
  for (const auto& [out, splits] : {std::pair{2112, 3}, std::pair{4096, 2}, std::pair{7168, 1}}) {
    for (const auto& [tokens, scaling] :
         {std::pair{128, TESSERA_SCALE_BLOCK_B_COLUMNS}, std::pair{64, TESSERA_SCALE_TENSOR},
          std::pair{64, TESSERA_SCALE_ROW}}) {
      const GemmPlan p = make_gemm_plan(fp8_projection(TESSERA_E4M3, out, tokens, 7168, scaling),
                                        h100);
      EXPECT_EQ(p.tile_m, WgmmaShape::kShortBM) << describe(p);
      EXPECT_EQ(p.work.splits, splits) << describe(p);
    }
  }
}

// Rule "wgmma schedule": FP8's promoted kernel on one line of cluster tiles (64 tokens against
// 24576 x 1536 weights: 96 cluster tiles of 128 x 64 on 66 clusters) runs whole tiles where 16-bit
// would stream them; the fast kernel (e5m2: e4m3 on 64 columns runs promoted) keeps stream-K.
TEST(GemmPlan, PromotedKernelOnOneTileLineIsNotStreamed) {
  TableDevice h100 = device_named("h100_sxm");
  const auto plan_of = [&](tessera_dtype t, tessera_accumulation accumulation) {
    return make_gemm_plan(fp8_projection(t, 24576, 64, 1536, TESSERA_SCALE_TENSOR, accumulation),
                          h100);
  };
  const GemmPlan promoted = plan_of(TESSERA_E4M3, TESSERA_ACCUMULATE_PROMOTED);
  EXPECT_EQ(promoted.schedule, Schedule::kWholeTiles) << describe(promoted);
  EXPECT_EQ(promoted.work.tiles, 96) << describe(promoted);
  const GemmPlan fast = plan_of(TESSERA_E5M2, TESSERA_ACCUMULATE_FAST);
  EXPECT_FALSE(fast.fp8.promoted) << describe(fast);
  EXPECT_EQ(fast.schedule, Schedule::kStreamK) << describe(fast);
}

// Rule "few promote": e4m3 with fast accumulation on at most 128 columns runs the promoted
// kernel's plan (64 tokens against 2112 x 7168: the short tile, K in three parts); 129 columns,
// and e5m2, keep the fast kernel.
TEST(GemmPlan, FastAccumulationOnFewColumnsRunsPromoted) {
  TableDevice h100 = device_named("h100_sxm");
  const auto plan_of = [&](tessera_dtype t, int64_t tokens) {
    return make_gemm_plan(
        fp8_projection(t, 2112, tokens, 7168, TESSERA_SCALE_TENSOR, TESSERA_ACCUMULATE_FAST), h100);
  };
  const GemmPlan few = plan_of(TESSERA_E4M3, 64);
  EXPECT_TRUE(few.fp8.promoted) << describe(few);
  EXPECT_EQ(few.tile_m, WgmmaShape::kShortBM) << describe(few);
  EXPECT_EQ(few.work.splits, 3) << describe(few);
  EXPECT_NE(describe(few).find("; the promoted kernel, sums promoted"), std::string::npos)
      << describe(few);
  EXPECT_TRUE(plan_of(TESSERA_E4M3, 128).fp8.promoted);
  EXPECT_FALSE(plan_of(TESSERA_E4M3, 129).fp8.promoted);
  EXPECT_FALSE(plan_of(TESSERA_E5M2, 64).fp8.promoted);
}

// Rule "cluster along N": block scales on one tile row (at most 64 tokens on the short tile) put
// a cluster's two CTAs on neighbouring tiles along N, and the schedule counts those cluster
// tiles (4096 outputs: 32 tiles of 128, 16 cluster tiles, K = 7168 in three parts); two tile
// rows keep the cluster along M.
TEST(GemmPlan, BlockScalesOnOneTileRowPutTheClusterAlongN) {
  TableDevice h100 = device_named("h100_sxm");
  const auto plan_of = [&](int64_t tokens) {
    return make_gemm_plan(
        fp8_projection(TESSERA_E4M3, 4096, tokens, 7168, TESSERA_SCALE_BLOCK_B_COLUMNS), h100);
  };
  const GemmPlan few = plan_of(64);
  EXPECT_TRUE(few.cluster_along_n) << describe(few);
  EXPECT_EQ(few.work.tiles, 16) << describe(few);
  EXPECT_EQ(few.work.splits, 3) << describe(few);
  const GemmPlan more = plan_of(65);
  EXPECT_FALSE(more.cluster_along_n) << describe(more);
  EXPECT_EQ(more.work.tiles, 32) << describe(more);
}

// Rule "cluster shares A": y = x W^T at 128 tokens against 8192 outputs (bf16, 64 tile rows of
// 128 x 64 by two tile columns: 64 cluster tiles on 66 clusters) puts the cluster's CTAs on the
// two tiles of a tile row, sharing W's tile; TESSERA_GEMM_CLUSTER=m keeps them along M. Not:
// 6144 outputs (48 cluster tiles, under 9/10 of 66), 256 tokens (four tile columns), tf32 (no
// measurement), and the short tile (4096 outputs).
TEST(GemmPlan, TwoTileColumnsFillingTheGpuShareA) {
  TableDevice h100 = device_named("h100_sxm");
  const auto plan_of = [&](tessera_dtype t, int64_t out, int64_t tokens, PlanOverrides o = {}) {
    return make_gemm_plan(call_of(t, 'T', 'N', out, tokens, 8192, 8192, 8192, out), h100, o);
  };
  const GemmPlan shared = plan_of(TESSERA_BF16, 8192, 128);
  EXPECT_TRUE(shared.cluster_along_n) << describe(shared);
  EXPECT_EQ(shared.tile_m, 128);
  EXPECT_EQ(shared.tile_n, 64);
  EXPECT_EQ(shared.work.tiles, 64) << describe(shared);
  EXPECT_NE(describe(shared).find("sharing A's tile"), std::string::npos);
  EXPECT_TRUE(plan_of(TESSERA_F16, 8192, 96).cluster_along_n);
  PlanOverrides along_m;
  along_m.cluster_along_m = true;
  const GemmPlan kept = plan_of(TESSERA_BF16, 8192, 128, along_m);
  EXPECT_FALSE(kept.cluster_along_n) << describe(kept);
  EXPECT_EQ(kept.work.tiles, 64) << describe(kept);
  EXPECT_FALSE(plan_of(TESSERA_BF16, 6144, 128).cluster_along_n);
  EXPECT_FALSE(plan_of(TESSERA_BF16, 4096, 256).cluster_along_n);
  EXPECT_FALSE(plan_of(TESSERA_TF32, 8192, 128).cluster_along_n);
  EXPECT_FALSE(plan_of(TESSERA_BF16, 4096, 128).cluster_along_n);
}

// The override TESSERA_GEMM_FP8_FEW_ON_M (measuring): per-tensor e4m3 of at most 128 tokens on the
// block-scaled shape, the tokens on the kernel's M (the transposed problem for y = x W^T), the
// short 64 x 128 tile, the cluster along N at 64 tokens; 129 tokens keep the rules' tile.
TEST(GemmPlan, FewOnMOverridePutsPerTensorTokensOnTheShortTile) {
  TableDevice h100 = device_named("h100_sxm");
  const auto plan_of = [&](int64_t tokens) {
    return make_gemm_plan(fp8_projection(TESSERA_E4M3, 4096, tokens, 7168), h100,
                          PlanOverrides{.few_on_m = true});
  };
  for (const int64_t tokens : {64, 128}) {
    const GemmPlan p = plan_of(tokens);
    EXPECT_EQ(p.tile_m, WgmmaShape::kShortBM) << describe(p);
    EXPECT_EQ(p.tile_n, WgmmaShape::kPromotedN) << describe(p);
    EXPECT_TRUE(p.transposed) << describe(p);
    EXPECT_EQ(p.cluster_along_n, tokens <= 64) << describe(p);
  }
  EXPECT_EQ(plan_of(129).tile_m, WgmmaShape::kBM);
}

// Rule "few on M": 128 tokens against 7168 x 2048 (per tensor, row-wise, and fast accumulation
// through "few promote") run the block-scaled shape: 28 cluster tiles of 128 x 128 over 16
// k-tiles would keep fewer than half the clusters busy; over 7168 x 16384 (128 k-tiles) K splits
// instead, and 64 tokens keep their narrow tile.
TEST(GemmPlan, FewTokensOverAShortKRunOnTheShortTile) {
  TableDevice h100 = device_named("h100_sxm");
  const auto plan_of = [&](int64_t tokens, int64_t k, tessera_scaling scaling,
                           tessera_accumulation accumulation) {
    return make_gemm_plan(fp8_projection(TESSERA_E4M3, 7168, tokens, k, scaling, accumulation),
                          h100);
  };
  for (const tessera_scaling scaling : {TESSERA_SCALE_TENSOR, TESSERA_SCALE_ROW}) {
    for (const tessera_accumulation acc : {TESSERA_ACCUMULATE_PROMOTED, TESSERA_ACCUMULATE_FAST}) {
      const GemmPlan p = plan_of(128, 2048, scaling, acc);
      EXPECT_EQ(p.tile_m, WgmmaShape::kShortBM) << describe(p);
      EXPECT_EQ(p.tile_n, WgmmaShape::kPromotedN) << describe(p);
      EXPECT_TRUE(p.transposed) << describe(p);
      EXPECT_NE(describe(p).find("(n < m: the few columns along the tile's rows"),
                std::string::npos)
          << describe(p);
      EXPECT_EQ(p.work.tiles, 56) << describe(p);
    }
  }
  const GemmPlan long_k = plan_of(128, 16384, TESSERA_SCALE_TENSOR, TESSERA_ACCUMULATE_PROMOTED);
  EXPECT_EQ(long_k.tile_m, WgmmaShape::kBM) << describe(long_k);
  EXPECT_EQ(long_k.work.splits, 2) << describe(long_k);
  const GemmPlan few = plan_of(64, 2048, TESSERA_SCALE_TENSOR, TESSERA_ACCUMULATE_PROMOTED);
  EXPECT_EQ(few.tile_n, WgmmaShape::kPromotedNarrowN) << describe(few);
}

// Block scales reach the kernel by TMA: its per-row scales are copied to a 16-byte pitch first
// (workspace) where their rows are not a multiple of 4 floats or the array is not 16-byte
// aligned, and read in place otherwise.
TEST(GemmPlan, BlockScalesOffTmaAlignmentAreCopiedFirst) {
  TableDevice h100 = device_named("h100_sxm");
  alignas(16) static const float scales[8] = {};
  const auto plan_of = [&](int64_t tokens, const float* token_scales) {
    GemmCall c = fp8_projection(TESSERA_E4M3, 4096, tokens, 7168, TESSERA_SCALE_BLOCK_B_COLUMNS);
    c.scale_a = scales, c.scale_b = token_scales;
    return make_gemm_plan(c, h100);
  };
  EXPECT_FALSE(plan_of(128, scales).copy_block_scales);
  EXPECT_FALSE(plan_of(1000, scales).copy_block_scales);
  for (const auto& [tokens, at] : {std::pair{1001, scales}, std::pair{128, scales + 1}}) {
    const GemmPlan p = plan_of(tokens, at);
    EXPECT_TRUE(p.copy_block_scales) << describe(p);
    EXPECT_GE(p.workspace, block_scales_bytes(tokens, 56)) << describe(p);
    EXPECT_NE(describe(p).find("block scales copied"), std::string::npos) << describe(p);
  }
}

// Rule "wgmma tile" on 65-128 columns: 128 wide where the 64-wide cluster tiles exceed one wave
// and K is long (a 128-token MLP, 28672 x 128 x 4096 at 16 bits: 224 cluster tiles of 64
// columns); 64 in one wave (6144 outputs: 48) or on a short K (FP8 24576 x 128 x 1536: 12
// k-tiles).
TEST(GemmPlan, NarrowProblemsBeyondOneWaveTakeTheWiderTile) {
  EXPECT_EQ(wgmma_tile(28672, 128, 64, 66, true).bn, 128);
  EXPECT_EQ(wgmma_tile(128, 28672, 64, 66, true).bn, 128);
  EXPECT_EQ(wgmma_tile(6144, 128, 64, 66, true).bn, 64);
  EXPECT_EQ(wgmma_tile(24576, 128, 12, 66, false).bn, 64);
  EXPECT_EQ(wgmma_tile(28672, 64, 64, 66, true).bn, 64);
}

// Rule "wgmma tile" on 257-512 columns at 16 bits: 128 wide where the 128 x 256 cluster tiles
// leave their last wave on 66 clusters at most 3/5 full (Qwen2.5 7B's QKV at 512 tokens: 36 in
// one wave; an MLP, 28672 outputs: 224, 26 in the last), 256 where it is fuller (6144 outputs:
// 48; 57344: 448, 52 in the last) or full, and beyond 512 columns or at 32 bits (tf32).
TEST(GemmPlan, WideTilesWithAThinLastWaveNarrowTo128) {
  EXPECT_EQ(wgmma_tile(4608, 512, 56, 66, true).bn, 128);
  EXPECT_EQ(wgmma_tile(512, 4608, 56, 66, true).bn, 128);
  EXPECT_FALSE(wgmma_tile(512, 4608, 56, 66, true).transposed);
  EXPECT_EQ(wgmma_tile(28672, 320, 64, 66, true).bn, 128);
  EXPECT_EQ(wgmma_tile(6144, 512, 64, 66, true).bn, 256);
  EXPECT_EQ(wgmma_tile(57344, 512, 128, 66, true).bn, 256);
  EXPECT_EQ(wgmma_tile(8448, 512, 64, 66, true).bn, 256);  // 66 wide cluster tiles: one full wave
  EXPECT_EQ(wgmma_tile(4608, 640, 56, 66, true).bn, 256);
  EXPECT_EQ(wgmma_tile(4608, 512, 56, 66, false).bn, 256);
}

// Rule "bound by HBM": a language model's MLP at 64 tokens (y = x W^T: 28672 x 64 x 4096, 224 tiles
// of 128 x 64, 112 cluster tiles on 66 clusters) runs whole tiles, not stream-K; at 512 tokens a
// problem is bound by the tensor cores and streams; with a last wave of fewer than half the
// clusters (148 cluster tiles: 16 in the last) it streams too.
TEST(GemmPlan, ProblemsBoundByHbmAreNotStreamed) {
  EXPECT_TRUE(bound_by_hbm(28672, 64, 2));
  EXPECT_TRUE(bound_by_hbm(64, 28672, 2));
  EXPECT_FALSE(bound_by_hbm(28672, 512, 2));
  EXPECT_FALSE(bound_by_hbm(28672, 64, 1));  // FP8: twice the flops per byte
  const auto streams = [](int64_t tiles_m, bool hbm) {
    return wgmma_schedule(
               {.tiles_m = tiles_m, .tiles_n = 1, .k_tiles = 64, .clusters = 66, .hbm_bound = hbm})
        .streams();
  };
  EXPECT_TRUE(streams(224, false));
  EXPECT_FALSE(streams(224, true));
  EXPECT_TRUE(streams(296, true));
  // The plan: whole cluster tiles at 64 tokens (bf16, W row-major as torch holds it).
  TableDevice h100 = device_named("h100_sxm");
  GemmCall c = call_of(TESSERA_BF16, 'T', 'N', 28672, 64, 4096, 4096, 4096, 28672);
  const GemmPlan plan = make_gemm_plan(c, h100);
  EXPECT_EQ(plan.schedule, Schedule::kWholeTiles) << describe(plan);
  // At 512 tokens bound by the tensor cores: Llama-3 70B's QKV, 160 cluster tiles, streams.
  c = call_of(TESSERA_BF16, 'T', 'N', 10240, 512, 8192, 8192, 8192, 10240);
  EXPECT_EQ(make_gemm_plan(c, h100).schedule, Schedule::kStreamK)
      << describe(make_gemm_plan(c, h100));
}

}  // namespace
