#!/usr/bin/env bash
# scripts/gpu.sh -- everything that needs the GPU, in one go (one device call):
#   1. Release build of libtessera_gemm.so, gemm_correctness and tessera-bench (build-gpu/);
#   2. SASS check of kernel 01 (FFMA count, no local memory) with cuobjdump;
#   3. every tests/device/*.cu with a main() that CMake does not build (others' device tests):
#      compiled with nvcc for sm_90a and run;
#   4. correctness of every kernel (gemm_correctness: odd sizes, N/T, NaN-poisoned C, float64
#      cuBLAS reference), then compute-sanitizer memcheck (small sizes) and racecheck (two sizes);
#   5. the benchmark against cuBLAS (tessera-bench), and bench/results/gemm_simt.md assembled
#      under $OUT (GPU, date, commit, command, numbers);
#   6. the tensor-core kernels (04 mma.sync, 05 wgmma + TMA) for TF32, F16 and BF16
#      (gemm_tensorcore): correctness (odd sizes, N/T, odd K, NaN-poisoned C, float64
#      reference), memcheck and racecheck, the benchmark against cuBLAS in the same run (launches
#      alternating), bench/results/gemm_tensorcore.md under $OUT.
#
#   7. the tutorial's kernel (docs/writing-a-kernel.md, tests/device/tutorial_gemm.cu): odd sizes
#      in guarded buffers against a float64 reference, memcheck and racecheck, speed against
#      cuBLAS SGEMM (N, T) in the same run; $OUT/tutorial_gemm.md (every mode but tc, guards);
#
#   0. (every mode) guard regions: every kernel and dtype with A, B and C inside larger buffers
#      (gemm_guards): nothing outside the blocks written, read or changed;
#
#   OUT=/tmp/out scripts/gpu.sh hopper         wgmma and TMA from layouts (tests/device/hopper_layouts.cu:
#                                              N = 8/64/136/256, both majors, every swizzle; TMA load and
#                                              store of every swizzle mode), then step 0 and step 6 (quick)
#   OUT=/tmp/out scripts/gpu.sh guards         only the build and the guard regions
#   OUT=/tmp/out scripts/gpu.sh tc [quick]     only steps 0, 1, 2 and 6
#   OUT=/tmp/out scripts/gpu.sh tutorial       only the build and step 7
#   OUT=/tmp/out scripts/gpu.sh twins          only the build and twins-bench: kernels 01-04 in the
#                                              vocabulary against their hand-indexed twins
#                                              (tests/cuda/twins), launches alternating
#
#   OUT=/tmp/out scripts/gpu.sh atoms          only the atom layout tests (tests/device/atoms.cu and
#                                              catalog_atoms.cu: the atom catalog against the hardware)
#   OUT=/tmp/out scripts/gpu.sh examples       only examples/ (transpose, softmax, gemm_epilogue_sm80):
#                                              built with nvcc, checked in guarded buffers against a
#                                              CPU reference, timed against cudaMemcpy D2D in the same
#                                              run; then memcheck of the correctness runs; $OUT/examples.md
#   OUT=/tmp/out scripts/gpu.sh torch          only the Python package as a PyTorch user gets it: `pip install .`
#                                              (libtessera_gemm.so built into it, offline) into
#                                              build-gpu/torch-site, then tests/device/torch_ops_test.py
#                                              (opcheck, eager, torch.compile, CUDA graphs, autograd,
#                                              host overhead): $OUT/torch_ops.md
#   OUT=/tmp/out scripts/gpu.sh codegen        only `tessera codegen --kernel`'s plain-CUDA kernel of the step 1
#                                              TiledMMA against the step 1 kernel (launch_01) and a float64
#                                              reference on ragged problems in guarded buffers
#                                              (tests/codegen/kernel_check.cu); TESSERA_EXE names the CLI
#                                              (default build/tools/tessera, else built in build-gpu-cli)
#   OUT=/tmp/out scripts/gpu.sh attention-profile   Nsight Compute of tessera.attention beside
#                                              SDPA's cuDNN backend on suite rows
#                                              (TESSERA_PROFILE_ROWS): $OUT/attention_profile_*.txt
#   OUT=/tmp/out scripts/gpu.sh attention-clocks   SM clock and power while tessera.attention and
#                                              SDPA's cuDNN backend each run head dim 128 rows for
#                                              seconds (bench/attention_clocks.py):
#                                              $OUT/attention_clocks.md
#   OUT=/tmp/out scripts/gpu.sh attention      only the attention forward (kernels/attention): float64
#                                              reference in guarded buffers, memcheck (--quick) and
#                                              racecheck (--tiny), TFLOP/s; $OUT/attention.md
#   OUT=/tmp/out scripts/gpu.sh attention-torch [quick]   tessera.attention against torch SDPA (math
#                                              backend, float32) (tests/device/torch_attention.py), then
#                                              bench/attention_bench.py (cuDNN and flash backends, launches
#                                              interleaved; quick: 6 rows): $OUT/attention_sdpa.md, .json
#   OUT=/tmp/out scripts/gpu.sh layers [quick] tessera.gemm against torch.mm (cuBLAS) on language
#                                              models' linear layers, y = x W^T, 1-8192 tokens
#                                              (bench/gemm_layers_bench.py): $OUT/gemm_layers.md
#   OUT=/tmp/out scripts/gpu.sh fp8 [quick]    tessera.scaled_mm (FP8) against a float64 reference and
#                                              torch._scaled_mm in guarded buffers
#                                              (tests/device/torch_scaled_mm.py), then bench/gemm_fp8_bench.py
#                                              against cuBLASLt, launches interleaved: $OUT/gemm_fp8.md, .json
#   OUT=/tmp/out scripts/gpu.sh fp8 tokens     the same for the 64- and 128-token rows, once
#                                              per forced split of K (TESSERA_FP8_SPLITS,
#                                              default "0 2 3 4 6 8"): $OUT/splits_S/gemm_fp8.md
#   OUT=/tmp/out scripts/gpu.sh simt           steps 1 to 5 only (full)
#   OUT=/tmp/out scripts/gpu.sh [full|quick|bench]    quick: skip racecheck and the long sizes
#   TESSERA_COMMIT=<sha>   commit to record when the tree has no .git (the device machine)
#   TESSERA_BENCH_ROWS=RE  only the matching rows in the benches that take --rows (fp8, layers)
#   BENCH_ARGS="..."       extra tessera-bench arguments (e.g. --sizes 4096x4096x4096)
set -uo pipefail
cd "$(dirname "$0")/.."
mode=${1:-full}
tc_mode=${2:-full}
OUT=${OUT:-/tmp/tessera-gpu}
mkdir -p "$OUT"
status=0
step() { echo; echo "== $*"; }
# The first Python that imports torch (the machine's, or the torch venv's), or nothing.
torch_python() {
  local p
  for p in python3 /opt/torch/.venv/bin/python; do
    if command -v "$p" >/dev/null && "$p" -c "import torch" 2>/dev/null; then echo "$p"; return; fi
  done
}
# A library TARGET (tessera_attention, tessera_gemm) in build-gpu (the release CMake build,
# incremental); LOG: its build log.
cuda_library() {
  cmake -S . -B build-gpu -G Ninja -DCMAKE_BUILD_TYPE=Release -DTESSERA_BUILD_TESTS=OFF \
    -DTESSERA_BUILD_TOOLS=OFF -DTESSERA_BUILD_BENCH=OFF -DTESSERA_ENABLE_CUDA=ON \
    >build-gpu.cmake.log 2>&1 \
    && cmake --build build-gpu -j "$(nproc)" --target "$1" >"$2" 2>&1 \
    || { tail -n 40 build-gpu.cmake.log "$2"; return 1; }
}
attention_library() { cuda_library tessera_attention "$1"; }
# py: the Python with torch, or the mode is skipped.
need_torch_python() {
  py=$(torch_python)
  [ -n "$py" ] || { echo "SKIPPED: no Python with torch"; exit 0; }
}
# bench/SCRIPT against LIBRARY (--quick in quick mode), its results in $OUT and recorded as run
# by `gpu.sh MODE [quick]`; its output in $OUT/LOG, the last TAIL lines shown.
torch_bench() {
  local mode=$1 script=$2 lib=$3 log=$4 tail_lines=$5 quick=""
  [ "$tc_mode" = quick ] && quick=--quick
  local command="OUT=\$OUT bash scripts/gpu.sh $mode${quick:+ quick}" rows=()
  if [ -n "${TESSERA_BENCH_ROWS:-}" ] && grep -q -- '"--rows"' "bench/$script"; then
    rows=(--rows "$TESSERA_BENCH_ROWS")
    command="TESSERA_BENCH_ROWS='$TESSERA_BENCH_ROWS' $command"
  fi
  TESSERA_COMMIT="$commit" TESSERA_BENCH_COMMAND="$command" \
    "$py" "bench/$script" $quick ${rows[@]+"${rows[@]}"} --library "$lib" --out "$OUT" 2>&1 \
    | tee "$OUT/$log" | tail -n "$tail_lines"
  [ "${PIPESTATUS[0]}" -eq 0 ] || status=1
}

