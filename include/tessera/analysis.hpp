// tessera/analysis.hpp -- memory-access analysis of a thread partition: vector width, global
// sectors and lines, shared-memory bank conflicts, and a one-line verdict (the permutation table of
// the step 1 kernel).
//
// The math. A partition is a function (thread t, value i) -> element offset o(t,i): a TiledMMA's
// partition_C/A/B, a TiledCopy's partition_S/D, or any TV layout over a tensor, plain or swizzled
// (Sw o off o L: the partition is taken in L's index space, the swizzle applies to the result).
// Elements have b bits; the tensor's base address is assumed aligned to 128 bytes.
//
//   vector width  v = the largest power of two with v*b <= 128 such that every thread's offsets
//                 split into aligned runs {a, a+1, .., a+v-1}, a % v == 0: CuTe's
//                 max_common_vector with the registers laid out in memory order (CuTe's
//                 make_fragment_like keeps the stride order, so `copy` vectorizes this way).
//                 Without the 128-bit cap it is the contiguous run; with the registers in
//                 fragment order (values i, i+1, ..) it is the in-order width.
//   instruction   j of thread t accesses its j-th run (runs ordered by value index). A warp (32
//                 consecutive threads) issues instruction j together; lane l touches the bytes
//                 [o*b/8, (o+v)*b/8), which lie in one 32-byte sector (v*b <= 128, aligned).
//   global        sectors = distinct 32-byte blocks a warp instruction touches, lines = distinct
//                 128-byte blocks; the minimum is ceil(distinct bytes / 32) (resp. / 128) and
//                 efficiency = minimum / actual. The footprint does the same over all of a warp's
//                 instructions at once: a sector half filled by one store and half by the next
//                 is merged in L2 and costs no extra DRAM traffic.
//   shared        32 banks of 4 bytes, word w in bank w % 32. 4-byte (or narrower) accesses are
//                 served in 1 phase of 32 lanes, 8-byte in 2 phases of 16, 16-byte in 4 of 8.
//                 A phase costs max over banks of the distinct words asked of that bank (the
//                 same word is a broadcast); wavefronts = sum over phases, ideal = the number of
//                 phases, conflicts = wavefronts - ideal, way = wavefronts / ideal.
//   verdict       great: no wasted sectors (bank conflicts), and as few instructions as
//                 128-bit accesses need; ok: 2x those instructions (or 2-way conflicts), or more
//                 instructions each of which fills whole lines (a coalesced access that is only
//                 narrow: 32 lanes reading 32 consecutive floats); bad: more instructions over
//                 partly used lines ("scattered"), or wasted sectors, or worse conflicts.
//
// Worked example (seeds 000/003, step 1, C row-major (128,128):(128,1) floats, R = 4): thread
// 0's fragment (1,(4,2),(4,2)):(0,(128,8192),(1,64)) covers columns {0..3, 64..67} of rows
// {0..3, 64..67}: 16 aligned runs of 4 floats, v = 4, 128-bit stores, 16 per thread (the minimum
// for 64 floats). Warp 0 = threads 0..31 = rows tm = 0, 1 of the 16x16 thread grid; in store 0
// lanes 0-15 write columns 0..63 of row 0 (256 bytes, 2 full lines) and lanes 16-31 the same of
// row 4: 16 sectors and 4 lines, both the minimum:
//     "128-bit stores, 2 full lines per row of 16 threads: coalesced"
// With R = 1 each thread owns columns {t, t+16, ..}: runs of 1 float, 64 stores of 32 bits where
// 16 would do; 16 lanes cover 64 bytes (half a line) per store: "scattered".
//
// Everything is constexpr over fixed arrays (no heap): at most kMaxAccessValues values per thread.
// A full analysis keeps one warp's accesses (32 x kMaxAccessValues offsets, 64 KiB) on the stack.
#pragma once

#include "tiled_copy.hpp"
#include "tiled_mma.hpp"
#include "swizzle.hpp"

