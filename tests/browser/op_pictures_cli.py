#!/usr/bin/env python3
"""`tessera render --op ... -o FILE.svg`: an algebra op's inputs and result, the cells grouped by
tile, checked against tiles computed here from the definitions (no browser).

Usage: op_pictures_cli.py TESSERA_EXE [WORK_DIR]
  - logical_divide((8,16):(16,1), (2,4)): 16 tile groups in the result; tile (i, j) (i + 4 j,
    the rest mode's column-major index) holds exactly A's values at rows 2i..2i+1, columns
    4j..4j+3, and sits there in A's picture; the (tile, rest) picture has tile k in column k;
  - zipped_divide(24:1 as (4,6):(1,4), 4:2): tile k0 + 2 k1 holds 2a + k0 + 8 k1;
  - blocked_product and raked_product((2,2):(1,2), (2,3):(1,2)): copy k holds 4k..4k+3, as a 2x2
    block (blocked) or spread over the rows and columns (raked);
  - logical_product by mode: copy (k0, k1) where the result's coordinate has b = (k0, k1);
  - composition: every result cell's value is the value of A's cell it is tagged with;
  - swizzle 3 4 3: the 8 x 128 block before and after, the values Sw<3,4,3>(o) and the tags the
    offset's bits 4..6: before, every row alike; after, row r the XOR of row 0 with r;
  - complement(4:2, 16): copy k of A at offset R(k), the codomain 0..15 covered;
  - the axes and the legend, as the page's export: every picture's column ticks sit over the
    cells of their column and its row ticks left of their row, from 0 by one power-of-two step
    to the last index; a legend says what the colours, lines and numbers are, with swatches in
    the tiles' colours; every text and rect lies inside the viewBox (text by its width at 0.6 em
    per character);
  - --colour bank: swizzle 3 4 3's cells coloured by the 4-byte bank of Sw<3,4,3>(o) at 16 bits,
    computed here: cells share a fill exactly when they share a bank; --colour value: one fill
    per value;
  - the flag errors.
"""
import os
import subprocess
import sys
import xml.etree.ElementTree as ET

from page_checks import check, failures, work_dir

exe = os.path.abspath(sys.argv[1])
work = work_dir(2)
NS = "{http://www.w3.org/2000/svg}"


def svg(op, *args, flags=(), root=False):
    out = os.path.join(work, op + "".join(flags) + ".svg")
    p = subprocess.run([exe, "render", "--op", op, "--args", *args, *flags, "-o", out],
                       capture_output=True, text=True)
    if p.returncode != 0:
        check(False, f"render --op {op} {args}: {p.stderr.strip()}")
        return None if root else []
    doc = ET.parse(out).getroot()
    return doc if root else doc.findall(f"{NS}g[@class='picture']")


def cells(pic):
    """{tile: [(row, col, value)]} (tile -1: untagged)."""
    out = {}
    for g in pic:
        if g.tag != f"{NS}g":
            continue
        k = int(g.get("data-tile")) if g.get("class") == "tile" else -1
        for r in g.findall(f"{NS}rect"):
            out.setdefault(k, []).append(
                (int(r.get("data-row")), int(r.get("data-col")), int(r.get("data-value"))))
    return out


def values(cs):
    return sorted(v for _, _, v in cs)


# 1. logical_divide: 16 tiles of 2 x 4.
pics = svg("logical_divide", "(8,16):(16,1)", "(2,4)")
roles = [p.get("data-role") for p in pics]
check(roles.count("input") == 2 and roles.count("result") == 2,
      f"logical_divide: A and the tiler as inputs, the result and (tile, rest) ({roles})")
