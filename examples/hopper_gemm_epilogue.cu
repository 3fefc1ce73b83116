// examples/hopper_gemm_epilogue.cu -- a Hopper (sm_90a) bf16 GEMM with a fused bias + GELU
// epilogue, D = gelu(A B^T + bias) (A (M,K) and B (N,K) K-major, D (M,N) row-major, bias (N)),
// written with tessera's Hopper pieces (docs/writing-a-hopper-kernel.md walks through it):
//   - 128 x 256 x 64 tiles in 4 stages of TMA loads into 128-byte swizzled shared tiles
//     (StagedTile: the layout once, the wgmma descriptors and TMA boxes read off it);
//   - one producer warpgroup (one elected thread issues the loads) and two consumer warpgroups
//     of wgmma m64n256k16 (WarpgroupMMA: each takes its 64 rows of A);
//   - clusters of 2 CTAs along M sharing their B tile (each loads half and multicasts it);
//   - a persistent grid walking the C tiles in grouped order (PersistentTileScheduler): the
//     producer loads the next tile while the consumers store this one;
//   - the epilogue applies gelu(x + bias[col]) to each accumulator, writes bf16 64 x 64 chunks
//     into swizzled staging tiles (stmatrix) and stores them by TMA (SmemEpilogue): the stores
//     of one tile drain while the next tile's mainloop runs. D whose rows are not 16-byte
//     multiples (n % 8 != 0) takes the register epilogue instead (epilogue_store).
// Checked against a float64 CPU reference (odd sizes, guarded buffers, NaN-poisoned D) and
// timed against cuBLAS's GEMM followed by a separate bias + GELU kernel.
#include <cublas_v2.h>
#include <cuda.h>
#include <cuda_bf16.h>

#include <algorithm>
#include <tessera/algorithm/sm90_epilogue.hpp>
#include <tessera/sm90_mainloop.hpp>
#include <tessera/tile_scheduler.hpp>
#include <tessera/warpgroup.hpp>

#include "common.cuh"

using namespace tessera;
using bf16 = __nv_bfloat16;

// ---- the kernel ---------------------------------------------------------------------------------
struct Cfg {
  using T = bf16;
  static constexpr int64_t kBM = 128, kBN = 256, kBK = 64;  // C tile; K tile: one 128-byte row
  static constexpr int kStages = 4, kConsumers = 2, kCluster = 2, kThreads = 128 * (1 + kConsumers);
  static constexpr int64_t kGroupM = 8;  // cluster tile-rows per L2 group
  // wgmma m64n256k16 (bf16 in, f32 accumulators), two warpgroups along M.
  static constexpr TiledMMA kMma =
      make_tiled_mma(atom::sm90_64xNx16(kBN, false), parse_layout("(2,1,1):(1,0,0)"));
  // Stage tiles: K-major, 128-byte swizzle; A in 64-row wgmma blocks (one per consumer), B in
  // one 256-row block loaded by both CTAs of the cluster (multicast).
  static constexpr StagedTile kA = make_staged_tile(16, kBM, kBK, true, 64, kStages);
  static constexpr StagedTile kB = make_staged_tile(16, kBN, kBK, true, kBN, kStages, kCluster);
  // Epilogue staging: per consumer, 2 buffers of a 64 x 64 chunk of D, row-major, 128-byte
  // swizzled (one TMA box each).
  static constexpr SwizzledLayout kStageD = gmma_smem_tile(GmmaSwizzle::kB128, true, 16, 64, 64);
  static constexpr int kStageBuffers = 2;
  using Pipeline = StagePipeline<kStages, kConsumers, kCluster>;
  struct SharedStorage {
    SmemStages<T, kA> a;
    SmemStages<T, kB> b;
    alignas(1024) uint8_t d[kConsumers][staging_bytes(kStageD, kStageBuffers)];
    PipelineStorage<kStages> pipe;
  };
};
using Epilogue = SmemEpilogue<Cfg, bf16, Cfg::kStageD, Cfg::kStageBuffers>;  // (for the host)

