// The page of `tessera render` and the playground: one HTML file with its style, script, state,
// data and (when built) the library as WebAssembly inline, so it opens from disk with no network.
// The script draws and handles events; every number it shows was computed by the library: the
// embedded data by the CLI, and what the inputs ask for by the same code in WebAssembly
// (page_data, render.cpp), so the page and the CLI cannot drift.
#include <cstdint>
#include <string>

#include "attention_cli.hpp"
#include "hopper_cli.hpp"
#include "mma_cli.hpp"
#include "ops.hpp"
#include "page_assets.hpp"  // kStyle and kScript: page/playground.css and .js
#include "render.hpp"

namespace tessera::tools {
namespace {

// The data inside a <script> element: "</" would end it, so it becomes "<\/" (same JSON).
std::string script_safe(std::string s) {
  for (size_t at = s.find("</"); at != std::string::npos; at = s.find("</", at + 3))
    s.insert(at + 1, "\\");
  return s;
}

// A script's text inside <script>: only "</script" could end it early; split it (same program).
std::string script_safe_js(std::string s) {
  for (size_t at = s.find("</script"); at != std::string::npos; at = s.find("</script", at + 9))
    s.replace(at, 2, "<\\/");
  return s;
}

std::string base64(std::string const& bytes) {
  static constexpr char kDigits[] =
      "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  std::string out;
  out.reserve((bytes.size() + 2) / 3 * 4);
  for (size_t i = 0; i < bytes.size(); i += 3) {
    uint32_t n = uint32_t(uint8_t(bytes[i])) << 16;
    if (i + 1 < bytes.size()) n |= uint32_t(uint8_t(bytes[i + 1])) << 8;
    if (i + 2 < bytes.size()) n |= uint8_t(bytes[i + 2]);
    out += kDigits[n >> 18];
    out += kDigits[(n >> 12) & 63];
    out += i + 1 < bytes.size() ? kDigits[(n >> 6) & 63] : '=';
    out += i + 2 < bytes.size() ? kDigits[n & 63] : '=';
  }
  return out;
}

// The page's op menu, from the op table: each op's name, help line and argument roles.
nlohmann::json op_menu() {
  nlohmann::json menu = nlohmann::json::array();
  for (OpSpec const& op : ops::table()) {
    nlohmann::json roles = nlohmann::json::array();
    for (int i = 0; i < op.max_args; ++i) roles.push_back(op.args[i].role);
    menu.push_back({{"name", op.name}, {"help", op.help}, {"args", roles}});
  }
  return menu;
}

std::string html_escape(std::string const& s) {
  std::string o;
  for (char c : s)
    o += c == '<' ? "&lt;" : c == '>' ? "&gt;" : c == '&' ? "&amp;" : std::string(1, c);
  return o;
}

}  // namespace

std::string render_page(nlohmann::json const& state, nlohmann::json const& data,
                        Playground const& wasm) {
  std::string kind = data.is_object() ? data.value("kind", "layout") : "playground";
  std::string title =
      "tessera: " + (kind == "mma"      ? "TiledMMA " + data.value("name", std::string())
                     : kind == "copy"   ? "TiledCopy " + data.value("atom", std::string())
                     : kind == "layout" ? "layout " + data.value("layout", std::string())
                                        : std::string("layout playground"));
  // What the inputs offer: the ops, the MMA atoms and presets, the copy atoms; and whether the
  // library is in the page (live inputs).
  nlohmann::json catalog = {
      {"ops", op_menu()},
      {"atoms", mma_atom_names()},
      {"presets", {"step1", "step4", kHopperPreset, kAttentionPreset}},
      {"copy_atoms",
       {"cp_async:4", "cp_async:8", "cp_async:16", "universal:32", "universal:64", "universal:128",
        "ldmatrix:x1", "ldmatrix:x2", "ldmatrix:x4", "ldmatrix:x4t"}},
      {"live", !wasm.wasm.empty()}};
  // NOTE: 'wasm-unsafe-eval' lets the page compile its own embedded module; nothing is fetched.
  std::string page =
      "<!doctype html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n"
      "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; "
      "style-src 'unsafe-inline'; script-src 'unsafe-inline' 'wasm-unsafe-eval'; img-src data:\">\n"
      "<title>" +
      html_escape(title) + "</title>\n<style>" + kStyle +
      "</style></head>\n"
      "<body>\n<header id=\"top\"><span class=\"brand\">tessera</span></header>\n<main "
      "id=\"app\"></main>\n"
      "<script type=\"application/json\" id=\"tessera-catalog\">" +
      script_safe(catalog.dump()) +
      "</script>\n"
      "<script type=\"application/json\" id=\"tessera-state\">" +
      script_safe(state.dump()) +
      "</script>\n"
      "<script type=\"application/json\" id=\"tessera-data\">" +
      script_safe(data.dump()) + "</script>\n";
  if (!wasm.wasm.empty())  // the module as base64 (handed to the loader as wasmBinary: no fetch),
                           // then the loader
    page += "<script type=\"application/octet-stream\" id=\"tessera-wasm\">" + base64(wasm.wasm) +
            "</script>\n"
            "<script>" +
            script_safe_js(wasm.loader) + "</script>\n";
  page += std::string("<script>") + kScript + "</script>\n</body></html>\n";
  return page;
}

}  // namespace tessera::tools
