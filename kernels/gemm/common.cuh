// kernels/gemm/common.cuh -- what every kernel of the GEMM ladder shares.
//
// The split between compile time and run time (DESIGN.md "The core bet"):
//   - static: every tile, thread partition and fragment is a tessera Layout computed once, at
//     compile time, in a config type's `static constexpr` members, against the *compact*
//     column-major layout of the tile, e.g. C's tile (128,128):(1,128);
//   - dynamic: the problem sizes, the leading dimensions and the transposes. A global element is
//     reached through its tile coordinate (m, n): address = base + m * stride_m + n * stride_n.
//
// The bridge is the coordinate layout (tessera/coord_layout.hpp): a partition of the compact
// tile, lowered so that it sends a thread or a value to its tile coordinate instead of an offset,
//
//   step1, C (128,128):(1,128): thread 17's fragment (1,(4,2),(4,2)):(0,(1,64),(128,8192)) at
//   offset 516 -> coordinate (4, 4), fragment (1,(4,2),(4,2)):(0,((1,0),(64,0)),((0,1),(0,64)))
//
// which kernels 01-04 use through tessera/device_tensor.hpp's views (local_tile, partition_*,
// identity tensors) and kernel 05's epilogue directly (WgmmaTmaCfg::kThrCrdC, kFrgCrdC). A
// Layout or an IntTuple evaluated at run time in device code does not fold: its results go to
// local memory (8 KB of stack in a 64-value epilogue; see the report of issue 5).
#pragma once

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <type_traits>

#include <cuda_runtime.h>
// The library without its std::string conveniences (<tessera.hpp> adds tessera/strings.hpp):
// <string> cost the host pass of each kernel file ~0.4 s.
#include <tessera/atom/smem.hpp>
#include <tessera/coord_layout.hpp>
#include <tessera/tiled_copy.hpp>
#include <tessera/tiled_mma.hpp>

#include "stream_k.hpp"
#include "tiles.hpp"

