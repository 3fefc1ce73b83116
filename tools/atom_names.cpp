#include "atom_names.hpp"

#include <algorithm>
#include <set>
#include <sstream>

namespace tessera::tools {
namespace {

// Names handed out as MmaAtom::name / CopyAtom::name: std::set nodes never move.
const char* keep(std::string const& s) {
  static std::set<std::string> names;
  return names.insert(s).first->c_str();
}

std::string lower(std::string s) {
  for (char& c : s) c = char(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

}  // namespace

size_t edit_distance(std::string const& a, std::string const& b) {
  std::vector<size_t> row(b.size() + 1);
  for (size_t j = 0; j <= b.size(); ++j) row[j] = j;
  for (size_t i = 1; i <= a.size(); ++i) {
    size_t diag = row[0];
    row[0] = i;
    for (size_t j = 1; j <= b.size(); ++j) {
      size_t up = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diag + (a[i - 1] == b[j - 1] ? 0 : 1)});
      diag = up;
    }
  }
  return row[b.size()];
}

std::vector<std::string> const& catalog_mma_names() {
  static const std::vector<std::string> names = [] {
    std::vector<std::string> v;
    for (int i = 0; i < catalog::kMmaCount; ++i)
      v.push_back(catalog::mma_name(catalog::mma_ref(i)).c_str());
    return v;
  }();
  return names;
}

std::vector<std::string> const& catalog_copy_names() {
  static const std::vector<std::string> names = [] {
    std::vector<std::string> v;
    for (int i = 0; i < catalog::kCopyCount; ++i)
      v.push_back(catalog::copy_name(catalog::copy_ref(i)).c_str());
    return v;
  }();
  return names;
}

std::optional<MmaAtom> catalog_mma_atom(std::string const& name) {
  catalog::AtomRef r = catalog::find_mma(name.c_str());
  if (!r.found()) return std::nullopt;
  MmaAtom a = catalog::mma_atom(r);
  a.name = keep(catalog::mma_name(r).c_str());
  return a;
}

std::optional<CopyAtom> catalog_copy_atom(std::string const& name, int64_t elem_bits) {
  catalog::AtomRef r = catalog::find_copy(name.c_str());
  if (!r.found()) return std::nullopt;
  CopyAtom a = catalog::copy_atom(r, elem_bits);
  a.name = keep(catalog::copy_name(r).c_str());
  return a;
}

std::string unknown_atom_message(std::string const& kind, std::string const& name,
                                 std::vector<std::string> const& known) {
  // The five closest names (ignoring case): those that start with the canonical spelling (a
  // prefix such as SM80_8x8x4_F64) first, then by edit distance.
  std::string want = lower(catalog::canonical_name(name.c_str()).c_str());
  std::vector<std::pair<size_t, std::string>> ranked;
  for (auto const& k : known) {
    const std::string lk = lower(k);
    const bool prefix = lk.rfind(want, 0) == 0;
    ranked.push_back({prefix ? lk.size() - want.size() : 1000 + edit_distance(want, lk), k});
  }
  std::stable_sort(ranked.begin(), ranked.end(),
                   [](auto const& x, auto const& y) { return x.first < y.first; });
  std::string close;
  for (size_t i = 0; i < ranked.size() && i < 5; ++i) close += (i ? ", " : "") + ranked[i].second;
  return "unknown " + kind + " atom '" + name + "'; close names: " + close +
         " (tessera atoms lists all " + std::to_string(known.size()) + ")";
}

int64_t mma_operand_bits(std::string const& atom, Operand op) {
  catalog::AtomRef r = catalog::find_mma(atom.c_str());
  if (!r.found()) return 0;
  std::istringstream types(catalog::mma_types(r).c_str());
  std::string t[4];
  for (auto& x : t) types >> x;
  std::string const& mine = op == Operand::kC ? t[0] : op == Operand::kA ? t[1] : t[2];
  // The letters name the kind, the digits the bits (f16, bf16, tf32 -> 32, c64 -> 128 complex).
  if (mine == "tf32") return 32;
  if (mine == "c64" || mine == "gc64") return 128;
  if (mine == "e4m3" || mine == "e5m2") return 8;
  size_t digits = mine.find_first_of("0123456789");
  if (digits == std::string::npos) return 0;
  int64_t bits = std::stoll(mine.substr(digits));
  return bits >= 8 ? bits : 0;
}

}  // namespace tessera::tools
