// ldmatrix (not .trans) of an M-major A tile: each lane's row would run along K, 32 elements
// apart: rule::ldmatrix_rows_are_16_contiguous_bytes (the message names the .trans atom).
#include "copy_common.hpp"
void load(uint16_t* smem) { load_matrix<Ldsm, kMMajor>(smem); }
