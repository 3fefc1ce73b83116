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

#if defined(__CUDACC__)
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
// The same box written to the same shared offset of every CTA in `cta_mask` (bit i = cluster
// rank i), completing on the barrier at `bar`'s offset in each of them.
__device__ inline void tma_load_2d_multicast(void* smem_dst, void const* tensor_map, int32_t c0,
                                             int32_t c1, uint64_t* bar, uint16_t cta_mask) {
  asm volatile(
      "cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes.multicast::cluster"
      " [%0], [%1, {%2, %3}], [%4], %5;\n" ::"r"(smem_u32(smem_dst)),
      "l"(reinterpret_cast<uint64_t>(tensor_map)), "r"(c0), "r"(c1), "r"(smem_u32(bar)),
      "h"(cta_mask)
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
__device__ inline void tma_load(void* smem_dst, void const* tensor_map, int32_t const (&c)[5], uint64_t* bar) {
  static_assert(R >= 1 && R <= 5, "tma_load: 1 to 5 dimensions");
#define TESSERA_TMA_LOAD(r)                                                                              \
  asm volatile("cp.async.bulk.tensor." #r "d.shared::cluster.global.mbarrier::complete_tx::bytes"      \
               " [%5], [%6, " TESSERA_TMA_CRD_##r "], [%7];\n" ::TESSERA_TMA_CRD_OPERANDS,             \
               "r"(smem_u32(smem_dst)), "l"(reinterpret_cast<uint64_t>(tensor_map)), "r"(smem_u32(bar)) \
               : "memory")
  TESSERA_TMA_BY_RANK(TESSERA_TMA_LOAD);
#undef TESSERA_TMA_LOAD
}
template <int R>
__device__ inline void tma_load_multicast(void* smem_dst, void const* tensor_map, int32_t const (&c)[5], uint64_t* bar,
                                          uint16_t cta_mask) {
  static_assert(R >= 1 && R <= 5, "tma_load_multicast: 1 to 5 dimensions");
#define TESSERA_TMA_LOAD_MC(r)                                                                                  \
  asm volatile("cp.async.bulk.tensor." #r "d.shared::cluster.global.mbarrier::complete_tx::bytes.multicast::cluster" \
               " [%5], [%6, " TESSERA_TMA_CRD_##r "], [%7], %8;\n" ::TESSERA_TMA_CRD_OPERANDS,                  \
               "r"(smem_u32(smem_dst)), "l"(reinterpret_cast<uint64_t>(tensor_map)), "r"(smem_u32(bar)),        \
               "h"(cta_mask)                                                                                      \
               : "memory")
  TESSERA_TMA_BY_RANK(TESSERA_TMA_LOAD_MC);
#undef TESSERA_TMA_LOAD_MC
}
template <int R>
__device__ inline void tma_store(void const* tensor_map, void const* smem_src, int32_t const (&c)[5]) {
  static_assert(R >= 1 && R <= 5, "tma_store: 1 to 5 dimensions");
#define TESSERA_TMA_STORE(r)                                                                       \
  asm volatile("cp.async.bulk.tensor." #r "d.global.shared::cta.bulk_group [%5, " TESSERA_TMA_CRD_##r \
               "], [%6];\n" ::TESSERA_TMA_CRD_OPERANDS,                                            \
               "l"(reinterpret_cast<uint64_t>(tensor_map)), "r"(smem_u32(smem_src))                 \
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

// Shared memory -> global through a 2-D tensor map (out-of-bounds parts of the box are not
// written); tracked by bulk groups: commit, then wait until at most N groups still read shared
// memory (wait_read) or are still writing (wait).
__device__ inline void tma_store_2d(void const* tensor_map, void const* smem_src, int32_t c0, int32_t c1) {
  asm volatile("cp.async.bulk.tensor.2d.global.shared::cta.bulk_group [%0, {%1, %2}], [%3];\n" ::"l"(
                   reinterpret_cast<uint64_t>(tensor_map)),
               "r"(c0), "r"(c1), "r"(smem_u32(smem_src))
               : "memory");
}
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
