// examples/gemm_epilogue_sm80.cu -- D = act(A B^T + bias) in f16 with mma.sync and a fused
// epilogue: A (M,K) and B (N,K) K-major f16, D (M,N) row-major f16, bias (N) f32, act ReLU or
// GELU; any M, N and K (predicated edges; K a multiple of 8 for the 16-byte copies).
//
// The main loop is step 4's (128 x 128 x 32 tiles, 4 warps of m16n8k16, cp.async into swizzled
// shared tiles, ldmatrix into the fragments), one stage: speed is not the point here. The
// epilogue is: the bias as an (M,N) tensor with the static stride 0 along M
// (make_stride(fixed<0>, unit)), partitioned like C: of a thread's 128 accumulators, 8 rows x 16
// columns, the copy reads the bias 16 times (its PTX is checked); then the activation, and the
// fragment stored as half2 pairs (its values come in pairs along N, D's unit stride).
#include <cuda_fp16.h>

#include <tessera/device_tensor.hpp>

#include "common.cuh"

using namespace tessera;

struct Relu {
  TESSERA_HD float operator()(float x) const { return x > 0.0f ? x : 0.0f; }
};
struct Gelu {  // the sigmoid form x * sigmoid(1.702 x)
  // NOTE: the tanh form's tanhf, over 128 accumulators, took the kernel past 255 registers.
  TESSERA_HD float operator()(float x) const { return x / (1.0f + expf(-1.702f * x)); }
};

struct EpilogueCfg {
  using MmaOp = atom::SM80_16x8x16_F32F16F16F32_TN;
  static constexpr TiledMMA kMma = presets::step4();  // 2 x 2 warps, tile (32,32,16)
  static constexpr int kThreads = 128;
  static constexpr Coord<3> kCta = {{128, 128, 32}};  // (BM,BN,BK)
  // A shared (rows, BK) tile, K-major, swizzled (Sw<2,3,3>: ldmatrix rows in 4 chunks of 16 B).
  static constexpr SwizzledLayout kSmem =
      composition(Swizzle(2, 3, 3), parse_layout("(128,32):(32,1)"));
  struct G2S {  // cp.async of 16 bytes: 32 x 4 threads, 8 values along K each
    static constexpr TiledCopy kCopy = make_tiled_copy_tv(
        atom::cp_async(16, 16), parse_layout("(32,4):(4,1)"), parse_layout("(1,8):(0,1)"));
  };
  // shared -> registers: ldmatrix x4 over the TiledMMA's own partition of its (32,16) tile.
  template <Operand kOp>
  struct S2R {
    static constexpr TiledMMA kMma = EpilogueCfg::kMma;  // fills kMma's kOp registers (retile_D
    static constexpr Operand kOperand = kOp;               // checks the fragment against them)
    static constexpr Layout kTile = Layout(make_tuple(32, 16));
    static constexpr TiledCopy kCopy = TiledCopy{
        atom::ldmatrix(4, false),
        make_layout(kMma.partitioner(kOp, kTile).thread, kMma.thrfrg(kOp, kTile)[1]), kTile.shape};
  };
};

