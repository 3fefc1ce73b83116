#!/usr/bin/env bash
# bench/profile_misses.sh -- why each shape of the suite that misses its goal misses it: Nsight
# Compute on one call of the built-in choice and one of cuBLAS, per shape (GPU machine).
#
#   OUT=/tmp/out [DTYPES=f16,bf16] bench/profile_misses.sh BUILD_DIR [RESULTS_JSON]
#
# RESULTS_JSON (default bench/results/gemm_shapes.json, written by bench/gemm_shapes.sh) says
# which shapes miss the goals of the suite (bench/results/gemm_shapes.md):
#   f16, bf16  below 0.9x cuBLAS, or a square from 2048 below 1.05x;
#   tf32       below 0.8x, or every side >= 2048 and below 0.95x;
#   f32        min(m, n) <= 256 below 0.8x, or every side >= 1024 and below 0.95x.
# Each is run again under ncu (kernels serialized, clocks as the benchmark sees them: --clock-
# control none), the pair of calls bracketed by cudaProfilerStart/Stop (TESSERA_BENCH_PROFILE=1,
# tests/device/harness.cuh). Writes $OUT/misses.csv (ncu's raw rows, every kernel) and
# $OUT/gemm_misses.md: per shape, tessera's kernels against cuBLAS's, side by side --
#   us        kernel time (the sum over a call's kernels)
#   grid      CTAs (a call's first, largest kernel)
#   idle %    the share of SM cycles with no CTA resident (1 - active / elapsed, time-weighted)
#   DRAM %    DRAM throughput over the kernel, of its peak; MB read from DRAM
#   L2 %      L2 throughput, of its peak
#   pipe %    the math pipe the dtype runs on (the tensor pipe, wgmma and mma.sync alike; FMA
#             for f32), of its peak over the elapsed cycles
# and "limit": the unit tessera's kernel runs closest to its peak, or "latency" when none
# passes 60 %.
set -uo pipefail
cd "$(dirname "$0")/.."
build=${1:?usage: profile_misses.sh BUILD_DIR [RESULTS_JSON]}
results=${2:-bench/results/gemm_shapes.json}
OUT=${OUT:-/tmp/tessera-profile}
mkdir -p "$OUT"
bin=$build/kernels
NCU=$(command -v ncu || echo /usr/local/cuda/bin/ncu)
[ -x "$NCU" ] || { echo "SKIPPED: ncu not found (the GPU machine has it)"; exit 77; }

metrics=gpu__time_duration.sum,sm__cycles_elapsed.max,sm__cycles_active.avg
metrics+=,dram__throughput.avg.pct_of_peak_sustained_elapsed,dram__bytes_read.sum
metrics+=,lts__throughput.avg.pct_of_peak_sustained_elapsed
metrics+=,sm__pipe_tensor_op_hmma_cycles_active.avg.pct_of_peak_sustained_elapsed
metrics+=,sm__pipe_fma_cycles_active.avg.pct_of_peak_sustained_elapsed
metrics+=,launch__grid_size,launch__block_size

# The misses, one line per ncu run: "dtype op size,size,...".
python3 - "$results" "${DTYPES:-f16,bf16,tf32,f32}" >"$OUT/misses.txt" <<'EOF'
import json, sys, collections
rows = json.load(open(sys.argv[1]))["rows"]
runs = collections.OrderedDict()
for r in rows:
    d, m, n, k, x = r["dtype"], r["m"], r["n"], r["k"], r["ratio"]
    if d not in sys.argv[2].split(","):
        continue
    if d in ("f16", "bf16"):
        miss = x < 0.9 or (m == n == k and m >= 2048 and x < 1.05)
    elif d == "tf32":
        miss = x < 0.8 or (min(m, n, k) >= 2048 and x < 0.95)
    else:
        miss = (min(m, n) <= 256 and x < 0.8) or (min(m, n, k) >= 1024 and x < 0.95)
    if miss:
        runs.setdefault((d, r["op"]), []).append(f"{m}x{n}x{k}")
for (d, op), sizes in runs.items():
    print(d, op, ",".join(sizes))
EOF
echo "$(awk -F'[ ,]' '{n += NF - 2} END {print n}' "$OUT/misses.txt") shapes miss their goals"

: >"$OUT/misses.csv"
while read -r dtype op sizes; do
  if [ "$dtype" = f32 ]; then
    cmd=("$bin/tessera-bench" --kernels auto --sizes "$sizes" --trans "$op" --reps 1)
  else
    cmd=("$bin/gemm_tensorcore" --bench --kernels auto --dtypes "$dtype" --sizes "$sizes" --trans "$op" --reps 1)
  fi
  echo "-- $dtype $op: $sizes"
  TESSERA_BENCH_PROFILE=1 TESSERA_BENCH_HOST=0 "$NCU" --profile-from-start off --clock-control none --csv \
    --page raw --metrics "$metrics" "${cmd[@]}" >"$OUT/ncu_${dtype}_${op}.csv" 2>"$OUT/ncu_${dtype}_${op}.log" \
    || { echo "ncu failed:"; tail -5 "$OUT/ncu_${dtype}_${op}.log"; }
  # one csv per run, tagged with the run's dtype, op and sizes (the rows come in call order)
  python3 - "$OUT/ncu_${dtype}_${op}.csv" "$dtype" "$op" "$sizes" >>"$OUT/misses.csv" <<'EOF'
import csv, sys
path, dtype, op, sizes = sys.argv[1:]
lines = [l for l in open(path) if l.startswith('"')]
rows = list(csv.reader(lines))
if not rows:
    sys.exit(0)
