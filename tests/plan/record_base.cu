// tests/plan/record_base.cu -- records the GEMM plan's choices for tests/data/gemm_plans.tsv from
// the library's plan code as it was before the plan module (gemm_abi.cu's make_plan), with the
// GPU's resident CTAs and clusters given as a device description instead of queried.
//
// Built by hand against that code (gemm_abi.cu, gemm/06_skinny.cu, gemm/scratch.cu) with the
// launchers replaced by the stubs below; see tests/data/gemm_plans.md for the command.
#include <array>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include <tessera/gemm.h>

#include "../../kernels/gemm/common.cuh"

namespace {
struct Device {
  const char* name;
  int clusters;               // kernel 05's resident clusters (every tile: one CTA an SM)
  int ctas128, ctas64, ctas32;  // kernel 03's resident CTAs per tile width
};
Device g_device{};
}  // namespace

namespace tessera::ladder {
#define STUB_LAUNCH(name) \
  cudaError_t name(GemmArgs const&, cudaStream_t) { return cudaErrorNotSupported; }
#define STUB_LAUNCH_C(name) \
  cudaError_t name(GemmArgsC const&, cudaStream_t) { return cudaErrorNotSupported; }
#define STUB_CLUSTERS(name) \
  int name() { return g_device.clusters; }
STUB_LAUNCH(launch_01) STUB_LAUNCH(launch_02) STUB_LAUNCH(launch_03)
STUB_LAUNCH(launch_04_f16) STUB_LAUNCH(launch_04_bf16) STUB_LAUNCH(launch_04_tf32)
STUB_LAUNCH(launch_06_f16) STUB_LAUNCH(launch_06_bf16)
STUB_LAUNCH_C(launch_05_f16_n256) STUB_LAUNCH_C(launch_05_f16_n128) STUB_LAUNCH_C(launch_05_f16_n64)
STUB_LAUNCH_C(launch_05_bf16_n256) STUB_LAUNCH_C(launch_05_bf16_n128)
STUB_LAUNCH_C(launch_05_bf16_n64) STUB_LAUNCH_C(launch_05_tf32_n256)
STUB_LAUNCH_C(launch_05_tf32_n128) STUB_LAUNCH_C(launch_05_tf32_n64)
STUB_LAUNCH_C(launch_05_f16_n64_m64) STUB_LAUNCH_C(launch_05_bf16_n64_m64)
STUB_CLUSTERS(clusters_05_f16_n256) STUB_CLUSTERS(clusters_05_f16_n128)
STUB_CLUSTERS(clusters_05_f16_n64) STUB_CLUSTERS(clusters_05_bf16_n256)
STUB_CLUSTERS(clusters_05_bf16_n128) STUB_CLUSTERS(clusters_05_bf16_n64)
STUB_CLUSTERS(clusters_05_tf32_n256) STUB_CLUSTERS(clusters_05_tf32_n128)
STUB_CLUSTERS(clusters_05_tf32_n64) STUB_CLUSTERS(clusters_05_f16_n64_m64)
STUB_CLUSTERS(clusters_05_bf16_n64_m64)
int ctas_03(int64_t bn) {
  return bn == 64 ? g_device.ctas64 : bn == 32 ? g_device.ctas32 : g_device.ctas128;
}
}  // namespace tessera::ladder

