// tools/atom_names.hpp -- the atom catalog (tessera/atom/catalog.hpp) by name, for the CLI.
#pragma once

#include <optional>
#include <string>
#include <tessera.hpp>
#include <tessera/atom/catalog.hpp>
#include <vector>

namespace tessera::tools {

// Every catalog name of the MMA or copy atoms, in table order.
std::vector<std::string> const& catalog_mma_names();
std::vector<std::string> const& catalog_copy_names();

// The catalog atom of a name in any spelling catalog::canonical_name accepts; its `name` points at
// storage that lives as long as the program. nullopt for an unknown name.
std::optional<MmaAtom> catalog_mma_atom(std::string const& name);
std::optional<CopyAtom> catalog_copy_atom(std::string const& name, int64_t elem_bits);

// Edit distance (insertions, deletions, substitutions), for "did you mean" (verbs, atoms).
size_t edit_distance(std::string const& a, std::string const& b);

// "unknown MMA atom 'X'; close names: A, B, C (tessera atoms lists all N)".
std::string unknown_atom_message(std::string const& kind, std::string const& name,
                                 std::vector<std::string> const& known);

// The element size of an operand of an MMA atom named `atom` (C, A, B), from the catalog's types:
// 0 when the atom is not in the catalog or its type is not a whole number of bytes.
int64_t mma_operand_bits(std::string const& atom, Operand op);

}  // namespace tessera::tools
