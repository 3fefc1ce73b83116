// bench/twins_bench.cu -- twins-bench: kernels 01-04 as written in the vocabulary against their
// hand-indexed twins (tests/cuda/twins/*_hand.cu), in one process, on the same data.
//
// The speed side of "the vocabulary costs nothing" (the instruction side is
// tests/cuda/check_twins.py in CI and tests/cuda/sass_twins.py on the GPU). Both kernels of a pair
// are compiled into this program (the twins' launchers renamed *_hand by CMake); for each shape and
// op(A), op(B): 3 warm-ups each, then --reps timed launches alternating vocabulary / twin (CUDA
// events around each launch, medians), and the largest difference of their results relative to the
// largest value. Each pair of launches is queued behind a 0.2 ms busy-wait of the GPU, so that both
// are submitted before the GPU reaches them: the times are the kernels', without the host's launch
// overhead (which otherwise lands on whichever runs first after a synchronisation: 8 us of a 26 us
// 1000^3 f16 call).
// Kernel 03 runs its whole tiles (TESSERA_GEMM_SCHEDULE=tiles: no split-K, which the twin lacks).
//
//   twins-bench [--sizes 4096x4096x4096,...] [--trans NN,TN,NT,TT] [--kernels 02,04] [--reps 30]
//               [--md out.md]          (--kernels: only the kernels whose names start so)
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include "../kernels/gemm/common.cuh"
#include "../tests/device/harness.cuh"

namespace tessera::ladder {
cudaError_t launch_01(GemmArgs const&, cudaStream_t);
cudaError_t launch_02(GemmArgs const&, cudaStream_t);
cudaError_t launch_03(GemmArgs const&, cudaStream_t);
cudaError_t launch_04_f16(GemmArgs const&, cudaStream_t);
cudaError_t launch_04_bf16(GemmArgs const&, cudaStream_t);
cudaError_t launch_04_tf32(GemmArgs const&, cudaStream_t);
cudaError_t launch_01_hand(GemmArgs const&, cudaStream_t);
cudaError_t launch_02_hand(GemmArgs const&, cudaStream_t);
cudaError_t launch_03_hand(GemmArgs const&, cudaStream_t);
cudaError_t launch_04_f16_hand(GemmArgs const&, cudaStream_t);
cudaError_t launch_04_bf16_hand(GemmArgs const&, cudaStream_t);
cudaError_t launch_04_tf32_hand(GemmArgs const&, cudaStream_t);
}  // namespace tessera::ladder