template <class Cfg, class Act>
__global__ void __launch_bounds__(Cfg::kThreads)
    gemm_epilogue_kernel(half const* a, half const* b, float const* bias, half* d, int64_t m,
                         int64_t n, int64_t k, int64_t lda, int64_t ldb, int64_t ldd) {
  static constexpr Coord<3> kCta = Cfg::kCta;
  auto mA = make_tensor(a, make_shape(m, k), make_stride(lda, unit));             // (M,K)
  auto mB = make_tensor(b, make_shape(n, k), make_stride(ldb, unit));             // (N,K)
  auto mD = make_tensor(d, make_shape(m, n), make_stride(ldd, unit));             // (M,N)
  auto mBias = make_tensor(bias, make_shape(m, n), make_stride(fixed<0>, unit));  // (M,N): bias(n)
  auto cA = make_identity_tensor(mA.shape), cB = make_identity_tensor(mB.shape),
       cD = make_identity_tensor(mD.shape);
  const int64_t bm = blockIdx.x, bn = blockIdx.y;
  auto gA = local_tile<kCta, Proj{1, 0, 1}>(mA, bm, bn, _);  // (BM,BK) at k-tile 0
  auto gB = local_tile<kCta, Proj{0, 1, 1}>(mB, bm, bn, _);  // (BN,BK)

  __shared__ alignas(128) half smem[2 * 128 * 32];
  auto sA = make_tensor<Cfg::kSmem>(smem);             // (BM,BK)
  auto sB = make_tensor<Cfg::kSmem>(smem + 128 * 32);  // (BN,BK)

  // global -> shared: cp.async, zero-filled outside the matrices.
  const ThrCopy<typename Cfg::G2S> g2s{threadIdx.x};
  auto tAgA = g2s.partition_S(gA);  // (CPY,CPY_M,CPY_K)
  auto tAcA = g2s.partition_S(local_tile<kCta, Proj{1, 0, 1}>(cA, bm, bn, _));
  auto tAsA = g2s.partition_D(sA);
  auto tBgB = g2s.partition_S(gB);  // (CPY,CPY_N,CPY_K)
  auto tBcB = g2s.partition_S(local_tile<kCta, Proj{0, 1, 1}>(cB, bm, bn, _));
  auto tBsB = g2s.partition_D(sB);

  // The MMA's registers, and ldmatrix straight into them.
  const ThrMMA<Cfg> thr_mma{threadIdx.x};
  auto tCrA = thr_mma.partition_fragment_A(sA);  // (V,M,K)
  auto tCrB = thr_mma.partition_fragment_B(sB);  // (V,N,K)
  auto tCrC =
      thr_mma.partition_fragment_C(local_tile<kCta, Proj{1, 1, 0}>(mD, bm, bn, _));  // (V,M,N) f32
  clear(tCrC);
  const ThrCopy<typename Cfg::template S2R<Operand::kA>> s2r_a{threadIdx.x};
  const ThrCopy<typename Cfg::template S2R<Operand::kB>> s2r_b{threadIdx.x};
  auto tXsA = s2r_a.partition_S(sA);  // (CPY,CPY_M,CPY_K)
  auto tXrA = s2r_a.retile_D(tCrA);
  auto tXsB = s2r_b.partition_S(sB);  // (CPY,CPY_N,CPY_K)
  auto tXrB = s2r_b.retile_D(tCrB);

  constexpr int kBlocks = int(kCta[2] / Cfg::kMma.tile_size(2));  // k-blocks per k-tile
  for (int64_t kt = 0; kt < (k + kCta[2] - 1) / kCta[2]; ++kt) {
    copy_if(g2s, tAcA.at(kt), tAgA.at(kt), tAsA);
    copy_if(g2s, tBcB.at(kt), tBgB.at(kt), tBsB);
    ptx::cp_async_commit();
    ptx::cp_async_wait<0>();
    __syncthreads();
#pragma unroll
    for (int kb = 0; kb < kBlocks; ++kb) {
      copy(s2r_a, tXsA(_, _, kb), tXrA(_, _, kb));
      copy(s2r_b, tXsB(_, _, kb), tXrB(_, _, kb));
      gemm(thr_mma, tCrA(_, _, kb), tCrB(_, _, kb), tCrC);
    }
    __syncthreads();
  }

  // The epilogue: bias (16 distinct values per thread), activation, half2 stores.
  auto tCgD = thr_mma.partition_C(local_tile<kCta, Proj{1, 1, 0}>(mD, bm, bn, _));  // (V,M,N)
  auto tCcD = thr_mma.partition_C(local_tile<kCta, Proj{1, 1, 0}>(cD, bm, bn, _));
  auto tCgBias = thr_mma.partition_C(local_tile<kCta, Proj{1, 1, 0}>(mBias, bm, bn, _));
  auto tCrBias = make_fragment_like<float>(tCgBias);
  copy_if(tCcD, tCgBias, tCrBias);
  auto tCrD = make_fragment_like<half>(tCgD);
#pragma unroll
  for (int i = 0; i < tCrD.size(); ++i) tCrD(i) = __float2half_rn(Act{}(tCrC(i) + tCrBias(i)));
  copy_if(tCcD, tCrD, tCgD);
}

