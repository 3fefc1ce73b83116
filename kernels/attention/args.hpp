// kernels/attention/args.hpp -- the attention problem as the kernels see it, and the tiles of the
// SM80 and Hopper forward kernels (host and device, no CUDA): the one place the tile sizes are
// decided.
//
//   O = softmax(scale * Q K^T + mask) V  per (batch, head), Q (Sq,D), K and V (Sk,D), O (Sq,D)
//   LSE(i) = log sum_j exp(scale * S(i,j))  over the unmasked j of row i (natural log)
//
// Q head h reads K/V head h / group (GQA: group = heads_q / heads_kv; MQA: heads_kv = 1). The
// causal mask keeps key j for query i when j <= i (top-left aligned, torch's is_causal:
// tril(ones(Sq, Sk))), whatever Sq and Sk.
#pragma once

#include <cstdint>
#include <tessera/config.hpp>

namespace tessera::attention {

struct AttnArgs {
  const void* q = nullptr;
  const void* k = nullptr;
  const void* v = nullptr;
  void* o = nullptr;
  float* lse = nullptr;  // (batch, heads_q, seqlen_q) f32, or null
  int64_t batch = 0, heads_q = 0, heads_kv = 0, seqlen_q = 0, seqlen_k = 0, head_dim = 0;
  // Element strides of (batch, head, seq); head_dim's stride is 1. A mode of extent 1 has 0.
  int64_t q_sb = 0, q_sh = 0, q_ss = 0;
  int64_t k_sb = 0, k_sh = 0, k_ss = 0;
  int64_t v_sb = 0, v_sh = 0, v_ss = 0;
  int64_t o_sb = 0, o_sh = 0, o_ss = 0;
  int64_t lse_sb = 0, lse_sh = 0;   // heads_q * seqlen_q, seqlen_q
  int64_t group = 1;                // heads_q / heads_kv
  float scale = 1, scale_log2 = 1;  // scale and scale * log2(e)
  int causal = 0;
};

// The SM80 forward kernel's CTA: bm query rows x bn keys per step, 4 warps along the rows,
// `stages` (K, V) pairs in flight. What fits in 255 registers without spills: per thread, O's
// accumulators are bm D / 128 floats and S's bm bn / 128. Head dim 64: 128 x 64; 128: 128 x 32
// (128 x 64 spills); 256: 64 x 64 (160 KB of shared memory).
struct Fa2Tiles {
  int64_t bm, bn, stages, threads, smem_bytes;
};
constexpr Fa2Tiles fa2_sm80_tiles(int64_t head_dim) {
  const int64_t bm = head_dim <= 128 ? 128 : 64, bn = head_dim == 128 ? 32 : 64, stages = 2;
  return {bm, bn, stages, 128, 2 * (bm * head_dim + 2 * stages * bn * head_dim)};
}

// The Hopper forward kernel's CTA: one producer warpgroup and two consumer warpgroups of 64
// query rows each (bm = 128), bn keys per step, `stages` K and V tiles in flight, Q in
// `q_stages` stages. Per consumer thread: O's accumulators are D / 2 floats, S's bn / 2, P's
// bn / 4 registers, within 240 registers. Two key blocks: the narrow one (128 keys; 64 at head
// dim 256) and the wide one (176 keys at head dim 128, 80 at 256; head dim 64 has only the
// narrow one): the wider, the fewer steps (barriers, row maxima, O rescales) per key.
// The narrow kernels leave O through shared memory: each consumer stages its 64 rows 64
// columns at a time (16 KB in all) for a TMA store; from registers each warp's stores touch 8
// rows of O per instruction, which cost as much as a short row's key loop. The wide kernels
// store from registers: at 176 keys the staging's store spills registers, at head dim 256 its
// 16 KB do not fit beside Q and two (K, V) stages. Where a second Q stage fits (the narrow
// kernels at head dims 64 and 128), the next tile's Q loads during this tile, and its first
// S = Q K^T starts before this tile's epilogue.
// smem_bytes: the tiles (Q, K and V per stage, O's staging; 16-bit), before the barriers.
struct Fa3Tiles {
  int64_t bm, bn, stages, q_stages, threads, smem_bytes;
  bool o_staged;
};
TESSERA_HD constexpr Fa3Tiles fa3_sm90_tiles(int64_t head_dim, bool narrow) {
  const int64_t bm = 128, stages = 2, smem_for_tiles = 226 * 1024, o_stage_bytes = 2 * 64 * 64 * 2;
  narrow = narrow || head_dim == 64;
  const int64_t bn = head_dim == 256 ? (narrow ? 64 : 80) : narrow ? 128 : 176;
  const int64_t q_bytes = 2 * bm * head_dim, kv_bytes = 2 * 2 * stages * bn * head_dim;
  const int64_t q_stages = kv_bytes + 2 * q_bytes + o_stage_bytes <= smem_for_tiles ? 2 : 1;
  const int64_t bytes = kv_bytes + q_stages * q_bytes + (narrow ? o_stage_bytes : 0);
  return {bm, bn, stages, q_stages, 384, bytes, narrow};
}

// The key block of a call: narrow where causal (a narrower block masks less past the diagonal
// and ends nearer it) and where the keys are few enough that a tile's fixed cost (its first and
// last steps, O's stores) outweighs the wide block's fewer steps: up to 4096 keys at head dim
// 128, 1024 at 256 (bench/results/attention.md).
TESSERA_HD constexpr bool fa3_sm90_narrow_keys(int64_t head_dim, int64_t seqlen_k, bool causal) {
  return causal || head_dim == 64 || seqlen_k <= (head_dim == 128 ? 4096 : 1024);
}

// The Hopper kernel's walk over its tiles (query blocks x heads x batch): a persistent grid of
// `ctas` CTAs, each taking work units cta, cta + ctas, ... so that a tile's Q and first K, V load
// while the previous tile's last product and stores run. A unit is one query block, or, causal,
// two of one head: blocks q_blocks - 1 - u and u, whose key loops (each block's keys end at its
// diagonal) add up to the same length for every u, so a fixed walk gives every CTA the same work;
// an odd count leaves each head's middle block, a unit of half that length, and those come last.
// E.g. causal, 5 query blocks, 2 heads: units (4, 0) (3, 1) of head 0, the same of head 1, then
// (2) of head 0 and (2) of head 1; key blocks 6, 6, 6, 6, 3, 3.
struct Fa3Walk {
  int64_t q_blocks = 1, per_unit = 1;  // query blocks a head; in a whole unit
  int64_t whole_per_head = 1, whole = 0, units = 0, ctas = 1;
  bool causal = false;
  struct Step {
    int64_t unit, i;  // the unit, and the tile within it
  };
  TESSERA_HD constexpr Step first(int64_t cta) const { return {cta, 0}; }
  TESSERA_HD constexpr bool valid(Step s) const { return s.unit < units; }
  TESSERA_HD constexpr Step next(Step s) const {
    const int64_t tiles = s.unit < whole ? per_unit : 1;
    return s.i + 1 < tiles ? Step{s.unit, s.i + 1} : Step{s.unit + ctas, 0};
  }
  TESSERA_HD constexpr int64_t q_block(Step s) const {
    if (s.unit >= whole) return q_blocks / 2;  // a middle block (causal, odd q_blocks)
    const int64_t u = s.unit % whole_per_head;
    return !causal ? u : s.i == 0 ? q_blocks - 1 - u : u;
  }
  TESSERA_HD constexpr int64_t head_batch(Step s) const {
    return s.unit < whole ? s.unit / whole_per_head : s.unit - whole;
  }
};
TESSERA_HD constexpr Fa3Walk fa3_sm90_walk(AttnArgs const& a, int64_t ctas) {
  const int64_t bm = fa3_sm90_tiles(a.head_dim, false).bm, heads = a.heads_q * a.batch;
  Fa3Walk w;
  w.q_blocks = (a.seqlen_q + bm - 1) / bm, w.per_unit = a.causal ? 2 : 1, w.causal = a.causal;
  w.whole_per_head = w.q_blocks / w.per_unit, w.whole = w.whole_per_head * heads;
  w.units = w.whole + w.q_blocks % w.per_unit * heads, w.ctas = ctas;
  return w;
}
// The grid: one CTA per SM, or per unit where there are fewer units.
constexpr int64_t fa3_sm90_ctas(AttnArgs const& a, int64_t sms) {
  const int64_t units = fa3_sm90_walk(a, 1).units;
  return units < sms ? units : sms;
}

// The Hopper kernel reads Q, K and V (and stores O) through rank-4 TMA maps (head_dim, seq, heads,
// batch): each mode of extent > 1 needs a stride TMA takes (a positive multiple of 16 bytes below
// 2^40) and every extent fits an int32 box coordinate. A mode of extent 1 takes any stride (0
// here).
constexpr bool tma_mode_ok(int64_t extent, int64_t stride) {
  return extent <= 0x7fffffff &&
         (extent <= 1 || (stride >= 8 && stride % 8 == 0 && stride < (int64_t(1) << 39)));
}
constexpr bool fa3_sm90_addressable(AttnArgs const& a) {
  const int64_t s[4][4] = {{a.heads_q, a.seqlen_q, a.q_sh, a.q_ss},
                           {a.heads_kv, a.seqlen_k, a.k_sh, a.k_ss},
                           {a.heads_kv, a.seqlen_k, a.v_sh, a.v_ss},
                           {a.heads_q, a.seqlen_q, a.o_sh, a.o_ss}};
  const int64_t sb[4] = {a.q_sb, a.k_sb, a.v_sb, a.o_sb};
  for (int t = 0; t < 4; ++t)
    if (!tma_mode_ok(a.batch, sb[t]) || !tma_mode_ok(s[t][0], s[t][2]) ||
        !tma_mode_ok(s[t][1], s[t][3]))
      return false;
  return true;
}

}  // namespace tessera::attention