namespace {
using tessera::ladder::GemmArgs;
using tessera::ladder::Launcher;

enum class Type { kF32, kF16, kBF16 };
struct Pair {
  const char* kernel;
  const char* dtype;
  Type type;
  Launcher vocabulary, twin;
};

// Keeps the GPU busy for `ns` nanoseconds (its global timer) while the host queues the launches
// to time.
__device__ uint64_t global_ns() {
  uint64_t t;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
  return t;
}
__global__ void spin(uint64_t ns) {
  const uint64_t t0 = global_ns();
  while (global_ns() - t0 < ns) {
  }
}

template <class T>
__global__ void fill(T* p, int64_t n, uint64_t seed) {
  for (int64_t i = int64_t(blockIdx.x) * blockDim.x + threadIdx.x; i < n;
       i += int64_t(gridDim.x) * blockDim.x) {
    uint64_t x = (uint64_t(i) + 1) * 0x9E3779B97F4A7C15ull ^ seed;
    x ^= x >> 31, x *= 0xBF58476D1CE4E5B9ull, x ^= x >> 29;
    p[i] = T(float(x >> 40) * (2.0f / 16777216.0f) - 1.0f);  // [-1, 1)
  }
}

// C as floats on the host, whatever its type.
std::vector<float> to_host(const void* c, int64_t n, Type t) {
  std::vector<float> out(n);
  if (t == Type::kF32) {
    cudaMemcpy(out.data(), c, n * 4, cudaMemcpyDeviceToHost);
    return out;
  }
  std::vector<uint16_t> raw(n);
  cudaMemcpy(raw.data(), c, n * 2, cudaMemcpyDeviceToHost);
  for (int64_t i = 0; i < n; ++i) {
    const uint32_t bits = t == Type::kBF16 ? uint32_t(raw[i]) << 16 : 0;
    if (t == Type::kBF16) std::memcpy(&out[i], &bits, 4);
    else out[i] = __half2float(__ushort_as_half(raw[i]));
  }
  return out;
}

double median(std::vector<float> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

struct Size { int64_t m, n, k; };

// Random A (m x k) and B (k x n) in the pair's element type.
void fill_operands(Type type, void* a, void* b, Size z) {
  if (type == Type::kF32)
    fill<<<1024, 256>>>(static_cast<float*>(a), z.m * z.k, 1),
        fill<<<1024, 256>>>(static_cast<float*>(b), z.k * z.n, 2);
  else if (type == Type::kF16)
    fill<<<1024, 256>>>(static_cast<__half*>(a), z.m * z.k, 1),
        fill<<<1024, 256>>>(static_cast<__half*>(b), z.k * z.n, 2);
  else
    fill<<<1024, 256>>>(static_cast<__nv_bfloat16*>(a), z.m * z.k, 1),
        fill<<<1024, 256>>>(static_cast<__nv_bfloat16*>(b), z.k * z.n, 2);
}

// The median milliseconds of the vocabulary kernel and of its twin, launched alternately after
// a 0.2 ms spin (so that the host's launch time is hidden), 3 warm-ups first.
std::pair<double, double> time_pair(Pair const& pr, tessera::ladder::GemmArgs const& p, int reps) {
  cudaEvent_t e[4];
  for (auto& x : e) cudaEventCreate(&x);
  std::vector<float> tv, tt;
  for (int r = 0; r < reps + 3; ++r) {
    spin<<<1, 1>>>(200000);  // 0.2 ms
    cudaEventRecord(e[0]);
    pr.vocabulary(p, nullptr);
    cudaEventRecord(e[1]);
    cudaEventRecord(e[2]);
    pr.twin(p, nullptr);
    cudaEventRecord(e[3]);
    cudaEventSynchronize(e[3]);
    float ms_v = 0, ms_t = 0;
    cudaEventElapsedTime(&ms_v, e[0], e[1]);
    cudaEventElapsedTime(&ms_t, e[2], e[3]);
    if (r >= 3) tv.push_back(ms_v), tt.push_back(ms_t);
  }
  for (auto& x : e) cudaEventDestroy(x);
  return {median(tv), median(tt)};
}

// The pair on problem z in operation `op`: max |vocabulary - twin| / max |twin|, then the
// timing; the table's row. Launch errors are counted in `errors`.
std::string run_pair(Pair const& pr, Size z, std::string const& op, void* a, void* b, void* c,
                     int reps, int& errors) {
  using tessera::ladder::GemmArgs;
  const bool ta = op[0] == 'T', tb = op[1] == 'T';
  GemmArgs p;
  p.m = z.m, p.n = z.n, p.k = z.k, p.alpha = 1.0f, p.beta = 0.0f;
  p.a = static_cast<const float*>(a), p.a_sm = ta ? z.k : 1, p.a_sk = ta ? 1 : z.m;
  p.b = static_cast<const float*>(b), p.b_sn = tb ? 1 : z.k, p.b_sk = tb ? z.n : 1;
  p.c = static_cast<float*>(c), p.ldc = z.m;
  // Results: the vocabulary's, then the twin's.
  if (pr.vocabulary(p, nullptr) != cudaSuccess) ++errors;
  const std::vector<float> mine = to_host(c, z.m * z.n, pr.type);
  if (pr.twin(p, nullptr) != cudaSuccess) ++errors;
  const std::vector<float> theirs = to_host(c, z.m * z.n, pr.type);
  double diff = 0, top = 0;
  for (size_t i = 0; i < mine.size(); ++i)
    diff = std::max(diff, double(std::fabs(mine[i] - theirs[i]))),
    top = std::max(top, double(std::fabs(theirs[i])));
  const auto [v, t] = time_pair(pr, p, reps);
  if (cudaGetLastError() != cudaSuccess) ++errors;
  char line[256];
  std::snprintf(line, sizeof line, "| %s | %s | %s | %ldx%ldx%ld | %.3f | %.3f | %.3f | %.1e |\n",
                pr.kernel, pr.dtype, op.c_str(), z.m, z.n, z.k, v, t, t / v,
                top > 0 ? diff / top : diff);
  return line;
}

}  // namespace

int main(int argc, char** argv) {
  using namespace tessera::ladder;
  std::string sizes_arg =
      "4096x4096x4096,8192x8192x8192,5120x5120x4096,1000x1000x1000,4095x4097x511";
  std::string trans_arg = "NN,TN,NT,TT", kernels_arg, md_path;
  int reps = 30;
  for (int i = 1; i + 1 < argc; i += 2) {
    const std::string k = argv[i], v = argv[i + 1];
    if (k == "--sizes") sizes_arg = v;
    else if (k == "--trans") trans_arg = v;
    else if (k == "--kernels") kernels_arg = v;
    else if (k == "--reps") reps = std::max(1, std::atoi(v.c_str()));
    else if (k == "--md") md_path = v;
    else return std::fprintf(stderr, "unknown argument %s\n", k.c_str()), 2;
  }
  setenv("TESSERA_GEMM_SCHEDULE", "tiles", 1);  // 03 on whole tiles, as its twin

  const Pair pairs[] = {{"01_simt_global", "f32", Type::kF32, launch_01, launch_01_hand},
                        {"02_simt_cp_async", "f32", Type::kF32, launch_02, launch_02_hand},
                        {"03_simt_pipelined", "f32", Type::kF32, launch_03, launch_03_hand},
                        {"04_mma_sync", "f16", Type::kF16, launch_04_f16, launch_04_f16_hand},
                        {"04_mma_sync", "bf16", Type::kBF16, launch_04_bf16, launch_04_bf16_hand},
                        {"04_mma_sync", "tf32", Type::kF32, launch_04_tf32, launch_04_tf32_hand}};
  std::vector<Size> sizes;
  for (auto const& s : split(sizes_arg)) {
    Size z{};
    if (std::sscanf(s.c_str(), "%ldx%ldx%ld", &z.m, &z.n, &z.k) != 3)
      return std::fprintf(stderr, "bad size %s\n", s.c_str()), 2;
    sizes.push_back(z);
  }
  cudaDeviceProp prop{};
  cudaGetDeviceProperties(&prop, 0);
  std::string table =
      "| kernel | dtype | op | M x N x K | vocabulary ms | twin ms | vocabulary / twin speed | max "
      "diff |\n"
      "| --- | --- | --- | --- | ---: | ---: | ---: | ---: |\n";
  std::printf("twins-bench on %s, %d reps, medians\n", prop.name, reps);
  int errors = 0;
  for (Size z : sizes) {
    void *a = nullptr, *b = nullptr, *c = nullptr;
    if (cudaMalloc(&a, z.m * z.k * 4) || cudaMalloc(&b, z.k * z.n * 4) ||
        cudaMalloc(&c, z.m * z.n * 4))
      return std::fprintf(stderr, "out of memory at %ldx%ldx%ld\n", z.m, z.n, z.k), 1;
    for (Pair const& pr : pairs) {
      bool wanted = kernels_arg.empty();
      for (auto const& prefix : split(kernels_arg))
        wanted = wanted || std::strncmp(pr.kernel, prefix.c_str(), prefix.size()) == 0;
      if (!wanted) continue;
      fill_operands(pr.type, a, b, z);
      for (auto const& op : split(trans_arg)) {
        const std::string line = run_pair(pr, z, op, a, b, c, reps, errors);
        table += line;
        std::fputs(line.c_str(), stdout);
        std::fflush(stdout);
      }
    }
    cudaFree(a), cudaFree(b), cudaFree(c);
  }
  if (!md_path.empty())
    if (FILE* f = std::fopen(md_path.c_str(), "w")) std::fputs(table.c_str(), f), std::fclose(f);
  std::printf("twins-bench: %d launch errors\n", errors);
  return errors ? 1 : 0;
}
