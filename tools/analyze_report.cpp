#include "analyze_report.hpp"
#include "plural.hpp"

#include <cstdio>

#include "atom_names.hpp"

namespace tessera::tools {

using nlohmann::json;

json report_json(AccessReport const& r) {
  return {{"elem_bits", r.spec.elem_bits},
          {"space", space_name(r.spec.space)},
          {"access", r.spec.store ? "store" : "load"},
          {"threads", r.threads},
          {"warps", r.warps},
          {"values_per_thread", r.values},
          {"vector_bits", r.vector_bits},
          {"run_bits", r.run_bits},
          {"in_order_bits", r.in_order_bits},
          {"instructions_per_thread", r.instructions},
          {"min_instructions_per_thread", r.min_instructions},
          {"warp_instructions", r.requests},
          {"global",
           {{"sectors", r.sectors},
            {"min_sectors", r.min_sectors},
            {"lines", r.lines},
            {"min_lines", r.min_lines},
            {"sectors_per_instruction", r.sectors_per_request()},
            {"lines_per_instruction", r.lines_per_request()},
            {"sector_efficiency_pct", r.sector_efficiency()},
            {"footprint_sectors", r.footprint_sectors},
            {"footprint_min_sectors", r.footprint_min_sectors},
            {"footprint_efficiency_pct", r.footprint_efficiency()}}},
          {"shared",
           {{"wavefronts", r.wavefronts},
            {"ideal_wavefronts", r.ideal_wavefronts},
            {"bank_conflicts", r.conflicts()},
            {"wavefronts_per_instruction", r.wavefronts_per_request()},
            {"max_way", r.max_way}}},
          {"grade", grade_name(r.grade)},
          {"verdict", r.verdict.c_str()}};
}

std::string report_text(AccessReport const& r) {
  char buf[512];
  std::string o;
  const char* what = r.spec.store ? "stores" : "loads";
  std::snprintf(buf, sizeof buf, "  %s = %s, %s of %lld bits per thread\n",
                plural(r.threads, "thread").c_str(), plural(r.warps, "warp").c_str(),
                plural(r.values, "value").c_str(), (long long)r.spec.elem_bits);
  o += buf;
  std::snprintf(buf, sizeof buf,
                "  vector      %lld-bit (contiguous aligned run %lld bits; %lld-bit with the "
                "registers in fragment order)\n",
                (long long)r.vector_bits, (long long)r.run_bits, (long long)r.in_order_bits);
  o += buf;
  std::snprintf(buf, sizeof buf, "  per thread  %lld %s (%lld at 128 bits)\n",
                (long long)r.instructions,
                r.instructions == 1 ? (r.spec.store ? "store" : "load") : what,
                (long long)r.min_instructions);
  o += buf;
  if (r.spec.space == MemSpace::kGlobal) {
    std::snprintf(buf, sizeof buf,
                  "  per warp    %s (min %lld, %lld%%), %s (min %lld) per instruction; "
                  "all of a warp's %s: %s (min %lld, %lld%%)\n",
                  plural(r.sectors_per_request(), "sector").c_str(),
                  (long long)(r.requests ? r.min_sectors / r.requests : 0),
                  (long long)r.sector_efficiency(), plural(r.lines_per_request(), "line").c_str(),
                  (long long)(r.requests ? r.min_lines / r.requests : 0), what,
                  plural(r.warps ? r.footprint_sectors / r.warps : 0, "sector").c_str(),
                  (long long)(r.warps ? r.footprint_min_sectors / r.warps : 0),
                  (long long)r.footprint_efficiency());
  } else {
    std::snprintf(buf, sizeof buf,
                  "  per warp    %s per instruction (ideal %lld), worst %lld-way; %s in %s\n",
                  plural(r.wavefronts_per_request(), "wavefront").c_str(),
                  (long long)(r.requests ? r.ideal_wavefronts / r.requests : 0),
                  (long long)r.max_way, plural(r.conflicts(), "bank conflict").c_str(),
                  plural(r.requests, "instruction").c_str());
  }
  o += buf;
  o += std::string("  verdict     ") + r.verdict.c_str() + " [" + grade_name(r.grade) + "]\n";
  return o;
}

AccessSpec mma_access_spec(MmaConfig const& cfg, Operand op, int64_t elem_bits,
                           std::string const& access, MemSpace space, int64_t max_vector_bits) {
  std::string atom_name = cfg.mma.atom.name;
  bool halves =
      atom_name.find("F16") != std::string::npos || atom_name.find("BF16") != std::string::npos;
  AccessSpec spec;
  spec.space = space;
  spec.max_vector_bits = max_vector_bits;
  // The catalog's element type of the operand; else 16-bit A/B for f16/bf16 atoms, 32 otherwise.
  int64_t typed = mma_operand_bits(atom_name, op);
  spec.elem_bits = elem_bits ? elem_bits : typed ? typed : (op != Operand::kC && halves ? 16 : 32);
  spec.store = access.empty() ? op == Operand::kC : access == "store";
  return spec;
}

}  // namespace tessera::tools