struct Params {
  int64_t m, n, k;
  bf16* d;  // (m, n), row stride ldd
  int64_t ldd;
  const float* bias;              // (n)
  bool tma_store;                 // D by TMA (n % 8 == 0, 16-byte aligned rows), else registers
  PersistentTileScheduler sched;  // cluster tiles (kCluster C tiles along M) in grouped order
};

// GELU, tanh form: 0.5 x (1 + tanh(sqrt(2/pi) (x + 0.044715 x^3))), tanh(u) = 1 - 2 / (e^2u + 1)
// (within 1e-3 of the erf form; branch-free, so that the unrolled epilogue stays short).
__device__ __forceinline__ float gelu(float x) {
  const float u = 0.7978845608f * (x + 0.044715f * x * x * x);
  return 0.5f * x * (2.0f - __fdividef(2.0f, __expf(2.0f * u) + 1.0f));
}

template <class C>
__global__ void __launch_bounds__(C::kThreads, 1)
    gemm_bias_gelu(const __grid_constant__ CUtensorMap map_a,
                   const __grid_constant__ CUtensorMap map_b,
                   const __grid_constant__ CUtensorMap map_d, Params p) {
  extern __shared__ uint8_t smem_raw[];
  auto& smem = shared_storage<typename C::SharedStorage>(smem_raw);
  const typename C::Pipeline pipe{smem.pipe.full, smem.pipe.empty};
  if (threadIdx.x == 0) {
    prefetch_tma_map(&map_a);
    prefetch_tma_map(&map_b);
    prefetch_tma_map(&map_d);
    pipe.init();
  }
  cluster_sync_after_init();  // every CTA's barriers are initialized before any multicast

  const auto mA = make_tma_tensor<C::kA.tma>(&map_a, p.m, p.k);  // (M,K) as TMA coordinates
  const auto mB = make_tma_tensor<C::kB.tma>(&map_b, p.n, p.k);  // (N,K)
  const int64_t k_tiles = (p.k + C::kBK - 1) / C::kBK;
  const int rank = cluster_rank();
  const int64_t cluster = blockIdx.x / C::kCluster;
  PipelineState<C::kStages> state;

  if (canonical_warp_group_idx() == 0) {
    // Producer: one thread fills the ring for every tile of this cluster.
    producer_role<56>();
    if (canonical_warp_idx_in_group() == 0 && elect_one_sync()) {
      for (int32_t b = p.sched.first(cluster); p.sched.valid(b); b = p.sched.next(b)) {
        const auto tile = p.sched.tile(b);
        const int64_t tm = int64_t(tile.m) * C::kCluster + rank;
        const auto gA = local_tile<C::kBM, C::kBK>(mA, tm);      // (BM,BK,k)
        const auto gB = local_tile<C::kBN, C::kBK>(mB, tile.n);  // (BN,BK,k)
        mainloop_load(pipe, state, gA, smem.a, gB, smem.b, 0, k_tiles, rank);
      }
      pipe.producer_tail(state);  // every stage released by the whole cluster: safe to exit
    }
  } else {
    // Consumers: warpgroup c computes rows [64c, 64c + 64) of each tile, then its epilogue.
    consumer_role<224>();
    using Epi = SmemEpilogue<C, bf16, C::kStageD, C::kStageBuffers>;  // 2 buffers of (64, 64)
    const int wg = canonical_warp_group_idx() - 1;
    const WarpgroupMMA<C> mma{wg};
    auto acc = mma.partition_fragment_C();  // ((2,2,32),1,1) floats: wgmma's D registers
    const MatrixRef<bf16> d{p.d, p.m, p.n, p.ldd, 1};
    const auto f = [&](float x, int64_t, int64_t col) { return gelu(x + __ldg(p.bias + col)); };
    for (int32_t b = p.sched.first(cluster); p.sched.valid(b); b = p.sched.next(b)) {
      const auto tile = p.sched.tile(b);
      const int64_t tm = int64_t(tile.m) * C::kCluster + rank;  // may be past M: stores clipped
      mainloop_mma(mma, pipe, state, smem.a, smem.b, acc, k_tiles);
      if (p.tma_store)  // stmatrix into smem.d[wg], TMA stores left in flight
        Epi::store(acc, smem.d[wg], TmaStore<Epi::kTma>{&map_d}, tm * C::kBM, tile.n * C::kBN,
                   wg, f);
      else
        epilogue_store<C>(acc, int(threadIdx.x) - 128, d, tm * C::kBM, tile.n * C::kBN, f);
    }
    Epi::drain();  // the last stores have read smem.d before the CTA exits
  }
}

