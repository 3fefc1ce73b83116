// Must compile: the two compile-fail cases with valid operands, so their failure is the error
// under test and not the harness (include path, flags, namespaces).
#include <tessera.hpp>
using namespace tessera::literals;
constexpr auto L = "(4,2):(1,64)"_layout;
constexpr auto R = tessera::composition("(4,4):(1,4)"_layout, "4:4"_layout);
static_assert(L(1) == 1 && R == "4:4"_layout);
