#!/usr/bin/env python3
"""bench/profile_misses.py on the CPU: which suite shapes miss their goals, and the table built
from Nsight Compute's raw CSV (a recorded one, tests/data/ncu_raw_tf32_256x4096x4096_NN.csv).

Usage: profile_misses_test.py REPO_ROOT
"""
import io
import os
import sys

root = sys.argv[1]
sys.path.insert(0, os.path.join(root, "bench"))
import profile_misses as pm  # noqa: E402

failures = []


def check(cond, what):
    if not cond:
        failures.append(what)


def row(d, op, m, n, k, ratio):
    return {"dtype": d, "op": op, "m": m, "n": n, "k": k, "ratio": ratio}


# The goals: f16/bf16 below 0.9 or a square from 2048 below 1.05; tf32 below 0.8 or every side
# from 2048 below 0.95; f32 skinny (min(m, n) <= 256) below 0.8 or every side from 1024 below 0.95.
rows = [row("f16", "NN", 32, 4096, 4096, 0.89), row("f16", "NN", 32, 4096, 4096 + 1, 0.90),
        row("f16", "TN", 2048, 2048, 2048, 1.04), row("f16", "TN", 1024, 1024, 1024, 0.95),
        row("f16", "NN", 2048, 4096, 2048, 0.95), row("bf16", "NN", 8192, 8192, 8192, 1.049),
        row("tf32", "NN", 256, 4096, 4096, 0.79), row("tf32", "NN", 2048, 2048, 4096, 0.94),
        row("tf32", "NN", 1024, 1024, 1024, 0.85), row("f32", "TN", 16, 4096, 4096, 0.79),
        row("f32", "NN", 1024, 1024, 16384, 0.94), row("f32", "NN", 777, 1333, 999, 0.5),
        row("f32", "NN", 300, 4096, 4096, 0.81)]
got = {k: v for k, v in pm.select(rows, ["f16", "bf16", "tf32", "f32"]).items()}
want = {("f16", "NN"): ["32x4096x4096"], ("f16", "TN"): ["2048x2048x2048"],
        ("bf16", "NN"): ["8192x8192x8192"], ("tf32", "NN"): ["256x4096x4096", "2048x2048x4096"],
        ("f32", "TN"): ["16x4096x4096"], ("f32", "NN"): ["1024x1024x16384"]}
check(got == want, f"select: {got} != {want}")
check(list(pm.select(rows, ["f32"])) == [("f32", "TN"), ("f32", "NN")], "select: the dtype filter")

# Kernel names: tessera's keep their configuration, cuBLAS's their tile.
check(pm.short("void tessera::<unnamed>::gemm_05_kernel<tessera::<unnamed>::WgmmaTmaCfg<2, 128, 0, "
               "2>>"
               "(CUtensorMap_st, tessera::<unnamed>::Params05)")
               == "gemm_05_kernel<WgmmaTmaCfg<2,128,0,2>>",
      "short: tessera's kernel")
check(pm.short("sm90_xmma_gemm_f32f32_tf32f32_f32_nn_n_tilesize64x128x32_warpgroupsize1x1x1")
      == "sm90_xmma 64x128x32",
      "short: cuBLAS's kernel")

# The recorded pair: tessera's call (a packing kernel, then kernel 05) and cuBLAS's.
csv_path = os.path.join(root, "tests", "data", "ncu_raw_tf32_256x4096x4096_NN.csv")
tagged = pm.tag(csv_path, "tf32", "NN", "256x4096x4096")
check(len(tagged) == 3, f"tag: {len(tagged)} kernels, want 3")
out = io.StringIO()
import csv  # noqa: E402
csv.writer(out).writerows(tagged)
text = pm.table(io.StringIO(out.getvalue()), [row("tf32", "NN", 256, 4096, 4096, 0.795)], "GPU",
                "abc1234", "R.json")
lines = [l for l in text.splitlines() if l.startswith("| tf32")]
check(len(lines) == 1, f"table: {len(lines)} rows, want 1:\n{text}")
if lines:
    cells = [c.strip() for c in lines[0].strip("|").split("|")]
    # dtype op m n k ratio | names us grid idle DRAM MB L2 pipe | names us grid idle DRAM MB L2 pipe
    # | limit
    check(cells[:6] == ["tf32", "NN", "256", "4096", "4096", "0.795"],
          f"table: the shape {cells[:6]}")
    check(cells[6] == "pack_k_major<unsigned int,1> + gemm_05_kernel<WgmmaTmaCfg<2,128,0,2>>",
          f"table: {cells[6]}")
    check(cells[7] == "48.4",
          f"table: tessera's time is the sum of its kernels' (5.856 + 42.496 us): {cells[7]}")
    check(cells[8] == "128", f"table: the longest kernel's grid: {cells[8]}")
    # time-weighted: (21.56 * 5.856 + 51.81 * 42.496) / 48.352 = 48.15 % DRAM
    check(cells[10] == "48", f"table: tessera's DRAM share {cells[10]}")
    check(cells[11] == "76", f"table: MB read from DRAM (4.2 + 71.4): {cells[11]}")
    check(cells[14] == "sm90_xmma 64x128x32" and cells[15] == "38.0",
          f"table: cuBLAS {cells[14:16]}")
    # idle: 1 - active / elapsed, time-weighted: cuBLAS 1 - 59046.88 / 67502 = 12.5 %
    check(cells[17] == "13", f"table: cuBLAS's idle share {cells[17]}")
    check(cells[22] == "L2 66 %", f"table: the limit {cells[22]}")
check("- commit: abc1234" in text and "- GPU: GPU" in text, "table: the header")

if failures:
    print("FAIL:\n  " + "\n  ".join(failures))
    sys.exit(1)
print("profile_misses: select, short, tag and table checked")
