// tests/brute_force.hpp -- what the property tests share: the run seed, a reproducible random
// source per property, and a brute-force layout evaluator independent of Layout::operator().
//
// Reproducing a failure: every test draws its cases from one run seed, printed by each test as
// "[   seed   ] TESSERA_SEED=<n>" and overridable by that environment variable. Each test mixes the
// seed with its own name, so `TESSERA_SEED=<n> <test> --gtest_filter=<Suite>.<Name>` replays
// exactly the failing case.
//
// "Brute force": a layout is its leaves s_k:d_k in order, and the integer index i maps
// colexicographically to L(i) = sum_k ((i / (s_0 ... s_{k-1})) mod s_k) * d_k, the last leaf
// taking the quotient.
#pragma once

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <set>
#include <vector>

#include <tessera.hpp>

namespace tessera::testing {

using Vec = std::vector<int64_t>;

inline uint64_t run_seed() {
  static const uint64_t seed = [] {
    const char* env = std::getenv("TESSERA_SEED");
    return env && *env ? std::strtoull(env, nullptr, 0) : uint64_t(20250611);
  }();
  return seed;
}

class Rng {
 public:
  explicit Rng(const char* property) {
    uint64_t h = 1469598103934665603ull ^ run_seed();  // FNV-1a of the name, keyed by the seed
    for (const char* p = property; *p; ++p) h = (h ^ uint8_t(*p)) * 1099511628211ull;
    g_.seed(h);
    std::printf("[   seed   ] TESSERA_SEED=%llu (property %s)\n", (unsigned long long)run_seed(),
                property);
  }
  // Uniform in [lo, hi]; written out (not std::uniform_int_distribution) so it is the same
  // sequence with every standard library.
  int64_t uni(int64_t lo, int64_t hi) { return lo + int64_t(g_() % uint64_t(hi - lo + 1)); }
  bool coin(double p = 0.5) { return double(g_() >> 11) * 0x1.0p-53 < p; }
  template <class T>
  T pick(std::vector<T> const& v) { return v[size_t(uni(0, int64_t(v.size()) - 1))]; }

 private:
  std::mt19937_64 g_;
};

struct Ref {
  Vec s, d;  // the leaves, in order
  Ref() = default;
  explicit Ref(Layout const& l) {
    for (int i = 0; i < l.shape.n; ++i)
      if (!l.shape.tup[i]) s.push_back(l.shape.v[i]), d.push_back(l.stride.v[i]);
  }
  int64_t size() const {
    int64_t p = 1;
    for (int64_t x : s) p *= x;
    return p;
  }
  int64_t operator()(int64_t i) const {
    int64_t off = 0;
    for (size_t k = 0; k + 1 < s.size(); ++k) off += (i % s[k]) * d[k], i /= s[k];
    return off + i * d.back();
  }
  Vec image() const {
    Vec r(static_cast<size_t>(size()));
    for (size_t i = 0; i < r.size(); ++i) r[i] = (*this)(int64_t(i));
    return r;
  }
  Vec distinct_image() const {
    Vec r = image();
    std::sort(r.begin(), r.end());
    r.erase(std::unique(r.begin(), r.end()), r.end());
    return r;
  }
  std::set<int64_t> image_set() const {
    Vec r = image();
    return {r.begin(), r.end()};
  }
};

}  // namespace tessera::testing