// The reference path's separate epilogue: d = gelu(d + bias[col]), two elements per thread.
__global__ void bias_gelu(bf16* d, const float* bias, int64_t m, int64_t n, int64_t ldd) {
  const int64_t i = (int64_t(blockIdx.x) * blockDim.x + threadIdx.x) * 2, r = i / n, c = i % n;
  if (r >= m) return;
  __nv_bfloat162* p = reinterpret_cast<__nv_bfloat162*>(d + r * ldd + c);
  const float2 v = __bfloat1622float2(*p);
  *p = __floats2bfloat162_rn(gelu(v.x + bias[c]), gelu(v.y + bias[c + 1]));
}

// ---- the host ---------------------------------------------------------------------------------
// A (rows, cols) row-major (K-major) matrix with row stride ld, as a tensor map for the boxes
// of a shared tile (a stage tile of A or B, or D's staging tile).
static CUtensorMap make_map(TmaTile const& t, const bf16* ptr, int64_t rows, int64_t cols,
                            int64_t ld) {
  CUtensorMap map;
  const TmaArgs args =
      make_tma_args(t, TmaDataType::kBFloat16, reinterpret_cast<uint64_t>(ptr),
                    Coord<2>{{rows, cols}}, Coord<2>{{ld, 1}}, TmaL2Promotion::k256B);
  if (!tma_encode(&map, args))
    std::fprintf(stderr, "cuTensorMapEncodeTiled failed\n"), std::exit(2);
  return map;
}

// The launch of one problem: tensor maps, the persistent grid of clusters, the tile walk.
struct Launch {
  CUtensorMap map_a, map_b, map_d;
  Params p;
  cudaLaunchAttribute attr;
  cudaLaunchConfig_t cfg = {};
  Launch(const bf16* a, int64_t lda, const bf16* b, int64_t ldb, Params params) : p(params) {
    constexpr int64_t kSmem = kSharedStorageBytes<Cfg::SharedStorage>;
    map_a = make_map(Cfg::kA.tma, a, p.m, p.k, lda);
    map_b = make_map(Cfg::kB.tma, b, p.n, p.k, ldb);
    // TMA stores clip D's rows in 16-byte units: n % 8 == 0, else the register epilogue
    p.tma_store = p.n % 8 == 0 && p.ldd % 8 == 0 && reinterpret_cast<uintptr_t>(p.d) % 16 == 0;
    map_d = p.tma_store ? make_map(Epilogue::kTma, p.d, p.m, p.n, p.ldd) : map_a;
    attr.id = cudaLaunchAttributeClusterDimension;
    attr.val.clusterDim.x = Cfg::kCluster, attr.val.clusterDim.y = 1, attr.val.clusterDim.z = 1;
    cfg.gridDim = dim3(Cfg::kCluster), cfg.blockDim = dim3(Cfg::kThreads);
    cfg.dynamicSmemBytes = size_t(kSmem), cfg.attrs = &attr, cfg.numAttrs = 1;
    static int clusters = 0;  // the persistent grid: as many clusters as are resident at once
    if (clusters == 0) {
      EX_CHECK(cudaFuncSetAttribute(gemm_bias_gelu<Cfg>,
                                    cudaFuncAttributeMaxDynamicSharedMemorySize, int(kSmem)));
      EX_CHECK(cudaOccupancyMaxActiveClusters(&clusters, gemm_bias_gelu<Cfg>, &cfg));
    }
    const int64_t tiles_m = (p.m + Cfg::kBM - 1) / Cfg::kBM,
                  tiles_n = (p.n + Cfg::kBN - 1) / Cfg::kBN;
    const int64_t cluster_rows = (tiles_m + Cfg::kCluster - 1) / Cfg::kCluster;
    const int64_t grid = std::min<int64_t>(clusters, cluster_rows * tiles_n);
    p.sched = make_persistent_scheduler(cluster_rows, tiles_n, Cfg::kGroupM, grid);
    cfg.gridDim = dim3(unsigned(grid * Cfg::kCluster));
  }
  void operator()() {
    EX_CHECK(cudaLaunchKernelEx(&cfg, gemm_bias_gelu<Cfg>, map_a, map_b, map_d, p));
  }
};

