// `tessera batch`'s answers (docs/batch.md): the CLI's verb and the page's window.tessera.batch.
#include "batch.hpp"

#include <sstream>
#include <stdexcept>

#include "mma_cli.hpp"
#include "ops.hpp"

namespace tessera::tools {
namespace {

using nlohmann::json;

// nlohmann's messages start with "[json.exception.type_error.302] "; the rest is readable.
std::string readable(nlohmann::json::exception const& e) {
  std::string m = e.what();
  size_t close = m.find("] ");
  return m.rfind("[json.exception.", 0) == 0 && close != std::string::npos ? m.substr(close + 2)
                                                                           : m;
}

json id_of(json const& out) { return out.is_object() && out.contains("id") ? out["id"] : json(); }

}  // namespace

json batch_answer(std::string const& line) {
  json out;
  try {
    json in;
    try {
      in = json::parse(line);
    } catch (json::exception const& e) {
      throw std::invalid_argument("not a JSON object: " + readable(e));
    }
    if (!in.is_object()) throw std::invalid_argument("a case is a JSON object, got " + in.dump());
    out["id"] = in.value("id", json());
    if (in.contains("atom")) return answer_tiledmma_case(in);
    if (!in.contains("op") || !in["op"].is_string() || !in.contains("args") ||
        !in["args"].is_array())
      throw std::invalid_argument(
          R"x(a case needs "op" (a string) and "args" (a list), e.g. )x"
          R"x({"id": 1, "op": "composition", "args": ["(4,3):(1,8)", "6:2"]}; )x"
          "see docs/batch.md");
    // Optional "runtime": true reads bare integers as run-time ones (CuTe's int); the answer then
    // carries "cute", the result as CuTe prints it (docs/batch.md).
    bool runtime = in.value("runtime", false);
    OpResult r = run_op(in["op"].get<std::string>(), in["args"], runtime);
    out["result"] = r.result;
    out["image"] = r.image ? json(*r.image) : json();
    if (runtime || in.value("cute", false)) out["cute"] = r.cute;
    if (!r.note.empty()) out["note"] = r.note;
  } catch (json::exception const& e) {
    return {{"id", id_of(out)},
            {"error", "malformed case: " + readable(e) + " (see docs/batch.md)"}};
  } catch (std::exception const& e) {
    return {{"id", id_of(out)}, {"error", e.what()}};
  }
  return out;
}

std::string batch_text(std::string const& text) {
  std::string out, line;
  std::istringstream in(text);
  while (std::getline(in, line)) {
    if (line.find_first_not_of(" \t\r") == std::string::npos) continue;
    out += batch_answer(line).dump();
    out += '\n';
  }
  return out;
}

}  // namespace tessera::tools
