"""tessera: CuTe's layout algebra from Python, at C++ speed.

    >>> import tessera
    >>> L = tessera.Layout("(4,3):(1,8)")
    >>> print(tessera.composition(L, tessera.Layout("6:2")))
    (2,3):(2,8)

Layouts, every algebra op, swizzles, TiledMMA / TiledCopy partitions, `explain` and `analyze` are
the C++ library's own functions (tessera._tessera, nanobind); pictures are the page of `tessera
render`.
Every rejected operation raises tessera.Error (a ValueError) whose message names the rule and the
operands, as CuTe's rules say.
"""
from __future__ import annotations

from . import _tessera
from ._tessera import (  # noqa: F401
    CopyAtom, Error, Layout, MmaAtom, Swizzle, SwizzledLayout, TiledCopy, TiledMMA, View,
    blocked_product, complement, composition, cosize, crd2idx, depth, filter, flat_divide,
    flat_product, flatten, idx2crd, left_inverse, local_tile, logical_divide,
    logical_product, make_composed_layout, make_layout, make_layout_modes, make_swizzle,
    make_tiled_copy_A, make_tiled_copy_B, make_tiled_copy_C, make_tiled_copy_tv,
    parse_int_tuple, parse_tiler, raked_product, rank, right_inverse, tiled_divide,
    tiled_product, zipped_divide, zipped_product,
)
from ._cute_dsl import coalesce, make_tiled_mma, size  # noqa: F401  (CuTe DSL's keywords too)
from . import nvgpu  # noqa: F401  (CuTe DSL's copy operations)
from .nvgpu import make_copy_atom  # noqa: F401
from . import _pages, presets  # noqa: F401
from ._pages import draw_tv, render_op, to_latex  # noqa: F401
from ._attention import attention, attention_plan  # noqa: F401
from ._gemm import gemm  # noqa: F401
from ._scaled_mm import scaled_mm, scaled_mm_plan  # noqa: F401
from ._tiled import AccessReport, Explanation, Step, ThrCopy, ThrMMA, Trace  # noqa: F401

__version__ = "0.1.0"
__all__ = [
    "AccessReport", "ComposedLayout", "CopyAtom", "Error", "Explanation", "Layout", "MmaAtom",
    "Swizzle", "Step", "SwizzledLayout", "ThrCopy", "ThrMMA", "TiledCopy", "TiledMMA", "Trace",
    "View",
    "analyze", "attention", "attention_plan", "blocked_product", "coalesce", "complement",
    "composition", "cosize", "crd2idx",
    "depth", "draw_tv", "explain", "filter", "flat_divide", "flat_product", "flatten", "gemm",
    "idx2crd",
    "left_inverse", "local_tile", "logical_divide", "logical_product", "make_composed_layout",
    "make_copy_atom", "make_layout", "make_layout_modes", "make_swizzle", "make_tiled_copy_A",
    "make_tiled_copy_B", "make_tiled_copy_C", "make_tiled_copy_tv", "make_tiled_mma", "nvgpu",
    "parse_int_tuple", "parse_tiler", "presets", "raked_product", "rank", "render", "render_op",
    "right_inverse",
    "scaled_mm", "scaled_mm_plan", "size", "tiled_divide",
    "tiled_product", "to_latex", "trace", "zipped_divide", "zipped_product",
]
Error.__module__ = "tessera"
ComposedLayout = SwizzledLayout  # the CuTe DSL's name for Sw o offset o L


def render(obj: Layout | SwizzledLayout | TiledMMA | TiledCopy, path: str | None = None,
           thread: int | None = None) -> str:
    """The self-contained page `tessera render` writes (a Layout, a TiledMMA or a TiledCopy made
    by make_tiled_copy_tv); written to `path` when given. `thread` is selected when it opens.

    >>> page = render(Layout("(4,3):(1,4)"))
    >>> page.startswith("<!doctype html>") and "(4,3):(1,4)" in page
    True
    """
    page = _pages.page_of(obj, thread)
    if path is not None:
        with open(path, "w", encoding="utf-8") as f:
            f.write(page)
    return page