commit=${TESSERA_COMMIT:-$(git rev-parse --short HEAD 2>/dev/null || echo unknown)}
gpu=$(nvidia-smi --query-gpu=name --format=csv,noheader 2>/dev/null | head -1)
step "GPU: ${gpu:-none}  commit: $commit  mode: $mode"
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,power.limit --format=csv || true

if [ "$mode" = atoms ]; then
  step "atom layouts against the hardware (tests/device/atoms.cu, catalog_atoms.cu)"
  mkdir -p build-gpu
  for name in atoms catalog_atoms; do
    echo "-- $name"
    if nvcc -std=c++20 -O2 -gencode=arch=compute_90a,code=sm_90a -Iinclude "tests/device/$name.cu" -o "build-gpu/$name" \
         >"build-gpu/$name.build.log" 2>&1; then
      "build-gpu/$name" 2>&1 | tee "$OUT/$name.txt"; rc=${PIPESTATUS[0]}
      echo "-- $name: exit $rc"; [ $rc -eq 0 ] || status=1
    else
      tail -20 "build-gpu/$name.build.log"; echo "-- $name: BUILD FAILED"; status=1
    fi
  done
  step "done: status $status"
  exit $status
fi

if [ "$mode" = examples ]; then
  step "examples (examples/*.cu): guarded buffers, CPU references, speed against cudaMemcpy D2D"
  mkdir -p build-gpu/examples
  rm -f build-gpu/examples/summary.log
  md="$OUT/examples.md"
  { echo "# examples/ on ${gpu:-unknown GPU}"; echo; echo "- date: $(date -u +%Y-%m-%dT%H:%MZ)"; echo "- commit: $commit"
    echo "- command: OUT=\$OUT bash scripts/gpu.sh examples"; echo
    echo "| example | size | dtype | GB/s | memcpy D2D GB/s | ratio |"; echo "|---|---|---|---|---|---|"; } >"$md"
  for name in transpose softmax gemm_epilogue_sm80 hopper_gemm_epilogue; do
    [ -f "examples/$name.cu" ] || continue
    echo "-- $name"
    if nvcc -std=c++20 -O3 -gencode=arch=compute_90a,code=sm_90a -diag-suppress 20012 -Xptxas -v -Iinclude \
         "examples/$name.cu" -o "build-gpu/examples/$name" -lcublas >"build-gpu/examples/$name.build.log" 2>&1; then
      "build-gpu/examples/$name" 2>&1 | tee "$OUT/$name.txt"; rc=${PIPESTATUS[0]}
      [ "$name" = hopper_gemm_epilogue ] && echo >>"$md"  # (its own table: TFLOP/s against cuBLAS)
      grep '^| ' "$OUT/$name.txt" >>"$md"
      echo "-- $name: exit $rc"; [ $rc -eq 0 ] || status=1
      if command -v compute-sanitizer >/dev/null; then
        compute-sanitizer --tool memcheck --print-limit 5 "build-gpu/examples/$name" --no-bench >"$OUT/$name.memcheck.txt" 2>&1
        rc=$?; tail -3 "$OUT/$name.memcheck.txt"; echo "-- $name memcheck: exit $rc"; [ $rc -eq 0 ] || status=1
      fi
    else
      tail -30 "build-gpu/examples/$name.build.log"; echo "-- $name: BUILD FAILED"; status=1
    fi
    { echo; echo "$name: $(grep -E 'PASSED|FAILED' "$OUT/$name.txt" 2>/dev/null | tail -1)"; } >>build-gpu/examples/summary.log
  done
  { echo; echo "Correctness (guarded buffers, NaN-poisoned outputs, odd sizes):"; echo; cat build-gpu/examples/summary.log; } >>"$md"
  step "done: status $status"
  exit $status
