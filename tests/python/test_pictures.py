"""Pictures for slides, papers and notebooks: Python's to_svg (every text and rect inside the
viewBox, titled by the layout's notation, ticks and a legend), draw_tv and to_latex (CuTe's
print_latex, the CLI's own output), the static notebook picture, the presets' names, and the Python
column of docs/pictures.md."""
import html
import math
import os
import pathlib
import re
import subprocess
import xml.etree.ElementTree as ET

import pytest

import tessera
from tessera import Layout, SwizzledLayout

REPO = pathlib.Path(__file__).resolve().parents[2]
SVG = "{http://www.w3.org/2000/svg}"
MMA = "SM80_16x8x16_F32F16F16F32_TN"


def boxes(svg):
    """(tag, text, x0, y0, x1, y1) of every rect and text, with translate()s applied; a text's
    extent estimated at 0.6 em per monospace character, 0.8 em above its baseline, 0.25 below."""
    out = []

    def walk(e, dx, dy, font, anchor):
        font = float(e.get("font-size", font))
        anchor = e.get("text-anchor", anchor)
        m = re.match(r"translate\(([-\d.]+),([-\d.]+)\)", e.get("transform", ""))
        if m:
            dx, dy = dx + float(m[1]), dy + float(m[2])
        tag = e.tag.replace(SVG, "")
        if tag == "rect":
            x, y = dx + float(e.get("x", 0)), dy + float(e.get("y", 0))
            out.append(("rect", None, x, y, x + float(e.get("width")), y + float(e.get("height"))))
        elif tag == "text":
            w = 0.6 * font * len(e.text)
            x = dx + float(e.get("x")) - {"start": 0, "middle": w / 2, "end": w}[anchor]
            y = dy + float(e.get("y"))
            out.append(("text", e.text, x, y - 0.8 * font, x + w, y + 0.25 * font))
        for c in e:
            walk(c, dx, dy, font, anchor)
    walk(ET.fromstring(svg), 0, 0, 16, "start")
    return out


def check_inside(svg, what):
    root = ET.fromstring(svg)
    x0, y0, w, h = (float(v) for v in root.get("viewBox").split())
    assert (x0, y0) == (0, 0), what
    for tag, text, a, b, c, d in boxes(svg):
        assert a >= 0 and b >= 0 and c <= w + 0.5 and d <= h + 0.5, \
            f"{what}: {tag} {text!r} at ({a:.0f},{b:.0f})-({c:.0f},{d:.0f}) outside {w}x{h}"


def title(svg):
    return next(e.text for e in ET.fromstring(svg).iter(SVG + "text") if e.get("class") == "title")


PICTURES = [
    ("layout", lambda: Layout("(4,3):(1,8)").to_svg()),
    ("rank 1", lambda: Layout("32:1").to_svg()),
    ("wide offsets", lambda: Layout("(2,3):(100000,7)").to_svg()),
    ("swizzled", lambda: SwizzledLayout("Sw<3,4,3> o 0 o (8,64):(64,1)").to_svg()),
    ("step1 A", lambda: tessera.presets.step1().to_svg("A")),
    ("step4 C", lambda: tessera.presets.step4().to_svg("C")),
    ("atom B", lambda: tessera.make_tiled_mma(MMA, (2, 2, 1)).to_svg("B")),
    ("one thread", lambda: tessera.presets.step4().to_svg("A", thread=37)),
    ("copy D", lambda: tessera.make_tiled_copy_tv(tessera.CopyAtom("cp_async:16"),
                                                  Layout("(32,8):(1,32)"), (4, 1)).to_svg("D")),
    ("tv", lambda: tessera.draw_tv("((4,8),2):((16,1),8)", (8, 8))),
]


@pytest.mark.parametrize("what,draw", PICTURES, ids=[p[0] for p in PICTURES])
def test_svg_inside_its_viewbox(what, draw):
    check_inside(draw(), what)


def test_titles_are_the_notation():
    for text in ["(4,3):(1,8)", "((2,2),(3,2)):((1,2),(4,12))", "32:1"]:
        assert title(Layout(text).to_svg()) == text
    sw = SwizzledLayout("Sw<3,4,3> o 0 o (8,64):(64,1)")
    assert title(sw.to_svg()) == str(sw)
    data = re.search(r'id="tessera-data">(.*?)</script>', tessera.render(Layout("(4,3):(1,8)")),
                     re.S).group(1)
    assert '"layout":"(4,3):(1,8)"' in data


