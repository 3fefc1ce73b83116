// kernels/gemm/stream_k.hpp -- the ladder's work below whole tiles: tessera/stream_k.hpp.
#pragma once

#include <tessera/stream_k.hpp>

#include "grouped_order.hpp"

namespace tessera::ladder {
using tessera::Segment;
using tessera::Walk;
using tessera::StreamK;
using tessera::kRaggedLimit;
using tessera::kMinIterations;
using tessera::kMinSplitKTiles;
using tessera::make_stream_k;
using tessera::SimtSplit;
using tessera::make_simt_split;
#if defined(__CUDACC__)
using tessera::PartialSums;
#endif
}  // namespace tessera::ladder
