// tessera/atom/sm90.hpp -- Hopper's asynchronous instructions (sm_90a): mbarriers, TMA tile
// loads, wgmma and setmaxnreg. Device code only; the layouts they are used with (shared tiles,
// descriptors, TMA boxes, accumulator TV layouts) are in smem.hpp, copy.hpp and mma.hpp.
//
// The protocol a kernel builds from them (one k-tile stage):
//   producer: wait(empty[s]) -> arrive_expect_tx(full[s], bytes) -> tma_load_2d(.., full[s])
//   consumer: wait(full[s]) -> wgmma_fence -> wgmma... -> wgmma_commit -> wgmma_wait<1>
//             -> arrive(empty[previous s])
// A barrier completes a phase when its arrivals and its expected transaction bytes are in;
// waiters name the phase parity they wait for (0, 1, 0, ... per round of the stages).
#pragma once

#include <cstdint>
#include <type_traits>

#if defined(__CUDACC__)
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_fp8.h>

namespace tessera {

// The element types wgmma multiplies, as shared memory and A's registers hold them: kBits per
// element (0: not a wgmma type). 16-bit types and tf32 (float) multiply their own type; the FP8
// formats multiply each other in any pair (e4m3 x e5m2 too). Only 16-bit tiles may be MN-major:
// the PTX ISA has the transposed layouts (imm-trans-a/b) for .f16 and .bf16 only.
template <class T>
struct WgmmaElement {
  static constexpr int kBits = 0;
};
template <>
struct WgmmaElement<__half> {
  static constexpr int kBits = 16;
};
template <>
struct WgmmaElement<__nv_bfloat16> {
  static constexpr int kBits = 16;
};
template <>
struct WgmmaElement<float> {  // read as tf32 (the top 19 bits)
  static constexpr int kBits = 32;
};
template <>
struct WgmmaElement<__nv_fp8_e4m3> {
  static constexpr int kBits = 8;
};
template <>
struct WgmmaElement<__nv_fp8_e5m2> {
  static constexpr int kBits = 8;
};
template <class T>
inline constexpr bool kWgmmaFp8 = WgmmaElement<T>::kBits == 8;
// Whether one wgmma instruction multiplies A of TA by B of TB.
template <class TA, class TB>
inline constexpr bool kWgmmaTakes = WgmmaElement<TA>::kBits != 0 &&
                                    (std::is_same_v<TA, TB> || (kWgmmaFp8<TA> && kWgmmaFp8<TB>));
// Whether tiles of T may be MN-major (transposed).
template <class T>
inline constexpr bool kWgmmaTransposes = WgmmaElement<T>::kBits == 16;

}  // namespace tessera

namespace tessera::ptx {

__device__ inline uint32_t smem_u32(void const* p) {
  return static_cast<uint32_t>(__cvta_generic_to_shared(p));
}

// ---- mbarrier --------------------------------------------------------------------------------
__device__ inline void mbarrier_init(uint64_t* bar, uint32_t arrivals) {
  asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;\n" ::"r"(smem_u32(bar)), "r"(arrivals)
               : "memory");
}
// Makes initialized barriers visible to the async proxy (TMA) before first use.
__device__ inline void fence_barrier_init() {
  asm volatile("fence.mbarrier_init.release.cluster;\n" ::: "memory");
}
__device__ inline void mbarrier_arrive(uint64_t* bar) {
  asm volatile("mbarrier.arrive.shared::cta.b64 _, [%0];\n" ::"r"(smem_u32(bar)) : "memory");
}
// Arrives and adds `bytes` to the transaction count the phase waits for (the TMA loads').
__device__ inline void mbarrier_arrive_expect_tx(uint64_t* bar, uint32_t bytes) {
  asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;\n" ::"r"(smem_u32(bar)),
               "r"(bytes)
               : "memory");
}
// The barrier's current phase also waits for this thread's cp.async copies issued so far: one
// more pending arrival now, made when they complete (visible then to the barrier's waiters).
__device__ inline void cp_async_arrive(uint64_t* bar) {
  asm volatile("cp.async.mbarrier.arrive.shared::cta.b64 [%0];\n" ::"r"(smem_u32(bar)) : "memory");
}
// Blocks until the phase with parity `parity` has completed.
__device__ inline void mbarrier_wait(uint64_t* bar, uint32_t parity) {
  asm volatile(
      "{\n"
      ".reg .pred done;\n"
      "wait_again:\n"
      "mbarrier.try_wait.parity.shared::cta.b64 done, [%0], %1;\n"
      "@!done bra wait_again;\n"
      "}\n" ::"r"(smem_u32(bar)),
      "r"(parity)
      : "memory");
}

