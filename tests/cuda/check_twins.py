#!/usr/bin/env python3
"""The folding proof for kernels written in the vocabulary (tessera/device_tensor.hpp): each
against its hand-indexed twin (tests/cuda/twins/*_hand.cu, the same kernel with the partitions
from the algebra and the index arithmetic on run-time strides written by hand).

Both are read from the PTX and the ptxas -v report the build kept (tessera_cuda_checked_sources,
cmake/TesseraCudaChecks.cmake); their kernels pair up in order (the same template
instantiations, names compared without the translation unit's anonymous namespace). A kernel
written as one file per element type is given as the files joined by '+'
(04_mma_sync_f16.cu+04_mma_sync_bf16.cu+04_mma_sync_tf32.cu), in the twin's order. For every pair:
  - the k-loop (the loop with the most FMAs or MMAs) has exactly the twin's count of every memory,
    math and synchronisation opcode (loads, stores, cp.async, FMAs, barriers);
  - the k-loop has at most 2% more instructions than the twin's in all (index arithmetic;
    SLACK_OF lists the exceptions with their reasons);
  - no local memory, no call the twin does not make (03's guarded copy is one, on purpose);
    ptxas: 0 bytes stack frame, 0 spill stores and loads.

Usage: check_twins.py KERNEL_ARTIFACT[+KERNEL_ARTIFACT...] TWIN_ARTIFACT [...]
(an artifact: ${TESSERA_CUDA_ARTIFACTS}/<target>/<file>.cu)
"""
import collections
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import artifacts  # noqa: E402  (same directory)
from check_ffma import kernel_bodies, loops  # noqa: E402
from check_fold import opcode, ptxas_stats  # noqa: E402

# Opcodes that must match exactly: what the kernel does, as opposed to how it computes addresses.
EXACT_PREFIXES = ("ld.global", "ld.shared", "ld.local", "st.", "cp.async", "fma.", "mma.",
                  "ldmatrix", "bar.", "wgmma", "mul.f32", "add.f32")
SLACK = 0.02
# Kernel 04 reads swizzled shared tiles: its PTX recomputes some swizzled addresses in the k-loop
# that the twin keeps in registers (NVVM's choice; 16-bit kernels 7-11% more PTX instructions),
# and ptxas turns both into fewer SASS instructions for the vocabulary (H100, k-loop: 252 vs 300,
# 283 vs 304, 251 vs 273; memory and math counts equal; bench/results/vocabulary_03_04.md).
SLACK_OF = {"04_mma_sync": 0.15}
MATH = ("fma.rn.f32", "mma.sync")


def k_loop(body):
    """The loop with the most FMAs or MMAs (a GEMM's k-loop)."""
    return max(loops(body), key=lambda l: sum(opcode(i).startswith(MATH) for i in l), default=[])


# The anonymous namespace's mangled name holds the file's name and hashes
# (..._04_mma_sync_f16_cu_<8 hex>).
ANON = re.compile(r"\d+_GLOBAL__N__[0-9a-f]+_\d+_\w+?_cu_[0-9a-f]{8}")


def is_gemm(body):
    """Whether a kernel has a k-loop of FMAs or MMAs."""
    return any(opcode(x).startswith(MATH) for x in k_loop(body))


def pair_key(name):
    """A kernel's name without its translation unit's anonymous namespace."""
    return ANON.sub("ANON", name)


def read_kernels(sources):
    """Kernels (in order: each file's sorted by pair_key, the files in the order given) and their
    ptxas statistics of the '+'-joined artifacts."""
    kernels, stats = [], {}
    for source in sources.split("+"):
        bodies = kernel_bodies(artifacts.ptx(source))
        kernels += sorted(bodies.items(), key=lambda kv: pair_key(kv[0]))
        stats.update(ptxas_stats(artifacts.ptxas(source)))
    return kernels, stats


def main():
    pairs = sys.argv[1:]
    if not pairs or len(pairs) % 2:
        sys.exit(__doc__)
    failures = []
    print(f"{'kernel':<52}{'k-loop':>8}{'twin':>6}{'ratio':>7}{'regs':>6}{'twin':>6}")
    for i in range(0, len(pairs), 2):
        kernel, twin = pairs[i], pairs[i + 1]
        label = os.path.basename(kernel.split("+")[0]).split(".")[0]
        if "+" in kernel:
            label = re.sub(r"_(f16|bf16|tf32)$", "", label)
        mine, mine_stats = read_kernels(kernel)
        hand, hand_stats = read_kernels(twin)
        # GEMM kernels only (operand packing, shared by both, has no k-loop of FMAs or MMAs).
        mine, hand = [k for k in mine if is_gemm(k[1])], [k for k in hand if is_gemm(k[1])]
        if len(mine) != len(hand) or not mine:
            failures.append(f"{label}: {len(mine)} GEMM kernels, the twin {len(hand)}")
            continue
        for j, ((name, body), (hname, hbody)) in enumerate(zip(mine, hand)):
            short = f"{label} #{j}"
            a = collections.Counter(opcode(x) for x in k_loop(body))
            b = collections.Counter(opcode(x) for x in k_loop(hbody))
            for op in sorted(set(a) | set(b)):
                if op.startswith(EXACT_PREFIXES) and a[op] != b[op]:
                    failures.append(f"{short}: {a[op]} {op} in the k-loop, the twin {b[op]}")
            total, twin_total = sum(a.values()), sum(b.values())
            slack = SLACK_OF.get(label, SLACK)
            if total > twin_total * (1 + slack):
                failures.append(f"{short}: {total} k-loop instructions, over {slack:.0%} more than "
                                f"the twin's {twin_total}")
            insns = [t for k, t in body if k == "insn"]
            if any(".local" in x for x in insns):
                failures.append(f"{short}: local memory")
            calls = sum("call" in t for _, t in body)
            if calls > sum("call" in t for _, t in hbody):
                failures.append(f"{short}: {calls} calls, more than the twin's")
            stats = mine_stats.get(name)
            if stats is None or stats[:3] != (0, 0, 0):
                failures.append(f"{short}: stack frame / spill stores / spill loads "
                                f"{stats[:3] if stats else 'missing'}, want 0")
            hregs = hand_stats.get(hname, (0, 0, 0, 0))[3]
            print(f"{short:<52}{total:>8}{twin_total:>6}{total / twin_total:>7.3f}"
                  f"{stats[3] if stats else 0:>6}{hregs:>6}")
    for f in failures:
        print("FAIL:", f)
    if failures:
        print("FAILED")
        return 1
    print("PASSED: the same loads, stores, copies and FMAs per k-tile as the hand-indexed twins, "
          "at most 2% more instructions, no local memory, no spills")
    return 0


if __name__ == "__main__":
    sys.exit(main())
