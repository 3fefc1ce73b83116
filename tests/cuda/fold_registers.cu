// fold_registers.cu -- the register views fold: an attention step on one 64x64 tile (4 warps
// along M, mma.sync m16n8k16) written with tessera's register level beside a hand-written twin.
//
//   S (64x64 accumulators) -> row maxima (reduce_rows: in-thread over acc_rowcol's columns, then
//   the quad's lanes, xor 1 and 2) -> P = exp(S - max), row sums the same way -> P in f16 read as
//   the A operand of P V (acc_as_A) -> O (64x64) -> O / row sum through O's (row, col) view.
//
// check_fold.py compares regs_tessera with regs_hand, and rs_tessera (the wgmma RS product below)
// with rs_hand: the same PTX opcodes, instruction for instruction in count, no local memory,
// 0 bytes stack, 0 spills.
#include <cuda_fp16.h>

#include <cstdint>
#include <tessera.hpp>
#include <tessera/device_tensor.hpp>
#include <tessera/staged_smem.hpp>
#include <tessera/warpgroup_mma.hpp>

using namespace tessera;
using namespace tessera::literals;

namespace {
struct Attn {
  static constexpr TiledMMA kMma =
      make_tiled_mma(atom::sm80_16x8x16_f32f16(), Layout("(4,1,1)"_tuple));
  using MmaOp = atom::SM80_16x8x16_F32F16F16F32_TN;
};
struct Max {
  __device__ float operator()(float a, float b) const { return fmaxf(a, b); }
};
struct Plus {
  __device__ float operator()(float a, float b) const { return a + b; }
};
}  // namespace

// s: each thread's 32 accumulators of S; v: its 128 values of V as the B operand (V,N,K);
// o: its 32 values of O; stats: its rows' maxima and sums.
__global__ void regs_tessera(const float* s_in, const __half* v_in, float* o_out, float* stats) {
  const ThrMMA<Attn> thr{threadIdx.x};
  const int64_t t = threadIdx.x;
  auto s = make_fragment<float, "((2,2),1,8)"_tuple>();  // (V,M,N) of S
#pragma unroll
  for (int i = 0; i < 32; ++i) s(i) = s_in[t * 32 + i];
  auto mx = reduce_rows(thr, s, Max{});  // (rows)
  auto rc = acc_rowcol(thr, s);          // (rows, cols)
#pragma unroll
  for (int r = 0; r < rc.kLayout[0].size(); ++r)
#pragma unroll
    for (int c = 0; c < rc.kLayout[1].size(); ++c) rc(r, c) = __expf(rc(r, c) - mx(r));
  auto sum = reduce_rows(thr, s, Plus{});
  auto p = convert<__half>(s);
  auto v = make_fragment<__half, "((2,2),8,4)"_tuple>();  // (V,N,K) of V
#pragma unroll
  for (int i = 0; i < 128; ++i) v(i) = v_in[t * 128 + i];
  auto o = make_fragment<float, "((2,2),1,8)"_tuple>();  // (V,M,N) of O
  clear(o);
  gemm(thr, acc_as_A<Attn>(thr, p), v, o);
  auto orc = acc_rowcol(thr, o);
#pragma unroll
  for (int r = 0; r < orc.kLayout[0].size(); ++r)
#pragma unroll
    for (int c = 0; c < orc.kLayout[1].size(); ++c) orc(r, c) = orc(r, c) / sum(r);
#pragma unroll
  for (int i = 0; i < 32; ++i) o_out[t * 32 + i] = o(i);
#pragma unroll
  for (int r = 0; r < 2; ++r) stats[t * 4 + r] = mx(r), stats[t * 4 + 2 + r] = sum(r);
}

