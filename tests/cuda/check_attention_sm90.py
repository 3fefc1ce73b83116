#!/usr/bin/env python3
"""The Hopper attention units (kernels/attention/fa3_sm90_d*.cu) compile for sm_90a to what
fa3_sm90.cuh says. Each unit is read from the PTX and the ptxas -v report the build kept
(tessera_cuda_checked_sources, cmake/TesseraCudaChecks.cmake):

  - per unit (one head dim and dtype) a kernel per key block (the narrow one at head dim 64,
    narrow and wide at 128 and 256), each with 0 bytes stack frame, 0 bytes spill stores and
    loads (ptxas), no local memory and no call in the PTX, and no wgmma that ptxas had to
    serialize or fence by itself (warnings C7510-C7520 in the report);
  - O stored by rank-4 TMA stores (from its shared-memory staging: one per 64 columns, at each
    of the epilogue's places) in the narrow kernels, and none in the wide ones (from registers);
  - register reallocation: one setmaxnreg.dec (the producer) and one setmaxnreg.inc (the
    consumers);
  - every load a rank-4 TMA load (cp.async.bulk.tensor.4d: the (head_dim, seq, head, batch)
    maps), none of cp.async or ld.global for Q, K, V;
  - the key loop (the loop holding wgmma) issues one step's products and no more, per consumer
    warpgroup: S = Q K^T as D/16 wgmma m64n{BN}k16 (A and B from shared memory) and O += P V as
    BN/16 wgmma m64n{D}k16 with A from registers, of the kernel's dtype only; one ex2.approx per
    element of S and per row (the correction: 2 rows per thread), 2 shuffles per row (the quad's
    maximum); for head dims <= 128 one bar.sync and one bar.arrive (the consumers' turns:
    ping-pong), none for 256.

The tiles (BM, BN) per head dim and key block are kernels/attention/args.hpp's fa3_sm90_tiles;
a kernel's block is the Fa3Cfg's third template argument in its mangled name (Lb1E narrow).

Usage: check_attention_sm90.py ARTIFACT [...]   (${TESSERA_CUDA_ARTIFACTS}/tessera_attention/
fa3_sm90_d*_*.cu)
"""
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from check_attention import check_units, count  # noqa: E402  (same directory)
from check_ffma import loops  # noqa: E402
from check_fold import opcode  # noqa: E402


def tiles(d, narrow):
    """(BM, BN): args.hpp's fa3_sm90_tiles (head dim 64 has the narrow block only)."""
    narrow = narrow or d == 64
    return 128, ((64 if narrow else 80) if d == 256 else 128 if narrow else 176)


