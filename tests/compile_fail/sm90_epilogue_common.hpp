// The SmemEpilogue compile tests' configuration: a wgmma TiledMMA of two m64n256k16 atoms along
// M (128 x 256 tile), and staging tiles of one warpgroup's 64 rows.
#include <cstdint>
#include <tessera.hpp>
#include <tessera/algorithm/sm90_epilogue.hpp>
#include <tessera/atom/smem.hpp>
using namespace tessera;
struct Cfg {
  static constexpr TiledMMA kMma =
      make_tiled_mma(atom::sm90_64xNx16(256, false), parse_layout("(2,1,1):(1,0,0)"));
};
// Row-major 64 x 64 chunks (stmatrix) and column-major 64 x 32 ones (stmatrix .trans), 128-byte
// swizzled.
constexpr SwizzledLayout kRowMajor = gmma_smem_tile(GmmaSwizzle::kB128, true, 16, 64, 64);
constexpr SwizzledLayout kColMajor = gmma_smem_tile(GmmaSwizzle::kB128, false, 16, 64, 32);
