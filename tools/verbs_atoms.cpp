// The atoms verb: the catalog of MMA and copy atoms (tessera/atom/catalog.hpp).
//
//   tessera atoms                    every atom: name, arch, instruction, shape or size, types,
//                                    threads, whether Hopper (sm_90a) runs it
//   tessera atoms --arch sm80 --kind mma
//   tessera atoms --json             the same with every layout
#include <cstdio>
#include <functional>
#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>

#include "atom_names.hpp"
#include "verbs.hpp"

namespace tessera::tools {
namespace {

using nlohmann::json;

struct AtomsArgs {
  std::string arch, kind = "all", grep;
  bool as_json = false;
};

const char* kArches[] = {"any",  "sm50", "sm61", "sm70",  "sm75",
                         "sm80", "sm89", "sm90", "sm100", "sm120"};

// "SM80", "sm_80", "80", "sm90a" -> "sm80" / "sm90"; throws for an architecture without atoms.
std::string arch_arg(std::string a) {
  std::string digits;
  for (char c : a)
    if (c >= '0' && c <= '9') digits += c;
  std::string want = a == "any" ? "any" : "sm" + digits;
  std::string known;
  for (const char* k : kArches) {
    if (want == k) return want;
    known += (known.empty() ? "" : ", ") + std::string(k);
  }
  throw std::invalid_argument("atoms: --arch " + a + " has no atoms (known: " + known + ")");
}

bool contains_ci(std::string const& text, std::string const& part) {
  auto lower = [](std::string s) {
    for (char& c : s) c = char(std::tolower(static_cast<unsigned char>(c)));
    return s;
  };
  return lower(text).find(lower(part)) != std::string::npos;
}

using Keep = std::function<bool(const char* arch, std::string const& name)>;

json mma_rows(Keep const& keep) {
  json mma = json::array();
  for (int i = 0; i < catalog::kMmaCount; ++i) {
    catalog::AtomRef r = catalog::mma_ref(i);
    catalog::MmaRow const& row = catalog::kMmaRows[r.row];
    std::string name = catalog::mma_name(r).c_str();
    if (!keep(row.arch, name)) continue;
    MmaAtom m = catalog::mma_atom(r);
    json j = {{"name", name},
              {"arch", row.arch},
              {"instruction", row.instruction},
              {"mnk", {m.m, m.n, m.k}},
              {"types", catalog::mma_types(r).c_str()},
              {"threads", m.threads()},
              {"runs_on_sm90", catalog::runs_on_sm90(row.arch)},
              {"thr_id", to_string(m.thr_id)},
              {"a", to_string(m.a_tv)},
              {"b", to_string(m.b_tv)},
              {"c", to_string(m.c_tv)}};
    if (row.instruction == std::string("wgmma.mma_async")) {
      j["smem_major"] = row.mn_major ? "K or MN" : "K";
      j["cute_extended_shape"] = catalog::cute_extended_shape(row, m.n);
    }
    mma.push_back(std::move(j));
  }
  return mma;
}

json copy_rows(Keep const& keep) {
  json copy = json::array();
  for (int i = 0; i < catalog::kCopyCount; ++i) {
    catalog::AtomRef r = catalog::copy_ref(i);
    catalog::CopyRow const& row = catalog::kCopyRows[r.row];
    std::string name = catalog::copy_name(r).c_str();
    if (!keep(row.arch, name)) continue;
    CopyAtom c = catalog::copy_atom(r);
    int64_t box = row.box ? catalog::kDefaultBoxBits : 0;
    Layout ref_bits = catalog::layout_of(row.ref, box);
    json j = {{"name", name},
              {"arch", row.arch},
              {"instruction", row.instruction},
              {"threads", c.thr_id.size()},
              {"bits_per_thread", row.box ? json("box") : json(ref_bits[1].size())},
              {"elem_bits", {row.min_elem_bits, row.max_elem_bits}},
              {"runs_on_sm90", catalog::runs_on_sm90(row.arch)},
              {"thr_id", to_string(c.thr_id)},
              {"src_bits", to_string(catalog::layout_of(row.src, box))},
              {"dst_bits", to_string(catalog::layout_of(row.dst, box))},
              {"ref_bits", to_string(ref_bits)},
              {"default_elem_bits", c.elem_bits},
              {"src", to_string(c.src_tv)},
              {"dst", to_string(c.dst_tv)},
              {"ref", to_string(c.ref_tv)}};
    if (row.box) j["box_bits"] = catalog::kDefaultBoxBits;
    copy.push_back(std::move(j));
  }
  return copy;
}

const char* hopper(json const& j) {
  return j["runs_on_sm90"].get<bool>() ? "yes" : "no (picture only)";
}

void print_mma_rows(json const& mma) {
  std::printf("MMA atoms: %zu (C += A B; Hopper: whether sm_90a runs it)\n", mma.size());
  std::printf("  %-40s %-6s %-32s %-11s %-20s %-7s %s\n", "name", "arch", "instruction", "MxNxK",
              "types D A B C", "threads", "Hopper");
  for (auto const& j : mma) {
    std::string mnk = std::to_string(j["mnk"][0].get<int64_t>()) + "x" +
                      std::to_string(j["mnk"][1].get<int64_t>()) + "x" +
                      std::to_string(j["mnk"][2].get<int64_t>());
    std::printf("  %-40s %-6s %-32s %-11s %-20s %-7lld %s\n",
                j["name"].get<std::string>().c_str(), j["arch"].get<std::string>().c_str(),
                j["instruction"].get<std::string>().c_str(), mnk.c_str(),
                j["types"].get<std::string>().c_str(), (long long)j["threads"].get<int64_t>(),
                hopper(j));
  }
}

void print_copy_rows(json const& copy, bool after_mma) {
  std::printf(
      "%scopy atoms: %zu (bits: what one thread moves; elements: the element sizes it moves)\n",
      after_mma ? "\n" : "", copy.size());
  std::printf("  %-42s %-6s %-22s %-10s %-10s %-7s %s\n", "name", "arch", "instruction", "bits",
              "elements", "threads", "Hopper");
  for (auto const& j : copy) {
    std::string bits = j["bits_per_thread"].is_string()
                           ? "box"
                           : std::to_string(j["bits_per_thread"].get<int64_t>());
    int64_t lo = j["elem_bits"][0], hi = j["elem_bits"][1];
    std::string elems =
        lo == hi ? std::to_string(lo) : std::to_string(lo) + "-" + std::to_string(hi);
    std::printf("  %-42s %-6s %-22s %-10s %-10s %-7lld %s\n",
                j["name"].get<std::string>().c_str(), j["arch"].get<std::string>().c_str(),
                j["instruction"].get<std::string>().c_str(), bits.c_str(), elems.c_str(),
                (long long)j["threads"].get<int64_t>(), hopper(j));
  }
}

int run_atoms(AtomsArgs const& a) {
  std::string arch = a.arch.empty() ? "" : arch_arg(a.arch);
  Keep keep = [&](const char* row_arch, std::string const& name) {
    return (arch.empty() || arch == row_arch) && (a.grep.empty() || contains_ci(name, a.grep));
  };
  json mma = a.kind != "copy" ? mma_rows(keep) : json::array();
  json copy = a.kind != "mma" ? copy_rows(keep) : json::array();
  if (a.as_json) {
    std::cout << json{{"mma", mma}, {"copy", copy}}.dump() << '\n';
    return 0;
  }
  // With a filter, a kind that has none is left out unless --kind asked for it.
  bool filtered = !arch.empty() || !a.grep.empty();
  bool show_mma = a.kind == "mma" || (a.kind == "all" && (!mma.empty() || !filtered));
  bool show_copy = a.kind == "copy" || (a.kind == "all" && (!copy.empty() || !filtered));
  if (show_mma) print_mma_rows(mma);
  if (show_copy) print_copy_rows(copy, show_mma);
  std::printf(
      "\nUse a name with --atom (explain, analyze, render, codegen, batch) or render --copy; "
      "CuTe's spellings\n"
      "work too (SM90::GMMA::MMA_64x128x16_F16F16F16_SS<...>). --json gives every layout.\n");
  return 0;
}

}  // namespace

void add_atoms_verb(CLI::App& app, Verbs& verbs) {
  CLI::App* cmd = app.add_subcommand("atoms",
                                     "List the MMA and copy atoms CuTe defines (SM61-SM90; "
                                     "SM100/SM120 MMA for pictures) with their layouts");
  auto a = std::make_shared<AtomsArgs>();
  cmd->add_option(
      "--arch", a->arch,
      "only this architecture: any, sm50, sm61, sm70, sm75, sm80, sm89, sm90, sm100, sm120");
  cmd->add_option("--kind", a->kind, "mma, copy or all (default)")
      ->check(CLI::IsMember({"mma", "copy", "all"}));
  cmd->add_option("--grep", a->grep,
                  "only names containing this text (any case), e.g. F64 or LDSM");
  cmd->add_flag("--json", a->as_json,
                "every atom with its thread/value layouts as JSON (copies: bits and elements)");
  cmd->footer(
      "\nThe layouts are CuTe's traits (ThrID, A/B/C (thread,value) layouts; copies' Src/Dst/Ref "
      "in bits and as\n"
      "elements of the default size), checked atom by atom against CuTe's C++. TMA and bulk copies "
      "move a\n"
      "whole box (shown as 8192 bits). SM100 (tcgen05.mma) and SM120 atoms do not run on "
      "Hopper.\n");
  verbs.push_back({cmd, [a] { return run_atoms(*a); }});
}

}  // namespace tessera::tools