static void reference(cublasHandle_t h, const bf16* a, int64_t lda, const bf16* b, int64_t ldb,
                      Params const& p) {
  // D^T (N,M) column-major = B (N,K) . A^T: D row-major (M,N).
  const float one = 1.0f, zero = 0.0f;
  if (cublasGemmEx(h, CUBLAS_OP_T, CUBLAS_OP_N, int(p.n), int(p.m), int(p.k), &one, b, CUDA_R_16BF,
                   int(ldb), a, CUDA_R_16BF, int(lda), &zero, p.d, CUDA_R_16BF, int(p.ldd),
                   CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT) != CUBLAS_STATUS_SUCCESS)
    std::fprintf(stderr, "cublasGemmEx failed\n"), std::exit(2);
  const int64_t pairs = p.m * p.n / 2;
  bias_gelu<<<unsigned((pairs + 255) / 256), 256>>>(p.d, p.bias, p.m, p.n, p.ldd);
}

static std::vector<bf16> random_bf16(size_t n, uint64_t seed) {
  std::vector<bf16> v(n);
  for (auto& x : v) x = __float2bfloat16(ex::uniform(seed));
  return v;
}

// Correctness: every element of D against float64 (all of it for small problems, a sample of
// rows otherwise), guards intact, NaN poison overwritten.
static bool check(int64_t m, int64_t n, int64_t k) {
  const int64_t lda = (k + 7) / 8 * 8 + 8, ldb = lda, ldd = (n + 7) / 8 * 8 + 8;
  ex::Guarded<bf16> A(k, m, lda), B(k, n, ldb),
      D(n, m, ldd);  // column-major (K, M) = A (M,K) K-major
  ex::Guarded<float> Bias(n, 1, n);
  const auto ha = random_bf16(size_t(m * k), 1), hb = random_bf16(size_t(n * k), 2);
  std::vector<float> hbias(static_cast<size_t>(n));
  uint64_t s = 3;
  for (auto& x : hbias) x = ex::uniform(s);
  A.upload(ha), B.upload(hb), Bias.upload(hbias), D.poison();
  Launch launch(A.data, lda, B.data, ldb, Params{m, n, k, D.data, ldd, Bias.data, false, {}});
  launch();
  EX_CHECK(cudaDeviceSynchronize());
  const auto hd = D.download();
  double worst = 0;
  const int64_t step = m * n > (1 << 20) ? 97 : 1;
  for (int64_t r = 0; r < m; r += step)
    for (int64_t c = 0; c < n; ++c) {
      double acc = hbias[size_t(c)];
      for (int64_t i = 0; i < k; ++i)
        acc += double(__bfloat162float(ha[size_t(r * k + i)])) *
               double(__bfloat162float(hb[size_t(c * k + i)]));
      const double want = 0.5 * acc * (1.0 + std::erf(acc / std::sqrt(2.0)));
      const double got = __bfloat162float(hd[size_t(r * n + c)]);
      const double err = std::isnan(got) ? 1e30 : std::fabs(got - want) / (1.0 + std::fabs(want));
      worst = std::max(worst, err);
    }
  const int64_t guards =
      A.broken_guards() + B.broken_guards() + D.broken_guards() + Bias.broken_guards();
  const bool ok = worst < 1e-2 && guards == 0;  // bf16 output: 2^-8 relative
  std::printf(
      "hopper_gemm_epilogue %lld x %lld x %lld (%s stores): max error %.2e, %lld guard bytes "
      "changed: %s\n",
      (long long)m, (long long)n, (long long)k, launch.p.tma_store ? "TMA" : "register", worst,
      (long long)guards, ok ? "ok" : "FAILED");
  return ok;
}

