// Device cross-check of analysis.hpp: each case runs exactly the accesses the analysis models and
// Nsight Compute counts them (tests/device/run_ncu.sh joins the two).
//
// For each case the host takes a partition (TvAccess or MmaAccess), computes tessera's prediction
// and each thread's instruction start offsets (run_starts at the predicted vector width), and
// puts the offsets in constant memory (so reading them adds no global or shared traffic). One
// block of the partition's threads then issues, per instruction j, one ld/st of the predicted
// width at its start offset: ld.shared / ld.global / st.global .u16/.u32/.v2.u32/.v4.u32.
//
//   ./bank_conflicts --predict   CSV: launch,case,metric,predicted (one kernel launch per case)
//   ./bank_conflicts             runs the launches in the same order (under ncu)
//
// Build: nvcc -std=c++20 -O2 -gencode=arch=compute_90a,code=sm_90a -Iinclude \
//          tests/device/bank_conflicts.cu -o bank_conflicts
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include <tessera.hpp>
#include "harness.cuh"

using namespace tessera;


namespace {

constexpr int kMaxStarts = 24576;       // 48 KiB of uint16 element offsets
__constant__ uint16_t c_starts[kMaxStarts];  // [thread][instruction], in elements

// One vector access of `kBytes` at byte address p (shared window or global).
template <int kBytes, bool kShared, bool kStore>
__device__ __forceinline__ uint32_t access(char* p, uint32_t value) {
  uint32_t r = 0;
  if constexpr (kShared && !kStore) {
    uint32_t a = uint32_t(__cvta_generic_to_shared(p));
    if constexpr (kBytes == 2) {
      unsigned short h;
      asm volatile("ld.shared.u16 %0, [%1];" : "=h"(h) : "r"(a));
      r = h;
    } else if constexpr (kBytes == 4) {
      asm volatile("ld.shared.u32 %0, [%1];" : "=r"(r) : "r"(a));
    } else if constexpr (kBytes == 8) {
      uint32_t x, y;
      asm volatile("ld.shared.v2.u32 {%0,%1}, [%2];" : "=r"(x), "=r"(y) : "r"(a));
      r = x ^ y;
    } else {
      uint32_t x, y, z, w;
      asm volatile("ld.shared.v4.u32 {%0,%1,%2,%3}, [%4];"
                   : "=r"(x), "=r"(y), "=r"(z), "=r"(w)
                   : "r"(a));
      r = x ^ y ^ z ^ w;
    }
  } else if constexpr (!kShared && !kStore) {
    if constexpr (kBytes == 2) {
      unsigned short h;
      asm volatile("ld.global.u16 %0, [%1];" : "=h"(h) : "l"(p));
      r = h;
    } else if constexpr (kBytes == 4) {
      asm volatile("ld.global.u32 %0, [%1];" : "=r"(r) : "l"(p));
    } else if constexpr (kBytes == 8) {
      uint32_t x, y;
      asm volatile("ld.global.v2.u32 {%0,%1}, [%2];" : "=r"(x), "=r"(y) : "l"(p));
      r = x ^ y;
    } else {
      uint32_t x, y, z, w;
      asm volatile("ld.global.v4.u32 {%0,%1,%2,%3}, [%4];"
                   : "=r"(x), "=r"(y), "=r"(z), "=r"(w)
                   : "l"(p));
      r = x ^ y ^ z ^ w;
    }
  } else if constexpr (!kShared && kStore) {
    if constexpr (kBytes == 2) {
      asm volatile("st.global.u16 [%0], %1;" ::"l"(p), "h"((unsigned short)value) : "memory");
    } else if constexpr (kBytes == 4) {
      asm volatile("st.global.u32 [%0], %1;" ::"l"(p), "r"(value) : "memory");
    } else if constexpr (kBytes == 8) {
      asm volatile("st.global.v2.u32 [%0], {%1,%1};" ::"l"(p), "r"(value) : "memory");
    } else {
      asm volatile("st.global.v4.u32 [%0], {%1,%1,%1,%1};" ::"l"(p), "r"(value) : "memory");
    }
  }
  return r;
}

// Thread t issues `instructions` accesses at c_starts[t * instructions + j] * elem_bytes.
template <int kBytes, bool kShared, bool kStore>
__global__ void access_kernel(char* gmem, int elem_bytes, int instructions, int smem_bytes,
                              uint32_t* sink) {
  extern __shared__ __align__(128) char smem[];
  int t = threadIdx.x;
  if constexpr (kShared) {
    for (int i = t * 4; i < smem_bytes; i += blockDim.x * 4)
      *reinterpret_cast<uint32_t*>(smem + i) = i;
    __syncthreads();
  }
  char* base = kShared ? smem : gmem;
  uint32_t acc = 0;
  for (int j = 0; j < instructions; ++j) {
    int64_t off = int64_t(c_starts[t * instructions + j]) * elem_bytes;
    acc += access<kBytes, kShared, kStore>(base + off, uint32_t(t + j));
  }
  if (acc == 0x9e3779b9u && t == 1 << 20) sink[0] = acc;  // never true: keeps the loads, no traffic
}

struct Case {
  std::string name;
  AccessReport report;
  std::vector<uint16_t> starts;  // [thread][instruction], elements
  int64_t extent_elems = 0;       // elements the accesses reach
};

template <class Access>
Case make_case(std::string name, Access const& acc, AccessSpec spec) {
  Case c;
  c.name = std::move(name);
  c.report = analyze(acc, spec);
  int64_t v = c.report.vector_bits / spec.elem_bits;
  std::vector<int64_t> o(acc.values()), s(acc.values());
  for (int64_t t = 0; t < c.report.threads; ++t) {
    acc.offsets(t, o.data());
    int64_t n = run_starts(o.data(), acc.values(), v, s.data());
    for (int64_t j = 0; j < n; ++j) {
      if (s[j] < 0 || s[j] > 65535) {
        std::printf("case %s: offset %lld does not fit the table\n", c.name.c_str(),
                    (long long)s[j]);
        std::exit(2);
      }
      c.starts.push_back(uint16_t(s[j]));
      c.extent_elems = std::max<int64_t>(c.extent_elems, s[j] + v);
    }
  }
  return c;
}

std::vector<Case> cases() {
  AccessSpec shared_f32_scalar{32, MemSpace::kShared, false, 32};
  AccessSpec shared_f16{16, MemSpace::kShared, false, 128};
  AccessSpec global_ld_f32{32, MemSpace::kGlobal, false, 128},
      global_st_f32{32, MemSpace::kGlobal, true, 128};
  Layout rows_by_lane = parse_layout("(32,32):(1,32)"), ldsm = parse_layout("((8,4),8):((1,64),8)");
  std::vector<Case> all;
  // Shared memory: the 32x32 float column read, plain (32-way), padded and swizzled (none).
  all.push_back(make_case("smem_col_32x32_f32",
                          TvAccess{rows_by_lane, unswizzled(parse_layout("(32,32):(32,1)"))},
                          shared_f32_scalar));
  all.push_back(make_case("smem_col_32x33_f32_padded",
                          TvAccess{rows_by_lane, unswizzled(parse_layout("(32,32):(33,1)"))},
                          shared_f32_scalar));
  all.push_back(make_case(
      "smem_col_32x32_f32_Sw<5,0,5>",
      TvAccess{rows_by_lane, SwizzledLayout{Swizzle(5, 0, 5), 0, parse_layout("(32,32):(32,1)")}},
      shared_f32_scalar));
  // ldmatrix-shaped 16-byte rows over the (8,64) half tile: plain (8-way) and 128B-swizzled.
  all.push_back(make_case("smem_ldsm_rows_8x64_f16",
                          TvAccess{ldsm, unswizzled(parse_layout("(8,64):(64,1)"))}, shared_f16));
  all.push_back(make_case("smem_ldsm_rows_8x64_f16_Sw<3,3,3>",
                          TvAccess{ldsm, gmma_smem_atom(GmmaSwizzle::kB128, true, 16)},
                          shared_f16));
  // step4's A fragments read straight from a row-major (128,32) half tile (4-way).
  all.push_back(make_case(
      "smem_step4_A_128x32_f16",
      MmaAccess{presets::step4(), Operand::kA, unswizzled(parse_layout("(128,32):(32,1)"))},
      shared_f16));
  // Global memory: 32 lanes x 16 consecutive bytes (4 lines, 16 sectors); R = 1, 2, 4, 8 as in
  // the permutation notes.
  all.push_back(make_case("gmem_ld_32x16B",
                          TvAccess{parse_layout("(32,4):(4,1)"), unswizzled(parse_layout("128:1"))},
                          global_ld_f32));
  for (int64_t r : {1, 2, 4, 8})
    all.push_back(make_case(
        "gmem_st_step1_C_R" + std::to_string(r),
        MmaAccess{step1_with_r(16, r), Operand::kC, unswizzled(parse_layout("(128,128):(128,1)"))},
        global_st_f32));
  return all;
}

template <int kBytes, bool kShared, bool kStore>
void launch(Case const& c, char* gmem, uint32_t* sink) {
  int elem_bytes = int(c.report.spec.elem_bits / 8);
  int smem = kShared ? int((c.extent_elems * elem_bytes + 127) / 128 * 128) : 0;
  access_kernel<kBytes, kShared, kStore><<<1, int(c.report.threads), smem>>>(
      gmem, elem_bytes, int(c.report.instructions), smem, sink);
  CHECK_CUDA(cudaGetLastError());
}

template <bool kShared, bool kStore>
void launch_width(Case const& c, char* gmem, uint32_t* sink) {
  switch (c.report.vector_bytes()) {
    case 2: return launch<2, kShared, kStore>(c, gmem, sink);
    case 4: return launch<4, kShared, kStore>(c, gmem, sink);
    case 8: return launch<8, kShared, kStore>(c, gmem, sink);
    case 16: return launch<16, kShared, kStore>(c, gmem, sink);
  }
  std::printf("case %s: no kernel for %lld-byte accesses\n", c.name.c_str(),
              (long long)c.report.vector_bytes());
  std::exit(2);
}

}  // namespace

