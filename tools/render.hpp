// tools/render.hpp -- the data of `tessera render`'s pages, computed by the library, and the page.
//
// Every number the page shows is computed here and embedded as JSON; the page's script only
// draws and handles events. A "grid" is one picture: a tile of rows x cols cells (row-major cell
// index row*cols + col) with, per cell, the thread that owns it (the lowest one when several
// do), its value index in that thread's fragment and its offset in the tensor; per thread, its
// cells in fragment order and its fragment "offset + layout".
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "mma_cli.hpp"

namespace tessera::tools {

// A layout's values as a grid (rank 1: one row; rank 2: mode 0 down, mode 1 across; higher
// ranks folded to (mode 0, (mode 1, ...)) colexicographically, as CuTe flattens trailing modes).
nlohmann::json layout_page_data(SwizzledLayout const& l);  // a plain layout: the identity swizzle

// The memory-access overlay (analysis.hpp) of every operand grid: each picture's partition is
// analyzed twice, as global memory (the plain tensor: 32-byte sector per element, sectors and
// lines per warp access) and as shared memory (the tensor swizzled by `swizzle`: bank per
// element, wavefronts and bank conflicts), with per-warp, per-instruction numbers.
struct AccessOptions {
  std::string space = "global";   // the memory the page's verdict is about when no overlay is on
  std::string overlay = "owner";  // the overlay shown when the page opens: owner, bank or sector
  int64_t elem_bits = 0;          // 0: 16 for f16/bf16 MMA A/B, else 32 (copies: --dtype)
  std::string swizzle;            // the shared-memory picture's swizzle, e.g. "Sw<3,3,3>"
  std::string access;  // load or store; default: C stores, A/B loads, copy src load, dst store
  int64_t max_vector_bits = 128;  // MMA operands; a copy uses its atom's width
  // wgmma's shared-memory operands (A and B of an SS atom, B of an RS atom): the canonical tile's
  // swizzle mode ("none", "32B", "64B", "128B"; empty: 128B, else the widest the tile takes) and
  // major ("K" or "MN"; empty: K).
  std::string smem_swizzle, smem_major;
};

// A TiledMMA: C, A and B grids, the five explain steps per operand, and one C grid per
// alternative permutation (a per-mode permutation, or one layout used for both M and N). A wgmma
// operand in shared memory also gets "smem": its canonical tile (gmma_smem_tile) for the chosen
// swizzle and major, per cell the tile offset, the swizzled offset and the 4-byte bank, and the
// descriptor (make_gmma_operand) of every wgmma of the k-tile; or "error", the rule the tile
// breaks.
nlohmann::json mma_page_data(MmaConfig const& cfg, std::vector<std::string> const& compare_perms,
                             AccessOptions const& access = {});

// A TiledCopy: the source and destination partitions per thread.
struct CopySpec {
  std::string atom = "cp_async:16";  // cp_async:BYTES, universal:BITS, ldmatrix:x1|x2|x4[t]
  int64_t elem_bits = 32;
  std::string thr, val, src, dst;  // layouts; src/dst default to the tile, column-major
};
nlohmann::json copy_page_data(CopySpec const& spec, AccessOptions const& access = {});
// A copy atom by its CopySpec spelling ("cp_async:16", "universal:128", "ldmatrix:x4t").
CopyAtom copy_atom_of(std::string const& spec, int64_t elem_bits);

// A page's state, the one JSON object the page's inputs, its URL fragment and `tessera render`'s
// flags all describe, and the page data it names. "kind" is one of
//   layout: "layout" (a layout, a shape or a swizzled layout); the data adds per cell "bank"
//           (smem_bank of the offset at "elem_bits", default 16) and, with a "tiler" ("(2,4)"),
//           "tile" (element_tiles: the tile it assigns each element) and "tiles";
//   op:     "op" (an op of ops.hpp) and "args" (its arguments as typed); the result's picture,
//           the inputs' and results' pictures (op_pictures.hpp), each with per cell "bank";
//   layout and op: "colour", the picture's colouring when the page opens (value, bank, tile);
//   mma:    "preset", or "atom", "atom_layout", "perm", "tile" [M,N,K]; "compare" (permutations);
//   copy:   "atom" (cp_async:16, ...), "elem_bits", "thr", "val", "src", "dst";
// mma and copy also take the access options ("space", "overlay", "swizzle", "elem_bits", "access",
// "max_vector_bits"; mma also "smem_swizzle" and "smem_major") and all kinds "thread" and "warp"
// (selected when the page opens).
// Throws tessera::Error or std::invalid_argument for a bad state, with the rule and the operands.
nlohmann::json page_data(nlohmann::json const& state);

// The self-contained HTML page (no network: styles, script and data inline) for any of the above.
// The library compiled to WebAssembly (tools/wasm, the `playground` target): the module's bytes
// and the loader script that defines TesseraWasm(). Both empty when not built.
struct Playground {
  std::string loader, wasm;
};

// `state` is what the page's inputs start with and `data` its page_data. With the library as
// WebAssembly the inputs are live and window.tessera.batch answers; without it the page shows
// `data` and says how to build the live one.
std::string render_page(nlohmann::json const& state, nlohmann::json const& data,
                        Playground const& wasm);

}  // namespace tessera::tools
