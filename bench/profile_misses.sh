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
#   grid      CTAs of the call's longest kernel
#   idle %    the share of SM cycles with no CTA resident (1 - active / elapsed, time-weighted)
#   DRAM %    DRAM throughput over the kernel, of its peak; MB read from DRAM
#   L2 %      L2 throughput, of its peak
#   pipe %    the math pipe the dtype runs on (the tensor pipe, wgmma and mma.sync alike; FMA
#             for f32), of its peak over the elapsed cycles
# and "limit": the unit tessera's kernel runs closest to its peak, or "latency" when none
# passes 60 %. The selection and the table are bench/profile_misses.py (checked on the CPU by
# tests/profile_misses_test.py against a recorded ncu CSV).
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

# The misses, one line per ncu run: "dtype op size,size,..." (bench/profile_misses.py).
python3 bench/profile_misses.py select "$results" "${DTYPES:-f16,bf16,tf32,f32}" >"$OUT/misses.txt" || exit 1
echo "$(awk -F'[ ,]' '{n += NF - 2} END {print n + 0}' "$OUT/misses.txt") shapes miss their goals"

: >"$OUT/misses.csv"
while read -r dtype op sizes; do
  if [ "$dtype" = f32 ]; then
    cmd=("$bin/tessera-bench" --kernels auto --sizes "$sizes" --trans "$op" --reps 1)
  else
    cmd=("$bin/gemm_tensorcore" --bench --kernels auto --dtypes "$dtype" --sizes "$sizes" --trans "$op" --reps 1)
  fi
  echo "-- $dtype $op: $sizes"
  csv="$OUT/ncu_${dtype}_${op}.csv"
  TESSERA_BENCH_PROFILE=1 TESSERA_BENCH_HOST=0 "$NCU" --profile-from-start off --clock-control none --csv \
    --page raw --metrics "$metrics" "${cmd[@]}" >"$csv" 2>"${csv%.csv}.log" \
    || { echo "ncu failed:"; tail -5 "${csv%.csv}.log"; }
  python3 bench/profile_misses.py tag "$csv" "$dtype" "$op" "$sizes" >>"$OUT/misses.csv"
done <"$OUT/misses.txt"

gpu=$(nvidia-smi --query-gpu=name --format=csv,noheader 2>/dev/null | head -1)
commit=${TESSERA_COMMIT:-$(git rev-parse --short HEAD 2>/dev/null || echo unknown)}
python3 bench/profile_misses.py table "$OUT" "$results" "${gpu:-unknown}" "$commit"
