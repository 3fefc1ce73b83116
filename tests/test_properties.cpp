// Property tests: the layout algebra against brute force on thousands of random layouts.
//
// Reproducing a failure: `TESSERA_SEED=<n> tessera_unit_tests --gtest_filter=Properties.<Name>`
// (brute_force.hpp); the assertion message prints the operands in notation.
//
// Not vacuous: each test counts the cases that exercised its property (the operation was defined
// and the check ran), prints the counts and asserts a minimum.
//
// "Brute force" is an evaluator written here, independent of Layout::operator(): a layout is its
// leaves s_k:d_k in order, and the integer index i maps colexicographically to
//   L(i) = sum_k ((i / (s_0 ... s_{k-1})) mod s_k) * d_k,   the last leaf taking the quotient.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <optional>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include <tessera.hpp>

#include "brute_force.hpp"

using namespace tessera;

namespace properties_test {

using namespace tessera::testing;

void report(const char* property, std::vector<std::pair<const char*, int64_t>> const& counts) {
  std::printf("[  counts  ] %s:", property);
  for (auto const& [name, n] : counts) std::printf(" %s=%lld", name, (long long)n);
  std::printf("\n");
}

// A at any offset x >= 0: A itself on [0, size), and past it the extension of A's last leaf (the
// last leaf takes the quotient). That extension is what composition uses when B reaches beyond
// size(A), as CuTe's C++ does (it coalesces A keeping a trailing size-1 leaf's stride): e.g.
// A = (4,1):(1,0) gives A(5) = 1, and (1):(1) gives A(3) = 3. (pycute extends coalesce(A)
// instead, which gives 5 and 0 there.)
struct Extended {
  Ref a;
  explicit Extended(Layout const& l) : a(l) {}
  int64_t operator()(int64_t x) const { return a(x); }
};

// "" when got(i) == want(i) for every i < n, else the first difference.
template <class F, class G>
std::string mismatch(int64_t n, F const& got, G const& want) {
  for (int64_t i = 0; i < n; ++i) {
    int64_t g = got(i), w = want(i);
    if (g != w)
      return "at i=" + std::to_string(i) + ": got " + std::to_string(g) + ", want " +
             std::to_string(w);
  }
  return "";
}

// The modes complement sees: leaves with s != 1 and d != 0, as (d, s) sorted by stride.
std::vector<std::pair<int64_t, int64_t>> sorted_modes(Layout const& l) {
  Ref f(l);
  std::vector<std::pair<int64_t, int64_t>> m;
  for (size_t k = 0; k < f.s.size(); ++k)
    if (f.s[k] != 1 && f.d[k] != 0) m.push_back({f.d[k], f.s[k]});
  std::sort(m.begin(), m.end());
  return m;
}

// Complement's divisibility (tiling) condition: sorted by stride, each d_k is a multiple of the
// extent s_{k-1} d_{k-1} of the modes before it. Returns the final extent s_n d_n (1 for no modes),
// or 0 when the condition fails. A layout meeting it is injective on its non-zero-stride modes.
int64_t chain_extent(Layout const& l) {
  int64_t covered = 1;
  for (auto [d, s] : sorted_modes(l)) {
    if (d % covered != 0) return 0;
    covered = s * d;
  }
  return covered;
}

bool injective(Layout const& l) { return Ref(l).distinct_image().size() == size_t(size(l)); }
// Injective and tiling: what complement and left_inverse are defined for in full.
bool complementable(Layout const& l) { return chain_extent(l) > 0 && injective(l); }
// Injective once the stride-0 modes are ignored (the modes complement looks at).
bool filtered_injective(Layout const& l) {
  int64_t n = 1;
  for (auto [d, s] : sorted_modes(l)) n *= s;
  return Ref(l).distinct_image().size() == size_t(n);
}

template <class F>
std::optional<Layout> attempt(F const& f) {
  try {
    return f();
  } catch (Error const&) {
    return std::nullopt;
  }
}

template <class F>
std::string message_of(F const& f) {
  try {
    f();
  } catch (Error const& e) {
    return e.what();
  }
  return "(no error)";
}

std::string str(Layout const& l) { return to_string(l); }

// ---------------------------------------------------------------------------------------------
// Random layouts.
enum class Kind {
  kRandom,   // strides uniform in 0..64 (15% zero)
  kCompact,  // column-major strides: a bijection onto [0, size)
  kStrided,  // permuted compact with occasional gaps: injective and complementable
};

struct Opts {
  int max_leaves = 6;
  int64_t max_size = 4096;
  bool pow2 = false;  // extents, random strides and gaps are powers of two
};

// A shape skeleton with k leaves (all 0) for a node nested `level` tuples deep; a node may be a
// tuple only while level <= 2, so depth(shape) <= 3. One-element tuples such as (4) occur.
IntTuple skeleton(Rng& r, int k, int level) {
  if (k == 1 && (level > 2 || r.coin(0.8))) return IntTuple(int64_t(0));
  TupleBuilder b;
  while (k > 0) {
    int part = level <= 1 ? int(r.uni(1, k)) : 1;
    b.add(skeleton(r, part, level + 1));
    k -= part;
  }
  return b.get();
}

std::vector<int> leaf_nodes(IntTuple const& t) {
  std::vector<int> leaf;
  for (int i = 0; i < t.n; ++i)
    if (!t.tup[i]) leaf.push_back(i);
  return leaf;
}

Layout random_layout(Rng& r, Kind kind, Opts const& o = {}) {
  IntTuple shape = skeleton(r, int(r.uni(1, o.max_leaves)), 0);
  std::vector<int> leaf = leaf_nodes(shape);
  for (int i : leaf) shape.v[i] = o.pow2 ? int64_t(1) << r.uni(0, 3) : r.uni(1, 8);
  // A log-uniform size budget: mostly small layouts (cheap to enumerate), some up to max_size.
  int64_t budget = std::min(o.max_size, int64_t(1) << r.uni(2, 12));
  while (product(shape) > budget) {  // halving keeps powers of two
    int i = leaf[r.uni(0, int64_t(leaf.size()) - 1)];
    shape.v[i] = std::max<int64_t>(1, shape.v[i] / 2);
  }
  IntTuple stride = shape;
  switch (kind) {
    case Kind::kRandom:
      for (int i : leaf)
        stride.v[i] = r.coin(0.15) ? 0 : o.pow2 ? int64_t(1) << r.uni(0, 6) : r.uni(1, 64);
      break;
    case Kind::kCompact:
      stride = prefix_product(shape);
      break;
    case Kind::kStrided: {
      auto gap = [&] { return r.coin(0.75) ? 1 : o.pow2 ? 2 : r.uni(2, 3); };
      std::vector<int> order = leaf;
      for (int64_t k = int64_t(order.size()); k > 1; --k)
        std::swap(order[k - 1], order[r.uni(0, k - 1)]);
      int64_t next = gap();
      for (int i : order) stride.v[i] = next, next *= shape.v[i] * gap();
      break;
    }
  }
  return Layout(shape, stride);
}

Layout random_layout(Rng& r, Opts const& o = {}) {
  int64_t k = r.uni(0, 9);
  return random_layout(r, k < 4 ? Kind::kRandom : k < 6 ? Kind::kCompact : Kind::kStrided, o);
}

// A layout with a random skeleton whose leaves are the given modes, in order.
Layout with_leaves(Rng& r, std::vector<std::pair<int64_t, int64_t>> const& modes) {
  IntTuple shape = skeleton(r, int(modes.size()), 0);
  IntTuple stride = shape;
  std::vector<int> leaf = leaf_nodes(shape);
  for (size_t k = 0; k < leaf.size(); ++k)
    shape.v[leaf[k]] = modes[k].first, stride.v[leaf[k]] = modes[k].second;
  return Layout(shape, stride);
}

std::vector<int64_t> divisors(int64_t n) {
  Vec r;
  for (int64_t k = 1; k <= n; ++k)
    if (n % k == 0) r.push_back(k);
  return r;
}

// A mode s:d that composition with A must accept: CuTe's stride and shape divisibility conditions
// hold by construction. With coalesce_x(A) = (a_0,..,a_{n-1}):(..),
//   d = a_0 ... a_{j-1} * e   with e | a_j      (the stride skips whole modes, then divides one)
//   s <= q, or s = q * a_{j+1} ... a_{m-1} * f with 1 <= f <= a_m,   where q = a_j / e
// (the elements taken from each mode divide what is left of s), and the last mode of coalesce(A)
// takes any extent. A stride 0 is always defined.
std::pair<int64_t, int64_t> fitted_mode(Rng& r, Vec const& a) {
  int n = int(a.size());
  if (r.coin(0.05)) return {r.uni(1, 8), 0};
  int j = int(r.uni(0, n - 1));
  int64_t d = 1;
  for (int k = 0; k < j; ++k) d *= a[k];
  Vec div = divisors(a[j]);
  int64_t e = div[r.uni(0, int64_t(div.size()) - 1)];
  int64_t q = a[j] / e, s = 0;
  if (j == n - 1) {
    s = r.uni(1, 16);
  } else if (r.coin(0.4)) {
    s = r.uni(1, q);
  } else {
    s = q;
    int m = j + 1;
    while (m < n - 1 && s * a[m] <= 256 && r.coin(0.5)) s *= a[m++];
    s *= r.uni(1, m == n - 1 ? 8 : a[m]);
  }
  return {s, d * e};
}

// ---------------------------------------------------------------------------------------------
// Notation helpers.

// Inserts blanks at random token boundaries: anywhere except inside a number (digits and its
// minus sign) and inside "Sw<".
std::string spaced(Rng& r, std::string const& s) {
  auto digit = [](char c) { return c >= '0' && c <= '9'; };
  std::string out = r.coin(0.3) ? " " : "";
  for (size_t i = 0; i < s.size(); ++i) {
    out += s[i];
    if (i + 1 == s.size()) break;
    char a = s[i], b = s[i + 1];
    bool one_token = ((digit(a) || a == '-') && digit(b)) || (a == 'S' && b == 'w') ||
                     (a == 'w' && b == '<');
    if (!one_token && r.coin(0.3)) out += r.coin(0.8) ? " " : " \t";
  }
  if (r.coin(0.3)) out += ' ';
  return out;
}

// A by-mode tiler in the parser's tuple form "(l0,_,l2)". print(Tiler) writes the oracle's list
// form "[l0,_,l2]" instead, which parse_tiler does not read (see TilerPrintIsNotParsed).
std::string tiler_text(Tiler const& t) {
  if (!t.by_mode) return str(t.mode[0]);
  std::string s = "(";
  for (int i = 0; i < t.n; ++i) {
    if (i) s += ',';
    s += t.keep[i] ? std::string("_") : str(t.mode[i]);
  }
  return s + ")";
}

bool same_tiler(Tiler const& a, Tiler const& b) {
  if (a.by_mode != b.by_mode || a.n != b.n) return false;
  for (int i = 0; i < a.n; ++i)
    if (a.keep[i] != b.keep[i] || (!a.keep[i] && !(a.mode[i] == b.mode[i]))) return false;
  return true;
}

constexpr int kCases = 2000;
constexpr int64_t kMinCases = 1000;  // non-rejected, non-trivial cases each property must see

// =============================================================================================
// coalesce: the same function on [0, size) and the same size; fully merged (flat, no size-1
// mode, no neighbours with d_{k+1} = s_k d_k). By mode: each mode coalesced alone, rank kept.
TEST(Properties, Coalesce) {
  Rng r("Coalesce");
  int64_t whole = 0, by_mode = 0;
  for (int c = 0; c < kCases; ++c) {
    Layout L = random_layout(r);
    Ref f(L);
    Layout C = coalesce(L);
    Ref g(C);
    ASSERT_EQ(size(C), size(L)) << "coalesce(" << str(L) << ") = " << str(C);
    ASSERT_EQ(mismatch(size(L), g, f), "") << "coalesce(" << str(L) << ") = " << str(C);
    ASSERT_LE(depth(C), 1) << str(C);
    if (g.s.size() == 1 && g.s[0] == 1) {
      ASSERT_EQ(C, Layout()) << "a size-1 layout coalesces to 1:0, got " << str(C);
    } else {
      for (size_t k = 0; k < g.s.size(); ++k) {
        ASSERT_NE(g.s[k], 1) << "size-1 mode left in " << str(C) << " from " << str(L);
        if (k + 1 < g.s.size()) {
          ASSERT_NE(g.d[k + 1], g.s[k] * g.d[k]) << "mergeable modes left in " << str(C);
        }
      }
    }
    ++whole;

    if (!L.shape.is_tuple()) continue;
    TupleBuilder profile;  // (1,..,1) over the first p modes
    for (int64_t p = r.uni(1, L.rank()); p > 0; --p) profile.add(IntTuple(1));
    Layout B = coalesce(L, profile.get());
    ASSERT_EQ(rank(B), rank(L)) << "coalesce(" << str(L) << ", " << to_string(profile.get()) << ")";
    ASSERT_EQ(size(B), size(L));
    ASSERT_EQ(mismatch(size(L), Ref(B), f), "")
        << "coalesce(" << str(L) << ", profile) = " << str(B);
    for (int i = 0; i < rank(L); ++i) {
      ASSERT_EQ(size(B[i]), size(L[i]));
      ASSERT_EQ(mismatch(size(L[i]), Ref(B[i]), Ref(L[i])), "") << "mode " << i << " of " << str(B);
      if (i < profile.size()) {
        ASSERT_LE(depth(B[i]), 1) << "mode " << i << " of " << str(B);
      } else {
        ASSERT_EQ(B[i], L[i]) << "mode " << i << " beyond the profile must be kept";
      }
    }
    ++by_mode;
  }
  report("Coalesce", {{"coalesce", whole}, {"by_mode", by_mode}});
  EXPECT_GE(whole, kMinCases);
  EXPECT_GE(by_mode, kMinCases);
}

// filter: let L' be L's leaves with d != 0 and s != 1, in order. filter(L) is the same function as
// L' (size included), so it enumerates the same set of offsets as L, and has no stride-0 mode.
TEST(Properties, Filter) {
  Rng r("Filter");
  int64_t cases = 0, all_dropped = 0;
  for (int c = 0; c < kCases; ++c) {
    Layout L = random_layout(r);
    Layout F = filter(L);
    Ref f(L);
    std::vector<std::pair<int64_t, int64_t>> kept;
    for (size_t k = 0; k < f.s.size(); ++k)
      if (f.s[k] != 1 && f.d[k] != 0) kept.push_back({f.s[k], f.d[k]});
    if (kept.empty()) {
      ASSERT_EQ(F, Layout()) << "filter(" << str(L) << ") = " << str(F);
      ++all_dropped;
      continue;
    }
    Ref want;
    for (auto [s, d] : kept) want.s.push_back(s), want.d.push_back(d);
    ASSERT_EQ(size(F), want.size()) << "filter(" << str(L) << ") = " << str(F);
    ASSERT_EQ(mismatch(size(F), Ref(F), want), "") << "filter(" << str(L) << ") = " << str(F);
    ASSERT_EQ(Ref(F).distinct_image(), f.distinct_image()) << "filter(" << str(L) << ")";
    for (int64_t d : Ref(F).d) ASSERT_NE(d, 0) << "filter(" << str(L) << ") = " << str(F);
    ++cases;
  }
  report("Filter", {{"filtered", cases}, {"all_modes_dropped", all_dropped}});
  EXPECT_GE(cases, kMinCases);
}

// composition. CuTe composes a tuple B mode by mode (right-distributivity: A o (B_0, B_1) =
// (A o B_0, A o B_1)) down to B's leaves b_j = s_j:d_j, so with (c_j) the colexicographic
// coordinate of i in B's leaves, R = A o B is the function
//   R(i) = sum_j A(c_j d_j)          (A extended past its size, see Extended).
// That is A(B(i)) when B has a single leaf, but not in general: when B's modes carry across a mode
// boundary of A the sum differs (see CompositionDistributesOverModes). Whenever R is defined:
// size(R) = size(B), R has B's rank when B is a tuple, and R is that function.
int64_t distributed(Extended const& a, Ref const& b, int64_t i) {
  int64_t r = 0;
  for (size_t j = 0; j < b.s.size(); ++j) {
    int64_t c = j + 1 < b.s.size() ? i % b.s[j] : i;  // the last leaf takes the quotient
    r += a(c * b.d[j]);
    i /= b.s[j];
  }
  return r;
}

// "" when R is what composition(A, B) must be, else the first discrepancy. Sets *whole when R is
// also A o B as a function of the whole index, R(i) = A(B(i)).
std::string check_composition(Layout const& A, Layout const& B, Layout const& R, bool* whole) {
  Ref b(B), fr(R);
  Extended a(A);
  if (size(R) != size(B)) return "size " + std::to_string(size(R));
  if (B.shape.is_tuple() && (!R.shape.is_tuple() || rank(R) != rank(B)))
    return "rank " + std::to_string(rank(R));
  std::string m = mismatch(size(B), fr, [&](int64_t i) { return distributed(a, b, i); });
  if (!m.empty()) return "by mode, " + m;
  *whole = mismatch(size(B), fr, [&](int64_t i) { return a(b(i)); }).empty();
  if (b.s.size() == 1 && !*whole) return "R(i) != A(B(i)) for a single-mode B";
  return "";
}

Layout fitted_operand(Rng& r, Layout const& A) {
  // The modes composition walks: coalesce(A) keeping a trailing extent-1 leaf (CuTe's coalesce_x).
  Modes cx = detail::coalesce_x(A);
  Vec a(cx.s, cx.s + cx.n);
  std::vector<std::pair<int64_t, int64_t>> modes;
  int64_t n = 1;
  for (int64_t k = r.uni(1, 3); k > 0; --k) {
    auto m = fitted_mode(r, a);
    if (modes.empty() || n * m.first <= 4096) modes.push_back(m), n *= m.first;
  }
  return with_leaves(r, modes);
}

// Random A and B; B is half random, half fitted to A (see fitted_mode) so most cases are defined.
TEST(Properties, Composition) {
  Rng r("Composition");
  int64_t defined = 0, rejected = 0, beyond = 0, tuple_b = 0, single = 0, not_whole = 0;
  for (int c = 0; c < 2 * kCases; ++c) {
    Layout A = random_layout(r);
    Layout B = r.coin() ? random_layout(r, {.max_leaves = 4}) : fitted_operand(r, A);
    std::optional<Layout> R = attempt([&] { return composition(A, B); });
    if (!R) {
      ++rejected;
      continue;
    }
    bool whole = false;
    ASSERT_EQ(check_composition(A, B, *R, &whole), "")
        << "composition(" << str(A) << ", " << str(B) << ") = " << str(*R);
    Vec img_b = Ref(B).image();
    beyond += *std::max_element(img_b.begin(), img_b.end()) >= size(A);
    tuple_b += B.shape.is_tuple();
    single += Ref(B).s.size() == 1;
    not_whole += !whole;
    ++defined;
  }
  report("Composition", {{"defined", defined}, {"rejected", rejected}, {"tuple_B", tuple_b},
                         {"single_leaf_B", single}, {"B_reaches_past_size_A", beyond},
                         {"by_mode_but_not_A_of_B", not_whole}});
  EXPECT_GE(defined, kMinCases);
  EXPECT_GE(tuple_b, kMinCases / 2);
  EXPECT_GE(single, kMinCases / 2);
}

// The converse: families where CuTe's conditions guarantee that A o B is defined; it must not be
// rejected.
//   fitted: B's leaves from fitted_mode(coalesce(A)), A arbitrary;
//   pow2:   all extents and strides powers of two (or stride 0): of two powers of two one divides
//           the other, so both the stride and the shape divisibility conditions always hold.
TEST(Properties, CompositionDefinedFamilies) {
  Rng r("CompositionDefinedFamilies");
  int64_t fitted = 0, pow2 = 0;
  for (int c = 0; c < 2 * kCases; ++c) {
    bool use_pow2 = c % 2;
    Layout A = random_layout(r, {.pow2 = use_pow2});
    Layout B = !use_pow2 ? fitted_operand(r, A) : [&] {
      int64_t k = r.uni(0, 2);
      return random_layout(r, k == 0 ? Kind::kRandom : k == 1 ? Kind::kCompact : Kind::kStrided,
                           {.max_leaves = 4, .pow2 = true});
    }();
    std::string ctx = "composition(" + str(A) + ", " + str(B) + ")";
    Layout R;
    ASSERT_NO_THROW(R = composition(A, B)) << ctx << ": " << message_of([&] { composition(A, B); });
    bool whole = false;
    ASSERT_EQ(check_composition(A, B, R, &whole), "") << ctx << " = " << str(R);
    ++(use_pow2 ? pow2 : fitted);
  }
  report("CompositionDefinedFamilies", {{"fitted", fitted}, {"pow2", pow2}});
  EXPECT_GE(fitted, kMinCases);
  EXPECT_GE(pow2, kMinCases);
}

// CuTe's C++ stride condition lets B's stride r be smaller than A's first mode s without dividing
// it: the mode then holds m = ceil(s/r) of B's elements. If B ends there (n <= m) the composition
// is defined and R(i) = A(r i); if B goes on (n a multiple of m, n > m), stepping into A's next
// mode as if r divided s would be wrong, so it is rejected (docs/differences.md).
TEST(Properties, CompositionStrideInsideMode) {
  Rng r("CompositionStrideInsideMode");
  int64_t inside = 0, past = 0;
  for (int c = 0; c < kCases; ++c) {
    int64_t s = r.uni(3, 12), step = r.uni(2, s - 1);
    if (s % step == 0) continue;
    int64_t m = ceil_div(s, step), d0 = r.uni(1, 9), s1 = r.uni(2, 6);
    // A = (s, s1):(d0, d1) with d1 != s*d0, so coalesce keeps the two modes apart.
    int64_t d1 = s * d0 + r.uni(1, 5);
    Layout A = Layout(make_tuple(s, s1), make_tuple(d0, d1));
    Ref a(A);
    int64_t n = r.coin() ? r.uni(1, m) : m * r.uni(2, 3);
    Layout B{IntTuple(n), IntTuple(step)};
    std::string ctx = "composition(" + str(A) + ", " + str(B) + ")";
    std::optional<Layout> R = attempt([&] { return composition(A, B); });
    if (n <= m) {
      ASSERT_TRUE(R) << ctx << ": " << message_of([&] { composition(A, B); });
      Ref g(*R);
      ASSERT_EQ(g.size(), n) << ctx;
      ASSERT_EQ(mismatch(n, g, [&](int64_t i) { return a(step * i); }), "")
          << ctx << " = " << str(*R);
      ++inside;
    } else {
      ASSERT_FALSE(R) << ctx << " = " << str(*R);
      EXPECT_NE(message_of([&] { composition(A, B); }).find("B must end inside that mode"),
                std::string::npos);
      ++past;
    }
  }
  report("CompositionStrideInsideMode", {{"inside", inside}, {"past", past}});
  EXPECT_GE(inside, kMinCases / 2);
  EXPECT_GE(past, kMinCases / 2);
}

// The smallest kind of case where by-mode composition is not A o B on whole indices: B's modes
// 2:3 and 3:2 each compose with A = (6,2):(1,100) inside its first mode, but B(5) = 3 + 4 = 7
// crosses into A's second mode. CuTe (pycute and C++) returns (2,3):(3,2) all the same.
TEST(Properties, CompositionDistributesOverModes) {
  Layout A = parse_layout("(6,2):(1,100)"), B = parse_layout("(2,3):(3,2)");
  Layout R = composition(A, B);
  EXPECT_EQ(str(R), "(2,3):(3,2)");
  EXPECT_EQ(R(5), 7);
  EXPECT_EQ(A(B(5)), 101);
}

// complement(A, M), C its result, img(A) A's set of offsets:
//   always (when defined): C is ordered, C(i-1) < C(i); C(i) is not in img(A) for i > 0; and the
//     sums a + c (a in img(A), c in img(C)) are distinct, i.e. (A, C) is injective up to A's
//     stride-0 modes.
//   A complementable (chain condition, see chain_extent, with final extent E): defined, and the
//     sums cover [0, M') exactly once for M' = |img(A)| * size(C) = round_up(M, E); M' = M iff E |
//     M.
//   A non-injective on its non-zero-stride modes: rejected as "not injective".
TEST(Properties, Complement) {
  Rng r("Complement");
  int64_t defined = 0, tilings = 0, exact = 0, non_injective = 0, other_rejected = 0, big = 0;
  for (int c = 0; c < kCases; ++c) {
    Layout A = random_layout(r);
    int64_t extent = 1;  // the largest s*d, what the cotarget is measured against
    for (auto [d, s] : sorted_modes(A)) extent = std::max(extent, s * d);
    int64_t k = r.uni(0, 2);
    int64_t M = k == 0 ? 1 : k == 1 ? extent * r.uni(1, 3) : r.uni(1, 2 * extent + 8);
    std::string ctx = "complement(" + str(A) + ", " + std::to_string(M) + ")";
    std::optional<Layout> C = attempt([&] { return complement(A, M); });
    if (!filtered_injective(A)) {
      ASSERT_FALSE(C) << ctx << " = " << (C ? str(*C) : "");
      EXPECT_NE(message_of([&] { complement(A, M); }).find("not injective"), std::string::npos);
      ++non_injective;
      continue;
    }
    int64_t E = chain_extent(A);
    if (E > 0) {
      ASSERT_TRUE(C) << ctx << ": " << message_of([&] { complement(A, M); });
    }
    if (!C) {
      ++other_rejected;  // injective, but a mode starts inside the extent of smaller ones
      continue;
    }
    ctx += " = " + str(*C);
    Ref fc(*C);
    Vec img_a = Ref(A).distinct_image(), img_c = fc.image();
    for (size_t i = 1; i < img_c.size(); ++i) {
      ASSERT_LT(img_c[i - 1], img_c[i]) << ctx << " is not ordered at " << i;
      ASSERT_FALSE(std::binary_search(img_a.begin(), img_a.end(), img_c[i]))
          << ctx << " meets A at offset " << img_c[i];
    }
    int64_t cells = int64_t(img_a.size()) * int64_t(img_c.size());
    if (cells > (int64_t(1) << 19)) {
      ++big;
      continue;
    }
    Vec sums;
    sums.reserve(size_t(cells));
    for (int64_t x : img_a)
      for (int64_t y : img_c) sums.push_back(x + y);
    std::sort(sums.begin(), sums.end());
    ASSERT_EQ(std::adjacent_find(sums.begin(), sums.end()), sums.end()) << ctx << ": A + C overlap";
    if (E > 0) {
      int64_t want = (M + E - 1) / E * E;
      ASSERT_EQ(cells, want) << ctx;
      ASSERT_EQ(sums.back(), cells - 1) << ctx << ": A + C do not tile [0," << cells << ")";
      exact += cells == M;
      ++tilings;
    }
    ++defined;
  }
  report("Complement", {{"defined", defined}, {"tilings", tilings}, {"tilings_of_exactly_M", exact},
                        {"non_injective_rejected", non_injective},
                        {"injective_rejected", other_rejected}, {"too_big_to_enumerate", big}});
  EXPECT_GE(defined, kMinCases);
  EXPECT_GE(tilings, kMinCases);
  EXPECT_GE(non_injective, 100);
}

// Inverses. right_inverse: L(R(i)) = i for i < size(R), for every L; when L is a bijection onto
// [0, size) R is its full inverse (size(R) = size(L), R(L(i)) = i).
// left_inverse (CuTe's C++): defined when the non-zero strides of coalesce(L), in increasing order,
// are each a multiple of the one before (the left-inverse divisibility condition); then
// L(Linv(L(i))) = L(i) for i < size(L), and Linv(L(i)) = i when L is injective. (Where L's modes
// overlap, C++'s construction can break the first property; tessera rejects those cases.)
bool left_divisible(Layout const& l) {
  Ref c(coalesce(l));
  Vec d;
  for (int64_t x : c.d)
    if (x != 0) d.push_back(x);
  std::sort(d.begin(), d.end());
  for (size_t k = 1; k < d.size(); ++k)
    if (d[k] % d[k - 1] != 0) return false;
  return true;
}
TEST(Properties, Inverses) {
  Rng r("Inverses");
  int64_t right = 0, right_nontrivial = 0, bijections = 0, left = 0, left_quasi = 0,
          left_rejected = 0;
  for (int c = 0; c < kCases; ++c) {
    Layout L = random_layout(r);
    Ref f(L);
    Layout R = right_inverse(L);
    Ref g(R);
    std::string ctx = "right_inverse(" + str(L) + ") = " + str(R);
    ASSERT_EQ(mismatch(
                  size(R), [&](int64_t i) { return f(g(i)); }, [](int64_t i) { return i; }),
              "")
        << ctx;
    ++right;
    right_nontrivial += size(R) > 1;
    Vec img = f.image();
    std::sort(img.begin(), img.end());
    bool bijection =
        img.back() == size(L) - 1 && std::adjacent_find(img.begin(), img.end()) == img.end();
    if (bijection) {
      ASSERT_EQ(size(R), size(L)) << ctx;
      ASSERT_EQ(mismatch(
                    size(L), [&](int64_t i) { return g(f(i)); }, [](int64_t i) { return i; }),
                "")
          << ctx;
      ++bijections;
    }

    std::optional<Layout> Linv = attempt([&] { return left_inverse(L); });
    std::string why = message_of([&] { left_inverse(L); });
    if (!left_divisible(L)) {
      ASSERT_FALSE(Linv) << "left_inverse(" << str(L) << ") = " << str(*Linv);
    } else if (!Linv) {
      // Divisible: defined, unless overlapping modes break the quasi-inverse (checked just below
      // on what is returned), which must then be the reason given.
      ASSERT_NE(why.find("no quasi-inverse"), std::string::npos) << str(L) << ": " << why;
    }
    if (!Linv) {
      ++left_rejected;
      continue;
    }
    Ref h(*Linv);
    ctx = "left_inverse(" + str(L) + ") = " + str(*Linv);
    ASSERT_EQ(mismatch(
                  size(L), [&](int64_t i) { return f(h(f(i))); }, [&](int64_t i) { return f(i); }),
              "")
        << ctx;
    if (injective(L)) {
      ASSERT_EQ(mismatch(
                    size(L), [&](int64_t i) { return h(f(i)); }, [](int64_t i) { return i; }),
                "")
          << ctx;
      ++left;
    } else {
      ++left_quasi;
    }
  }
  report("Inverses", {{"right", right}, {"right_nontrivial", right_nontrivial},
                      {"bijections", bijections}, {"left_injective", left},
                      {"left_quasi_inverse", left_quasi}, {"left_rejected", left_rejected}});
  EXPECT_GE(right, kMinCases);
  EXPECT_GE(right_nontrivial, kMinCases / 2);
  EXPECT_GE(bijections, kMinCases / 2);
  EXPECT_GE(left, kMinCases);
}

// logical_divide(A, B) = A o (B, B*) with B* = complement(B, shape of coalesce(A)), as functions: D
// has rank 2, size(B) * size(B*) elements and D(i + size(B) j) = A(B(i) + B*(j)). When B tiles
// size(A) (complementable with its extent E dividing size(A)), (B, B*) permutes [0, size(A)), so D
// has A's size and A's offsets with the same multiplicities. Powers of two must always be defined.
TEST(Properties, LogicalDivide) {
  Rng r("LogicalDivide");
  int64_t defined = 0, rejected = 0, tilers = 0, pow2 = 0, big = 0, not_whole = 0;
  for (int c = 0; c < 2 * kCases; ++c) {
    bool use_pow2 = c % 2;
    Layout A = random_layout(r, {.pow2 = use_pow2});
    Layout B =
        use_pow2 ? random_layout(r, Kind::kStrided, {.max_leaves = 3, .max_size = 64, .pow2 = true})
                 : random_layout(r, {.max_leaves = 3, .max_size = 64});
    std::string ctx = "logical_divide(" + str(A) + ", " + str(B) + ")";
    std::optional<Layout> D = attempt([&] { return logical_divide(A, B); });
    bool must = use_pow2 && chain_extent(B) <= size(A);
    if (must) {
      ASSERT_TRUE(D) << ctx << ": " << message_of([&] { logical_divide(A, B); });
    }
    if (!D) {
      ++rejected;
      continue;
    }
    ctx += " = " + str(*D);
    Layout C = complement(B, coalesce(A).shape);  // C++'s cotarget: the shape of coalesce(A)
    Ref b(B), fc(C), fd(*D);
    Extended a(A);
    ASSERT_TRUE(D->shape.is_tuple() && rank(*D) == 2) << ctx;
    ASSERT_EQ(size(*D), size(B) * size(C)) << ctx;
    if (size(*D) > (int64_t(1) << 16)) {
      ++big;
      continue;
    }
    // D is the composition A o (B, B*): by mode over the leaves of (B, B*) (see distributed), which
    // is A(B(i) + B*(j)) whenever no mode of (B, B*) crosses a mode boundary of A (C++'s stride
    // condition admits some that do, e.g. B* = 2:14 over A = 15:1 extended by stride 3).
    Ref bc(make_layout(B, C));
    ASSERT_EQ(mismatch(size(*D), fd, [&](int64_t k) { return distributed(a, bc, k); }), "")
        << ctx << " with complement " << str(C);
    bool whole = mismatch(size(*D), fd, [&](int64_t k) {
                   return a(b(k % size(B)) + fc(k / size(B)));
                 }).empty();
    not_whole += !whole;
    int64_t E = chain_extent(B);
    if (whole && complementable(B) && size(A) % E == 0) {
      ASSERT_EQ(size(*D), size(A)) << ctx;
      Vec want = Ref(A).image(), got = fd.image();
      std::sort(want.begin(), want.end());
      std::sort(got.begin(), got.end());
      ASSERT_EQ(got, want) << ctx << " is not a rearrangement of A";
      ++tilers;
    }
    pow2 += must;
    ++defined;
  }
  report("LogicalDivide", {{"defined", defined}, {"rejected", rejected}, {"tiling_B", tilers},
                           {"pow2_must_be_defined", pow2}, {"too_big_to_enumerate", big},
                           {"by_mode_but_not_whole", not_whole}});
  EXPECT_GE(defined, kMinCases);
  EXPECT_GE(tilers, kMinCases);
  EXPECT_GE(pow2, kMinCases / 2);
}

// Zipped, tiled and flat divides and products are logical_* with the modes regrouped. With a
// by-mode tiler of n entries on A of rank r, logical_* gives mode i = (T_i, R_i) (just A_i for `_`
// or i >= n), and at tile coordinates x_i and rest coordinates y_i
//   logical(((x_0,y_0),..,y_r)) = zipped(((x_0..x_n),(y_0..y_r))) = tiled(((x_0..),y_0,..,y_r))
//     = flat((x_0,..,x_n,y_0,..,y_r)) = sum_i T_i(x_i) + R_i(y_i).
TEST(Properties, ZippedTiledFlat) {
  Rng r("ZippedTiledFlat");
  int64_t checked[2] = {0, 0}, rejected = 0;
  for (int c = 0; c < kCases; ++c) {
    bool pow2 = r.coin();
    LayoutBuilder ab;
    for (int64_t k = r.uni(2, 4); k > 0; --k)
      ab.add(random_layout(r, {.max_leaves = 2, .max_size = 32, .pow2 = pow2}));
    Layout A = ab.get();
    Tiler T;
    T.by_mode = true, T.n = 0;
    for (int64_t n = r.uni(1, std::min(A.rank(), 3)); n > 0; --n) {
      if (r.coin(0.2)) T.add(_);
      else T.add(random_layout(r, {.max_leaves = 2, .max_size = 8, .pow2 = pow2}));
    }
    for (int op = 0; op < 2; ++op) {  // 0: divide, 1: product
      std::string ctx =
          std::string(op ? "product" : "divide") + " of " + str(A) + " by " + tiler_text(T);
      std::optional<Layout> Lg =
          attempt([&] { return op ? logical_product(A, T) : logical_divide(A, T); });
      if (!Lg) {
        ++rejected;
        continue;
      }
      Layout Z, Ti, F;
      ASSERT_NO_THROW(Z = op ? zipped_product(A, T) : zipped_divide(A, T)) << ctx;
      ASSERT_NO_THROW(Ti = op ? tiled_product(A, T) : tiled_divide(A, T)) << ctx;
      ASSERT_NO_THROW(F = op ? flat_product(A, T) : flat_divide(A, T)) << ctx;
      ctx +=
          ": logical " + str(*Lg) + " zipped " + str(Z) + " tiled " + str(Ti) + " flat " + str(F);
      ASSERT_EQ(size(Z), size(*Lg)) << ctx;
      ASSERT_EQ(size(Ti), size(*Lg)) << ctx;
      ASSERT_EQ(size(F), size(*Lg)) << ctx;
      ASSERT_EQ(rank(*Lg), A.rank()) << ctx;
      int n = T.n, rk = A.rank();
      std::vector<Layout> tile(rk), rest(rk);  // T_i and R_i; a kept mode is (1:0, A_i)
      for (int i = 0; i < rk; ++i) {
        bool split = i < n && !T.keep[i];
        if (split) {
          ASSERT_EQ(rank((*Lg)[i]), 2) << ctx << " mode " << i;
        }
        tile[i] = split ? (*Lg)[i][0] : Layout();
        rest[i] = split ? (*Lg)[i][1] : A[i];
      }
      for (int sample = 0; sample < 8; ++sample) {
        Vec x(n), y(rk);
        int64_t want = 0;
        for (int i = 0; i < rk; ++i) {
          if (i < n) x[i] = r.uni(0, size(tile[i]) - 1), want += Ref(tile[i])(x[i]);
          y[i] = r.uni(0, size(rest[i]) - 1), want += Ref(rest[i])(y[i]);
        }
        TupleBuilder cl, xs, ys, ct, cf;  // logical, zipped's halves, tiled, flat
        for (int i = 0; i < rk; ++i)
          cl.add(i < n && !T.keep[i] ? make_tuple(x[i], y[i]) : IntTuple(y[i]));
        for (int i = 0; i < n; ++i) xs.add(IntTuple(x[i])), cf.add(IntTuple(x[i]));
        ct.add(xs.get());
        for (int i = 0; i < rk; ++i)
          ys.add(IntTuple(y[i])), ct.add(IntTuple(y[i])), cf.add(IntTuple(y[i]));
        std::string at = ctx + " at logical coordinate " + to_string(cl.get());
        ASSERT_EQ((*Lg)(cl.get()), want) << at;
        ASSERT_EQ(Z(make_tuple(xs.get(), ys.get())), want) << at;
        ASSERT_EQ(Ti(ct.get()), want) << at;
        ASSERT_EQ(F(cf.get()), want) << at;
      }
      ++checked[op];
    }
  }
  report("ZippedTiledFlat",
         {{"divides", checked[0]}, {"products", checked[1]}, {"rejected", rejected}});
  EXPECT_GE(checked[0], kMinCases);
  EXPECT_GE(checked[1], kMinCases);
}

// Divide and product are two sides of one coin: splitting n:1 into tiles B is building
// n:1 from copies of B, logical_divide(n:1, B) = logical_product(B, (n/size(B)):1) as functions
// when B tiles n (for B = t:1 with t | n, the same layout). In general size(A x B) = size(A)
// size(B) and mode 0 of A x B is A; A x B is injective when A is complementable and B injective.
// Powers of two with A complementable must always be defined.
TEST(Properties, DivideProductDuality) {
  Rng r("DivideProductDuality");
  int64_t exact = 0, tiles = 0, products = 0, injective_products = 0, pow2 = 0, rejected = 0;
  for (int c = 0; c < kCases; ++c) {
    int64_t t = r.uni(1, 64), k = r.uni(1, 64), n = t * k;
    Layout D = logical_divide(Layout(n, 1), Layout(t, 1)),
           P = logical_product(Layout(t, 1), Layout(k, 1));
    // The same layout; only for n = 1 do the strides of the size-1 modes differ, (1,1):(0,0) vs
    // (1,1):(1,0), as in pycute.
    std::string ctx = "n=" + std::to_string(n) + " t=" + std::to_string(t) + ": divide " + str(D) +
                      ", product " + str(P);
    if (n > 1) {
      ASSERT_EQ(D, P) << ctx;
    } else {
      ASSERT_EQ(D.shape, P.shape) << ctx;
    }
    ++exact;

    Layout B = random_layout(r, Kind::kStrided, {.max_leaves = 3, .max_size = 64});
    n = chain_extent(B) * r.uni(1, 4);
    D = logical_divide(Layout(n, 1), B);
    P = logical_product(B, Layout(n / size(B), 1));
    ctx = "n=" + std::to_string(n) + " B=" + str(B) + ": divide " + str(D) + ", product " + str(P);
    ASSERT_EQ(size(D), n) << ctx;
    ASSERT_EQ(size(P), n) << ctx;
    ASSERT_EQ(mismatch(n, Ref(P), Ref(D)), "") << ctx;
    ASSERT_EQ(P[0], B) << ctx;
    ++tiles;

    bool use_pow2 = c % 2;
    Layout X = use_pow2 ? random_layout(r, Kind::kStrided,
                                        {.max_leaves = 4, .max_size = 256, .pow2 = true})
                        : random_layout(r, {.max_leaves = 4, .max_size = 256});
    Layout Y = random_layout(r, {.max_leaves = 3, .max_size = 16, .pow2 = use_pow2});
    ctx = "logical_product(" + str(X) + ", " + str(Y) + ")";
    std::optional<Layout> XY = attempt([&] { return logical_product(X, Y); });
    if (use_pow2) {
      ASSERT_TRUE(XY) << ctx << ": " << message_of([&] { logical_product(X, Y); });
    }
    if (!XY) {
      ++rejected;
      continue;
    }
    ctx += " = " + str(*XY);
    ASSERT_TRUE(XY->shape.is_tuple() && rank(*XY) == 2) << ctx;
    ASSERT_EQ(size(*XY), size(X) * size(Y)) << ctx;
    ASSERT_EQ((*XY)[0], X) << ctx;
    // Injective when X is complementable, Y injective, and mode 1 is the complement composed with
    // Y on whole indices (C++'s stride condition also admits by-mode compositions that are not).
    Layout Cx = complement(X, size(X) * cosize(Y));
    Ref rest((*XY)[1]), cx(Cx), y(Y);
    bool whole = mismatch(size(Y), rest, [&](int64_t i) { return cx(y(i)); }).empty();
    if (complementable(X) && injective(Y) && whole) {
      ASSERT_TRUE(injective(*XY)) << ctx;
      ++injective_products;
    }
    pow2 += use_pow2;
    ++products;
  }
  report("DivideProductDuality", {{"t_divides_n", exact},
                                  {"B_tiles_n", tiles},
                                  {"products", products},
                                  {"injective_products", injective_products},
                                  {"pow2_must_be_defined", pow2},
                                  {"rejected", rejected}});
  EXPECT_GE(exact, kMinCases);
  EXPECT_GE(tiles, kMinCases);
  EXPECT_GE(products, kMinCases);
  EXPECT_GE(injective_products, kMinCases / 2);
}

// Notation: print has no spaces (except the " o " of a swizzled layout), parse(print(x)) == x, and
// parse accepts blanks at any token boundary.
TEST(Properties, ParsePrintRoundTrip) {
  Rng r("ParsePrintRoundTrip");
  int64_t layouts = 0, tuples = 0, tilers = 0, swizzled = 0;
  for (int c = 0; c < kCases; ++c) {
    Layout L = random_layout(r);
    for (int i = 0; i < L.stride.n; ++i)  // negative strides are notation too
      if (!L.stride.tup[i] && r.coin(0.1)) L.stride.v[i] = -L.stride.v[i];
    std::string s = str(L);
    ASSERT_EQ(s.find_first_of(" \t"), std::string::npos) << s;
    ASSERT_EQ(parse_layout(s), L) << s;
    std::string sp = spaced(r, s);
    ASSERT_EQ(parse_layout(sp), L) << '"' << sp << '"';
    ++layouts;

    IntTuple t = skeleton(r, int(r.uni(1, 8)), 0);
    for (int i : leaf_nodes(t)) t.v[i] = r.uni(-100, 1000);
    s = to_string(t);
    ASSERT_EQ(s.find_first_of(" \t"), std::string::npos) << s;
    ASSERT_EQ(parse_int_tuple(s), t) << s;
    sp = spaced(r, s);
    ASSERT_EQ(parse_int_tuple(sp), t) << '"' << sp << '"';
    ++tuples;

    Tiler T = r.coin(0.3) ? Tiler(random_layout(r, {.max_leaves = 3})) : [&] {
      Tiler b;
      for (int64_t n = r.uni(1, 4); n > 0; --n) {
        int64_t k = r.uni(0, 4);
        if (k == 0) b.add(_);
        else if (k == 1) b.add(Layout(IntTuple(r.uni(1, 8))));  // an integer entry n means n:1
        else b.add(random_layout(r, {.max_leaves = 3}));
      }
      return b;
    }();
    s = tiler_text(T);
    sp = spaced(r, s);
    Tiler back;
    ASSERT_NO_THROW(back = parse_tiler(sp)) << '"' << sp << '"';
    ASSERT_TRUE(same_tiler(back, T)) << '"' << sp << "\" parsed as " << to_string(back);
    if (!T.by_mode) {
      ASSERT_TRUE(same_tiler(parse_tiler(to_string(T)), T)) << to_string(T);
    }
    ++tilers;

    int64_t bits = r.uni(0, 3), shift = r.uni(bits, 5) * (r.coin() ? 1 : -1);
    SwizzledLayout X{Swizzle(int(bits), int(r.uni(0, 4)), int(shift)), r.uni(0, 64),
                     random_layout(r)};
    s = to_string(X);
    ASSERT_EQ(parse_swizzled_layout(s), X) << s;
    sp = spaced(r, s);
    ASSERT_EQ(parse_swizzled_layout(sp), X) << '"' << sp << '"';
    ASSERT_EQ(parse_swizzle(spaced(r, to_string(X.swizzle))), X.swizzle) << to_string(X.swizzle);
    ++swizzled;
  }
  report("ParsePrintRoundTrip", {{"layouts", layouts}, {"int_tuples", tuples}, {"tilers", tilers},
                                 {"swizzled_layouts", swizzled}});
  EXPECT_GE(layouts, kMinCases);
  EXPECT_GE(tuples, kMinCases);
  EXPECT_GE(tilers, kMinCases);
  EXPECT_GE(swizzled, kMinCases);
}

// Swizzle<B,M,S>: x ^ ((x & yyy) >> S) only reads bits it does not write (|S| >= B), so it is an
// involution, hence a bijection, on [0, 2^(B+M+|S|)). Checked for every valid B, M, |S| <= 5.
TEST(Properties, SwizzleIsAnInvolution) {
  int64_t swizzles = 0, points = 0;
  for (int b = 0; b <= 4; ++b)
    for (int m = 0; m <= 4; ++m)
      for (int s = -5; s <= 5; ++s) {
        if (std::abs(s) < b) {
          EXPECT_NE(message_of([&] { (void)Swizzle(b, m, s); }).find("|S| >= B"),
                    std::string::npos);
          continue;
        }
        Swizzle sw(b, m, s);
        int64_t span = sw.span();
        ASSERT_EQ(span, int64_t(1) << (b + m + std::abs(s)));
        std::vector<char> seen(size_t(span), 0);
        for (int64_t x = 0; x < span; ++x) {
          int64_t y = sw(x);
          ASSERT_TRUE(y >= 0 && y < span) << to_string(sw) << " maps " << x << " to " << y;
          ASSERT_FALSE(seen[size_t(y)]) << to_string(sw) << " is not injective at " << x;
          seen[size_t(y)] = 1;
          ASSERT_EQ(sw(y), x) << to_string(sw) << " is not an involution at " << x;
          ASSERT_EQ(int64_t(sw.apply32(uint32_t(x) + (1u << 20))), y + (1 << 20))
              << to_string(sw) << ": the 32-bit form differs at " << x;
          ++points;
        }
        ++swizzles;
      }
  report("SwizzleIsAnInvolution", {{"swizzles", swizzles}, {"points", points}});
  EXPECT_GE(swizzles, 100);
}

// Error messages are API: the rule, and the operands in notation.
TEST(Properties, ErrorMessages) {
  std::string m = message_of([] { composition(parse_layout("(4,4):(1,5)"), parse_layout("3:6")); });
  EXPECT_NE(m.find("stride divisibility"), std::string::npos) << m;
  EXPECT_NE(m.find("(4,4):(1,5)"), std::string::npos) << m;
  EXPECT_NE(m.find("3:6"), std::string::npos) << m;

  m = message_of([] { left_inverse(parse_layout("(2,2):(2,5)")); });
  EXPECT_NE(m.find("left_inverse: divisibility"), std::string::npos) << m;
  EXPECT_NE(m.find("(2,2):(2,5)"), std::string::npos) << m;
  m = message_of([] { left_inverse(parse_layout("(2,3):(2,1)")); });
  EXPECT_NE(m.find("no quasi-inverse"), std::string::npos) << m;
  EXPECT_NE(m.find("(2,3):(2,1)"), std::string::npos) << m;
  // Overlapping modes are checked by brute force up to kMaxBruteForce indices, rejected beyond.
  m = message_of([] { left_inverse(parse_layout("(1024,512):(1,2)")); });
  EXPECT_NE(m.find("quasi-inverse check covers"), std::string::npos) << m;
  EXPECT_EQ(message_of([] { left_inverse(parse_layout("(4,2):(1,2)")); }), "(no error)");

  m = message_of([] { complement(parse_layout("(2,2):(1,1)")); });
  EXPECT_NE(m.find("not injective"), std::string::npos) << m;
  EXPECT_NE(m.find("(2,2):(1,1)"), std::string::npos) << m;

  m = message_of([] { parse_layout("(4,2:(1,64)"); });
  EXPECT_NE(m.find("position 4"), std::string::npos) << m;
  EXPECT_NE(m.find("(4,2:(1,64)"), std::string::npos) << m;

  // 2^40 x 2^40 elements: the compact strides, and the size, overflow 64 bits.
  m = message_of([] { (void)Layout(make_tuple(int64_t(1) << 40, int64_t(1) << 40)); });
  EXPECT_NE(m.find("overflow"), std::string::npos) << m;
  m = message_of([] { size(parse_layout("(1099511627776,1099511627776):(1,0)")); });
  EXPECT_NE(m.find("overflow"), std::string::npos) << m;
}

// print(Tiler) writes the tuple form "(3:3,_,(2,4):(1,8))", which parse_tiler reads back.
TEST(Properties, TilerPrintParses) {
  Tiler t = parse_tiler("(3:3,_,(2,4):(1,8))");
  EXPECT_EQ(message_of([&] { parse_tiler(to_string(t)); }), "(no error)");
  EXPECT_TRUE(same_tiler(parse_tiler(to_string(t)), t));
}

}  // namespace properties_test