fi

if [ "$mode" = codegen ]; then
  step "codegen --kernel: the generated plain-CUDA kernel against the step 1 kernel (kernel_check.cu)"
  exe=${TESSERA_EXE:-build/tools/tessera}
  if ! [ -x "$exe" ]; then
    cmake -S . -B build-gpu-cli -G Ninja -DCMAKE_BUILD_TYPE=Release -DTESSERA_BUILD_TESTS=OFF \
      -DTESSERA_BUILD_BENCH=OFF >build-gpu-cli.cmake.log 2>&1 \
      && cmake --build build-gpu-cli -j "$(nproc)" --target tessera >build-gpu-cli.build.log 2>&1 \
      || { tail -30 build-gpu-cli.cmake.log build-gpu-cli.build.log; exit 1; }
    exe=build-gpu-cli/tools/tessera
  fi
  mkdir -p build-gpu/codegen
  "$exe" codegen --preset step1 --kernel --namespace gen -o build-gpu/codegen/gen.cuh || exit 1
  nvcc -std=c++20 -O3 -gencode=arch=compute_90a,code=sm_90a -Iinclude -Ikernels/gemm \
    -Ibuild-gpu/codegen tests/codegen/kernel_check.cu kernels/gemm/01_simt_global.cu \
    -o build-gpu/codegen/kernel_check >build-gpu/codegen/build.log 2>&1 \
    || { tail -30 build-gpu/codegen/build.log; exit 1; }
  build-gpu/codegen/kernel_check 2>&1 | tee "$OUT/codegen_kernel.txt"; rc=${PIPESTATUS[0]}
  [ $rc -eq 0 ] || status=1
  if command -v compute-sanitizer >/dev/null; then
    compute-sanitizer --tool memcheck --print-limit 5 build-gpu/codegen/kernel_check \
      >"$OUT/codegen_kernel.memcheck.txt" 2>&1; rc=$?
    tail -3 "$OUT/codegen_kernel.memcheck.txt"; [ $rc -eq 0 ] || status=1
  fi
  step "done: status $status"
  exit $status
fi

if [ "$mode" = torch ]; then
  step "the Python package with its CUDA library, as a PyTorch user installs it (pip install .)"
  need_torch_python
  site=$PWD/build-gpu/torch-site
  rm -rf "$site" build-gpu/torch-wheel && mkdir -p "$site" build-gpu/torch-wheel
  t0=$(date +%s)
  # Offline: the build requirements must be there already (no build isolation, no index).
  if "$py" -c "import scikit_build_core, nanobind" 2>/dev/null; then
    if "$py" -m pip --version >/dev/null 2>&1; then
      TESSERA_PIP_CUDA=ON CMAKE_BUILD_PARALLEL_LEVEL=$(nproc) "$py" -m pip install -v --no-index \
        --no-build-isolation --no-deps --target "$site" . >build-gpu/torch-pip.log 2>&1
    else  # no pip in this environment: the same build through the PEP 517 hook
      TESSERA_PIP_CUDA=ON CMAKE_BUILD_PARALLEL_LEVEL=$(nproc) "$py" -c "
import pathlib, sys, zipfile, scikit_build_core.build as b
w = b.build_wheel('build-gpu/torch-wheel')
zipfile.ZipFile(pathlib.Path('build-gpu/torch-wheel') / w).extractall(sys.argv[1])" "$site" \
        >build-gpu/torch-pip.log 2>&1
    fi
    rc=$?
    grep -E "tessera:|error" build-gpu/torch-pip.log | head -20
    echo "pip install: exit $rc in $(( $(date +%s) - t0 )) s; installed: $(ls "$site/tessera" | tr '\n' ' ')"
    [ $rc -eq 0 ] && [ -f "$site/tessera/libtessera_gemm.so" ] || { tail -40 build-gpu/torch-pip.log; status=1; }
  else
    echo "NOTE: no scikit-build-core/nanobind for $py (offline: cannot pip install .); the test uses"
    echo "      the source tree with libtessera_gemm.so built by CMake"
    cmake -S . -B build-gpu -G Ninja -DCMAKE_BUILD_TYPE=Release -DTESSERA_BUILD_TESTS=OFF \
      -DTESSERA_BUILD_TOOLS=OFF -DTESSERA_BUILD_BENCH=OFF -DTESSERA_ENABLE_CUDA=ON >build-gpu.cmake.log 2>&1 \
      && cmake --build build-gpu -j "$(nproc)" --target tessera_gemm >build-gpu.build.log 2>&1 \
      || { tail -30 build-gpu.build.log; exit 1; }
    torch_lib=$PWD/build-gpu/kernels/libtessera_gemm.so
  fi
  step "torch.ops.tessera: opcheck, eager, torch.compile, CUDA graphs, autograd, host overhead"
  (cd build-gpu && env -u TESSERA_GEMM_LIBRARY PYTHONPATH="$site" TESSERA_COMMIT="$commit" OUT="$OUT" \
     "$py" ../tests/device/torch_ops_test.py ${torch_lib:-} 2>&1) | tee "$OUT/torch_ops.txt" | tail -40
  rc=${PIPESTATUS[0]}; [ $rc -eq 0 ] || status=1
  step "done: status $status"
  exit $status