namespace {

struct Case {
  int dtype;
  char ta, tb;
  int64_t m, n, k, lda, ldb, ldc;
  uint64_t a, b, c;  // fake addresses: only their alignment matters to the plan
  float alpha, beta;
  std::string kernel;  // "-": the built-in choice
};

const char* kDtypes[] = {"F32", "TF32", "F16", "BF16"};

// Leading dimensions of packed operands plus `pad` elements.
Case make(int dtype, char ta, char tb, int64_t m, int64_t n, int64_t k, int64_t pad = 0) {
  auto mx = [](int64_t x) { return x < 1 ? int64_t(1) : x; };
  const bool ra = ta != 'N', rb = tb != 'N';
  return {dtype, ta, tb, m, n, k, mx(ra ? k : m) + pad, mx(rb ? n : k) + pad, mx(m) + pad,
          0x10000, 0x20000, 0x30000, 1.0f, 0.0f, "-"};
}

std::vector<Case> cases() {
  std::vector<Case> out;
  const char* ops[] = {"NN", "TN", "NT", "TT"};
  // The shape suite (bench/gemm_shapes.sh), every dtype and op.
  std::vector<std::array<int64_t, 3>> suite = {
      {1024, 1024, 1024}, {2048, 2048, 2048}, {4096, 4096, 4096}, {8192, 8192, 8192},
      {16384, 16384, 16384}, {5120, 5120, 4096}, {6144, 6144, 6144}, {3072, 3072, 8192},
      {4096, 14336, 4096}, {14336, 4096, 4096}, {1024, 1024, 16384}, {4095, 4097, 511},
      {1000, 1000, 1000}, {777, 1333, 999}};
  for (int64_t s : {1, 8, 16, 32, 64, 128, 256}) {
    suite.push_back({s, 4096, 4096}), suite.push_back({4096, s, 4096});
    suite.push_back({s, 8192, 8192}), suite.push_back({8192, s, 8192});
  }
  for (auto const& s : suite)
    for (int d = 0; d < 4; ++d)
      for (const char* op : ops) out.push_back(make(d, op[0], op[1], s[0], s[1], s[2]));
  // Skinny sweep: every small side near the rules' thresholds, both orientations.
  for (int64_t s : {2, 3, 4, 5, 9, 12, 15, 17, 24, 31, 33, 48, 63, 65, 96, 100, 127, 129, 160,
                    192, 200, 255, 257, 384, 512})
    for (int d = 0; d < 4; ++d)
      for (const char* op : {"NN", "TN"}) {
        out.push_back(make(d, op[0], op[1], s, 4096, 4096));
        out.push_back(make(d, op[0], op[1], 4096, s, 4096));
      }
  // Random problems: sizes log-uniform in [1, 16384], some padded or misaligned operands, beta
  // and alpha varied, some kernels by name, some quick returns and bad arguments.
  std::mt19937_64 rng(20261127);
  auto pick = [&](int64_t n) { return int64_t(rng() % uint64_t(n)); };
  auto size = [&] {
    const double e = double(rng() % 1000000) / 1000000.0 * 14.0;  // 2^0 .. 2^14
    return int64_t(std::exp2(e));
  };
  const char* names[] = {"01_simt_global", "02", "03_simt_pipelined", "04_mma_sync", "05",
                         "05_wgmma_tma", "06_skinny", "06"};
  for (int i = 0; i < 1600; ++i) {
    const char* op = ops[pick(4)];
    Case c = make(int(pick(4)), op[0], op[1], size(), size(), size(), pick(3) == 0 ? pick(9) : 0);
    if (pick(8) == 0) c.a += 2 * (1 + pick(7));
    if (pick(8) == 0) c.b += 2 * (1 + pick(7));
    if (pick(8) == 0) c.c += 2 * (1 + pick(7));
    const int64_t b = pick(6);
    c.beta = b == 0 ? 1.0f : b == 1 ? 0.5f : 0.0f;
    if (pick(50) == 0) c.alpha = 0.0f;
    if (pick(6) == 0) c.kernel = names[pick(8)];
    if (pick(60) == 0) (pick(2) ? c.m : c.n) = 0;
    if (pick(60) == 0) c.k = 0;
    if (pick(80) == 0) c.lda -= 1;  // may be invalid
    out.push_back(c);
  }
  // The limits: K of 2^31 (beyond TMA), a GEMV grid past one launch, tiny problems.
  const int64_t big = int64_t(1) << 31;
  for (int d = 1; d < 4; ++d) {
    out.push_back(make(d, 'T', 'N', 64, 64, big));
    Case c = make(d, 'T', 'N', 64, 64, big);
    c.kernel = "05";
    out.push_back(c);
  }
  for (int d = 0; d < 4; ++d)
    for (int64_t m : {1, 2, 7})
      for (int64_t n : {1, 3, 8})
        for (int64_t k : {1, 5, 16}) out.push_back(make(d, 'N', 'N', m, n, k));
  return out;
}

void record(Case const& c) {
  char text[2048] = "";
  const char* kernel = c.kernel == "-" ? nullptr : c.kernel.c_str();
  const auto* a = reinterpret_cast<const void*>(c.a);
  const auto* b = reinterpret_cast<const void*>(c.b);
  const auto* cc = reinterpret_cast<const void*>(c.c);
  const auto dt = tessera_dtype(c.dtype);
  const int status = tessera_gemm_plan(kernel, dt, c.ta, c.tb, c.m, c.n, c.k, c.alpha, a, c.lda, b,
                                       c.ldb, c.beta, cc, c.ldc, text, sizeof text);
  const size_t ws = tessera_gemm_workspace_size(kernel, dt, c.ta, c.tb, c.m, c.n, c.k, a, c.lda, b,
                                                c.ldb);
  std::printf("%s\t%s\t%c%c\t%lld\t%lld\t%lld\t%lld\t%lld\t%lld\t%#llx\t%#llx\t%#llx\t%g\t%g\t%s\t%d\t%zu\t%s\n",
              g_device.name, kDtypes[c.dtype], c.ta, c.tb, (long long)c.m, (long long)c.n,
              (long long)c.k, (long long)c.lda, (long long)c.ldb, (long long)c.ldc,
              (unsigned long long)c.a, (unsigned long long)c.b, (unsigned long long)c.c,
              double(c.alpha), double(c.beta), c.kernel.c_str(), status, ws, text);
}

}  // namespace

int main() {
  // The device descriptions: kernel 05 runs one CTA an SM (its stage ring fills shared memory),
  // clusters of 2; kernel 03 two CTAs an SM on its 128 and 64 wide tiles, three on the 32 wide
  // one (its launch bounds).
  const Device devices[] = {{"h100_sxm", 66, 264, 264, 396},
                            {"h200", 66, 264, 264, 396},
                            {"h100_pcie", 57, 228, 228, 342},
                            {"none", 0, 0, 0, 0}};
  const std::vector<Case> all = cases();
  std::printf("# device\tdtype\top\tm\tn\tk\tlda\tldb\tldc\tA\tB\tC\talpha\tbeta\tkernel\tstatus"
              "\tworkspace\tplan\n");
  for (Device const& d : devices) {
    g_device = d;
    // The H200 (132 SMs, as the H100 SXM) on the shape suite only; no GPU on the first 700.
    const size_t count = !std::strcmp(d.name, "h200") ? 14 * 16 + 28 * 16
                         : !std::strcmp(d.name, "none") ? 700 : all.size();
    for (size_t i = 0; i < count && i < all.size(); ++i) record(all[i]);
  }
}
