#!/usr/bin/env bash
# compile_time.sh [NVCC] -- wall time of nvcc on bench/compile_time_kernel.cu, with tessera and
# without (BASELINE), median of 3 runs each. Issue target: a tessera kernel compiles in under 2 s
# (CuTe's tutorial kernels take 20-30 s). Prints one line per variant and the difference.
set -euo pipefail
nvcc=${1:-nvcc}
root=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
flags=(-gencode=arch=compute_90a,code=sm_90a -O3 -std=c++20 -diag-suppress 20012 -I "$root/include")

# Median wall seconds of 3 compiles; extra arguments go to nvcc.
median3() {
  local times=()
  for _ in 1 2 3; do
    local t0 t1
    t0=$(date +%s%N)
    "$nvcc" "${flags[@]}" "$@" -c "$root/bench/compile_time_kernel.cu" -o "$work/k.o"
    t1=$(date +%s%N)
    times+=("$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.3f", (b - a) / 1e9 }')")
  done
  printf '%s\n' "${times[@]}" | sort -n | sed -n 2p
}

echo "nvcc: $("$nvcc" --version | tail -1); host: $(nproc) cores, load $(cut -d' ' -f1 /proc/loadavg)"
with=$(median3)
base=$(median3 -DBASELINE)
printf 'tessera kernel   %.2f s (median of 3)\n' "$with"
printf 'baseline kernel  %.2f s (median of 3, no tessera)\n' "$base"
awk -v a="$with" -v b="$base" 'BEGIN { printf "tessera cost     %.2f s\n", a - b }'
