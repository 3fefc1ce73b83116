// The atom catalog (atom/catalog.hpp) against CuTe's traits: tests/data/cute_atoms.json holds what
// CuTe's C++ gives for every MMA and copy atom (ThrID, A/B/C layouts, types; copy layouts in bits
// and as elements of each size, as Copy_Atom recasts them). Every atom there must be in the
// catalog with the same layouts (same notation), and every catalog atom must be there.
#include <gtest/gtest.h>

#include <fstream>
#include <map>
#include <set>
#include <string>

#include <nlohmann/json.hpp>
#include <tessera.hpp>
#include <tessera/atom/catalog.hpp>

using namespace tessera;
using nlohmann::json;

namespace {

json const& cute_atoms() {
  static json data = [] {
    std::ifstream f(std::string(TESSERA_SOURCE_DIR) + "/tests/data/cute_atoms.json");
    if (!f) throw std::runtime_error("tests/data/cute_atoms.json is missing");
    return json::parse(f);
  }();
  return data;
}

// CuTe's notation read by tessera's parser and printed again: the notation contract's form.
std::string norm(std::string const& cute) { return to_string(parse_layout(cute.c_str())); }

// Documented differences: layouts where CuTe's traits are not well formed (see catalog.hpp).
const std::map<std::string, std::pair<std::string, std::string>> kDifferences = {
    // name -> (CuTe's A layout as printed, tessera's)
    {"SM80_16x8x128_S32U1U1S32_TN_XORPOPC",
     {"((4,8),(32,2)):((512,1),((16,8)))", "((4,8),(32,2)):((512,1),(16,8))"}},
    {"SM80_16x8x128_S32U1U1S32_TN_ANDPOPC",
     {"((4,8),(32,2)):((512,1),((16,8)))", "((4,8),(32,2)):((512,1),(16,8))"}},
};

std::set<std::string> catalog_mma_names() {
  std::set<std::string> s;
  for (int i = 0; i < catalog::kMmaCount; ++i)
    s.insert(catalog::mma_name(catalog::mma_ref(i)).c_str());
  return s;
}
std::set<std::string> catalog_copy_names() {
  std::set<std::string> s;
  for (int i = 0; i < catalog::kCopyCount; ++i)
    s.insert(catalog::copy_name(catalog::copy_ref(i)).c_str());
  return s;
}

}  // namespace

TEST(AtomCatalog, PatternsExpandAsAShellDoes) {
  EXPECT_EQ(catalog::pattern_count("A{x,y}B{1,2,3}"), 6);
  EXPECT_STREQ(catalog::expand("A{x,y}B{1,2,3}", 0, 0).c_str(), "AxB1");
  EXPECT_STREQ(catalog::expand("A{x,y}B{1,2,3}", 1, 0).c_str(), "AxB2");
  EXPECT_STREQ(catalog::expand("A{x,y}B{1,2,3}", 3, 0).c_str(), "AyB1");
  EXPECT_STREQ(catalog::expand("T{,_SAT}", 1, 0).c_str(), "T_SAT");
  EXPECT_STREQ(catalog::expand("SM90_64x#x16", 0, 136).c_str(), "SM90_64x136x16");
  EXPECT_EQ(to_string(catalog::layout_of("(2,2,%):(64,8,512)", 128)), "(2,2,16):(64,8,512)");
}

