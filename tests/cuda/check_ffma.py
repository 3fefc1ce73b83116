#!/usr/bin/env python3
"""Kernel 01's k-loop is the hand-written kernel's: the same FMAs on registers, no local memory.

The rule: kernel 01's inner loop is FFMA on registers with no local memory, the same FFMA count
as the hand-written step 1 kernel. CI machines have no cuobjdump, so this reads the PTX and
the ptxas -v report the build kept of both (tessera_cuda_checked_sources) and checks, for 01
against the reference (tests/cuda/step1_hand.cu):

  - the k-loop (the loop with the most fma.rn.f32; both do one k-tile per iteration) has as many
    fma.rn.f32 as the reference's and as many global loads, and neither has zero;
  - no local memory (.local, ld.local, st.local) and no call anywhere in either kernel;
  - ptxas: 0 bytes stack frame, 0 bytes spill stores and loads.

The SASS form of the same check (FFMA per k-loop, LDL/STL) runs on the device machine:
tests/cuda/ffma_check.sh.

Usage: check_ffma.py KERNEL_01_ARTIFACT REFERENCE_ARTIFACT   (cmake/TesseraCudaChecks.cmake)
"""
import collections
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import artifacts  # noqa: E402  (same directory)
from check_fold import entry_lines, opcode, ptxas_stats  # noqa: E402


def kernel_bodies(ptx):
    """{mangled name: [(kind, text)]}: labels and instructions of every .entry, in order."""
    out = {}
    for name, lines in entry_lines(ptx).items():
        body = []
        for line in lines:
            if re.match(r"^\$L__\w+:$", line):
                body.append(("label", line[:-1]))
            elif line.startswith(".local"):
                body.append(("insn", line))  # kept so the local-memory check sees it
            elif line.endswith(";") and not line.startswith("."):
                body.append(("insn", line))
        out[name] = body
    return out


def loops(body):
    """The instructions of every loop: from a label to the branch back to it."""
    where, found = {}, []
    for pos, (kind, text) in enumerate(body):
        if kind == "label":
            where[text] = pos
            continue
        m = re.search(r"\bbra(?:\.uni)?\s+(\$L__\w+);", text)
        if m and m.group(1) in where:
            found.append([t for k, t in body[where[m.group(1)]:pos + 1] if k == "insn"])
    return found


def k_loop(body):
    """The loop with the most fma.rn.f32 (the k-loop of a SIMT GEMM)."""
    return max(loops(body), key=lambda l: sum(opcode(i) == "fma.rn.f32" for i in l), default=[])


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    kernel01, reference = sys.argv[1:3]
    rows, failures = {}, []
    for label, source in (("reference", reference), ("01", kernel01)):
        kernels = kernel_bodies(artifacts.ptx(source))
        log = artifacts.ptxas(source)
        if len(kernels) != 1:
            sys.exit(f"FAIL: {os.path.basename(source)}: expected one kernel, "
                     f"found {list(kernels)}")
        (name, body), = kernels.items()
        insns = [t for k, t in body if k == "insn"]
        loop = collections.Counter(opcode(i) for i in k_loop(body))
        stats = ptxas_stats(log).get(name)
        if stats is None:
            sys.exit(f"FAIL: {os.path.basename(source)}: no ptxas report for {name}")
        rows[label] = dict(fma=loop["fma.rn.f32"], loads=loop["ld.global.f32"],
                           loop=sum(loop.values()), total=len(insns), regs=stats[3],
                           stack=stats[0], spills=stats[1] + stats[2])
        if any(".local" in i for i in insns):
            failures.append(f"{label}: uses local memory")
        if any(opcode(i).startswith("call") for i in insns):
            failures.append(f"{label}: contains a call")
        if stats[:3] != (0, 0, 0):
            failures.append(f"{label}: stack frame / spill stores / spill loads {stats[:3]},"
                            " want 0")

    print(f"{'kernel':<11}{'k-loop fma':>11}{'k-loop ld.global':>17}{'k-loop insns':>13}"
          f"{'PTX insns':>10}{'regs':>6}{'stack':>6}{'spills':>7}")
    for label, r in rows.items():
        print(f"{label:<11}{r['fma']:>11}{r['loads']:>17}{r['loop']:>13}{r['total']:>10}"
              f"{r['regs']:>6}{r['stack']:>6}{r['spills']:>7}")
    ref, k01 = rows["reference"], rows["01"]
    if ref["fma"] == 0 or ref["loads"] == 0:
        failures.append("reference: no k-loop with FMAs and global loads found")
    if k01["fma"] != ref["fma"]:
        failures.append(f"01: {k01['fma']} fma.rn.f32 per k-loop iteration, the reference "
                        f"{ref['fma']}")
    if k01["loads"] != ref["loads"]:
        failures.append(f"01: {k01['loads']} global loads per k-loop iteration, the reference "
                        f"{ref['loads']}")
    # Kernel 01 is written in the vocabulary (device_tensor.hpp: local_tile, partition_A/B/C,
    # copy with identity-tensor predicates, gemm, axpby): its index arithmetic must cost no more
    # than the hand-written kernel's.
    if k01["loop"] > ref["loop"]:
        failures.append(f"01: {k01['loop']} instructions per k-loop iteration, more than the "
                        f"hand-written reference's {ref['loop']}")
    for f in failures:
        print("FAIL:", f)
    if failures:
        print("FAILED")
        return 1
    print(f"PASSED: 01's k-loop does the reference's {ref['fma']} FMAs on {ref['loads']} loaded "
          f"values per k-tile in {k01['loop']} instructions (reference {ref['loop']}), no local "
          "memory, no spills")
    return 0


if __name__ == "__main__":
    sys.exit(main())
