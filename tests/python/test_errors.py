"""Rejected operations raise tessera.Error (a ValueError) with the library's message: the rule and
the operands. The messages are API: asserted by text."""
import pytest

import tessera
from tessera import Layout


def message(f):
    with pytest.raises(tessera.Error) as e:
        f()
    assert isinstance(e.value, ValueError)
    return str(e.value)


def test_composition_divisibility():
    assert message(lambda: tessera.composition(Layout("(4,4):(1,5)"), Layout("3:6"))) == (
        "composition: stride divisibility fails: stride 6 of 3:6 is neither a multiple of nor "
        "smaller than shape 4 "
        "of (4,4):(1,5)")
    assert message(lambda: tessera.composition(Layout("(4,3):(3,1)"), Layout("6:1"))) == (
        "composition: shape divisibility fails: 4 elements of mode 4:3 of (4,3):(3,1) do not "
        "divide the "
        "remaining size 6 of 6:1")


def test_complement_not_injective():
    assert message(lambda: tessera.complement(Layout("(2,2):(1,1)"), 4)) == (
        "complement: (2,2):(1,1) is not injective: mode 2:1 starts inside the extent 2 of the "
        "smaller modes")


def test_tiler_rank():
    assert message(lambda: tessera.logical_divide(Layout("8:1"), (2, 2))) == (
        "logical_divide: the tiler (2:1,2:1) has 2 modes but 8:1 has rank 1")


def test_swizzle_shift():
    assert message(lambda: tessera.Swizzle(3, 1, -2)) == \
        "swizzle: Sw<3,1,-2> needs B >= 0, M >= 0 and |S| >= B"


def test_parse_position():
    assert message(lambda: Layout
                   ("(4,2:(1,64)")) == "parse: expected ',' or ')' at position 4 in \"(4,2:(1,64)\""


def test_layout_checks():
    assert message(lambda: Layout((4, 3), (1, (3, 4)))) == (
        "layout: shape (4,3) and stride (1,(3,4)) are not congruent")
    assert "extent below 1" in message(lambda: Layout((4, 0), (1, 4)))
    assert "does not fit in 64 bits" in message(lambda: Layout(2**70))
    assert "overflow" in message(lambda: Layout((2**40, 2**40), (1, 2**40)).cosize())


def test_partition_errors():
    mma = tessera.presets.step1()
    assert message(lambda: mma.get_slice(256)) == "TiledMMA: thread 256 is outside [0, 256)"
    assert message(lambda: mma.partition_C(Layout("128:1"), 0)) == \
        "partition_C: the tensor 128:1 needs rank >= 2"
    assert "unknown MMA atom 'NoSuchAtom'" in message(
        lambda: tessera.make_tiled_mma("NoSuchAtom", (2, 2, 1)))
    assert "not a multiple" in message(
        lambda: tessera.make_tiled_mma("UniversalFMA", (16, 16, 1), tile=(100, 128, 8)))
    copy = tessera.make_tiled_copy_tv(tessera.CopyAtom("cp_async:16"), Layout("(32,8):(1,32)"),
                                      (4, 1))
    assert message(lambda: copy.partition_S(Layout("(96,8):(1,96)"), 0)) == (
        "TiledCopy: the tile (128,8) does not divide the tensor (96,8):(1,96) (mode 0)")
    assert message(lambda: tessera.CopyAtom
                   ("cp_async:12")) == "cp.async: 12 bytes; the instruction copies 4, 8 or 16 bytes"
    assert "operand 'D'" in message(lambda: mma.partition("D", Layout("(128,128):(128,1)"), 0))


def test_wrong_types_are_type_errors():
    with pytest.raises(TypeError, match="tiler entry"):
        tessera.logical_divide(Layout("(4,6):(1,4)"), (2.5, 3))
    with pytest.raises(TypeError, match="coordinate"):
        Layout("(4,3):(1,8)")(1.5)
    with pytest.raises(IndexError):
        Layout("(4,3):(1,8)")[2]


def test_crd2idx_mismatch():
    assert message(lambda: Layout("(4,3):(1,8)")((1, 2, 3))) == (
        "crd2idx: coordinate (1,2,3) does not match the modes of (4,3):(1,8)")


def test_coordinates_and_tuples():
    L = Layout("(4,3):(1,8)")
    assert message(lambda: L(-1)) == (
        "crd2idx: coordinate -1 has a negative entry; the coordinates of (4,3) run from 0 to "
        "extent - 1 in each mode")
    assert "negative entry" in message(lambda: L(1, -2))
    assert "negative entry" in message(lambda: tessera.crd2idx((0, -1), L))
    assert message(lambda: tessera.idx2crd(-5, (4, 4))) == (
        "idx2crd: index -5 is negative; the indices of shape (4,4) run from 0 to 15")
    assert "empty tuple" in message(lambda: Layout((), ()))
    assert "empty tuple" in message(lambda: Layout(((), 4), ((), 1)))
    # A layout is called on its domain; crd2idx keeps CuTe's linear extension past the extent.
    with pytest.raises(IndexError, match=r"index 12 is out of range for the layout \(4,3\):\(1,8\) "
                                         r"of size 12: its indices run from 0 to 11"):
        L(12)
    with pytest.raises(IndexError, match=r"coordinate \(3,3\) is out of range .* its entry 3 is "
                                         r"past the extent 3 of its mode"):
        L(3, 3)
    assert tessera.crd2idx(12, L) == 24 and tessera.crd2idx((3, 3), L) == 27


def test_shapes_with_zero_extents():
    # A shape given as Python values is checked as a layout's (the parser rejects 0 as well); the
    # library's compact constructor would divide by the zero extent.
    for f in (lambda: tessera.logical_divide(Layout("4:1"), 0),
              lambda: tessera.tiled_divide(Layout("4:1"), (0,)),
              lambda: Layout((4, 0)), lambda: tessera.make_layout((0, 2)), lambda: Layout("(4,0)"),
              lambda: tessera.local_tile(Layout("(8,8):(1,8)"), (0, 4), (0, 0)),
              lambda: tessera.make_tiled_copy_tv(tessera.CopyAtom("universal:32"), (0, 4), (1, 1))):
        assert "extent below 1" in message(f)
