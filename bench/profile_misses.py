#!/usr/bin/env python3
"""The host side of bench/profile_misses.sh: which suite shapes miss their goals, and the table of
Nsight Compute's numbers for them (tessera's kernels beside cuBLAS's).

  profile_misses.py select RESULTS_JSON DTYPES        one line per ncu run: "dtype op size,size,..."
  profile_misses.py tag NCU_CSV DTYPE OP SIZES        ncu's raw CSV rows tagged with their run
  profile_misses.py table OUT RESULTS_JSON GPU COMMIT  OUT/misses.csv -> OUT/gemm_misses.md
"""
import collections
import csv
import datetime
import json
import re
import sys


def misses(d, m, n, k, ratio):
    """Whether a shape of dtype d misses its goal (bench/results/gemm_shapes.md)."""
    if d in ("f16", "bf16"):
        return ratio < 0.9 or (m == n == k and m >= 2048 and ratio < 1.05)
    if d == "tf32":
        return ratio < 0.8 or (min(m, n, k) >= 2048 and ratio < 0.95)
    return (min(m, n) <= 256 and ratio < 0.8) or (min(m, n, k) >= 1024 and ratio < 0.95)


def select(rows, dtypes):
    """{(dtype, op): [size, ...]} of the shapes that miss, in the results' order."""
    runs = collections.OrderedDict()
    for r in rows:
        if r["dtype"] in dtypes and misses(r["dtype"], r["m"], r["n"], r["k"], r["ratio"]):
            runs.setdefault((r["dtype"], r["op"]), []).append(f"{r['m']}x{r['n']}x{r['k']}")
    return runs


def num(d, key):
    try:
        return float(d.get(key, "").replace(",", ""))
    except ValueError:
        return 0.0


def is_tessera(name):
    return "tessera" in name


def short(name):
    """tessera's kernels with their configuration (tile, copies), cuBLAS's with their tile."""
    if is_tessera(name):
        name = re.sub(r"^void |tessera::|ladder::|<unnamed>::|\(anonymous namespace\)::", "", name)
        name = re.sub(r",\s+", ",", name)
        return re.sub(r"\(.*", "", name)  # no argument list (templates keep theirs)
    tile = re.search(r"tilesize(\d+x\d+x\d+)", name)
    return ("_".join(name.split("_")[:2]) + " " + tile.group(1)) if tile else name[:44]


def call(kernels, dtype):
    """A call's kernels summed: time, time-weighted shares, the longest kernel's grid."""
    t = sum(num(k, "gpu__time_duration.sum") for k in kernels) or 1

    def weighted(key):
        return sum(num(k, key) * num(k, "gpu__time_duration.sum") for k in kernels) / t

    idle = 0.0
    for k in kernels:
        el, act = num(k, "sm__cycles_elapsed.max"), num(k, "sm__cycles_active.avg")
        idle += (1 - act / el if el else 0) * num(k, "gpu__time_duration.sum") / t
    pipe = "sm__pipe_fma_cycles_active" if dtype == "f32" else "sm__pipe_tensor_op_hmma_cycles_active"
    main = max(kernels, key=lambda k: num(k, "gpu__time_duration.sum"))
    return {
        "us": sum(num(k, "gpu__time_duration.sum") for k in kernels) / 1e3,
        "idle": 100 * idle, "grid": int(num(main, "launch__grid_size")),
        "dram": weighted("dram__throughput.avg.pct_of_peak_sustained_elapsed"),
        "mb": sum(num(k, "dram__bytes_read.sum") for k in kernels) / 1e6,
        "l2": weighted("lts__throughput.avg.pct_of_peak_sustained_elapsed"),
        "pipe": weighted(pipe + ".avg.pct_of_peak_sustained_elapsed"),
        "names": " + ".join(short(k.get("Kernel Name", "?")) for k in kernels),
    }