fi

if [ "$mode" = attention-torch ]; then
  step "tessera.attention on torch tensors against torch SDPA (tests/device/torch_attention.py), then bench/attention_bench.py"
  need_torch_python
  # The library from the CMake build of `attention` mode (build-gpu, incremental); the package from
  # the source tree (tests/device/tessera_package.py), the library named by its path.
  attention_library build-gpu.attention-torch.log || exit 1
  lib=$PWD/build-gpu/kernels/libtessera_attention.so
  (cd build-gpu && env -u TESSERA_ATTENTION_LIBRARY "$py" ../tests/device/torch_attention.py "$lib" 2>&1) \
    | tee "$OUT/torch_attention.txt" | tail -40
  [ "${PIPESTATUS[0]}" -eq 0 ] || status=1
  step "bench/attention_bench.py: tessera.attention against SDPA's cuDNN and flash backends"
  torch_bench attention-torch attention_bench.py "$lib" attention_sdpa.txt 12
  step "done: status $status"
  exit $status
fi

if [ "$mode" = layers ]; then
  step "tessera.gemm against torch.mm on models' linear layers (bench/gemm_layers_bench.py)"
  need_torch_python
  cuda_library tessera_gemm build-gpu.layers.log || exit 1
  torch_bench layers gemm_layers_bench.py "$PWD/build-gpu/kernels/libtessera_gemm.so" \
    gemm_layers.txt 4
  step "done: status $status"
  exit $status
fi

if [ "$mode" = fp8 ]; then
  step "tessera.scaled_mm (FP8) against float64 and torch._scaled_mm (tests/device/torch_scaled_mm.py), then bench/gemm_fp8_bench.py"
  need_torch_python
  cuda_library tessera_gemm build-gpu.fp8.log || exit 1
  lib=$PWD/build-gpu/kernels/libtessera_gemm.so
  (cd build-gpu && env -u TESSERA_GEMM_LIBRARY "$py" ../tests/device/torch_scaled_mm.py "$lib" 2>&1) \
    | tee "$OUT/torch_scaled_mm.txt" | tail -60
  [ "${PIPESTATUS[0]}" -eq 0 ] || status=1
  if [ "$tc_mode" = tokens ]; then
    # The 64- and 128-token rows once per forced split of K (plan.hpp's TESSERA_GEMM_SPLITS; 0:
    # the plan's rules), each checked first: $OUT/splits_S/gemm_fp8.md, .json.
    for s in ${TESSERA_FP8_SPLITS:-0 2 3 4 6 8}; do
      step "TESSERA_GEMM_SPLITS=$s: tests/device/torch_scaled_mm.py, gemm_fp8_bench.py --tokens"
      (cd build-gpu && TESSERA_GEMM_SPLITS=$s env -u TESSERA_GEMM_LIBRARY \
        "$py" ../tests/device/torch_scaled_mm.py "$lib" 2>&1) | tail -3
      [ "${PIPESTATUS[0]}" -eq 0 ] || status=1
      TESSERA_GEMM_SPLITS=$s TESSERA_COMMIT="$commit" \
        TESSERA_BENCH_COMMAND="OUT=\$OUT bash scripts/gpu.sh fp8 tokens" \
        "$py" bench/gemm_fp8_bench.py --tokens --library "$lib" --out "$OUT/splits_$s" 2>&1 \
        | tail -6
      [ "${PIPESTATUS[0]}" -eq 0 ] || status=1
    done
    step "done: status $status"
    exit $status
  fi
  step "bench/gemm_fp8_bench.py: tessera.scaled_mm against torch._scaled_mm (cuBLASLt)"
  torch_bench fp8 gemm_fp8_bench.py "$lib" gemm_fp8.txt 50
  step "done: status $status"
  exit $status
fi

if [ "$mode" = attention-profile ]; then
  step "Nsight Compute: tessera.attention beside SDPA's cuDNN backend on suite rows" \
    "(bench/attention_profile.py)"
  py=$(torch_python)
  if [ -z "$py" ] || ! command -v ncu >/dev/null; then
    echo "SKIPPED: no Python with torch or no ncu"; exit 0
  fi
  attention_library build-gpu.attention-profile.log || exit 1
  # Rows: TESSERA_PROFILE_ROWS, e.g. "bfloat16:128:512 bfloat16:128:16384:causal".
  for row in ${TESSERA_PROFILE_ROWS:-bfloat16:128:512 bfloat16:128:16384 bfloat16:256:4096}; do
    IFS=: read -r dt d s c <<<"$row"
    name="attention_profile_${dt}_d${d}_s${s}${c:+_causal}"
    ncu --nvtx --nvtx-include "profile/" --section SpeedOfLight --section ComputeWorkloadAnalysis \
      --section MemoryWorkloadAnalysis --section WarpStateStats --section SchedulerStats \
      --section Occupancy --section LaunchStats \
      "$py" bench/attention_profile.py --dtype "$dt" --head-dim "$d" --seqlen "$s" \
      ${c:+--causal} --library "$PWD/build-gpu/kernels/libtessera_attention.so" \
      >"$OUT/$name.txt" 2>&1 || status=1
    echo "-- $name: $(grep -c 'Section: GPU Speed Of Light' "$OUT/$name.txt") kernels profiled"
  done
  step "done: status $status"
  exit $status
fi

