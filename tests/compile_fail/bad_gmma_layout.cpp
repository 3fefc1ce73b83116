// Must NOT compile: 16-element rows under a 128-byte swizzle are not a layout wgmma can read
// (row 1 must be one swizzle row, 64 elements, on); the diagnostic names the rule:
// wgmma_cannot_read_the_shared_layout.
#include <tessera.hpp>
#include <tessera/gmma.hpp>
constexpr auto kA = tessera::make_gmma_operand(
    tessera::parse_swizzled_layout("Sw<3,3,3> o 0 o (64,16):(16,1)"), 16, 64, 16);
