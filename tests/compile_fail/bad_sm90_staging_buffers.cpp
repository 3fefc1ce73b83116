// Must NOT compile: 3 staging buffers for the 4 chunks of a tile (the rotation would not repeat).
#include "sm90_epilogue_common.hpp"
int main() { return int(SmemEpilogue<Cfg, uint16_t, kRowMajor, 3>::kBytes); }