namespace tessera::ladder {

// ---------------------------------------------------------------------------------------------
// The problem as the kernels see it: C(m,n) = alpha * sum_k A(m,k) B(n,k) + beta * C(m,n), with
// A addressed as (M,K) and B as (N,K) (CuTe's convention) through run-time strides.
struct GemmArgs {
  int64_t m = 0, n = 0, k = 0;
  float alpha = 1, beta = 0;
  const float* a = nullptr;
  int64_t a_sm = 1, a_sk = 0;  // A(m,k) = a[m*a_sm + k*a_sk]
  const float* b = nullptr;
  int64_t b_sn = 1, b_sk = 0;  // B(n,k) = b[n*b_sn + k*b_sk]
  float* c = nullptr;
  int64_t ldc = 0;             // C(m,n) = c[m + n*ldc]
  void* workspace = nullptr;   // the caller's, for packed operands (nullptr: stream-ordered
  size_t workspace_bytes = 0;  // allocations instead)
};

// GemmArgs with C addressed through two strides, C(m,n) = p.c[m * c_sm + n * c_sn]: (1, ldc) as
// given, or (ldc, 1) for the transposed problem C^T = B A^T, which lets a kernel written for
// (MN, K)-major operands run BLAS TT's (K, MN) ones: one kernel fewer to compile (04, 03).
struct GemmArgsC {
  GemmArgs p;
  int64_t c_sm, c_sn;
};
inline GemmArgsC as_given(GemmArgs const& p) { return {p, 1, p.ldc}; }
inline GemmArgsC transposed(GemmArgs const& p) {
  GemmArgs t = p;
  t.m = p.n, t.n = p.m;
  t.a = p.b, t.a_sm = p.b_sn, t.a_sk = p.b_sk;
  t.b = p.a, t.b_sn = p.a_sm, t.b_sk = p.a_sk;
  return {t, p.ldc, 1};
}

// A launcher per kernel: launches on `stream`, returns the launch's error.
using Launcher = cudaError_t (*)(GemmArgs const&, cudaStream_t);

// ---------------------------------------------------------------------------------------------
// Static checks. A configuration's checks of its layouts (static_asserts that run the algebra)
// sit in a `__device__ static constexpr void check()` that its kernel calls, so they run in the
// front ends that see device code (EDG, in cudafe++ and cicc) and not in the host g++, whose
// constant evaluation cost 0.3-0.5 s per kernel file. The other members are evaluated where
// they are used: the host reads tile sizes, threads and shared-memory bytes only.

// ---------------------------------------------------------------------------------------------
// Static partitions: layouts built once from the library's TiledMMA / TiledCopy.

// The same for a TiledCopy: its thread mode is already thread -> offset.
TESSERA_HD constexpr Layout copy_thread_offsets(TiledCopy const& copy, Layout const& tile, bool dst) {
  return copy.tidfrg(tile, dst)[0];
}

// Checks a derived layout against the library's own partition for a few threads (constexpr).
TESSERA_HD constexpr bool same_offsets(TiledMMA const& mma, Operand op, Layout const& tile,
                                       Layout const& thr) {
  int64_t n = mma.threads();
  int64_t probe[5] = {0, 1, 17, n / 2 + 3, n - 1};
  for (int64_t t : probe)
    if (thr(t) != mma.partition(op, tile, t).offset) return false;
  return true;
}

// Where two layouts' leaves are one contiguous run: the number of leading consecutive offsets
// 0,1,2,.. of `l` (how wide a vector load of a fragment can be).
TESSERA_HD constexpr int64_t contiguous_prefix(Layout const& l) {
  int64_t n = 1;
  while (n < l.size() && l(n) == n) ++n;
  return n;
}

// ---------------------------------------------------------------------------------------------
#if defined(__CUDACC__)
// L2-friendly block order: CTAs walk the C tiles in groups of `group_m` tile-rows, column by
// column inside a group, so consecutive CTAs share A rows and B columns in L2 (kernel 05 walks the
// same order with the host's divisors: GroupedOrder, stream_k.hpp).
struct TileIndex {
  int64_t m, n;
};
__device__ __forceinline__ TileIndex grouped_tile(int64_t bid, int64_t tiles_m, int64_t tiles_n, int64_t group_m) {
  const int64_t group = group_m * tiles_n;
  const int64_t first_m = bid / group * group_m;
  const int64_t rows_in_group = tiles_m - first_m < group_m ? tiles_m - first_m : group_m;
  return {first_m + bid % group % rows_in_group, bid % group / rows_in_group};
}

// fp32 output (kernels 01-03; elem.cuh).
struct F32Out {
  using T = float;
  __device__ static float from_float(float x) { return x; }
  __device__ static float to_float(float x) { return x; }
};

// Kernel 05 reads an operand (strides s_mn, s_k; `bytes` per element) with TMA where it lies when
// its base and leading dimension are 16-byte aligned and, for 32-bit (tf32) elements, it is
// K-major (tf32 wgmma reads shared tiles K-major only) or it is A (hopper_reads_through_registers);
// otherwise it packs it first. The built-in choice of gemm_abi.cu asks the same questions.
inline bool hopper_reads_directly(const void* ptr, int64_t s_mn, int64_t s_k, int64_t bytes) {
  const bool k_major = s_k == 1;
  return tma_addressable(reinterpret_cast<uintptr_t>(ptr), (k_major ? s_mn : s_k) * bytes) &&
         (k_major || bytes == 2);
}
// A tf32 A operand that is MN-major and TMA-addressable: kernel 05 reads it where it lies and
// takes it to wgmma through registers (WgmmaTmaCfg::kARegs).
inline bool hopper_reads_through_registers(const void* ptr, int64_t s_mn, int64_t s_k, int64_t bytes) {
  return bytes == 4 && s_k != 1 && tma_addressable(reinterpret_cast<uintptr_t>(ptr), s_k * bytes);
}
// Whether kernel 05 reads an operand where it lies, in A's role (`as_a`: through registers if it
// must) or in B's; otherwise it packs it first.
inline bool hopper_reads(const void* ptr, int64_t s_mn, int64_t s_k, int64_t bytes, bool as_a) {
  return hopper_reads_directly(ptr, s_mn, s_k, bytes) || (as_a && hopper_reads_through_registers(ptr, s_mn, s_k, bytes));
}

// Its schedule on `clusters` resident clusters (stream_k.hpp): whole cluster tiles, or stream-K
// where whole tiles would leave the last wave ragged; never more clusters than tiles.
// TESSERA_GEMM_SCHEDULE=tiles in the environment keeps whole tiles always (to measure what
// split-K and stream-K give on a shape).
inline bool whole_tiles_only() {
  static const bool on = [] {
    const char* v = std::getenv("TESSERA_GEMM_SCHEDULE");
    return v && std::strcmp(v, "tiles") == 0;
  }();
  return on;
}
// `short_full` (HopperTile::short_full): the short tile (64 rows, one consumer warpgroup, a ring
// of 13 stages) with more than half of its 64 columns inside N. It splits K only where its whole tiles would keep at most
// a quarter of the clusters busy: its skinny problems stream the big operand, and half the
// clusters over all of K do that faster than all of them with the split's partial sums to add.
// Measured on the H100 (f16 and bf16, ratio to cuBLAS, split in two / whole, NN TN NT, two
// rounds): 64 x 4096 x 4096 0.80-0.82 / 0.87-0.91, 4096 x 64 x 4096 0.82-0.87 / 0.92-0.96, 64 x
// 4096 x 8192 0.92-0.94 / 0.97-1.00, 48 and 4096 x 48 x 4096 0.81-0.89 / 0.81-0.92 (0.841 / 0.860
// on average); with half or fewer columns inside, 32 and 24 x 4096 x 4096 0.76-0.82 / 0.76-0.82
// (the same on average) and 0.75-0.82 / 0.77-0.79: split kept.
inline StreamK hopper_work(int64_t tiles_m, int64_t tiles_n, int64_t k_tiles, int64_t clusters, bool short_full = false) {
  const int64_t tiles = ceil_div(tiles_m, Hopper05::kCluster) * tiles_n;
  const bool whole = whole_tiles_only() || (short_full && 4 * tiles > clusters);
  StreamK w = whole ? StreamK{tiles, k_tiles, clusters, tiles} : make_stream_k(tiles, k_tiles, clusters);
  if (!w.streams()) w.clusters = min64(tiles, clusters);
  return w;
}
// Stream-K's scratch: a flag and a slot of partial sums (bn / 2 per thread) per consumer
// warpgroup of the grid (2 a CTA; 1 on the short tile).
struct HopperPartials {
  int64_t slots, values;
  HopperPartials(int64_t clusters, int64_t bn, int64_t consumers)
      : slots(clusters * Hopper05::kCluster * consumers), values(128 * bn / 2) {}
  size_t flag_bytes() const { return size_t(ceil_div(slots * 4, int64_t(256)) * 256); }
  size_t bytes() const { return flag_bytes() + size_t(slots) * size_t(values) * 4; }
};

// Kernel 05 stores C through TMA (16-bit C, beta = 0) when the pointer and the columns are
// 16-byte aligned and m is a multiple of 8 rows.
// NOTE: a TMA store clips a box at the tensor map's bounds in 16-byte units of the inner
// dimension, not element by element: measured on the H100 (tests/device/gemm_guards.cu),
// m = 5, ldc = 8 wrote rows 5..7 of every column, up to the next multiple of 8 rows. Those rows
// between m and ldc belong to the caller; otherwise the epilogue stores through the predicated
// path.
inline bool hopper_stores_by_tma(int64_t bytes, float beta, int64_t m, const void* c, int64_t ldc) {
  return bytes == 2 && beta == 0.0f && m * bytes % 16 == 0 &&
         tma_addressable(reinterpret_cast<uintptr_t>(c), ldc * bytes);
}

// Kernel 04 reads an operand with cp.async where it lies when its base and leading dimension are
// 16-byte aligned; otherwise it packs it first.
inline bool aligned16(const void* ptr, int64_t s_mn, int64_t s_k, int64_t elem_bytes) {
  const int64_t ld = s_mn == 1 ? s_k : s_mn;
  return reinterpret_cast<uintptr_t>(ptr) % 16 == 0 && (ld * elem_bytes) % 16 == 0;
}

// ---------------------------------------------------------------------------------------------
// Operands a kernel cannot read where they are (04: not 16-byte aligned; 05: not addressable by
// TMA, or MN-major tf32 in B's role) are first packed K-major into a scratch buffer: dst(r, k) = src(r, k)
// for a (rows, K) operand with strides (s_r, s_k), leading dimension ld. An MN-major source
// (s_r == 1) goes through 32 x 33 shared-memory tiles so that the reads (down the rows) and the
// writes (along K) are both coalesced; any other source is copied along K. With kRoundTf32 the
// fp32 values are rounded to tf32 (cvt.rna) on the way.
template <class Bits, bool kRoundTf32>
__global__ void __launch_bounds__(256) pack_k_major(Bits* dst, int64_t ld, const Bits* src,
                                                    int64_t s_r, int64_t s_k, int64_t rows, int64_t k) {
  auto out = [](Bits x) -> Bits {
    if constexpr (kRoundTf32) return ptx::to_tf32(__uint_as_float(x));
    else return x;
  };
  if (s_r != 1) {
    const int64_t total = rows * k, step = int64_t(gridDim.x) * gridDim.y * 256;
    for (int64_t i = (int64_t(blockIdx.y) * gridDim.x + blockIdx.x) * 256 + threadIdx.y * 32 + threadIdx.x;
         i < total; i += step) {
      const int64_t r = i / k, kk = i % k;
      dst[r * ld + kk] = out(src[r * s_r + kk * s_k]);
    }
    return;
  }
  __shared__ Bits tile[32][33];  // [k][row], padded: the transposed reads hit 32 banks
  for (int64_t r0 = int64_t(blockIdx.x) * 32; r0 < rows; r0 += int64_t(gridDim.x) * 32)
    for (int64_t k0 = int64_t(blockIdx.y) * 32; k0 < k; k0 += int64_t(gridDim.y) * 32) {
      for (int j = threadIdx.y; j < 32; j += 8)
        if (r0 + threadIdx.x < rows && k0 + j < k) tile[j][threadIdx.x] = src[r0 + threadIdx.x + (k0 + j) * s_k];
      __syncthreads();
      for (int j = threadIdx.y; j < 32; j += 8)
        if (r0 + j < rows && k0 + threadIdx.x < k) dst[(r0 + j) * ld + k0 + threadIdx.x] = out(tile[threadIdx.x][j]);
      __syncthreads();
    }
}

// The bytes of one packed operand: `rows` rows of K rounded up to 16 bytes, in a 256-byte piece.
inline size_t packed_bytes(int64_t rows, int64_t k, int64_t elem_bytes) {
  const int64_t vec = 16 / elem_bytes;
  return size_t(ceil_div(rows * (ceil_div(k, vec) * vec) * elem_bytes, int64_t(256)) * 256);
}

// ---------------------------------------------------------------------------------------------
// Split-K through the workspace (03, 06): split z of the K range writes its fp32 partial sums of
// the rows x cols result, column-major, to partial[z * rows * cols + r + c * rows]; a second kernel
// then forms C(r, c) = alpha * (the splits' sums added in split order) + beta * C(r, c), C at
// out[r * c_sr + c * c_sc] (beta = 0 reads no C). A fixed order: the same bits on every run.
template <class Out>
__global__ void __launch_bounds__(256) add_splits(typename Out::T* out, int64_t c_sr, int64_t c_sc,
                                                  const float* partial, int64_t splits, int64_t rows,
                                                  int64_t cols, float alpha, float beta) {
  const int64_t total = rows * cols, step = int64_t(gridDim.x) * 256;
  for (int64_t i = int64_t(blockIdx.x) * 256 + threadIdx.x; i < total; i += step) {
    float v = 0.0f;
    for (int64_t z = 0; z < splits; ++z) v += partial[z * total + i];
    auto* c = out + (i % rows) * c_sr + (i / rows) * c_sc;
    *c = Out::from_float(beta == 0.0f ? alpha * v : alpha * v + beta * Out::to_float(*c));
  }
}
template <class Out>
cudaError_t launch_add_splits(typename Out::T* out, int64_t c_sr, int64_t c_sc, const float* partial,
                              int64_t splits, int64_t rows, int64_t cols, float alpha, float beta,
                              cudaStream_t stream) {
  const unsigned blocks = unsigned(min64(ceil_div(rows * cols, int64_t(256)), 65536));
  add_splits<Out><<<blocks, 256, 0, stream>>>(out, c_sr, c_sc, partial, splits, rows, cols, alpha, beta);
  return cudaGetLastError();
}
// Kernel 03's instantiation, compiled once in scratch.cu (03's translation unit keeps only its
// GEMM kernels, which tests/cuda/check_twins.py pairs with the hand-indexed twin's).
cudaError_t add_splits_f32(float* out, int64_t c_sr, int64_t c_sc, const float* partial, int64_t splits,
                           int64_t rows, int64_t cols, float alpha, float beta, cudaStream_t stream);

// Kernel 03's split of K (make_simt_split, stream_k.hpp) for the GPU's `resident` CTA slots;
// TESSERA_GEMM_SCHEDULE=tiles keeps K whole (as for 05).
inline SimtSplit simt_split(int64_t tiles, int64_t k_tiles, int64_t resident) {
  return make_simt_split(tiles, k_tiles, whole_tiles_only() ? 0 : resident);
}

// The library's stream-ordered memory pool on the current device, created on first use. It keeps
// what it has allocated (release threshold: never), so after the first calls a Scratch is served
// from memory the pool already holds, without an allocation by the driver; stream order keeps a
// piece alive for the launches that use it. nullptr when it cannot be made (then the device's
// default pool serves).
// (Defined in scratch.cu: kernel translation units do not compile <mutex>.)
cudaMemPool_t library_pool();

// Memory for packed operands and stream-K's partial sums: pieces of the caller's workspace when
// GemmArgs has one (never an allocation; the ABI checked its size first), else stream-ordered
// pieces of library_pool() freed on `stream` when the Scratch goes out of scope (after the GEMM's
// launch: stream order keeps them alive).
class Scratch {
 public:
  Scratch(GemmArgs const& p, cudaStream_t stream)
      : next_(static_cast<char*>(p.workspace)), left_(p.workspace_bytes), stream_(stream) {}
  Scratch(Scratch const&) = delete;
  Scratch& operator=(Scratch const&) = delete;
  ~Scratch() {
    for (int i = 0; i < owned_; ++i) cudaFreeAsync(pieces_[i], stream_);
  }
  cudaError_t get(void** piece, size_t bytes) {
    if (next_) {
      if (bytes > left_) return cudaErrorInvalidValue;  // (the ABI's size check prevents this)
      *piece = next_, next_ += bytes, left_ -= bytes;
      return cudaSuccess;
    }
    cudaMemPool_t pool = library_pool();
    const cudaError_t e = pool ? cudaMallocFromPoolAsync(piece, bytes, pool, stream_) : cudaMallocAsync(piece, bytes, stream_);
    if (e == cudaSuccess) pieces_[owned_++] = *piece;
    return e;
  }
  cudaStream_t stream() const { return stream_; }

