#!/usr/bin/env python3
"""The tutorial's kernel (kernels/tutorial/tutorial_gemm.cu, docs/writing-a-kernel.md) compiles for
sm_90a to what the page says it does. Read from the PTX and the ptxas -v report the build kept
(tessera_cuda_checked_object, cmake/TesseraCudaChecks.cmake); for its one kernel:

  - ptxas: 0 bytes stack frame, 0 bytes spill stores and loads; no local memory, no call;
  - the k-loop (the loop with the most fma.rn.f32) does one k-tile of the CTA tile 128x128x8 with
    256 threads, in registers and shared memory only:
      fma.rn.f32                 512  = 128*128*8 / 256 FMAs per thread
      cp.async.cg.shared.global    2  = one 16-byte vector of A and one of B: (128*8) / (256*4)
      ld.shared.v4.f32            32  = 8 k-blocks x (2 vectors of A + 2 of B): 128-bit loads
      ld.global                    0  (every global read is a cp.async)
      bar.sync                     2
      cp.async.wait_group          1
  - the page agrees: the register count it quotes is ptxas's, and its comparison with CuTe's C++
    has a number in every cell (no placeholder left).

Usage: check_tutorial.py ARTIFACT PAGE
(ARTIFACT: ${TESSERA_CUDA_ARTIFACTS}/<target>/tutorial_gemm.cu; PAGE: docs/writing-a-kernel.md)
"""
import collections
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from check_ffma import k_loop, kernel_bodies  # noqa: E402  (same directory)
import artifacts  # noqa: E402  (same directory)
from check_fold import opcode, ptxas_stats  # noqa: E402

EXPECTED = {"fma.rn.f32": 512, "cp.async.cg.shared.global": 2, "ld.shared.v4.f32": 32,
            "bar.sync": 2, "cp.async.wait_group": 1}


def page_failures(page, registers):
    """What docs/writing-a-kernel.md says that the compiled kernel contradicts, or leaves blank."""
    text = open(page).read()
    failures = []
    for quote in (f"Used {registers} registers", f": {registers} registers"):
        if quote not in text:
            failures.append(f"{os.path.basename(page)} does not say '{quote}'"
                            f" (ptxas: {registers} registers)")
    section = text.split("## The same kernel in CuTe's C++", 1)[-1].split("\n## ", 1)[0]
    rows = [l for l in section.splitlines() if l.startswith("| ") and not l.startswith("| ---")][1:]
    if not rows:
        failures.append(f"{os.path.basename(page)}: no comparison table with CuTe's C++")
    for row in rows:
        cells = [c.strip() for c in row.strip("|").split("|")]
        if any(not re.search(r"\d", c) for c in cells[1:]):
            failures.append(f"{os.path.basename(page)}: a cell without a number in '{cells[0]}'")
    return failures


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    source, page = sys.argv[1:3]
    kernels = kernel_bodies(artifacts.ptx(source))
    log = artifacts.ptxas(source)
    if len(kernels) != 1:
        sys.exit(f"FAIL: {os.path.basename(source)}: expected one kernel, found {list(kernels)}")
    (name, body), = kernels.items()
    insns = [t for k, t in body if k == "insn"]
    loop = collections.Counter(opcode(i) for i in k_loop(body))
    stats = ptxas_stats(log).get(name)
    failures = []
    if stats is None:
        sys.exit(f"FAIL: no ptxas report for {name}")
    if stats[:3] != (0, 0, 0):
        failures.append(f"stack frame / spill stores / spill loads {stats[:3]}, want 0")
    if any(".local" in i for i in insns) or any(opcode(i).startswith("call") for i in insns):
        failures.append("local memory or a call")
    for op, want in EXPECTED.items():
        if loop[op] != want:
            failures.append(f"{loop[op]} {op} in the k-loop, want {want}")
    failures += page_failures(page, stats[3])
    global_loads = sum(n for op, n in loop.items() if op.startswith("ld.global"))
    if global_loads:
        failures.append(f"{global_loads} ld.global in the k-loop, want 0 (cp.async only)")
    print(f"{name}: {stats[3]} registers, {stats[0]} bytes stack, "
          f"{stats[1] + stats[2]} bytes spills; "
          f"PTX: {len(insns)} instructions, k-loop {sum(loop.values())}:")
    for op, n in loop.most_common():
        print(f"  {op:<28}{n:>5}")
    for f in failures:
        print("FAIL:", f)
    if failures:
        print("FAILED")
        return 1
    print("PASSED: the tutorial kernel's k-loop is 512 FMAs, 32 128-bit shared loads and 2 16-byte "
          "cp.async per k-tile; no stack, no spills, no local memory")
    return 0


if __name__ == "__main__":
    sys.exit(main())