def pairs(kernels):
    """A run's kernels, in call order, as (tessera's call, cuBLAS's call) per size."""
    calls, cur, side = [], [], None
    for k in kernels:
        s = is_tessera(k.get("Kernel Name", ""))
        if cur and s != side:
            calls.append((side, cur))
            cur = []
        side = s
        cur.append(k)
    if cur:
        calls.append((side, cur))
    return [(calls[i][1], calls[i + 1][1]) for i in range(0, len(calls) - 1, 2)
            if calls[i][0] and not calls[i + 1][0]]


def table(misses_csv, results_rows, gpu, commit, results_name):
    """The markdown of OUT/gemm_misses.md from the tagged rows of every run."""
    suite = {(r["dtype"], r["op"], r["m"], r["n"], r["k"]): r for r in results_rows}
    runs = collections.OrderedDict()
    for row in csv.reader(misses_csv):
        runs.setdefault(tuple(row[:3]), []).append(dict(x.split("=", 1) for x in row[3:]))
    lines = ["| dtype | op | m | n | k | ratio | tessera kernels | us | grid | idle % | DRAM % | MB | L2 % | pipe % "
             "| cuBLAS kernels | us | grid | idle % | DRAM % | MB | L2 % | pipe % | limit |",
             "| --- | --- | ---: | ---: | ---: | ---: | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: "
             "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- |"]
    for (dtype, op, sizes), kernels in runs.items():
        for size, (t, c) in zip(sizes.split(","), pairs(kernels)):
            m, n, k = map(int, size.split("x"))
            r = suite.get((dtype, op, m, n, k), {})
            a, b = call(t, dtype), call(c, dtype)
            top = max(("DRAM", a["dram"]), ("L2", a["l2"]), ("pipe", a["pipe"]), key=lambda x: x[1])
            limit = f"{top[0]} {top[1]:.0f} %" if top[1] >= 60 else f"latency (max {top[0]} {top[1]:.0f} %)"
            lines.append(f"| {dtype} | {op} | {m} | {n} | {k} | {r.get('ratio', 0):.3f} | {a['names']} | {a['us']:.1f} "
                         f"| {a['grid']} | {a['idle']:.0f} | {a['dram']:.0f} | {a['mb']:.0f} | {a['l2']:.0f} | {a['pipe']:.0f} "
                         f"| {b['names']} | {b['us']:.1f} | {b['grid']} | {b['idle']:.0f} | {b['dram']:.0f} | {b['mb']:.0f} "
                         f"| {b['l2']:.0f} | {b['pipe']:.0f} | {limit} |")
    date = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%MZ")
    head = ["# GEMM shape suite: the shapes that miss their goals, profiled", "",
            f"- GPU: {gpu}", f"- date: {date}", f"- commit: {commit}",
            f"- command: `OUT=... bench/profile_misses.sh BUILD_DIR {results_name}`",
            "- ncu: one call of each side after 5 warm-ups, kernels serialized, clocks as the benchmark "
            "sees them (--clock-control none); ratio: the suite's (GPU time, medians)", ""]
    return "\n".join(head + lines) + "\n"


def tag(path, dtype, op, sizes):
    """ncu's raw CSV (a header row, a units row, one row per kernel) as rows tagged with the run."""
    rows = list(csv.reader([l for l in open(path) if l.startswith('"')]))
    if not rows:
        return []
    head = rows[0]
    return [[dtype, op, sizes] + [f"{h}={v}" for h, v in zip(head, r)] for r in rows[2:] if len(r) == len(head)]


def main(argv):
    if len(argv) >= 3 and argv[1] == "select":
        for (d, op), sizes in select(json.load(open(argv[2]))["rows"], argv[3].split(",")).items():
            print(d, op, ",".join(sizes))
    elif len(argv) == 6 and argv[1] == "tag":
        csv.writer(sys.stdout).writerows(tag(*argv[2:6]))
    elif len(argv) == 6 and argv[1] == "table":
        out, results, gpu, commit = argv[2:6]
        text = table(open(f"{out}/misses.csv"), json.load(open(results))["rows"], gpu, commit, results)
        open(f"{out}/gemm_misses.md", "w").write(text)
        print(text, end="")
    else:
        print(__doc__, file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