def check_kernel(name, body, st, d, failures):
    dtype = "bf16" if "bfloat16" in name else "f16"
    narrow = re.search(r"Fa3CfgI\w+?Ll\d+ELb([01])E", name)
    if narrow is None:
        failures.append(f"{name}: no Fa3Cfg<T, D, narrow keys> in the kernel's name")
        return
    bm, bn = tiles(d, narrow.group(1) == "1")
    staged = bn == tiles(d, True)[1]  # the narrow kernels store O by TMA
    what = f"d={d} {dtype} bn={bn}"
    stack, spill_st, spill_ld, regs = st
    if (stack, spill_st, spill_ld) != (0, 0, 0):
        failures.append(f"{what}: {stack} B stack, {spill_st} B spill stores, {spill_ld} B spill "
                        "loads (want 0)")
    insns = [t for k, t in body if k == "insn"]
    bad = [i for i in insns if re.search(r"\.local\b|\bcall\b", i)]
    if bad:
        failures.append(f"{what}: local memory or calls in the PTX: {bad[:3]}")
    dec, inc = count(insns, "setmaxnreg.dec"), count(insns, "setmaxnreg.inc")
    if (dec, inc) != (1, 1):
        failures.append(f"{what}: {dec} setmaxnreg.dec and {inc} setmaxnreg.inc, want 1 and 1")
    tma = [opcode(i) for i in insns if opcode(i).startswith("cp.async.bulk.tensor")]
    if not tma or any(".4d." not in t for t in tma):
        failures.append(f"{what}: want rank-4 TMA copies only, found {sorted(set(tma))}")
    stores = [t for t in tma if ".global.shared" in t]
    if bool(stores) != staged:
        failures.append(f"{what}: {len(stores)} TMA stores, want {'some' if staged else 'none'} "
                        f"(O {'staged' if staged else 'from registers'})")
    if count(insns, "cp.async.ca") + count(insns, "cp.async.cg") + count(insns, "ld.global.v4"):
        failures.append(f"{what}: cp.async or 16-byte ld.global beside the TMA loads")
    loop = min((l for l in loops(body) if count(l, "wgmma.mma_async") > 0), key=len, default=[])
    wg = [opcode(i) for i in loop if opcode(i).startswith("wgmma.mma_async")]
    s_mma = [m for m in wg if f".m64n{bn}k16." in m]
    o_mma = [m for m in wg if f".m64n{d}k16." in m]
    if bn == d:  # one shape for both products: tell them apart by count only
        s_mma, o_mma = wg[:d // 16], wg[d // 16:]
    if len(s_mma) != d // 16 or len(o_mma) != bn // 16 or len(wg) != d // 16 + bn // 16:
        failures.append(f"{what}: {len(wg)} wgmma in the key loop ({len(s_mma)} m64n{bn}k16, "
                        f"{len(o_mma)} m64n{d}k16), want {d // 16} + {bn // 16}")
    other = [m for m in wg if f".{dtype}.{dtype}" not in m]
    if other:
        failures.append(f"{what}: wgmma of another type in the key loop: {other[:2]}")
    ex2, shfl = count(loop, "ex2.approx"), count(loop, "shfl.sync.bfly")
    rows = 2  # a thread's rows of its warpgroup's 64 x BN block of S
    turns = 1 if d <= 128 else 0  # Fa3Cfg::kPingPong
    bar_sync, bar_arrive = count(loop, "bar.sync"), count(loop, "bar.arrive")
    for n, w, label in ((ex2, 64 * bn // 128 + rows, "ex2.approx"),
                        (shfl, 2 * rows, "shfl.sync.bfly"), (bar_sync, turns, "bar.sync"),
                        (bar_arrive, turns, "bar.arrive")):
        if n != w:
            failures.append(f"{what}: {n} {label} in the key loop, want {w}")
    print(f"{'ok ' if not any(f.startswith(what) for f in failures) else 'BAD'} {what:<17}: "
          f"{regs:>3} registers at launch (setmaxnreg: producer 24, consumers 240), {stack} B "
          f"stack, {spill_st + spill_ld} B spills; key loop {len(wg)} wgmma, {ex2} ex2, "
          f"{shfl} shfl, {bar_sync} bar.sync, {bar_arrive} bar.arrive; {len(tma)} TMA loads")


def serialized_wgmma(source, report, failures):
    """ptxas's warnings that it serialized or fenced wgmmas by itself (C7510-C7520)."""
    for m in re.finditer(r"\(C75(1\d|20)\)[^\n]*", report):
        failures.append(f"{os.path.basename(source)}: ptxas: {m.group(0)[:160]}")


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    failures = []
    check_units(sys.argv[1:], "fa3_sm90_kernel", check_kernel, failures, serialized_wgmma,
                lambda d: 1 if tiles(d, True) == tiles(d, False) else 2)
    for f in failures:
        print("FAIL:", f)
    if failures:
        sys.exit(1)
    print("PASSED: the Hopper attention kernels' key loops are their wgmma products; rank-4 TMA "
          "loads, register reallocation; no stack, no spills, no local memory")


if __name__ == "__main__":
    main()