head, body = rows[0], [r for r in rows[2:] if len(r) == len(rows[0])]  # row 1: units
w = csv.writer(sys.stdout)
for r in body:
    w.writerow([dtype, op, sizes] + [f"{h}={v}" for h, v in zip(head, r)])
EOF
done <"$OUT/misses.txt"

gpu=$(nvidia-smi --query-gpu=name --format=csv,noheader 2>/dev/null | head -1)
commit=${TESSERA_COMMIT:-$(git rev-parse --short HEAD 2>/dev/null || echo unknown)}
python3 - "$OUT" "$results" "${gpu:-unknown}" "$commit" <<'EOF'
import csv, datetime, json, re, sys, collections
out, results, gpu, commit = sys.argv[1:5]
suite = {(r["dtype"], r["op"], r["m"], r["n"], r["k"]): r for r in json.load(open(results))["rows"]}
runs = collections.OrderedDict()  # (dtype, op, sizes) -> [kernel dicts], in call order
for row in csv.reader(open(f"{out}/misses.csv")):
    d = dict(x.split("=", 1) for x in row[3:])
    runs.setdefault(tuple(row[:3]), []).append(d)

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
    """A call's kernels summed: time, time-weighted shares, the first (largest) kernel's grid."""
    us = sum(num(k, "gpu__time_duration.sum") for k in kernels) / 1e3
    def weighted(key):
        t = sum(num(k, "gpu__time_duration.sum") for k in kernels) or 1
        return sum(num(k, key) * num(k, "gpu__time_duration.sum") for k in kernels) / t
    idle = 0.0
    t = sum(num(k, "gpu__time_duration.sum") for k in kernels) or 1
    for k in kernels:
        el, act = num(k, "sm__cycles_elapsed.max"), num(k, "sm__cycles_active.avg")
        idle += (1 - act / el if el else 0) * num(k, "gpu__time_duration.sum") / t
    pipe_key = ("sm__pipe_fma_cycles_active.avg.pct_of_peak_sustained_elapsed" if dtype == "f32" else None)
    pipe = weighted(pipe_key or "sm__pipe_tensor_op_hmma_cycles_active.avg.pct_of_peak_sustained_elapsed")
    main = max(kernels, key=lambda k: num(k, "gpu__time_duration.sum"))
    return {
        "us": us, "idle": 100 * idle, "grid": int(num(main, "launch__grid_size")),
        "dram": weighted("dram__throughput.avg.pct_of_peak_sustained_elapsed"),
        "mb": sum(num(k, "dram__bytes_read.sum") for k in kernels) / 1e6,
        "l2": weighted("lts__throughput.avg.pct_of_peak_sustained_elapsed"), "pipe": pipe,
        "names": " + ".join(short(k.get("Kernel Name", "?")) for k in kernels),
    }

lines = ["| dtype | op | m | n | k | ratio | tessera kernels | us | grid | idle % | DRAM % | MB | L2 % | pipe % "
         "| cuBLAS kernels | us | grid | idle % | DRAM % | MB | L2 % | pipe % | limit |",
         "| --- | --- | ---: | ---: | ---: | ---: | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: "
         "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- |"]
for (dtype, op, sizes), kernels in runs.items():
    # Split the run's kernels into calls: a tessera call (its kernels) then a cuBLAS call, per size.
    calls, cur, side = [], [], None
    for k in kernels:
        s = is_tessera(k.get("Kernel Name", ""))
        if cur and s != side:
            calls.append((side, cur)); cur = []
        side = s; cur.append(k)
    if cur:
        calls.append((side, cur))
    pairs = [(calls[i][1], calls[i + 1][1]) for i in range(0, len(calls) - 1, 2) if calls[i][0] and not calls[i + 1][0]]
    for size, (t, c) in zip(sizes.split(","), pairs):
        m, n, k = map(int, size.split("x"))
        r = suite.get((dtype, op, m, n, k), {})
        a, b = call(t, dtype), call(c, dtype)
        top = max(("DRAM", a["dram"]), ("L2", a["l2"]), ("pipe", a["pipe"]), key=lambda x: x[1])
        limit = f"{top[0]} {top[1]:.0f} %" if top[1] >= 60 else f"latency (max {top[0]} {top[1]:.0f} %)"
        lines.append(f"| {dtype} | {op} | {m} | {n} | {k} | {r.get('ratio', 0):.3f} | {a['names']} | {a['us']:.1f} | {a['grid']} "
                     f"| {a['idle']:.0f} | {a['dram']:.0f} | {a['mb']:.0f} | {a['l2']:.0f} | {a['pipe']:.0f} | {b['names']} "
                     f"| {b['us']:.1f} | {b['grid']} | {b['idle']:.0f} | {b['dram']:.0f} | {b['mb']:.0f} | {b['l2']:.0f} "
                     f"| {b['pipe']:.0f} | {limit} |")
date = datetime.datetime.utcnow().strftime("%Y-%m-%dT%H:%MZ")
head = ["# GEMM shape suite: the shapes that miss their goals, profiled", "",
        f"- GPU: {gpu}", f"- date: {date}", f"- commit: {commit}",
        f"- command: `OUT=... bench/profile_misses.sh BUILD_DIR {results}`",
        "- ncu: one call of each side after 5 warm-ups, kernels serialized, clocks as the benchmark "
        "sees them (--clock-control none); ratio: the suite's (GPU time, medians)", ""]
open(f"{out}/gemm_misses.md", "w").write("\n".join(head + lines) + "\n")
print("\n".join(lines))
EOF
