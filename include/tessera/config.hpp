// tessera/config.hpp -- capacities, the host/device qualifier, checked arithmetic and error
// reporting.
//
// Every value type in tessera is a literal type of fixed capacity: no heap, trivially copyable,
// usable in constant expressions and in device code. The capacities below bound one integer tuple:
//
//   kMaxNodes = 32  nodes per tuple (leaves plus tuple nodes), e.g. ((2,2),4,(2,4)) uses 8 and
//                   the step-4 thread-fragment derivation (((4,8),(2,2)),((2,2),(4,8))) uses 15;
//                   a tuple holds up to 31 integers and nests up to 31 deep.
//
// Errors (an undefined operation, a capacity or overflow violation, malformed notation) are raised
// through `fail`, which never returns:
//   - on the host it throws tessera::Error, whose what() names the rule and prints the operands;
//   - during constant evaluation it reaches a non-constexpr function named after the broken rule
//     (tessera::rule::composition_stride_divisibility_fails, ...), so compilation stops with the
//     rule in the error line and the operands in the "in constexpr expansion of ..." trace;
//   - in device code it executes `trap`.
#pragma once

#include <cstdint>

#if defined(__CUDACC__) || defined(__CUDA_ARCH__)
#define TESSERA_HD __host__ __device__
#else
#define TESSERA_HD
#endif

// `#pragma unroll` for loops that device code must unroll (host compilers do not know it).
// TESSERA_NO_UNROLL: a loop that must stay a loop (compile time, code size).
// TESSERA_CALLS_USER_CODE before a __host__ __device__ template that calls a function the user
// passes (a lambda in a kernel is device-only): nvcc checks the call where it is instantiated.
#if defined(__CUDACC__)
#define TESSERA_CALLS_USER_CODE _Pragma("nv_exec_check_disable")
#else
#define TESSERA_CALLS_USER_CODE
#endif

#if defined(__CUDACC__)
#define TESSERA_UNROLL _Pragma("unroll")
#define TESSERA_NO_UNROLL _Pragma("unroll 1")
#else
#define TESSERA_UNROLL
#define TESSERA_NO_UNROLL
#endif

#if !defined(__CUDA_ARCH__)
#include <exception>
#endif

namespace tessera {

inline constexpr int kMaxNodes = 32;  // a Layout is then 2 x 328 bytes

// A fixed-capacity text buffer, used for error messages and printing in constant expressions.
struct Text {
#if defined(__CUDA_ARCH__)
  // Device code never reads a message (fail traps), so keep failure paths' stack frames small.
  static constexpr int kCap = 8;
#else
  static constexpr int kCap = 2048;
#endif
  char s[kCap] = {};
  int n = 0;

  TESSERA_HD constexpr Text& operator<<(const char* p) {
    while (*p && n < kCap - 1) s[n++] = *p++;
    return *this;
  }
  TESSERA_HD constexpr Text& operator<<(char c) {
    if (n < kCap - 1) s[n++] = c;
    return *this;
  }
  TESSERA_HD constexpr Text& operator<<(int64_t v) {
    char digits[24] = {};
    int k = 0;
    // Negate in unsigned arithmetic so INT64_MIN prints correctly.
    uint64_t u = v < 0 ? uint64_t(0) - uint64_t(v) : uint64_t(v);
    do {
      digits[k++] = char('0' + u % 10);
      u /= 10;
    } while (u);
    if (v < 0) *this << '-';
    while (k) *this << digits[--k];
    return *this;
  }
  TESSERA_HD constexpr Text& operator<<(int v) { return *this << int64_t(v); }
  TESSERA_HD constexpr Text& operator<<(Text const& t) {
    for (int i = 0; i < t.n; ++i) *this << t.s[i];
    return *this;
  }
  TESSERA_HD constexpr const char* c_str() const { return s; }
  TESSERA_HD constexpr bool operator==(const char* p) const {
    int i = 0;
    for (; i < n; ++i)
      if (p[i] != s[i]) return false;
    return p[i] == 0;
  }
};

// The exception thrown on the host for every rejected operation. Declared in nvcc's device pass
// too, so that host code of a .cu file can catch it (`catch (tessera::Error& e)`).
class Error : public std::exception {
 public:
  explicit Error(Text const& t) : text_(t) {}
  const char* what() const noexcept override { return text_.c_str(); }

