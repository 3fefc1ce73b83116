// The table of layout operations (ops.hpp): each op's arguments, its function and its help.
#include <stdexcept>

#include "op_args.hpp"
#include "ops.hpp"

namespace tessera::tools {
namespace {

using Args = std::span<Arg const>;
using K = ArgKind;

Layout const& layout(Arg const& a) { return std::get<Layout>(a); }
IntTuple const& tuple(Arg const& a) { return std::get<IntTuple>(a); }
Tiler const& tiler(Arg const& a) { return std::get<Tiler>(a); }
int64_t integer(Arg const& a) { return std::get<int64_t>(a); }
bool swizzled(Arg const& a) { return std::holds_alternative<SwizzledLayout>(a); }
SwizzledLayout const& swizzled_layout(Arg const& a) { return std::get<SwizzledLayout>(a); }
// A kAnyLayout argument's plain layout (L of Sw o off o L).
Layout plain(Arg const& a) { return swizzled(a) ? swizzled_layout(a).layout : layout(a); }

// CuTe allows a tiler that does not divide the layout: the last tiles run past its end. Say so.
std::string divide_note(std::string const& op, Layout const& a, Tiler const& t, int64_t size) {
  if (size == a.size()) return "";
  std::string why;
  if (t.by_mode) {
    for (int i = 0; i < t.n && i < a.rank(); ++i) {
      if (t.keep[i] || a[i].size() % t.mode[i].size() == 0) continue;
      why += (why.empty() ? " (mode " : "; mode ") + std::to_string(i) + ": " +
             std::to_string(t.mode[i].size()) + " does not divide " + std::to_string(a[i].size());
    }
  } else if (a.size() % t.mode[0].size() != 0) {
    why = " (" + std::to_string(t.mode[0].size()) + " does not divide " + std::to_string(a.size());
  }
  if (!why.empty()) why += ")";
  return op + ": the tiler " + to_string(t) + " does not divide " + to_string(a) + why +
         "; the result has " + std::to_string(size) + " coordinates for the layout's " +
         std::to_string(a.size()) +
         ": CuTe's result, whose last tiles run past the end of the layout";
}

// The first entry of a coordinate outside its mode of `shape`: "" if every entry is inside.
// Negative entries are errors (no CuTe coordinate is negative); entries past the extent are
// CuTe's linear extension of the layout, reported as a note.
std::string outside(IntTuple const& crd, IntTuple const& shape) {
  if (crd.is_int()) {
    int64_t c = crd.value(), n = product(shape);
    if (c >= 0 && c < n) return "";
    return std::to_string(c) + " is not in [0, " + std::to_string(n) + ")";
  }
  if (shape.is_int()) return "";  // a mismatch: crd2idx itself rejects it
  for (int i = 0; i < crd.rank() && i < shape.rank(); ++i) {
    std::string m = outside(crd[i], shape[i]);
    if (!m.empty()) return m;
  }
  return "";
}

bool has_negative(IntTuple const& t) {
  for (int i = 0; i < t.n; ++i)
    if (!t.tup[i] && t.v[i] < 0) return true;
  return false;
}

OpOutput crd2idx_op(OpSpec const&, Args a) {
  IntTuple const& crd = tuple(a[0]);
  Layout const& l = layout(a[1]);
  if (has_negative(crd))
    throw std::invalid_argument("crd2idx: coordinate " + to_string(crd) +
                                " has a negative entry; the coordinates of " + to_string(l.shape) +
                                " run from 0 to extent - 1 in each mode");
  OpOutput r{l(crd), ""};
  std::string why = outside(crd, l.shape);
  if (!why.empty())
    r.note = "crd2idx: coordinate " + to_string(crd) + " lies outside the shape " +
             to_string(l.shape) + " (" + why +
             "); the offset is CuTe's, the layout's linear formula extended past the shape";
  return r;
}

OpOutput idx2crd_op(OpSpec const&, Args a) {
  int64_t idx = integer(a[0]);
  IntTuple const& shape = tuple(a[1]);
  int64_t n = product(shape);
  if (idx < 0)
    throw std::invalid_argument("idx2crd: index " + std::to_string(idx) +
                                " is negative; the indices of shape " + to_string(shape) +
                                " run from 0 to " + std::to_string(n - 1));
  OpOutput r{idx2crd(idx, shape), ""};
  if (idx >= n)
    r.note = "idx2crd: index " + std::to_string(idx) + " is outside [0, " + std::to_string(n) +
             ") of shape " + to_string(shape) + "; CuTe's idx2crd wraps every mode, so this is " +
             "the coordinate of " + std::to_string(idx) + " mod " + std::to_string(n) + " = " +
             std::to_string(idx % n);
  return r;
}

// L with every integer static. A swizzled layout's integers are static (its notation has no
// run-time ones), and so are A's where B is swizzled, with or without the run-time option.
Layout as_static(Layout l) {
  for (bool& d : l.shape.dyn) d = false;
  for (bool& d : l.stride.dyn) d = false;
  return l;
}

// A o B, where A and B may each be swizzled (Sw o off o L on either side) and a plain B may be
// any tiler.
OpOutput composition_op(OpSpec const&, Args a) {
  if (swizzled(a[1])) {
    SwizzledLayout const& b = swizzled_layout(a[1]);
    if (swizzled(a[0])) return {composition(swizzled_layout(a[0]), b)};
    return {composition(as_static(layout(a[0])), b)};
  }
  if (swizzled(a[0])) return {composition(swizzled_layout(a[0]), tiler(a[1]))};
  return {composition(layout(a[0]), tiler(a[1]))};
}

using TilerFn = Layout (*)(Layout const&, Tiler const&);

template <TilerFn F>
OpOutput tiler_op(OpSpec const&, Args a) {
  return {F(layout(a[0]), tiler(a[1]))};
}

template <TilerFn F>
OpOutput divide_op(OpSpec const& op, Args a) {
  Layout r = F(layout(a[0]), tiler(a[1]));
  return {r, divide_note(op.name, layout(a[0]), tiler(a[1]), r.size())};
}

// logical_divide and zipped_divide also take a swizzled A: the swizzle stays outside,
// Sw o off o (L / T).
template <TilerFn F, SwizzledLayout (*S)(SwizzledLayout const&, Tiler const&)>
OpOutput any_divide_op(OpSpec const& op, Args a) {
  if (!swizzled(a[0])) return divide_op<F>(op, a);
  SwizzledLayout r = S(swizzled_layout(a[0]), tiler(a[1]));
  return {r, divide_note(op.name, swizzled_layout(a[0]).layout, tiler(a[1]), r.size())};
}

OpOutput left_inverse_op(OpSpec const&, Args a) {
  if (swizzled(a[0])) return {left_inverse(swizzled_layout(a[0]))};
  try {
    return {left_inverse(layout(a[0]))};
  } catch (Error const& e) {
    // left_inverse goes through complement; name the op the user asked for.
    std::string m = e.what();
    if (m.rfind("complement: ", 0) == 0)
      m = "left_inverse: " + m.substr(12) + "; only an injective layout has a left inverse";
    throw std::invalid_argument(m);
  }
}

OpOutput tile_to_shape_op(OpSpec const&, Args a) {
  bool row = a.size() == 3 && std::get<std::string>(a[2]) == "row";
  if (swizzled(a[0])) return {tile_to_shape(swizzled_layout(a[0]), tuple(a[1]), row)};
  return {tile_to_shape(layout(a[0]), tuple(a[1]), row)};
}

OpOutput coalesce_op(OpSpec const&, Args a) {
  if (a.size() == 2) return {coalesce(layout(a[0]), tuple(a[1]))};
  return {coalesce(layout(a[0]))};
}

OpOutput complement_op(OpSpec const&, Args a) {
  if (a.size() == 2) return {complement(layout(a[0]), tuple(a[1]))};
  return {complement(layout(a[0]))};
}

OpOutput swizzle_op(OpSpec const& op, Args a) {
  return {checked_swizzle(op.name, {integer(a[0]), integer(a[1]), integer(a[2])})};
}

// The one-layout ops, each a lambda over the layout.
#define TESSERA_LAYOUT_OP(expr) [](OpSpec const&, Args a) -> OpOutput { return {expr}; }

constexpr ArgSpec kL{K::kLayout, "the layout"}, kA{K::kLayout, "A"}, kB{K::kLayout, "B"};
constexpr ArgSpec kAnyL{K::kAnyLayout, "the layout"}, kAnyA{K::kAnyLayout, "A"};
constexpr ArgSpec kT{K::kTiler, "the tiler"}, kShapeArg{K::kShape, "the shape"};
constexpr ArgSpec kN{K::kCount, "N"};

// clang-format off
const OpSpec kOps[] = {
  {"size", "", 1, 1, {kAnyL}, TESSERA_LAYOUT_OP(plain(a[0]).size()),
   "Number of coordinates: size LAYOUT"},
  {"cosize", "", 1, 1, {kL}, TESSERA_LAYOUT_OP(layout(a[0]).cosize()),
   "Extent of the codomain, L(size-1)+1: cosize LAYOUT"},
  {"rank", "", 1, 1, {kAnyL}, TESSERA_LAYOUT_OP(int64_t(plain(a[0]).rank())),
   "Number of top-level modes: rank LAYOUT"},
  {"depth", "", 1, 1, {kAnyL}, TESSERA_LAYOUT_OP(int64_t(plain(a[0]).depth())),
   "Nesting depth: depth LAYOUT"},
  {"crd2idx", "", 2, 2, {{K::kTuple, "the coordinate"}, kL}, crd2idx_op,
   "Offset of a coordinate: crd2idx COORD LAYOUT"},
  {"idx2crd", "", 2, 2, {{K::kIndex, "the index"}, {K::kTuple, "the shape"}}, idx2crd_op,
   "Coordinate of an index in a shape: idx2crd INDEX SHAPE"},
  {"coalesce", "", 1, 2, {kL, {K::kTuple, "the profile"}}, coalesce_op,
   "Merge modes, same function: coalesce LAYOUT [PROFILE]"},
  {"filter", "", 1, 1, {kL}, TESSERA_LAYOUT_OP(filter(layout(a[0]))),
   "Drop stride-0 and size-1 modes: filter LAYOUT"},
  {"composition", "compose", 2, 2, {kAnyA, {K::kTilerOrSwizzled, "the tiler"}}, composition_op,
   "A o B, R(c) = A(B(c)): composition A TILER"},
  {"complement", "", 1, 2, {kL, {K::kShape, "the cotarget"}}, complement_op,
   "Offsets A leaves free up to COTARGET: complement LAYOUT [COTARGET]"},
  {"right_inverse", "", 1, 1, {kAnyL},
   TESSERA_LAYOUT_OP(swizzled(a[0]) ? Value(right_inverse(swizzled_layout(a[0])))
                                    : Value(right_inverse(layout(a[0])))),
   "Largest R with L(R(i)) = i: right_inverse LAYOUT"},
  {"left_inverse", "", 1, 1, {kAnyL}, left_inverse_op,
   "L with L(A(i)) = i: left_inverse LAYOUT"},
  {"logical_divide", "", 2, 2, {kAnyA, kT},
   any_divide_op<[](Layout const& l, Tiler const& t) { return logical_divide(l, t); },
                 [](SwizzledLayout const& l, Tiler const& t) { return logical_divide(l, t); }>,
   "Split A into tiles of TILER: logical_divide A TILER"},
  {"zipped_divide", "", 2, 2, {kAnyA, kT},
   any_divide_op<[](Layout const& l, Tiler const& t) { return zipped_divide(l, t); },
                 [](SwizzledLayout const& l, Tiler const& t) { return zipped_divide(l, t); }>,
   "((tile),(rest)): zipped_divide A TILER"},
  {"tiled_divide", "", 2, 2, {kA, kT}, divide_op<tiled_divide>,
   "((tile),rest0,rest1,..): tiled_divide A TILER"},
  {"flat_divide", "", 2, 2, {kA, kT}, divide_op<flat_divide>,
   "(tile0,tile1,..,rest0,..): flat_divide A TILER"},
  {"logical_product", "", 2, 2, {kA, kT},
   tiler_op<[](Layout const& l, Tiler const& t) { return logical_product(l, t); }>,
   "Replicate A as B says: logical_product A TILER"},
  {"zipped_product", "", 2, 2, {kA, kT}, tiler_op<zipped_product>,
   "((A),(copies)): zipped_product A TILER"},
  {"tiled_product", "", 2, 2, {kA, kT}, tiler_op<tiled_product>,
   "((A),copy0,copy1,..): tiled_product A TILER"},
  {"flat_product", "", 2, 2, {kA, kT}, tiler_op<flat_product>,
   "(a0,a1,..,copy0,..): flat_product A TILER"},
  {"blocked_product", "", 2, 2, {kA, kB},
   TESSERA_LAYOUT_OP(blocked_product(layout(a[0]), layout(a[1]))),
   "Copies of A as contiguous blocks: blocked_product A B (B a layout or a shape)"},
  {"raked_product", "", 2, 2, {kA, kB},
   TESSERA_LAYOUT_OP(raked_product(layout(a[0]), layout(a[1]))),
   "Copies of A interleaved: raked_product A B (B a layout or a shape)"},
  {"swizzle", "", 3, 3, {{K::kBit, "B"}, {K::kBit, "M"}, {K::kBit, "S"}}, swizzle_op,
   "Sw<B,M,S> and its permutation table: swizzle B M S"},
  {"swizzle_layout", "", 2, 2, {{K::kBitList, "the swizzle"}, kL},
   TESSERA_LAYOUT_OP((SwizzledLayout{std::get<Swizzle>(a[0]), 0, layout(a[1])})),
   "Sw<B,M,S> o 0 o L: swizzle_layout [B,M,S] LAYOUT (batch only)", false},
  {"nullspace", "", 1, 1, {kL}, TESSERA_LAYOUT_OP(nullspace(layout(a[0]))),
   "The coordinates L sends to 0, indexed compactly: nullspace LAYOUT"},
  {"upcast", "", 2, 2, {kL, kN}, TESSERA_LAYOUT_OP(upcast(layout(a[0]), integer(a[1]))),
   "L over elements N times wider: upcast LAYOUT N"},
  {"downcast", "", 2, 2, {kL, kN}, TESSERA_LAYOUT_OP(downcast(layout(a[0]), integer(a[1]))),
   "L over elements N times narrower: downcast LAYOUT N"},
  {"recast_layout", "", 3, 3, {kL, {K::kCount, "OLD_BITS"}, {K::kCount, "NEW_BITS"}},
   TESSERA_LAYOUT_OP(recast_layout(layout(a[0]), integer(a[1]), integer(a[2]))),
   "L over OLD_BITS elements as NEW_BITS elements: recast_layout LAYOUT OLD_BITS NEW_BITS"},
  {"max_common_layout", "", 2, 2, {kL, kL},
   TESSERA_LAYOUT_OP(max_common_layout(layout(a[0]), layout(a[1]))),
   "Largest R with A(R(i)) = B(R(i)) = i: max_common_layout A B"},
  {"max_common_vector", "", 2, 2, {kL, kL},  // a vector width is a static integer in CuTe
   TESSERA_LAYOUT_OP(StaticInt{max_common_vector(layout(a[0]), layout(a[1]))}),
   "Size of max_common_layout: max_common_vector A B"},
  {"make_ordered_layout", "", 2, 2, {kShapeArg, {K::kShape, "the order"}},
   TESSERA_LAYOUT_OP(make_ordered_layout(tuple(a[0]), tuple(a[1]))),
   "Compact layout, modes in ORDER: make_ordered_layout SHAPE ORDER"},
  {"make_layout_like", "", 1, 1, {kL}, TESSERA_LAYOUT_OP(make_layout_like(layout(a[0]))),
   "Compact layout ordered as L's strides: make_layout_like LAYOUT"},
  {"compact_col_major", "", 1, 1, {kShapeArg}, TESSERA_LAYOUT_OP(make_col_major(tuple(a[0]))),
   "Compact column-major layout: compact_col_major SHAPE"},
  {"compact_row_major", "", 1, 1, {kShapeArg}, TESSERA_LAYOUT_OP(make_row_major(tuple(a[0]))),
   "Compact row-major layout: compact_row_major SHAPE"},
  {"tile_to_shape", "", 2, 3, {kAnyL, kShapeArg, {K::kOrder, "the order"}}, tile_to_shape_op,
   "Repeat a block over SHAPE: tile_to_shape LAYOUT SHAPE [col|row]"},
  {"layout_add", "", 2, 2, {kL, kL},
   TESSERA_LAYOUT_OP(layout_add(layout(a[0]), layout(a[1]))),
   "R(i) = A(i) + B(i): layout_add A B"},
};
// clang-format on

#undef TESSERA_LAYOUT_OP

}  // namespace

namespace ops {

std::span<OpSpec const> table() { return kOps; }

OpSpec const* find(std::string_view name) {
  for (OpSpec const& op : kOps)
    if (name == op.name || (*op.alias && name == op.alias)) return &op;
  return nullptr;
}

}  // namespace ops
}  // namespace tessera::tools
