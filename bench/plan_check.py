#!/usr/bin/env python3
"""The GEMM plan on a real GPU against the recorded choices (tests/data/gemm_plans.tsv).

Usage: plan_check.py LIBTESSERA_GEMM_SO [DEVICE]   (DEVICE: h100_sxm, the default, h200, ...)

Calls tessera_gemm_plan for every recorded problem of DEVICE through the library, which asks
the GPU it runs on how many CTAs and clusters fit, and prints the problems whose plan differs
from the recorded one (recorded from a device description, tests/data/gemm_plans.md): none on
an H100 SXM or H200 whose occupancy is the description's. Exit status 1 when any differs.
"""
import ctypes
import os
import sys

lib = ctypes.CDLL(sys.argv[1])
device = sys.argv[2] if len(sys.argv) > 2 else "h100_sxm"
plan = lib.tessera_gemm_plan
i64, vp, f32 = ctypes.c_int64, ctypes.c_void_p, ctypes.c_float
plan.argtypes = [ctypes.c_char_p, ctypes.c_int, ctypes.c_char, ctypes.c_char, i64, i64, i64, f32,
                 vp, i64, vp, i64, f32, vp, i64, ctypes.c_char_p, ctypes.c_size_t]
dtypes = {"F32": 0, "TF32": 1, "F16": 2, "BF16": 3}
data = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests", "data",
                    "gemm_plans.tsv")
checked = differ = 0
for line in open(data):
    f = line.rstrip("\n").split("\t")
    if line.startswith("#") or f[0] != device:
        continue
    text = ctypes.create_string_buffer(2048)
    kernel = None if f[14] == "-" else f[14].encode()
    status = plan(kernel, dtypes[f[1]], f[2][0].encode(), f[2][1].encode(), int(f[3]), int(f[4]),
                  int(f[5]), float(f[12]), int(f[9], 16), int(f[6]), int(f[10], 16), int(f[7]),
                  float(f[13]), int(f[11], 16), int(f[8]), text, 2048)
    checked += 1
    if status != int(f[15]) or text.value.decode() != f[17]:
        differ += 1
        if differ <= 10:
            print(f"differs: {f[17]}\n    now: {text.value.decode()}")
print(f"{checked} plans of {device} checked, {differ} differ")
sys.exit(1 if differ or not checked else 0)