def test_swizzled_cells_are_swizzled():
    # Sw<3,4,3>: bits 7..9 of the offset XORed into bits 4..6.
    sw = SwizzledLayout("Sw<3,4,3> o 0 o (8,64):(64,1)")
    cells = re.search(r'<g class="cells"[^>]*>(.*?)</g>', sw.to_svg(), re.S).group(1)
    values = [int(v) for v in re.findall(r">(\d+)</text>", cells)]
    want = []
    for m in range(8):
        for n in range(64):
            x = 64 * m + n
            want.append(x ^ ((x >> 3) & (0b111 << 4)))
    assert values == want


def test_mma_titles_clear_the_ticks_and_have_a_legend():
    for operand in "CAB":
        svg = tessera.make_tiled_mma(MMA, (2, 2, 1)).to_svg(operand)
        all_boxes = boxes(svg)
        top = next(b for b in all_boxes if b[1] == title(svg))
        ticks = [b for b in all_boxes if b[0] == "text" and b[1].isdigit()]
        assert all(top[5] < t[3] for t in ticks), operand
        assert "thread mod 8:" in svg and "rows: " in svg and "columns: " in svg


def flat(t):
    return [x for s in t for x in flat(s)] if isinstance(t, tuple) else [t]


def evaluate(shape, stride, i):
    off = 0
    for s, d in zip(flat(shape), flat(stride)):
        off, i = off + (i % s) * d, i // s
    return off


