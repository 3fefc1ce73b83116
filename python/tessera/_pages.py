"""Pictures: the page of `tessera render`, SVG and LaTeX/TikZ, and the notebook's static picture.

Every number and every picture is the library's (tools/render.cpp, tools/grid_picture.hpp,
tools/latex.hpp: the same code as `tessera render --format svg|tikz`); this file picks them.
"""
from __future__ import annotations

import colorsys
import html
import json

from . import _tessera

def page_of(obj, thread: int | None = None) -> str:
    """The page `tessera render` writes for a Layout, a TiledMMA or a TiledCopy."""
    t = -1 if thread is None else thread
    if isinstance(obj, (_tessera.Layout, _tessera.SwizzledLayout)):
        if thread is not None:
            raise _tessera.Error("render: a layout's page has no threads")
        return _tessera._layout_page(obj)
    if isinstance(obj, _tessera.TiledMMA):
        return _tessera._mma_page(obj, t)
    if isinstance(obj, _tessera.TiledCopy):
        return _tessera._copy_page(obj, t)
    raise TypeError(f"render: expected a Layout, a TiledMMA or a TiledCopy, got "
                    f"{type(obj).__name__}")


# ------------------------------------------------------------------------------------------------
# Notebook pictures: static SVG (the package carries no WebAssembly), said so in the picture, with
# no inputs; each SVG scales to the cell's width (no iframe, no inner scrollbar).

_NOTE = ('<div style="font:12px sans-serif;color:#555;margin:2px 0 6px">Static picture (no '
         'inputs). For the interactive page: <code>tessera.render(x, "page.html")</code>; for '
         'slides: <code>x.to_svg()</code>, <code>tessera.to_latex(x)</code>.</div>')
_FIT = '<div style="max-width:100%">{svg}</div>'
# Grids above this many cells are drawn without labels (one path per colour): a notebook cell
# stays small for a 128 x 128 tile.
_NOTEBOOK_LABEL_CELLS = 32 * 32


def _fit(svg: str) -> str:
    return _FIT.format(svg=svg.replace("<svg ", '<svg style="max-width:100%;height:auto" ', 1))


def repr_html(obj) -> str | None:
    """The notebook picture, or None (the text repr) when there is none: a layout too large for a
    picture, a TiledCopy made from a TiledMMA."""
    try:
        if isinstance(obj, (_tessera.Layout, _tessera.SwizzledLayout)):
            rows, cols = _layout_cells(obj)
            if rows * cols > _MAX_SVG_CELLS:
                return None
            svgs = [_tessera._layout_svg(obj)]
        else:
            count = 3 if isinstance(obj, _tessera.TiledMMA) else 2
            svgs = [_tessera._partition_svg(obj, i, _NOTEBOOK_LABEL_CELLS) for i in range(count)]
    except _tessera.Error:
        return None
    pictures = "".join(_fit(svg) for svg in svgs)
    name = str(obj)
    if isinstance(obj, _tessera.TiledMMA) and obj.name not in name:  # a preset's own name first
        name = f"{obj.name}: {name}"
    name = html.escape(name)
    return (f'<div class="tessera-picture" style="max-width:100%">'
            f'<div style="font:13px monospace">{name}</div>{_NOTE}'
            f'<div style="display:flex;flex-wrap:wrap;gap:12px;align-items:flex-start">'
            f'{pictures}</div></div>')


class OpPicture(str):
    """An algebra op's SVG (a str), shown in a notebook as the static picture."""

    def _repr_html_(self) -> str:
        return (f'<div class="tessera-picture" style="max-width:100%">{_NOTE}'
                f'{_fit(str(self))}</div>')


def _word(x) -> str:
    """A Python value as the op's verb takes it: a string as typed, a Layout as its notation, a
    tuple as CuTe's tuple (None for `_`)."""
    if isinstance(x, str):
        return x
    if x is None:
        return "_"
    if isinstance(x, (tuple, list)):
        return "(" + ",".join(_word(e) for e in x) + ")"
    return str(x)


