// device_api.cu -- the public tessera functions compile and run in device code.
//
// Two forms, because kernels use both:
//   api_static   every function folded at compile time into a `static constexpr` local (the form a
//                kernel uses for its tile layouts), a few checked by static_assert;
//   api_runtime  the functions on operands known only at run time (kernel parameters, a string in
//                global memory), i.e. the device-side loops themselves.
// Both write their results (Layouts are trivially copyable) for the host to compare, with ==,
// against the host's results for the same operands.
//
// NOTE: run-time algebra on the device is expensive to *compile*: every op is loops over
// 40-entry arrays that cicc unrolls and ptxas keeps on the stack (measured with nvcc 13.0 -O3,
// one op per kernel: composition ~37 s and a 20 KB stack frame, logical_product ~56 s). So by
// default api_runtime covers evaluation, parsing and one composition; configure with
// -DTESSERA_DEVICE_API_FULL=ON to run every op at run time (several minutes of nvcc).
// Kernels should keep the algebra in constant expressions and evaluate layouts at run time.
//
// Building this file is the device-compile test; running it needs a GPU. Without one main()
// prints SKIPPED and returns 77 (CTest's skip code).
#include <cstdio>

#include <cuda_runtime.h>
#include <tessera.hpp>

using namespace tessera;
using namespace tessera::literals;

constexpr int kMaxResults = 32;
struct Results {
  Layout layout[kMaxResults] = {};
  int64_t value[kMaxResults] = {};
  int layouts = 0, values = 0;
  TESSERA_HD constexpr void put(Layout const& l) { layout[layouts++] = l; }
  TESSERA_HD constexpr void put(int64_t v) { value[values++] = v; }
};

// Evaluation, parsing and the coordinate functions: cheap at run time.
TESSERA_HD constexpr void apply_eval(Results& r, Layout const& a, const char* notation,
                                     int64_t idx) {
  r.put(parse_layout(notation));
  r.put(a(idx));                     // 1-D index: the per-thread offset case
  r.put(a(idx2crd(idx, a.shape)));   // natural coordinate
  r.put(a(idx % 4, idx / 4));        // one integer per mode
  r.put(a[1](idx));
  r.put(size(a) + 1000 * cosize(a) + 100000 * (rank(a) + 10 * depth(a)));
  r.put(int64_t(elem_less(make_tuple(1, 2), a.shape)));
  r.put(Swizzle(3, 4, 3)(idx * 128));
  r.put(composition(Swizzle(3, 4, 3), a)(idx));
  r.put(product(prefix_product(a.shape)) + sum(flatten(a.shape)));
  r.put(make_layout(a, Layout(IntTuple(3))));
  r.put(flatten(make_layout(a, a)));
}

// The algebra; kAll = false keeps only composition (see the NOTE above).
template <bool kAll>
TESSERA_HD constexpr void apply_algebra(Results& r, Layout const& a, Layout const& b,
                                        Layout const& tile) {
  r.put(composition(a, b));
  if constexpr (kAll) {  // discarded, so not compiled for the device, when false
    r.put(composition(a, Tiler(tile)));
    r.put(complement(b, 24));
    r.put(coalesce(a));
    r.put(coalesce(a, make_tuple(1, 1)));
    r.put(filter(Layout("(4,2)"_tuple, "(0,3)"_tuple)));
    r.put(right_inverse(a));
    r.put(left_inverse(b));
    r.put(logical_divide(a, tile));
    r.put(zipped_divide(a, make_tile(Layout(2), Layout(3))));
    r.put(tiled_divide(a, make_tile(Layout(2), _)));
    r.put(flat_divide(a, Tiler("(2,3)"_tuple)));
    r.put(logical_product(b, tile));
    r.put(zipped_product(a, make_tile(Layout(2), Layout(2))));
    r.put(tiled_product(a, make_tile(Layout(2), Layout(2))));
    r.put(flat_product(a, make_tile(Layout(2), Layout(2))));
    r.put(blocked_product(a, "(3,4):(1,3)"_layout));
    r.put(raked_product(a, "(3,4):(1,3)"_layout));
  }
}

constexpr Layout kA = "(4,6):(1,4)"_layout;
constexpr Layout kB = "4:2"_layout;
constexpr Layout kTile = "2:1"_layout;
constexpr const char kNotation[] = "((2,2),(3,2)):((1,2),(4,12))";
constexpr int64_t kIdx = 7;

