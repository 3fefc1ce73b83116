// tessera/atom/catalog.hpp -- every MMA and copy atom CuTe defines (SM61 to SM90), as tables,
// plus the SM100/SM120 MMA layouts for pictures (they do not run on Hopper).
//
// One table row is a set of atoms that share their thread/value layouts. Its name is a pattern:
// {a,b} expands to each alternative (first group slowest, as a shell does) and # stands for N,
// the row's varying size. Layout strings use # for N and % for N/8, e.g. the wgmma row
//   "SM90_64x#x16_{F16F16F16,F32F16F16,F32BF16BF16}_SS", N in 8,16,...,256,
//   C = "((4,8,4),(2,2,%)):((128,1,16),(64,8,512))"
// gives SM90_64x128x16_F32F16F16_SS with C ((4,8,4),(2,2,16)):((128,1,16),(64,8,512)).
// Copy layouts are in bits, as CuTe writes them; recast_bits makes them element layouts.
//
// The layouts are CuTe's traits (mma_traits_sm*.hpp, copy_traits_sm*.hpp), checked atom by atom
// against what CuTe's C++ prints (tests/test_atom_catalog.cpp, tests/data/cute_atoms.json).
// The atoms kernels issue (mma.hpp, copy.hpp) are also checked to agree with these rows.
// Host code (constant expressions included): kernels use the atoms of mma.hpp and copy.hpp.
#pragma once

#include "copy.hpp"
#include "mma.hpp"