template <class Act>
static void gemm_epilogue(half const* a, half const* b, float const* bias, half* d, int64_t m,
                          int64_t n, int64_t k, int64_t lda, int64_t ldb, int64_t ldd) {
  const dim3 grid(unsigned((m + 127) / 128), unsigned((n + 127) / 128));
  gemm_epilogue_kernel<EpilogueCfg, Act>
      <<<grid, EpilogueCfg::kThreads>>>(a, b, bias, d, m, n, k, lda, ldb, ldd);
}

// One problem in guarded buffers (column-major storage of the transposed views: A (M,K) K-major
// is a K x M column-major block), D poisoned with NaN, against a float64 reference.
template <class Act>
static bool check(const char* act, int64_t m, int64_t n, int64_t k) {
  const int64_t lda = k + 8, ldb = k + 16, ldd = n + 6;
  ex::Guarded<half> A(k, m, lda), B(k, n, ldb), D(n, m, ldd);
  ex::Guarded<float> Bias(n, 1, n);
  uint64_t seed = uint64_t(m * 31 + n * 7 + k);
  std::vector<half> a(size_t(m * k)), b(size_t(n * k));
  std::vector<float> bias(static_cast<size_t>(n));
  for (half& x : a) x = __float2half(ex::uniform(seed));
  for (half& x : b) x = __float2half(ex::uniform(seed));
  for (float& x : bias) x = ex::uniform(seed);
  A.upload(a), B.upload(b), Bias.upload(bias);
  D.poison();
  gemm_epilogue<Act>(A.data, B.data, Bias.data, D.data, m, n, k, lda, ldb, ldd);
  EX_CHECK(cudaGetLastError());
  EX_CHECK(cudaDeviceSynchronize());
  const std::vector<half> d = D.download();
  double worst = 0.0;
  for (int64_t i = 0; i < m; ++i)
    for (int64_t j = 0; j < n; ++j) {
      double acc = bias[size_t(j)];
      for (int64_t p = 0; p < k; ++p)
        acc +=
            double(__half2float(a[size_t(p + i * k)])) * double(__half2float(b[size_t(p + j * k)]));
      const double want = Act{}(float(acc)), got = __half2float(d[size_t(j + i * n)]);
      const double err = std::isnan(got) ? 1e30 : std::fabs(got - want) / (1.0 + std::fabs(want));
      worst = err > worst ? err : worst;
    }
  const int64_t guards =
      A.broken_guards() + B.broken_guards() + D.broken_guards() + Bias.broken_guards();
  const bool ok = worst < 4e-3 && guards == 0;  // f16 output: 2^-11 relative, plus f32 sums
  std::printf("gemm_epilogue %s %lld x %lld x %lld: max error %.2e, %lld guard bytes changed: %s\n",
              act, (long long)m, (long long)n, (long long)k, worst, (long long)guards,
              ok ? "ok" : "FAILED");
  return ok;
}

int main() {
  bool ok = true;
  const int64_t sizes[][3] = {{1, 1, 8},      {17, 33, 40},    {128, 128, 32},
                              {129, 250, 72}, {300, 129, 256}, {512, 384, 520}};
  for (auto const& s : sizes) {
    ok = check<Relu>("relu", s[0], s[1], s[2]) && ok;
    ok = check<Gelu>("gelu", s[0], s[1], s[2]) && ok;
  }
  std::printf("gemm_epilogue_sm80: %s\n", ok ? "PASSED" : "FAILED");
  return ok ? 0 : 1;
}