TEST(AtomCatalog, NamesInCuteSpellings) {
  EXPECT_STREQ(catalog::canonical_name(
                   "cute::SM90::GMMA::MMA_64x128x16_F16F16F16_SS<GMMA::Major::K, GMMA::Major::MN>")
                   .c_str(),
               "SM90_64x128x16_F16F16F16_SS");
  EXPECT_STREQ(
      catalog::canonical_name("SM90_64x64x16_F32BF16BF16_RS<GMMA::Major::K,GMMA::Major::K>")
          .c_str(),
      "SM90_64x64x16_F32BF16BF16_RS");
  EXPECT_STREQ(catalog::canonical_name("SM80_CP_ASYNC_CACHEGLOBAL<uint128_t, uint128_t>").c_str(),
               "SM80_CP_ASYNC_CACHEGLOBAL<uint128_t>");
  EXPECT_TRUE(catalog::find_mma("SM80_8x8x4_F64F64F64F64_TN").found());
  EXPECT_TRUE(catalog::find_mma("sm80_8x8x4_f64f64f64f64_tn").found());
  EXPECT_TRUE(catalog::find_mma("MMA_64x200x32_F32E4M3E5M2_SS_TN").found());
  EXPECT_FALSE(catalog::find_mma("SM80_8x8x4_F64F64F64F64_NT").found());
  EXPECT_FALSE(
      catalog::find_mma("SM90_64x36x16_F16F16F16_SS").found());  // N must be a multiple of 8
  EXPECT_FALSE(
      catalog::find_mma("SM90_64x40x32_S32S8S8_SS_TN").found());  // no 40 for 8-bit integers
  EXPECT_TRUE(catalog::find_copy("SM75_U16x8_LDSM_T").found());
  EXPECT_FALSE(catalog::find_copy("SM80_CP_ASYNC_CACHEGLOBAL<uint32_t>")
                   .found());  // .cg copies 16 bytes only
}

TEST(AtomCatalog, TypesReadOffTheNames) {
  auto types = [](const char* n) {
    return std::string(catalog::mma_types(catalog::find_mma(n)).c_str());
  };
  EXPECT_EQ(types("SM80_16x8x8_F32BF16BF16F32_TN"), "f32 bf16 bf16 f32");
  EXPECT_EQ(types("SM90_64x256x32_S32U8S8_RS_TN_SATURATE"), "s32 u8 s8 s32");
  EXPECT_EQ(types("SM61_DP4A"), "s32 s8 s8 s32");
}

TEST(AtomCatalog, CopyElementSizesAreChecked) {
  catalog::AtomRef t = catalog::find_copy("SM75_U16x4_LDSM_T");
  EXPECT_THROW(catalog::copy_atom(t, 32), Error);
  EXPECT_THROW(catalog::copy_atom(catalog::find_copy("SM90_TMA_LOAD"), 16, 24), Error);
  EXPECT_EQ(to_string(catalog::copy_atom(catalog::find_copy("SM90_TMA_LOAD"), 16, 4096).src_tv),
            "(1,256):(0,1)");
}

// Every MMA atom of CuTe's traits, layout by layout.
TEST(AtomCatalog, MmaAtomsMatchCuteTraits) {
  std::set<std::string> cute_names;
  int checked = 0;
  for (auto const& a : cute_atoms()["atoms"]) {
    if (!a.contains("a")) continue;
    std::string name = a["name"];
    cute_names.insert(name);
    SCOPED_TRACE(name);
    catalog::AtomRef r = catalog::find_mma(name.c_str());
    ASSERT_TRUE(r.found()) << name << " is not in the catalog";
    ASSERT_EQ(catalog::mma_name(r).c_str(), name);
    catalog::MmaRow const& row = catalog::kMmaRows[r.row];
    EXPECT_EQ(std::string(row.arch), a["arch"].get<std::string>());
    MmaAtom m = catalog::mma_atom(r);
    EXPECT_EQ(m.m, a["mnk"][0].get<int64_t>());
    EXPECT_EQ(m.n, a["mnk"][1].get<int64_t>());
    EXPECT_EQ(m.k, a["mnk"][2].get<int64_t>());
    EXPECT_EQ(to_string(m.thr_id), norm(a["thr_id"]));
    std::string cute_a = a["a"];
    auto diff = kDifferences.find(name);
    if (diff != kDifferences.end()) {
      EXPECT_EQ(cute_a, diff->second.first)
          << "CuTe's layout changed: review the documented difference";
      EXPECT_EQ(to_string(m.a_tv), diff->second.second);
    } else {
      EXPECT_EQ(to_string(m.a_tv), norm(cute_a));
    }
    EXPECT_EQ(to_string(m.b_tv), norm(a["b"]));
    EXPECT_EQ(to_string(m.c_tv), norm(a["c"]));
    // Each layout covers its tile: A (M,K), B (N,K), C (M,N) in CuTe's sizes.
    EXPECT_EQ(m.c_tv.size(), m.thr_id.size() * m.values_c());
    std::string types;
    for (auto const& t : a["types"]) {
      if (!types.empty()) types += ' ';
      types += t.get<std::string>();
    }
    EXPECT_EQ(catalog::mma_types(r).c_str(), types);
    EXPECT_EQ(catalog::cute_extended_shape(row, m.n), a.value("extended", false));
    ++checked;
  }
  EXPECT_EQ(checked, catalog::kMmaCount);
  for (auto const& n : catalog_mma_names())
    EXPECT_TRUE(cute_names.count(n)) << n << " is not one of CuTe's atoms";
}

