// Control for the SmemEpilogue compile tests: kernel 05's column-major chunks (stmatrix .trans)
// and the Hopper example's row-major ones (stmatrix), their plans read off the layouts.
#include "sm90_epilogue_common.hpp"
using Trans = SmemEpilogue<Cfg, uint16_t, kColMajor, 4>;
using Rows = SmemEpilogue<Cfg, uint16_t, kRowMajor, 2>;
static_assert(Trans::kTrans && !Rows::kTrans && Trans::kChunks == 8 && Rows::kChunks == 4);
static_assert(Rows::kBytes == 2 * 64 * 64 * 2 && Trans::kBytes == 4 * 64 * 32 * 2);
// value 4 (v2 = 1) is column 8 of row 0; value 2 (v1 = 1) row 8; chunk 1 of the row-major tile
// starts at value 32 (column 64).
static_assert(Rows::kPlan.block[0][1] == 2 && Rows::kPlan.col[4] == 8 &&
              Rows::kPlan.row[2] == 8 && Rows::kPlan.block[1][0] == 32);
int main() { return 0; }
