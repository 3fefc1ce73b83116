// kernels/gemm/03_simt_pipelined.cu -- kernel 03 (03_simt_pipelined.cuh) on the 128 x 128 tile,
// and its entry point launch_03, which picks the tile per problem (simt_tile, tiles.hpp).
#include "03_simt_pipelined.cuh"

namespace tessera::ladder {

// Kernel 03 on the 128 x 64 and 128 x 32 tiles (03_simt_pipelined_n64.cu, _n32.cu): the problem
// as given or transposed, any operand strides.
cudaError_t launch_03_n64(GemmArgsC const& args, cudaStream_t stream);
cudaError_t launch_03_n32(GemmArgsC const& args, cudaStream_t stream);
int ctas_03_n64();
int ctas_03_n32();

int ctas_03(int64_t bn) {
  return bn == Simt03::kNarrowBN ? ctas_03_n64() : bn == Simt03::kThinBN ? ctas_03_n32() : resident_ctas<Simt03::kBN>();
}

// BLAS TT (A k-contiguous, B MN-contiguous) has no kernel of its own on the 128 x 128 tile: it
// runs the NN kernel on the transposed problem C^T = B A^T, C written through its transpose (one
// kernel fewer to compile; H100, 4096^3: TT 1.02x of cuBLAS with its own kernel, NN 1.00x).
cudaError_t launch_03(GemmArgs const& p, cudaStream_t stream) {
  const SimtTile tile = simt_tile(p.m, p.n);
  if (tile.bn == Simt03::kNarrowBN) return launch_03_n64(tile.swapped ? transposed(p) : as_given(p), stream);
  if (tile.bn == Simt03::kThinBN) return launch_03_n32(tile.swapped ? transposed(p) : as_given(p), stream);
  const bool a_vec = vector_ok(p.a, p.a_sm, p.a_sk), b_vec = vector_ok(p.b, p.b_sn, p.b_sk);
  using K = CopyKind;
  constexpr int64_t kBN = Simt03::kBN;
  if (a_vec) return b_vec ? launch<K::kVectorMN, K::kVectorMN, kBN>(as_given(p), stream)
                          : launch<K::kVectorMN, K::kScalarK, kBN>(as_given(p), stream);
  return b_vec ? launch<K::kVectorMN, K::kScalarK, kBN>(transposed(p), stream)
               : launch<K::kScalarK, K::kScalarK, kBN>(as_given(p), stream);
}

}  // namespace tessera::ladder