 private:
  Text text_;
};

#if defined(__CUDA_ARCH__)
[[noreturn]] TESSERA_HD inline void fail(Text const& message) {
  (void)message;
  __trap();
  __builtin_unreachable();
}
#else
// One function per rule, none constexpr: a constant evaluation that breaks a rule stops at the
// call of the function whose name states it, e.g.
//   error: call to non-'constexpr' function 'void
//   tessera::rule::composition_stride_divisibility_fails(const Text&)'
// Each throws the message unchanged (the messages are API; fail picks the function by them).
namespace rule {
[[noreturn]] inline void composition_stride_divisibility_fails(Text const& m) { throw Error(m); }
[[noreturn]] inline void composition_shape_divisibility_fails(Text const& m) { throw Error(m); }
[[noreturn]] inline void complement_of_a_non_injective_layout(Text const& m) { throw Error(m); }
[[noreturn]] inline void complement_needs_positive_strides(Text const& m) { throw Error(m); }
[[noreturn]] inline void complement_cotarget_must_be_positive(Text const& m) { throw Error(m); }
[[noreturn]] inline void tiler_has_more_modes_than_the_layout(Text const& m) { throw Error(m); }
[[noreturn]] inline void shape_and_stride_are_not_congruent(Text const& m) { throw Error(m); }
[[noreturn]] inline void mode_extent_below_1(Text const& m) { throw Error(m); }
[[noreturn]] inline void coordinate_does_not_match_the_shape(Text const& m) { throw Error(m); }
[[noreturn]] inline void mode_index_out_of_range(Text const& m) { throw Error(m); }
[[noreturn]] inline void overflow_beyond_64_bits(Text const& m) { throw Error(m); }
[[noreturn]] inline void capacity_exceeded(Text const& m) { throw Error(m); }
[[noreturn]] inline void swizzle_parameters_invalid(Text const& m) { throw Error(m); }
[[noreturn]] inline void notation_is_malformed(Text const& m) { throw Error(m); }
[[noreturn]] inline void wgmma_cannot_read_the_shared_layout(Text const& m) { throw Error(m); }
[[noreturn]] inline void tma_cannot_copy_the_layout(Text const& m) { throw Error(m); }
// The device vocabulary (device_tensor.hpp, tiled_copy.hpp, coord_layout.hpp):
[[noreturn]] inline void tile_does_not_divide(Text const& m) { throw Error(m); }
[[noreturn]] inline void thread_outside_the_tiled_operation(Text const& m) { throw Error(m); }
[[noreturn]] inline void tile_coordinates_are_not_linear(Text const& m) { throw Error(m); }
[[noreturn]] inline void local_tile_projection_does_not_match_the_tensor(Text const& m) {
  throw Error(m);
}
[[noreturn]] inline void copy_does_not_match_the_fragment(Text const& m) { throw Error(m); }
[[noreturn]] inline void vector_elements_are_not_consecutive(Text const& m) { throw Error(m); }
[[noreturn]] inline void cp_async_copies_4_8_or_16_bytes(Text const& m) { throw Error(m); }
// Register views (fragment_views.hpp):
[[noreturn]] inline void accumulator_is_not_the_operand_of_the_same_thread(Text const& m) {
  throw Error(m);
}
[[noreturn]] inline void accumulator_has_no_row_col_view(Text const& m) { throw Error(m); }
[[noreturn]] inline void row_reduction_needs_lanes_of_one_warp(Text const& m) { throw Error(m); }
[[noreturn]] inline void operation_rejected(Text const& m) { throw Error(m); }  // any other rule
}  // namespace rule

namespace detail {
constexpr bool text_starts_with(Text const& t, const char* p) {
  for (int i = 0; p[i]; ++i)
    if (i >= t.n || t.s[i] != p[i]) return false;
  return true;
}
constexpr bool text_contains(Text const& t, const char* p) {
  for (int at = 0; at < t.n; ++at) {
    int i = 0;
    while (p[i] && at + i < t.n && t.s[at + i] == p[i]) ++i;
    if (!p[i]) return true;
  }
  return false;
}
}  // namespace detail

// Raises `message` through the function of the rule it states (see namespace rule).
[[noreturn]] TESSERA_HD constexpr void fail(Text const& message) {
  using detail::text_contains, detail::text_starts_with;
  Text const& m = message;
  if (text_starts_with(m, "composition: stride divisibility fails"))
    rule::composition_stride_divisibility_fails(m);
  if (text_starts_with(m, "composition: shape divisibility fails"))
    rule::composition_shape_divisibility_fails(m);
  if (text_starts_with(m, "complement: the cotarget"))
    rule::complement_cotarget_must_be_positive(m);
  if (text_starts_with(m, "complement: ") && text_contains(m, " is not injective"))
    rule::complement_of_a_non_injective_layout(m);
  if (text_starts_with(m, "complement: ") && text_contains(m, " has the negative stride "))
    rule::complement_needs_positive_strides(m);
  if (text_contains(m, ": the tiler ") && text_contains(m, " modes but "))
    rule::tiler_has_more_modes_than_the_layout(m);
  if (text_contains(m, " are not congruent")) rule::shape_and_stride_are_not_congruent(m);
  if (text_contains(m, " below 1")) rule::mode_extent_below_1(m);
  if (text_starts_with(m, "crd2idx: coordinate ")) rule::coordinate_does_not_match_the_shape(m);
  if (text_starts_with(m, "get: ")) rule::mode_index_out_of_range(m);
  if (text_starts_with(m, "overflow: ")) rule::overflow_beyond_64_bits(m);
  if (text_starts_with(m, "capacity: ")) rule::capacity_exceeded(m);
  if (text_starts_with(m, "swizzle: ")) rule::swizzle_parameters_invalid(m);
  if (text_starts_with(m, "parse: ")) rule::notation_is_malformed(m);
  if (text_starts_with(m, "gmma: ")) rule::wgmma_cannot_read_the_shared_layout(m);
  if (text_starts_with(m, "tma: ")) rule::tma_cannot_copy_the_layout(m);
  if (text_starts_with(m, "TiledCopy: the tile ") ||
      text_starts_with(m, "partition: the TiledMMA's tile "))
    rule::tile_does_not_divide(m);
  if (text_starts_with(m, "TiledMMA: thread ") || text_starts_with(m, "TiledCopy: thread "))
    rule::thread_outside_the_tiled_operation(m);
  if (text_starts_with(m, "coord_layout: ")) rule::tile_coordinates_are_not_linear(m);
  if (text_starts_with(m, "local_tile: ")) rule::local_tile_projection_does_not_match_the_tensor(m);
  if (text_starts_with(m, "make_tiled_copy") || text_starts_with(m, "retile: "))
    rule::copy_does_not_match_the_fragment(m);
  if (text_starts_with(m, "copy: a vector")) rule::vector_elements_are_not_consecutive(m);
  if (text_starts_with(m, "cp.async: ")) rule::cp_async_copies_4_8_or_16_bytes(m);
  if (text_starts_with(m, "acc_as_operand: "))
    rule::accumulator_is_not_the_operand_of_the_same_thread(m);
  if (text_starts_with(m, "acc_rowcol: ")) rule::accumulator_has_no_row_col_view(m);
  if (text_starts_with(m, "shuffles_along: ")) rule::row_reduction_needs_lanes_of_one_warp(m);
  // NOTE: conditional (a length is never negative) so that compilers accept fail as constexpr:
  // an unconditional call of a non-constexpr function would make fail itself non-constexpr and
  // hide the rule's name from the diagnostic.
  if (m.n >= 0) rule::operation_rejected(m);
  __builtin_unreachable();
}
#endif

[[noreturn]] TESSERA_HD constexpr void fail(const char* message) {
  Text t;
  t << message;
  fail(t);
}

// Checked 64-bit arithmetic: overflow is an error, never undefined behaviour.
TESSERA_HD constexpr int64_t checked_mul(int64_t a, int64_t b) {
  if (a == 0 || b == 0) return 0;
  uint64_t ua = a < 0 ? uint64_t(0) - uint64_t(a) : uint64_t(a);
  uint64_t ub = b < 0 ? uint64_t(0) - uint64_t(b) : uint64_t(b);
  bool negative = (a < 0) != (b < 0);
  uint64_t limit = negative ? uint64_t(INT64_MAX) + 1 : uint64_t(INT64_MAX);
  if (ua > limit / ub) {
    Text t;
    t << "overflow: " << a << " * " << b << " does not fit in 64 bits";
    fail(t);
  }
  uint64_t p = ua * ub;
  return negative ? int64_t(uint64_t(0) - p) : int64_t(p);
}

TESSERA_HD constexpr int64_t checked_add(int64_t a, int64_t b) {
  if ((b > 0 && a > INT64_MAX - b) || (b < 0 && a < INT64_MIN - b)) {
    Text t;
    t << "overflow: " << a << " + " << b << " does not fit in 64 bits";
    fail(t);
  }
  return a + b;
}

TESSERA_HD constexpr int64_t abs64(int64_t a) { return a < 0 ? -a : a; }
TESSERA_HD constexpr int64_t min64(int64_t a, int64_t b) { return a < b ? a : b; }
TESSERA_HD constexpr int64_t max64(int64_t a, int64_t b) { return a < b ? b : a; }
TESSERA_HD constexpr int64_t sign64(int64_t a) { return (a > 0) - (a < 0); }
// ceil(a / b) for a >= 0, b > 0, without the overflow of (a + b - 1) / b for huge b.
TESSERA_HD constexpr int64_t ceil_div(int64_t a, int64_t b) { return a / b + (a % b != 0); }

}  // namespace tessera