def test_draw_tv_labels_each_cell():
    shape, stride, M, N = ((4, 8), 2), ((16, 1), 8), 8, 8
    svg = tessera.draw_tv("((4,8),2):((16,1),8)", (M, N))
    T, V = 32, 2
    first = {}
    for t in range(T):
        for v in range(V):
            i = evaluate(shape, stride, t + v * T)
            first.setdefault((i % M, i // M), (t, v))
    texts = [e.text for e in ET.fromstring(svg).iter(SVG + "text")]
    for t in range(T):
        assert texts.count(f"T{t}") == sum(1 for o in first.values() if o[0] == t)
    assert texts.count("V0") == 32 and texts.count("V1") == 32
    with pytest.raises(tessera.Error, match="outside the 8x4 tile"):
        tessera.draw_tv("((4,8),2):((16,1),8)", (8, 4))
    with pytest.raises(tessera.Error, match="two integers"):
        tessera.draw_tv("((4,8),2):((16,1),8)", (8, 8, 1))


def test_to_latex():
    tex = tessera.to_latex(Layout("(2,3):(3,1)"))
    assert tex.startswith("% Layout: (2,3):(3,1)\n\\documentclass[convert]{standalone}")
    greys = [0, 40, 20, 60, 10, 50, 30, 70]
    for m in range(2):
        for n in range(3):
            v = 3 * m + n
            assert f"\\node[fill=black!{greys[v % 8]:02d}] at ({m},{n}) {{{v}}};" in tex
    assert Layout("(2,3):(3,1)").to_latex() == tex
    mma = tessera.make_tiled_mma(MMA, (1, 1, 1))
    tex = mma.to_latex()
    assert tex.count("\\shortstack") == 16 * 8 + 16 * 16 + 8 * 16
    # C(1,2) is thread 5's V0 (row t/4, column 2(t%4)), as CuTe's SM80 C layout says.
    assert "at (1,2) {\\shortstack{T5 \\\\ V0}};" in tex
    tv = tessera.to_latex("(4,2):(2,1)", (2, 4))
    assert "at (1,3) {\\shortstack{T3 \\\\ V1}};" in tv and tv.startswith("% Layout TV: ")
    copy = tessera.make_tiled_copy_tv(tessera.CopyAtom("cp_async:16"), Layout("(32,8):(1,32)"),
                                      (4, 1))
    assert copy.to_latex().count("\\shortstack") == 2 * 128 * 8
    with pytest.raises(TypeError, match="to_latex"):
        tessera.to_latex(3.5)


def test_to_latex_is_the_clis():
    cli = REPO / "build" / "tools" / "tessera"
    if not cli.exists():
        pytest.skip(f"SKIPPED: the CLI is not built at {cli} (scripts/test.sh builds it first)")
    cases = [(["--layout", "Sw<2,0,2> o 0 o (4,4):(4,1)"],
              SwizzledLayout("Sw<2,0,2> o 0 o (4,4):(4,1)").to_latex()),
             (["--tv", "(4,2):(2,1)", "--tile", "2", "4"], tessera.to_latex("(4,2):(2,1)", (2, 4))),
             (["--atom", MMA, "--atom-layout", "(2,2,1)"],
              tessera.make_tiled_mma(MMA, (2, 2, 1)).to_latex())]
    for args, want in cases:
        got = subprocess.run([str(cli), "render", *args, "--latex", "-o", "-"], check=True,
                             capture_output=True, text=True).stdout
        if args[0] == "--atom":  # the first comment names the configuration as each side knows it
            got, want = got.split("\n", 1)[1], want.split("\n", 1)[1]
        assert got == want, args


def test_notebook_picture_is_static_and_fits():
    objs = [Layout("(8,8):(8,1)"), SwizzledLayout("Sw<3,4,3> o 0 o (8,64):(64,1)"),
            tessera.presets.step4(), tessera.make_tiled_mma(MMA, (2, 2, 1)),
            tessera.make_tiled_copy_tv(tessera.CopyAtom("cp_async:16"), Layout("(32,8):(1,32)"),
                                       (4, 1))]
    for obj in objs:
        page = obj._repr_html_()
        assert "Static picture (no inputs)" in page
        for dead in ("<iframe", "<input", "<select", "<button", "height:720", "overflow"):
            assert dead not in page, (obj, dead)
        svgs = re.findall(r"<svg [^>]*>", page)
        assert svgs and all('style="max-width:100%;height:auto"' in s and "viewBox" in s
                            for s in svgs)
        assert len(page) < 400_000, (obj, len(page))
        assert html.escape(str(obj)) in page
    assert len(re.findall(r"<svg ", tessera.presets.step4()._repr_html_())) == 3
    assert Layout(1 << 20)._repr_html_() is None


def test_presets_are_labelled_by_their_kernel():
    names = {p: tessera._tessera._mma_preset(p).name for p in ("step1", "step4", "hopper")}
    assert names["step1"].startswith("the step 1 kernel")
    assert names["step4"].startswith("the step 4 kernel")
    assert "Hopper" in names["hopper"] and "wgmma" in names["hopper"]
    attention = tessera._tessera._mma_preset("attention").name
    assert "step" not in attention and "Q K^T" in attention
    assert len(set(names.values()) | {attention}) == 4


def python_column():
    text = (REPO / "docs" / "pictures.md").read_text()
    for line in text.splitlines():
        if line.startswith("| ") and not line.startswith(("| feature", "| ---")):
            cells = [c.strip() for c in line.strip()[1:-1].split(" | ")]
            for span in re.findall(r"`([^`]+)`", cells[5]):
                yield cells[0], span


def test_pictures_doc_python_column(tmp_path):
    rows = list(python_column())
    assert len(rows) >= 10
    names = {n: getattr(tessera, n) for n in tessera.__all__}
    names.update(L=Layout("(4,8):(8,1)"), mma=tessera.make_tiled_mma(MMA, (2, 2, 1)),
                 copy=tessera.make_tiled_copy_tv(tessera.CopyAtom("cp_async:16"),
                                                 Layout("(32,8):(1,32)"), (4, 1)))
    os.chdir(tmp_path)
    for feature, expr in rows:
        out = eval(expr, names)
        assert out is not None and (not isinstance(out, str) or len(out) > 100), (feature, expr)


def op_pictures(svg):
    """role, title and the data-tile tags of each <g class="picture"> of an op's SVG."""
    root = ET.fromstring(svg)
    out = []
    for g in root.iter(f"{SVG}g"):
        if g.get("class") != "picture":
            continue
        tiles = {int(t.get("data-tile")) for t in g.iter(f"{SVG}g") if t.get("data-tile")}
        cells = [r for r in g.iter(f"{SVG}rect") if r.get("data-value") is not None]
        out.append((g.get("data-role"), g.get("data-title"), tiles, len(cells)))
    return out


def test_render_op_draws_the_inputs_beside_the_result():
    a = Layout("(8,16):(16,1)")
    svg = tessera.render_op("logical_divide", a, (2, 4))
    assert isinstance(svg, str) and svg.startswith("<svg")
    pics = op_pictures(svg)
    inputs = [p for p in pics if p[0] == "input"]
    results = [p for p in pics if p[0] == "result"]
    assert inputs and results, pics
    # A among the inputs, every one of its 128 elements drawn, tagged by its 16 tiles of 2 x 4.
    a_pic = [p for p in inputs if str(a) in p[1]]
    assert a_pic and a_pic[0][3] == 128 and a_pic[0][2] == set(range(16)), a_pic
    expected = str(tessera.logical_divide(a, (2, 4)))
    res = [p for p in results if expected in p[1]]
    assert res and res[0][3] == 128 and res[0][2] == set(range(16)), (expected, results)
    # The notation spells the same op, and the notebook shows this SVG.
    assert tessera.render_op("logical_divide", "(8,16):(16,1)", "(2,4)") == svg
    page = svg._repr_html_()
    assert svg[len("<svg "):] in page and "Static picture" in page and page.count("<svg") == 1
    with pytest.raises(tessera.Error, match="logical_divide"):
        tessera.render_op("logical_divide", a)