if [ "$mode" = attention-clocks ]; then
  step "SM clock and power while tessera.attention and SDPA's cuDNN backend run" \
    "(bench/attention_clocks.py)"
  need_torch_python
  attention_library build-gpu.attention-clocks.log || exit 1
  torch_bench attention-clocks attention_clocks.py \
    "$PWD/build-gpu/kernels/libtessera_attention.so" attention_clocks.txt 14
  step "done: status $status"
  exit $status
fi

if [ "$mode" = attention ]; then
  step "attention (kernels/attention, tests/device/attention_correctness.cpp): float64" \
    "reference in guarded buffers, memcheck, racecheck, TFLOP/s"
  cmake -S . -B build-gpu -G Ninja -DCMAKE_BUILD_TYPE=Release -DTESSERA_BUILD_TESTS=OFF \
    -DTESSERA_BUILD_TOOLS=OFF -DTESSERA_BUILD_BENCH=OFF -DTESSERA_ENABLE_CUDA=ON >build-gpu.cmake.log 2>&1 \
    || { cat build-gpu.cmake.log; exit 1; }
  cmake --build build-gpu -j "$(nproc)" --target attention_correctness 2>&1 | tee build-gpu.attention.log \
    | grep -E "error|spill"
  attn=build-gpu/kernels/attention_correctness
  [ -x $attn ] || { tail -40 build-gpu.attention.log; exit 1; }
  $attn 2>&1 | tee "$OUT/attention.txt" | grep -vE ": ok$"; [ "${PIPESTATUS[0]}" -eq 0 ] || status=1
  # The SM80 kernel too (the library picks fa3_sm90 on an sm_90 device).
  $attn --quick --kernel fa2_sm80 2>&1 | tee "$OUT/attention_sm80.txt" | grep -vE ": ok$"
  [ "${PIPESTATUS[0]}" -eq 0 ] || status=1
  if command -v compute-sanitizer >/dev/null; then
    for tool in memcheck racecheck; do
      size=--quick; [ $tool = racecheck ] && size=--tiny
      compute-sanitizer --tool $tool --error-exitcode 9 $attn $size >"$OUT/attention_$tool.txt" 2>&1
      rc=$?; tail -3 "$OUT/attention_$tool.txt"; echo "-- attention $tool: exit $rc"; [ $rc -eq 0 ] || status=1
    done
  fi
  { echo "# Attention forward (fa3_sm90 on sm_90, else fa2_sm80) on ${gpu:-unknown GPU}"; echo
    echo "- date: $(date -u +%Y-%m-%dT%H:%MZ)"; echo "- commit: $commit"
    echo "- command: OUT=\$OUT bash scripts/gpu.sh attention ($attn)"; echo
    echo "Correctness: $(grep -E 'checks failed' "$OUT/attention.txt")"; echo; echo '```'
    sed -n '/^benchmark/,$p' "$OUT/attention.txt"; echo '```'; } >"$OUT/attention.md"
  step "done: status $status"
  exit $status
fi

step "build (Release)"
t0=$(date +%s)
cmake -S . -B build-gpu -G Ninja -DCMAKE_BUILD_TYPE=Release -DTESSERA_BUILD_TESTS=OFF \
  -DTESSERA_BUILD_TOOLS=OFF -DTESSERA_BUILD_BENCH=OFF -DTESSERA_ENABLE_CUDA=ON >build-gpu.cmake.log 2>&1 \
  || { cat build-gpu.cmake.log; exit 1; }
cmake --build build-gpu -j "$(nproc)" --target tessera_gemm gemm_correctness tessera-bench gemm_tensorcore gemm_guards gemm_graph tutorial_gemm 2>&1 \
  | tee build-gpu.build.log | grep -E "error|warning|spill" ; true
[ -x build-gpu/kernels/tessera-bench ] && [ -x build-gpu/kernels/gemm_correctness ] && [ -x build-gpu/kernels/gemm_tensorcore ] \
  && [ -x build-gpu/kernels/gemm_guards ] && [ -x build-gpu/kernels/gemm_graph ] && [ -x build-gpu/kernels/tutorial_gemm ] \
  || { tail -50 build-gpu.build.log; exit 1; }
echo "built in $(( $(date +%s) - t0 )) s"
bin=build-gpu/kernels

if [ "$mode" = twins ]; then
  step "kernels 01-04 in the vocabulary vs their hand-indexed twins, launches alternating (twins-bench)"
  cmake --build build-gpu -j "$(nproc)" --target twins-bench 2>&1 | grep -E "error|spill"
  twins_cmd="$bin/twins-bench --md $OUT/twins_table.md ${BENCH_ARGS:-}"
  echo "$twins_cmd"
  $twins_cmd 2>&1 | tee "$OUT/twins_bench.txt"
  [ "${PIPESTATUS[0]}" -eq 0 ] || status=1
  step "done: status $status"
  exit $status
fi

