// Must NOT compile: (2,2):(1,1) is not injective (both modes start at offset 0 and 1 overlaps),
// so it has no complement; the diagnostic names the rule: complement_of_a_non_injective_layout.
#include <tessera.hpp>
using namespace tessera::literals;
constexpr auto C = tessera::complement("(2,2):(1,1)"_layout, 8);
