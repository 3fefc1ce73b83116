#!/usr/bin/env python3
"""tessera's Python API against tensor-layouts (PyPI), op by op, side by side in one run.

Both libraries get the same inputs, built once outside the timed loop as their own Layout objects
(tilers as the tuples each takes); each call is timed with timeit (the Python call overhead
included), 7 repetitions alternating between the two, the best of each. Before timing, the two results are compared (same layout or
same function), so the table never times two different computations.

    python3 bench/python_bench.py [--out bench/results/python_api.md] [--quick]
"""
import argparse
import datetime
import os
import platform
import subprocess
import sys
import timeit

import tensor_layouts as tl

import tessera as ts

# (name, what, op, A, B): A a layout (shape, stride); B a layout, a tiler or an int.
CASES = [
    ("Layout(shape, stride)", "construct (4,3):(1,8)", "make", ((4, 3), (1, 8)), None),
    ("L(i)", "evaluate ((2,2),(3,2)):((1,2),(4,12)) at 17", "call", (((2, 2), (3, 2)), ((1, 2), (4, 12))), 17),
    ("size", "((2,2),(3,2)):((1,2),(4,12))", "size", (((2, 2), (3, 2)), ((1, 2), (4, 12))), None),
    ("cosize", "((2,2),(3,2)):((1,2),(4,12))", "cosize", (((2, 2), (3, 2)), ((1, 2), (4, 12))), None),
    ("crd2idx", "(3,(1,1)) in (4,(3,2)):(2,(8,1))", "crd2idx", ((4, (3, 2)), (2, (8, 1))), (3, (1, 1))),
    ("idx2crd", "7 in (3,(2,4))", "idx2crd", None, None),
    ("coalesce", "(2,(1,6)):(1,(7,2))", "coalesce", ((2, (1, 6)), (1, (7, 2))), None),
    ("composition", "(4,3):(1,8) o 6:2", "composition", ((4, 3), (1, 8)), ("L", (6, 2))),
    ("complement", "4:1 in 12", "complement", (4, 1), 12),
    ("complement 2-D", "(2,2):(1,6) in 24", "complement", ((2, 2), (1, 6)), 24),
    ("right_inverse", "(4,2):(2,1)", "right_inverse", ((4, 2), (2, 1)), None),
    ("left_inverse", "(4,2):(2,1)", "left_inverse", ((4, 2), (2, 1)), None),
    ("logical_divide 1-D", "12:1 / 4:1", "logical_divide", (12, 1), ("L", (4, 1))),
    ("logical_divide 2-D", "(4,6):(1,4) / (2,3)", "logical_divide", ((4, 6), (1, 4)), ("T", (2, 3))),
    ("zipped_divide", "(4,6):(1,4) / (2,3)", "zipped_divide", ((4, 6), (1, 4)), ("T", (2, 3))),
    ("tiled_divide", "(4,6):(1,4) / (2,3)", "tiled_divide", ((4, 6), (1, 4)), ("T", (2, 3))),
    ("flat_divide", "(4,6):(1,4) / (2,3)", "flat_divide", ((4, 6), (1, 4)), ("T", (2, 3))),
    ("logical_product", "4:1 x 3:1", "logical_product", (4, 1), ("L", (3, 1))),
    ("zipped_product", "(2,5):(5,1) x (3:5,4:6)", "zipped_product", ((2, 5), (5, 1)), ("LL", ((3, 5), (4, 6)))),
    ("tiled_product", "(2,5):(5,1) x (3:5,4:6)", "tiled_product", ((2, 5), (5, 1)), ("LL", ((3, 5), (4, 6)))),
    ("blocked_product", "(2,5):(5,1) x (3,4):(1,3)", "blocked_product", ((2, 5), (5, 1)), ("L", ((3, 4), (1, 3)))),
    ("raked_product", "(2,5):(5,1) x (3,4):(1,3)", "raked_product", ((2, 5), (5, 1)), ("L", ((3, 4), (1, 3)))),
    ("step 1: divide by the permutation", "(128,128):(128,1) / ((16,4):(4,1),(16,4):(4,1))", "logical_divide",
     ((128, 128), (128, 1)), ("LL", (((16, 4), (4, 1)), ((16, 4), (4, 1))))),
    # The tiler as layouts: tensor-layouts reads the shape (16,16) of a nested mode differently from
    # CuTe (docs/python.md, differential test).
    ("step 1: divide by the threads", "(((16,4),2),((16,4),2)) / (16:1,16:1)", "zipped_divide",
     ((((16, 4), 2), ((16, 4), 2)), (((512, 128), 8192), ((4, 1), 64))), ("LL", ((16, 1), (16, 1)))),
]


