#!/usr/bin/env python3
"""Kernel 06 (kernels/gemm/06_skinny.cu) compiles for sm_90a to what its header says. Compiled to
PTX and to a cubin (ptxas -v) with the kernels' flags:

  - every kernel (skinny_kernel per element type and column group, the GEMV's gemv_rows and
    gemv_columns, add_splits): ptxas reports 0 bytes stack frame, 0 bytes spill stores and
    loads; no local memory and no call in the PTX;
  - the 6 skinny_kernel instantiations are there (F32, F16, BF16 x 8, 16 columns of Y) and
    each one's k-loop (the innermost loop with most of the fma.rn.f32) holds exactly one FMA
    body of 4 rows x Cols x V fma.rn.f32 (V = 16 / element bytes: one 16-byte vector of K),
    i.e. the two access patterns share it (not unswitched into two copies), and it reads X with
    vector loads (ld.global.v4 / v2) besides the element fallback;
  - the 9 GEMV instantiations are there (F32, F16, BF16 x gemv_rows, gemv_columns on 128- and
    64-byte columns), and each one's k-loop issues its U steps as 16-byte loads: gemv_rows 4 x
    (2 rows of X + v), gemv_columns U = 8 (f32) or 4 (16-bit) vectors of X.

Usage: check_skinny.py NVCC INCLUDE_DIR 06_skinny.cu WORKDIR
"""
import collections
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from check_ffma import kernel_bodies, loops  # noqa: E402  (same directory)
from check_fold import FLAGS, opcode, ptxas_stats, run  # noqa: E402

ELEMENT_BYTES = {"F32": 4, "F16": 2, "BF16": 2}


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


def main():
    nvcc, include, source, work = sys.argv[1:5]
    os.makedirs(work, exist_ok=True)
    stem = os.path.join(work, "06_skinny")
    base = [nvcc, *FLAGS, "-I", include, source]
    run(base + ["-ptx", "-o", stem + ".ptx"])
    log = run(base + ["-cubin", "-Xptxas", "-v", "-o", stem + ".cubin"])
    kernels = kernel_bodies(open(stem + ".ptx").read())
    stats = ptxas_stats(log)
    failures, seen = [], set()
    for name, body in sorted(kernels.items()):
        insns = [t for k, t in body if k == "insn"]
        st = stats.get(name)
        short = re.sub(r"^.*?((skinny_|gemv_|add_)\w+?)I", r"\1 ", name)[:48]
        if st is None:
            failures.append(f"{short}: no ptxas report")
            continue
        if st[:3] != (0, 0, 0):
            failures.append(f"{short}: stack frame / spill stores / spill loads {st[:3]}, want 0")
        if any(".local" in i for i in insns) or any(opcode(i).startswith("call") for i in insns):
            failures.append(f"{short}: local memory or a call")
        g = re.search(r"gemv_(rows|columns)I.*?\d(BF16|F16|F32)E(?:Li(\d+)E)?", name)
        if g:
            kind, dtype, rows = g.group(1), g.group(2), int(g.group(3) or 0)
            seen.add((kind, dtype, rows))
            want = 4 * 3 if kind == "rows" else (8 if dtype == "F32" else 4)
            # The k-loop: the innermost loop holding the fast step's fma.rn.f32.
            inner = [l for l in loops(body) if any(opcode(i) == "fma.rn.f32" for i in l)]
            loop = collections.Counter(opcode(i) for i in min(inner, key=len, default=[]))
            vectors = sum(n for op, n in loop.items() if re.match(r"ld\.global(\.\w+)*\.v4\.", op))
            if vectors != want:
                failures.append(f"gemv_{kind} {dtype} {rows}: {vectors} 16-byte loads in the k-loop, want {want}")
            # The fast step is one straight block: all its 16-byte loads and no predicated
            # instruction among them (a predicate and branch per element made the 16-bit kernels
            # 2-3x slower); its only element loads are gemv_columns' U values of v.
            scalar = 0 if kind == "rows" else want
            if not any(sum(bool(re.match(r"ld\.global(\.\w+)*\.v4\.", opcode(i))) for i in b) == want
                       and not any(i.startswith("@") for i in b[:-1])
                       and sum(bool(re.match(r"ld\.global(\.nc)?\.[usbf]\d+$", opcode(i))) for i in b) == scalar
                       for b in blocks(body)):
                failures.append(f"gemv_{kind} {dtype} {rows}: no straight block with the step's {want} 16-byte loads")
            print(f"ok  gemv_{kind:<7} {dtype:>4} {rows or '':>3}: {st[3]} registers, 0 B stack / spills; "
                  f"k-loop {vectors} 16-byte loads, {loop['fma.rn.f32']} fma.rn.f32")
            continue
        m = re.search(r"skinny_kernelINS\d+_\d+(F32|F16|BF16)ELi(\d+)E", name)
        if not m:
            print(f"ok  {short}: {st[3]} registers, 0 B stack / spills")
            continue
        dtype, cols = m.group(1), int(m.group(2))
        seen.add((dtype, cols))
        # The k-loop: the innermost (shortest) loop with at least half of the most FMAs a loop
        # has (the tile loop around it also holds the epilogue's, the store loop a few).
        fmas = lambda l: sum(opcode(i) == "fma.rn.f32" for i in l)  # noqa: E731
        most = max((fmas(l) for l in loops(body)), default=0)
        inner = [l for l in loops(body) if most and 2 * fmas(l) >= most]
        loop = collections.Counter(opcode(i) for i in min(inner, key=len, default=[]))
        v = 16 // ELEMENT_BYTES[dtype]
        want = 4 * cols * v
        vectors = sum(n for op, n in loop.items() if re.match(r"ld\.global(\.\w+)*\.v[24]\.", op))
        if loop["fma.rn.f32"] != want:
            failures.append(f"{dtype} x {cols}: {loop['fma.rn.f32']} fma.rn.f32 in the k-loop, want {want}")
        if not vectors:
            failures.append(f"{dtype} x {cols}: no vector global load in the k-loop")
        print(f"ok  {dtype:>4} x {cols:>2} columns: {st[3]} registers, 0 B stack / spills; k-loop "
              f"{loop['fma.rn.f32']} fma.rn.f32, {vectors} vector loads")
    missing = {(d, c) for d in ELEMENT_BYTES for c in (8, 16)}
    missing |= {("rows", d, 0) for d in ELEMENT_BYTES}
    missing |= {("columns", d, b // ELEMENT_BYTES[d]) for d in ELEMENT_BYTES for b in (128, 64)}
    missing -= seen
    if missing:
        failures.append(f"missing instantiations {sorted(missing, key=str)}")
    for f in failures:
        print("FAIL:", f)
    if failures:
        print("FAILED")
        return 1
    print("PASSED: kernel 06 has no stack, no spills, no local memory; one FMA body per k-loop of "
          "skinny_kernel, the GEMV's steps as 16-byte loads")
    return 0


if __name__ == "__main__":
    sys.exit(main())
