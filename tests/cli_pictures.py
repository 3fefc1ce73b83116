#!/usr/bin/env python3
"""`tessera render --format tikz|svg` and `--tv`: the LaTeX/TikZ of a layout, a TV layout and a
TiledMMA checked node by node against the layouts evaluated here (a flat colexicographic loop,
independent of the library), and the raw TV picture's SVG. pdflatex compiles each document when it
is installed (it is optional: the checks above do not need it).

Usage: cli_pictures.py TESSERA_EXE
"""
import ast
import math
import re
import shutil
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET

exe = sys.argv[1]
failures = []
GREYS = [0, 40, 20, 60, 10, 50, 30, 70]  # CuTe's TikzColor_BWx8
PASTELS = ["175,175,255", "175,255,175", "255,255,175", "255,175,175", "210,210,255",
           "210,255,210", "255,255,210", "255,210,210"]  # CuTe's TikzColor_TV


def check(ok, what):
    if not ok:
        failures.append(what)


def run(*args):
    p = subprocess.run([exe, "render", *args], capture_output=True, text=True)
    return p.returncode, p.stdout, p.stderr


def flat(t):
    return [x for s in t for x in flat(s)] if isinstance(t, tuple) else [t]


def layout(text):
    """A layout's function i -> offset (colexicographic over the flattened modes)."""
    shape, stride = (ast.literal_eval(p) for p in text.split(":"))
    shape, stride = flat(shape), flat(stride)

    def f(i):
        off = 0
        for s, d in zip(shape, stride):
            off, i = off + (i % s) * d, i // s
        return off
    return f, shape


def mode_size(text, mode):
    return math.prod(flat(ast.literal_eval(text.split(":")[0])[mode]))


NODE = re.compile(r"\\node\[fill=([^\]]+|\{[^}]*\})\] at \((-?\d+),(-?\d+)\) \{(.*)\};")


def nodes(tex):
    """{(x, y): (fill, text)} of the filled nodes."""
    out = {}
    for line in tex.splitlines():
        m = NODE.fullmatch(line)
        if m:
            check((int(m[2]), int(m[3])) not in out, f"two nodes at ({m[2]},{m[3]})")
            out[(int(m[2]), int(m[3]))] = (m[1], m[4])
    return out