def render_op(op: str, *operands: "Layout | tuple | int | str") -> OpPicture:
    """An algebra op drawn as `tessera render --op OP --args ...` draws it: its inputs beside its
    result, the tiles (divides), copies (products) or the composed path coloured alike across the
    pictures. Returns the SVG (a str; in a notebook, the picture). The operands are the op's
    arguments, as Layouts, tuples, integers or their notation.

    >>> svg = render_op("logical_divide", Layout("(8,16):(16,1)"), (2, 4))
    >>> svg.startswith("<svg") and 'data-role="input"' in svg and 'data-role="result"' in svg
    True
    """
    return OpPicture(_tessera._op_svg(op, [_word(a) for a in operands]))


# ------------------------------------------------------------------------------------------------
# SVG: one grid per picture, as CuTe's print_latex draws them.

_CELL = 28
_MAX_SVG_CELLS = 128 * 128


def _thread_color(t: int) -> str:
    # Hues spread by the golden angle so neighbouring threads differ (as the page colors them).
    h = (t * 137.508) % 360 / 360
    r, g, b = colorsys.hls_to_rgb(h, 0.78, 0.65)
    return f"#{int(r * 255):02x}{int(g * 255):02x}{int(b * 255):02x}"


def _check_cells(rows: int, cols: int, what: str) -> None:
    if rows * cols > _MAX_SVG_CELLS:
        raise _tessera.Error(f"to_svg: {what} has {rows * cols} cells; the SVG is limited to "
                             f"{_MAX_SVG_CELLS} "
                             f"(use _repr_html_ / tessera.render for larger tiles)")


def _product(shape) -> int:
    if isinstance(shape, int):
        return shape
    out = 1
    for s in shape:
        out *= _product(s)
    return out


def _layout_cells(layout) -> tuple[int, int]:
    """The picture's rows and columns: mode 0 down, the rest across (CuTe's print_layout)."""
    plain = layout.layout if isinstance(layout, _tessera.SwizzledLayout) else layout
    shape = plain.shape
    rows = _product(shape[0] if isinstance(shape, tuple) else shape)
    return rows, _product(shape) // max(rows, 1)


def layout_svg(layout: _tessera.Layout | _tessera.SwizzledLayout) -> str:
    """A layout (or a swizzled layout) as its index table, titled by its notation: mode 0 down,
    the rest across, each cell its offset, with ticks and a legend (grid_picture.hpp).

    >>> svg = Layout("(2,3):(3,1)").to_svg()
    >>> svg.startswith("<svg") and ">(2,3):(3,1)</text>" in svg
    True
    """
    rows, cols = _layout_cells(layout)
    _check_cells(rows, cols, f"the layout {layout}")
    return _tessera._layout_svg(layout)


def _tile_of(tile) -> tuple[int, int]:
    if isinstance(tile, str) and "x" in tile:
        tile = tuple(int(t) for t in tile.split("x"))
    if not (isinstance(tile, (tuple, list)) and len(tile) == 2
            and all(isinstance(t, int) for t in tile)):
        raise _tessera.Error(f"a TV layout's tile is (M, N), two integers, got {tile!r}")
    return int(tile[0]), int(tile[1])


def draw_tv(tv_layout: _tessera.Layout | str, tile: tuple[int, int] | str) -> str:
    """A TV layout (thread, value) -> index of the tile (M, N) as SVG, as PyCuTe's draw_svg_tv and
    CuTe's print_latex_tv: each cell T<thread> V<value> (the first pair reaching it), coloured by
    thread; index i is the cell (i mod M, i div M).

    >>> svg = draw_tv("(4,2):(2,1)", (2, 4))
    >>> svg.count(">T3</text>"), svg.count(">V1</text>")
    (2, 4)
    """
    rows, cols = _tile_of(tile)
    _check_cells(rows, cols, f"the {rows}x{cols} tile")
    return _tessera._tv_svg(tv_layout, rows, cols)


