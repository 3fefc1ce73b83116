#!/usr/bin/env bash
# bench/profile_simt.sh -- where kernel 03's time goes, next to cuBLAS SGEMM (GPU machine).
#
#   OUT=/tmp/out bench/profile_simt.sh [MxNxK] [op]     (default 4096x4096x4096 NN)
#
# Builds tessera-bench, profiles one launch of 03 and one of cuBLAS with Nsight Compute
# (clock control off: the clocks the benchmark sees), and writes under $OUT:
#   ncu_simt.txt      issue slots, FMA pipe, warp stall reasons, occupancy, launch shape
#   sass_03.txt       the SASS of every kernel-03 instantiation (instruction mix per kernel)
set -uo pipefail
cd "$(dirname "$0")/.."
OUT=${OUT:-/tmp/tessera-profile}
size=${1:-4096x4096x4096}
op=${2:-NN}
mkdir -p "$OUT"
cmake -S . -B build-gpu -G Ninja -DCMAKE_BUILD_TYPE=Release -DTESSERA_BUILD_TESTS=OFF \
  -DTESSERA_BUILD_TOOLS=OFF -DTESSERA_BUILD_BENCH=OFF -DTESSERA_ENABLE_CUDA=ON >/dev/null || exit 1
cmake --build build-gpu -j "$(nproc)" --target tessera-bench 2>&1 | grep -E "error|spill" ; true
bin=build-gpu/kernels
NCU=$(command -v ncu || echo /usr/local/cuda/bin/ncu)
metrics=sm__cycles_elapsed.avg.per_second,smsp__issue_active.avg.pct_of_peak_sustained_active
metrics+=,sm__pipe_fma_cycles_active.avg.pct_of_peak_sustained_active
metrics+=,smsp__inst_executed.sum,smsp__inst_executed_pipe_fma.sum,smsp__inst_executed_op_shared_ld.sum
metrics+=,smsp__warps_active.avg.per_cycle_active,l1tex__data_bank_conflicts_pipe_lsu_mem_shared.sum
metrics+=,gpu__time_duration.sum,launch__registers_per_thread,launch__block_size,launch__grid_size
metrics+=,launch__shared_mem_per_block_dynamic,launch__occupancy_limit_registers
for r in barrier dispatch_stall long_scoreboard math_pipe_throttle mio_throttle no_instruction \
         not_selected selected short_scoreboard wait lg_throttle branch_resolving drain membar misc sleeping tex_throttle; do
  metrics+=,smsp__average_warps_issue_stalled_${r}_per_issue_active.ratio
done
"$NCU" --clock-control none --launch-skip 12 --launch-count 2 -k regex:'gemm|sgemm|xmma|ffma|nvjet|cutlass' \
  --metrics "$metrics" "$bin/tessera-bench" --kernels 03_simt_pipelined --sizes "$size" --trans "$op" --reps 10 \
  >"$OUT/ncu_simt.txt" 2>&1
grep -vE "^==PROF==|^  +[0-9]" "$OUT/ncu_simt.txt" | tail -120
if command -v cuobjdump >/dev/null; then
  cuobjdump -sass "$bin/libtessera_gemm.so" 2>/dev/null | awk '/Function :/ { keep = ($3 ~ /gemm_03_kernel/) } keep' >"$OUT/sass_03.txt"
  wc -l "$OUT/sass_03.txt"
fi
