// tessera/device_tensor.hpp -- the kernel vocabulary in one include: tensor views (global,
// shared, identity), register fragments, thread slices of a TiledMMA / TiledCopy, and the
// algorithms (copy, gemm, the epilogue). Each concept lives in its own header.
#pragma once

#include "tensor_view.hpp"
#include "fragment.hpp"
#include "fragment_views.hpp"
#include "thr_mma.hpp"
#include "thr_copy.hpp"
#include "algorithm/copy.hpp"
#include "algorithm/gemm.hpp"
#include "algorithm/epilogue.hpp"
#include "algorithm/reduce.hpp"
#include "algorithm/cta_reduce.hpp"
