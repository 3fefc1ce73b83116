// tools/mma_cli.hpp -- TiledMMA configurations from strings, for `batch` and `explain`.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <tessera.hpp>
#include <vector>

namespace tessera::tools {

// A TiledMMA and the tensors its operands are partitioned from (C: (M,N), A: (M,K), B: (N,K)).
struct MmaConfig {
  std::string name;
  TiledMMA mma;
  int64_t tile[3] = {0, 0, 0};  // the CTA tile M, N, K
  Layout tensor[3];             // indexed by Operand: C, A, B
  std::string atom_layout_text, permutation_text;
};

// A layout, shape or tuple as tessera's notation, or (cute) as CuTe prints it: static _4,
// run-time 4. The verbs' --cute.
template <class T>
std::string printed(T const& x, bool cute) {
  return cute ? to_cute_string(x) : to_string(x);
}

// The MMA atoms the CLI knows by name (each also has a short lower-case alias in the library).
std::vector<std::string> const& mma_atom_names();
// The copy atoms of `render --copy`, as spelled there.
inline constexpr const char* kCopyAtomSpellings =
    "any copy atom of tessera atoms (e.g. SM75_U16x8_LDSM_T), or cp_async:4|8|16, universal:BITS, "
    "ldmatrix:x1|x2|x4[t]";

// Presets "step1" and "step4" (the step 1 and step 4 kernels' configurations), "hopper" (kernel
// 05) and "attention" (S = Q K^T of the Hopper attention kernel, attention_cli.hpp).
// Throws std::invalid_argument.
MmaConfig mma_preset(std::string const& name);

// A configuration from an atom name, an atom layout ("(16,16,1):(16,1,0)" or a shape "(2,2,1)"),
// a permutation ("none", "(32,32,16)", "((16,4):(4,1),(16,4):(4,1),_)" or the oracle's
// "(M=(16,4):(4,1), N=(16,4):(4,1), K=_)") and the CTA tile (0 0 0: the TiledMMA's tile).
// Tensors default to the tile:
// C row-major (M,N):(N,1), A (M,K):(1,M), B (N,K):(1,N). With `runtime` the bare integers of the
// atom layout and the permutation are run-time (CuTe's int; _4 stays static), as the CLI's
// --runtime.
MmaConfig mma_config(std::string const& atom, std::string const& atom_layout,
                     std::string const& permutation, int64_t m, int64_t n, int64_t k,
                     bool runtime = false);

// The coordinates (in the CTA tile) of every fragment element of every thread: [t][i] = [r, c].
nlohmann::json operand_coords(MmaConfig const& cfg, Operand op);

// A view's values element by element (the offsets of a fragment, or its indices in a compact
// column-major rows x cols tile, where index j is the element (j % rows, j / rows)).
std::vector<int64_t> view_values(View const& v);

// The `batch` answer for a TiledMMA case of the oracle format.
nlohmann::json answer_tiledmma_case(nlohmann::json const& c);

// The derivation of one operand for one thread, as JSON; `cute`: layouts as CuTe prints them.
nlohmann::json explain_json(MmaConfig const& cfg, Operand op, int64_t thread, bool cute = false);
// ... and as text for the terminal.
std::string explain_text(MmaConfig const& cfg, Operand op, int64_t thread, bool cute = false);

}  // namespace tessera::tools
