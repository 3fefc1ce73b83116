// python/src/docs.hpp -- what help() shows for the compiled functions: a signature with argument
// names and the types of the stub (tessera/__init__.pyi), and a docstring with an example that
// tests/python/test_help.py runs as a doctest (so the examples are the library's answers).
//   m.def("logical_divide", f, nb::arg("layout"), nb::arg("tiler"), SIG_DOC(logical_divide));
// Type names: LayoutLike = Layout | str (its notation; a shape alone is its compact layout),
// IntTuple = int | tuple of IntTuple, Tiler = Layout | int | str | tuple of (Layout, int, shape,
// None) entries, one per mode.
#pragma once

#include <nanobind/nanobind.h>

namespace tessera::py::docs {

struct Doc {
  const char* sig;   // "def name(arg: Type, ...) -> Type"
  const char* text;  // the docstring
};

// nb::sig and the docstring of a Doc, as two arguments of m.def / .def.
#define SIG_DOC(d) nanobind::sig(::tessera::py::docs::d.sig), ::tessera::py::docs::d.text

// ---- making and reading layouts -----------------------------------------------------------------

inline constexpr Doc make_layout = {
    "def make_layout(shape: IntTuple | str, stride: IntTuple | None = None) -> Layout | "
    "SwizzledLayout",
    R"doc(The layout shape:stride; without a stride, the compact column-major one (CuTe's
make_layout(shape) = make_layout(shape, LayoutLeft)). A string is a notation: a layout, or a
swizzled layout in tessera's or CuTe's print (then a SwizzledLayout).

>>> make_layout((4, 3))
Layout("(4,3):(1,4)")
>>> make_layout((4, 3), (3, 1))
Layout("(4,3):(3,1)")
>>> make_layout("Sw<3,4,3> o _0 o (8,64):(64,1)")
SwizzledLayout("Sw<3,4,3> o 0 o (8,64):(64,1)"))doc"};

inline constexpr Doc make_layout_modes = {
    "def make_layout_modes(*modes: LayoutLike) -> Layout",
    R"doc(The layouts as the modes of one layout (CuTe's make_layout(L0, L1, ...)).

>>> make_layout_modes(Layout("4:1"), Layout("3:4"))
Layout("(4,3):(1,4)"))doc"};

inline constexpr Doc parse_int_tuple = {
    "def parse_int_tuple(notation: str) -> IntTuple",
    R"doc(An integer tuple from its notation, as nested Python tuples.

>>> parse_int_tuple("(2,(3,4))")
(2, (3, 4)))doc"};

inline constexpr Doc parse_tiler = {
    "def parse_tiler(notation: str) -> str",
    R"doc(Checks a tiler's notation (a layout, a shape, or a tuple of layouts and _ per mode) and
prints it back in canonical form.

>>> parse_tiler("(2:1, _)")
'(2:1,_)')doc"};

inline constexpr Doc cosize = {
    "def cosize(layout: LayoutLike) -> int",
    R"doc(L(size - 1) + 1: the extent of the layout's codomain.

>>> cosize(Layout("(4,3):(1,8)"))
20)doc"};

inline constexpr Doc rank = {
    "def rank(x: Layout | IntTuple) -> int",
    R"doc(The number of top-level modes of a layout or an integer tuple (an integer has rank 1).

>>> rank(Layout("(4,(3,2)):(2,(8,1))"))
2)doc"};

inline constexpr Doc depth = {
    "def depth(x: Layout | IntTuple) -> int",
    R"doc(The nesting depth of a layout's shape or of an integer tuple (0 for an integer).

>>> depth(Layout("(4,(3,2)):(2,(8,1))"))
2)doc"};

inline constexpr Doc crd2idx = {
    "def crd2idx(coord: IntTuple, layout: LayoutLike | IntTuple, stride: IntTuple | None = None)"
    " -> int",
    R"doc(The offset of a coordinate: crd2idx(coord, layout) or crd2idx(coord, shape, stride). An
integer coordinate is split colexicographically; past the extent it is CuTe's linear extension
(calling the layout, L(coord), checks the domain instead).

>>> crd2idx((1, 2), Layout("(4,3):(1,8)"))
17
>>> crd2idx((1, 2), (4, 3), (1, 8))
17)doc"};

inline constexpr Doc idx2crd = {
    "def idx2crd(idx: int, shape: Layout | IntTuple) -> IntTuple",
    R"doc(The natural (colexicographic) coordinate of an index in a shape.

>>> idx2crd(7, (3, (2, 4)))
(1, (0, 1)))doc"};

