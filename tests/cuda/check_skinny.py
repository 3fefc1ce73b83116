#!/usr/bin/env python3
"""Kernel 06 (kernels/gemm/06_skinny.cu) compiles for sm_90a to what its header says. Compiled to
PTX and to a cubin (ptxas -v) with the kernels' flags:

  - every kernel (skinny_kernel per element type and column group, skinny_reduce per element
    type): ptxas reports 0 bytes stack frame, 0 bytes spill stores and loads; no local memory
    and no call in the PTX;
  - the 9 skinny_kernel instantiations are there (F32, F16, BF16 x 1, 8, 16 columns of Y) and
    each one's k-loop (the innermost loop with most of the fma.rn.f32) holds exactly U FMA
    bodies of 4 rows x Cols x V fma.rn.f32 (V = 16 / element bytes: one 16-byte vector of K; U
    the steps loaded before their FMAs, kSteps: 16 / V with one column, else 1), i.e. the two
    access patterns share them (not unswitched into two copies), and it reads X with vector
    loads (ld.global.v4 / v2) besides the element fallback.

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
        short = re.sub(r"^.*?(skinny_\w+?)I", r"\1 ", name)[:48]
        if st is None:
            failures.append(f"{short}: no ptxas report")
            continue
        if st[:3] != (0, 0, 0):
            failures.append(f"{short}: stack frame / spill stores / spill loads {st[:3]}, want 0")
        if any(".local" in i for i in insns) or any(opcode(i).startswith("call") for i in insns):
            failures.append(f"{short}: local memory or a call")
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
        want = 4 * cols * v * (16 // v if cols == 1 else 1)
        vectors = sum(n for op, n in loop.items() if re.match(r"ld\.global(\.\w+)*\.v[24]\.", op))
        if loop["fma.rn.f32"] != want:
            failures.append(f"{dtype} x {cols}: {loop['fma.rn.f32']} fma.rn.f32 in the k-loop, want {want}")
        if not vectors:
            failures.append(f"{dtype} x {cols}: no vector global load in the k-loop")
        print(f"ok  {dtype:>4} x {cols:>2} columns: {st[3]} registers, 0 B stack / spills; k-loop "
              f"{loop['fma.rn.f32']} fma.rn.f32, {vectors} vector loads")
    missing = {(d, c) for d in ELEMENT_BYTES for c in (1, 8, 16)} - seen
    if missing:
        failures.append(f"missing skinny_kernel instantiations {sorted(missing)}")
    for f in failures:
        print("FAIL:", f)
    if failures:
        print("FAILED")
        return 1
    print("PASSED: kernel 06 has no stack, no spills, no local memory; U FMA bodies per k-loop")
    return 0


if __name__ == "__main__":
    sys.exit(main())
