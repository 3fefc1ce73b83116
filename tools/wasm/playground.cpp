// The library compiled to WebAssembly for the page (render_page.cpp): the same code as the CLI,
// two entry points on UTF-8 strings. Each returns a string owned here, valid until the next call.
//   tessera_batch(text): `tessera batch`'s JSON Lines answers (batch.hpp), window.tessera.batch.
//   tessera_page(state): page_data(state) (render.hpp) as JSON, or {"error": "..."} for a bad
//   state.
#include <emscripten/emscripten.h>

#include <nlohmann/json.hpp>
#include <string>

#include "batch.hpp"
#include "render.hpp"

namespace {
std::string answer;
}

extern "C" {

EMSCRIPTEN_KEEPALIVE char const* tessera_batch(char const* text) {
  answer = tessera::tools::batch_text(text);
  return answer.c_str();
}

EMSCRIPTEN_KEEPALIVE char const* tessera_page(char const* state) {
  nlohmann::json out;
  try {
    out = tessera::tools::page_data(nlohmann::json::parse(state));
  } catch (std::exception const& e) {
    out = {{"error", e.what()}};
  }
  answer = out.dump();
  return answer.c_str();
}

}  // extern "C"
