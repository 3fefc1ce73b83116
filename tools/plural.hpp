// tools/plural.hpp -- counts in the CLI's sentences: "1 thread", "4 threads".
#pragma once

#include <cstdint>
#include <string>

namespace tessera::tools {

// n and its noun, plural unless n is 1: plural(1, "thread") = "1 thread",
// plural(4, "thread") = "4 threads", plural(2, "box", "boxes") = "2 boxes".
inline std::string plural(int64_t n, std::string const& one, std::string const& many = "") {
  return std::to_string(n) + " " + (n == 1 ? one : many.empty() ? one + "s" : many);
}

}  // namespace tessera::tools