tutorial() {
  step "the tutorial's kernel (docs/writing-a-kernel.md): correctness in guarded buffers, speed against cuBLAS"
  tut_cmd="$bin/tutorial_gemm --md $OUT/tutorial_table.md"
  echo "$tut_cmd"
  $tut_cmd 2>&1 | tee "$OUT/tutorial_gemm.txt" | tail -36
  [ "${PIPESTATUS[0]}" -eq 0 ] || status=1
  compute-sanitizer --tool memcheck --error-exitcode 9 "$bin/tutorial_gemm" --small 2>&1 \
    | tail -4 | tee "$OUT/tutorial_memcheck.txt"
  [ "${PIPESTATUS[0]}" -eq 0 ] || status=1
  compute-sanitizer --tool racecheck --error-exitcode 9 "$bin/tutorial_gemm" --small 2>&1 \
    | tail -4 | tee "$OUT/tutorial_racecheck.txt"
  [ "${PIPESTATUS[0]}" -eq 0 ] || status=1
  {
    echo "# The tutorial's kernel (docs/writing-a-kernel.md) vs cuBLAS SGEMM"
    echo
    echo "- GPU: ${gpu:-unknown} ($(nvidia-smi --query-gpu=driver_version --format=csv,noheader | head -1) driver)"
    echo "- date: $(date -u +%Y-%m-%dT%H:%MZ)"
    echo "- commit: $commit"
    echo "- command: \`OUT=... scripts/gpu.sh $mode\` (\`$tut_cmd\`)"
    echo "- problem: C = A B^T, column-major (cuBLAS sgemm N, T), fp32, alpha 1, beta 0"
    echo "- timing: GPU time (CUDA events around each launch, queued behind a 100 us busy wait so that the host's work for the call is not in the time; TESSERA_BENCH_TIMING=call times from an idle GPU), 5 warm-ups, median of 30, tutorial and cuBLAS launches alternating; inputs rotated over enough sets to exceed 4x L2; cuBLAS in CUBLAS_DEFAULT_MATH (no TF32)"
    echo "- max rel err: max |tutorial - cuBLAS| / max |cuBLAS|"
    echo
    cat "$OUT/tutorial_table.md" 2>/dev/null
    echo
    echo "Correctness: $(tail -1 "$OUT/tutorial_gemm.txt" 2>/dev/null)"
    echo "memcheck: $(grep -h "ERROR SUMMARY" "$OUT/tutorial_memcheck.txt" 2>/dev/null)"
    echo "racecheck: $(grep -h "RACECHECK SUMMARY\|ERROR SUMMARY" "$OUT/tutorial_racecheck.txt" 2>/dev/null)"
  } >"$OUT/tutorial_gemm.md"
}
if [ "$mode" = tutorial ]; then
  tutorial
  step "done: status $status"
  exit $status
fi
if [ "$mode" = hopper ]; then
  step "wgmma and TMA from layouts (tests/device/hopper_layouts.cu)"
  if nvcc -std=c++20 -O3 -gencode=arch=compute_90a,code=sm_90a -Iinclude tests/device/hopper_layouts.cu \
       -o build-gpu/hopper_layouts >build-gpu/hopper_layouts.build.log 2>&1; then
    timeout 300 build-gpu/hopper_layouts 2>&1 | tee "$OUT/hopper_layouts.txt"
    [ "${PIPESTATUS[0]}" -eq 0 ] || status=1
  else
    tail -30 build-gpu/hopper_layouts.build.log; echo "hopper_layouts: BUILD FAILED"; status=1
  fi
  if command -v cuobjdump >/dev/null; then
    step "SASS of kernel 05: HGMMA, UTMALDG, UTMASTG, LDL/STL"
    cuobjdump -sass build-gpu/kernels/libtessera_gemm.so 2>/dev/null | awk '
      /Function :/ { name=$3; seen[name] = 1 }
      /HGMMA/ { hgmma[name]++ } /UTMALDG/ { ldg[name]++ } /UTMASTG/ { stg[name]++ } /LDL|STL/ { local[name]++ }
      END { for (n in seen) if (n ~ /gemm_05_kernel/) printf "%-100.100s HGMMA %3d  UTMALDG %2d  UTMASTG %2d  LDL/STL %d\n", n, hgmma[n], ldg[n], stg[n], local[n] }' \
      | sort | tee "$OUT/sass_05.txt"
  fi
fi

step "guard regions: A, B, C inside larger buffers, every kernel and dtype (gemm_guards)"
"$bin/gemm_guards" $([ "$mode" = quick ] && echo --quick) 2>&1 | tee "$OUT/gemm_guards.txt" | tail -25
[ "${PIPESTATUS[0]}" -eq 0 ] || status=1
step "the ABI as a library: CUDA graph capture and replay, the caller's workspace (gemm_graph)"
"$bin/gemm_graph" 2>&1 | tee "$OUT/gemm_graph.txt" | tail -8
[ "${PIPESTATUS[0]}" -eq 0 ] || status=1
step "tessera.gemm on torch tensors against torch.matmul (tests/device/torch_gemm.py)"
torch_py=$(torch_python)
if [ -n "$torch_py" ]; then
  "$torch_py" tests/device/torch_gemm.py "$PWD/$bin/libtessera_gemm.so" 2>&1 | tee "$OUT/torch_gemm.txt" | tail -4
  rc=${PIPESTATUS[0]}; [ $rc -eq 0 ] || [ $rc -eq 77 ] || status=1
else
  echo "SKIPPED: no Python with torch"
fi
if [ "$mode" = guards ]; then
  step "done: status $status"
  exit $status
fi