// ---- warps ------------------------------------------------------------------------------------
// One lane of the (converged) warp returns true: the lowest active lane, chosen by elect.sync.
__device__ inline bool elect_one_sync() {
  uint32_t elected = 0;
  asm volatile(
      "{\n.reg .b32 lane;\n.reg .pred p;\n"
      "elect.sync lane|p, 0xffffffff;\n"
      "selp.u32 %0, 1, 0, p;\n}\n"
      : "=r"(elected));
  return elected != 0;
}

// ---- clusters ----------------------------------------------------------------------------------
__device__ inline uint32_t cluster_ctarank() {
  uint32_t r;
  asm volatile("mov.u32 %0, %%cluster_ctarank;\n" : "=r"(r));
  return r;
}
// All threads of all CTAs of the cluster (also orders barrier initialization before remote use).
__device__ inline void cluster_sync() {
  asm volatile("barrier.cluster.arrive.release.aligned;\nbarrier.cluster.wait.acquire.aligned;\n" ::
                   : "memory");
}
// The same without ordering memory: after fence_barrier_init, whose release already publishes
// the barriers' initialization to the cluster.
__device__ inline void cluster_sync_relaxed() {
  asm volatile("barrier.cluster.arrive.relaxed.aligned;\nbarrier.cluster.wait.aligned;\n" ::
                   : "memory");
}
// Arrives on the barrier at the same shared-memory offset in CTA `rank` of the cluster.
__device__ inline void mbarrier_arrive_cluster(uint64_t* bar, uint32_t rank) {
  asm volatile(
      "{\n.reg .b32 remote;\n"
      "mapa.shared::cluster.u32 remote, %0, %1;\n"
      "mbarrier.arrive.shared::cluster.b64 _, [remote];\n}\n" ::"r"(smem_u32(bar)),
      "r"(rank)
      : "memory");
}

// ---- TMA ---------------------------------------------------------------------------------------
// One box of a 2-D tensor map into shared memory at coordinates (c0 innermost, c1); completes
// its bytes on `bar`. Out-of-bounds elements of the box are written as zeros.
__device__ inline void tma_load_2d(void* smem_dst, void const* tensor_map, int32_t c0, int32_t c1,
                                   uint64_t* bar) {
  asm volatile(
      "cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes"
      " [%0], [%1, {%2, %3}], [%4];\n" ::"r"(smem_u32(smem_dst)),
      "l"(reinterpret_cast<uint64_t>(tensor_map)), "r"(c0), "r"(c1), "r"(smem_u32(bar))
      : "memory");
}
// The same for tensor maps of 1 to 5 dimensions, coordinates c[0..R) (innermost first). The
// coordinates are always operands %0..%4 (unused ones are not named by the instruction), so one
// brace list per rank serves every form.
#define TESSERA_TMA_CRD_1 "{%0}"
#define TESSERA_TMA_CRD_2 "{%0, %1}"
#define TESSERA_TMA_CRD_3 "{%0, %1, %2}"
#define TESSERA_TMA_CRD_4 "{%0, %1, %2, %3}"
#define TESSERA_TMA_CRD_5 "{%0, %1, %2, %3, %4}"
#define TESSERA_TMA_CRD_OPERANDS "r"(c[0]), "r"(c[1]), "r"(c[2]), "r"(c[3]), "r"(c[4])
#define TESSERA_TMA_BY_RANK(STMT) \
  if constexpr (R == 1) STMT(1);  \
  if constexpr (R == 2) STMT(2);  \
  if constexpr (R == 3) STMT(3);  \
  if constexpr (R == 4) STMT(4);  \
  if constexpr (R == 5) STMT(5)
