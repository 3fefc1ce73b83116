#!/usr/bin/env python3
"""CI check of kernel 05 without a GPU or cuobjdump: for each of its translation units,
reads the PTX and the `ptxas -v` report the build kept (tessera_cuda_checked_sources,
cmake/TesseraCudaChecks.cmake; the CPU machines have nvcc and ptxas, not cuobjdump) and checks
every gemm_05_kernel entry:

  - the Hopper path is there: wgmma.mma_async, TMA loads (cp.async.bulk.tensor), mbarriers,
    setmaxnreg, and a cluster launch (multicast loads);
  - no local memory in the PTX (.local, ld.local / st.local) and ptxas reports 0 bytes of stack
    frame and of spill stores / loads (the SASS check on the GPU machine, scripts/gpu.sh, counts
    HGMMA and LDL/STL in the real SASS);
  - no `call` (every layout folded to integers);
  - no ptxas warning C7515 or C7513 (wgmma serialized: an accumulator register touched outside
    the wgmma chain, as adding stream-K partial sums into the accumulators once did; an A
    register written while a wgmma is in flight);
  - one kernel in each unit; the units named *_aregs.cu hold the kernel that takes A through
    registers (tf32 with A MN-major: the RS form of wgmma, no wgmma reading A from shared memory),
    each beside its tf32 unit (A K-major from shared memory);
  - the FP8 units (*_e4m3*, *_e5m2*) multiply with wgmma's k32 form of their format (A and B),
    and no other unit with an FP8 form.

With --vocabulary FILE, FILE is the kernel written in the vocabulary: it must hold the
schedule only, so it may not contain raw PTX (`ptx::`, `asm`), swizzle constants (`Swizzle(`,
`Sw<`, CU_TENSOR_MAP_SWIZZLE) or hand-built descriptors and boxes (make_gmma_descriptor,
GmmaDescriptor, make_tma_box, TmaBox, cuTensorMapEncodeTiled).

Usage: check_hopper.py [--vocabulary FILE] ARTIFACT...
(an artifact: ${TESSERA_CUDA_ARTIFACTS}/<target>/<unit>.cu)
"""
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import artifacts  # noqa: E402  (same directory)
from check_fold import entries, opcode, ptxas_stats  # noqa: E402
KERNEL = "gemm_05_kernel"
REQUIRED = {
    "wgmma.mma_async": "wgmma",
    "cp.async.bulk.tensor": "TMA",
    "mbarrier.try_wait": "mbarrier wait",
    "setmaxnreg.inc": "setmaxnreg (consumers)",
    "setmaxnreg.dec": "setmaxnreg (producer)",
    ".multicast::cluster": "TMA multicast",
}


# wgmma's RS form: the A operand after the accumulators is a register group, not a descriptor.
A_IN_REGISTERS = re.compile(r"wgmma\.mma_async[^{]*\{[^}]*\}\s*,\s*\{")


# The element types a unit's wgmmas multiply, from its name: FP8 units (*_e4m3*, *_e5m2*) the
# m64nNk32 form of their format for A and B; the others no FP8 form.
FP8_FORMATS = ("e4m3", "e5m2")


def element_failures(where, unit, insns):
    wgmmas = [i for i in insns if "wgmma.mma_async" in i]
    fmt = next((f for f in FP8_FORMATS if f"_{f}" in unit), None)
    want = f"k32.f32.{fmt}.{fmt}" if fmt else None
    if want:
        wrong = [i for i in wgmmas if want not in i]
    else:
        wrong = [i for i in wgmmas if any(f in i for f in FP8_FORMATS)]
    if wrong:
        return [f"{where}: {len(wrong)} of {len(wgmmas)} wgmma are not "
                f"{'the ' + want + ' form' if want else 'of the unit dtype'}: {wrong[0][:80]}"]
    return []


def a_source_failures(where, aregs, insns):
    """The unit's wgmmas read A as its name says: from registers (*_aregs.cu) or shared memory."""
    wgmmas = [i for i in insns if "wgmma.mma_async" in i]
    regs = sum(bool(A_IN_REGISTERS.search(i)) for i in wgmmas)
    want = len(wgmmas) if aregs else 0
    if regs != want:
        return [f"{where}: {regs} of {len(wgmmas)} wgmma take A from registers, want {want}"]
    return []


FORBIDDEN = ["ptx::", "asm(", "asm volatile", "Swizzle(", "Sw<", "CU_TENSOR_MAP_SWIZZLE",
             "make_gmma_descriptor", "GmmaDescriptor", "make_tma_box", "TmaBox",
             "cuTensorMapEncodeTiled"]


def vocabulary_failures(path):
    """Lines of the kernel file that are not schedule (comments excepted)."""
    out = []
    with open(path) as f:
        for n, line in enumerate(f, 1):
            code = line.split("//")[0]
            for word in FORBIDDEN:
                if word in code:
                    out.append(f"{os.path.basename(path)}:{n}: `{word}` in the kernel file: "
                               f"{line.strip()}")
    return out


def main():
    sources = sys.argv[1:]
    failures, kernels, expected = [], 0, 0
    if sources[:1] == ["--vocabulary"]:
        failures += vocabulary_failures(sources[1])
        if not failures:
            print(f"ok  {os.path.basename(sources[1])}: no raw PTX, swizzle constants or"
                  " hand-built descriptors")
        sources = sources[2:]
    if not sources:
        sys.exit(__doc__)
    names = {os.path.basename(s) for s in sources}
    for src in sources:
        expected += 1
        name = os.path.basename(src)
        twin = name[:-3] + "_aregs.cu"
        if "tf32" in name and not name.endswith("_aregs.cu") and twin not in names:
            failures.append(f"{name}: its kernel that takes A through registers ({twin}) is not "
                            "among the units")
        ptx = artifacts.ptx(src)
        report = artifacts.ptxas(src)
        stats = ptxas_stats(report)
        for line in report.splitlines():
            if "C7515" in line or "C7513" in line:
                failures.append(f"{os.path.basename(src)}: wgmma serialized by ptxas: "
                                f"{line.strip()}")
        for name, insns in entries(ptx).items():
            if KERNEL not in name:
                continue
            kernels += 1
            where = f"{os.path.basename(src)}: {name[:60]}..."
            for needle, what in REQUIRED.items():
                if not any(needle in i for i in insns):
                    failures.append(f"{where}: no {what} ({needle}) in the PTX")
            failures += a_source_failures(where, os.path.basename(src).endswith("_aregs.cu"), insns)
            failures += element_failures(where, os.path.basename(src), insns)
            if any(i.startswith(".local") or re.search(r"\b(ld|st)\.local", i) for i in insns):
                failures.append(f"{where}: local memory in the PTX")
            if any(opcode(i).startswith("call") for i in insns):
                failures.append(f"{where}: a call in the PTX (a layout did not fold)")
            if name not in stats:
                failures.append(f"{where}: no ptxas -v report")
            elif any(stats[name][:3]):
                stack, stores, loads = stats[name][:3]
                failures.append(f"{where}: stack {stack} B, spill stores {stores} B,"
                                f" spill loads {loads} B")
            else:
                wgmma = sum("wgmma.mma_async" in i for i in insns)
                print(f"ok  {where}: {wgmma} wgmma, 0 B stack / spills")
    if kernels != expected:
        failures.append(f"expected {expected} {KERNEL} entries in {len(sources)} sources,"
                        f" found {kernels}")
    for f in failures:
        print("FAIL", f)
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
