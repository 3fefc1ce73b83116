#!/usr/bin/env python3
"""The SM80 attention units (kernels/attention/fa2_sm80_d*.cu) compile for sm_90a to what
fa2_sm80.cuh says. Each unit is read from the PTX and the ptxas -v report the build kept
(tessera_cuda_checked_sources, cmake/TesseraCudaChecks.cmake):

  - two kernels per unit, f16 and bf16, each with 0 bytes stack frame, 0 bytes spill stores and
    loads (ptxas), no local memory and no call in the PTX;
  - the key loop (the innermost loop holding mma.sync) issues one step's products and no more:
    S = Q K^T is (BM/64) x (BN/8) x (D/16) m16n8k16 per warp, O += P V (BM/64) x (D/8) x (BN/16),
    of the kernel's dtype only;
  - the loop reads Q and K with ldmatrix x4, V with ldmatrix x4 .trans, streams the next K and V
    with 16-byte cp.async, takes one ex2.approx per element of S and per row, and shuffles twice
    per row (the quad's maximum): exactly those counts.

The tiles (BM, BN) per head dim are kernels/attention/args.hpp's fa2_sm80_tiles.

Usage: check_attention.py ARTIFACT [...]   (${TESSERA_CUDA_ARTIFACTS}/tessera_attention/*.cu)
"""
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import artifacts  # noqa: E402  (same directory)
from check_ffma import kernel_bodies, loops  # noqa: E402
from check_fold import opcode, ptxas_stats  # noqa: E402


def tiles(d):
    """(BM, BN): args.hpp's fa2_sm80_tiles."""
    return (128 if d <= 128 else 64), (32 if d == 128 else 64)


def count(insns, prefix):
    return sum(opcode(i).startswith(prefix) for i in insns)


def check_kernel(name, body, st, d, failures):
    dtype = "bf16" if "bfloat16" in name else "f16"
    what = f"d={d} {dtype}"
    stack, spill_st, spill_ld, regs = st
    if (stack, spill_st, spill_ld) != (0, 0, 0):
        failures.append(f"{what}: {stack} B stack, {spill_st} B spill stores, {spill_ld} B spill "
                        "loads (want 0)")
    insns = [t for k, t in body if k == "insn"]
    bad = [i for i in insns if re.search(r"\.local\b|\bcall\b", i)]
    if bad:
        failures.append(f"{what}: local memory or calls in the PTX: {bad[:3]}")
    with_mma = [l for l in loops(body) if count(l, "mma.sync") > 0]
    loop = min(with_mma, key=len, default=[])
    bm, bn = tiles(d)
    m_atoms = bm // 64
    want = m_atoms * (bn // 8) * (d // 16) + m_atoms * (d // 8) * (bn // 16)
    mma = [opcode(i) for i in loop if opcode(i).startswith("mma.sync")]
    if len(mma) != want:
        failures.append(f"{what}: {len(mma)} mma.sync in the key loop, want {want}")
    other = [m for m in mma if f".{dtype}." not in m]
    if other:
        failures.append(f"{what}: mma.sync of another type in the key loop: {other[:2]}")
    ldsm_t = count(loop, "ldmatrix.sync.aligned.x4.trans.m8n8")
    ldsm = count(loop, "ldmatrix.sync.aligned.x4.m8n8")
    cp = sum(bool(re.match(r"cp\.async\.c[ga]\.shared\.global.*16", i)) for i in loop)
    ex2, shfl = count(loop, "ex2.approx"), count(loop, "shfl.sync.bfly")
    rows = 2 * m_atoms  # a thread's rows of S
    # Per thread and step: ldmatrix x4 of Q (m-atoms x k-blocks) and K (16-key groups x
    # k-blocks), of V .trans (16-column groups x 16-key groups); 16-byte cp.async of the next K
    # and V; one ex2 per element of S and per row (the correction); 2 shuffles per row (max).
    wants = ((ldsm, m_atoms * (d // 16) + (bn // 16) * (d // 16), "ldmatrix x4 (Q, K)"),
             (ldsm_t, (d // 16) * (bn // 16), "ldmatrix x4 .trans (V)"),
             (cp, 2 * bn * d // 8 // 128, "16-byte cp.async (K, V)"),
             (ex2, bm * bn // 128 + rows, "ex2.approx"), (shfl, 2 * rows, "shfl.sync.bfly"))
    for n, w, label in wants:
        if n != w:
            failures.append(f"{what}: {n} {label} in the key loop, want {w}")
    print(f"{'ok ' if not any(f.startswith(what) for f in failures) else 'BAD'} {what:<10}: "
          f"{regs:>3} registers, {stack} B stack, {spill_st + spill_ld} B spills; key loop "
          f"{len(mma)} mma.sync, {ldsm} ldmatrix, {ldsm_t} ldmatrix.trans, {cp} cp.async, "
          f"{ex2} ex2, {shfl} shfl")


def check_units(sources, kernel, check, failures, check_report=None, variants=lambda d: 1):
    """Each unit's f16 and bf16 kernels named `kernel` (variants(d) of each; of one dtype where the
    unit's name ends in it, `_d128_bf16.cu`), by check(name, body, stats, d, failures);
    check_report(source, ptxas report, failures) first where given."""
    for source in sources:
        unit = re.search(r"_d(\d+)(?:_(f16|bf16))?\.cu$", source)
        d, only = int(unit.group(1)), unit.group(2)
        want_bf16 = variants(d) if only != "f16" else 0
        want_f16 = variants(d) if only != "bf16" else 0
        report = artifacts.ptxas(source)
        if check_report:
            check_report(source, report, failures)
        stats = ptxas_stats(report)
        bodies = kernel_bodies(artifacts.ptx(source))
        names = [n for n in bodies if kernel in n]
        bf16 = sum("bfloat16" in n for n in names)
        if bf16 != want_bf16 or len(names) - bf16 != want_f16:
            failures.append(f"{os.path.basename(source)}: want {want_f16} f16 and {want_bf16} "
                            f"bf16 kernels, found {names}")
        for n in sorted(names):
            if n not in stats:
                failures.append(f"{os.path.basename(source)}: no ptxas report for {n}")
                continue
            check(n, bodies[n], stats[n], d, failures)


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    failures = []
    check_units(sys.argv[1:], "fa2_sm80_kernel", check_kernel, failures)
    for f in failures:
        print("FAIL:", f)
    if failures:
        sys.exit(1)
    print("PASSED: the attention kernels' key loops are their products, ldmatrix, cp.async; "
          "no stack, no spills, no local memory")

if __name__ == "__main__":
    main()
