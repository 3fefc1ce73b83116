// Must NOT compile: a tiler of 3 modes for a rank-2 layout; the diagnostic names the rule:
// tiler_has_more_modes_than_the_layout.
#include <tessera.hpp>
using namespace tessera::literals;
constexpr auto D = tessera::logical_divide("(4,6):(1,4)"_layout, "(2,3,2)"_tiler);