inline constexpr Doc layout_init = {
    "def __init__(self, shape: IntTuple | str | Layout, stride: IntTuple | None = None) -> None",
    R"doc(A layout from its notation, from a shape and a stride, or from a shape alone (the
compact column-major layout); CuTe's C++ spellings are read too.

>>> Layout("(4,3):(1,8)"), Layout((4, 3), (1, 8)), Layout((4, 3))
(Layout("(4,3):(1,8)"), Layout("(4,3):(1,8)"), Layout("(4,3):(1,4)"))
>>> Layout("Layout<Shape<_4,_8>,Stride<_8,_1>>")
Layout("(4,8):(8,1)"))doc"};

inline constexpr Doc layout_call = {
    "def __call__(self, *coord: IntTuple) -> int",
    R"doc(The offset of an index in [0, size) (split colexicographically) or of a coordinate, each
entry in [0, extent of its mode); past the domain is an IndexError (crd2idx extends linearly).

>>> L = Layout("(4,3):(1,8)")
>>> L(5), L(1, 2), L((1, 2))
(9, 17, 17))doc"};

// ---- the algebra --------------------------------------------------------------------------------

inline constexpr Doc flatten = {
    "def flatten(layout: LayoutLike) -> Layout",
    R"doc(The layout with its nested modes flattened into one level (the same function).

>>> flatten(Layout("((2,2),3):((1,4),2)"))
Layout("(2,2,3):(1,4,2)"))doc"};

inline constexpr Doc filter = {
    "def filter(layout: LayoutLike) -> Layout",
    R"doc(Drop the stride-0 and size-1 modes, then coalesce: the offsets the layout reaches, once.

>>> filter(Layout("(2,1,3):(1,5,0)"))
Layout("2:1"))doc"};

inline constexpr Doc composition = {
    "def composition(a: LayoutLike | Swizzle | SwizzledLayout, b: LayoutLike | Tiler)"
    " -> Layout | SwizzledLayout",
    R"doc(R = A o B, R(c) = A(B(c)). B is a layout or a tiler (a tuple composes mode by
mode); A may be a Swizzle or a swizzled layout, then so is the result.

>>> composition(Layout("(4,3):(1,8)"), Layout("6:2"))
Layout("(2,3):(2,8)")
>>> composition(Layout("(12,(4,8)):(59,(13,1))"), (3, 8))
Layout("(3,(4,2)):(59,(13,1))")
>>> composition(Swizzle(3, 4, 3), Layout("(8,64):(64,1)"))
SwizzledLayout("Sw<3,4,3> o 0 o (8,64):(64,1)"))doc"};

inline constexpr Doc complement = {
    "def complement(layout: LayoutLike, cotarget: IntTuple = 1) -> Layout",
    R"doc(The ordered layout of the offsets in [0, cotarget) that the layout does not reach, so that
(layout, complement) covers them; the layout must be injective.

>>> complement(Layout("4:2"), 24)
Layout("(2,3):(1,8)")
>>> complement(Layout("(2,2):(1,6)"), 24)
Layout("(3,2):(2,12)"))doc"};

inline constexpr Doc right_inverse = {
    "def right_inverse(layout: LayoutLike) -> Layout",
    R"doc(The layout R with L(R(i)) == i for i in [0, size(R)): from offsets back to indices.

>>> right_inverse(Layout("(4,2):(2,1)"))
Layout("(2,4):(4,1)"))doc"};

inline constexpr Doc left_inverse = {
    "def left_inverse(layout: LayoutLike) -> Layout",
    R"doc(The layout R with R(L(i)) == i for every index i of an injective layout L.

>>> left_inverse(Layout("(4,2):(2,1)"))
Layout("(2,4):(4,1)"))doc"};

inline constexpr Doc logical_divide = {
    "def logical_divide(layout: LayoutLike | SwizzledLayout, tiler: Tiler)"
    " -> Layout | SwizzledLayout",
    R"doc(A / B = A o (B, complement(B, size A)): ((tile),(rest)); a tuple tiler divides
mode by mode, an int n is n:1, a shape tuple entry its compact layout, None keeps a mode.

>>> logical_divide(Layout("(4,2,3):(2,1,8)"), Layout("4:2"))
Layout("((2,2),(2,3)):((4,1),(2,8))")
>>> logical_divide(Layout("(4,6):(1,4)"), (2, 3))
Layout("((2,2),(3,2)):((1,2),(4,12))"))doc"};

