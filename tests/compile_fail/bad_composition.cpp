// Must NOT compile: 3:6 after (4,4):(1,5) fails stride divisibility (stride 6 is neither a
// multiple of nor smaller than shape 4), which CuTe rejects too; composition reaches
// tessera::rule::composition_stride_divisibility_fails, a non-constexpr function named after the
// rule, during constant evaluation.
#include <tessera.hpp>
using namespace tessera::literals;
constexpr auto R = tessera::composition("(4,4):(1,5)"_layout, "3:6"_layout);
