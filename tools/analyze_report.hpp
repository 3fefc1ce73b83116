// tools/analyze_report.hpp -- an AccessReport (analysis.hpp) as JSON and as text, and the access an
// MMA operand's analysis assumes unless told; shared by `tessera analyze` and the Python package.
#pragma once

#include <nlohmann/json.hpp>
#include <string>

#include "mma_cli.hpp"

namespace tessera::tools {

nlohmann::json report_json(AccessReport const& r);
std::string report_text(AccessReport const& r);

// The access of an MMA operand: elem_bits 0 means 16 for the A/B of f16/bf16 atoms, else 32;
// an empty `access` means C stores, A/B loads ("load" or "store" otherwise).
AccessSpec mma_access_spec(MmaConfig const& cfg, Operand op, int64_t elem_bits,
                           std::string const& access, MemSpace space, int64_t max_vector_bits);

}  // namespace tessera::tools
