// Control for the Hopper compile-fail tests: kernel 05's tiles compile as constants.
#include <tessera.hpp>
#include <tessera/gmma.hpp>
#include <tessera/tma.hpp>
constexpr auto kTile = tessera::gmma_smem_tile(tessera::GmmaSwizzle::kB128, true, 16, 128, 64);
constexpr auto kA = tessera::make_gmma_operand(kTile, 16, 64, 16);
constexpr auto kT = tessera::make_tma_tile(kTile, 16);
static_assert(kA.desc.sbo_bytes == 1024 && kT.boxes == 1);