namespace tessera {

// An atom's name built in constant expressions (the tables hold patterns).
struct AtomName {
  static constexpr int kCap = 96;
  char s[kCap] = {};
  int n = 0;
  constexpr void add(char c) {
    if (n < kCap - 1) s[n++] = c;
  }
  constexpr void add(int64_t v) {
    char d[24] = {};
    int k = 0;
    do d[k++] = char('0' + v % 10), v /= 10;
    while (v);
    while (k) add(d[--k]);
  }
  constexpr const char* c_str() const { return s; }
};

namespace catalog {

// ---- the patterns -------------------------------------------------------------------------------

// The alternatives of each {..} group of a pattern (at most 8 groups).
struct PatternGroups {
  int n = 0;
  int size[8] = {};
};
constexpr PatternGroups pattern_groups(const char* p) {
  PatternGroups g;
  for (; *p; ++p) {
    if (*p != '{') continue;
    int alternatives = 1;
    for (++p; *p && *p != '}'; ++p) alternatives += *p == ',';
    if (g.n < 8) g.size[g.n++] = alternatives;
  }
  return g;
}
constexpr int pattern_count(const char* p) {
  PatternGroups g = pattern_groups(p);
  int count = 1;
  for (int i = 0; i < g.n; ++i) count *= g.size[i];
  return count;
}
// Expansion j of pattern p (0 <= j < pattern_count(p)) with # = n and % = n/8.
constexpr AtomName expand(const char* p, int j, int64_t n) {
  PatternGroups g = pattern_groups(p);
  int choice[8] = {};
  for (int i = g.n - 1; i >= 0; --i) choice[i] = j % g.size[i], j /= g.size[i];
  AtomName out;
  int group = 0;
  for (; *p; ++p) {
    if (*p == '{') {
      int alternative = 0;
      for (++p; *p && *p != '}'; ++p) {
        if (*p == ',') ++alternative;
        else if (alternative == choice[group]) out.add(*p);
      }
      ++group;
      if (!*p) break;
    } else if (*p == '#') {
      out.add(n);
    } else if (*p == '%') {
      out.add(n / 8);
    } else {
      out.add(*p);
    }
  }
  return out;
}
constexpr Layout layout_of(const char* pattern, int64_t n) {
  return parse_layout(expand(pattern, 0, n).c_str());
}

// ---- MMA ---------------------------------------------------------------------------------------

struct MmaRow {
  const char* arch;         // "sm80": the architecture CuTe files the atom under
  const char* instruction;  // the PTX instruction
  const char* names;        // name pattern
  int64_t m, n, k;          // n = 0: one atom per entry of n_list (# in names and layouts)
  const char* thr_id;
  const char* a;            // (thr,val) -> m + M*k
  const char* b;            // (thr,val) -> n + N*k
  const char* c;            // (thr,val) -> m + M*n
  const char* n_list = "";  // the N of an n = 0 row
  const char* types = "";   // "D A B C" where the name does not spell them
  bool mn_major = false;    // shared-memory A/B may be MN-major (wgmma 16-bit types); else K-major
};

// The N of wgmma (every multiple of 8; integer types skip some) and of tcgen05.mma for M = 64, 128.
inline constexpr const char* kGmmaN =
    "8 16 24 32 40 48 56 64 72 80 88 96 104 112 120 128 136 144 152 160 168 176 184 192 200 208 "
    "216 224 232 240 "
    "248 256";
inline constexpr const char* kGmmaIntN =
    "8 16 24 32 48 64 80 96 112 128 144 160 176 192 208 224 240 256";
inline constexpr const char* kUmma128N =
    "16 32 48 64 80 96 112 128 144 160 176 192 208 224 240 256";

// Layouts shared by many rows.
inline constexpr const char* kWarp = "32:1";
inline constexpr const char* kC16x8 = "((4,8),(2,2)):((32,1),(16,8))";  // m16n8 accumulators
inline constexpr const char* kC8x8 = "((4,8),2):((16,1),8)";            // m8n8 accumulators
inline constexpr const char* kGmmaB = "(128,(#,@)):(0,(1,#))";            // @: the row's K
inline constexpr const char* kGmmaC = "((4,8,4),(2,2,%)):((128,1,16),(64,8,512))";
inline constexpr const char* kSm70Row = "(8,4):(1,8)";          // SM70 A "T" / B "N"
inline constexpr const char* kSm70Col = "((4,2),4):((8,4),1)";  // SM70 A "N" / B "T"
inline constexpr const char* kSm70C16 = "(8,8):(1,8)";
inline constexpr const char* kSm70C32 = "((2,2,2),(2,2,2)):((1,16,4),(8,2,32))";

inline constexpr MmaRow kMmaRows[] = {
    {"any", "fma", "UniversalFMA", 1, 1, 1, "1:0", "(1,1):(0,0)", "(1,1):(0,0)", "(1,1):(0,0)", "",
     "f32 f32 f32 f32"},
    {"sm61", "dp4a", "SM61_DP4A", 1, 1, 4, "1:0", "(1,4):(0,1)", "(1,4):(0,1)", "(1,1):(0,0)", "",
     "s32 s8 s8 s32"},
    {"sm61", "dp2a", "SM61_DP2A", 1, 1, 2, "1:0", "(1,2):(0,1)", "(1,2):(0,1)", "(1,1):(0,0)", "",
     "s32 s16 s16 s32"},
    // mma.sync m8n8k4: a quad pair (threads 0-3 and 16-19) per 8x8 tile; A/B by row or column.
    // mma.sync m8n8k4: a quad pair (threads 0-3 and 16-19) per 8x8 tile; the first letter of TN
    // says how A is held (T: a row of K per thread, N: a column), the second B (N: a row, T: a
    // column).
    {"sm70", "mma.sync.m8n8k4", "SM70_8x8x4_F16F16F16F16_TN", 8, 8, 4, "(4,2):(1,16)", kSm70Row,
     kSm70Row, kSm70C16},
    {"sm70", "mma.sync.m8n8k4", "SM70_8x8x4_F16F16F16F16_NT", 8, 8, 4, "(4,2):(1,16)", kSm70Col,
     kSm70Col, kSm70C16},
    {"sm70", "mma.sync.m8n8k4", "SM70_8x8x4_F16F16F16F16_NN", 8, 8, 4, "(4,2):(1,16)", kSm70Col,
     kSm70Row, kSm70C16},
    {"sm70", "mma.sync.m8n8k4", "SM70_8x8x4_F16F16F16F16_TT", 8, 8, 4, "(4,2):(1,16)", kSm70Row,
     kSm70Col, kSm70C16},
    {"sm70", "mma.sync.m8n8k4", "SM70_8x8x4_F32F16F16F32_TN", 8, 8, 4, "(4,2):(1,16)", kSm70Row,
     kSm70Row, kSm70C32},
    {"sm70", "mma.sync.m8n8k4", "SM70_8x8x4_F32F16F16F32_NT", 8, 8, 4, "(4,2):(1,16)", kSm70Col,
     kSm70Col, kSm70C32},
    {"sm70", "mma.sync.m8n8k4", "SM70_8x8x4_F32F16F16F32_NN", 8, 8, 4, "(4,2):(1,16)", kSm70Col,
     kSm70Row, kSm70C32},
    {"sm70", "mma.sync.m8n8k4", "SM70_8x8x4_F32F16F16F32_TT", 8, 8, 4, "(4,2):(1,16)", kSm70Row,
     kSm70Col, kSm70C32},
    {"sm75", "mma.sync.m16n8k8", "SM75_16x8x8_{F32F16F16F32,F16F16F16F16}_TN", 16, 8, 8, kWarp,
     "((4,8),(2,2)):((32,1),(16,8))", "((4,8),2):((16,1),8)", kC16x8},
    {"sm75", "mma.sync.m8n8k16", "SM75_8x8x16_S32S8S8S32_TN", 8, 8, 16, kWarp,
     "((4,8),4):((32,1),8)", "((4,8),4):((32,1),8)", kC8x8},
    {"sm80", "mma.sync.m16n8k8", "SM80_16x8x8_{F16F16F16F16,F32F16F16F32,F32BF16BF16F32}_TN", 16, 8,
     8, kWarp, "((4,8),(2,2)):((32,1),(16,8))", "((4,8),2):((16,1),8)", kC16x8},
    {"sm80", "mma.sync.m16n8k16", "SM80_16x8x16_{F16F16F16F16,F32F16F16F32,F32BF16BF16F32}_TN", 16,
     8, 16, kWarp, "((4,8),(2,2,2)):((32,1),(16,8,128))", "((4,8),(2,2)):((16,1),(8,64))", kC16x8},
    {"sm80", "mma.sync.m16n8k4", "SM80_16x8x4_F32TF32TF32F32_TN", 16, 8, 4, kWarp,
     "((4,8),2):((16,1),8)", "((4,8),1):((8,1),0)", kC16x8},
    {"sm80", "mma.sync.m16n8k8", "SM80_16x8x8_F32TF32TF32F32_TN", 16, 8, 8, kWarp,
     "((4,8),(2,2)):((16,1),(8,64))", "((4,8),2):((8,1),32)", kC16x8},
    {"sm80", "mma.sync.m8n8k4", "SM80_8x8x4_{F64F64F64F64,C64C64C64C64,GC64C64C64GC64}_TN", 8, 8, 4,
     kWarp, "((4,8),1):((8,1),0)", "((4,8),1):((8,1),0)", kC8x8},
    {"sm80", "mma.sync.m8n8k16", "SM80_8x8x16_S32{S8,U8}{S8,U8}S32_TN{,_SATURATE}", 8, 8, 16, kWarp,
     "((4,8),4):((32,1),8)", "((4,8),4):((32,1),8)", kC8x8},
    {"sm80", "mma.sync.m16n8k16", "SM80_16x8x16_S32{S8,U8}{S8,U8}S32_TN{,_SATURATE}", 16, 8, 16,
     kWarp, "((4,8),(4,2)):((64,1),(16,8))", "((4,8),4):((32,1),8)", kC16x8},
    {"sm80", "mma.sync.m16n8k32", "SM80_16x8x32_S32{S8,U8}{S8,U8}S32_TN{,_SATURATE}", 16, 8, 32,
     kWarp, "((4,8),(4,2,2)):((64,1),(16,8,256))", "((4,8),(4,2)):((32,1),(8,128))", kC16x8},
    {"sm80", "mma.sync.m8n8k32", "SM80_8x8x32_S32{S4,U4}{S4,U4}S32_TN{,_SATURATE}", 8, 8, 32, kWarp,
     "((4,8),(8)):((64,1),(8))", "((4,8),(8)):((64,1),(8))", kC8x8},
    {"sm80", "mma.sync.m16n8k32", "SM80_16x8x32_S32{S4,U4}{S4,U4}S32_TN{,_SATURATE}", 16, 8, 32,
     kWarp, "((4,8),(8,2)):((128,1),(16,8))", "((4,8),(8)):((64,1),(8))", kC16x8},
    {"sm80", "mma.sync.m16n8k64", "SM80_16x8x64_S32{S4,U4}{S4,U4}S32_TN{,_SATURATE}", 16, 8, 64,
     kWarp, "((4,8),(8,2,2)):((128,1),(16,8,512))", "((4,8),(8,2)):((64,1),(8,256))", kC16x8},
    {"sm80", "mma.sync.m8n8k128", "SM80_8x8x128_S32U1U1S32_TN_{XORPOPC,ANDPOPC}", 8, 8, 128, kWarp,
     "((4,8),32):((256,1),8)", "((4,8),32):((256,1),8)", kC8x8},
    // CuTe's traits write this A stride as ((16,8)), a rank-1 tuple around (16,8) (not congruent
    // with the shape (32,2)); the layout meant, and the one here, is (16,8) as in 16x8x256.
    {"sm80", "mma.sync.m16n8k128", "SM80_16x8x128_S32U1U1S32_TN_{XORPOPC,ANDPOPC}", 16, 8, 128,
     kWarp, "((4,8),(32,2)):((512,1),(16,8))", "((4,8),32):((256,1),8)", kC16x8},
    {"sm80", "mma.sync.m16n8k256", "SM80_16x8x256_S32U1U1S32_TN_{XORPOPC,ANDPOPC}", 16, 8, 256,
     kWarp, "((4,8),(32,2,2)):((512,1),(16,8,2048))", "((4,8),(32,2)):((256,1),(8,1024))", kC16x8},
    {"sm89", "mma.sync.m16n8k32", "SM89_16x8x32_F32{E4M3,E5M2}{E4M3,E5M2}F32_TN", 16, 8, 32, kWarp,
     "((4,8),(4,2,2)):((64,1),(16,8,256))", "((4,8),(4,2)):((32,1),(8,128))", kC16x8},
    {"sm89", "mma.sync.m16n8k32", "SM89_16x8x32_F16{E4M3,E5M2}{E4M3,E5M2}F16_TN", 16, 8, 32, kWarp,
     "((4,8),(4,2,2)):((64,1),(16,8,256))", "((4,8),(4,2)):((32,1),(8,128))", kC16x8},
    {"sm90", "mma.sync.m16n8k4", "SM90_16x8x4_{F64F64F64F64,C64C64C64C64}_TN", 16, 8, 4, kWarp,
     "((4,8),2):((16,1),8)", "((4,8),1):((8,1),0)", kC16x8},
    {"sm90", "mma.sync.m16n8k8", "SM90_16x8x8_{F64F64F64F64,C64C64C64C64}_TN", 16, 8, 8, kWarp,
     "((4,8),(2,2)):((16,1),(8,64))", "((4,8),2):((8,1),32)", kC16x8},
    {"sm90", "mma.sync.m16n8k16", "SM90_16x8x16_{F64F64F64F64,C64C64C64C64}_TN", 16, 8, 16, kWarp,
     "((4,8),(2,4)):((16,1),(8,64))", "((4,8),4):((8,1),32)", kC16x8},
    // wgmma: one warpgroup. SS reads A and B from shared memory through descriptors (each thread
    // sees the whole tile, thread stride 0); RS takes A from registers.
    {"sm90", "wgmma.mma_async", "SM90_64x#x16_{F16F16F16,F32F16F16,F32BF16BF16}_SS", 64, 0, 16,
     "128:1", "(128,(64,16)):(0,(1,64))", kGmmaB, kGmmaC, kGmmaN, "", true},
    {"sm90", "wgmma.mma_async", "SM90_64x#x16_{F16F16F16,F32F16F16,F32BF16BF16}_RS", 64, 0, 16,
     "128:1", "((4,8,4),(2,2,2)):((128,1,16),(64,8,512))", kGmmaB, kGmmaC, kGmmaN, "", true},
    {"sm90", "wgmma.mma_async", "SM90_64x#x8_F32TF32TF32_SS_TN", 64, 0, 8, "128:1",
     "(128,(64,8)):(0,(1,64))", kGmmaB, kGmmaC, kGmmaN},
    {"sm90", "wgmma.mma_async", "SM90_64x#x8_F32TF32TF32_RS_TN", 64, 0, 8, "128:1",
     "((4,8,4),(2,2)):((64,1,16),(8,256))", kGmmaB, kGmmaC, kGmmaN},
    {"sm90", "wgmma.mma_async", "SM90_64x#x32_{F16,F32}{E4M3,E5M2}{E4M3,E5M2}_SS_TN", 64, 0, 32,
     "128:1", "(128,(64,32)):(0,(1,64))", kGmmaB, kGmmaC, kGmmaN},
    {"sm90", "wgmma.mma_async", "SM90_64x#x32_{F16,F32}{E4M3,E5M2}{E4M3,E5M2}_RS_TN", 64, 0, 32,
     "128:1", "((4,8,4),(4,2,2)):((256,1,16),(64,8,1024))", kGmmaB, kGmmaC, kGmmaN},
    {"sm90", "wgmma.mma_async", "SM90_64x#x32_S32{S8,U8}{S8,U8}_SS_TN{,_SATURATE}", 64, 0, 32,
     "128:1", "(128,(64,32)):(0,(1,64))", kGmmaB, kGmmaC, kGmmaIntN},
    {"sm90", "wgmma.mma_async", "SM90_64x#x32_S32{S8,U8}{S8,U8}_RS_TN{,_SATURATE}", 64, 0, 32,
     "128:1", "((4,8,4),(4,2,2)):((256,1,16),(64,8,1024))", kGmmaB, kGmmaC, kGmmaIntN},
    // For pictures only (not Hopper): tcgen05.mma issued by one thread for the CTA, accumulators
    // in tensor memory; every layout is the whole tile. Tessera's spelling (CuTe's is a template).
    {"sm100", "tcgen05.mma", "SM100_MMA_TF32_SS_64x#x8", 64, 0, 8, "1:0", "(1,(64,8)):(0,(1,64))",
     "(1,(#,8)):(0,(1,#))", "(1,(64,#)):(0,(1,64))", kGmmaN, "f32 tf32 tf32 f32"},
    {"sm100", "tcgen05.mma", "SM100_MMA_TF32_SS_128x#x8", 128, 0, 8, "1:0",
     "(1,(128,8)):(0,(1,128))", "(1,(#,8)):(0,(1,#))", "(1,(128,#)):(0,(1,128))", kUmma128N,
     "f32 tf32 tf32 f32"},
    {"sm100", "tcgen05.mma", "SM100_MMA_F16BF16_SS_64x#x16", 64, 0, 16, "1:0",
     "(1,(64,16)):(0,(1,64))", "(1,(#,16)):(0,(1,#))", "(1,(64,#)):(0,(1,64))", kGmmaN,
     "f32 f16 f16 f32"},
    {"sm100", "tcgen05.mma", "SM100_MMA_F16BF16_SS_128x#x16", 128, 0, 16, "1:0",
     "(1,(128,16)):(0,(1,128))", "(1,(#,16)):(0,(1,#))", "(1,(128,#)):(0,(1,128))", kUmma128N,
     "f32 f16 f16 f32"},
    {"sm100", "tcgen05.mma", "SM100_MMA_S8_SS_64x#x32", 64, 0, 32, "1:0", "(1,(64,32)):(0,(1,64))",
     "(1,(#,32)):(0,(1,#))", "(1,(64,#)):(0,(1,64))", kGmmaN, "s32 s8 s8 s32"},
    {"sm100", "tcgen05.mma", "SM100_MMA_S8_SS_128x#x32", 128, 0, 32, "1:0",
     "(1,(128,32)):(0,(1,128))", "(1,(#,32)):(0,(1,#))", "(1,(128,#)):(0,(1,128))", kUmma128N,
     "s32 s8 s8 s32"},
    {"sm100", "tcgen05.mma", "SM100_MMA_F8F6F4_SS_64x#x32", 64, 0, 32, "1:0",
     "(1,(64,32)):(0,(1,64))", "(1,(#,32)):(0,(1,#))", "(1,(64,#)):(0,(1,64))", kGmmaN,
     "f32 e4m3 e4m3 f32"},
    {"sm100", "tcgen05.mma", "SM100_MMA_F8F6F4_SS_128x#x32", 128, 0, 32, "1:0",
     "(1,(128,32)):(0,(1,128))", "(1,(#,32)):(0,(1,#))", "(1,(128,#)):(0,(1,128))", kUmma128N,
     "f32 e4m3 e4m3 f32"},
    // For pictures only: SM120's warp-level f8f6f4 mma (8-bit containers) and the block-scaled
    // ones.
    {"sm120", "mma.sync.m16n8k32.kind::f8f6f4", "SM120_16x8x32_TN", 16, 8, 32, kWarp,
     "((4,8),(4,2,2)):((64,1),(16,8,256))", "((4,8),(4,2)):((32,1),(8,128))", kC16x8, "",
     "f32 u8 u8 f32"},
    {"sm120", "mma.sync.m16n8k32.block_scale", "SM120_16x8x32_TN_VS", 16, 8, 32, kWarp,
     "((4,8),(4,2,2)):((64,1),(16,8,256))", "((4,8),(4,2)):((32,1),(8,128))", kC16x8, "",
     "f32 u8 u8 f32"},
    {"sm120", "mma.sync.m16n8k64.block_scale", "SM120_16x8x64_TN_VS", 16, 8, 64, kWarp,
     "((4,8),(8,2,2)):((128,1),(16,8,512))", "((4,8),(8,2)):((64,1),(8,256))", kC16x8, "",
     "f32 u4 u4 f32"},
};
inline constexpr int kMmaRowCount = int(sizeof(kMmaRows) / sizeof(kMmaRows[0]));

// ---- copies ------------------------------------------------------------------------------------

struct CopyRow {
  const char* arch;
  const char* instruction;
  const char* names;
  const char* thr_id;
  const char* src, *dst, *ref;  // (thr,val) -> bit; # = the bits one TMA/bulk copy moves
  int64_t min_elem_bits, max_elem_bits, default_elem_bits;
  bool box = false;             // TMA/bulk: one thread moves a whole box (# bits)
};

inline constexpr const char* kLdsmX1 = "((8,4),128):((128,0),1)";
inline constexpr const char* kLdsmX2 = "((16,2),128):((128,0),1)";
inline constexpr const char* kLdsmX4 = "(32,128):(128,1)";
inline constexpr const char* kRegsX1 = "(32,32):(32,1)";
inline constexpr const char* kRegsX2 = "(32,(32,2)):(32,(1,1024))";
inline constexpr const char* kRegsX4 = "(32,(32,4)):(32,(1,1024))";
inline constexpr const char* kRegsX1T = "((4,8),(16,2)):((256,16),(1,128))";
inline constexpr const char* kRegsX2T = "((4,8),(16,2,2)):((256,16),(1,128,1024))";
inline constexpr const char* kRegsX4T = "((4,8),(16,2,4)):((256,16),(1,128,1024))";

inline constexpr CopyRow kCopyRows[] = {
    {"any", "ld/st", "UniversalCopy<uint8_t>", "1:0", "(1,8):(0,1)", "(1,8):(0,1)", "(1,8):(0,1)",
     8, 8, 8},
    {"any", "ld/st", "UniversalCopy<uint16_t>", "1:0", "(1,16):(0,1)", "(1,16):(0,1)",
     "(1,16):(0,1)", 8, 16, 16},
    {"any", "ld/st", "UniversalCopy<uint32_t>", "1:0", "(1,32):(0,1)", "(1,32):(0,1)",
     "(1,32):(0,1)", 8, 32, 32},
    {"any", "ld/st", "UniversalCopy<uint64_t>", "1:0", "(1,64):(0,1)", "(1,64):(0,1)",
     "(1,64):(0,1)", 8, 64, 32},
    {"any", "ld/st", "UniversalCopy<uint128_t>", "1:0", "(1,128):(0,1)", "(1,128):(0,1)",
     "(1,128):(0,1)", 8, 128, 32},
    {"sm50", "shfl.sync", "SM50_Shuffle_U32_2x2Trans_XOR1", kWarp, "(32,64):(64,1)",
     "((2,16),(32,2)):((32,128),(1,64))", "(32,64):(64,1)", 32, 32, 32},
    {"sm50", "shfl.sync", "SM50_Shuffle_U32_2x2Trans_XOR4", kWarp, "(32,64):(64,1)",
     "((4,2,4),(32,2)):((64,32,512),(1,256))", "(32,64):(64,1)", 32, 32, 32},
    // ldmatrix: each lane gives the address of one 16-byte row; stmatrix is its mirror image.
    {"sm75", "ldmatrix.x1", "SM75_U32x1_LDSM_N", kWarp, kLdsmX1, kRegsX1, kRegsX1, 8, 32, 16},
    {"sm75", "ldmatrix.x2", "SM75_U32x2_LDSM_N", kWarp, kLdsmX2, kRegsX2, kRegsX2, 8, 32, 16},
    {"sm75", "ldmatrix.x4", "SM75_U32x4_LDSM_N", kWarp, kLdsmX4, kRegsX4, kRegsX4, 8, 32, 16},
    {"sm75", "ldmatrix.x1.trans", "SM75_U16x2_LDSM_T", kWarp, kLdsmX1, kRegsX1T, kRegsX1T, 16, 16,
     16},
    {"sm75", "ldmatrix.x2.trans", "SM75_U16x4_LDSM_T", kWarp, kLdsmX2, kRegsX2T, kRegsX2T, 16, 16,
     16},
    {"sm75", "ldmatrix.x4.trans", "SM75_U16x8_LDSM_T", kWarp, kLdsmX4, kRegsX4T, kRegsX4T, 16, 16,
     16},
    {"sm75", "movmatrix.trans", "SM75_U32x1_MOVM_T", kWarp, "(32,32):(32,1)", "(32,32):(32,1)",
     "(32,32):(32,1)", 16, 32, 16},
    {"sm90", "stmatrix.x1", "SM90_U32x1_STSM_N", kWarp, kRegsX1, kLdsmX1, kRegsX1, 8, 32, 16},
    {"sm90", "stmatrix.x2", "SM90_U32x2_STSM_N", kWarp, kRegsX2, kLdsmX2, kRegsX2, 8, 32, 16},
    {"sm90", "stmatrix.x4", "SM90_U32x4_STSM_N", kWarp, kRegsX4, kLdsmX4, kRegsX4, 8, 32, 16},
    {"sm90", "stmatrix.x1.trans", "SM90_U16x2_STSM_T", kWarp, kRegsX1T, kLdsmX1, kRegsX1T, 16, 16,
     16},
    {"sm90", "stmatrix.x2.trans", "SM90_U16x4_STSM_T", kWarp, kRegsX2T, kLdsmX2, kRegsX2T, 16, 16,
     16},
    {"sm90", "stmatrix.x4.trans", "SM90_U16x8_STSM_T", kWarp, kRegsX4T, kLdsmX4, kRegsX4T, 16, 16,
     16},
    // cp.async: .ca copies 4, 8 or 16 bytes, .cg only 16; ZFILL reads fewer bytes and zero-fills.
    {"sm80", "cp.async.ca", "SM80_CP_ASYNC_CACHEALWAYS{,_ZFILL}<uint32_t>", "1:0", "(1,32):(0,1)",
     "(1,32):(0,1)", "(1,32):(0,1)", 8, 32, 32},
    {"sm80", "cp.async.ca", "SM80_CP_ASYNC_CACHEALWAYS{,_ZFILL}<uint64_t>", "1:0", "(1,64):(0,1)",
     "(1,64):(0,1)", "(1,64):(0,1)", 8, 64, 32},
    {"sm80", "cp.async.ca", "SM80_CP_ASYNC_CACHEALWAYS{,_ZFILL}<uint128_t>", "1:0", "(1,128):(0,1)",
     "(1,128):(0,1)", "(1,128):(0,1)", 8, 128, 32},
    {"sm80", "cp.async.cg", "SM80_CP_ASYNC_CACHEGLOBAL{,_ZFILL}<uint128_t>", "1:0", "(1,128):(0,1)",
     "(1,128):(0,1)", "(1,128):(0,1)", 8, 128, 32},
    // TMA and bulk copies: one thread moves a whole box, whose size comes from the tensor map.
    {"sm90", "cp.async.bulk.tensor", "SM90_TMA_{LOAD,LOAD_MULTICAST,STORE,REDUCE_ADD}", "1:0",
     "(1,#):(0,1)", "(1,#):(0,1)", "(1,#):(0,1)", 8, 64, 32, true},
    {"sm90", "cp.async.bulk", "SM90_BULK_COPY_{G2S,S2G}", "1:0", "(1,#):(0,1)", "(1,#):(0,1)",
     "(1,#):(0,1)", 8, 64, 32, true},
};
inline constexpr int kCopyRowCount = int(sizeof(kCopyRows) / sizeof(kCopyRows[0]));

// The box a TMA/bulk atom is shown with when none is given: 8192 bits (1 KiB).
inline constexpr int64_t kDefaultBoxBits = 8192;

// ---- the atoms of the rows ---------------------------------------------------------------------

// The N of an n = 0 row: entry i of its list (-1 past the end), or its count.
constexpr int64_t n_entry(const char* list, int i) {
  int k = 0;
  for (const char* p = list; *p;) {
    while (*p == ' ') ++p;
    if (!*p) break;
    int64_t v = 0;
    while (*p >= '0' && *p <= '9') v = v * 10 + (*p++ - '0');
    if (k++ == i) return v;
  }
  return -1;
}
constexpr int n_count(MmaRow const& r) {
  if (r.n) return 1;
  int k = 0;
  while (n_entry(r.n_list, k) >= 0) ++k;
  return k;
}
constexpr int row_atoms(MmaRow const& r) { return pattern_count(r.names) * n_count(r); }
constexpr int row_atoms(CopyRow const& r) { return pattern_count(r.names); }

// Where atom i of a table lies: its row, the row's pattern expansion and N.
struct AtomRef {
  int row = -1, expansion = 0;
  int64_t n = 0;  // MMA: N; copy: 0
  constexpr bool found() const { return row >= 0; }
};

constexpr int mma_count() {
  int total = 0;
  for (auto const& r : kMmaRows) total += row_atoms(r);
  return total;
}
constexpr int copy_count() {
  int total = 0;
  for (auto const& r : kCopyRows) total += row_atoms(r);
  return total;
}
inline constexpr int kMmaCount = mma_count();
inline constexpr int kCopyCount = copy_count();

// Atom i of the MMA table: the N vary slowest within a row (all types at N = 8, then N = 16, ...).
constexpr AtomRef mma_ref(int i) {
  for (int r = 0; r < kMmaRowCount; ++r) {
    int here = row_atoms(kMmaRows[r]);
    if (i < here) {
      int per_n = pattern_count(kMmaRows[r].names);
      MmaRow const& row = kMmaRows[r];
      return {r, i % per_n, row.n ? row.n : n_entry(row.n_list, i / per_n)};
    }
    i -= here;
  }
  return {};
}
constexpr AtomRef copy_ref(int i) {
  for (int r = 0; r < kCopyRowCount; ++r) {
    int here = row_atoms(kCopyRows[r]);
    if (i < here) return {r, i, 0};
    i -= here;
  }
  return {};
}

constexpr AtomName mma_name(AtomRef const& a) {
  return expand(kMmaRows[a.row].names, a.expansion, a.n);
}
constexpr AtomName copy_name(AtomRef const& a) {
  return expand(kCopyRows[a.row].names, a.expansion, 0);
}

// A row's layout pattern with # = N, % = N/8 and @ = the row's K (the wgmma B layout).
constexpr Layout mma_layout(MmaRow const& r, const char* pattern, int64_t n) {
  AtomName filled;
  for (const char* p = pattern; *p; ++p) {
    if (*p == '@') filled.add(r.k);
    else filled.add(*p);
  }
  return layout_of(filled.c_str(), n);
}

// The MMA atom `a` refers to. Its name is left empty: the caller owns the name's storage
// (mma_name gives the text).
constexpr MmaAtom mma_atom(AtomRef const& a) {
  MmaRow const& r = kMmaRows[a.row];
  return {"",
          r.m,
          a.n,
          r.k,
          parse_layout(r.thr_id),
          mma_layout(r, r.a, a.n),
          mma_layout(r, r.b, a.n),
          mma_layout(r, r.c, a.n)};
}

// The copy atom `a` refers to, moving elements of `elem_bits` (0: the row's default); a TMA/bulk
// atom moves `box_bits` (0: kDefaultBoxBits).
constexpr CopyAtom copy_atom(AtomRef const& a, int64_t elem_bits = 0, int64_t box_bits = 0) {
  CopyRow const& r = kCopyRows[a.row];
  if (elem_bits == 0) elem_bits = r.default_elem_bits;
  if (box_bits == 0) box_bits = kDefaultBoxBits;
  if (elem_bits < r.min_elem_bits || elem_bits > r.max_elem_bits ||
      (elem_bits & (elem_bits - 1)) != 0) {
    Text t;
    t << "copy atom " << copy_name(a).c_str() << ": " << elem_bits
      << "-bit elements; it moves elements of " << r.min_elem_bits << " to " << r.max_elem_bits
      << " bits (powers of two)";
    fail(t);
  }
  if (r.box && (box_bits % elem_bits != 0 || box_bits < elem_bits)) {
    Text t;
    t << "copy atom " << copy_name(a).c_str() << ": a box of " << box_bits
      << " bits is not a whole number of " << elem_bits << "-bit elements";
    fail(t);
  }
  int64_t n = r.box ? box_bits : 0;
  return {"", elem_bits, parse_layout(r.thr_id), recast_bits(layout_of(r.src, n), elem_bits),
          recast_bits(layout_of(r.dst, n), elem_bits), recast_bits(layout_of(r.ref, n), elem_bits)};
}

// ---- names -------------------------------------------------------------------------------------

// The name CuTe's spellings reduce to: without "cute::" and "SM90::GMMA::" qualifiers, the
// MMA_Atom<..> / Copy_Atom<.., T> wrappers, a value's `{}`, spaces and the template arguments of
// an MMA (SM90_64x128x16_F16F16F16_SS<GMMA::Major::K, ...>); GMMA's own
// name MMA_64x128x16_F16F16F16_SS becomes SM90_64x128x16_F16F16F16_SS; a copy's repeated type
// (SM80_CP_ASYNC_CACHEGLOBAL<uint128_t, uint128_t>) is kept once.
constexpr AtomName canonical_name(const char* s) {
  AtomName raw;
  for (const char* p = s; *p; ++p)
    if (*p != ' ') raw.add(*p);
  const char* p = raw.c_str();
  auto starts = [](const char* a, const char* prefix) {
    while (*prefix && *a == *prefix) ++a, ++prefix;
    return *prefix == 0;
  };
  for (bool again = true; again;) {
    again = false;
    for (const char* q : {"cute::", "SM90::GMMA::", "GMMA::", "SM90::", "MMA_Atom<",
                          "Copy_Atom<"}) {
      if (starts(p, q)) {
        while (*q) ++p, ++q;
        again = true;
      }
    }
  }
  AtomName out;
  if (starts(p, "MMA_64x")) {
    for (const char* q = "SM90_"; *q; ++q) out.add(*q);
    p += 4;
  }
  // Keep <..> only for the copies whose argument is their size (cp.async, UniversalCopy).
  bool copy_args = starts(p, "SM80_CP_ASYNC") || starts(p, "UniversalCopy");
  // The name ends at its arguments, a wrapper's next argument or close, or `{}` / `()`.
  for (; *p && *p != '<' && *p != ',' && *p != '>' && *p != '{' && *p != '('; ++p) out.add(*p);
  if (*p == '<' && copy_args) {
    const char* end = p;
    while (*end && *end != ',' && *end != '>') out.add(*end++);
    out.add('>');
  }
  return out;
}

constexpr char lower_ascii(char c) { return c >= 'A' && c <= 'Z' ? char(c - 'A' + 'a') : c; }

// Whether `s` is an expansion of pattern `p` (any case): records the alternative taken in each
// {..} group from `group` on and the number that stands for #.
constexpr bool match(const char* p, const char* s, int group, int* choice, int64_t& n) {
  while (true) {
    if (*p == '{') {
      const char* alt = p + 1;
      const char* close = alt;
      while (*close != '}') ++close;
      for (int k = 0;; ++k) {
        const char* end = alt;
        while (*end != ',' && *end != '}') ++end;
        int len = int(end - alt), i = 0;
        while (i < len && lower_ascii(s[i]) == lower_ascii(alt[i])) ++i;
        if (i == len && match(close + 1, s + len, group + 1, choice, n)) {
          choice[group] = k;
          return true;
        }
        if (*end == '}') return false;
        alt = end + 1;
      }
    }
    if (*p == '#') {
      if (*s < '1' || *s > '9') return false;
      int64_t v = 0;
      while (*s >= '0' && *s <= '9' && v < 100000) v = v * 10 + (*s++ - '0');
      n = v;
      ++p;
      continue;
    }
    if (lower_ascii(*p) != lower_ascii(*s)) return false;
    if (!*p) return true;
    ++p, ++s;
  }
}

// The expansion index of the alternatives `choice` (first group slowest, as expand counts).
constexpr int expansion_of(const char* p, int const* choice) {
  PatternGroups g = pattern_groups(p);
  int j = 0;
  for (int i = 0; i < g.n; ++i) j = j * g.size[i] + choice[i];
  return j;
}

// The catalog atom of a name (any spelling canonical_name accepts, any case); not found() if none.
constexpr AtomRef find_mma(const char* name) {
  AtomName want = canonical_name(name);
  for (int r = 0; r < kMmaRowCount; ++r) {
    MmaRow const& row = kMmaRows[r];
    int choice[8] = {};
    int64_t n = row.n;
    if (!match(row.names, want.c_str(), 0, choice, n)) continue;
    if (row.n == 0) {  // N must be one of the row's
      bool listed = false;
      for (int i = 0; n_entry(row.n_list, i) >= 0; ++i) listed |= n_entry(row.n_list, i) == n;
      if (!listed) continue;
    }
    return {r, expansion_of(row.names, choice), n};
  }
  return {};
}
constexpr AtomRef find_copy(const char* name) {
  AtomName want = canonical_name(name);
  for (int r = 0; r < kCopyRowCount; ++r) {
    int choice[8] = {};
    int64_t n = 0;
    if (match(kCopyRows[r].names, want.c_str(), 0, choice, n))
      return {r, expansion_of(kCopyRows[r].names, choice), 0};
  }
  return {};
}

// ---- properties --------------------------------------------------------------------------------

// The architecture number of "sm80" (0 for "any").
constexpr int arch_number(const char* arch) {
  int v = 0;
  for (const char* p = arch; *p; ++p)
    if (*p >= '0' && *p <= '9') v = v * 10 + (*p - '0');
  return v;
}
// Whether an atom of `arch` runs on Hopper (sm_90a): everything up to SM90; SM100 and SM120
// atoms are in the catalog for their pictures only.
constexpr bool runs_on_sm90(const char* arch) { return arch_number(arch) <= 90; }

// CuTe defines the wgmma N outside 8, 16, 32, 64, 96, 128, 192, 256 only with
// CUTE_SM90_EXTENDED_MMA_SHAPES_ENABLED.
constexpr bool cute_extended_shape(MmaRow const& r, int64_t n) {
  if (arch_number(r.arch) != 90 || r.n) return false;
  for (int64_t base : {8, 16, 32, 64, 96, 128, 192, 256})
    if (n == base) return false;
  return true;
}

// The element types D, A, B, C: the row's, or read off the name (F32BF16BF16F32 -> f32 bf16 bf16
// f32; wgmma names spell D, A, B and C = D). Written as "f32 bf16 bf16 f32".
constexpr AtomName mma_types(AtomRef const& a) {
  MmaRow const& r = kMmaRows[a.row];
  AtomName out;
  if (*r.types) {
    for (const char* p = r.types; *p; ++p) out.add(*p);
    return out;
  }
  AtomName name = mma_name(a);
  // The type field: after the third '_' ("SM80_16x8x16_<types>_TN" / "SM90_64x128x16_<types>_SS").
  const char* p = name.c_str();
  for (int underscores = 0; *p && underscores < 2; ++p) underscores += *p == '_';
  const char* tokens[] = {"GC64", "E4M3", "E5M2", "BF16", "TF32", "F16", "F32", "F64", "C64",
                          "S32", "S8", "U8", "S4", "U4", "U1"};
  int count = 0;
  const char* first = nullptr;
  while (*p && *p != '_') {
    const char* hit = nullptr;
    for (const char* t : tokens) {
      const char* q = p;
      const char* u = t;
      while (*u && *q == *u) ++q, ++u;
      if (!*u) {
        hit = t;
        break;
      }
    }
    if (!hit) break;
    if (count++) out.add(' ');
    if (!first) first = hit;
    for (const char* u = hit; *u; ++u, ++p)
      out.add(*u >= 'A' && *u <= 'Z' ? char(*u - 'A' + 'a') : *u);
  }
  if (count == 3 && first) {  // wgmma: C = D
    out.add(' ');
    for (const char* u = first; *u; ++u)
      out.add(*u >= 'A' && *u <= 'Z' ? char(*u - 'A' + 'a') : *u);
  }
  return out;
}

}  // namespace catalog
}  // namespace tessera
