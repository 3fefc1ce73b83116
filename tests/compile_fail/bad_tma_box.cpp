// Must NOT compile: a 256-byte row under a 128-byte swizzle is no TMA box; the diagnostic names
// the rule: tma_cannot_copy_the_layout.
#include <tessera.hpp>
#include <tessera/tma.hpp>
constexpr auto kT =
    tessera::make_tma_tile(tessera::parse_swizzled_layout("Sw<3,3,3> o 0 o (8,128):(128,1)"), 16);