inline constexpr Doc zipped_divide = {
    "def zipped_divide(layout: LayoutLike | SwizzledLayout, tiler: Tiler)"
    " -> Layout | SwizzledLayout",
    R"doc(logical_divide with the tiles' modes gathered: ((tile0,tile1,..),(rest0,rest1,..)).

>>> zipped_divide(Layout("(4,6):(1,4)"), (2, 3))
Layout("((2,3),(2,2)):((1,4),(2,12))"))doc"};

inline constexpr Doc tiled_divide = {
    "def tiled_divide(layout: LayoutLike, tiler: Tiler) -> Layout",
    R"doc(logical_divide regrouped as ((tile0,tile1,..),rest0,rest1,..).

>>> tiled_divide(Layout("(4,6):(1,4)"), (2, 3))
Layout("((2,3),2,2):((1,4),2,12)"))doc"};

inline constexpr Doc flat_divide = {
    "def flat_divide(layout: LayoutLike, tiler: Tiler) -> Layout",
    R"doc(logical_divide regrouped as (tile0,tile1,..,rest0,rest1,..).

>>> flat_divide(Layout("(4,6):(1,4)"), (2, 3))
Layout("(2,3,2,2):(1,4,2,12)"))doc"};

inline constexpr Doc logical_product = {
    "def logical_product(layout: LayoutLike, tiler: Tiler) -> Layout",
    R"doc(A x B = (A, complement(A, size A * cosize B) o B): A repeated as B says; a tuple
tiler goes mode by mode and an int n is n:1 (CuTe's Tiler).

>>> logical_product(Layout("(2,2):(4,1)"), Layout("6:1"))
Layout("((2,2),(2,3)):((4,1),(2,8))")
>>> logical_product(Layout("4:1"), 3)
Layout("(4,3):(1,4)"))doc"};

inline constexpr Doc zipped_product = {
    "def zipped_product(layout: LayoutLike, tiler: Tiler) -> Layout",
    R"doc(logical_product regrouped as ((block0,block1,..),(repeat0,repeat1,..)).

>>> zipped_product(Layout("(2,5):(5,1)"), (3, 4))
Layout("((2,5),(3,4)):((5,1),(1,5))"))doc"};

inline constexpr Doc tiled_product = {
    "def tiled_product(layout: LayoutLike, tiler: Tiler) -> Layout",
    R"doc(logical_product regrouped as ((block0,block1,..),repeat0,repeat1,..).

>>> tiled_product(Layout("(2,5):(5,1)"), (3, 4))
Layout("((2,5),3,4):((5,1),1,5)"))doc"};

inline constexpr Doc flat_product = {
    "def flat_product(layout: LayoutLike, tiler: Tiler) -> Layout",
    R"doc(logical_product regrouped as (block0,block1,..,repeat0,repeat1,..).

>>> flat_product(Layout("(2,5):(5,1)"), (3, 4))
Layout("(2,5,3,4):(5,1,1,5)"))doc"};

inline constexpr Doc blocked_product = {
    "def blocked_product(a: LayoutLike | IntTuple, b: LayoutLike | IntTuple) -> Layout",
    R"doc(A repeated over B with each copy of A a contiguous block: ((a0,b0),(a1,b1),..). A shape
means its compact layout (make_layout(shape)).

>>> blocked_product(Layout("(2,5):(5,1)"), Layout("(3,4):(1,3)"))
Layout("((2,3),(5,4)):((5,10),(1,30))"))doc"};

inline constexpr Doc raked_product = {
    "def raked_product(a: LayoutLike | IntTuple, b: LayoutLike | IntTuple) -> Layout",
    R"doc(A repeated over B with the copies interleaved in each mode: ((b0,a0),(b1,a1),..). A shape
means its compact layout (make_layout(shape)).

>>> raked_product(Layout("(2,5):(5,1)"), (3, 4))
Layout("((3,2),(4,5)):((10,5),(30,1))"))doc"};

// ---- swizzles and tiles -------------------------------------------------------------------------

inline constexpr Doc make_swizzle = {
    "def make_swizzle(bits: int, base: int, shift: int) -> Swizzle",
    R"doc(Sw<B,M,S>: XOR the B bits at M+S.. of an offset into its bits at M.. (CuTe's Swizzle):
Sw<3,4,3> moves bit 7 of 128 onto bit 4.

>>> make_swizzle(3, 4, 3)(128)
144)doc"};

inline constexpr Doc make_composed_layout = {
    "def make_composed_layout(swizzle: Swizzle, offset: int, layout: LayoutLike)"
    " -> SwizzledLayout",
    R"doc(Sw o offset o L: the layout, then the offset, then the swizzle (CuTe's ComposedLayout).

>>> make_composed_layout(Swizzle(3, 4, 3), 0, Layout("(8,64):(64,1)"))
SwizzledLayout("Sw<3,4,3> o 0 o (8,64):(64,1)"))doc"};

inline constexpr Doc local_tile = {
    "def local_tile(layout: LayoutLike | View, tiler: IntTuple, coord: Sequence[int | None],"
    " proj: Sequence[int | None] | None = None) -> View",
    R"doc(The CTA's tile of a tensor: the tile at `coord` of the tensor divided by the tiler shape;
a None in coord keeps every tile of that mode, a None in proj drops that tiler mode. The tensor
may be a tile itself (a View): the result keeps its offset.

>>> local_tile(Layout("(128,64):(1,128)"), (32, 16), (1, 2))
View(4128, "(32,16):(1,128)")
>>> local_tile(Layout("(128,64):(1,128)"), (32, 16), (1, None))
View(32, "(32,16,4):(1,128,2048)"))doc"};

// ---- TiledMMA and TiledCopy ---------------------------------------------------------------------

inline constexpr Doc partition_C = {
    "def partition_C(self, tensor: LayoutLike | View | IntTuple, thread: int) -> View",
    R"doc(Thread `thread`'s part of the C tensor (a shape alone is its compact layout; a View, the
tile of local_tile, adds its offset): its offset and the (FrgV,RestM,RestN) layout of its
values, as CuTe's thr_mma.partition_C(tensor).

>>> mma = make_tiled_mma("SM80_16x8x16_F32F16F16F32_TN", (2, 2, 1))
>>> mma.partition_C(Layout("(32,32):(32,1)"), 0)
View(0, "((2,2),1,2):((1,256),0,16)"))doc"};