template <int R>
__device__ inline void tma_load(void* smem_dst, void const* tensor_map, int32_t const (&c)[5],
                                uint64_t* bar) {
  static_assert(R >= 1 && R <= 5, "tma_load: 1 to 5 dimensions");
#define TESSERA_TMA_LOAD(r)                                                                \
  asm volatile("cp.async.bulk.tensor." #r                                                  \
               "d.shared::cluster.global.mbarrier::complete_tx::bytes"                     \
               " [%5], [%6, " TESSERA_TMA_CRD_##r "], [%7];\n" ::TESSERA_TMA_CRD_OPERANDS, \
               "r"(smem_u32(smem_dst)), "l"(reinterpret_cast<uint64_t>(tensor_map)),       \
               "r"(smem_u32(bar))                                                          \
               : "memory")
  TESSERA_TMA_BY_RANK(TESSERA_TMA_LOAD);
#undef TESSERA_TMA_LOAD
}
// The same box written to the same shared offset of every CTA in `cta_mask` (bit i = cluster
// rank i), completing on the barrier at `bar`'s offset in each of them.
template <int R>
__device__ inline void tma_load_multicast(void* smem_dst, void const* tensor_map,
                                          int32_t const (&c)[5], uint64_t* bar, uint16_t cta_mask) {
  static_assert(R >= 1 && R <= 5, "tma_load_multicast: 1 to 5 dimensions");
#define TESSERA_TMA_LOAD_MC(r)                                                                 \
  asm volatile("cp.async.bulk.tensor." #r                                                      \
               "d.shared::cluster.global.mbarrier::complete_tx::bytes.multicast::cluster"      \
               " [%5], [%6, " TESSERA_TMA_CRD_##r "], [%7], %8;\n" ::TESSERA_TMA_CRD_OPERANDS, \
               "r"(smem_u32(smem_dst)), "l"(reinterpret_cast<uint64_t>(tensor_map)),           \
               "r"(smem_u32(bar)), "h"(cta_mask)                                               \
               : "memory")
  TESSERA_TMA_BY_RANK(TESSERA_TMA_LOAD_MC);
#undef TESSERA_TMA_LOAD_MC
}
template <int R>
__device__ inline void tma_store(void const* tensor_map, void const* smem_src,
                                 int32_t const (&c)[5]) {
  static_assert(R >= 1 && R <= 5, "tma_store: 1 to 5 dimensions");
#define TESSERA_TMA_STORE(r)                                                        \
  asm volatile("cp.async.bulk.tensor." #r                                           \
               "d.global.shared::cta.bulk_group [%5, " TESSERA_TMA_CRD_##r          \
               "], [%6];\n" ::TESSERA_TMA_CRD_OPERANDS,                             \
               "l"(reinterpret_cast<uint64_t>(tensor_map)), "r"(smem_u32(smem_src)) \
               : "memory")
  TESSERA_TMA_BY_RANK(TESSERA_TMA_STORE);
#undef TESSERA_TMA_STORE
}
#undef TESSERA_TMA_BY_RANK
#undef TESSERA_TMA_CRD_OPERANDS
#undef TESSERA_TMA_CRD_1
#undef TESSERA_TMA_CRD_2
#undef TESSERA_TMA_CRD_3
#undef TESSERA_TMA_CRD_4
#undef TESSERA_TMA_CRD_5

// TMA stores are tracked by bulk groups: commit, then wait until at most N groups still read
// shared memory (wait_read) or are still writing (wait).
__device__ inline void bulk_commit() { asm volatile("cp.async.bulk.commit_group;\n" ::: "memory"); }
template <int N>
__device__ inline void bulk_wait_read() {
  asm volatile("cp.async.bulk.wait_group.read %0;\n" ::"n"(N) : "memory");
}
template <int N>
__device__ inline void bulk_wait() {
  asm volatile("cp.async.bulk.wait_group %0;\n" ::"n"(N) : "memory");
}
// Orders this thread's ordinary shared-memory writes before later async-proxy (TMA) reads.
__device__ inline void fence_proxy_async_smem() {
  asm volatile("fence.proxy.async.shared::cta;\n" ::: "memory");
}
__device__ inline void prefetch_tensor_map(void const* tensor_map) {
  asm volatile("prefetch.tensormap [%0];\n" ::"l"(reinterpret_cast<uint64_t>(tensor_map))
               : "memory");
}

// A barrier among `threads` threads (a multiple of 32) that leaves the others running; id 0 is
// __syncthreads'.
__device__ inline void named_barrier_sync(uint32_t id, uint32_t threads) {
  asm volatile("bar.sync %0, %1;\n" ::"r"(id), "r"(threads) : "memory");
}
// Arrives on that barrier without waiting (the barrier completes when `threads` threads have
// arrived or synced on it).
__device__ inline void named_barrier_arrive(uint32_t id, uint32_t threads) {
  asm volatile("bar.arrive %0, %1;\n" ::"r"(id), "r"(threads) : "memory");
}

// ---- register budget per warpgroup -------------------------------------------------------------
template <int kRegs>
__device__ inline void setmaxnreg_inc() {
  asm volatile("setmaxnreg.inc.sync.aligned.u32 %0;\n" ::"n"(kRegs));
}
template <int kRegs>
__device__ inline void setmaxnreg_dec() {
  asm volatile("setmaxnreg.dec.sync.aligned.u32 %0;\n" ::"n"(kRegs));
}

// ---- wgmma -------------------------------------------------------------------------------------
__device__ inline void wgmma_fence() { asm volatile("wgmma.fence.sync.aligned;\n" ::: "memory"); }
__device__ inline void wgmma_commit() {
  asm volatile("wgmma.commit_group.sync.aligned;\n" ::: "memory");
}
// Waits until at most N committed groups are still in flight.
template <int N>
__device__ inline void wgmma_wait() {
  asm volatile("wgmma.wait_group.sync.aligned %0;\n" ::"n"(N) : "memory");
}
// Keeps the compiler from moving accesses of an accumulator register across wgmma issue / wait
// (the instructions read and write registers the compiler does not see them use).
__device__ inline void fence_operand(float& r) { asm volatile("" : "+f"(r)::"memory"); }
// Keeps r live, unchanged in its register, up to here (a use, not a definition).
__device__ inline void keep_live(uint32_t r) { asm volatile("" ::"r"(r) : "memory"); }

