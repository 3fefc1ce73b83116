// python/src/tiled.hpp -- the Python-side values of atoms, TiledMMAs and TiledCopies.
//
// A Python TiledMMA is the CLI's MmaConfig (tools/mma_cli.hpp): the library's TiledMMA plus the CTA
// tile and the operands' tensors that explain, analyze and the page use. A Python TiledCopy keeps
// the spelling `tessera render --copy` takes when it was made from thread and value layouts, so
// its page is the CLI's page.
#pragma once

#include <string>

#include "mma_cli.hpp"
#include "render.hpp"

namespace tessera::py {

struct PyMmaAtom {
  MmaAtom atom;
  std::string key;  // the name mma_atom_by_name found it by
};

struct PyCopyAtom {
  CopyAtom atom;
  std::string spec;  // "cp_async:16", "universal:128", "ldmatrix:x4t"
};

struct PyTiledCopy {
  TiledCopy copy;
  tools::CopySpec spec;  // thr/val empty when made from a TiledMMA (make_tiled_copy_A/B/C)
};

inline Operand operand_of(std::string const& s) {
  if (s == "C" || s == "c") return Operand::kC;
  if (s == "A" || s == "a") return Operand::kA;
  if (s == "B" || s == "b") return Operand::kB;
  throw std::invalid_argument("operand '" + s + "': expected \"C\", \"A\" or \"B\"");
}

}  // namespace tessera::py