inline constexpr Doc partition_A = {
    "def partition_A(self, tensor: LayoutLike | View | IntTuple, thread: int) -> View",
    R"doc(Thread `thread`'s part of the A tensor (M,K): (FrgV,RestM,RestK), as partition_C.

>>> mma = make_tiled_mma("SM80_16x8x16_F32F16F16F32_TN", (2, 2, 1))
>>> mma.partition_A((32, 16), 0)
View(0, "((2,2,2),1,1):((32,8,256),0,0)"))doc"};

inline constexpr Doc partition_B = {
    "def partition_B(self, tensor: LayoutLike | View | IntTuple, thread: int) -> View",
    R"doc(Thread `thread`'s part of the B tensor (N,K): (FrgV,RestN,RestK), as partition_C.

>>> mma = make_tiled_mma("SM80_16x8x16_F32F16F16F32_TN", (2, 2, 1))
>>> mma.partition_B((16, 16), 0)
View(0, "((2,2),1,1):((16,128),0,0)"))doc"};

inline constexpr Doc partition = {
    "def partition(self, operand: str, tensor: LayoutLike | View | IntTuple, thread: int)"
    " -> View",
    R"doc(partition_C, partition_A or partition_B by the operand's letter "C", "A" or "B".

>>> mma = make_tiled_mma("SM80_16x8x16_F32F16F16F32_TN", (2, 2, 1))
>>> mma.partition("C", (32, 32), 5) == mma.partition_C((32, 32), 5)
True)doc"};

inline constexpr Doc thrfrg = {
    "def thrfrg(self, operand: str, tensor: LayoutLike | IntTuple) -> Layout",
    R"doc(Steps 1-4 of a partition: the tensor as ((ThrV,(ThrM,ThrN)),(FrgV,(RestM,RestN))), every
thread's values at once (CuTe's TiledMMA::thrfrg_C / _A / _B).

>>> mma = make_tiled_mma("SM80_16x8x16_F32F16F16F32_TN", (2, 2, 1))
>>> mma.thrfrg("C", (32, 32))
Layout("(((4,8),(2,2)),((2,2),(1,2))):(((64,1),(16,256)),((32,8),(0,512)))"))doc"};

inline constexpr Doc partitioner = {
    "def partitioner(self, operand: str, tensor: LayoutLike | IntTuple)"
    " -> tuple[Layout, Layout]",
    R"doc((thread -> offset, fragment): the layouts a kernel binds once, so a thread's part is
View(thread_layout(t), fragment).

>>> mma = make_tiled_mma("SM80_16x8x16_F32F16F16F32_TN", (2, 2, 1))
>>> mma.partitioner("C", (32, 32))
(Layout("(4,8,2,2):(64,1,16,256)"), Layout("((2,2),1,2):((32,8),0,512)")))doc"};

