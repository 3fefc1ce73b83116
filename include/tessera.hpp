// tessera.hpp -- the whole header-only library.
#pragma once

#include "tessera/config.hpp"
#include "tessera/int_tuple.hpp"
#include "tessera/layout.hpp"
#include "tessera/algebra.hpp"
#include "tessera/swizzle.hpp"
#include "tessera/layout_ops.hpp"
#include "tessera/notation.hpp"
#include "tessera/strings.hpp"
#include "tessera/tensor.hpp"
#include "tessera/atom/mma.hpp"
#include "tessera/atom/copy.hpp"
#include "tessera/atom/smem.hpp"
#include "tessera/tiled_mma.hpp"
#include "tessera/tiled_copy.hpp"
#include "tessera/analysis.hpp"
