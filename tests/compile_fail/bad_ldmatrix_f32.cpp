// ldmatrix of a tile of 32-bit values: rule::ldmatrix_moves_16_bit_elements.
#include "copy_common.hpp"
void load(float* smem) { load_matrix<Ldsm, kKMajor, float>(smem); }
