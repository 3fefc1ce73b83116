// ldmatrix of a K-major tile swizzled with Sw<2,2,3> (a 32-bit element's swizzle used for 16-bit
// values): it XORs offset bits 2-3, inside each lane's 16-byte row:
// rule::ldmatrix_rows_are_16_contiguous_bytes.
#include "copy_common.hpp"
void load(uint16_t* smem) { load_matrix<Ldsm, composition(Swizzle(2, 2, 3), kKMajor)>(smem); }
