// tools/op_args.hpp -- the argument rules shared by the op table and the argument reader.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <tessera.hpp>

namespace tessera::tools {

// Throws where `text` is a swizzled layout given to an op that takes a plain one.
void no_swizzle(std::string const& text, std::string const& op, std::string const& role);
// Sw<B,M,S> from three integers; throws where one is beyond 64 bits (the Swizzle checks the rest).
Swizzle checked_swizzle(std::string const& op, std::array<int64_t, 3> bms);

}  // namespace tessera::tools