namespace tessera {

enum class MemSpace { kGlobal = 0, kShared = 1 };
enum class Grade { kBad = 0, kOk = 1, kGreat = 2 };

TESSERA_HD constexpr const char* grade_name(Grade g) {
  return g == Grade::kGreat ? "great" : g == Grade::kOk ? "ok" : "bad";
}
TESSERA_HD constexpr const char* space_name(MemSpace s) {
  return s == MemSpace::kGlobal ? "global" : "shared";
}

inline constexpr int kWarpSize = 32;
inline constexpr int kMaxAccessValues = 256;  // values per thread
inline constexpr int64_t kSectorBytes = 32, kLineBytes = 128, kBanks = 32, kBankBytes = 4;

struct AccessSpec {
  int64_t elem_bits = 32;
  MemSpace space = MemSpace::kGlobal;
  bool store = false;
  int64_t max_vector_bits = 128;  // 32 models scalar code, 128 the widest LDG/STG/LDS/STS
};

// ---------------------------------------------------------------------------------------------
// Partitions as offset functions: threads(), values() and offsets(t, out[values()]).

TESSERA_HD constexpr SwizzledLayout unswizzled(Layout const& l) {
  return SwizzledLayout{Swizzle(), 0, l};
}

// Thread t, value i -> tensor(tv(t, i)): tv maps (thread, value) to an index of the tensor.
struct TvAccess {
  Layout tv;  // (T,V) -> tensor index
  SwizzledLayout tensor;
  TESSERA_HD constexpr int64_t threads() const { return tv[0].size(); }
  TESSERA_HD constexpr int64_t values() const {
    return tv.rank() < 2 ? 1 : tv.size() / tv[0].size();
  }
  TESSERA_HD constexpr void offsets(int64_t t, int64_t* out) const {
    int64_t n = threads();
    for (int64_t i = 0; i < values(); ++i) out[i] = tensor(tv(t + n * i));
  }
};

// A TiledMMA's partition of one operand's tensor. The thread-independent part of the partition
// (thrfrg) is computed once, at construction; each thread's offsets are then a slice of it.
struct MmaAccess {
  TiledMMA mma;
  Operand op;
  SwizzledLayout tensor;
  Layout frg;  // mma.thrfrg(op, tensor.layout)
  TESSERA_HD constexpr MmaAccess(TiledMMA const& m, Operand o, SwizzledLayout const& t)
      : mma(m), op(o), tensor(t), frg(m.thrfrg(o, t.layout)) {}
  TESSERA_HD constexpr int64_t threads() const { return mma.threads(); }
  TESSERA_HD constexpr int64_t values() const { return mma.slice(op, frg, 0).layout.size(); }
  TESSERA_HD constexpr void offsets(int64_t t, int64_t* out) const {
    View v = mma.slice(op, frg, t);
    for (int64_t i = 0; i < v.layout.size(); ++i) out[i] = tensor.swizzle(tensor.offset + v(i));
  }
};

// A TiledCopy's source (dst = false) or destination partition; its tidfrg computed once.
struct CopyAccess {
  TiledCopy copy;
  SwizzledLayout tensor;
  bool dst;
  Layout frg;  // copy.tidfrg(tensor.layout, dst)
  TESSERA_HD constexpr CopyAccess(TiledCopy const& c, SwizzledLayout const& t, bool d = false)
      : copy(c), tensor(t), dst(d), frg(c.tidfrg(t.layout, d)) {}
  TESSERA_HD constexpr int64_t threads() const { return copy.threads(); }
  TESSERA_HD constexpr int64_t values() const { return copy.slice(frg, 0).layout.size(); }
  TESSERA_HD constexpr void offsets(int64_t t, int64_t* out) const {
    View v = copy.slice(frg, t);
    for (int64_t i = 0; i < v.layout.size(); ++i) out[i] = tensor.swizzle(tensor.offset + v(i));
  }
};

// ---------------------------------------------------------------------------------------------
// The report.

struct AccessReport {
  AccessSpec spec;
  int64_t threads = 0, values = 0, warps = 0;
  int64_t vector_bits = 0;     // the widest vector every thread can use
  int64_t run_bits = 0;        // the contiguous aligned run every thread has (no 128-bit cap)
  int64_t in_order_bits = 0;   // the widest vector with the registers in fragment order
  int64_t instructions = 0;    // per thread: values / vector
  int64_t min_instructions = 0;  // per thread at 128 bits: ceil(values * b / 128)
  // Totals over every warp instruction (global memory).
  int64_t requests = 0;  // warp instructions: warps * instructions
  int64_t sectors = 0, min_sectors = 0, lines = 0, min_lines = 0;
  int64_t footprint_sectors = 0, footprint_min_sectors = 0;  // per warp over all its instructions
  // Totals over every warp instruction (shared memory; computed for either space).
  int64_t wavefronts = 0, ideal_wavefronts = 0, max_way = 0;
  // Warp 0, instruction 0: the lanes as rows of equally spaced accesses.
  int64_t row_lanes = 0, rows = 0, row_step_bytes = 0, row_start_bytes = 0;
  bool rows_uniform = true;
  Grade grade = Grade::kBad;
  Text verdict;

