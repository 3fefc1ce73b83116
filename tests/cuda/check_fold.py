#!/usr/bin/env python3
"""Proves that tessera layouts fold: reads the PTX and the ptxas -v report the build kept of
fold_proof.cu (tessera_cuda_checked_object, cmake/TesseraCudaChecks.cmake) and checks every
tessera kernel against the hand-written one (fold_hand):

  - the same number of PTX instructions (exactly) and the same multiset of opcodes;
  - no local memory (.local declarations, ld.local / st.local) and no `call`;
  - ptxas: 0 bytes stack frame, 0 bytes spill stores and loads.

Usage: check_fold.py ARTIFACT [REFERENCE=CANDIDATE[,CANDIDATE...]]...
  ARTIFACT: ${TESSERA_CUDA_ARTIFACTS}/<target>/<source>.cu
  default pairs: fold_hand=fold_config,fold_local,fold_nttp
"""
import collections
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import artifacts  # noqa: E402  (same directory)

REFERENCE = "fold_hand"
CANDIDATES = ["fold_config", "fold_local", "fold_nttp"]


def entry_lines(ptx):
    """{mangled name: [lines]} for every .entry in the PTX text: its body, comments stripped."""
    out = {}
    for m in re.finditer(r"\.entry\s+(\w+)\s*\(", ptx):
        start = ptx.index("{", m.end())
        depth, i = 0, start
        while True:  # the body ends at the matching brace
            depth += {"{": 1, "}": -1}.get(ptx[i], 0)
            if depth == 0:
                break
            i += 1
        out[m.group(1)] = [line.split("//")[0].strip() for line in ptx[start + 1:i].splitlines()]
    return out


def entries(ptx):
    """{mangled name: [instruction lines]} for every .entry in the PTX text."""
    out = {}
    for name, lines in entry_lines(ptx).items():
        body = []
        for line in lines:
            # Instructions end with ';'; declarations (.reg, .local, ...) start with '.'.
            if line.endswith(";") and not line.startswith("."):
                body.append(line)
            elif line.startswith(".local"):
                body.append(line)  # kept so the local-memory check sees it
        out[name] = body
    return out


def opcode(insn):
    insn = re.sub(r"^@!?%\w+\s+", "", insn)  # drop a predicate guard
    return insn.split()[0].rstrip(";")


def ptxas_stats(log):
    """{mangled name: (stack, spill stores, spill loads, registers)} from -Xptxas -v."""
    stats = {}
    pat = re.compile(r"Function properties for (\w+)\s*\n\s*(\d+) bytes stack frame, (\d+) bytes "
                     r"spill stores, (\d+) bytes spill loads(?:\s*\n.*?Used (\d+) registers)?")
    for m in pat.finditer(log):
        stats[m.group(1)] = tuple(int(g) if g else -1 for g in m.groups()[1:])
    return stats


def find(names, short):
    hits = [n for n in names if re.search(rf"\d{short}\w*", n) and short in n]
    if len(hits) != 1:
        sys.exit(f"FAIL: expected one kernel named {short}, found {hits}")
    return hits[0]


def check_pair(kernels, stats, reference, candidates, failures):
    """Appends to failures what differs between each candidate and the reference kernel."""
    ref = find(kernels, reference)
    ref_ops = collections.Counter(opcode(i) for i in kernels[ref])
    for short in [reference] + candidates:
        name = find(kernels, short)
        body = kernels[name]
        st = stats.get(name)
        if st is None:
            failures.append(f"{short}: no ptxas report")
            continue
        print(f"{short:<14}{len(body):>10}{st[3]:>6}{st[0]:>7}{st[1]:>7}/{st[2]}")
        if any(".local" in i or "ld.local" in i or "st.local" in i for i in body):
            failures.append(f"{short}: uses local memory")
        if any(opcode(i).startswith("call") for i in body):
            failures.append(f"{short}: contains a call")
        if st[:3] != (0, 0, 0):
            failures.append(f"{short}: stack frame / spills {st[:3]}, want (0, 0, 0)")
        if short == reference:
            continue
        if len(body) != len(kernels[ref]):
            failures.append(f"{short}: {len(body)} PTX instructions, {reference} has "
                            f"{len(kernels[ref])}")
        ops = collections.Counter(opcode(i) for i in body)
        if ops != ref_ops:
            failures.append(f"{short}: opcodes differ from {reference}: +{dict(ops - ref_ops)} "
                            f"-{dict(ref_ops - ops)}")


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    pairs = [(REFERENCE, CANDIDATES)]
    if len(sys.argv) > 2:
        pairs = [(arg.split("=")[0], arg.split("=")[1].split(",")) for arg in sys.argv[2:]]
    kernels = entries(artifacts.ptx(sys.argv[1]))
    stats = ptxas_stats(artifacts.ptxas(sys.argv[1]))

    failures = []
    print(f"{'kernel':<14}{'PTX insns':>10}{'regs':>6}{'stack':>7}{'spill st/ld':>13}")
    for reference, candidates in pairs:
        check_pair(kernels, stats, reference, candidates, failures)
    for f in failures:
        print("FAIL:", f)
    print("FAILED" if failures else "PASSED: every tessera kernel folds to the hand-written PTX")
    return 1 if failures else 0

if __name__ == "__main__":
    sys.exit(main())
