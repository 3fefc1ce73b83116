"""Thread slices, explain and analyze results: the thin Python layer over TiledMMA and TiledCopy.

    thr_mma = tiled_mma.get_slice(0)         # as in the CuTe DSL
    tCgC = thr_mma.partition_C(gC)           # View: offset + (FrgV,RestM,RestN) layout
"""
from __future__ import annotations

import json
from dataclasses import dataclass

from typing import TYPE_CHECKING

from . import _tessera

if TYPE_CHECKING:  # the stub's names, for the annotations help() shows
    from . import IntTuple, Layout, View


class ThrMMA:
    """One thread's view of a TiledMMA (CuTe's ThrMMA, from `tiled_mma.get_slice(thread)`)."""

    def __init__(self, tiled_mma, thread: int):
        tiled_mma.thread_vmnk(thread)  # the range check, with the library's message
        self.tiled_mma, self.thread = tiled_mma, thread

    def partition_C(self, tensor: Layout | View | str | IntTuple) -> View:
        """This thread's part of the C tensor (M,N): (FrgV,RestM,RestN) from its offset; the tensor
        a Layout, a tile (View, its offset kept) or a shape (its compact layout).

        >>> mma = make_tiled_mma("SM80_16x8x16_F32F16F16F32_TN", (2, 2, 1))
        >>> mma.get_slice(5).partition_C(Layout("(32,32):(32,1)"))
        View(34, "((2,2),1,2):((1,256),0,16)")
        """
        return self.tiled_mma.partition_C(tensor, self.thread)

    def partition_A(self, tensor: Layout | View | str | IntTuple) -> View:
        """This thread's part of the A tensor (M,K): (FrgV,RestM,RestK), as partition_C.

        >>> mma = make_tiled_mma("SM80_16x8x16_F32F16F16F32_TN", (2, 2, 1))
        >>> mma.get_slice(5).partition_A((32, 16))
        View(65, "((2,2,2),1,1):((32,8,256),0,0)")
        """
        return self.tiled_mma.partition_A(tensor, self.thread)

    def partition_B(self, tensor: Layout | View | str | IntTuple) -> View:
        """This thread's part of the B tensor (N,K): (FrgV,RestN,RestK), as partition_C.

        >>> mma = make_tiled_mma("SM80_16x8x16_F32F16F16F32_TN", (2, 2, 1))
        >>> mma.get_slice(5).partition_B((32, 16))
        View(65, "((2,2),2,1):((32,256),16,0)")
        """
        return self.tiled_mma.partition_B(tensor, self.thread)

    def __repr__(self):
        return f"ThrMMA(thread {self.thread} of {self.tiled_mma!r})"


class ThrCopy:
    """One thread's view of a TiledCopy (CuTe's ThrCopy, from `tiled_copy.get_slice(thread)`)."""

    def __init__(self, tiled_copy, thread: int):
        self.tiled_copy, self.thread = tiled_copy, thread

    def partition_S(self, tensor: Layout | View | str | IntTuple) -> View:
        """This thread's part of the copy's source tensor: (CopyV,RestM,RestN) from its offset;
        the tensor a Layout, a tile (View, its offset kept) or a shape (its compact layout).

        >>> copy = make_tiled_copy_tv(CopyAtom("universal:128", 16), Layout("(32,8):(8,1)"), (1, 8))
        >>> copy.get_slice(3).partition_S(Layout("(32,64):(64,1)"))
        View(24, "((8,1),1,1):((1,0),0,0)")
        """
        return self.tiled_copy.partition_S(tensor, self.thread)

    def partition_D(self, tensor: Layout | View | str | IntTuple) -> View:
        """This thread's part of the copy's destination tensor, as partition_S.

        >>> copy = make_tiled_copy_tv(CopyAtom("universal:128", 16), Layout("(32,8):(8,1)"), (1, 8))
        >>> copy.get_slice(3).partition_D((32, 64))
        View(768, "((8,1),1,1):((32,0),0,0)")
        """
        return self.tiled_copy.partition_D(tensor, self.thread)

    def retile_S(self, fragment: Layout | str | IntTuple) -> Layout:
        """A register fragment regrouped in the copy's value order (CuTe's retile_S).

        >>> copy = make_tiled_copy_tv(CopyAtom("universal:128", 16), Layout("(32,8):(8,1)"), (1, 8))
        >>> copy.get_slice(0).retile_S(Layout("(8,1,1):(1,0,0)"))
        Layout("((8,1),1,1):((1,0),0,0)")
        """
        return self.tiled_copy.retile(fragment)

    def retile_D(self, fragment: Layout | str | IntTuple) -> Layout:
        """A register fragment regrouped in the copy's value order (CuTe's retile_D).

        >>> copy = make_tiled_copy_tv(CopyAtom("universal:128", 16), Layout("(32,8):(8,1)"), (1, 8))
        >>> copy.get_slice(0).retile_D(Layout("(8,1,1):(1,0,0)"))
        Layout("((8,1),1,1):((1,0),0,0)")
        """
        return self.tiled_copy.retile(fragment)

    def __repr__(self):
        return f"ThrCopy(thread {self.thread} of {self.tiled_copy!r})"


