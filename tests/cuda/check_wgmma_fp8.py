#!/usr/bin/env python3
"""CI check of the FP8 wgmma unit (wgmma_fp8.cu) without a GPU: reads the PTX and the `ptxas -v`
report the build kept (tessera_cuda_checked_object) and checks each of its kernels
fp8_{ss,rs}_<a>_<b> (a, b in e4m3, e5m2):

  - exactly four wgmma.mma_async.sync.aligned.m64n128k32.f32.<a>.<b> (one per 32-deep k-step of
    the 128-byte stage row), and no other wgmma.mma_async;
  - the A operand as the name says: a descriptor (ss) or four registers (rs);
  - wgmma.fence, commit_group and wait_group around them;
  - no local memory, no `call`, and ptxas: 0 bytes stack frame, spill stores and spill loads;
  - no ptxas warning C7515 / C7513 (wgmma serialized) and no C7519 (a warpgroup.arrive injected
    between the wgmmas: an operand register written while they are in flight).

Usage: check_wgmma_fp8.py ARTIFACT   (${TESSERA_CUDA_ARTIFACTS}/<target>/wgmma_fp8.cu)
"""
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import artifacts  # noqa: E402  (same directory)
from check_fold import entries, opcode, ptxas_stats  # noqa: E402

FORMATS = ("e4m3", "e5m2")
STEPS = 4  # k-steps of 32 one-byte elements in a 128-byte row of K
WGMMA = re.compile(r"wgmma\.mma_async\.sync\.aligned\.(m\d+n\d+k\d+)\.(\w+)\.(\w+)\.(\w+)\s")
# The RS form: the A operand after the accumulators is a register group, not a descriptor.
A_IN_REGISTERS = re.compile(r"wgmma\.mma_async[^{]*\{[^}]*\}\s*,\s*\{")


def kernel_failures(name, form, a, b, insns, stats):
    where = f"fp8_{form}_{a}_{b}"
    out = []
    wgmmas = [i for i in insns if "wgmma.mma_async" in i]
    want = ("m64n128k32", "f32", a, b)
    good = [i for i in wgmmas if (m := WGMMA.search(i + " ")) and m.groups() == want]
    if len(good) != STEPS or len(wgmmas) != STEPS:
        shapes = sorted({" ".join(m.groups()) for i in wgmmas if (m := WGMMA.search(i + " "))})
        out.append(f"{where}: {len(good)} of {len(wgmmas)} wgmma are m64n128k32.f32.{a}.{b}, "
                   f"want {STEPS} of {STEPS} (found: {shapes})")
    regs = sum(bool(A_IN_REGISTERS.search(i)) for i in wgmmas)
    if regs != (len(wgmmas) if form == "rs" else 0):
        out.append(f"{where}: {regs} of {len(wgmmas)} wgmma take A from registers")
    for needle in ("wgmma.fence", "wgmma.commit_group", "wgmma.wait_group"):
        if not any(needle in i for i in insns):
            out.append(f"{where}: no {needle}")
    if any(i.startswith(".local") or re.search(r"\b(ld|st)\.local", i) for i in insns):
        out.append(f"{where}: local memory in the PTX")
    if any(opcode(i).startswith("call") for i in insns):
        out.append(f"{where}: a call in the PTX (a layout did not fold)")
    if name not in stats:
        out.append(f"{where}: no ptxas -v report")
    elif any(stats[name][:3]):
        stack, stores, loads = stats[name][:3]
        out.append(f"{where}: ptxas: {stack} bytes stack, {stores} bytes spill stores, "
                   f"{loads} bytes spill loads")
    return out


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    src = sys.argv[1]
    kernels = entries(artifacts.ptx(src))
    report = artifacts.ptxas(src)
    stats = ptxas_stats(report)
    failures = [f"wgmma serialized by ptxas: {line.strip()}" for line in report.splitlines()
                if any(code in line for code in ("C7515", "C7513", "C7519"))]
    for form in ("ss", "rs"):
        for a in FORMATS:
            for b in FORMATS:
                names = [n for n in kernels if f"fp8_{form}_{a}_{b}" in n]
                if len(names) != 1:
                    failures.append(f"fp8_{form}_{a}_{b}: {len(names)} kernels in the PTX, want 1")
                    continue
                mine = kernel_failures(names[0], form, a, b, kernels[names[0]], stats)
                failures += mine
                if not mine:
                    print(f"ok  fp8_{form}_{a}_{b}: {STEPS} wgmma m64n128k32.f32.{a}.{b}, "
                          "no local memory, 0 stack, 0 spills")
    for f in failures:
        print("FAIL", f)
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
