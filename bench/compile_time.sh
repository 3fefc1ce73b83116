#!/usr/bin/env bash
# compile_time.sh [NVCC] [RESULTS.md] -- compile time of tessera code with nvcc: the small kernel
# bench/compile_time_kernel.cu with tessera and without (BASELINE), then each GEMM kernel file
# (kernels/gemm/*.cu) on its own, median of 3 runs each (wall and CPU seconds). Targets: a
# tessera kernel compiles in under 2 s (CuTe's tutorial kernels take 20-30 s); a GEMM file in
# 5 s (SIMT) or 8 s (tensor cores) on the 2-core machine. Prints a Markdown table and writes it
# to RESULTS.md (default bench/results/compile_time.md). This is the benchmark; CI only guards the
# ratio to the baseline (tests/cuda/compile_budget.py), never seconds.
set -euo pipefail
nvcc=${1:-nvcc}
root=$(cd "$(dirname "$0")/.." && pwd)
results=${2:-$root/bench/results/compile_time.md}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
flags=(-gencode=arch=compute_90a,code=sm_90a -O3 -std=c++20 -diag-suppress 20012 -I "$root/include")

# "wall cpu" of one compile: seconds, from GNU time's elapsed and user+sys.
once() {
  /usr/bin/time -f '%e %U %S' -o "$work/t" "$nvcc" "${flags[@]}" "$@" -o "$work/k.o" >/dev/null
  awk '{ printf "%.2f %.2f\n", $1, $2 + $3 }' "$work/t"
}
# The median run of 3 (by wall time): "wall cpu".
median3() {
  { once "$@"; once "$@"; once "$@"; } | sort -n | sed -n 2p
}

load_start=$(cut -d' ' -f1-3 /proc/loadavg)
rows=()
row() {  # name, then the compile's arguments
  local name=$1
  shift
  read -r wall cpu < <(median3 "$@")
  rows+=("| $name | $wall | $cpu |")
  echo "$name: $wall s wall, $cpu s CPU" >&2
}
row "compile_time_kernel.cu (tessera)" -c "$root/bench/compile_time_kernel.cu"
row "compile_time_kernel.cu -DBASELINE (no tessera)" -DBASELINE -c "$root/bench/compile_time_kernel.cu"
for f in "$root"/kernels/gemm/0*.cu; do
  row "kernels/gemm/$(basename "$f")" -c "$f"
done

{
  echo "# Compile time (bench/compile_time.sh)"
  echo
  echo "- date: $(date -u +%Y-%m-%dT%H:%MZ), commit $(git -C "$root" rev-parse --short HEAD 2>/dev/null || echo unknown)"
  echo "- nvcc: $("$nvcc" --version | tail -1)"
  echo "- host: $(nproc) cores, shared; load average $load_start at the start, $(cut -d' ' -f1-3 /proc/loadavg) at the end"
  echo "- command: \`nvcc ${flags[*]//$root/.} -c FILE\`, median of 3 runs"
  echo
  echo "| file | wall s | CPU s (user + sys) |"
  echo "| --- | ---: | ---: |"
  printf '%s\n' "${rows[@]}"
} | tee "$results"
