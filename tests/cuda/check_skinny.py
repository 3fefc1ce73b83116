#!/usr/bin/env python3
"""Kernel 06 (kernels/gemm/06_skinny*.cu, 06_gemv.cuh, 06_gemv_mma.cuh) compiles for sm_90a to
what its headers say. Each translation unit is read from the PTX and the ptxas -v report the build
kept (tessera_cuda_checked_sources, cmake/TesseraCudaChecks.cmake):

  - every kernel (gemv_rows, gemv_columns, gemv_mma_rows, gemv_mma_columns, add_splits): ptxas
    reports 0 bytes stack frame, 0 bytes spill stores and loads; no local memory and no call in
    the PTX;
  - the 24 GEMV instantiations on CUDA cores are there: F32 x S = 1, 2, 4, 8 vectors, F16 and BF16
    x S = 1, 2, each as gemv_rows and gemv_columns on 128- and 64-byte columns; and the 12 on the
    tensor cores: F16 and BF16 x NT = 1, 2 tiles of 8 vectors x gemv_mma with X along K (one warp
    of rows a CTA) or along L (one or two);
  - each one's k-loop (the innermost loop with at least the fast step's fma.rn.f32) holds
    one fast step's FMA body, U steps of R rows x S vectors x V (gemv_rows) or V rows x S
    (gemv_columns) fma.rn.f32 (V = 16 / element bytes), and at most the slow step's beside it;
  - the fast step's loads of X are 16-byte vectors in one straight block (no branch among them:
    a predicate and branch per element made the 16-bit kernels 2-3x slower): U x R of them
    (gemv_rows) or U (gemv_columns);
  - the tensor-core kernels: the k-loop holds one fast body of U chunks x J row groups x 2 x NT
    mma.sync and the slow chunk's J x 2 x NT; the fast chunks' loads of X (2 a chunk along K, 4
    along L) are 16-byte vectors in one straight block, along L with their 16 movmatrix
    transposes a chunk.

Usage: check_skinny.py ARTIFACT [...]   (${TESSERA_CUDA_ARTIFACTS}/<target>/06_skinny*.cu)
"""
import collections
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from check_ffma import kernel_bodies, loops  # noqa: E402  (same directory)
import artifacts  # noqa: E402  (same directory)
from check_fold import opcode, ptxas_stats  # noqa: E402

ELEMENT_BYTES = {"F32": 4, "F16": 2, "BF16": 2}
VECTOR_LOAD = re.compile(r"ld\.global(\.\w+)*\.v4\.")


def steps(kind, elem, s):
    """(U, R): steps of loads before their FMAs and rows a warp (gemv_rows) -- 06_gemv.cuh's."""
    v = 16 // elem
    if kind == "rows":
        return (4 if s == 1 else 1 if s >= 4 and elem == 2 else 2), (4 if s == 4 else 2)
    return (8 if elem == 4 and s == 1 else 4), 1


def check_mma(name, body, st, seen, failures):
    g = re.search(r"gemv_mmaI.*?\d(BF16|F16)ELi(\d)ELb([01])ELi(\d)E", name)
    dtype, nt, along_l, row_warps = g.group(1), int(g.group(2)), g.group(3) == "1", int(g.group(4))
    kind = "columns" if along_l else "rows"
    what = f"gemv_mma {dtype} NT={nt} along {'L' if along_l else 'K'} x{row_warps}"
    seen.add(("mma_" + kind, dtype, row_warps, nt))
    u, j = (2, 2) if along_l else (4, 1)  # 06_gemv_mma.cuh's gemv_mma_unroll and row groups
    fast, slow = u * j * 2 * nt, j * 2 * nt
    mmas = lambda l: sum(opcode(i).startswith("mma.sync") for i in l)  # noqa: E731
    inner = [l for l in loops(body) if mmas(l) >= fast]
    loop = min(inner, key=len, default=[])
    if mmas(loop) != fast + slow:
        failures.append(f"{what}: {mmas(loop)} mma.sync in the k-loop, want {fast}"
                        f" (the fast chunks') + {slow}")
    per_block = [(sum(bool(VECTOR_LOAD.match(opcode(i))) for i in b),
                  sum(opcode(i).startswith("movmatrix") for i in b)) for b in blocks(body)]
    want_moves = 16 * u if along_l else 0
    want_x = (4 if along_l else 2) * u
    straight = max((x for x, m in per_block if m >= want_moves), default=0)
    if straight < want_x:
        failures.append(f"{what}: at most {straight} 16-byte loads of X in one straight block"
                        f"{' with their movmatrix' if want_moves else ''}, want {want_x}")
    print(f"ok  {what:<28}: {st[3]:>3} registers, 0 B stack / spills; "
          f"k-loop {mmas(loop)} mma.sync, {straight} 16-byte loads in one block")


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


def check_unit(source, seen, failures):
    stats = ptxas_stats(artifacts.ptxas(source))
    for name, body in sorted(kernel_bodies(artifacts.ptx(source)).items()):
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
        if "gemv_mmaI" in name:
            check_mma(name, body, st, seen, failures)
            continue
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
        straight = max((sum(bool(VECTOR_LOAD.match(opcode(i))) for i in b)
                        for b in blocks(body)), default=0)
        if straight < want_x:
            failures.append(f"{what}: at most {straight} 16-byte loads in one straight block,"
                            f" want {want_x}")
        print(f"ok  {what:<28}: {st[3]:>3} registers, 0 B stack / spills; "
              f"k-loop {loop['fma.rn.f32']} fma.rn.f32, {straight} 16-byte loads in one block")


def main():
    sources = sys.argv[1:]
    if not sources:
        sys.exit(__doc__)
    failures, seen = [], set()
    for source in sources:
        check_unit(source, seen, failures)
    want = {(k, d, t, s) for d, e in ELEMENT_BYTES.items()
            for s in ((1, 2, 4, 8) if e == 4 else (1, 2))
            for k, t in (("rows", 0), ("columns", 128 // e), ("columns", 64 // e))}
    want |= {("mma_" + k, d, w, nt) for d in ("F16", "BF16")
             for k, w in (("rows", 1), ("columns", 1), ("columns", 2)) for nt in (1, 2)}
    if want - seen:
        failures.append(f"missing GEMV instantiations {sorted(want - seen)}")
    for f in failures:
        print("FAIL:", f)
    if failures:
        print("FAILED")
        return 1
    print("PASSED: kernel 06 has no stack, no spills, no local memory; one FMA (or MMA) body per"
          " k-loop, the fast step's loads of X as 16-byte vectors in one straight block")
    return 0


if __name__ == "__main__":
    sys.exit(main())