int main(int argc, char** argv) {
  bool predict = argc > 1 && std::strcmp(argv[1], "--predict") == 0;
  std::vector<Case> all = cases();
  if (predict) {
    std::printf("launch,case,metric,predicted\n");
    for (size_t i = 0; i < all.size(); ++i) {
      AccessReport const& r = all[i].report;
      char const* n = all[i].name.c_str();
      if (r.spec.space == MemSpace::kShared) {
        std::printf("%zu,\"%s\",l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum,%lld\n", i, n,
                    (long long)r.wavefronts);
        std::printf("%zu,\"%s\",l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum,%lld\n", i,
                    n, (long long)r.conflicts());
        std::printf("%zu,\"%s\",smsp__inst_executed_op_shared_ld.sum,%lld\n", i, n,
                    (long long)r.requests);
      } else {
        const char* op = r.spec.store ? "st" : "ld";
        std::printf("%zu,\"%s\",l1tex__t_sectors_pipe_lsu_mem_global_op_%s.sum,%lld\n", i, n, op,
                    (long long)r.sectors);
        std::printf("%zu,\"%s\",l1tex__t_requests_pipe_lsu_mem_global_op_%s.sum,%lld\n", i, n, op,
                    (long long)r.requests);
      }
      std::fprintf(stderr, "%-36s %s\n", n, r.verdict.c_str());
    }
    return 0;
  }
  char* gmem = nullptr;
  uint32_t* sink = nullptr;
  CHECK_CUDA(cudaMalloc(&gmem, 1 << 20));
  CHECK_CUDA(cudaMalloc(&sink, 64));
  CHECK_CUDA(cudaMemset(gmem, 0, 1 << 20));
  for (Case const& c : all) {
    if (c.starts.size() > size_t(kMaxStarts) ||
        c.extent_elems * c.report.spec.elem_bits / 8 > (1 << 20)) {
      std::printf("case %s does not fit the tables\n", c.name.c_str());
      return 2;
    }
    CHECK_CUDA(cudaMemcpyToSymbol(c_starts, c.starts.data(), c.starts.size() * sizeof(uint16_t)));
    bool shared = c.report.spec.space == MemSpace::kShared, store = c.report.spec.store;
    if (shared && store) {
      std::printf("case %s: shared stores are not modeled here\n", c.name.c_str());
      return 2;
    }
    if (shared) launch_width<true, false>(c, gmem, sink);
    else if (store) launch_width<false, true>(c, gmem, sink);
    else launch_width<false, false>(c, gmem, sink);
    CHECK_CUDA(cudaDeviceSynchronize());
  }
  std::printf("%zu cases ran\n", all.size());
  return 0;
}