// The twin: lane t0 + 4 t1 of warp w holds S's rows 16w + t1 + 8 r (r = v1) and columns
// 8n + 2 t0 + v0 in register v0 + 2 r + 4 n; the quad (xor 1, 2) shares the rows.
__device__ inline void hand_mma(float* d, const __half* a, const __half* b) {
  ptx::mma_m16n8k16_f32f16(
      *reinterpret_cast<float(*)[4]>(d), *reinterpret_cast<uint32_t const(*)[4]>(a),
      *reinterpret_cast<uint32_t const(*)[2]>(b), *reinterpret_cast<float(*)[4]>(d));
}
__global__ void regs_hand(const float* s_in, const __half* v_in, float* o_out, float* stats) {
  const int64_t t = threadIdx.x;
  float s[32];
#pragma unroll
  for (int i = 0; i < 32; ++i) s[i] = s_in[t * 32 + i];
  float mx[2], sum[2];
#pragma unroll
  for (int r = 0; r < 2; ++r) {
    mx[r] = s[2 * r];
#pragma unroll
    for (int c = 1; c < 16; ++c) mx[r] = fmaxf(mx[r], s[c % 2 + 2 * r + 4 * (c / 2)]);
  }
#pragma unroll
  for (int x = 1; x <= 2; x *= 2)
#pragma unroll
    for (int r = 0; r < 2; ++r) mx[r] = fmaxf(mx[r], __shfl_xor_sync(0xffffffffu, mx[r], x));
#pragma unroll
  for (int r = 0; r < 2; ++r)
#pragma unroll
    for (int c = 0; c < 16; ++c) {
      float& e = s[c % 2 + 2 * r + 4 * (c / 2)];
      e = __expf(e - mx[r]);
    }
#pragma unroll
  for (int r = 0; r < 2; ++r) {
    sum[r] = s[2 * r];
#pragma unroll
    for (int c = 1; c < 16; ++c) sum[r] = sum[r] + s[c % 2 + 2 * r + 4 * (c / 2)];
  }
#pragma unroll
  for (int x = 1; x <= 2; x *= 2)
#pragma unroll
    for (int r = 0; r < 2; ++r) sum[r] = sum[r] + __shfl_xor_sync(0xffffffffu, sum[r], x);
  alignas(4) __half p[32];
#pragma unroll
  for (int i = 0; i < 32; ++i) p[i] = __half(s[i]);
  alignas(4) __half v[128];
#pragma unroll
  for (int i = 0; i < 128; ++i) v[i] = v_in[t * 128 + i];
  float o[32];
#pragma unroll
  for (int i = 0; i < 32; ++i) o[i] = 0.0f;
    // k-block k of P V: P's n-atoms 2k, 2k+1 (registers 8k..8k+7) are A's 8 values.
#pragma unroll
  for (int k = 0; k < 4; ++k)
#pragma unroll
    for (int n = 0; n < 8; ++n) hand_mma(&o[4 * n], &p[8 * k], &v[4 * (n + 8 * k)]);
#pragma unroll
  for (int r = 0; r < 2; ++r)
#pragma unroll
    for (int c = 0; c < 16; ++c) {
      float& e = o[c % 2 + 2 * r + 4 * (c / 2)];
      e = e / sum[r];
    }
#pragma unroll
  for (int i = 0; i < 32; ++i) o_out[t * 32 + i] = o[i];
#pragma unroll
  for (int r = 0; r < 2; ++r) stats[t * 4 + r] = mx[r], stats[t * 4 + 2 + r] = sum[r];
}

// ---------------------------------------------------------------------------------------------
// Hopper: the same P V product with wgmma RS on one warpgroup: S (64x64, wgmma m64n64k16 SS)
// converted to f16 and read as the A operand (acc_as_A) of O = P V (m64n64k16 RS, V an MN-major
// 64x64 stage in shared memory).
namespace {
struct WgS {
  static constexpr TiledMMA kMma = make_tiled_mma(atom::sm90_64xNx16(64, false),
                                                  Layout("(1,1,1)"_tuple));
};
struct WgO {
  static constexpr TiledMMA kMma = make_tiled_mma(atom::sm90_64xNx16(64, true),
                                                  Layout("(1,1,1)"_tuple));
};
// V as O's B operand: (N, K) = (head dim, keys), N contiguous (MN-major), one stage.
constexpr StagedTile kV = make_staged_tile(16, 64, 64, false, 64, 1);
}  // namespace

__global__ void rs_tessera(const float* s_in, float* o_out) {
  __shared__ SmemStages<__half, kV> v;
  const int64_t t = threadIdx.x;
  const WarpgroupMMA<WgS> mma_s{0};
  const WarpgroupMMA<WgO> mma_o{0};
  auto s = mma_s.partition_fragment_C();  // ((2,2,8),1,1)
#pragma unroll
  for (int i = 0; i < 32; ++i) s(i) = s_in[t * 32 + i];
  auto p = convert<__half>(s);
  auto o = mma_o.partition_fragment_C();
  gemm(mma_o, acc_as_A<WgO>(mma_s, p), mma_o.partition_B(v(_, _, 0)), o, false);
  warpgroup_wait<0>(o);
#pragma unroll
  for (int i = 0; i < 32; ++i) o_out[t * 32 + i] = o(i);
}

// The twin: A's k-step j, value (v0, v1, v2) is S's row t1 + 8 v1, column 16 j + 2 t0 + v0 + 8 v2,
// i.e. S's register 8 j + v0 + 2 v1 + 4 v2: A register i of k-step j packs P's 8 j + 2 i, + 1.
__global__ void rs_hand(const float* s_in, float* o_out) {
  __shared__ SmemStages<__half, kV> v;
  const int64_t t = threadIdx.x;
  float s[32];
#pragma unroll
  for (int i = 0; i < 32; ++i) s[i] = s_in[t * 32 + i];
  alignas(4) __half p[32];
#pragma unroll
  for (int i = 0; i < 32; ++i) p[i] = __half(s[i]);
  uint32_t a[4][4];
#pragma unroll
  for (int j = 0; j < 4; ++j)
#pragma unroll
    for (int i = 0; i < 4; ++i) a[j][i] = reinterpret_cast<uint32_t const&>(p[8 * j + 2 * i]);
  float o[32] = {};  // (partition_fragment_C's accumulators start at zero)
  gemm<64, __half>(a, make_gmma_tensor<kV.mma>(v.data), 0, o, false);
  warpgroup_wait<0>(o);
#pragma unroll
  for (int i = 0; i < 32; ++i) o_out[t * 32 + i] = o[i];
}
