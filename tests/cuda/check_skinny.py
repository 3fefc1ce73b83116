#!/usr/bin/env python3
"""Kernel 06 (kernels/gemm/06_skinny*.cu, 06_gemv.cuh) compiles for sm_90a to what its header
says. Each translation unit is compiled to PTX and to a cubin (ptxas -v) with the kernels' flags:

  - every kernel (gemv_rows, gemv_columns, add_splits): ptxas reports 0 bytes stack frame, 0 bytes
    spill stores and loads; no local memory and no call in the PTX;
  - the 36 GEMV instantiations are there: F32, F16, BF16 x S = 1, 2, 4, 8 vectors x gemv_rows
    and gemv_columns on 128- and 64-byte columns;
  - each one's k-loop (the innermost loop with at least the fast step's fma.rn.f32) holds
    one fast step's FMA body, U steps of R rows x S vectors x V (gemv_rows) or V rows x S
    (gemv_columns) fma.rn.f32 (V = 16 / element bytes), and at most the slow step's beside it;
  - the fast step's loads of X are 16-byte vectors in one straight block (no branch among them:
    a predicate and branch per element made the 16-bit kernels 2-3x slower): U x R of them
    (gemv_rows) or U (gemv_columns).

Usage: check_skinny.py NVCC INCLUDE_DIR WORKDIR 06_skinny.cu [06_skinny_f16.cu ...]
"""
import collections
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from check_ffma import kernel_bodies, loops  # noqa: E402  (same directory)
from check_fold import FLAGS, opcode, ptxas_stats, run  # noqa: E402

ELEMENT_BYTES = {"F32": 4, "F16": 2, "BF16": 2}
VECTOR_LOAD = re.compile(r"ld\.global(\.\w+)*\.v4\.")


def steps(kind, elem, s):
    """(U, R): steps of loads before their FMAs and rows a warp (gemv_rows) -- 06_gemv.cuh's."""
    v = 16 // elem
    if kind == "rows":
        return (4 if s == 1 else 1 if s >= 4 and elem == 2 else 2), (4 if s == 4 else 2)
    return (8 if elem == 4 and s == 1 else 4), 1


def blocks(body):
    """The basic blocks of a kernel: instructions between labels and branches."""
    out, cur = [], []
    for kind, text in body:
        if kind == "label":
            out.append(cur)
            cur = []
            continue
        cur.append(text)
        if re.search(r"\bbra(\.uni)?\s", text):
            out.append(cur)
            cur = []
    return out + [cur]


def check_unit(nvcc, include, source, work, seen, failures):
    stem = os.path.join(work, os.path.splitext(os.path.basename(source))[0])
    base = [nvcc, *FLAGS, "-I", include, source]
    run(base + ["-ptx", "-o", stem + ".ptx"])
    log = run(base + ["-cubin", "-Xptxas", "-v", "-o", stem + ".cubin"])
    stats = ptxas_stats(log)
    for name, body in sorted(kernel_bodies(open(stem + ".ptx").read()).items()):
        insns = [t for k, t in body if k == "insn"]
        short = re.sub(r"NS0_\d+_GLOBAL__N__\w+?_06_skinny\w*?_cu_\w+?(?=\d(F|BF)\d)", "", name)
        short = re.sub(r"^.*?((gemv_|add_)\w+?)I", r"\1 ", short)[:48]
        st = stats.get(name)
        if st is None:
            failures.append(f"{short}: no ptxas report")
            continue
        if st[:3] != (0, 0, 0):
            failures.append(f"{short}: stack frame / spill stores / spill loads {st[:3]}, want 0")
        if any(".local" in i for i in insns) or any(opcode(i).startswith("call") for i in insns):
            failures.append(f"{short}: local memory or a call")
        g = re.search(r"gemv_(rows|columns)I.*?\d(BF16|F16|F32)E(?:Li(\d+)E)?Li(\d)E", name)
        if not g:
            print(f"ok  {short}: {st[3]} registers, 0 B stack / spills")
            continue
        kind, dtype, tile, s = g.group(1), g.group(2), int(g.group(3) or 0), int(g.group(4))
        what = f"gemv_{kind} {dtype} S={s}" + (f" {tile} rows" if tile else "")
        seen.add((kind, dtype, tile, s))
        elem = ELEMENT_BYTES[dtype]
        v = 16 // elem
        u, r = steps(kind, elem, s)
        fast = u * r * s * v if kind == "rows" else u * v * s
        want_fma = fast + (r * s if kind == "rows" else v * s)
        want_x = u * r
        fmas = lambda l: sum(opcode(i) == "fma.rn.f32" for i in l)  # noqa: E731
        inner = [l for l in loops(body) if fmas(l) >= fast]
        loop = collections.Counter(opcode(i) for i in min(inner, key=len, default=[]))
        if not fast <= loop["fma.rn.f32"] <= want_fma:
            failures.append(f"{what}: {loop['fma.rn.f32']} fma.rn.f32 in the k-loop, want {fast} "
                            f"(the fast step's) to {want_fma} (and the slow step's)")
        straight = max((sum(bool(VECTOR_LOAD.match(opcode(i))) for i in b) for b in blocks(body)), default=0)
        if straight < want_x:
            failures.append(f"{what}: at most {straight} 16-byte loads in one straight block, want {want_x}")
        print(f"ok  {what:<28}: {st[3]:>3} registers, 0 B stack / spills; k-loop {loop['fma.rn.f32']} "
              f"fma.rn.f32, {straight} 16-byte loads in one block")


def main():
    nvcc, include, work, *sources = sys.argv[1:]
    os.makedirs(work, exist_ok=True)
    failures, seen = [], set()
    for source in sources:
        check_unit(nvcc, include, source, work, seen, failures)
    want = {(k, d, t, s) for d, e in ELEMENT_BYTES.items() for s in (1, 2, 4, 8)
            for k, t in (("rows", 0), ("columns", 128 // e), ("columns", 64 // e))}
    if want - seen:
        failures.append(f"missing GEMV instantiations {sorted(want - seen)}")
    for f in failures:
        print("FAIL:", f)
    if failures:
        print("FAILED")
        return 1
    print("PASSED: kernel 06 has no stack, no spills, no local memory; one FMA body per k-loop, the "
          "fast step's loads of X as 16-byte vectors in one straight block")
    return 0


if __name__ == "__main__":
    sys.exit(main())