step "SASS: FFMA / local-memory instructions per kernel"
if command -v cuobjdump >/dev/null; then
  cuobjdump -sass build-gpu/kernels/libtessera_gemm.so 2>/dev/null | awk '
    /Function :/ { name=$3 }
    /FFMA/ { ffma[name]++ } /LDL|STL/ { local[name]++ } /LDS.128/ { lds128[name]++ }
    /LDS/ { lds[name]++ } /LDGSTS/ { ldgsts[name]++ } /HMMA/ { hmma[name]++ } /LDSM/ { ldsm[name]++ }
    /HGMMA/ { hgmma[name]++ } /UTMALDG/ { utmaldg[name]++ } /UTMASTG/ { utmastg[name]++ }
    /Function :/ { seen[name] = 1 }
    END { for (n in seen) printf "%-110.110s FFMA %5d  HMMA %4d  HGMMA %3d  UTMALDG %2d  UTMASTG %2d  LDSM %3d  LDS %4d (128-bit %4d)  LDGSTS %3d  LDL/STL %d\n", n, ffma[n], hmma[n], hgmma[n], utmaldg[n], utmastg[n], ldsm[n], lds[n], lds128[n], ldgsts[n], local[n] }' \
    | sort | tee "$OUT/sass_summary.txt"
  # Kernel 05: one instantiation per translation unit (dtype x tile width), two in the tf32 ones
  # (A from shared memory, A through registers), HGMMA in each, no local memory.
  n05=$(( $(ls kernels/gemm/05_wgmma_tma_*.cu | wc -l) + $(ls kernels/gemm/05_wgmma_tma_tf32*.cu | wc -l) ))
  if awk -v want="$n05" '/gemm_05_kernel/ { n++; if ($0 !~ /HGMMA +[1-9]/ || $0 !~ /LDL\/STL 0$/) bad++ }
          END { exit !(n == want && !bad) }' "$OUT/sass_summary.txt"; then
    echo "SASS check 05: $n05 kernels (f16, bf16, tf32 x tile widths, tf32 twice), HGMMA in each, no LDL/STL: ok"
  else
    echo "SASS check 05: FAILED"; status=1
  fi
  # The kernels written in the vocabulary against their hand-indexed twins (tests/cuda/twins):
  # the k-loops' memory and math SASS counts, side by side.
  # (the pairs of tests/cuda/CMakeLists.txt's cuda_vocabulary_twins; 03's 128 x 64 tile has no twin)
  g=kernels/gemm t=tests/cuda/twins
  twins=($g/01_simt_global.cu $t/01_hand.cu $g/02_simt_cp_async.cu $t/02_hand.cu
         $g/03_simt_pipelined.cu $t/03_hand.cu
         $g/04_mma_sync_f16.cu+$g/04_mma_sync_bf16.cu+$g/04_mma_sync_tf32.cu $t/04_hand.cu)
  python3 tests/cuda/sass_twins.py "$(command -v nvcc)" include build-gpu/sass_twins "${twins[@]}" 2>&1 \
    | tee "$OUT/sass_twins.txt"
  [ "${PIPESTATUS[0]}" -eq 0 ] || status=1
  # Kernel 01's k-loop against the hand-written step 1 kernel: FFMA count, no LDL/STL.
  tests/cuda/ffma_check.sh build-gpu 2>&1 | tee "$OUT/ffma_check.txt"
  [ "${PIPESTATUS[0]}" -eq 0 ] || status=1
  # The main loop of 03's default NN kernel (A vectors, B k-contiguous), for reading.
  [ -n "${SASS_DUMP:-}" ] && cuobjdump -sass build-gpu/kernels/libtessera_gemm.so 2>/dev/null | awk '
    /Function :/ { keep = ($3 ~ /gemm_03_kernel.*CopyKindE1ELS4_0ENS1_5ShapeILi128ELi128ELi16ELi4ELi1E/) }
    keep' >"$OUT/sass_03.txt"
fi

tensorcore() {
  step "tensor cores (04, 05): correctness ($tc_mode)"
  if [ "$tc_mode" = quick ]; then "$bin/gemm_tensorcore" --small; else "$bin/gemm_tensorcore"; fi \
    2>&1 | tee "$OUT/tc_correctness.txt" | tail -30
  [ "${PIPESTATUS[0]}" -eq 0 ] || status=1

  step "tensor cores (04, 05): compute-sanitizer memcheck (--small) and racecheck (--tiny)"
  compute-sanitizer --tool memcheck --error-exitcode 9 "$bin/gemm_tensorcore" --small 2>&1 \
    | tail -6 | tee "$OUT/tc_memcheck.txt"
  [ "${PIPESTATUS[0]}" -eq 0 ] || status=1
  compute-sanitizer --tool racecheck --error-exitcode 9 "$bin/gemm_tensorcore" --tiny 2>&1 \
    | tail -6 | tee "$OUT/tc_racecheck.txt"
  [ "${PIPESTATUS[0]}" -eq 0 ] || status=1

  step "tensor cores (04, 05): benchmark against cuBLAS"
  tc_cmd="$bin/gemm_tensorcore --bench --kernels ${TC_KERNELS:-04_mma_sync,05_wgmma_tma} --dtypes ${TC_DTYPES:-f16,bf16,tf32} --sizes ${TC_SIZES:-4096x4096x4096,8192x8192x8192,5120x5120x4096,8192x8192x1024,16384x16384x16384} --trans ${TC_TRANS:-NN} --json $OUT/gemm_tensorcore.json --md $OUT/tc_table.md"
  echo "$tc_cmd"
  $tc_cmd 2>&1 | tee build-gpu/tc_bench.txt
  [ "${PIPESTATUS[0]}" -eq 0 ] || status=1
  tc_trans_cmd="$bin/gemm_tensorcore --bench --dtypes f16,bf16,tf32 --sizes 4096x4096x4096,8192x8192x8192 --trans TN,NT,TT --kernels 05_wgmma_tma --md $OUT/tc_trans.md"
  echo "$tc_trans_cmd"
  $tc_trans_cmd 2>&1 | tee build-gpu/tc_bench_trans.txt
  [ "${PIPESTATUS[0]}" -eq 0 ] || status=1
  {
    echo "# GEMM ladder part 2: tensor cores (04 mma.sync, 05 wgmma + TMA) vs cuBLAS"
    echo
    echo "- GPU: ${gpu:-unknown} ($(nvidia-smi --query-gpu=driver_version --format=csv,noheader | head -1) driver)"
    echo "- date: $(date -u +%Y-%m-%dT%H:%MZ)"
    echo "- commit: $commit"
    echo "- command: \`OUT=... scripts/gpu.sh tc $tc_mode\` (benchmark: \`$tc_cmd\`)"
    echo "- timing: GPU time (CUDA events around each launch, queued behind a 100 us busy wait so that the host's work for the call is not in the time; TESSERA_BENCH_TIMING=call times from an idle GPU), 5 warm-ups, median of 30, tessera and cuBLAS launches alternating (same clocks and power state); inputs rotated over enough sets to exceed 4x L2; cuBLAS = cublasGemmEx (F16/BF16 in and out, F32 compute; TF32 = CUBLAS_COMPUTE_32F_FAST_TF32 on fp32 data), same process and data"
    echo "- max rel err: max |tessera - cuBLAS| / max |cuBLAS| (both round C to the dtype)"
    echo
    cat "$OUT/tc_table.md" 2>/dev/null
    echo
    echo "op(A), op(B) combinations (\`$tc_trans_cmd\`):"
    echo
    cat "$OUT/tc_trans.md" 2>/dev/null
    echo
    echo "Correctness: $(tail -1 "$OUT/tc_correctness.txt" 2>/dev/null)"
    echo "memcheck: $(grep -h "ERROR SUMMARY" "$OUT/tc_memcheck.txt" 2>/dev/null)"
    echo "racecheck: $(grep -h "RACECHECK SUMMARY\|ERROR SUMMARY" "$OUT/tc_racecheck.txt" 2>/dev/null)"
  } >"$OUT/gemm_tensorcore.md"
}
if [ "$mode" = tc ] || [ "$mode" = hopper ]; then
  [ "$mode" = hopper ] && tc_mode=${2:-quick}
  tensorcore
  step "done: status $status"
  exit $status
