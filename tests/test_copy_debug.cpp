// The copies' run-time rules under TESSERA_DEBUG, on the host (where a device traps, the host
// throws the rule): a leading dimension that breaks an atom's 16-byte vectors, a thread outside
// the TiledCopy; and the same copies with valid operands.
#define TESSERA_DEBUG 1
#include <gtest/gtest.h>

#include <string>
#include <tessera.hpp>
#include <tessera/device_tensor.hpp>
#include <vector>

using namespace tessera;

namespace {

struct Load128 {  // 16 x 16 threads, 4 floats along M each: 128-bit vectors
  static constexpr TiledCopy kCopy = make_tiled_copy_tv(
      atom::universal_copy(128, 32), parse_layout("(16,16):(1,16)"), parse_layout("(4,1):(1,0)"));
};
constexpr Coord<2> kLoadTile = {{64, 64}};

// The message of the tessera::Error that f throws ("" if none).
template <class F>
std::string copy_error_of(F const& f) {
  try {
    f();
  } catch (Error const& e) {
    return e.what();
  }
  return "";
}

void load(float const* a, int64_t lda, int thread) {
  auto mA = make_tensor(a, make_shape(64, 64), make_stride(unit, lda));
  const ThrCopy<Load128> thr{thread};
  auto tAgA = thr.partition_S(local_tile<kLoadTile, Proj{1, 1}>(mA, 0, 0));
  auto frag = make_fragment_like<float>(tAgA);
  copy(thr, tAgA, frag);
}

TEST(CopyDebug, AnAtomsVectorOffItsAlignmentIsTheRule) {
  alignas(16) static float a[66 * 64] = {};
  EXPECT_EQ(copy_error_of([&] { load(a, 64, 17); }), "");
  EXPECT_NE(copy_error_of([&] { load(a, 66, 17); }).find("rule::vector_is_misaligned"),
            std::string::npos);
  EXPECT_NE(copy_error_of([&] { load(a + 1, 64, 0); }).find("rule::vector_is_misaligned"),
            std::string::npos);
}

TEST(CopyDebug, AThreadOutsideTheTiledCopyIsTheRule) {
  alignas(16) static float a[64 * 64] = {};
  EXPECT_EQ(copy_error_of([&] { load(a, 64, 255); }), "");
  EXPECT_NE(
      copy_error_of([&] { load(a, 64, 256); }).find("rule::thread_outside_the_tiled_operation"),
      std::string::npos);
}

TEST(CopyDebug, TheAutomaticCopyFallsBackToSingleValues) {
  // copy(src, dst) tests the alignment itself: an odd leading dimension is no error.
  std::vector<float> a(size_t(65 * 64));
  for (size_t i = 0; i < a.size(); ++i) a[i] = float(i);
  auto mA = make_tensor(a.data(), make_shape(64, 64), make_stride(unit, 65));
  const ThrCopy<Load128> thr{3};
  auto tAgA = thr.partition_S(local_tile<kLoadTile, Proj{1, 1}>(mA, 0, 0));
  auto frag = make_fragment_like<float>(tAgA);
  EXPECT_EQ(copy_error_of([&] { copy(tAgA, frag); }), "");
  for (int i = 0; i < frag.size(); ++i) EXPECT_EQ(frag(i), tAgA(i));
}

}  // namespace
