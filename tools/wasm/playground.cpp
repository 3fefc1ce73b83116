// The library compiled to WebAssembly for the page (render_page.cpp): the same code as the CLI,
// two entry points on UTF-8 strings. Each returns a string owned here, valid until the next call.
//   tessera_batch(text): `tessera batch`'s JSON Lines answers (batch.hpp), window.tessera.batch.
//   tessera_page(state): page_data(state) (render.hpp) as JSON, or {"error": "..."} for a bad
//   state.
//   tessera_tma(spec): tma_for_tensor(spec) (hopper_cli.hpp), a global tensor's TMA boxes and
//   cuTensorMapEncodeTiled arguments, or {"error": "..."}.
#include <emscripten/emscripten.h>

#include <nlohmann/json.hpp>
#include <string>

#include "batch.hpp"
#include "hopper_cli.hpp"
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

EMSCRIPTEN_KEEPALIVE char const* tessera_tma(char const* spec) {
  nlohmann::json out;
  try {
    out = tessera::tools::tma_for_tensor(nlohmann::json::parse(spec));
  } catch (std::exception const& e) {
    out = {{"error", e.what()}};
  }
  answer = out.dump();
  return answer.c_str();
}

}  // extern "C"
