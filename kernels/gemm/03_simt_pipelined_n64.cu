// kernels/gemm/03_simt_pipelined_n64.cu -- kernel 03 (03_simt_pipelined.cuh) on the 128 x 64 tile,
// for problems with at most 64 rows or columns (simt_tile, common.cuh), the small dimension along
// the tile's N. The orientation is fixed by the shape, so every pair of operand copies has its own
// kernel (four), where the 128 x 128 tile transposes BLAS TT onto NN's.
#include "03_simt_pipelined.cuh"

namespace tessera::ladder {

int ctas_03_n64() { return resident_ctas<Simt03::kNarrowBN>(); }

cudaError_t launch_03_n64(GemmArgsC const& args, cudaStream_t stream) {
  GemmArgs const& p = args.p;
  const bool a_vec = vector_ok(p.a, p.a_sm, p.a_sk), b_vec = vector_ok(p.b, p.b_sn, p.b_sk);
  using K = CopyKind;
  constexpr int64_t kBN = Simt03::kNarrowBN;
  if (a_vec) return b_vec ? launch<K::kVectorMN, K::kVectorMN, kBN>(args, stream)
                          : launch<K::kVectorMN, K::kScalarK, kBN>(args, stream);
  return b_vec ? launch<K::kScalarK, K::kVectorMN, kBN>(args, stream)
               : launch<K::kScalarK, K::kScalarK, kBN>(args, stream);
}

}  // namespace tessera::ladder