@dataclass(frozen=True)
class Step:
    name: str    # the algebra op of this step
    what: str    # what it does, with the modes it produces
    layout: object


class Explanation:
    """How one thread's fragment of an operand is derived: `tessera explain`'s five steps."""

    def __init__(self, tiled_mma, operand: str, thread: int, tensor=None):
        d = json.loads(tiled_mma._explain_json(operand, thread, tensor))
        self.operand, self.thread = d["operand"], d["thread"]
        self.tensor = _tessera.Layout(d["tensor"])
        self.thread_vmnk = _tessera.parse_int_tuple(d["thread_vmnk"])
        self.steps = [Step(s["name"], s["what"], _tessera.Layout(s["layout"])) for s in d["steps"]]
        self.offset = d["offset"]
        self.fragment = _tessera.Layout(d["fragment"])
        self.coords = [tuple(c) for c in d["coords"]]  # (row, col) in the CTA tile, fragment order
        self._text = tiled_mma.explain_text(operand, thread, tensor)

    def __str__(self):
        return self._text

    def __repr__(self):
        return f"Explanation({self.operand}, thread {self.thread}: {self.offset} + {self.fragment})"


class AccessReport(dict):
    """The memory-access analysis of a partition (`tessera analyze --json`'s "analysis" object);
    str() is the CLI's text. Keys: vector_bits, instructions_per_thread, global{...},
    shared{...}, grade, verdict, ..."""

    def __init__(self, pair):
        super().__init__(json.loads(pair[0]))
        self._text = pair[1]

    def __str__(self):
        return self._text

    @property
    def verdict(self) -> str:
        return self["verdict"]

    @property
    def grade(self) -> str:
        return self["grade"]


def _with_layouts(v):
    """The trace's JSON with every "layout" string read as a Layout."""
    if isinstance(v, dict):
        return {k: _tessera.Layout(x) if k == "layout" and isinstance(x, str) else _with_layouts(x)
                for k, x in v.items()}
    if isinstance(v, list):
        return [_with_layouts(x) for x in v]
    return v


class Trace:
    """One thread of one CTA through a tiled GEMM on a problem (`tessera trace`): the grid, the
    CTA's local_tiles, the thread's partitions on the problem's strides, its register fragments,
    the K-loop's counts, the epilogue and the predicates. Layout fields are Layouts; str() is the
    CLI's text."""

    def __init__(self, tiled_mma, problem, A=None, B=None, C=None, cta=(0, 0), thread=0):
        def text(layout):
            return "" if layout is None else layout if isinstance(layout, str) else str(layout)

        m, n, k = problem
        j, self._text = tiled_mma._trace_json(m, n, k, text(A), text(B), text(C), cta[0], cta[1],
                                              thread)
        d = json.loads(j)
        self.fields = d  # the JSON of `tessera trace --json`
        self.config, self.thread = d["config"], d["thread"]
        self.problem, self.grid, self.cta = tuple(d["problem"]), tuple(d["grid"]), tuple(d["cta"])
        self.layouts = {op: _tessera.Layout(x) for op, x in d["layouts"].items()}
        self.local_tile = _with_layouts(d["local_tile"])
        self.partitions = _with_layouts(d["partitions"])
        self.fragments = _with_layouts(d["fragments"])
        self.k_loop, self.epilogue, self.predicates = d["k_loop"], d["epilogue"], d["predicates"]

    def __str__(self):
        return self._text