if len(pics) == 4:
    a, tiler, res, zipped = (cells(p) for p in pics)
    check(len(res) == 16 and -1 not in res, f"logical_divide: 16 tile groups ({len(res)})")
    ok = ok_a = True
    for i in range(4):
        for j in range(4):
            k = i + 4 * j
            want = sorted(16 * r + c for r in range(2 * i, 2 * i + 2)
                          for c in range(4 * j, 4 * j + 4))
            ok &= values(res.get(k, [])) == want
            ok_a &= sorted((r, c) for r, c, _ in a.get(k, [])) == sorted(
                (r, c) for r in range(2 * i, 2 * i + 2) for c in range(4 * j, 4 * j + 4))
    check(ok, "logical_divide: tile (i, j) of the result holds A(2i..2i+1, 4j..4j+3)")
    check(ok_a, "logical_divide: tile (i, j) of A is its 2 x 4 block at (2i, 4j)")
    check(len(tiler) == 1 and len(tiler[0]) == 8, "logical_divide: the tiler is one 2 x 4 tile")
    check(all(c == k for k, cs in zipped.items() for _, c, _ in cs) and len(zipped) == 16,
          "logical_divide: (tile, rest) has tile k in column k")
    bound = pics[2].find(f"{NS}path[@class='boundary']")
    check(bound is not None and bound.get("d", "").count("M") > 0,
          "logical_divide: the tile boundaries are drawn")

# 2. zipped_divide by a layout tiler.
pics = svg("zipped_divide", "(4,6):(1,4)", "4:2")
if len(pics) == 3:
    res = cells(pics[2])
    want = {k0 + 2 * k1: sorted(2 * a + k0 + 8 * k1 for a in range(4))
            for k0 in range(2) for k1 in range(3)}
    check({k: values(c) for k, c in res.items()} == want,
          "zipped_divide 4:2: tile k0 + 2 k1 holds 2a + k0 + 8 k1")
else:
    check(False, f"zipped_divide: A, the tiler and the result ({len(pics)} pictures)")

# 3. blocked and raked products: copy k holds 4k..4k+3.
for op in ("blocked_product", "raked_product"):
    pics = svg(op, "(2,2):(1,2)", "(2,3):(1,2)")
    if len(pics) != 3:
        check(False, f"{op}: A, B and the result ({len(pics)} pictures)")
        continue
    res, b = cells(pics[2]), cells(pics[1])
    check(len(res) == 6 and all(values(res[k]) == list(range(4 * k, 4 * k + 4)) for k in res),
          f"{op}: 6 copies, copy k holds 4k..4k+3")
    check(sorted(b) == list(range(6)), f"{op}: B's element k tagged copy k")
    k0, k1 = 1, 2  # copy 5
    where = sorted((r, c) for r, c, _ in res.get(k0 + 2 * k1, []))
    want = (sorted((r, c) for r in (2 * k0, 2 * k0 + 1) for c in (2 * k1, 2 * k1 + 1))
            if op == "blocked_product" else
            sorted((r, c) for r in (k0, k0 + 2) for c in (k1, k1 + 3)))
    check(where == want, f"{op}: copy 5 at {where} (expected {want})")

# By mode: logical_product((2,3):(1,2), (2,2)) = ((2,2),(3,2)): copy (k0, k1) holds the result's
# rows a0 + 2 k0 and columns a1 + 3 k1.
pics = svg("logical_product", "(2,3):(1,2)", "(2,2)")
if len(pics) == 3:
    res = cells(pics[2])
    check(all(sorted((r, c) for r, c, _ in res.get(k0 + 2 * k1, [])) ==
              sorted((a0 + 2 * k0, a1 + 3 * k1) for a0 in range(2) for a1 in range(3))
              for k0 in range(2) for k1 in range(2)) and len(res) == 4,
          "logical_product by mode: copy (k0, k1) at rows 2 k0.., columns 3 k1..")
else:
    check(False, f"logical_product: A, B and the result ({len(pics)} pictures)")

# 4. composition: a result cell holds the value of the element of A it is tagged with.
pics = svg("composition", "(8,16):(16,1)", "(4,2):(2,1)")
if len(pics) == 3:
    a, res = cells(pics[0]), cells(pics[2])
    a_value = {k: cs[0][2] for k, cs in a.items()}
    check(len(a) == 128 and all(len(cs) == 1 for cs in a.values()),
          "composition: each element of A its own tag")
    check(len(res) == 8 and all(v == a_value[k] for k, cs in res.items() for _, _, v in cs),
          "composition: R(c) = A(x) for the element x each result cell is tagged with")
else:
    check(False, f"composition: A, B and the result ({len(pics)} pictures)")

