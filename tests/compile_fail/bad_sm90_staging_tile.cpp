// Must NOT compile: a staging tile of 48 columns, which do not divide the warpgroup's 256.
#include "sm90_epilogue_common.hpp"
constexpr SwizzledLayout kStage{Swizzle(), 0, Layout(make_tuple(64, 48), make_tuple(48, 1))};
int main() { return int(SmemEpilogue<Cfg, uint16_t, kStage, 1>::kBytes); }
