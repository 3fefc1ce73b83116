// A cp.async atom of 12 bytes: rule::cp_async_copies_4_8_or_16_bytes.
#include "copy_common.hpp"
struct G2S {
  static constexpr TiledCopy kCopy = make_tiled_copy_tv(
      atom::cp_async(12, 32), parse_layout("(16,16):(1,16)"), parse_layout("(3,1):(1,0)"));
};
int64_t threads() { return G2S::kCopy.threads(); }