// ---- wgmma for every N (8..256 step 8) ----------------------------------------------------------
// m64nNk{16,8,32} with F32 accumulators d[N/2] in the atom's C order (mma.hpp, sm90_64xNx16). The
// instruction names its N/2 accumulator registers in one brace list, so the operand list and the
// template string depend on N. Every form puts its four other operands first (%0..%3: A's
// descriptor or two 64-bit halves of its registers, B's descriptor, scale-d, and for SS an unused
// padding register), so the accumulators are always %4..%(3 + N/2): TESSERA_WGMMA_D_g names the
// first 4g of them, TESSERA_WGMMA_C_g binds d[0..4g), and TESSERA_WGMMA_NS lists (N, g = N/8).
#define TESSERA_WGMMA_F4(i) "+f"(d[i]), "+f"(d[i + 1]), "+f"(d[i + 2]), "+f"(d[i + 3])
#define TESSERA_WGMMA_D_1 "%4, %5, %6, %7"
#define TESSERA_WGMMA_C_1 TESSERA_WGMMA_F4(0)
#define TESSERA_WGMMA_D_2 TESSERA_WGMMA_D_1 ", %8, %9, %10, %11"
#define TESSERA_WGMMA_C_2 TESSERA_WGMMA_C_1, TESSERA_WGMMA_F4(4)
#define TESSERA_WGMMA_D_3 TESSERA_WGMMA_D_2 ", %12, %13, %14, %15"
#define TESSERA_WGMMA_C_3 TESSERA_WGMMA_C_2, TESSERA_WGMMA_F4(8)
#define TESSERA_WGMMA_D_4 TESSERA_WGMMA_D_3 ", %16, %17, %18, %19"
#define TESSERA_WGMMA_C_4 TESSERA_WGMMA_C_3, TESSERA_WGMMA_F4(12)
#define TESSERA_WGMMA_D_5 TESSERA_WGMMA_D_4 ", %20, %21, %22, %23"
#define TESSERA_WGMMA_C_5 TESSERA_WGMMA_C_4, TESSERA_WGMMA_F4(16)
#define TESSERA_WGMMA_D_6 TESSERA_WGMMA_D_5 ", %24, %25, %26, %27"
#define TESSERA_WGMMA_C_6 TESSERA_WGMMA_C_5, TESSERA_WGMMA_F4(20)
#define TESSERA_WGMMA_D_7 TESSERA_WGMMA_D_6 ", %28, %29, %30, %31"
#define TESSERA_WGMMA_C_7 TESSERA_WGMMA_C_6, TESSERA_WGMMA_F4(24)
#define TESSERA_WGMMA_D_8 TESSERA_WGMMA_D_7 ", %32, %33, %34, %35"
#define TESSERA_WGMMA_C_8 TESSERA_WGMMA_C_7, TESSERA_WGMMA_F4(28)
#define TESSERA_WGMMA_D_9 TESSERA_WGMMA_D_8 ", %36, %37, %38, %39"
#define TESSERA_WGMMA_C_9 TESSERA_WGMMA_C_8, TESSERA_WGMMA_F4(32)
#define TESSERA_WGMMA_D_10 TESSERA_WGMMA_D_9 ", %40, %41, %42, %43"
#define TESSERA_WGMMA_C_10 TESSERA_WGMMA_C_9, TESSERA_WGMMA_F4(36)
#define TESSERA_WGMMA_D_11 TESSERA_WGMMA_D_10 ", %44, %45, %46, %47"
#define TESSERA_WGMMA_C_11 TESSERA_WGMMA_C_10, TESSERA_WGMMA_F4(40)
#define TESSERA_WGMMA_D_12 TESSERA_WGMMA_D_11 ", %48, %49, %50, %51"
#define TESSERA_WGMMA_C_12 TESSERA_WGMMA_C_11, TESSERA_WGMMA_F4(44)
#define TESSERA_WGMMA_D_13 TESSERA_WGMMA_D_12 ", %52, %53, %54, %55"
#define TESSERA_WGMMA_C_13 TESSERA_WGMMA_C_12, TESSERA_WGMMA_F4(48)
#define TESSERA_WGMMA_D_14 TESSERA_WGMMA_D_13 ", %56, %57, %58, %59"
#define TESSERA_WGMMA_C_14 TESSERA_WGMMA_C_13, TESSERA_WGMMA_F4(52)
#define TESSERA_WGMMA_D_15 TESSERA_WGMMA_D_14 ", %60, %61, %62, %63"
#define TESSERA_WGMMA_C_15 TESSERA_WGMMA_C_14, TESSERA_WGMMA_F4(56)
#define TESSERA_WGMMA_D_16 TESSERA_WGMMA_D_15 ", %64, %65, %66, %67"
#define TESSERA_WGMMA_C_16 TESSERA_WGMMA_C_15, TESSERA_WGMMA_F4(60)
#define TESSERA_WGMMA_D_17 TESSERA_WGMMA_D_16 ", %68, %69, %70, %71"
#define TESSERA_WGMMA_C_17 TESSERA_WGMMA_C_16, TESSERA_WGMMA_F4(64)
#define TESSERA_WGMMA_D_18 TESSERA_WGMMA_D_17 ", %72, %73, %74, %75"
#define TESSERA_WGMMA_C_18 TESSERA_WGMMA_C_17, TESSERA_WGMMA_F4(68)
#define TESSERA_WGMMA_D_19 TESSERA_WGMMA_D_18 ", %76, %77, %78, %79"
#define TESSERA_WGMMA_C_19 TESSERA_WGMMA_C_18, TESSERA_WGMMA_F4(72)
#define TESSERA_WGMMA_D_20 TESSERA_WGMMA_D_19 ", %80, %81, %82, %83"
#define TESSERA_WGMMA_C_20 TESSERA_WGMMA_C_19, TESSERA_WGMMA_F4(76)
#define TESSERA_WGMMA_D_21 TESSERA_WGMMA_D_20 ", %84, %85, %86, %87"
#define TESSERA_WGMMA_C_21 TESSERA_WGMMA_C_20, TESSERA_WGMMA_F4(80)
#define TESSERA_WGMMA_D_22 TESSERA_WGMMA_D_21 ", %88, %89, %90, %91"
#define TESSERA_WGMMA_C_22 TESSERA_WGMMA_C_21, TESSERA_WGMMA_F4(84)
#define TESSERA_WGMMA_D_23 TESSERA_WGMMA_D_22 ", %92, %93, %94, %95"
#define TESSERA_WGMMA_C_23 TESSERA_WGMMA_C_22, TESSERA_WGMMA_F4(88)
#define TESSERA_WGMMA_D_24 TESSERA_WGMMA_D_23 ", %96, %97, %98, %99"
#define TESSERA_WGMMA_C_24 TESSERA_WGMMA_C_23, TESSERA_WGMMA_F4(92)
#define TESSERA_WGMMA_D_25 TESSERA_WGMMA_D_24 ", %100, %101, %102, %103"
#define TESSERA_WGMMA_C_25 TESSERA_WGMMA_C_24, TESSERA_WGMMA_F4(96)
#define TESSERA_WGMMA_D_26 TESSERA_WGMMA_D_25 ", %104, %105, %106, %107"
#define TESSERA_WGMMA_C_26 TESSERA_WGMMA_C_25, TESSERA_WGMMA_F4(100)
#define TESSERA_WGMMA_D_27 TESSERA_WGMMA_D_26 ", %108, %109, %110, %111"
#define TESSERA_WGMMA_C_27 TESSERA_WGMMA_C_26, TESSERA_WGMMA_F4(104)
#define TESSERA_WGMMA_D_28 TESSERA_WGMMA_D_27 ", %112, %113, %114, %115"
#define TESSERA_WGMMA_C_28 TESSERA_WGMMA_C_27, TESSERA_WGMMA_F4(108)
#define TESSERA_WGMMA_D_29 TESSERA_WGMMA_D_28 ", %116, %117, %118, %119"
#define TESSERA_WGMMA_C_29 TESSERA_WGMMA_C_28, TESSERA_WGMMA_F4(112)
#define TESSERA_WGMMA_D_30 TESSERA_WGMMA_D_29 ", %120, %121, %122, %123"
#define TESSERA_WGMMA_C_30 TESSERA_WGMMA_C_29, TESSERA_WGMMA_F4(116)
#define TESSERA_WGMMA_D_31 TESSERA_WGMMA_D_30 ", %124, %125, %126, %127"
#define TESSERA_WGMMA_C_31 TESSERA_WGMMA_C_30, TESSERA_WGMMA_F4(120)
#define TESSERA_WGMMA_D_32 TESSERA_WGMMA_D_31 ", %128, %129, %130, %131"
#define TESSERA_WGMMA_C_32 TESSERA_WGMMA_C_31, TESSERA_WGMMA_F4(124)
#define TESSERA_WGMMA_NS(X, TYPE, TAIL)                                                            \
  X(8, 1, TYPE, TAIL)                                                                              \
  X(16, 2, TYPE, TAIL) X(24, 3, TYPE, TAIL) X(32, 4, TYPE, TAIL) X(40, 5, TYPE, TAIL)              \
      X(48, 6, TYPE, TAIL) X(56, 7, TYPE, TAIL) X(64, 8, TYPE, TAIL) X(72, 9, TYPE, TAIL)          \
          X(80, 10, TYPE, TAIL) X(88, 11, TYPE, TAIL) X(96, 12, TYPE, TAIL) X(104, 13, TYPE, TAIL) \
              X(112, 14, TYPE, TAIL) X(120, 15, TYPE, TAIL) X(128, 16, TYPE, TAIL)                 \
                  X(136, 17, TYPE, TAIL) X(144, 18, TYPE, TAIL) X(152, 19, TYPE, TAIL)             \
                      X(160, 20, TYPE, TAIL) X(168, 21, TYPE, TAIL) X(176, 22, TYPE, TAIL)         \
                          X(184, 23, TYPE, TAIL) X(192, 24, TYPE, TAIL) X(200, 25, TYPE, TAIL)     \
                              X(208, 26, TYPE, TAIL) X(216, 27, TYPE, TAIL) X(224, 28, TYPE, TAIL) \
                                  X(232, 29, TYPE, TAIL) X(240, 30, TYPE, TAIL)                    \
                                      X(248, 31, TYPE, TAIL) X(256, 32, TYPE, TAIL)