# 5. swizzle 3 4 3: before and after.
pics = svg("swizzle", "3", "4", "3")
roles = [p.get("data-role") for p in pics]
check(roles == ["input", "result"], f"swizzle: before and after ({roles})")
if len(pics) == 2:
    def sw(o):
        return o ^ ((o & (7 << 7)) >> 3)

    def by_cell(pic):
        return {(r, c): (k, v) for k, cs in cells(pic).items() for r, c, v in cs}

    before, after = by_cell(pics[0]), by_cell(pics[1])
    check(len(after) == 1024 and all(after[(r, c)] == (((sw(128 * r + c) >> 4) & 7),
                                                       sw(128 * r + c))
                                     for r in range(8) for c in range(128)),
          "swizzle: after, cell (r, c) holds Sw<3,4,3>(128 r + c), tagged by its bits 4..6")
    check(all(before[(r, c)][0] == (c >> 4) & 7 for r in range(8) for c in range(128)),
          "swizzle: before, the tags run in stripes of 16, every row alike")
    check(all(after[(r, c)][0] == after[(0, c)][0] ^ r for r in range(8) for c in range(128)),
          "swizzle: after, row r's tags are row 0's XOR r")
    check(len(cells(pics[1])) == 8, "swizzle: 8 tag groups")

# 6. complement: one copy of A per element of the complement.
pics = svg("complement", "4:2", "16")
if pics:
    res = cells(pics[-1])  # the codomain's offsets by copy
    want = {k0 + 2 * k1: [2 * a + k0 + 8 * k1 for a in range(4)]
            for k0 in range(2) for k1 in range(2)}
    check(len(pics) == 4 and {k: values(c) for k, c in res.items()} == want,
          "complement(4:2, 16) = (2,2):(1,8): copy k0 + 2 k1 reaches 2a + k0 + 8 k1 of 0..15")

# 7. The axes and the legend, all inside the viewBox.
def text_box(t):
    """(x0, y0, x1, y1) of a <text>: its width at 0.6 em per character, anchored."""
    fs = float(t.get("font-size") or 0) or float(t.get("_fs"))
    x, y, w = float(t.get("x")), float(t.get("y")), 0.6 * fs * len(t.text or "")
    anchor = t.get("text-anchor") or t.get("_anchor") or "start"
    x0 = x - w / 2 if anchor == "middle" else x - w if anchor == "end" else x
    return x0, y - fs, x0 + w, y + 0.3 * fs


def inherit(node, fs=None, anchor=None):
    """Every element with the font size and anchor its groups give it."""
    fs = node.get("font-size") or fs
    anchor = node.get("text-anchor") or anchor
    node.set("_fs", fs or "0")
    node.set("_anchor", anchor or "start")
    for child in node:
        inherit(child, fs, anchor)


