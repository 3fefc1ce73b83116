#!/usr/bin/env python3
"""`tessera render --layout ... --colour value|bank|tile -o FILE.svg`: a layout's SVG coloured
by the shared-memory bank of each offset or by the tiles of a tiler, checked against banks and
tiles computed here from the definitions (no browser).

Usage: picture_colours_cli.py TESSERA_EXE [WORK_DIR]
  - Sw<3,4,3> o (8,64):(64,1) by bank (16-bit elements): cell (r, c) holds Sw(64 r + c), Sw(o) =
    o XOR ((o & 0b111_0000000) >> 3), its bank floor(Sw(o) * 16 / 32) mod 32; two cells share a
    fill exactly when they share that bank, and rows 0 and 2 differ (the XOR of row pair 1);
    at --elem-bits 32 the bank is Sw(o) mod 32;
  - (8,16):(16,1) by the tiles of (2,4): cell (r, c) lies in tile r/2 + 4 (c/4) (zipped_divide's
    rest mode, column-major): 16 fills, shared exactly within a tile; the legend names the tiler;
  - by value (the default): CuTe's 8 greys, unchanged;
  - the flag errors (tile without a tiler, a tiler that does not fit, a colour for LaTeX).
"""
import os
import subprocess
import sys
import xml.etree.ElementTree as ET

from page_checks import check, failures, same_partition, work_dir

exe = os.path.abspath(sys.argv[1])
work = work_dir(2)
NS = "{http://www.w3.org/2000/svg}"


def render(name, *flags):
    """The SVG's root, or None (a failed check) when render fails."""
    out = os.path.join(work, name + ".svg")
    p = subprocess.run([exe, "render", *flags, "-o", out], capture_output=True, text=True)
    if p.returncode != 0:
        check(False, f"render {flags}: {p.stderr.strip()}")
        return None
    return ET.parse(out).getroot()


def fills(doc, rows, cols):
    """The cells' fills, row-major (the labelled grid: one <rect> per cell, rows in order)."""
    cells = doc.find(f"{NS}g/{NS}g[@class='cells']")
    rects = cells.findall(f"{NS}rect") if cells is not None else []
    check(len(rects) == rows * cols, f"{rows} x {cols} cells drawn ({len(rects)})")
    return [r.get("fill") for r in rects]


def legend(doc):
    g = doc.find(f"{NS}g[@class='legend']")
    return " ".join(t.text or "" for t in g.iter(f"{NS}text")) if g is not None else ""


def sw(o):  # Sw<3,4,3>: bits 7..9 XORed into bits 4..6
    return o ^ ((o & (7 << 7)) >> 3)


# 1. A swizzled layout by bank.
layout = "Sw<3,4,3> o (8,64):(64,1)"
for bits in (16, 32):
    flags = ["--layout", layout, "--colour", "bank"] + (["--elem-bits", "32"] if bits == 32 else [])
    doc = render(f"bank{bits}", *flags)
    if doc is None:
        continue
    got = fills(doc, 8, 64)
    banks = [(sw(64 * r + c) * bits // 32) % 32 for r in range(8) for c in range(64)]
    check(same_partition(got, banks),
          f"{layout} by bank at {bits} bits: cells share a fill exactly when they share the bank "
          "of Sw(64 r + c)")
    check(got[0:64] != got[128:192] and got[0:64] == got[64:128],
          f"{layout} by bank at {bits} bits: rows 0 and 1 alike, row 2 differs (the XOR)")
    check(f"bank of the offset (offset * {bits} bits / 32 mod 32)" in legend(doc),
          f"{layout} by bank: the legend says what the colour is ({legend(doc)[:90]})")

# 2. A layout by the tiles of a tiler.
doc = render("tile", "--layout", "(8,16):(16,1)", "--colour", "tile", "--tiler", "(2,4)")
if doc is not None:
    got = fills(doc, 8, 16)
    tiles = [r // 2 + 4 * (c // 4) for r in range(8) for c in range(16)]
    check(same_partition(got, tiles) and len(set(got)) == 16,
          "(8,16):(16,1) by the tiles of (2,4): 16 fills, cell (r, c) in tile r/2 + 4 (c/4)")
    check("the tile of the tiler (2,4)" in legend(doc) and "16 in all" in legend(doc),
          f"by tile: the legend names the tiler and the tiles ({legend(doc)[:90]})")

# 3. By value: CuTe's greys (value mod 8), as before.
doc = render("value", "--layout", "(8,16):(16,1)")
if doc is not None:
    got = fills(doc, 8, 16)
    check(same_partition(got, [(16 * r + c) % 8 for r in range(8) for c in range(16)]),
          "(8,16):(16,1) by value: 8 greys, by offset mod 8")

# 4. Flag errors.
for args, msg in [
        (["--layout", "(8,16):(16,1)", "--colour", "tile"], "needs the tiler"),
        (["--layout", "(8,16):(16,1)", "--colour", "tile", "--tiler", "(2,4,3)"],
         "the tiler (2,4,3) (colour by tile) of the layout (8,16):(16,1)"),
        (["--layout", "(8,16):(16,1)", "--colour", "bank", "--elem-bits", "12"],
         "not a power of two"),
        (["--layout", "(8,16):(16,1)", "--colour", "bank", "--format", "tikz"],
         "coloured as CuTe's print_latex")]:
    p = subprocess.run([exe, "render", *args, "-o", os.path.join(work, "x.svg")],
                       capture_output=True, text=True)
    check(p.returncode != 0 and msg in p.stderr, f"render {args}: {p.stderr.strip()}")

print(f"picture_colours_cli: {len(failures)} failures")
sys.exit(1 if failures else 0)
