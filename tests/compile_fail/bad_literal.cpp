// Must NOT compile: the layout literal is missing ')' after the shape. The parser reaches
// Parser::error (not constexpr) during constant evaluation, so compilation stops there.
#include <tessera.hpp>
using namespace tessera::literals;
constexpr auto L = "(4,2:(1,64)"_layout;
