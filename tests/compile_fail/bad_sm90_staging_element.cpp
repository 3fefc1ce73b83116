// Must NOT compile: 32-bit elements, which stmatrix cannot store.
#include "sm90_epilogue_common.hpp"
int main() { return int(SmemEpilogue<Cfg, float, kRowMajor, 2>::kBytes); }
