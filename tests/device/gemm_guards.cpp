// tests/device/gemm_guards.cpp -- the C ABI never touches memory outside its blocks (GPU).
//
// Every kernel of the ladder by name, and the built-in choice, for every dtype it runs: A, B and
// C each sit inside a larger buffer (leading dimension larger than the rows, a guard column
// before the first and after the last, the block shifted by 0 or 1 element so that both the
// 16-byte aligned paths (TMA, cp.async, vector stores) and the element-wise ones run). Around
// the blocks:
//   - A's and B's guards hold NaN: a kernel that reads outside op(A)'s m x k or op(B)'s k x n
//     block and uses the value produces NaN in C;
//   - C's guards (the rows between m and ldc, the columns before and after) hold a sentinel bit
//     pattern that must be intact afterwards, bit for bit;
//   - A and B must be unchanged, bit for bit.
// Inside C's block: beta = 0 starts from NaN (every element must be written, C must not be
// read), beta != 0 from random values. Inputs are fresh random values in [-1, 1), never zero,
// rounded to the dtype; the reference is computed on the host in float64 from the rounded
// values, and an element passes when |out - ref| <= tol * (|alpha| sum_k |a||b| + |beta c|).
//
// The sweep: m and n in 1..17 with ldc in {m, m+1, m+3, m+8}, beta 0 and 0.75, all four op(A),
// op(B), k cycling through {1, 7, 40, 64, 65}; then larger and skinny shapes (5 x 1 x 40 with
// ldc 8, 5 x 1656 x 45, 300 x 1, 1 x 300, 129 x 257, and 300 x 520 / 520 x 300, small enough for
// kernel 05's narrow tiles without the transpose, 1003 x 1 and 1 x 1003 with a ragged last tile
// of kernel 06's GEMV, 8 x 520, 2 x 520 and 520 x 3 with K = 1100 for its steps on 2-8 vectors
// that read them along s, along K and in a partial group, 32 x 1000, 1000 x 24 and 40 x 520 for
// its tensor-core kernels on 8-32 vectors, 128 x 520 and 96 x 700 (f16, bf16: the short tile)
// and 256 x 600 (tf32: 128 rows) that kernel 05 runs as given, m filling one cluster's rows, ...)
// and long-K ones that kernel 05 runs with stream-K, 03 with split-K and 06's GEMV with K split
// (130 x 300 x 8200, 70 x 520 x 4100, 64 x 300 x 3000, 24 x 300 x 3000 on 03's thin tile, 300 x 1 x
// 5000, 1 x 300 x 5000 and 16 x 64 x 5000). Exit status 0 when all passed.
//
//   gemm_guards [--quick] [--dtype f32|tf32|f16|bf16]   --quick: m, n in 1..9 only
#include <cmath>
#include <cstdio>
#include <cstring>
#include <map>
#include <random>
#include <string>
#include <vector>

#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_runtime.h>
#include <tessera/gemm.h>

#include "harness.cuh"