def to_latex(obj: _tessera.Layout | _tessera.SwizzledLayout | _tessera.TiledMMA
             | _tessera.TiledCopy | str, tile: tuple[int, int] | None = None) -> str:
    r"""A standalone LaTeX/TikZ document, as CuTe's print_latex writes it (tools/latex.hpp): a
    Layout or SwizzledLayout (cells its offsets, greys by offset mod 8), a TV layout with its tile
    (M, N) (cells T#V#, coloured by thread), a TiledMMA (A left of C, B above it) or a TiledCopy
    (S and D). `pdflatex` compiles it alone.

    >>> tex = to_latex(Layout("(2,3):(3,1)"))
    >>> tex.startswith("% Layout: (2,3):(3,1)") and "\\node[fill=black!60] at (1,0) {3};" in tex
    True
    """
    if tile is not None:
        rows, cols = _tile_of(tile)
        return _tessera._tv_latex(obj, rows, cols)
    if isinstance(obj, (_tessera.TiledMMA, _tessera.TiledCopy)):
        return _tessera._partition_latex(obj)
    if isinstance(obj, (_tessera.Layout, _tessera.SwizzledLayout, str)):
        return _tessera._layout_latex(obj)
    raise TypeError(f"to_latex: expected a Layout, a SwizzledLayout, a TV layout and its tile, a "
                    f"TiledMMA or a TiledCopy, got {type(obj).__name__}")


def _one_thread_svg(g, thread: int) -> str:
    """One thread's cells of a picture, numbered by value index, on the grey tile: small for any
    tile, since only the thread's own cells are drawn. The viewBox holds the title and the footer
    (0.6 em per monospace character)."""
    rows, cols = g["rows"], g["cols"]
    cells = g["frags"][g["frag_of"][thread]]
    cell = _CELL if max(rows, cols) <= 32 else 12
    pad, top, w, h = 34, 44, cols * cell, rows * cell
    title = f'{g["title"]}: thread {thread}, {g["layouts"][thread]}'
    foot = (f'rows: {g["row_name"]}, columns: {g["col_name"]}; numbers: the value index in the '
            f"thread's fragment")
    width = int(max(pad + w + 8, 16 + 0.6 * 13 * len(title), 16 + 0.6 * 11 * len(foot))) + 1
    height = top + h + 30
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {height}" '
           f'width="{width}" height="{height}" font-family="monospace" '
           f'font-size="{9 if cell == _CELL else 7}">',
           f'<rect width="{width}" height="{height}" fill="#fff"/>',
           f'<text class="title" x="8" y="18" font-size="13">{html.escape(title)}</text>',
           f'<g transform="translate({pad},{top})">',
           f'<rect width="{w}" height="{h}" fill="#eef0f3" stroke="#555" stroke-width="0.5"/>']
    step = 1 if rows <= 32 else 8
    for r in range(0, rows, step):
        out.append(f'<text x="-4" y="{r * cell + cell - 2}" text-anchor="end">{r}</text>')
    for c in range(0, cols, 1 if cols <= 32 else 8):
        out.append(f'<text x="{c * cell + cell / 2}" y="-5" text-anchor="middle">{c}</text>')
    color = _thread_color(thread)
    for v, idx in enumerate(cells):
        r, c = divmod(idx, cols)
        out.append(f'<rect x="{c * cell}" y="{r * cell}" width="{cell}" height="{cell}" '
                   f'fill="{color}" stroke="#333" stroke-width="0.4"/>')
        out.append(f'<text x="{c * cell + cell / 2}" y="{r * cell + cell / 2 + 3}" '
                   f'text-anchor="middle">{v}</text>')
    out.append(f'</g><text x="8" y="{top + h + 20}" font-size="11">{html.escape(foot)}</text>'
               f'</svg>')
    return "".join(out)


def partition_svg(obj, operand: str = "C", thread: int | None = None) -> str:
    """A TiledMMA operand (C, A or B) or a TiledCopy side (S or D): each cell its owning thread and
    value index (T#V#), coloured by thread as CuTe's print_latex, with ticks and a legend; with
    `thread`, only that thread's cells (numbered by value index), which stays small for any tile.
    """
    mma = isinstance(obj, _tessera.TiledMMA)
    names = "CAB" if mma else "SD"
    side = operand.upper()
    if len(side) != 1 or side not in names:
        raise _tessera.Error(f"to_svg: operand '{operand}': expected one of "
                             f"{'C, A, B' if mma else 'S, D'}")
    index = names.index(side)
    d = json.loads(_tessera._mma_page_data(obj) if mma else _tessera._copy_page_data(obj))
    g = d["operands"][index]
    if thread is None:
        _check_cells(g["rows"], g["cols"], g["title"])
        return _tessera._partition_svg(obj, index, _MAX_SVG_CELLS)
    if not 0 <= thread < d["threads"]:
        raise _tessera.Error(f"to_svg: thread {thread} is outside [0, {d['threads']})")
    return _one_thread_svg(g, thread)
