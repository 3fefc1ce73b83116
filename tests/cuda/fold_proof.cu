// fold_proof.cu -- the core bet, checked by the compiler: indexing that comes from tessera layouts
// compiles to the same instructions as hand-written index arithmetic (the core bet of
// docs/design-notes.md).
//
// Part (a): the algebra's worked examples, computed at compile time (static_assert); if any were
// wrong, or not constant-evaluable under nvcc, this file would not compile.
// Part (b): four kernels write the same per-thread offsets of a 64x64 column-major C tile split
// over 128 threads as a (16,8) grid, 4x8 values each:
//   fold_hand    hand-written index arithmetic (the reference)
//   fold_config  layouts as `static constexpr Layout` members of a config type (re-bound, below)
//   fold_local   layouts as `static constexpr Layout` locals of the kernel
//   fold_nttp    layouts as class-type template arguments of a __device__ function
// check_fold.py then asserts, on the PTX and the ptxas report, that the three tessera kernels have
// exactly the instruction count of fold_hand, no local memory, no calls, no stack frame, no spills.
#include <cstdint>

#include <tessera.hpp>

using namespace tessera;
using namespace tessera::literals;

// ---------------------------------------------------------------------------------------------
// (a) The algebra's worked examples (the tiled-tensors document), folded by nvcc's front end (host
// and device compilation passes).
static_assert(composition("(4,3):(1,8)"_layout, "6:2"_layout) == "(2,3):(2,8)"_layout);
static_assert(logical_divide("(4,6):(1,4)"_layout, Tiler("(2,3)"_tuple)) ==
              "((2,2),(3,2)):((1,2),(4,12))"_layout);
static_assert(complement("4:1"_layout, 12) == "3:4"_layout);
static_assert(logical_product("4:1"_layout, "3:1"_layout) == "(4,3):(1,4)"_layout);
static_assert(zipped_divide("(4,6):(1,4)"_layout, Tiler("(2,3)"_tuple)) ==
              "((2,3),(2,2)):((1,4),(2,12))"_layout);
static_assert(coalesce("(2,(1,6)):(1,(7,2))"_layout) == "12:1"_layout);
// The 128B swizzle: row 1, chunk 0 (byte 0x80) lands in chunk 1 (0x90).
static_assert(Swizzle(3, 4, 3)(0x80) == 0x90);
static_assert(parse_swizzled_layout("Sw<3,4,3> o 0 o (8,64):(64,1)")(1) == (64 ^ 0));
// Evaluation: L(3,(1,1)) = 6 + 8 + 1 on the layout.hpp example.
static_assert("(4,(3,2)):(2,(8,1))"_layout(12) == 1);

// ---------------------------------------------------------------------------------------------
// (b) The partition, derived once with the algebra:
//   C                  = (64,64):(1,64)
//   zipped_divide(C, (16,8)) = ((16,8),(4,8)):((1,64),(16,512))
//   mode 0: thread -> offset of its first element, mode 1: value -> offset within the thread.
constexpr int kThreads = 128;
constexpr int kValues = 32;

struct FoldConfig {
  static constexpr Layout kC = "(64,64):(1,64)"_layout;
  static constexpr Layout kTV = zipped_divide(kC, Tiler("(16,8)"_tuple));
  static constexpr Layout kThr = kTV[0];
  static constexpr Layout kVal = kTV[1];
  static_assert(kTV == "((16,8),(4,8)):((1,64),(16,512))"_layout);
  static_assert(size(kThr) == kThreads && size(kVal) == kValues);
};

// Reference: thread t sits at row t%16, column t/16; value v at row 16*(v%4), column 8*(v/4).
// Same integer types as tessera (int64_t) so the comparison is about the abstraction only.
__global__ void fold_hand(int64_t* out) {
  int64_t t = threadIdx.x;
  int64_t base = (t % 16) + (t / 16) * 64;
#pragma unroll
  for (int v = 0; v < kValues; ++v) out[t * kValues + v] = base + (v % 4) * 16 + (v / 4) * 512;
}

// NOTE: nvcc rejects a direct use of a class-type static constexpr member in device code
// ("identifier FoldConfig::kThr is undefined in device code", also with --expt-relaxed-constexpr):
// calling Cfg::kThr(t) odr-uses the host-side object. Re-binding the member to a `static constexpr`
// local is a constant initialisation, not an odr-use, and folds like the other forms.
template <class Cfg>
__global__ void fold_config(int64_t* out) {
  static constexpr Layout kThr = Cfg::kThr;
  static constexpr Layout kVal = Cfg::kVal;
  int64_t t = threadIdx.x;
  int64_t base = kThr(t);
#pragma unroll
  for (int v = 0; v < kValues; ++v) out[t * kValues + v] = base + kVal(v);
}
template __global__ void fold_config<FoldConfig>(int64_t*);

__global__ void fold_local(int64_t* out) {
  // NOTE: `static` matters: a plain constexpr local is materialised in local memory.
  static constexpr Layout kTV = zipped_divide("(64,64):(1,64)"_layout, Tiler("(16,8)"_tuple));
  static constexpr Layout kThr = kTV[0];
  static constexpr Layout kVal = kTV[1];
  int64_t t = threadIdx.x;
  int64_t base = kThr(t);
#pragma unroll
  for (int v = 0; v < kValues; ++v) out[t * kValues + v] = base + kVal(v);
}

template <Layout Thr, Layout Val>
__device__ void fold_nttp_body(int64_t* out) {
  int64_t t = threadIdx.x;
  int64_t base = Thr(t);
#pragma unroll
  for (int v = 0; v < kValues; ++v) out[t * kValues + v] = base + Val(v);
}
__global__ void fold_nttp(int64_t* out) {
  fold_nttp_body<FoldConfig::kThr, FoldConfig::kVal>(out);
}