TESSERA_HD constexpr Results all_static() {
  Results r;
  apply_eval(r, kA, kNotation, kIdx);
  apply_algebra<true>(r, kA, kB, kTile);
  return r;
}

__global__ void api_static(Results* out) {
  static constexpr Results kAll = all_static();
  static_assert(kAll.layouts > 15);
  static constexpr Layout kDiv = logical_divide("(4,6):(1,4)"_layout, Tiler("(2,3)"_tuple));
  static_assert(kDiv == "((2,2),(3,2)):((1,2),(4,12))"_layout);
  if (threadIdx.x == 0) *out = kAll;
}

__global__ void api_runtime(Results* out, Layout a, Layout b, Layout tile, const char* notation,
                            int64_t idx) {
  Results r;
  apply_eval(r, a, notation, idx);
#if defined(TESSERA_DEVICE_API_FULL)
  apply_algebra<true>(r, a, b, tile);
#else
  apply_algebra<false>(r, a, b, tile);
#endif
  *out = r;
}

// ---------------------------------------------------------------------------------------------
#define CHECK_CUDA(x)                                                       \
  do {                                                                      \
    cudaError_t e_ = (x);                                                   \
    if (e_ != cudaSuccess) {                                                \
      std::printf("FAIL: %s: %s\n", #x, cudaGetErrorString(e_));            \
      return 1;                                                             \
    }                                                                       \
  } while (0)

int main() {
  int devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
    std::printf("SKIPPED: no CUDA device (device_api compiled; run it on the device machine)\n");
    return 77;
  }
  Results* d_out = nullptr;
  char* d_notation = nullptr;
  CHECK_CUDA(cudaMalloc(&d_out, sizeof(Results)));
  CHECK_CUDA(cudaMalloc(&d_notation, sizeof(kNotation)));
  CHECK_CUDA(cudaMemcpy(d_notation, kNotation, sizeof(kNotation), cudaMemcpyHostToDevice));
  CHECK_CUDA(cudaDeviceSetLimit(cudaLimitStackSize, 128 * 1024));  // run-time algebra's arrays

  int failures = 0;
  for (int pass = 0; pass < 2; ++pass) {
    CHECK_CUDA(cudaMemset(d_out, 0xff, sizeof(Results)));  // poison: unwritten results differ
    if (pass == 0) api_static<<<1, 32>>>(d_out);
    else api_runtime<<<1, 1>>>(d_out, kA, kB, kTile, d_notation, kIdx);
    CHECK_CUDA(cudaGetLastError());
    CHECK_CUDA(cudaDeviceSynchronize());
    static Results got;
    CHECK_CUDA(cudaMemcpy(&got, d_out, sizeof(Results), cudaMemcpyDeviceToHost));
    // Host reference: the same list, run on the host at run time.
    Results want;
    apply_eval(want, kA, kNotation, kIdx);
    apply_algebra<true>(want, kA, kB, kTile);
    const char* name = pass == 0 ? "api_static" : "api_runtime";
    int layouts = pass == 0 ? want.layouts : got.layouts;  // runtime may cover fewer ops
    if (got.values != want.values || layouts < 3) {
      std::printf("FAIL %s: %d values (want %d), %d layouts\n", name, got.values, want.values,
                  got.layouts);
      ++failures;
      continue;
    }
    for (int k = 0; k < want.values; ++k)
      if (got.value[k] != want.value[k]) {
        std::printf("FAIL %s value %d: device %lld host %lld\n", name, k,
                    (long long)got.value[k], (long long)want.value[k]);
        ++failures;
      }
    for (int k = 0; k < layouts; ++k)
      if (!(got.layout[k] == want.layout[k])) {
        Text g, w;
        g << got.layout[k];
        w << want.layout[k];
        std::printf("FAIL %s layout %d: device %s host %s\n", name, k, g.c_str(), w.c_str());
        ++failures;
      }
    std::printf("%s: %d values and %d layouts equal the host's\n", name, want.values, layouts);
  }
  cudaFree(d_out);
  cudaFree(d_notation);
  std::printf(failures ? "FAILED\n" : "PASSED\n");
  return failures ? 1 : 0;
}