// SS: A and B from shared memory; TYPE is "k16.f32.f16.f16"-like, TAIL the transposes (none for
// tf32 and FP8).
#define TESSERA_WGMMA_SS_CASE(n, g, TYPE, TAIL)                              \
  if constexpr (N == n)                                                      \
    asm volatile(                                                            \
        "{\n.reg .pred p;\nsetp.ne.b32 p, %2, 0;\n"                          \
        "wgmma.mma_async.sync.aligned.m64n" #n TYPE " {" TESSERA_WGMMA_D_##g \
        "}, %0, %1, p, 1, 1" TAIL ";\n}\n"                                   \
        : "+l"(desc_a), "+l"(desc_b), "+r"(scale_d), "+r"(pad), TESSERA_WGMMA_C_##g);
// RS: A from four 32-bit registers (passed as two 64-bit halves), B from shared memory.
#define TESSERA_WGMMA_RS_CASE(n, g, TYPE, TAIL)                                \
  if constexpr (N == n)                                                        \
    asm volatile(                                                              \
        "{\n.reg .pred p;\n.reg .b32 a0, a1, a2, a3;\nsetp.ne.b32 p, %3, 0;\n" \
        "mov.b64 {a0, a1}, %0;\nmov.b64 {a2, a3}, %1;\n"                       \
        "wgmma.mma_async.sync.aligned.m64n" #n TYPE " {" TESSERA_WGMMA_D_##g   \
        "}, {a0, a1, a2, a3}, %2, p, 1, 1" TAIL ";\n}\n"                       \
        : "+l"(a01), "+l"(a23), "+l"(desc_b), "+r"(scale_d), TESSERA_WGMMA_C_##g);

// The messages of the rules every wgmma form checks.
#define TESSERA_WGMMA_N_RULE "wgmma: N must be a multiple of 8 in [8, 256]"
#define TESSERA_WGMMA_TYPES_RULE                                                              \
  "rule::wgmma_cannot_mix_these_element_types: wgmma multiplies A and B of one type (__half, " \
  "__nv_bfloat16, float as tf32) or two FP8 formats (__nv_fp8_e4m3, __nv_fp8_e5m2, any pair)"
#define TESSERA_WGMMA_MAJOR_RULE                                                               \
  "rule::wgmma_reads_tf32_and_fp8_k_major: only 16-bit operands (__half, __nv_bfloat16) may be " \
  "MN-major (transposed); tf32 and FP8 tiles must be K-major"
// One FP8 form (FORM: SS or RS) for A of TA and B of TB: m64nNk32, no transpose immediates.
#define TESSERA_WGMMA_FP8(FORM)                                                   \
  constexpr bool kA4 = std::is_same_v<TA, __nv_fp8_e4m3>;                         \
  constexpr bool kB4 = std::is_same_v<TB, __nv_fp8_e4m3>;                         \
  if constexpr (kA4 && kB4) {                                                     \
    TESSERA_WGMMA_NS(TESSERA_WGMMA_##FORM##_CASE, "k32.f32.e4m3.e4m3", "")        \
  } else if constexpr (kA4) {                                                     \
    TESSERA_WGMMA_NS(TESSERA_WGMMA_##FORM##_CASE, "k32.f32.e4m3.e5m2", "")        \
  } else if constexpr (kB4) {                                                     \
    TESSERA_WGMMA_NS(TESSERA_WGMMA_##FORM##_CASE, "k32.f32.e5m2.e4m3", "")        \
  } else {                                                                        \
    TESSERA_WGMMA_NS(TESSERA_WGMMA_##FORM##_CASE, "k32.f32.e5m2.e5m2", "")        \
  }

// D (64 x N, F32) = A * B^T + scale_d * D for A of TA and B of TB (kWgmmaTakes: __half,
// __nv_bfloat16, float as tf32, each with itself; FP8 in any pair). kTransA / kTransB: 0 = K-major
// tile, 1 = MN-major (16-bit types only).
template <int N, class TA, class TB, int kTransA, int kTransB>
__device__ inline void wgmma_ss(float (&d)[N / 2], uint64_t desc_a, uint64_t desc_b, int scale_d) {
  static_assert(N >= 8 && N <= 256 && N % 8 == 0, TESSERA_WGMMA_N_RULE);
  static_assert(kWgmmaTakes<TA, TB>, TESSERA_WGMMA_TYPES_RULE);
  static_assert(kWgmmaTransposes<TA> || (kTransA == 0 && kTransB == 0), TESSERA_WGMMA_MAJOR_RULE);
  uint32_t pad = 0;
  if constexpr (!kWgmmaTakes<TA, TB>) {
    // (only the message above)
  } else if constexpr (kWgmmaFp8<TA>) {
    TESSERA_WGMMA_FP8(SS)
  } else if constexpr (sizeof(TA) == 4) {
    TESSERA_WGMMA_NS(TESSERA_WGMMA_SS_CASE, "k8.f32.tf32.tf32", "")
  } else if constexpr (std::is_same_v<TA, __half>) {
    if constexpr (kTransA == 0 && kTransB == 0) {
      TESSERA_WGMMA_NS(TESSERA_WGMMA_SS_CASE, "k16.f32.f16.f16", ", 0, 0")
    }
    if constexpr (kTransA == 0 && kTransB == 1) {
      TESSERA_WGMMA_NS(TESSERA_WGMMA_SS_CASE, "k16.f32.f16.f16", ", 0, 1")
    }
    if constexpr (kTransA == 1 && kTransB == 0) {
      TESSERA_WGMMA_NS(TESSERA_WGMMA_SS_CASE, "k16.f32.f16.f16", ", 1, 0")
    }
    if constexpr (kTransA == 1 && kTransB == 1) {
      TESSERA_WGMMA_NS(TESSERA_WGMMA_SS_CASE, "k16.f32.f16.f16", ", 1, 1")
    }
  } else {
    if constexpr (kTransA == 0 && kTransB == 0) {
      TESSERA_WGMMA_NS(TESSERA_WGMMA_SS_CASE, "k16.f32.bf16.bf16", ", 0, 0")
    }
    if constexpr (kTransA == 0 && kTransB == 1) {
      TESSERA_WGMMA_NS(TESSERA_WGMMA_SS_CASE, "k16.f32.bf16.bf16", ", 0, 1")
    }
    if constexpr (kTransA == 1 && kTransB == 0) {
      TESSERA_WGMMA_NS(TESSERA_WGMMA_SS_CASE, "k16.f32.bf16.bf16", ", 1, 0")
    }
    if constexpr (kTransA == 1 && kTransB == 1) {
      TESSERA_WGMMA_NS(TESSERA_WGMMA_SS_CASE, "k16.f32.bf16.bf16", ", 1, 1")
    }
  }
}
// The same with A from registers a[0..4) (the A fragment of the RS atoms: 8 16-bit values, 4 tf32
// values or 16 FP8 values, packed low first), A's values of TA. Only B has a transpose.
template <int N, class TA, class TB, int kTransB>
__device__ inline void wgmma_rs(float (&d)[N / 2], uint32_t const (&a)[4], uint64_t desc_b,
                                int scale_d) {
  static_assert(N >= 8 && N <= 256 && N % 8 == 0, TESSERA_WGMMA_N_RULE);
  static_assert(kWgmmaTakes<TA, TB>, TESSERA_WGMMA_TYPES_RULE);
  static_assert(kWgmmaTransposes<TB> || kTransB == 0, TESSERA_WGMMA_MAJOR_RULE);
  uint64_t a01 = uint64_t(a[0]) | uint64_t(a[1]) << 32, a23 = uint64_t(a[2]) | uint64_t(a[3]) << 32;
  if constexpr (!kWgmmaTakes<TA, TB>) {
    // (only the message above)
  } else if constexpr (kWgmmaFp8<TA>) {
    TESSERA_WGMMA_FP8(RS)
  } else if constexpr (sizeof(TA) == 4) {
    TESSERA_WGMMA_NS(TESSERA_WGMMA_RS_CASE, "k8.f32.tf32.tf32", "")
  } else if constexpr (std::is_same_v<TA, __half>) {
    if constexpr (kTransB == 0) {
      TESSERA_WGMMA_NS(TESSERA_WGMMA_RS_CASE, "k16.f32.f16.f16", ", 0")
    }
    if constexpr (kTransB == 1) {
      TESSERA_WGMMA_NS(TESSERA_WGMMA_RS_CASE, "k16.f32.f16.f16", ", 1")
    }
  } else {
    if constexpr (kTransB == 0) {
      TESSERA_WGMMA_NS(TESSERA_WGMMA_RS_CASE, "k16.f32.bf16.bf16", ", 0")
    }
    if constexpr (kTransB == 1) {
      TESSERA_WGMMA_NS(TESSERA_WGMMA_RS_CASE, "k16.f32.bf16.bf16", ", 1")
    }
  }
}
#undef TESSERA_WGMMA_FP8
#undef TESSERA_WGMMA_MAJOR_RULE
#undef TESSERA_WGMMA_TYPES_RULE
#undef TESSERA_WGMMA_N_RULE
#undef TESSERA_WGMMA_SS_CASE
#undef TESSERA_WGMMA_RS_CASE
#undef TESSERA_WGMMA_NS
#undef TESSERA_WGMMA_F4

// m64n256k{16,8} with F32 accumulators d[128] in the atom's C order (mma.hpp, sm90_64xNx16):
// A and B from shared memory through descriptors; scale_d = 0 overwrites d (first k-step).
// kTransA / kTransB: 0 = K-major tile, 1 = MN-major (16-bit types only).
#define TESSERA_WGMMA_D_REGS                                                                      \
  "{%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, "                      \
  "%16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31, "              \
  "%32, %33, %34, %35, %36, %37, %38, %39, %40, %41, %42, %43, %44, %45, %46, %47, "              \
  "%48, %49, %50, %51, %52, %53, %54, %55, %56, %57, %58, %59, %60, %61, %62, %63, "              \
  "%64, %65, %66, %67, %68, %69, %70, %71, %72, %73, %74, %75, %76, %77, %78, %79, "              \
  "%80, %81, %82, %83, %84, %85, %86, %87, %88, %89, %90, %91, %92, %93, %94, %95, "              \
  "%96, %97, %98, %99, %100, %101, %102, %103, %104, %105, %106, %107, %108, %109, %110, %111, "  \
  "%112, %113, %114, %115, %116, %117, %118, %119, %120, %121, %122, %123, %124, %125, %126, %127}"
#define TESSERA_WGMMA_D8(i)                                                                    \
  "+f"(d[i]), "+f"(d[i + 1]), "+f"(d[i + 2]), "+f"(d[i + 3]), "+f"(d[i + 4]), "+f"(d[i + 5]), \
      "+f"(d[i + 6]), "+f"(d[i + 7])
#define TESSERA_WGMMA_D128                                                                   \
  TESSERA_WGMMA_D8(0), TESSERA_WGMMA_D8(8), TESSERA_WGMMA_D8(16), TESSERA_WGMMA_D8(24),      \
      TESSERA_WGMMA_D8(32), TESSERA_WGMMA_D8(40), TESSERA_WGMMA_D8(48), TESSERA_WGMMA_D8(56), \
      TESSERA_WGMMA_D8(64), TESSERA_WGMMA_D8(72), TESSERA_WGMMA_D8(80), TESSERA_WGMMA_D8(88), \
      TESSERA_WGMMA_D8(96), TESSERA_WGMMA_D8(104), TESSERA_WGMMA_D8(112), TESSERA_WGMMA_D8(120)
#define TESSERA_WGMMA_16BIT(type)                                                            \
  asm volatile(                                                                              \
      "{\n.reg .pred p;\nsetp.ne.b32 p, %130, 0;\n"                                          \
      "wgmma.mma_async.sync.aligned.m64n256k16.f32." type "." type " " TESSERA_WGMMA_D_REGS \
      ", %128, %129, p, 1, 1, %131, %132;\n}\n"                                              \
      : TESSERA_WGMMA_D128                                                                   \
      : "l"(desc_a), "l"(desc_b), "r"(scale_d), "n"(kTransA), "n"(kTransB))

template <int kTransA, int kTransB>
__device__ inline void wgmma_m64n256k16_f16(float (&d)[128], uint64_t desc_a, uint64_t desc_b,
                                            int scale_d) {
  TESSERA_WGMMA_16BIT("f16");
}
template <int kTransA, int kTransB>
__device__ inline void wgmma_m64n256k16_bf16(float (&d)[128], uint64_t desc_a, uint64_t desc_b,
                                             int scale_d) {
  TESSERA_WGMMA_16BIT("bf16");
}
// tf32 has no transposed form: both tiles K-major.
__device__ inline void wgmma_m64n256k8_tf32(float (&d)[128], uint64_t desc_a, uint64_t desc_b,
                                            int scale_d) {
  asm volatile(
      "{\n.reg .pred p;\nsetp.ne.b32 p, %130, 0;\n"
      "wgmma.mma_async.sync.aligned.m64n256k8.f32.tf32.tf32 " TESSERA_WGMMA_D_REGS
      ", %128, %129, p, 1, 1;\n}\n"
      : TESSERA_WGMMA_D128
      : "l"(desc_a), "l"(desc_b), "r"(scale_d));
}
#undef TESSERA_WGMMA_16BIT
#undef TESSERA_WGMMA_D128
#undef TESSERA_WGMMA_D8
#undef TESSERA_WGMMA_D_REGS

}  // namespace tessera::ptx
#endif
