// Must compile: bad_partition_element, bad_gemm_element, bad_gemm_other_mma and the bad_retile
// tests with valid operands: f16 data, the partition's own fragments (ldmatrix into them through
// retile_D), and an attention-style accumulator read as the next MMA's A and reduced by rows.
#include "register_device.hpp"
struct AttnF16 {
  static constexpr TiledMMA kMma =
      make_tiled_mma(atom::sm80_16x8x16_f32f16(), Layout("(4,1,1)"_tuple));
  using MmaOp = atom::SM80_16x8x16_F32F16F16F32_TN;
};
__global__ void k(float* out) {
  __shared__ __half smem[64 * 64];
  auto sA = make_tensor<kTileA>(smem);
  const ThrMMA<MmaF16> thr{threadIdx.x};
  auto tCrA = thr.partition_fragment_A(sA);                // (V,M,K)
  auto tCrB = thr.partition_fragment_B(sA);                // (V,N,K)
  auto acc = make_fragment<float, "((2,2),1,2)"_tuple>();  // (V,M,N)
  clear(tCrA), clear(tCrB), clear(acc);
  gemm(thr, tCrA(_, _, 0), tCrB(_, _, 0), acc);
  gemm(thr, tCrA, tCrB, acc);
  const ThrCopy<S2R<Operand::kA>> s2r_a{threadIdx.x};  // ldmatrix into the MMA's registers
  auto sAk = make_tensor<"(32,16):(16,1)"_layout>(smem);  // K-major: ldmatrix's 16-byte rows
  copy(s2r_a, s2r_a.partition_S(sAk), s2r_a.retile_D(tCrA)(_, _, 0));
  // S (64x64) -> P as A of P V: rows' maxima, then P in f16 through the A view.
  const ThrMMA<AttnF16> thr_s{threadIdx.x};
  auto s = thr_s.partition_fragment_C(make_tensor<Layout("(64,64)"_tuple)>(smem));  // (V,M,N)
  clear(s);
  auto mx = reduce_rows(thr_s, s, [](float x, float y) { return fmaxf(x, y); });
  auto p = convert<__half>(s);
  auto v = thr_s.partition_fragment_B(make_tensor<Layout("(64,64)"_tuple)>(smem));  // (V,N,K)
  clear(v);
  auto o = make_fragment<float, "((2,2),1,8)"_tuple>();
  clear(o);
  gemm(thr_s, acc_as_A<AttnF16>(thr_s, p), v, o);
  out[threadIdx.x] = acc(0) + o(0) + mx(0);
}