def tv_cells(tv, rows, cols, place):
    """CuTe's print_latex_tv: the first (t, v) reaching each cell, placed by place(r, c)."""
    f, _ = layout(tv)
    T, V = mode_size(tv, 0), mode_size(tv, 1)
    want = {}
    for t in range(T):
        for v in range(V):
            i = f(t + v * T)
            want.setdefault(place(i % rows, i // rows),
                            ("{rgb,255:red,%s;green,%s;blue,%s}" % tuple(PASTELS[t % 8].split(",")),
                             "\\shortstack{T%d \\\\ V%d}" % (t, v)))
    return want


def standalone(tex, what):
    check(tex.startswith("% ") and "\\documentclass[convert]{standalone}\n\\usepackage{tikz}"
          in tex and tex.endswith("\\end{tikzpicture}\n\\end{document}\n"),
          f"{what}: not a standalone TikZ document:\n{tex[:300]}")
    if shutil.which("pdflatex"):
        with tempfile.TemporaryDirectory() as d:
            open(f"{d}/p.tex", "w").write(tex)
            p = subprocess.run(["pdflatex", "-interaction=nonstopmode", "p.tex"], cwd=d,
                               capture_output=True, text=True)
            check(p.returncode == 0, f"{what}: pdflatex failed:\n{p.stdout[-800:]}")


def check_layout():
    text = "(2,3):(3,1)"
    rc, tex, err = run("--layout", text, "--latex", "-o", "-")
    check(rc == 0, f"--layout --latex: {err}")
    standalone(tex, text)
    f, _ = layout(text)
    want = {(m, n): ("black!%02d" % GREYS[f(m + 2 * n) % 8], str(f(m + 2 * n)))
            for m in range(2) for n in range(3)}
    check(nodes(tex) == want, f"{text}: nodes {nodes(tex)} not {want}")
    for m in range(2):
        check(f"\\node at ({m},-1) {{\\Large{{\\texttt{{{m}}}}}}};" in tex, f"row label {m}")
    for n in range(3):
        check(f"\\node at (-1,{n}) {{\\Large{{\\texttt{{{n}}}}}}};" in tex, f"column label {n}")
    check("\\draw[color=black,thick,shift={(-0.5,-0.5)}] (0,0) grid (2,3);" in tex, "the grid")
    rc2, tex2, _ = run("--layout", text, "-o", "-", "--format", "tikz")
    check(rc2 == 0 and tex2 == tex, "--format tikz is --latex")


def check_tv():
    tv, rows, cols = "((4,8),2):((16,1),8)", 8, 8
    rc, tex, err = run("--tv", tv, "--tile", str(rows), str(cols), "--latex", "-o", "-")
    check(rc == 0, f"--tv --latex: {err}")
    standalone(tex, tv)
    want = tv_cells(tv, rows, cols, lambda r, c: (r, c))
    check(len(want) == 64 and nodes(tex) == want, f"--tv {tv}: {len(nodes(tex))} nodes differ")
    # The same picture as SVG: each cell's T and V labels.
    rc, svg, err = run("--tv", tv, "--tile", str(rows), str(cols), "-o", "-", "--format", "svg")
    check(rc == 0, f"--tv svg: {err}")
    texts = [t.text for t in ET.fromstring(svg).iter("{http://www.w3.org/2000/svg}text")]
    check(texts.count("T5") == 2 and texts.count("V1") == 32, f"--tv svg labels: {texts[:40]}")
    for args, message in [
            (["--tv", tv, "-o", "-"], "needs the tile it maps into: --tile M N"),
            (["--tv", tv, "--tile", "8", "4", "--latex", "-o", "-"], "outside the 8x4 tile"),
            (["--tv", "8:1", "--tile", "8", "1", "-o", "x.svg"], "has rank 1"),
            (["--tv", tv, "--tile", "8", "8", "-o", "x.html"], "draws SVG or TikZ"),
            (["--preset", "step1", "--problem", "256", "128", "32", "--format", "svg", "-o", "-"],
             "this trace page is HTML"),
            (["--preset", "step1", "--operand", "X", "--format", "svg", "-o", "-"],
             "a TiledMMA has C, A and B"),
            (["--preset", "step1", "--operand", "A", "--latex", "-o", "-"], "picks the SVG's")]:
        rc, out, err = run(*args)
        check(rc != 0 and message in err, f"render {args}: {rc} {err!r}, not {message!r}")


def check_mma():
    # One SM80_16x8x16_F32F16F16F32_TN: its TV layouts as CuTe's MMA traits define them, C and A
    # over (M,N) and (M,K) column-major, B over (N,K).
    C, A, B = ("((4,8),(2,2)):((32,1),(16,8))", "((4,8),(2,2,2)):((32,1),(16,8,128))",
               "((4,8),(2,2)):((16,1),(8,64))")
    M, N, K = 16, 8, 16
    rc, tex, err = run("--atom", "SM80_16x8x16_F32F16F16F32_TN", "--latex", "-o", "-")
    check(rc == 0, f"TiledMMA --latex: {err}")
    standalone(tex, "TiledMMA")
    got = nodes(tex)
    check(len(got) == M * N + M * K + N * K, f"TiledMMA: {len(got)} nodes")
    want = tv_cells(C, M, N, lambda m, n: (m, n))
    want.update(tv_cells(A, M, K, lambda m, k: (m, k - K - 1)))
    want.update(tv_cells(B, N, K, lambda n, k: (k - K - 1, n)))
    check(got == want, "TiledMMA nodes differ: " + str(
        [(k, got.get(k), w) for k, w in want.items() if got.get(k) != w][:5]))
    # The SVG of A alone: each of the 32 threads owns 8 of its 256 cells.
    rc, svg, err = run("--atom", "SM80_16x8x16_F32F16F16F32_TN", "--operand", "A", "-o", "-",
                       "--format", "svg")
    texts = [t.text for t in ET.fromstring(svg).iter("{http://www.w3.org/2000/svg}text")]
    check(rc == 0 and all(texts.count(f"T{t}") == 8 for t in range(32)) and
          texts.count("V7") == 32, f"--operand A svg: {err} {texts[:20]}")
    # A few by hand: thread 5 holds C(1,2) as V0 and C(9,3) as V3 (row t/4 + 8(v/2), column
    # 2(t%4) + v%2); A(1,8) is T4's V4, B's (n=0, k=8) is T0's V2.
    for at, text in [((1, 2), "T5 \\\\ V0"), ((9, 3), "T5 \\\\ V3"), ((1, 8 - K - 1), "T4 \\\\ V4"),
                     ((8 - K - 1, 0), "T0 \\\\ V2")]:
        check(text in got.get(at, ("", ""))[1], f"TiledMMA node at {at}: {got.get(at)}")


check_layout()
check_tv()
check_mma()
for f in failures:
    print("FAIL", f)
print(f"cli_pictures: {len(failures)} failures" + ("" if shutil.which("pdflatex") else
                                                   " (pdflatex absent: not compiled)"))
sys.exit(1 if failures else 0)