def explain(tiled_mma: TiledMMA, operand: str = "C", thread: int = 0,
            tensor: Layout | str | None = None) -> Explanation:
    """The five steps from an operand's tensor to one thread's fragment (`tessera explain`):
    .steps (each op and its layout), .offset + .fragment (the thread's values), .coords (the
    (row, col) of each value in the tile); str() is the CLI's text.

    >>> mma = make_tiled_mma("SM80_16x8x16_F32F16F16F32_TN", (2, 2, 1))
    >>> e = explain(mma, "C", 5)
    >>> e.offset, e.fragment, e.coords[:2]
    (18, Layout("((2,2),1,1):((1,128),512,16)"), [(1, 2), (1, 3)])
    """
    return Explanation(tiled_mma, operand, thread, tensor)


def trace(tiled_mma: TiledMMA | str, problem: tuple[int, int, int], A: Layout | str | None = None,
          B: Layout | str | None = None, C: Layout | str | None = None,
          cta: tuple[int, int] = (0, 0), thread: int = 0) -> Trace:
    """One thread of one CTA through a tiled GEMM on a problem (M, N, K), as `tessera trace`:
    `tiled_mma` a TiledMMA or a preset name ("step1", "step4", "hopper"); A, B, C layouts (or
    their text, or the letter of the contiguous mode; default A M-major, B N-major, C row-major).

    >>> t = trace("step4", (256, 256, 64))
    >>> t.grid, t.k_loop["k_tiles"]
    ((2, 2), 2)
    """
    if isinstance(tiled_mma, str):
        tiled_mma = _tessera._mma_preset(tiled_mma)
    return Trace(tiled_mma, problem, A, B, C, cta, thread)


def analyze(obj: TiledMMA | TiledCopy, operand: str | None = None,
            tensor: Layout | str | None = None, space: str = "global", access: str | None = None,
            elem_bits: int = 0, swizzle: Swizzle | str | None = None,
            max_vector_bits: int = 128) -> AccessReport:
    """Vector width, sectors and bank conflicts of a partition (`tessera analyze`).

    A TiledMMA's operand "C" (default), "A" or "B"; a TiledCopy's side "S" (default) or "D". The
    tensor defaults to the TiledMMA's operand tensor (the copy's tile); `swizzle` (a Swizzle or
    "Sw<B,M,S>") swizzles it; elem_bits 0 means 16 for f16/bf16 MMA A/B, else 32. The report is
    a dict (`tessera analyze --json`) whose str() is the CLI's text.

    >>> mma = make_tiled_mma("SM80_16x8x16_F32F16F16F32_TN", (2, 2, 1))
    >>> r = analyze(mma, "C")
    >>> r["vector_bits"], r.grade
    (64, 'ok')
    """
    if isinstance(obj, TiledMMA):
        return AccessReport(obj._analyze(operand or "C", tensor, space, access, elem_bits, swizzle,
                                         max_vector_bits))
    if isinstance(obj, TiledCopy):
        side = (operand or "S").upper()
        if side not in ("S", "D"):
            raise Error(f"analyze: side '{operand}' of a TiledCopy: expected \"S\" or \"D\"")
        return AccessReport(obj._analyze(side == "D", tensor, space, access, swizzle))
    raise TypeError(f"analyze: expected a TiledMMA or a TiledCopy, got {type(obj).__name__}")


# Methods written in Python, attached to the compiled classes.
TiledMMA.get_slice = lambda self, thread: ThrMMA(self, thread)
TiledMMA.get_slice.__doc__ = "One thread's view: get_slice(t).partition_C(tensor)."
TiledMMA.explain = explain
TiledMMA.analyze = analyze
TiledCopy.get_slice = lambda self, thread: ThrCopy(self, thread)
TiledCopy.analyze = analyze
for _cls in (Layout, SwizzledLayout, TiledMMA, TiledCopy):
    _cls._repr_html_ = _pages.repr_html
    _cls.to_html = render
    _cls.to_latex = _pages.to_latex
Layout.to_svg = _pages.layout_svg
SwizzledLayout.to_svg = _pages.layout_svg
TiledMMA.to_svg = _pages.partition_svg
TiledCopy.to_svg = lambda self, side="S", thread=None: _pages.partition_svg(self, side, thread)
del _cls
del annotations  # (the __future__ import's name: not part of the package)
