#!/usr/bin/env bash
# bench/gemm_shapes.sh -- the GEMM shape suite: the built-in choice of libtessera_gemm against
# cuBLAS (cublasGemmEx for F16/BF16/TF32, cublasSgemm for F32) on the shapes people run, launches
# interleaved in one process (tests/device/gemm_tensorcore.cu --bench, bench/gemm_bench.cu).
#
#   OUT=/tmp/out bench/gemm_shapes.sh BUILD_DIR [quick]
#
# Writes $OUT/gemm_shapes.md and $OUT/gemm_shapes.json (copy them to bench/results/): one row per
# dtype, op, shape with tessera's and cuBLAS's TFLOP/s, their ratio, the max relative error, and
# for the thinnest shapes (m or n <= 16) the achieved memory bandwidth, where HBM is the limit.
#
# The suite (column-major m x n x k, ops NN and TN):
#   squares      1024, 2048, 4096, 8192, 16384 (16384 not for F32: minutes per launch pair)
#   ragged waves 5120x5120x4096, 6144^3, 3072x3072x8192
#   MLP-like     4096x14336x4096, 14336x4096x4096
#   long K       1024x1024x16384
#   skinny       m or n in {1, 8, 16, 32, 64, 128, 256} against 4096 and 8192 (both orientations)
#   odd          4095x4097x511, 1000x1000x1000, 777x1333x999
# quick: one size per family, NN only (a smoke run).
set -uo pipefail
build=${1:?usage: gemm_shapes.sh BUILD_DIR [quick]}
mode=${2:-full}
OUT=${OUT:-/tmp/tessera-gpu}
mkdir -p "$OUT"
bin=$build/kernels
join() { local IFS=,; echo "$*"; }

squares=(1024x1024x1024 2048x2048x2048 4096x4096x4096 8192x8192x8192)
big=(16384x16384x16384)
waves=(5120x5120x4096 6144x6144x6144 3072x3072x8192)
mlp=(4096x14336x4096 14336x4096x4096)
longk=(1024x1024x16384)
skinny=()
for s in 1 8 16 32 64 128 256; do
  skinny+=("${s}x4096x4096" "4096x${s}x4096" "${s}x8192x8192" "8192x${s}x8192")
done
odd=(4095x4097x511 1000x1000x1000 777x1333x999)
ops=NN,TN
reps=20
if [ "$mode" = quick ]; then
  squares=(4096x4096x4096); big=(); waves=(5120x5120x4096); mlp=(4096x14336x4096)
  longk=(1024x1024x16384); skinny=(16x4096x4096 4096x16x4096 128x8192x8192); odd=(4095x4097x511)
  ops=NN; reps=10
fi
tc_sizes=$(join "${squares[@]}" "${big[@]}" "${waves[@]}" "${mlp[@]}" "${longk[@]}" "${skinny[@]}" "${odd[@]}")
f32_sizes=$(join "${squares[@]}" "${waves[@]}" "${mlp[@]}" "${longk[@]}" "${skinny[@]}" "${odd[@]}")

status=0
"$bin/gemm_tensorcore" --bench --kernels auto --dtypes f16,bf16,tf32 --sizes "$tc_sizes" --trans "$ops" \
  --reps $reps --json "$OUT/shapes_tc.json" >"$OUT/shapes_tc.txt" 2>&1 || status=1
"$bin/tessera-bench" --kernels auto --sizes "$f32_sizes" --trans "$ops" --reps $reps \
  --json "$OUT/shapes_f32.json" >"$OUT/shapes_f32.txt" 2>&1 || status=1

python3 - "$OUT" "$mode" <<'EOF'
import json, math, os, subprocess, sys, datetime
out, mode = sys.argv[1], sys.argv[2]
rows, gpu = [], "unknown"
for name, dtype in (("shapes_tc.json", None), ("shapes_f32.json", "f32")):
    path = os.path.join(out, name)
    if not os.path.exists(path):
        continue
    data = json.load(open(path))
    gpu = data.get("gpu", gpu)
    for r in data["rows"]:
        r["dtype"] = r.get("dtype", dtype)
        bytes_ = {"f16": 2, "bf16": 2}.get(r["dtype"], 4)
        # The fewest bytes: A, B read once, C written once.
        r["gbps"] = (r["m"] * r["k"] + r["k"] * r["n"] + r["m"] * r["n"]) * bytes_ / (r["ms"] * 1e6)
        rows.append(r)
commit = os.environ.get("TESSERA_COMMIT") or subprocess.run(
    ["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True).stdout.strip() or "unknown"
date = datetime.datetime.utcnow().strftime("%Y-%m-%dT%H:%MZ")
command = f"OUT=... bench/gemm_shapes.sh BUILD_DIR {mode}"
json.dump({"gpu": gpu, "date": date, "commit": commit, "command": command, "rows": rows},
          open(os.path.join(out, "gemm_shapes.json"), "w"), indent=1)
lines = [f"# GEMM shape suite: the built-in choice vs cuBLAS", "",
         f"- GPU: {gpu}", f"- date: {date}", f"- commit: {commit}", f"- command: `{command}`",
         "- timing: " + ("CUDA events around each launch from an idle GPU (TESSERA_BENCH_TIMING=call: the host's work for the call is in the time)"
                         if os.environ.get("TESSERA_BENCH_TIMING") == "call" else
                         "GPU time: CUDA events around each launch, queued behind a 100 us busy wait so that the host's work for the call is not in the time")
         + "; median, tessera and cuBLAS launches alternating, inputs rotated over enough sets to exceed 4x L2; cuBLAS = cublasGemmEx (F16/BF16 in and out, F32 compute; TF32 = CUBLAS_COMPUTE_32F_FAST_TF32) or cublasSgemm (F32), same process and data",
         "- host us: the host's time per call (median of 5 rounds of 16 calls queued behind a busy GPU), tessera / cuBLAS",
         "- GB/s: the fewest bytes (A and B read once, C written once) over tessera's time", "",
         "| dtype | op | m | n | k | tessera TFLOP/s | cuBLAS TFLOP/s | ratio | tessera GB/s | host us | max rel err |",
         "| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"]
for r in rows:
    host = f"{r['host_us']:.1f} / {r['cublas_host_us']:.1f}" if "host_us" in r else "-"
    lines.append(f"| {r['dtype']} | {r['op']} | {r['m']} | {r['n']} | {r['k']} | {r['tflops']:.2f} | "
                 f"{r['cublas_tflops']:.2f} | {r['ratio']:.3f} | {r['gbps']:.0f} | {host} | "
                 f"{r['max_rel_err']:.1e} |")
lines += ["", "Geometric mean of the ratio per dtype (all shapes of the run):", ""]
for d in ("f16", "bf16", "tf32", "f32"):
    rs = [r["ratio"] for r in rows if r["dtype"] == d and r["ratio"] > 0]
    if rs:
        g = math.exp(sum(math.log(x) for x in rs) / len(rs))
        worst = min(rows, key=lambda r: r["ratio"] if r["dtype"] == d else 9)
        lines.append(f"- {d}: {g:.3f} over {len(rs)} shapes; lowest {worst['ratio']:.3f} at "
                     f"{worst['m']}x{worst['n']}x{worst['k']} {worst['op']}")
open(os.path.join(out, "gemm_shapes.md"), "w").write("\n".join(lines) + "\n")
print("\n".join(lines[-6:]))
EOF
exit $status
