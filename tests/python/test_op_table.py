"""The op table (tools/ops.hpp) from Python: ops() lists every op of `tessera batch` and the CLI,
and the ops without a hand-written binding are functions that read Python values by their kinds."""
import pytest

import tessera
from tessera import _tessera as T


def test_ops_lists_the_table():
    ops = {o["name"]: o for o in T.ops()}
    for name in ("composition", "logical_divide", "upcast", "tile_to_shape", "swizzle_layout"):
        assert name in ops
    assert ops["composition"]["alias"] == "compose"
    assert ops["tile_to_shape"]["min_args"] == 2 and len(ops["tile_to_shape"]["args"]) == 3
    assert all(o["help"] for o in ops.values())


def test_every_op_is_a_function():
    for o in T.ops():
        assert callable(getattr(T, o["name"])), o["name"]


def test_table_ops_compute():
    L = tessera.Layout("(4,8):(1,4)")
    assert str(T.upcast(L, 2)) == "(2,8):(1,2)"
    assert str(T.recast_layout(L, 16, 32)) == "(2,8):(1,2)"
    assert T.max_common_vector(L, L) == 32
    assert str(T.tile_to_shape("(2,2):(1,2)", (4, 6), "row")) == "((2,2),(2,3)):((1,12),(2,4))"
    assert str(T.make_ordered_layout((2, 3, 4), (1, 0, 2))) == "(2,3,4):(3,1,6)"
    assert str(T.nullspace("(4,3):(0,1)")) == "4:1"


def test_table_op_errors_name_the_op():
    with pytest.raises(tessera.Error, match="upcast: expected 2 arguments, got 1"):
        T.upcast("(4,8):(1,4)")
    with pytest.raises(tessera.Error, match="tile_to_shape"):
        T.tile_to_shape("(2,2):(1,2)", (4, 6), "diagonal")
