"""Pictures in notebooks: the page of `tessera render` inline, and a static SVG.

`_repr_html_` embeds the same self-contained page the CLI writes (styles, script and data inline, no
network) in an iframe, so its script and styles stay apart from the notebook's. Every number on
the page, and in the SVG, is computed by the library (tools/render.cpp); this file only draws.
"""
from __future__ import annotations

import colorsys
import html
import json

from . import _tessera

_IFRAME = ('<iframe srcdoc="{doc}" style="width:100%;height:{height}px;border:1px solid #d8dde3;'
           'border-radius:6px" sandbox="allow-scripts"></iframe>')


def iframe(page: str, height: int = 720) -> str:
    """A full HTML page as an isolated iframe for a notebook cell."""
    return _IFRAME.format(doc=html.escape(page, quote=True), height=height)


def page_of(obj, thread: int | None = None) -> str:
    """The page `tessera render` writes for a Layout, a TiledMMA or a TiledCopy."""
    t = -1 if thread is None else thread
    if isinstance(obj, _tessera.Layout):
        if thread is not None:
            raise _tessera.Error("render: a layout's page has no threads")
        return _tessera._layout_page(obj)
    if isinstance(obj, _tessera.TiledMMA):
        return _tessera._mma_page(obj, t)
    if isinstance(obj, _tessera.TiledCopy):
        return _tessera._copy_page(obj, t)
    raise TypeError(f"render: expected a Layout, a TiledMMA or a TiledCopy, got "
                    f"{type(obj).__name__}")


def repr_html(obj) -> str | None:
    """The notebook picture, or None (the text repr) when there is none: a layout too large for a
    picture, a TiledCopy made from a TiledMMA."""
    try:
        return iframe(page_of(obj), 520 if isinstance(obj, _tessera.Layout) else 900)
    except _tessera.Error:
        return None


# ------------------------------------------------------------------------------------------------
# SVG: one grid per picture, as CuTe's print_latex draws them.

_CELL = 28


def _thread_color(t: int) -> str:
    # Hues spread by the golden angle so neighbouring threads differ (as the page colors them).
    h = (t * 137.508) % 360 / 360
    r, g, b = colorsys.hls_to_rgb(h, 0.78, 0.65)
    return f"#{int(r * 255):02x}{int(g * 255):02x}{int(b * 255):02x}"


def _grid_svg(rows: int, cols: int, label, color, title: str, row_name="", col_name="") -> str:
    w, h = cols * _CELL, rows * _CELL
    pad = 26
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{w + pad + 2}" height="{h + pad + 22}" '
           f'font-family="monospace" font-size="9">',
           f'<text x="{pad}" y="12" font-size="12">{html.escape(title)}</text>',
           f'<g transform="translate({pad},{pad - 4})">']
    for r in range(rows):
        out.append(f'<text x="-4" y="{r * _CELL + _CELL / 2 + 3}" text-anchor="end">{r}</text>')
        for c in range(cols):
            x, y = c * _CELL, r * _CELL
            lines = label(r, c)
            out.append(f'<rect x="{x}" y="{y}" width="{_CELL}" height="{_CELL}" '
                       f'fill="{color(r, c)}" stroke="#555" stroke-width="0.5"/>')
            for k, text in enumerate(lines):
                dy = _CELL / 2 + 3 + (k - (len(lines) - 1) / 2) * 10
                out.append(f'<text x="{x + _CELL / 2}" y="{y + dy}" '
                           f'text-anchor="middle">{text}</text>')
    for c in range(cols):
        out.append(f'<text x="{c * _CELL + _CELL / 2}" y="-4" text-anchor="middle">{c}</text>')
    out.append(f'</g><text x="{pad}" y="{h + pad + 14}" font-size="10">rows: {row_name} columns: '
               f'{col_name}</text></svg>')
    return "".join(out)


_MAX_SVG_CELLS = 128 * 128


def _check_cells(rows: int, cols: int, what: str) -> None:
    if rows * cols > _MAX_SVG_CELLS:
        raise _tessera.Error(f"to_svg: {what} has {rows * cols} cells; the SVG is limited to "
                             f"{_MAX_SVG_CELLS} "
                             f"(use _repr_html_ / tessera.render for larger tiles)")