inline constexpr Doc thread_vmnk = {
    "def thread_vmnk(self, thread: int) -> IntTuple",
    R"doc(The thread's coordinate (V,M,N,K) in the TiledMMA's thread layout: its lane within the
atom and the atom's place over M, N and K.

>>> make_tiled_mma("SM80_16x8x16_F32F16F16F32_TN", (2, 2, 1)).thread_vmnk(37)
(5, 1, 0, 0))doc"};

inline constexpr Doc partition_S = {
    "def partition_S(self, tensor: LayoutLike | View | IntTuple, thread: int) -> View",
    R"doc(Thread `thread`'s part of the copy's source tensor: (CopyV,RestM,RestN), as CuTe's
thr_copy.partition_S(tensor); a shape alone is its compact layout.

>>> copy = make_tiled_copy_tv(CopyAtom("universal:128", 16), (8, 4), (8, 1))
>>> copy.partition_S((64, 4), 3)
View(24, "((8,1),1,1):((1,0),0,0)"))doc"};

inline constexpr Doc partition_D = {
    "def partition_D(self, tensor: LayoutLike | View | IntTuple, thread: int) -> View",
    R"doc(Thread `thread`'s part of the copy's destination tensor, as partition_S.

>>> copy = make_tiled_copy_tv(CopyAtom("universal:128", 16), (8, 4), (8, 1))
>>> copy.partition_D(Layout("(64,4):(4,1)"), 1)
View(32, "((8,1),1,1):((4,0),0,0)"))doc"};

inline constexpr Doc retile = {
    "def retile(self, fragment: LayoutLike | IntTuple) -> Layout",
    R"doc(An MMA register fragment regrouped in the copy's value order (CuTe's retile_S / retile_D).

>>> copy = make_tiled_copy_tv(CopyAtom("universal:128", 16), (8, 4), (8, 1))
>>> copy.retile(Layout("((2,2),2,2):((1,2),4,8)"))
Layout("((8,1),1,2):((1,0),0,8)"))doc"};

inline constexpr Doc make_tiled_copy_tv = {
    "def make_tiled_copy_tv(atom: CopyAtom, thr_layout: LayoutLike | IntTuple,"
    " val_layout: LayoutLike | IntTuple) -> TiledCopy",
    R"doc(Threads arranged as `thr_layout`, each copying a `val_layout` block with `atom` (CuTe's
make_tiled_copy(atom, thr_layout, val_layout)); shapes mean their compact layouts.

>>> make_tiled_copy_tv(CopyAtom("universal:128", 16), (8, 4), (8, 1))
TiledCopy(UniversalCopy, layout_tv (32,8):(8,1), tile (64,4)))doc"};

inline constexpr Doc make_tiled_copy_operand[3] = {
    {"def make_tiled_copy_A(atom: CopyAtom, tiled_mma: TiledMMA) -> TiledCopy",
     R"doc(A TiledCopy whose threads own what the TiledMMA's threads own of A (CuTe's
make_tiled_copy_A), e.g. ldmatrix feeding mma.sync.

>>> mma = make_tiled_mma("SM80_16x8x16_F32F16F16F32_TN", (2, 2, 1))
>>> make_tiled_copy_A(CopyAtom("SM75_U32x4_LDSM_N", 16), mma).size()
128)doc"},
    {"def make_tiled_copy_B(atom: CopyAtom, tiled_mma: TiledMMA) -> TiledCopy",
     R"doc(A TiledCopy whose threads own what the TiledMMA's threads own of B (CuTe's
make_tiled_copy_B).

>>> mma = make_tiled_mma("SM80_16x8x16_F32F16F16F32_TN", (2, 2, 1))
>>> make_tiled_copy_B(CopyAtom("SM75_U32x2_LDSM_N", 16), mma).size()
128)doc"},
    {"def make_tiled_copy_C(atom: CopyAtom, tiled_mma: TiledMMA) -> TiledCopy",
     R"doc(A TiledCopy whose threads own what the TiledMMA's threads own of C (CuTe's
make_tiled_copy_C), e.g. the epilogue's stores.

>>> mma = make_tiled_mma("SM80_16x8x16_F32F16F16F32_TN", (2, 2, 1))
>>> make_tiled_copy_C(CopyAtom("universal:32", 32), mma).size()
128)doc"},
};

}  // namespace tessera::py::docs