// Speed: TFLOP/s of the fused kernel and of cuBLAS + the separate epilogue, same data and run.
static void bench(cublasHandle_t h, int64_t size) {
  const int64_t m = size, n = size, k = size;
  bf16 *a, *b, *d;
  float* bias;
  EX_CHECK(cudaMalloc(&a, size_t(m * k) * 2));
  EX_CHECK(cudaMalloc(&b, size_t(n * k) * 2));
  EX_CHECK(cudaMalloc(&d, size_t(m * n) * 2));
  EX_CHECK(cudaMalloc(&bias, size_t(n) * 4));
  const auto ha = random_bf16(size_t(m * k), 5), hb = random_bf16(size_t(n * k), 6);
  EX_CHECK(cudaMemcpy(a, ha.data(), ha.size() * 2, cudaMemcpyHostToDevice));
  EX_CHECK(cudaMemcpy(b, hb.data(), hb.size() * 2, cudaMemcpyHostToDevice));
  ex::fill_random(bias, size_t(n), 8);
  const Params p{m, n, k, d, n, bias, false, {}};
  Launch fused(a, k, b, k, p);
  const float ours = ex::time_ms([&] { fused(); });
  const float theirs = ex::time_ms([&] { reference(h, a, k, b, k, p); });
  const float gemm_only = ex::time_ms([&] {
    const float one = 1.0f, zero = 0.0f;
    cublasGemmEx(h, CUBLAS_OP_T, CUBLAS_OP_N, int(n), int(m), int(k), &one, b, CUDA_R_16BF, int(k),
                 a, CUDA_R_16BF, int(k), &zero, d, CUDA_R_16BF, int(n), CUBLAS_COMPUTE_32F,
                 CUBLAS_GEMM_DEFAULT);
  });
  const double flop = 2.0 * double(m) * double(n) * double(k);
  std::printf("| %lld^3 | %.0f | %.0f | %.3f | %.0f | %.3f |\n", (long long)size, flop / ours / 1e9,
              flop / theirs / 1e9, theirs / ours, flop / gemm_only / 1e9, gemm_only / ours);
  cudaFree(a), cudaFree(b), cudaFree(d), cudaFree(bias);
}

int main(int argc, char** argv) {
  bool ok = true;
  const int64_t sizes[][3] = {{1, 2, 8},        {17, 34, 40},     {128, 256, 64},    {129, 250, 72},
                              {333, 517, 1000}, {333, 520, 1000}, {1024, 768, 520},
                              {2048, 2048, 2048}};
  for (auto const& s : sizes) ok = check(s[0], s[1], s[2]) && ok;
  if (!(argc > 1 && std::strcmp(argv[1], "--no-bench") == 0)) {
    cublasHandle_t h;
    cublasCreate(&h);
    std::printf(
        "\n| size | fused TFLOP/s | cuBLAS + epilogue TFLOP/s | ratio | cuBLAS GEMM alone TFLOP/s "
        "| ratio |\n");
    std::printf("|---|---|---|---|---|---|\n");
    for (int64_t size : {4096, 8192}) bench(h, size);
    cublasDestroy(h);
  }
  std::printf("hopper_gemm_epilogue: %s\n", ok ? "PASSED" : "FAILED");
  return ok ? 0 : 1;
}
