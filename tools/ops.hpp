// tools/ops.hpp -- the layout operations as one table: name, aliases, argument kinds, the function
// and a line of help. The table drives `tessera batch`, the CLI's verbs, the Python module's op
// list and the page's op menu.
//
// An op runs in three steps: its arguments are read into typed values by their kinds (from JSON
// for `batch` and the page, from command-line words for the verbs), the function computes a typed
// value, and the value is written as notation, an image and CuTe's printed form:
//   ops::find("composition")->run({Layout "(4,3):(1,8)", Tiler "6:2"}) = Layout (2,3):(2,8).
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <tessera.hpp>
#include <variant>
#include <vector>

namespace tessera::tools {

// How an argument is read. Every kind accepts its notation as a string; JSON adds integers for
// the integer kinds and lists where noted.
enum class ArgKind {
  kLayout,           // a plain layout or a bare shape (its compact column-major layout)
  kAnyLayout,        // the same, or a swizzled layout Sw<B,M,S> o off o L
  kTiler,            // a tiler: a layout, a shape, "(3:3,_,(2,4):(1,8))"; JSON: a list of entries
  kTilerOrSwizzled,  // a tiler, or a swizzled layout (composition's B)
  kShape,            // an integer tuple whose bare integers follow the run-time option
  kTuple,            // an integer tuple read as static (coordinates, profiles)
  kIndex,            // an integer (JSON integer or its text)
  kCount,            // an integer factor; its text is read as an integer tuple of one integer
  kBit,              // one parameter of Sw<B,M,S>, an integer of -64..64
  kBitList,          // JSON [B, M, S]: a swizzle
  kOrder,            // "col" or "row"
};

// A read argument and a computed value.
using Arg = std::variant<int64_t, IntTuple, Layout, SwizzledLayout, Tiler, Swizzle, std::string>;
struct StaticInt {  // an integer CuTe computes as a static one (a vector width): printed _8
  int64_t value;
};
using Value = std::variant<int64_t, StaticInt, IntTuple, Layout, SwizzledLayout, Swizzle>;

struct OpOutput {
  Value value;
  std::string note;  // where CuTe defines a result past the usual domain ("" if none)
};

struct ArgSpec {
  ArgKind kind;
  const char* role;  // for messages: "the layout", "A", "the tiler", "B" ...
};

struct OpSpec {
  const char* name;
  const char* alias;  // another verb name ("" if none)
  int min_args, max_args;
  ArgSpec args[3];
  OpOutput (*run)(OpSpec const& op, std::span<Arg const> args);
  const char* help;  // one line: what it computes and how it is called
  bool verb = true;  // a CLI verb of its own (else `batch` only)
};

// Whether bare integers of the arguments are run-time ones (CuTe's int), as the CLI's --runtime;
// a leaf written _4 is static either way (tessera/notation.hpp).
struct ReadOptions {
  bool runtime = false;
};

struct OpResult {
  std::string result;                         // notation or integer tuple
  std::optional<std::vector<int64_t>> image;  // values at flat indices 0..size-1, if a layout
  std::string note;  // where CuTe defines a result past the usual domain ("" if none)
  std::string cute;  // the result as CuTe prints it: static _4, run-time 4
  Value value;       // the result itself
};

namespace ops {
std::span<OpSpec const> table();
// The op of a name or an alias; nullptr if none.
OpSpec const* find(std::string_view name);
}  // namespace ops

// The arguments of `op` from JSON (batch, the page) or from command-line words (the verbs).
// Throw tessera::Error or std::invalid_argument naming the op, the argument and the rule.
std::vector<Arg> read_args(OpSpec const& op, nlohmann::json const& args, ReadOptions opt);
std::vector<Arg> read_args(OpSpec const& op, std::vector<std::string> const& words,
                           ReadOptions opt);
// Argument i of `op` from its notation (a command-line word, a Python string).
Arg read_word(OpSpec const& op, int i, std::string const& word, ReadOptions opt);
// Runs `op` on read arguments and writes its value.
OpResult run_op(OpSpec const& op, std::span<Arg const> args);

// The whole way from oracle-style JSON arguments (strings, integers, lists of tiler entries).
// Throws tessera::Error (rejected op or malformed input) or std::invalid_argument (bad arguments).
OpResult run_op(std::string const& op, nlohmann::json const& args, bool runtime = false);

// The result as a layout, if it is one (a plain layout as Sw<0,..> o 0 o L).
std::optional<SwizzledLayout> layout_of(Value const& v);

// A layout where the CLI expects one: CuTe notation "(4,3):(1,8)", or a bare shape "(4,3)" / "4"
// meaning its compact column-major layout (4,3):(1,4).
Layout layout_arg(std::string const& text, bool runtime = false);
// The same, or a swizzled layout "Sw<3,4,3> o 0 o (8,64):(64,1)".
SwizzledLayout any_layout_arg(std::string const& text);
bool is_swizzled(std::string const& text);

}  // namespace tessera::tools
