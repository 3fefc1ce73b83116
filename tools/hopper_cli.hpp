// tools/hopper_cli.hpp -- kernel 05's Hopper configuration for `explain` and `render`: the shared
// operand tiles with their swizzle, the wgmma descriptor fields read off them (tessera/gmma.hpp)
// and the TMA boxes with cuTensorMapEncodeTiled's arguments (tessera/tma.hpp).
#pragma once

#include <nlohmann/json.hpp>
#include <string>

namespace tessera::tools {

// The preset's name (mma_preset): the TiledMMA of kernel 05, two consumer warpgroups of
// m64n256k16 along M, CTA tile 128x256x64.
inline constexpr const char* kHopperPreset = "hopper";

// A and B stage tiles, K-major and MN-major, for 16-bit elements, with the tensor maps of an
// example problem (M, N, K) = (m, n, k) with leading dimensions equal to the extents.
nlohmann::json hopper_json(int64_t m = 4096, int64_t n = 4096, int64_t k = 4096);
std::string hopper_text(nlohmann::json const& h);

// The TMA boxes and cuTensorMapEncodeTiled's arguments for any global tensor: {"dtype": "f16",
// "shape": [4096, 4096], "stride": [1, 4096], "tile": "(64,64)" (a shape or a layout, modes in
// the tensor's order), "swizzle": "128B" (for an unswizzled tile), "loaders": 1}. Throws the
// rule a bad tensor or tile breaks (tessera/tma.hpp).
nlohmann::json tma_for_tensor(nlohmann::json const& spec);

}  // namespace tessera::tools
