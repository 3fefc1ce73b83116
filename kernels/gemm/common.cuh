// kernels/gemm/common.cuh -- what every kernel of the GEMM ladder includes.
//
// The split between compile time and run time:
//   - static: every tile, thread partition and fragment is a tessera Layout computed once, at
//     compile time, in a config type's `static constexpr` members, against the *compact*
//     column-major layout of the tile, e.g. C's tile (128,128):(1,128);
//   - dynamic: the problem sizes, the leading dimensions and the transposes. A global element is
//     reached through its tile coordinate (m, n): address = base + m * stride_m + n * stride_n.
//
// The bridge is the coordinate layout (tessera/coord_layout.hpp): a partition of the compact
// tile, lowered so that it sends a thread or a value to its tile coordinate instead of an offset,
//
//   the step 1 kernel, C (128,128):(1,128): thread 17's fragment
//   (1,(4,2),(4,2)):(0,(1,64),(128,8192)) at offset 516 -> coordinate (4, 4), fragment
//   (1,(4,2),(4,2)):(0,((1,0),(64,0)),((0,1),(0,64)))
//
// which kernels 01-04 use through tessera/device_tensor.hpp's views (local_tile, partition_*,
// identity tensors) and kernel 05's epilogue directly (WgmmaTmaCfg::kThrCrdC, kFrgCrdC). A
// Layout or an IntTuple evaluated at run time in device code does not fold: its results go to
// local memory.
//
// The parts, one concept each: args.hpp (the problem), plan.hpp (the plan the launchers run),
// grouped_order.hpp (the tile order), stream_k.hpp (kernel 05's work), static_checks.hpp; with
// CUDA: scratch.cuh (memory), pack.cuh (packing operands), split_sums.cuh (split-K's second pass).
#pragma once

#include <cuda_runtime.h>

#include <cstdint>
#include <type_traits>
// The library without its std::string conveniences (<tessera.hpp> adds tessera/strings.hpp):
// <string> cost the host pass of each kernel file ~0.4 s.
#include <tessera/atom/smem.hpp>
#include <tessera/coord_layout.hpp>
#include <tessera/tiled_copy.hpp>
#include <tessera/tiled_mma.hpp>

#include "args.hpp"
#include "grouped_order.hpp"
#include "plan.hpp"
#include "static_checks.hpp"
#include "stream_k.hpp"
#if defined(__CUDACC__)
#include "pack.cuh"
#include "scratch.cuh"
#include "split_sums.cuh"
#endif

namespace tessera::ladder {

// A launcher per kernel: launches on `stream`, returns the launch's error.
using Launcher = cudaError_t (*)(GemmArgs const&, cudaStream_t);

#if defined(__CUDACC__)
// fp32 output (kernels 01-03; elem.cuh).
struct F32Out {
  using T = float;
  __device__ static float from_float(float x) { return x; }
  __device__ static float to_float(float x) { return x; }
};
#endif

}  // namespace tessera::ladder