// Every copy atom: the bit layouts, and the element layouts for each element size CuTe allows.
TEST(AtomCatalog, CopyAtomsMatchCuteTraits) {
  std::set<std::string> cute_names;
  int checked = 0, element_layouts = 0;
  for (auto const& a : cute_atoms()["atoms"]) {
    if (!a.contains("src_bits")) continue;
    std::string name = a["name"];
    cute_names.insert(name);
    SCOPED_TRACE(name);
    catalog::AtomRef r = catalog::find_copy(name.c_str());
    ASSERT_TRUE(r.found()) << name << " is not in the catalog";
    ASSERT_EQ(catalog::copy_name(r).c_str(), name);
    catalog::CopyRow const& row = catalog::kCopyRows[r.row];
    EXPECT_EQ(std::string(row.arch), a["arch"].get<std::string>());
    int64_t box =
        row.box ? catalog::kDefaultBoxBits : 0;  // CuTe's data was made with 8192-bit boxes
    EXPECT_EQ(to_string(parse_layout(row.thr_id)), norm(a["thr_id"]));
    EXPECT_EQ(to_string(catalog::layout_of(row.src, box)), norm(a["src_bits"]));
    EXPECT_EQ(to_string(catalog::layout_of(row.dst, box)), norm(a["dst_bits"]));
    EXPECT_EQ(to_string(catalog::layout_of(row.ref, box)), norm(a["ref_bits"]));
    std::set<int64_t> cute_sizes;
    for (auto const& [bits, e] : a["elements"].items()) {
      int64_t elem = std::stoll(bits);
      cute_sizes.insert(elem);
      SCOPED_TRACE(bits + "-bit elements");
      CopyAtom c = catalog::copy_atom(r, elem);
      EXPECT_EQ(to_string(c.src_tv), norm(e["src"]));
      EXPECT_EQ(to_string(c.dst_tv), norm(e["dst"]));
      EXPECT_EQ(to_string(c.ref_tv), norm(e["ref"]));
      ++element_layouts;
    }
    // The catalog's element range is the one the data covers.
    EXPECT_EQ(*cute_sizes.begin(), row.min_elem_bits);
    EXPECT_EQ(*cute_sizes.rbegin(), row.max_elem_bits);
    ++checked;
  }
  EXPECT_EQ(checked, catalog::kCopyCount);
  EXPECT_GT(element_layouts, checked);
  for (auto const& n : catalog_copy_names())
    EXPECT_TRUE(cute_names.count(n)) << n << " is not one of CuTe's atoms";
}