def build(lib, op, a, b):
    """A zero-argument callable running `op` in `lib` on inputs built once."""
    if op == "make":
        return lambda: lib.Layout(*a)
    if op == "idx2crd":
        return lambda: lib.idx2crd(7, (3, (2, 4)))
    A = lib.Layout(*a)
    if op == "call":
        return lambda: A(b)
    if op in ("size", "cosize", "coalesce", "right_inverse", "left_inverse"):
        f = getattr(lib, op)
        return lambda: f(A)
    if op == "crd2idx":
        return (lambda: ts.crd2idx(b, A)) if lib is ts else (lambda: tl.crd2idx(b, A.shape, A.stride))
    if op == "complement":
        return lambda: lib.complement(A, b)
    kind, v = b
    B = lib.Layout(*v) if kind == "L" else tuple(lib.Layout(*e) for e in v) if kind == "LL" else v
    f = ts.composition if (lib is ts and op == "composition") else tl.compose if op == "composition" else getattr(lib, op)
    return lambda: f(A, B)


def same(x, y):
    if isinstance(x, ts.Layout):
        if (x.shape, x.stride) == (y.shape, y.stride):
            return True
        return x.size() == tl.size(y) and all(x(i) == y(i) for i in range(x.size()))
    return x == y


def calibrate(f, quick):
    """Calls per repetition: at least 0.1 s (0.02 s with --quick)."""
    number, t = 1, 0.0
    while t < (0.02 if quick else 0.1):
        number *= 4
        t = timeit.timeit(f, number=number)
    return number


def per_call_us(f_ts, f_tl, quick):
    """(tessera, tensor-layouts) microseconds per call: repetitions alternate between the two, so a
    busy moment of a shared machine slows both, and each keeps its best repetition."""
    n_ts, n_tl = calibrate(f_ts, quick), calibrate(f_tl, quick)
    best_ts = best_tl = float("inf")
    for _ in range(3 if quick else 7):
        best_ts = min(best_ts, timeit.timeit(f_ts, number=n_ts) / n_ts)
        best_tl = min(best_tl, timeit.timeit(f_tl, number=n_tl) / n_tl)
    return best_ts * 1e6, best_tl * 1e6


def machine():
    cpu = platform.processor() or "unknown CPU"
    try:
        for line in open("/proc/cpuinfo"):
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    return f"{cpu}, {os.cpu_count()} cores, Python {platform.python_version()} ({platform.machine()})"


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--out", help="write the results table (markdown) here")
    p.add_argument("--quick", action="store_true", help="shorter timings (a smoke run)")
    args = p.parse_args()
    rows = []
    for name, what, op, a, b in CASES:
        f_ts, f_tl = build(ts, op, a, b), build(tl, op, a, b)
        r_ts, r_tl = f_ts(), f_tl()
        assert same(r_ts, r_tl), f"{name}: tessera {r_ts} and tensor-layouts {r_tl!r} differ; not timed"
        us_ts, us_tl = per_call_us(f_ts, f_tl, args.quick)
        rows.append((name, what, str(r_ts), us_ts, us_tl, us_tl / us_ts))
        print(f"{name:36} tessera {us_ts:8.3f} us  tensor-layouts {us_tl:9.2f} us  {us_tl / us_ts:7.1f}x", flush=True)
    commit = os.environ.get("BENCH_COMMIT") or subprocess.run(
        ["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True).stdout.strip()
    load = " ".join(open("/proc/loadavg").read().split()[:3]) if os.path.exists("/proc/loadavg") else "?"
    worst = min(r[5] for r in rows)
    lines = [
        "# tessera's Python API vs tensor-layouts, per op",
        "",
        "| | |", "|---|---|",
        f"| date | {datetime.datetime.now(datetime.timezone.utc).strftime('%Y-%m-%dT%H:%MZ')} |",
        f"| commit | {commit} |",
        f"| machine | {machine()} (load average at the end: {load}) |",
        f"| versions | tessera {ts.__version__} (pip install ., Release), tensor-layouts {tl.__version__} |",
        f"| command | `{os.environ.get('BENCH_COMMAND') or 'python3 bench/python_bench.py --out bench/results/python_api.md'}` |",
        "",
        "Both libraries get the same inputs as their own objects, built outside the timed loop; every call",
        "is timed through Python (call overhead included): 7 repetitions of >= 0.1 s each, alternating",
        "between the two libraries, the best of each (the least disturbed). The results were compared",
        "before timing (same layout or same function). Target: >= 30x for every op.",
        "",
        "| op | input | result | tessera (us) | tensor-layouts (us) | speed-up |",
        "|---|---|---|---:|---:|---:|",
    ]
    for name, what, res, a, b, r in rows:
        lines.append(f"| {name} | `{what}` | `{res}` | {a:.3f} | {b:.2f} | {'**' if r < 30 else ''}{r:.0f}x{'**' if r < 30 else ''} |")
    lines += ["", f"Smallest speed-up: {worst:.0f}x (bold: below the 30x aim)."]
    text = "\n".join(lines) + "\n"
    if args.out:
        with open(args.out, "w") as f:
            f.write(text)
        print("wrote", args.out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