namespace {

size_t elem_bytes(tessera_dtype d) { return d == TESSERA_F16 || d == TESSERA_BF16 ? 2 : 4; }
const char* dtype_name(tessera_dtype d) {
  return d == TESSERA_F16 ? "f16" : d == TESSERA_BF16 ? "bf16" : d == TESSERA_TF32 ? "tf32" : "f32";
}
// Bound on |out - ref| / (|alpha| sum |a||b| + |beta c|): the output's rounding plus fp32
// accumulation (f32), tf32 operands (04 rounds, 05 truncates: 2^-9), 16-bit outputs.
double tolerance(tessera_dtype d, const char* kernel) {
  if (d == TESSERA_F32) return 1e-5;
  if (d == TESSERA_BF16) return 1e-2;
  if (d == TESSERA_TF32) return kernel && !std::strcmp(kernel, "04_mma_sync") ? 1e-3 : 1.0 / 512;
  return 1e-3;
}

// One element of `d` as raw bits (16 or 32 of them) and as a value.
uint32_t bits_of(tessera_dtype d, float x) {
  if (d == TESSERA_F16) {
    __half h = __float2half_rn(x);
    uint16_t u;
    std::memcpy(&u, &h, 2);
    return u;
  }
  if (d == TESSERA_BF16) {
    __nv_bfloat16 h = __float2bfloat16_rn(x);
    uint16_t u;
    std::memcpy(&u, &h, 2);
    return u;
  }
  uint32_t u;
  std::memcpy(&u, &x, 4);
  return u;
}
double value_of(tessera_dtype d, uint32_t u) {
  if (d == TESSERA_F16) {
    uint16_t s = uint16_t(u);
    __half h;
    std::memcpy(&h, &s, 2);
    return double(__half2float(h));
  }
  if (d == TESSERA_BF16) u <<= 16;
  float f;
  std::memcpy(&f, &u, 4);
  return f;
}

// A (rows x cols) block with leading dimension ld inside a buffer: `lead` elements before it
// (a multiple of 64, plus the shift), a guard column after it.
struct Embedded {
  int64_t rows, cols, ld, lead, total;
  Embedded(int64_t r, int64_t c, int64_t l, int64_t shift)
      : rows(r), cols(c), ld(l), lead((l + 63) / 64 * 64 + shift), total(lead + l * (c + 1) + 64) {}
  bool inside(int64_t i) const {
    const int64_t x = i - lead;
    return x >= 0 && x < ld * cols && x % ld < rows;
  }
  int64_t at(int64_t r, int64_t c) const { return lead + r + c * ld; }
};

// Host copy of a buffer in the dtype's bits; upload/download through a raw byte vector.
struct Buffer {
  tessera_dtype d;
  std::vector<uint32_t> bits;
  void* dev = nullptr;
  size_t capacity = 0;
  void upload() {
    const size_t eb = elem_bytes(d);
    std::vector<unsigned char> raw(bits.size() * eb);
    for (size_t i = 0; i < bits.size(); ++i) std::memcpy(&raw[i * eb], &bits[i], eb);  // little end
    if (raw.size() > capacity) {
      if (dev) CHECK_CUDA(cudaFree(dev));
      capacity = raw.size() * 2;
      CHECK_CUDA(cudaMalloc(&dev, capacity));
    }
    CHECK_CUDA(cudaMemcpy(dev, raw.data(), raw.size(), cudaMemcpyHostToDevice));
  }
  std::vector<uint32_t> download() const {
    const size_t eb = elem_bytes(d);
    std::vector<unsigned char> raw(bits.size() * eb);
    CHECK_CUDA(cudaMemcpy(raw.data(), dev, raw.size(), cudaMemcpyDeviceToHost));
    std::vector<uint32_t> out(bits.size(), 0);
    for (size_t i = 0; i < out.size(); ++i) std::memcpy(&out[i], &raw[i * eb], eb);
    return out;
  }
};

struct Case {
  int64_t m, n, k, lda, ldb, ldc;
  char ta, tb;
  float beta;
  int64_t shift_a, shift_b, shift_c;
};

struct Tally {
  int runs = 0, failures = 0;
  long long guard_writes = 0, nan_out = 0, input_writes = 0;
  double worst = 0;
};

std::mt19937_64 rng;
float random_value() {
  std::uniform_real_distribution<float> u(-1.0f, 1.0f);
  float x = u(rng);
  return x == 0.0f ? 0.5f : x;
}

constexpr uint32_t kSentinel32 = 0x5a5a1234u, kSentinel16 = 0x5a5bu;

// Fills buf: `guard` around the block, random values (or NaN) inside it; then uploads it.
void fill(Buffer& buf, Embedded const& e, uint32_t guard, bool block_nan) {
  const uint32_t nan_bits = bits_of(buf.d, std::nanf(""));
  buf.bits.assign(size_t(e.total), guard);
  for (int64_t j = 0; j < e.cols; ++j)
    for (int64_t i = 0; i < e.rows; ++i)
      buf.bits[size_t(e.at(i, j))] = block_nan ? nan_bits : bits_of(buf.d, random_value());
  buf.upload();
}

// The float64 reference of C(i, j), alpha sum_p op(A)(i, p) op(B)(p, j) + beta C0(i, j), and
// its bound (the same sum of absolute values), from the values uploaded (C still holds C0).
std::pair<double, double> reference_at(tessera_dtype d, Case const& c, float alpha,
                                       Buffer const& A, Buffer const& B, Buffer const& C,
                                       Embedded const& ea, Embedded const& eb, Embedded const& ec,
                                       int64_t i, int64_t j) {
  double ref = 0, bound = 0;
  for (int64_t p = 0; p < c.k; ++p) {
    const double x = value_of(d, A.bits[size_t(c.ta == 'N' ? ea.at(i, p) : ea.at(p, i))]);
    const double y = value_of(d, B.bits[size_t(c.tb == 'N' ? eb.at(p, j) : eb.at(j, p))]);
    ref += x * y, bound += std::fabs(x * y);
  }
  ref *= alpha, bound *= std::fabs(alpha);
  if (c.beta != 0.0f) {
    const double old = value_of(d, C.bits[size_t(ec.at(i, j))]);
    ref += c.beta * old, bound += std::fabs(c.beta * old);
  }
  return {ref, bound};
}

// How many elements of C's buffer outside its block no longer hold the sentinel; `first` gets
// the first one's index.
long long guards_written(std::vector<uint32_t> const& out, Embedded const& ec, uint32_t sentinel,
                         int64_t& first) {
  long long guard = 0;
  for (int64_t i = 0; i < ec.total; ++i)
    if (!ec.inside(i) && out[size_t(i)] != sentinel && guard++ == 0) first = i;
  return guard;
}

// Runs one case through `kernel` (nullptr: the built-in choice); returns true when it passed.
bool run_case(tessera_dtype d, const char* kernel, Case const& c, Buffer& A, Buffer& B, Buffer& C,
              Tally& t, int& printed) {
  const float alpha = 1.25f;
  const int64_t ra = c.ta == 'N' ? c.m : c.k, ca = c.ta == 'N' ? c.k : c.m;
  const int64_t rb = c.tb == 'N' ? c.k : c.n, cb = c.tb == 'N' ? c.n : c.k;
  const Embedded ea(ra, ca, c.lda, c.shift_a), eb(rb, cb, c.ldb, c.shift_b),
      ec(c.m, c.n, c.ldc, c.shift_c);
  const uint32_t nan_bits = bits_of(d, std::nanf(""));
  const uint32_t sentinel = elem_bytes(d) == 2 ? kSentinel16 : kSentinel32;
  fill(A, ea, nan_bits, false);
  fill(B, eb, nan_bits, false);
  fill(C, ec, sentinel, c.beta == 0.0f);

  const int status = tessera_gemm_named(kernel, d, c.ta, c.tb, c.m, c.n, c.k, alpha,
                                        static_cast<char*>(A.dev) + ea.lead * elem_bytes(d), c.lda,
                                        static_cast<char*>(B.dev) + eb.lead * elem_bytes(d), c.ldb,
                                        c.beta, static_cast<char*>(C.dev) + ec.lead * elem_bytes(d),
                                        c.ldc, nullptr);
  CHECK_CUDA(cudaDeviceSynchronize());
  ++t.runs;
  auto report = [&](const char* what) {
    ++t.failures;
    if (printed++ < 40)
      std::printf(
          "FAIL %s %s %c%c m=%ld n=%ld k=%ld lda=%ld ldb=%ld ldc=%ld shift %ld/%ld/%ld beta=%g: "
          "%s\n",
          kernel ? kernel : "(built-in)", dtype_name(d), c.ta, c.tb, long(c.m), long(c.n),
          long(c.k), long(c.lda), long(c.ldb), long(c.ldc), long(c.shift_a), long(c.shift_b),
          long(c.shift_c), c.beta, what);
    return false;
  };
  if (status != TESSERA_SUCCESS) return report(tessera_status_string(status));

  const std::vector<uint32_t> a = A.download(), b = B.download(), out = C.download();
  if (a != A.bits || b != B.bits) {
    ++t.input_writes;
    return report("A or B was written");
  }
  // C's guards, bit for bit; where they changed, name the first element.
  int64_t first = -1;
  if (const long long guard = guards_written(out, ec, sentinel, first)) {
    t.guard_writes += guard;
    char what[160];
    const int64_t x = first - ec.lead;
    std::snprintf(what, sizeof what,
                  "%lld elements outside C's block written, first at (row %ld, column %ld)", guard,
                  long(x >= 0 ? x % c.ldc : x), long(x >= 0 ? x / c.ldc : -1));
    return report(what);
  }
  // The block against the float64 reference.
  double worst = 0;
  for (int64_t j = 0; j < c.n; ++j)
    for (int64_t i = 0; i < c.m; ++i) {
      const auto [ref, bound] = reference_at(d, c, alpha, A, B, C, ea, eb, ec, i, j);
      const double o = value_of(d, out[size_t(ec.at(i, j))]);
      if (!(o == o)) {
        ++t.nan_out;
        char what[96];
        std::snprintf(what, sizeof what, "NaN at (%ld, %ld): unwritten, or a NaN guard read",
                      long(i), long(j));
        return report(what);
      }
      // (f16 results below 2^-14 are subnormal: their rounding is absolute, up to 2^-25)
      const double floor = d == TESSERA_F16 ? std::ldexp(1.0, -24) : 0.0;
      worst =
          std::max(worst, std::max(0.0, std::fabs(o - ref) - floor) / (bound > 0 ? bound : 1.0));
    }
  t.worst = std::max(t.worst, worst);
  if (worst > tolerance(d, kernel)) {
    char what[96];
    std::snprintf(what, sizeof what, "error %.3g over the bound %.0e", worst, tolerance(d, kernel));
    return report(what);
  }
  return true;
}

std::vector<std::string> kernels_for(tessera_dtype d) {
  std::vector<std::string> out;
  std::string s = tessera_gemm_kernels_for(d);
  size_t p = 0;
  while (p < s.size()) {
    size_t q = s.find(',', p);
    if (q == std::string::npos) q = s.size();
    out.push_back(s.substr(p, q - p));
    p = q + 1;
  }
  out.push_back("");  // the built-in choice
  return out;
}

// The sweep of small shapes (every m, n up to 17 or 9 with --quick, paddings, beta, majors,
// shifts), then larger and skinny shapes (9000 x 100 and 100 x 9000: kernel 05's 128 x 64 tiles
// whose cluster shares A), then long K for stream-K and split-K.
std::vector<Case> make_cases(bool quick) {
  std::vector<Case> cases;
  const int64_t ks[] = {1, 7, 40, 64, 65}, pads[] = {0, 1, 3, 8};
  int v = 0;
  const int64_t top = quick ? 9 : 17;
  for (int64_t m = 1; m <= top; ++m)
    for (int64_t n = 1; n <= top; ++n)
      for (int64_t pad_c : pads)
        for (float beta : {0.0f, 0.75f})
          for (char ta : {'N', 'T'})
            for (char tb : {'N', 'T'}) {
              const int64_t k = ks[v % 5];
              const int64_t lda = (ta == 'N' ? m : k) + pads[(v / 5) % 4];
              const int64_t ldb = (tb == 'N' ? k : n) + pads[(v / 3) % 4];
              // C's shift alternates with beta's cycle so that both meet both alignments.
              cases.push_back({m, n, k, lda, ldb, m + pad_c, ta, tb, beta, (v / 7) % 2,
                               (v / 11) % 2, (v / 4) % 2});
              ++v;
            }
  struct Shape { int64_t m, n, k, ldc_pad; };
  for (Shape s : {Shape{5, 1, 40, 3},      Shape{5, 1656, 45, 3},   Shape{5, 1656, 45, 0},
                  Shape{300, 1, 40, 8},    Shape{1, 300, 17, 7},    Shape{129, 257, 65, 3},
                  Shape{129, 257, 65, 7},  Shape{64, 256, 64, 8},   Shape{200, 130, 129, 1},
                  Shape{17, 1000, 100, 8}, Shape{1000, 17, 100, 8}, Shape{256, 256, 256, 8},
                  Shape{8, 4096, 64, 8},   Shape{300, 520, 100, 5}, Shape{520, 300, 129, 3},
                  Shape{1003, 1, 100, 8},  Shape{1, 1003, 100, 8},  Shape{8, 520, 1100, 3},
                  Shape{2, 520, 1100, 1},  Shape{520, 3, 1100, 8},  Shape{32, 1000, 700, 3},
                  Shape{1000, 24, 700, 8}, Shape{40, 520, 1100, 5}, Shape{128, 520, 300, 3},
                  Shape{256, 600, 300, 5}, Shape{96, 700, 200, 8}, Shape{9000, 100, 64, 3},
                  Shape{100, 9000, 64, 5}})
    for (float beta : {0.0f, 0.75f})
      for (char ta : {'N', 'T'})
        for (char tb : {'N', 'T'})
          for (int64_t shift : {0, 1}) {
            const int64_t lda = (ta == 'N' ? s.m : s.k) + 8, ldb = (tb == 'N' ? s.k : s.n) + 8;
            cases.push_back(
                {s.m, s.n, s.k, lda, ldb, s.m + s.ldc_pad, ta, tb, beta, shift, 0, shift});
          }
  // Kernel 05's stream-K (a few tiles, long K: the k-tiles of one tile split over several clusters,
  // partial sums added by the tile's owner); 70 rows leave the cluster's second CTA past M. Kernel
  // 03's split-K (partial sums in the workspace, a second kernel adding them): rows not a multiple
  // of 4 (element stores of the partial sums) and 64 (16-byte stores); TT runs the transposed
  // problem. Fewer variants: the host reference of these is the sweep's largest cost.
  for (Shape s : {Shape{130, 300, 8200, 5}, Shape{70, 520, 4100, 8}, Shape{64, 300, 3000, 8},
                  Shape{24, 300, 3000, 8}, Shape{300, 1, 5000, 5}, Shape{1, 300, 5000, 3},
                  Shape{16, 64, 5000, 3}})
    for (int variant = 0; variant < 4; ++variant) {
      const char ta = variant % 2 ? 'T' : 'N', tb = variant >= 2 ? 'T' : 'N';
      const int64_t lda = (ta == 'N' ? s.m : s.k) + 8, ldb = (tb == 'N' ? s.k : s.n) + 8;
      cases.push_back({s.m, s.n, s.k, lda, ldb, s.m + s.ldc_pad, ta, tb, variant % 2 ? 0.75f : 0.0f,
                       variant % 2, 0, variant % 2});
    }
  return cases;
}

}  // namespace

