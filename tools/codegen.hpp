// tools/codegen.hpp -- plain CUDA index code for a TiledMMA thread partition (the step 1 kernel's
// form).
//
// The partition of an operand's tile is computed twice by the library, on the tensors
// (R,C):(1,0) and (R,C):(0,1): their values are the row and the column of every element, so each
// is offset(thread) + fragment(i), both plain layouts. The emitted code is those layouts' shapes
// and strides written out as integer arithmetic (div, mod, multiply, add): no table.
#pragma once

#include <string>

#include "mma_cli.hpp"

namespace tessera::tools {

struct CodegenOptions {
  Operand op = Operand::kC;
  std::string ns = "tessera_gen";  // namespace of the emitted functions
  std::string command;             // the command line, for the header comment
};

// A header valid as CUDA and, through a small __host__/__device__ shim, as host C++17. It defines
// kThreads, kRows, kCols, kFrag and `fragment_coords(tid, row, col)`; when the fragment is a
// product of its rows and its columns (step 1), also `my_rows_cols(tid, my_rows, my_cols)`.
std::string codegen_partition(MmaConfig const& cfg, CodegenOptions const& opt);

// The whole GEMM kernel in plain CUDA for a scalar-FMA TiledMMA (the step 1 kernel's form):
// `gemm(M, N, K, alpha, A, a_sm, a_sk, B, b_sn, b_sk, beta, C, c_sm, c_sn)` with the
// accumulators, the K-loop over k_tiles and k_blocks, the loads of A and B and the stores of C,
// each tested against M, N, K. Throws std::invalid_argument for an atom that is not one scalar
// FMA, or fragments that do not meet as rows x columns.
std::string codegen_kernel(MmaConfig const& cfg, CodegenOptions const& opt);

}  // namespace tessera::tools
