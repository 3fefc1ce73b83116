// tools/trace.hpp -- the thread trace: one thread of one CTA through a tiled GEMM on a real
// problem, from the grid to the epilogue. One evaluator for the CLI (`tessera trace`), Python
// and the page; every number is the library's algebra (local_tile, partition_*, the identity
// tensor, the access analysis), nothing is computed twice.
//
// Worked example (the step 1 kernel: UniversalFMA, 16x16 threads, permutation (16,4):(4,1) in M
// and N, CTA tile 128x128x8; M=256, N=128, K=32, A (256,32):(1,256), B (128,32):(1,128),
// C (256,128):(128,1); CTA (0,0), thread 0):
//   grid     ceil(256/128) x ceil(128/128) = 2 x 1 CTAs
//   gA       local_tile(mA, (128,128,8), (0,0,_), proj (1,X,1)) = (128,8,4):(1,256,2048)
//   tCgA     partition_A(gA(_,_,0)) = (1,(4,2),8):(0,(1,64),256)
//   tCgC     partition_C(gC) = (1,(4,2),(4,2)):(0,(128,8192),(1,64))
//   K-loop   4 k_tiles x 8 k_blocks; per k_block size(tCrC modes 1,2) = 64 FMAs, 2,048 in all
//   predicates  tCpC(i) = elem_less(tCcC(i), (M - 128*m, N - 128*n)), none masked here.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "mma_cli.hpp"

namespace tessera::tools {

// An optional TiledCopy of A or B from global to shared memory (tAgA -> tAsA) and the shared
// tile's layout.
struct TraceCopy {
  bool given = false;
  TiledCopy copy;
  Layout smem;  // (BM,BK) or (BN,BK)
};

// What to trace: a TiledMMA and its CTA tile, the problem and its operands' layouts (run-time
// strides), the CTA and the thread; optionally the copies of A and B into shared memory.
struct TraceInput {
  TraceCopy copy[2];  // A, B
  MmaConfig cfg;
  int64_t problem[3] = {0, 0, 0};  // M, N, K
  Layout layout[3];                // the problem's tensors, indexed by Operand: C, A, B
  int64_t cta[2] = {0, 0};         // the CTA's (m, n) in the grid
  int64_t thread = 0;
  bool cute = false;  // print the layouts as CuTe does: static _4, run-time 4 (--cute)
};

// An operand's layout from its text: a layout "(256,32):(1,256)" (read with run-time integers),
// or the letter of its contiguous mode: A "M"|"K", B "N"|"K", C "M"|"N" (empty: A M, B N, C N).
// Throws std::invalid_argument where the layout's shape is not the operand's extents.
Layout operand_layout(std::string const& text, Operand op, int64_t const problem[3]);

// The problem as the front ends take it (`--problem M N K`, `--layout-A/B/C`, `--cta m n`,
// `--thread t`; the page's state): one parser for trace, explain, render, analyze and codegen.
struct ProblemWords {
  std::vector<int64_t> problem;  // M N K; empty: no problem
  std::vector<int64_t> cta = {0, 0};
  std::string layout[3];  // C, A, B: a layout or a major letter (operand_layout)
  int64_t thread = 0;
  bool given() const { return !problem.empty(); }
};

// The trace's input for a TiledMMA and the words, checked (check_trace); errors name `verb`.
TraceInput trace_input(MmaConfig const& cfg, ProblemWords const& w, std::string const& verb);

// Makes the configuration's operand tensors the CTA's tiles of the problem at k_tile 0, on the
// problem's strides (gC, gA(_,_,0), gB(_,_,0)); returns their offsets into the problem's tensors,
// indexed by Operand (C, A, B).
std::vector<int64_t> use_problem_tiles(TraceInput const& in, MmaConfig& cfg);

// A TiledCopy from the CLI's words: a copy atom ("cp_async:16", "universal:128", a catalog name),
// its thread and value layouts, and the shared tile's layout (empty: the compact (BM,BK) or
// (BN,BK) tile, column-major). Throws naming the rule where the copy does not tile the tile.
TraceCopy trace_copy(MmaConfig const& cfg, Operand op, std::string const& atom,
                     std::string const& thr, std::string const& val, std::string const& smem);

// Checks the input (the CTA inside the grid, the thread inside the TiledMMA, the layouts' shapes
// the problem's extents); throws std::invalid_argument naming the rule.
void check_trace(TraceInput const& in);

// One element of a thread's partition of an operand at one k_tile (C: the epilogue's tile).
struct TraceElement {
  int64_t coord[2];  // in the problem: (m,k) for A, (n,k) for B, (m,n) for C
  int64_t offset;    // into the problem tensor: the partition's offset plus its layout
  bool valid;        // the predicate: elem_less(tile coordinate, residue)
};
std::vector<TraceElement> trace_elements(TraceInput const& in, Operand op, int64_t k_tile);

// The CTA's tile of an operand at one k_tile, on the problem's strides: gA(_,_,k), gB(_,_,k), gC
// (local_tile with the operand's projection, then the k-th tile).
View operand_tile(TraceInput const& in, Operand op, int64_t k_tile);

// The whole trace as JSON (the fields the CLI prints, Python returns and the page draws).
nlohmann::json trace_json(TraceInput const& in);
// ... and as text, in the order of the kernel.
std::string trace_text(nlohmann::json const& trace);

// The trace as the page draws it: trace_json, its text, and every operand's elements of the
// thread at every k_tile ("elements": {"A": [[[coord0, coord1, valid], ...] per k_tile], ...}).
nlohmann::json trace_page_json(TraceInput const& in);

// local_tile from CuTe's spelling: tensor "(256,32):(1,256)", tiler "(128,128,8)", coordinate
// "(0,0,_)" (`_` keeps a mode's tiles) and projection "(1,X,1)" (`X` drops a tiler mode; empty:
// keep all). Returns the offset and the layout. With `runtime` the bare integers of the tensor and
// the tiler are run-time (CuTe's int; _4 stays static), as the CLI's --runtime.
View local_tile_words(std::string const& tensor, std::string const& tiler,
                      std::string const& coord, std::string const& proj, bool runtime = false);

}  // namespace tessera::tools