int main(int argc, char** argv) {
  bool quick = false;
  const char* only = nullptr;  // --dtype f32|tf32|f16|bf16: that element type's kernels only
  for (int i = 1; i < argc; ++i) {
    if (!std::strcmp(argv[i], "--quick")) quick = true;
    else if (!std::strcmp(argv[i], "--dtype") && i + 1 < argc) only = argv[++i];
  }
  const uint64_t seed = std::random_device{}();
  rng.seed(seed);
  std::printf("gemm_guards: seed %llu\n", static_cast<unsigned long long>(seed));
  const std::vector<Case> cases = make_cases(quick);

  std::map<std::string, Tally> tally;
  int failures = 0, printed = 0;
  for (tessera_dtype d : {TESSERA_F32, TESSERA_TF32, TESSERA_F16, TESSERA_BF16}) {
    if (only && std::strcmp(only, dtype_name(d)) != 0) continue;
    Buffer A{d}, B{d}, C{d};
    for (std::string const& kn : kernels_for(d)) {
      const char* kernel = kn.empty() ? nullptr : kn.c_str();
      const std::string name = std::string(dtype_name(d)) + " " + (kernel ? kernel : "(built-in)");
      Tally& t = tally[name];
      for (Case const& c : cases) run_case(d, kernel, c, A, B, C, t, printed);
      failures += t.failures;
      std::printf("%-28s %d runs, %d failed\n", name.c_str(), t.runs, t.failures);  // progress
      std::fflush(stdout);
    }
    for (Buffer* b : {&A, &B, &C}) CHECK_CUDA(cudaFree(b->dev));
  }
  std::printf("\n%-28s %7s %8s %12s %8s %8s %10s\n", "dtype kernel", "runs", "failed",
              "guard writes", "NaN out", "A/B hit", "worst err");
  for (auto const& [name, t] : tally)
    std::printf("%-28s %7d %8d %12lld %8lld %8lld %10.3g\n", name.c_str(), t.runs, t.failures,
                t.guard_writes, t.nan_out, t.input_writes, t.worst);
  std::printf("gemm_guards: %zu cases per kernel, %d failures%s\n", cases.size(), failures,
              quick ? " (--quick)" : "");
  return failures ? 1 : 0;
}
