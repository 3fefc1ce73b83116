// tools/batch.hpp -- `tessera batch`'s answers as a library function, shared by the CLI and the
// page (the same code compiled to WebAssembly answers window.tessera.batch).
#pragma once

#include <nlohmann/json.hpp>
#include <string>

namespace tessera::tools {

// The answer to one JSON line (a layout-op case or a TiledMMA case); never throws: a rejected or
// malformed case is {"id": ..., "error": "..."}.
nlohmann::json batch_answer(std::string const& line);

// JSON Lines in, JSON Lines out: one answer line per non-blank input line, in order.
std::string batch_text(std::string const& text);

}  // namespace tessera::tools