doc = svg("logical_divide", "(8,16):(16,1)", "(2,4)", root=True)
if doc is not None:
    inherit(doc)
    _, _, width, height = (float(v) for v in doc.get("viewBox").split())
    outside = []
    for t in doc.iter(f"{NS}text"):
        x0, y0, x1, y1 = text_box(t)
        if x0 < 0 or y0 < 0 or x1 > width or y1 > height:
            outside.append(t.text)
    for r in doc.iter(f"{NS}rect"):
        if r.get("class") == "background":
            continue
        x, y = float(r.get("x", 0)), float(r.get("y", 0))
        if x < 0 or y < 0 or x + float(r.get("width")) > width or \
                y + float(r.get("height")) > height:
            outside.append("rect")
    check(not outside, f"op SVG: every text and rect inside the viewBox ({outside[:3]})")
    ticks_ok = True
    for pic in doc.findall(f"{NS}g[@class='picture']"):
        rects = [r for r in pic.iter(f"{NS}rect") if r.get("class") == "cell"]
        rows = 1 + max(int(r.get("data-row")) for r in rects)
        cols = 1 + max(int(r.get("data-col")) for r in rects)
        s = float(rects[0].get("width")) + 1
        x_of = {int(r.get("data-col")): float(r.get("x")) + s / 2 for r in rects}
        y_of = {int(r.get("data-row")): float(r.get("y")) + s / 2 for r in rects}
        ticks = pic.find(f"{NS}g[@class='ticks']")
        col_t = [t for t in ticks if t.get("class") == "tick col"] if ticks is not None else []
        row_t = [t for t in ticks if t.get("class") == "tick row"] if ticks is not None else []
        # a column tick centred over its column, a row tick's baseline 4 below its row's middle
        for ts, n, at, key, dy in ((col_t, cols, x_of, "x", 0), (row_t, rows, y_of, "y", 4)):
            idx = [int(t.text) for t in ts]
            step = idx[1] - idx[0] if len(idx) > 1 else max(1, n)
            ticks_ok &= bool(idx) and idx == list(range(0, n, step)) and step & (step - 1) == 0
            ticks_ok &= all(abs(float(t.get(key)) - dy - at[i]) < 1 for t, i in zip(ts, idx))
        ticks_ok &= all(float(t.get("y")) < min(y_of.values()) - s / 2 for t in col_t)
        ticks_ok &= all(float(t.get("x")) < min(x_of.values()) - s / 2 for t in row_t)
    check(ticks_ok, "op SVG: each picture's column ticks over their columns, row ticks left "
          "of their rows, 0 by a power-of-two step")
    legend = doc.find(f"{NS}g[@class='legend']")
    words = " ".join(t.text for t in legend.iter(f"{NS}text")) if legend is not None else ""
    swatches = [r.get("fill") for r in legend.iter(f"{NS}rect")] if legend is not None else []
    tile_fills = {g.get("data-tile"): g.get("fill") for g in doc.iter(f"{NS}g")
                  if g.get("class") == "tile"}
    check("colour: the tile" in words and "black lines" in words and "rows: mode 0" in words
          and len(swatches) == 8 and swatches == [tile_fills[str(k)] for k in range(8)],
          f"op SVG: the legend says the colours, lines and axes, 8 tile swatches ({words[:80]})")

# 8. --colour bank and value.
pics = svg("swizzle", "3", "4", "3", flags=("--colour", "bank"))
if len(pics) == 2:
    def sw(o):
        return o ^ ((o & (7 << 7)) >> 3)

    for pic, f, what in ((pics[0], lambda o: o, "before"), (pics[1], sw, "after")):
        fill_of, bank_of = {}, {}
        ok = True
        for r in pic.iter(f"{NS}rect"):
            if r.get("class") != "cell":
                continue
            bank = (f(128 * int(r.get("data-row")) + int(r.get("data-col"))) * 16 // 32) % 32
            ok &= fill_of.setdefault(bank, r.get("fill")) == r.get("fill")
            ok &= bank_of.setdefault(r.get("fill"), bank) == bank
        check(ok and len(fill_of) == 32,
              f"swizzle --colour bank: {what}, cells share a fill exactly when they share the "
              f"bank of their offset at 16 bits ({len(fill_of)} banks)")
pics = svg("logical_divide", "(8,16):(16,1)", "(2,4)", flags=("--colour", "value"))
if pics:
    fills = {r.get("fill") for r in pics[0].iter(f"{NS}rect") if r.get("class") == "cell"}
    check(len(fills) == 128, f"logical_divide --colour value: A's 128 values, 128 fills "
          f"({len(fills)})")

# 9. Flag errors.
for args, msg in [(["--args", "4:1"], "--args needs --op"),
                  (["--preset", "step1", "--problem", "256", "128", "32"],
                   "this trace page is HTML"),
                  (["--op", "swizzle", "--args", "3", "4", "3", "--colour", "blue"],
                   "--colour: blue not in"),
                  (["--op", "swizzle", "--args", "3", "4", "3", "--tiler", "(2,4)"],
                   "an op's tiles are its own"),
                  (["--preset", "step1", "--colour", "bank"], "colours a layout's")]:
    p = subprocess.run([exe, "render", *args, "-o", os.path.join(work, "x.svg")],
                       capture_output=True, text=True)
    check(p.returncode != 0 and msg in p.stderr, f"render {args} -o x.svg: {p.stderr.strip()}")

print(f"op_pictures_cli: {len(failures)} failures")
sys.exit(1 if failures else 0)
