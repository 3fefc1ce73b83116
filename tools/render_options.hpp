// tools/render_options.hpp -- the TiledMMA options shared by `explain`, `analyze`, `render` and
// `codegen`: --preset, or --atom/--atom-layout/--perm/--tile (never both: a preset fixes them all).
#pragma once

#include <CLI/CLI.hpp>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "mma_cli.hpp"

namespace tessera::tools {

struct MmaArgs {
  std::string preset, atom = "UniversalFMA", atom_layout, permutation = "none";
  std::vector<int64_t> tile;
  CLI::App* cmd = nullptr;  // to tell the flags given from their defaults
  bool runtime = false;     // --runtime: the typed layouts' bare integers are run-time
  bool given() const { return !preset.empty() || !atom_layout.empty(); }
};

inline void add_mma_options(CLI::App* cmd, MmaArgs& a) {
  a.cmd = cmd;
  cmd->add_option("--preset", a.preset,
                  "step1, step4, hopper or attention: the TiledMMAs of the step 1 kernel (scalar "
                  "FMA, 256 threads), the step 4 kernel (mma.sync m16n8k16, 128 threads), kernel "
                  "05 (wgmma m64n256k16, two warpgroups) and the attention kernels' S = Q K^T "
                  "(with O += P V, S's row reductions and P as P V's A: explain, render)");
  cmd->add_option("--atom", a.atom,
                  "MMA atom: any of tessera atoms by CuTe's name, e.g. UniversalFMA, "
                  "SM80_16x8x16_F32F16F16F32_TN, "
                  "SM80_8x8x4_F64F64F64F64_TN, SM90_64x128x16_F16F16F16_SS");
  cmd->add_option("--atom-layout", a.atom_layout,
                  "atoms over (M,N,K), e.g. \"(16,16,1):(16,1,0)\" or (2,2,1)");
  cmd->add_option("--perm", a.permutation,
                  "permutation per mode, e.g. \"((16,4):(4,1),(16,4):(4,1),_)\"");
  cmd->add_option("--tile", a.tile, "CTA tile M N K")->expected(3);
}

// The options as they would be typed, for the header comment of generated files.
inline std::string mma_flags(MmaArgs const& a) {
  if (!a.preset.empty()) return "--preset " + a.preset;
  std::string s = "--atom " + a.atom;
  if (!a.atom_layout.empty()) s += " --atom-layout \"" + a.atom_layout + "\"";
  if (a.permutation != "none") s += " --perm \"" + a.permutation + "\"";
  if (!a.tile.empty()) s += " --tile";
  for (int64_t t : a.tile) s += " " + std::to_string(t);
  return s;
}

// The configuration the options name. Throws std::invalid_argument for a bad combination.
inline MmaConfig mma_from_args(MmaArgs const& a, std::string const& verb) {
  if (!a.preset.empty()) {
    // A preset fixes the atom, its layout, the permutation and the tile: a flag beside it would be
    // ignored.
    std::string extra;
    for (const char* flag : {"--atom", "--atom-layout", "--perm", "--tile"})
      if (a.cmd && a.cmd->count(flag)) extra += (extra.empty() ? "" : ", ") + std::string(flag);
    if (!extra.empty())
      throw std::invalid_argument(
          verb + ": --preset " + a.preset +
          " fixes the atom, atom layout, permutation and "
          "tile; give --preset or --atom/--atom-layout/--perm/--tile, not both (given: " +
          extra + ")");
    return mma_preset(a.preset);
  }
  // --atom alone is one atom, as CuTe's TiledMMA of an atom: atom layout (1,1,1) and the
  // TiledMMA's own tile where --atom-layout or --tile is not given.
  const bool atom_given = a.cmd && a.cmd->count("--atom");
  if (!atom_given && a.atom_layout.empty())
    throw std::invalid_argument(verb +
                                " needs --preset, --atom, or --atom-layout (and --tile M N K)");
  const std::vector<int64_t> tile = a.tile.size() == 3 ? a.tile : std::vector<int64_t>{0, 0, 0};
  return mma_config(a.atom, a.atom_layout.empty() ? "(1,1,1)" : a.atom_layout, a.permutation,
                    tile[0], tile[1], tile[2], a.runtime);
}

}  // namespace tessera::tools
