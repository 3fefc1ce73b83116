// kernels/attention/online_softmax.cuh -- the online softmax over a key block's scores and the
// epilogue it ends with, shared by the forward kernels (fa2_sm80, fa3_sm90). Both hold S and O
// as accumulators of a TiledMMA and read their rows through acc_rowcol; a thread's running
// maximum (of raw S), sum and correction are fragments over its rows.
#pragma once

#include <tessera/device_tensor.hpp>
#include <tessera/fragment_convert.hpp>

#include "args.hpp"

namespace tessera::attention {

struct MaxOp {
  __device__ float operator()(float a, float b) const { return fmaxf(a, b); }
};
struct PlusOp {
  __device__ float operator()(float a, float b) const { return a + b; }
};

// Key block n's S (a (BM,BN) block of query block bm) in place: -inf where the block reaches past
// Sk or, causal, above the diagonal (tScS_n: S's (query, key) coordinates); then the new row
// maxima, P = exp2(scale log2e (S - m)) and the row sums. `correction` receives exp2(scale log2e
// (m_old - m)), what O's rows are to be multiplied by.
template <int64_t kBM, int64_t kBN, class Thr, class S, class C, class R>
__device__ __forceinline__ void softmax_block(Thr const& thr_s, S& tSrS, C const& tScS_n,
                                              int64_t n, int64_t bm, AttnArgs const& p,
                                              R& row_max, R& row_sum, R& correction) {
  if ((n + 1) * kBN > p.seqlen_k || (p.causal && (n + 1) * kBN - 1 > bm * kBM)) {
    // Value i's (query, key) is the block's origin (bm BM, n BN), plus value 0's offset in the
    // block (q0, k0), plus a constant of the unrolled loop (dq, dk). It is kept where
    // k0 + dk <= min(Sk - 1 - n BN, bm BM - n BN + q0 + dq) (the second bound causal only): the
    // block's bounds once (clamped: offsets are below BM), one 32-bit compare per value.
    const Coord<2> qk0 = tScS_n(0);
    const int q0 = int(qk0[0] - bm * kBM), k0 = int(qk0[1] - n * kBN);
    constexpr int64_t kFar = int64_t(1) << 30;
    const int keys_last = int(min64(p.seqlen_k - 1 - n * kBN, kFar)) - k0;
    const int diag = p.causal ? int(max64(min64(bm * kBM - n * kBN, kFar), -kFar)) + q0 - k0
                              : int(kFar);
#pragma unroll
    for (int i = 0; i < tSrS.size(); ++i) {
      const Coord<2> qk = tScS_n(i);  // (query, key)
      const int dq = int(qk[0] - qk0[0]), dk = int(qk[1] - qk0[1]);
      const int last = diag + dq < keys_last ? diag + dq : keys_last;
      if (dk > last) tSrS(i) = -INFINITY;
    }
  }
  auto mx = reduce_rows(thr_s, tSrS, MaxOp{});  // (rows): this thread's columns, then its lanes'
  auto s_rc = acc_rowcol(thr_s, tSrS);          // (rows, keys)
#pragma unroll
  for (int r = 0; r < s_rc.kLayout[0].size(); ++r) {
    const float m = fmaxf(row_max(r), mx(r));
    // NOTE: a row with every key masked so far keeps m = -inf; subtract 0 then (P = 0).
    const float m_scaled = m == -INFINITY ? 0.0f : m * p.scale_log2;
    correction(r) = exp2f(row_max(r) * p.scale_log2 - m_scaled);
    row_max(r) = m;
    row_sum(r) *= correction(r);
#pragma unroll
    for (int c = 0; c < s_rc.kLayout[1].size(); ++c)
      s_rc(r, c) = exp2f(s_rc(r, c) * p.scale_log2 - m_scaled);
  }
  auto sums = reduce<1>(s_rc, PlusOp{});  // this thread's part of each row's sum
#pragma unroll
  for (int r = 0; r < row_sum.size(); ++r) row_sum(r) += sums(r);
}

// O's rows multiplied by the block's correction.
template <class Thr, class O, class R>
__device__ __forceinline__ void rescale_rows(Thr const& thr_o, O& tOrO, R const& correction) {
  auto o_rc = acc_rowcol(thr_o, tOrO);  // (rows, D)
#pragma unroll
  for (int r = 0; r < o_rc.kLayout[0].size(); ++r)
#pragma unroll
    for (int c = 0; c < o_rc.kLayout[1].size(); ++c) o_rc(r, c) *= correction(r);
}

// The epilogue's arithmetic: O /= l in place (each row's whole sum, across the lanes that share
// the row: CfgS's S fragment S says which); the row's LSE (natural log, of the scaled scores)
// stored by the thread that holds its column 0, where inside. cO: query block bm's (BM,D) tile
// of O's coordinates; kTileO = (BM,D,BN).
template <class CfgS, class S, Coord<3> kTileO, class Thr, class O, class R, class C>
__device__ __forceinline__ void normalize_output(Thr const& thr_o, O& tOrO, R const& row_max,
                                                 R& row_sum, C const& cO, AttnArgs const& p,
                                                 int64_t b, int64_t h, int64_t bm) {
  reduce_lanes<acc_row_shuffles<CfgS, S>()>(row_sum, PlusOp{});
  auto o_rc = acc_rowcol(thr_o, tOrO);
  auto tOrL = make_fragment_like<float>(tOrO);  // each row's LSE, in O's layout
  auto l_rc = acc_rowcol(thr_o, tOrL);
#pragma unroll
  for (int r = 0; r < o_rc.kLayout[0].size(); ++r) {
    const float inv = row_sum(r) > 0.0f ? 1.0f / row_sum(r) : 0.0f;
    const float lse = row_sum(r) > 0.0f ? row_max(r) * p.scale + logf(row_sum(r)) : -INFINITY;
#pragma unroll
    for (int c = 0; c < o_rc.kLayout[1].size(); ++c) o_rc(r, c) *= inv, l_rc(r, c) = lse;
  }
  auto tOcO = thr_o.partition_C(cO);  // (V,M,D/8)
  if (p.lse != nullptr) {             // LSE as an (Sq,D) tensor that does not move along D
    auto mL = make_tensor(p.lse, make_shape(p.batch, p.heads_q, p.seqlen_q, kTileO[1]),
                          make_stride(p.lse_sb, p.lse_sh, unit, fixed<0>))(b, h, _, _);
    auto tOgL = thr_o.partition_C(local_tile<kTileO, Proj{1, 1, 0}>(mL, bm, 0, 0));
#pragma unroll
    for (int i = 0; i < tOrL.size(); ++i)
      if (tOcO(i)[1] == 0 && tOcO.inside(i)) tOgL(i) = tOrL(i);
  }
}

// The epilogue from registers: normalize_output, then O stored as T where inside (gO: query
// block bm's (BM,D) tile of O).
template <class T, class CfgS, class S, Coord<3> kTileO, class Thr, class O, class R, class G,
          class C>
__device__ __forceinline__ void store_output(Thr const& thr_o, O& tOrO, R const& row_max,
                                             R& row_sum, G const& gO, C const& cO,
                                             AttnArgs const& p, int64_t b, int64_t h, int64_t bm) {
  normalize_output<CfgS, S, kTileO>(thr_o, tOrO, row_max, row_sum, cO, p, b, h, bm);
  copy_if(thr_o.partition_C(cO), convert_pairs<T>(tOrO), thr_o.partition_C(gO));
}

}  // namespace tessera::attention