def layout_svg(layout) -> str:
    """A layout as its index table: mode 0 down, mode 1 across, each cell its offset."""
    d = json.loads(_tessera._layout_page_data(layout))
    rows, cols, values = d["rows"], d["cols"], d["values"]
    _check_cells(rows, cols, f"the layout {layout}")
    top = max(values) + 1 if values else 1
    return _grid_svg(rows, cols, lambda r, c: [str(values[r * cols + c])],
                     lambda r, c: _thread_color(values[r * cols + c] * 7919 % max(top, 1)),
                     str(layout), "mode 0", "mode 1")


def _one_thread_svg(g, thread: int) -> str:
    """One thread's cells of a picture, numbered by value index, on the grey tile: small for any
    tile, since only the thread's own cells are drawn."""
    rows, cols = g["rows"], g["cols"]
    cells = g["frags"][g["frag_of"][thread]]
    cell = _CELL if max(rows, cols) <= 32 else 12
    pad, w, h = 30, cols * cell, rows * cell
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{w + pad + 4}" height="{h + pad + 24}" '
           f'font-family="monospace" font-size="{9 if cell == _CELL else 7}">',
           f'<text x="{pad}" y="12" font-size="12">{html.escape(g["title"])}: thread {thread}, '
           f'{html.escape(g["layouts"][thread])}</text>',
           f'<g transform="translate({pad},{pad - 6})">',
           f'<rect width="{w}" height="{h}" fill="#eef0f3" stroke="#555" stroke-width="0.5"/>']
    step = 1 if rows <= 32 else 8
    for r in range(0, rows, step):
        out.append(f'<text x="-3" y="{r * cell + cell - 2}" text-anchor="end">{r}</text>')
    for c in range(0, cols, 1 if cols <= 32 else 8):
        out.append(f'<text x="{c * cell + 1}" y="-3">{c}</text>')
    color = _thread_color(thread)
    for v, idx in enumerate(cells):
        r, c = divmod(idx, cols)
        out.append(f'<rect x="{c * cell}" y="{r * cell}" width="{cell}" height="{cell}" '
                   f'fill="{color}" stroke="#333" stroke-width="0.4"/>')
        out.append(f'<text x="{c * cell + cell / 2}" y="{r * cell + cell / 2 + 3}" '
                   f'text-anchor="middle">{v}</text>')
    out.append(f'</g><text x="{pad}" y="{h + pad + 14}" font-size="10">rows: {g["row_name"]}, '
               f'columns: {g["col_name"]}; numbers: the value index in the thread\'s '
               f'fragment</text></svg>')
    return "".join(out)


def partition_svg(obj, operand: str = "C", thread: int | None = None) -> str:
    """A TiledMMA operand (C, A or B) or a TiledCopy side (S or D): each cell its owning thread and
    value index, colored by thread, as CuTe's print_latex; with `thread`, only that thread's cells
    (numbered by value index), which stays small for any tile."""
    if isinstance(obj, _tessera.TiledMMA):
        d = json.loads(_tessera._mma_page_data(obj))
        index = "CAB".index(operand.upper()) if operand.upper() in "CAB" else -1
    else:
        d = json.loads(_tessera._copy_page_data(obj))
        index = "SD".index(operand.upper()) if operand.upper() in ("S", "D") else -1
    if index < 0 or len(operand) != 1:
        raise _tessera.Error(f"to_svg: operand '{operand}': expected one of "
                             f"{'C, A, B' if isinstance(obj, _tessera.TiledMMA) else 'S, D'}")
    g = d["operands"][index]
    if thread is not None:
        if not 0 <= thread < d["threads"]:
            raise _tessera.Error(f"to_svg: thread {thread} is outside [0, {d['threads']})")
        return _one_thread_svg(g, thread)
    rows, cols = g["rows"], g["cols"]
    _check_cells(rows, cols, g["title"])
    owner, value = g["owner"], g["value"]
    return _grid_svg(rows, cols,
                     lambda r, c: [f"T{owner[r * cols + c]}", f"V{value[r * cols + c]}"],
                     lambda r, c: _thread_color(owner[r * cols + c]), g["title"], g["row_name"],
                     g["col_name"])
