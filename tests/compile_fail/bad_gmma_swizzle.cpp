// Must NOT compile: Sw<3,4,3> on 16-bit elements swizzles 32-byte units, no wgmma swizzle mode
// (those are Sw<1..3,3,3> on 16-bit elements); the diagnostic names the rule.
#include <tessera.hpp>
#include <tessera/gmma.hpp>
constexpr auto kA = tessera::make_gmma_operand(
    tessera::parse_swizzled_layout("Sw<3,4,3> o 0 o (64,64):(64,1)"), 16, 64, 16);