// The atoms kernels issue (mma.hpp, copy.hpp) are the catalog's.
TEST(AtomCatalog, KernelAtomsAgree) {
  auto same = [](MmaAtom const& x, const char* name) {
    SCOPED_TRACE(name);
    MmaAtom c = catalog::mma_atom(catalog::find_mma(name));
    EXPECT_EQ(x.m, c.m);
    EXPECT_EQ(x.n, c.n);
    EXPECT_EQ(x.k, c.k);
    EXPECT_EQ(to_string(x.thr_id), to_string(c.thr_id));
    EXPECT_EQ(to_string(x.a_tv), to_string(c.a_tv));
    EXPECT_EQ(to_string(x.b_tv), to_string(c.b_tv));
    EXPECT_EQ(to_string(x.c_tv), to_string(c.c_tv));
  };
  same(atom::universal_fma(), "UniversalFMA");
  same(atom::sm80_16x8x16_f32f16(), "SM80_16x8x16_F32F16F16F32_TN");
  same(atom::sm80_16x8x16_f32bf16(), "SM80_16x8x16_F32BF16BF16F32_TN");
  same(atom::sm80_16x8x8_f32tf32(), "SM80_16x8x8_F32TF32TF32F32_TN");
  for (int n = 8; n <= 256; n += 8) {
    std::string ss = "SM90_64x" + std::to_string(n) + "x16_F32F16F16_SS";
    std::string rs = "SM90_64x" + std::to_string(n) + "x16_F32F16F16_RS";
    same(atom::sm90_64xNx16(n, false), ss.c_str());
    same(atom::sm90_64xNx16(n, true), rs.c_str());
    // FP8: each pair of formats, SS and RS (K-major, "TN").
    const char* f8[2] = {"E4M3", "E5M2"};
    for (int a = 0; a < 2; ++a)
      for (int b = 0; b < 2; ++b)
        for (bool regs : {false, true}) {
          std::string name = "SM90_64x" + std::to_string(n) + "x32_F32" + f8[a] + f8[b] +
                             (regs ? "_RS_TN" : "_SS_TN");
          MmaAtom x = atom::sm90_64xNx32_f8(n, regs, atom::Fp8(a), atom::Fp8(b));
          same(x, name.c_str());
          // The kernel atom's name is CuTe's with N for the number.
          std::string generic = name;
          generic.replace(8, std::to_string(n).size(), "N");
          EXPECT_EQ(std::string(x.name), generic);
        }
  }
  auto same_copy = [](CopyAtom const& x, const char* name, int64_t elem) {
    SCOPED_TRACE(name);
    CopyAtom c = catalog::copy_atom(catalog::find_copy(name), elem);
    EXPECT_EQ(to_string(x.thr_id), to_string(c.thr_id));
    EXPECT_EQ(to_string(x.src_tv), to_string(c.src_tv));
    EXPECT_EQ(to_string(x.dst_tv), to_string(c.dst_tv));
    EXPECT_EQ(to_string(x.ref_tv), to_string(c.ref_tv));
  };
  for (int64_t e : {8, 16}) {
    same_copy(atom::ldmatrix(1, false, e), "SM75_U32x1_LDSM_N", e);
    same_copy(atom::ldmatrix(2, false, e), "SM75_U32x2_LDSM_N", e);
    same_copy(atom::ldmatrix(4, false, e), "SM75_U32x4_LDSM_N", e);
  }
  same_copy(atom::ldmatrix(1, true), "SM75_U16x2_LDSM_T", 16);
  same_copy(atom::ldmatrix(2, true), "SM75_U16x4_LDSM_T", 16);
  same_copy(atom::ldmatrix(4, true), "SM75_U16x8_LDSM_T", 16);
  same_copy(atom::cp_async(4, 32), "SM80_CP_ASYNC_CACHEALWAYS<uint32_t>", 32);
  same_copy(atom::cp_async(8, 16), "SM80_CP_ASYNC_CACHEALWAYS<uint64_t>", 16);
  same_copy(atom::cp_async(16, 32), "SM80_CP_ASYNC_CACHEALWAYS<uint128_t>", 32);
  same_copy(atom::universal_copy(128, 32), "UniversalCopy<uint128_t>", 32);
  same_copy(atom::universal_copy(32, 16), "UniversalCopy<uint32_t>", 16);
}

// The catalog is what the report says: counts per architecture.
TEST(AtomCatalog, Counts) {
  std::map<std::string, int> per_arch;
  for (int i = 0; i < catalog::kMmaCount; ++i)
    per_arch[catalog::kMmaRows[catalog::mma_ref(i).row].arch]++;
  EXPECT_EQ(per_arch["sm61"], 2);
  EXPECT_EQ(per_arch["sm70"], 8);
  EXPECT_EQ(per_arch["sm75"], 3);
  EXPECT_EQ(per_arch["sm89"], 8);
  EXPECT_GT(per_arch["sm90"], 1000);
}
