#!/usr/bin/env bash
# run_bench.sh -- host algebra speed: builds bench_algebra and the CLI (Release), runs the
# Google Benchmark suite and the `tessera batch` oracle timing, and writes
# bench/results/host_algebra.md (plus the raw benchmark JSON beside it).
#
# Usage: bench/run_bench.sh [BUILD_DIR]   (default: build-bench; ORACLE_DIR overrides ../shared/oracle)
set -euo pipefail

root="$(cd "$(dirname "$0")/.." && pwd)"
build="${1:-$root/build-bench}"
oracle="${ORACLE_DIR:-$root/../shared/oracle}"
results="$root/bench/results"
mkdir -p "$results"

# Only the targets we time: tests and CUDA stay off so a half-written test elsewhere cannot
# break the benchmark build.
cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release \
  -DTESSERA_BUILD_TESTS=OFF -DTESSERA_ENABLE_CUDA=OFF -DTESSERA_BUILD_TOOLS=ON \
  -DTESSERA_BUILD_BENCH=ON >/dev/null
cmake --build "$build" --target bench_algebra tessera_cli

# Median of 5 repetitions: the machines this runs on are shared, and the median shrugs off
# a repetition that lost the CPU.
bench_cmd=("$build/bench/bench_algebra" --benchmark_repetitions=5
           --benchmark_report_aggregates_only=true --benchmark_min_time=0.2
           --benchmark_out="$results/host_algebra.json" --benchmark_out_format=json)
"${bench_cmd[@]}"

batch_line="(oracle not found at $oracle)"
if [[ -f "$oracle/layout_cases.json" ]]; then
  # Keep the whole output (a pipe into head would cut the script off mid-print); the first
  # line carries the cases/s figure.
  batch_out="$(python3 "$root/tests/oracle_batch.py" "$build/tools/tessera" "$oracle")"
  batch_line="${batch_out%%$'\n'*}"
fi
echo "$batch_line"

commit="$(git -C "$root" rev-parse --short HEAD)$(git -C "$root" diff --quiet HEAD -- include tools bench/bench_algebra.cpp || echo '+dirty')"
cpu="$(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ *//')"
cores="$(nproc)"
load="$(cut -d' ' -f1-3 /proc/loadavg)"
compiler="$(c++ --version | head -1)"

python3 - "$results/host_algebra.json" "$results/host_algebra.md" <<EOF
import json, sys
data = json.load(open(sys.argv[1]))
rows = [b for b in data["benchmarks"] if b.get("aggregate_name") == "median"]
lines = [
    "# Host layout algebra speed",
    "",
    "| | |",
    "|---|---|",
    "| date | $(date -u +%Y-%m-%dT%H:%MZ) |",
    "| commit | $commit |",
    "| machine | $cpu, $cores cores (load average at the end: $load) |",
    "| compiler | $compiler, CMAKE_BUILD_TYPE=Release (-O3 -DNDEBUG) |",
    "| command | \`bench/run_bench.sh\`: \`bench_algebra --benchmark_repetitions=5 --benchmark_report_aggregates_only=true --benchmark_min_time=0.2\`, then \`tests/oracle_batch.py tessera ../shared/oracle\` |",
    "",
    "Inputs are parsed from strings at run time and pass through \`benchmark::DoNotOptimize\` every",
    "iteration, so nothing is constant-folded or hoisted. Median of 5 repetitions, CPU time.",
    "Target: < 1 us per op. Where the time goes and how to cut it: host_algebra_profile.md.",
    "",
    "| benchmark | ns/op | < 1 us |",
    "|---|---:|:---:|",
]
for b in rows:
    name = b["run_name"]
    ns = b["cpu_time"] if b["time_unit"] == "ns" else b["cpu_time"] * {"us": 1e3, "ms": 1e6}[b["time_unit"]]
    lines.append(f"| {name} | {ns:,.0f} | {'yes' if ns < 1000 else '**no**'} |")
lines += ["", "## \`tessera batch\` throughput", "", "tests/oracle_batch.py: $batch_line", ""]
open(sys.argv[2], "w").write("\n".join(lines))
EOF
echo "wrote $results/host_algebra.md"