 private:
  char* next_;
  size_t left_;
  cudaStream_t stream_;
  void* pieces_[3] = {};  // packed A, packed B, stream-K partial sums
  int owned_ = 0;
};

// Packs the operand into a piece of `scratch`; returns the piece and its leading dimension (K
// rounded up to 16 bytes) in ld.
template <class Bits, bool kRoundTf32 = false>
cudaError_t pack_operand(Scratch& scratch, void** packed, int64_t* ld, const void* src, int64_t s_r,
                         int64_t s_k, int64_t rows, int64_t k) {
  constexpr int64_t kVec = 16 / int64_t(sizeof(Bits));
  *ld = ceil_div(k, kVec) * kVec;
  cudaError_t e = scratch.get(packed, packed_bytes(rows, k, sizeof(Bits)));
  if (e != cudaSuccess) return e;
  const dim3 grid(unsigned(min64(ceil_div(rows, 32), 65535)), unsigned(min64(ceil_div(k, 32), 65535)));
  pack_k_major<Bits, kRoundTf32><<<grid, dim3(32, 8), 0, scratch.stream()>>>(
      static_cast<Bits*>(*packed), *ld, static_cast<const Bits*>(src), s_r, s_k, rows, k);
  return cudaGetLastError();
}
#endif

}  // namespace tessera::ladder