  TESSERA_HD constexpr int64_t vector_bytes() const { return vector_bits / 8; }
  TESSERA_HD constexpr int64_t conflicts() const { return wavefronts - ideal_wavefronts; }
  // Per warp instruction, as the profiler counts them.
  TESSERA_HD constexpr int64_t sectors_per_request() const {
    return requests ? sectors / requests : 0;
  }
  TESSERA_HD constexpr int64_t lines_per_request() const { return requests ? lines / requests : 0; }
  TESSERA_HD constexpr int64_t wavefronts_per_request() const {
    return requests ? wavefronts / requests : 0;
  }
  // Percent of the sectors' bytes used, per instruction and over each warp's footprint.
  TESSERA_HD constexpr int64_t sector_efficiency() const {
    return sectors ? 100 * min_sectors / sectors : 100;
  }
  TESSERA_HD constexpr int64_t footprint_efficiency() const {
    return footprint_sectors ? 100 * footprint_min_sectors / footprint_sectors : 100;
  }
};

namespace detail {

TESSERA_HD constexpr int64_t floor_div(int64_t a, int64_t b) {
  return a >= 0 ? a / b : -((-a + b - 1) / b);
}
TESSERA_HD constexpr int64_t floor_mod(int64_t a, int64_t b) { return a - floor_div(a, b) * b; }

// Shell sort: small arrays, no heap, constexpr.
TESSERA_HD constexpr void sort(int64_t* a, int64_t n) {
  for (int64_t gap = n / 2; gap > 0; gap /= 2)
    for (int64_t i = gap; i < n; ++i) {
      int64_t x = a[i], j = i;
      for (; j >= gap && a[j - gap] > x; j -= gap) a[j] = a[j - gap];
      a[j] = x;
    }
}
// Distinct values of a sorted array; with `div`, distinct values of floor(a[i] / div).
TESSERA_HD constexpr int64_t count_distinct(int64_t const* a, int64_t n, int64_t div = 1) {
  int64_t c = 0;
  for (int64_t i = 0; i < n; ++i)
    if (i == 0 || floor_div(a[i], div) != floor_div(a[i - 1], div)) ++c;
  return c;
}

// The largest power of two v <= cap such that the offsets, sorted, split into aligned runs of v
// (if v fails, 2v fails too: an aligned run of 2v is two aligned runs of v).
TESSERA_HD constexpr int64_t run_width(int64_t const* sorted, int64_t n, int64_t cap) {
  int64_t best = 1;
  for (int64_t v = 2; v <= cap && v <= n && n % v == 0; v *= 2) {
    for (int64_t p = 0; p < n; p += v) {
      if (floor_mod(sorted[p], v) != 0) return best;
      for (int64_t k = 1; k < v; ++k)
        if (sorted[p + k] != sorted[p] + k) return best;
    }
    best = v;
  }
  return best;
}
// The same with the values in their own order (registers in fragment order).
TESSERA_HD constexpr int64_t in_order_width(int64_t const* o, int64_t n, int64_t cap) {
  int64_t best = 1;
  for (int64_t v = 2; v <= cap && v <= n && n % v == 0; v *= 2) {
    for (int64_t p = 0; p < n; p += v) {
      if (floor_mod(o[p], v) != 0) return best;
      for (int64_t k = 1; k < v; ++k)
        if (o[p + k] != o[p] + k) return best;
    }
    best = v;
  }
  return best;
}

// Wavefronts of one warp-wide shared-memory instruction: lane l reads `bytes` bytes at a[l].
TESSERA_HD constexpr int64_t shared_wavefronts(int64_t const* a, int64_t lanes, int64_t bytes,
                                               int64_t* phases_out) {
  int64_t phases = bytes >= 16 ? 4 : bytes >= 8 ? 2 : 1;
  int64_t per_phase = kWarpSize / phases;
  int64_t words_per_lane = bytes >= kBankBytes ? bytes / kBankBytes : 1;
  int64_t total = 0, used = 0;
  for (int64_t p = 0; p < phases; ++p) {
    int64_t words[kWarpSize * 4] = {};
    int64_t n = 0;
    for (int64_t l = p * per_phase; l < (p + 1) * per_phase && l < lanes; ++l)
      for (int64_t w = 0; w < words_per_lane; ++w) words[n++] = floor_div(a[l], kBankBytes) + w;
    if (n == 0) continue;
    ++used;
    sort(words, n);
    int64_t per_bank[kBanks] = {};
    int64_t worst = 0;
    for (int64_t i = 0; i < n; ++i) {
      if (i > 0 && words[i] == words[i - 1]) continue;  // the same word: a broadcast
      int64_t b = floor_mod(words[i], kBanks);
      worst = max64(worst, ++per_bank[b]);
    }
    total += worst;
  }
  *phases_out = used;
  return total;
}

template <class Access>
TESSERA_HD constexpr void check_values(Access const& acc) {
  if (acc.values() > kMaxAccessValues) {
    Text t;
    t << "analyze: " << acc.values() << " values per thread; the analysis holds at most "
      << int64_t(kMaxAccessValues);
    fail(t);
  }
}

TESSERA_HD constexpr void say_bytes(Text& t, int64_t bytes, int64_t start) {
  if (bytes % kLineBytes == 0 && floor_mod(start, kLineBytes) == 0) {
    int64_t n = bytes / kLineBytes;
    t << n << (n == 1 ? " full line" : " full lines");
  } else if (bytes == kLineBytes / 2) {
    t << "64 bytes (half a line)";
  } else {
    t << bytes << " bytes";
  }
}

// The one-line verdict and grade (see the header).
TESSERA_HD constexpr void judge(AccessReport& r) {
  int64_t q = r.min_instructions ? ceil_div(r.instructions, r.min_instructions) : 1;
  Grade g = q <= 1 ? Grade::kGreat : q == 2 ? Grade::kOk : Grade::kBad;
  const char* what = r.spec.store ? "stores" : "loads";
  Text t;
  t << r.vector_bits << "-bit " << what << ", ";
  if (r.spec.space == MemSpace::kGlobal) {
    // The lanes of warp 0's first instruction, as rows.
    int64_t vb = r.vector_bytes();
    if (r.row_step_bytes == 0 && r.row_lanes > 1) t << "one address";
    else if (r.row_step_bytes == vb || r.row_lanes == 1)
      say_bytes(t, r.row_lanes * vb, r.row_start_bytes);
    else t << vb << " bytes every " << r.row_step_bytes;
    if (r.row_lanes == min64(r.threads, kWarpSize)) t << " per warp";
    else t << " per row of " << r.row_lanes << (r.row_lanes == 1 ? " thread" : " threads");
    t << ": ";
    if (r.footprint_sectors > r.footprint_min_sectors) {
      g = Grade::kBad;
      t << "uncoalesced, " << r.footprint_efficiency()
        << "% of the bytes of the sectors touched are used";
    } else {
      // Narrow accesses that fill whole lines are coalesced; only their count is the cost.
      if (g == Grade::kBad && r.lines <= r.min_lines) g = Grade::kOk;
      t << (g == Grade::kBad ? "scattered" : "coalesced");
      if (q > 1) t << ", " << q << "x the " << what << " of 128-bit accesses";
      if (r.sectors > r.min_sectors)
        t << "; each " << (r.spec.store ? "store" : "load") << " uses " << r.sector_efficiency()
          << "% of its sectors, the warp's " << what << " together fill them";
    }
  } else {
    int64_t way = r.max_way;
    if (way <= 1) {
      t << "conflict-free";
    } else {
      t << way << "-way bank conflicts";
      if (way > 2) g = Grade::kBad;
      else if (g == Grade::kGreat) g = Grade::kOk;
    }
    t << " (" << r.wavefronts_per_request()
      << (r.wavefronts_per_request() == 1 ? " wavefront" : " wavefronts") << " per access, ideal "
      << (r.requests ? r.ideal_wavefronts / r.requests : 0) << ")";
    if (q > 1) t << ", " << q << "x the " << what << " of 128-bit accesses";
  }
  r.grade = g;
  r.verdict = t;
}

// The rows of warp 0's first instruction (lane byte addresses a): maximal runs of lanes at a
// constant step; lane 0's row defines the step, and a single-lane row has none.
TESSERA_HD constexpr void measure_rows(AccessReport& r, int64_t const* a, int64_t lanes,
                                       int64_t vbytes) {
  r.row_start_bytes = a[0];
  r.row_step_bytes = lanes > 1 ? a[1] - a[0] : 0;
  int64_t len = 1, first_len = 0, count = 0;
  for (int64_t l = 1; l <= lanes; ++l) {
    bool same = l < lanes && a[l] - a[l - 1] == r.row_step_bytes && r.row_step_bytes >= 0 &&
                len < lanes;
    if (same) { ++len; continue; }
    if (first_len == 0) first_len = len;
    else if (len != first_len) r.rows_uniform = false;
    ++count;
    len = 1;
  }
  r.row_lanes = first_len;
  r.rows = count;
  if (first_len == 1) r.row_step_bytes = vbytes;
}

// One warp instruction's sectors, lines and shared-memory wavefronts (lane byte addresses a, and
// s: a copy that is sorted here), against the fewest its bytes could take.
TESSERA_HD constexpr void count_request(AccessReport& r, int64_t const* a, int64_t* s,
                                        int64_t lanes, int64_t vbytes) {
  sort(s, lanes);
  int64_t bytes = count_distinct(s, lanes) * vbytes;
  r.sectors += count_distinct(s, lanes, kSectorBytes);
  r.lines += count_distinct(s, lanes, kLineBytes);
  r.min_sectors += ceil_div(bytes, kSectorBytes);
  r.min_lines += ceil_div(bytes, kLineBytes);
  int64_t phases = 0;
  int64_t wf = shared_wavefronts(a, lanes, vbytes, &phases);
  r.wavefronts += wf;
  r.ideal_wavefronts += phases;
  r.max_way = max64(r.max_way, phases ? ceil_div(wf, phases) : 0);
  ++r.requests;
}

}  // namespace detail

// A thread's instructions at vector width v (elements): start j is the offset of the j-th value,
// in value order, that is aligned to v (each aligned run has exactly one). Returns the count.
TESSERA_HD constexpr int64_t run_starts(int64_t const* offsets, int64_t n, int64_t v,
                                        int64_t* starts) {
  int64_t j = 0;
  for (int64_t i = 0; i < n; ++i)
    if (detail::floor_mod(offsets[i], v) == 0 && j < n / v) starts[j++] = offsets[i];
  return j;
}

// Analyze a partition (TvAccess, MmaAccess, CopyAccess or any type with threads(), values() and
// offsets(t, out)).
template <class Access>
TESSERA_HD constexpr AccessReport analyze(Access const& acc, AccessSpec spec) {
  int64_t b = spec.elem_bits;
  if (b < 8 || b > 128 || (b & (b - 1)) != 0) {
    Text t;
    t << "analyze: element size " << b << " bits; expected a power of two from 8 to 128";
    fail(t);
  }
  detail::check_values(acc);
  AccessReport r;
  r.spec = spec;
  r.threads = acc.threads();
  r.values = acc.values();
  int64_t cap = max64(1, min64(spec.max_vector_bits, 128) / b);

  // Pass 1: the vector width, the run and the in-order width, common to all threads.
  int64_t v = cap, run = r.values, in_order = cap;
  for (int64_t t = 0; t < r.threads; ++t) {
    int64_t o[kMaxAccessValues] = {};
    acc.offsets(t, o);
    in_order = min64(in_order, detail::in_order_width(o, r.values, cap));
    detail::sort(o, r.values);
    run = min64(run, detail::run_width(o, r.values, r.values));
  }
  v = min64(cap, run);
  r.vector_bits = v * b;
  r.run_bits = run * b;
  r.in_order_bits = min64(in_order, v) * b;
  r.instructions = r.values / v;
  r.min_instructions = ceil_div(r.values * b, 128);

  // Pass 2: per warp, each lane's run starts (in value order), then each instruction.
  int64_t vbytes = v * b / 8;
  r.warps = ceil_div(r.threads, kWarpSize);
  for (int64_t w = 0; w < r.warps; ++w) {
    int64_t lanes = min64(kWarpSize, r.threads - w * kWarpSize);
    // [lane * instructions + j], in bytes; left uninitialized (written before read) because
    // zero-filling 8192 entries dominates constant evaluation.
    int64_t starts[kWarpSize * kMaxAccessValues];
    for (int64_t l = 0; l < lanes; ++l) {
      int64_t o[kMaxAccessValues] = {};
      acc.offsets(w * kWarpSize + l, o);
      int64_t* mine = starts + l * r.instructions;
      run_starts(o, r.values, v, mine);
      for (int64_t j = 0; j < r.instructions; ++j) mine[j] = mine[j] * b / 8;  // bytes
    }
    for (int64_t j = 0; j < r.instructions; ++j) {
      int64_t a[kWarpSize] = {}, s[kWarpSize] = {};
      for (int64_t l = 0; l < lanes; ++l) a[l] = s[l] = starts[l * r.instructions + j];
      if (w == 0 && j == 0) detail::measure_rows(r, a, lanes, vbytes);
      detail::count_request(r, a, s, lanes, vbytes);
    }
    // The footprint: every access of the warp at once.
    int64_t n_all = lanes * r.instructions;
    detail::sort(starts, n_all);
    r.footprint_sectors += detail::count_distinct(starts, n_all, kSectorBytes);
    r.footprint_min_sectors +=
        ceil_div(detail::count_distinct(starts, n_all) * vbytes, kSectorBytes);
  }
  detail::judge(r);
  return r;
}

// ---------------------------------------------------------------------------------------------
// Deriving a swizzle: the first Sw<B,M,S> (B = 1..5, then M = 0..6, then S = B..10) under which
// the shared-memory accesses are conflict-free and keep the unswizzled vector width. `report(sw)`
// analyzes the partition over the swizzled tensor. Returns Sw<0,0,0> (the identity) when the
// plain layout is already conflict-free, and sets `found = false` when no swizzle in range helps.
template <class Report>
TESSERA_HD constexpr Swizzle derive_swizzle_by(Report const& report, bool* found = nullptr) {
  AccessReport plain = report(Swizzle());
  if (found) *found = true;
  if (plain.conflicts() == 0) return Swizzle();
  for (int bits = 1; bits <= 5; ++bits)
    for (int base = 0; base <= 6; ++base)
      for (int shift = bits; shift <= 10; ++shift) {
        Swizzle sw(bits, base, shift);
        AccessReport r = report(sw);
        if (r.conflicts() == 0 && r.vector_bits >= plain.vector_bits) return sw;
      }
  if (found) *found = false;
  return Swizzle();
}
// The same with `make(sw)` giving the partition (a TvAccess, MmaAccess, ..) over the swizzled
// tensor.
template <class Make>
TESSERA_HD constexpr Swizzle derive_swizzle(Make const& make, AccessSpec spec,
                                            bool* found = nullptr) {
  spec.space = MemSpace::kShared;
  return derive_swizzle_by([&](Swizzle sw) { return analyze(make(sw), spec); }, found);
}

// ---------------------------------------------------------------------------------------------
// The permutation choice for the step 1 kernel's tile: F x F scalar-FMA threads over a BM x BM C
// tile (row-major floats, stored to global memory), permutation (F,R):(R,1) in M and N.
struct PermutationChoice {
  int64_t r = 0, period = 0, reps = 0;
  int64_t positions[kMaxAccessValues] = {};  // thread 0's M coordinates, ascending
  int64_t n_positions = 0;
  IntTuple shape;  // the fragment's M mode: (R, reps)
  AccessReport report;
};

TESSERA_HD constexpr TiledMMA step1_with_r(int64_t f, int64_t r) {
  Layout perm(make_tuple(f, r), make_tuple(r, 1));
  return make_tiled_mma(
      atom::universal_fma(), Layout(make_tuple(f, f, 1), make_tuple(f, 1, 0)),
      make_tile(perm, perm, Underscore{}));  // Underscore{}: `_` is a host variable
}

TESSERA_HD constexpr PermutationChoice permutation_choice(int64_t r, int64_t f = 16,
                                                          int64_t bm = 128) {
  if (r <= 0 || bm % (f * r) != 0) {
    Text t;
    t << "permutation: F x R = " << f << " x " << r << " does not divide the tile " << bm;
    fail(t);
  }
  PermutationChoice c;
  c.r = r;
  c.period = f * r;
  c.reps = bm / c.period;
  TiledMMA mma = step1_with_r(f, r);
  // Thread 0's rows: partition the column-major tile, whose offset % BM is the row.
  View rows = mma.partition(Operand::kC, Layout(make_tuple(bm, bm)), 0);
  for (int64_t i = 0; i < rows.layout.size(); ++i) {
    int64_t m = rows(i) % bm;
    bool seen = false;
    for (int64_t k = 0; k < c.n_positions; ++k) seen = seen || c.positions[k] == m;
    if (!seen && c.n_positions < kMaxAccessValues) c.positions[c.n_positions++] = m;
  }
  detail::sort(c.positions, c.n_positions);
  Layout c_tensor(make_tuple(bm, bm), make_tuple(bm, 1));
  c.shape = mma.partition(Operand::kC, c_tensor, 0).layout[1].shape;
  c.report = analyze(MmaAccess{mma, Operand::kC, unswizzled(c_tensor)},
                     AccessSpec{32, MemSpace::kGlobal, true, 128});
  return c;
}

}  // namespace tessera