fi

step "device tests (tests/device/*.cu with a main, not built by CMake)"
for f in tests/device/*.cu; do
  name=$(basename "$f" .cu)
  case "$name" in gemm_tensorcore|tutorial_gemm) continue ;; esac
  grep -q "int main" "$f" || continue
  echo "-- $name"
  if nvcc -std=c++20 -O3 -gencode=arch=compute_90a,code=sm_90a -Iinclude "$f" -o "build-gpu/$name" -lcublas -lcuda \
       >"build-gpu/$name.build.log" 2>&1; then
    timeout 300 "build-gpu/$name"; rc=$?
    echo "-- $name: exit $rc"; [ $rc -eq 0 ] || [ $rc -eq 77 ] || status=1
  else
    tail -20 "build-gpu/$name.build.log"; echo "-- $name: BUILD FAILED"; status=1
  fi
done

if [ "$mode" != bench ]; then
  step "correctness"
  if [ "$mode" = quick ]; then "$bin/gemm_correctness" --small; else "$bin/gemm_correctness"; fi \
    2>&1 | tee "$OUT/correctness.txt" | tail -40
  [ "${PIPESTATUS[0]}" -eq 0 ] || status=1

  step "compute-sanitizer memcheck (--small)"
  compute-sanitizer --tool memcheck --error-exitcode 9 "$bin/gemm_correctness" --small 2>&1 \
    | tail -8 | tee "$OUT/memcheck.txt"
  [ "${PIPESTATUS[0]}" -eq 0 ] || status=1
  if [ "$mode" = full ] || [ "$mode" = simt ]; then
    step "compute-sanitizer racecheck (--tiny)"
    compute-sanitizer --tool racecheck --error-exitcode 9 "$bin/gemm_correctness" --tiny 2>&1 \
      | tail -8 | tee "$OUT/racecheck.txt"
    [ "${PIPESTATUS[0]}" -eq 0 ] || status=1
  fi
fi

step "benchmark"
bench_cmd="$bin/tessera-bench ${BENCH_ARGS:-} --json $OUT/gemm_bench.json --md $OUT/gemm_bench_table.md"
echo "$bench_cmd"
$bench_cmd 2>&1 | tee build-gpu/bench.txt
[ "${PIPESTATUS[0]}" -eq 0 ] || status=1
# op(A), op(B) combinations for the fastest kernel.
trans_cmd="$bin/tessera-bench --kernels 03_simt_pipelined --sizes 4096x4096x4096 --trans NN,TN,NT,TT --md $OUT/gemm_bench_trans.md"
if [ -z "${BENCH_ARGS:-}" ]; then
  echo "$trans_cmd"
  $trans_cmd 2>&1 | tee build-gpu/bench_trans.txt
  [ "${PIPESTATUS[0]}" -eq 0 ] || status=1
fi

# The results file (copy to bench/results/gemm_simt.md).
{
  echo "# GEMM ladder part 1 (fp32 SIMT) vs cuBLAS SGEMM"
  echo
  echo "- GPU: ${gpu:-unknown} ($(nvidia-smi --query-gpu=driver_version --format=csv,noheader | head -1) driver)"
  echo "- date: $(date -u +%Y-%m-%dT%H:%MZ)"
  echo "- commit: $commit"
  echo "- command: \`OUT=... scripts/gpu.sh $mode\` (benchmark: \`$bench_cmd\`)"
  echo "- timing: GPU time (CUDA events around each launch, queued behind a 100 us busy wait so that the host's work for the call is not in the time; TESSERA_BENCH_TIMING=call times from an idle GPU), 5 warm-ups, median of 30, tessera and cuBLAS launches alternating (same clocks and power state); inputs rotated over enough sets to exceed 4x L2; cuBLAS in CUBLAS_DEFAULT_MATH (no TF32), same process and data"
  echo "- max rel err: max |tessera - cuBLAS| / max |cuBLAS|"
  echo
  cat "$OUT/gemm_bench_table.md" 2>/dev/null
  echo
  if [ -f "$OUT/gemm_bench_trans.md" ]; then
    echo "op(A), op(B) combinations (\`$trans_cmd\`):"
    echo
    cat "$OUT/gemm_bench_trans.md"
    echo
  fi
  echo "Correctness: $(tail -1 "$OUT/correctness.txt" 2>/dev/null)"
  echo "memcheck: $(grep -h "ERROR SUMMARY" "$OUT/memcheck.txt" 2>/dev/null)"
  echo "racecheck: $(grep -h "RACECHECK SUMMARY\|ERROR SUMMARY" "$OUT/racecheck.txt" 2>/dev/null)"
} >"$OUT/gemm_simt.md"
tutorial
[ "$mode" = simt ] || tensorcore
step "done: status $status"
exit $status
