#!/usr/bin/env python3
"""SASS of the kernels written in the vocabulary against their hand-indexed twins (device machine
only: needs cuobjdump). For each kernel pair (same template instantiations, in order), the k-loop
(the backward branch whose body has the most FFMA + HMMA) is counted per opcode; the memory and
math opcodes the issue names (FFMA, HMMA, LDS, LDG, LDGSTS, LDSM, STS, STG) are printed side by
side with the twin's, and the loop's instruction total. Exit 1 when a memory/math count differs
by more than 2% or there is more local memory (LDL/STL: 03's call) than in the twin.

A kernel written as one file per element type is given as the files joined by '+', in the twin's
order (as for check_twins.py, whose pairing this shares).

Usage: sass_twins.py NVCC INCLUDE_DIR WORKDIR KERNEL.cu[+KERNEL.cu...] TWIN.cu [...]
"""
import collections
import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from check_twins import pair_key  # noqa: E402  (same directory)

FLAGS = ["-gencode=arch=compute_90a,code=sm_90a", "-O3", "-std=c++20", "-diag-suppress",
         "20012,177"]
WATCH = ("FFMA", "HMMA", "LDS", "LDG", "LDGSTS", "LDSM", "STS", "STG")
INSN = re.compile(r"^\s*/\*([0-9a-f]{4,})\*/\s+(?:@!?U?P\w+\s+)?([A-Z][A-Z0-9_.]*)(.*?);")


def functions(sass):
    out, name = {}, None
    for line in sass.splitlines():
        m = re.match(r"\s*Function : (\S+)", line)
        if m:
            name = m.group(1)
            out[name] = []
            continue
        m = INSN.match(line)
        if m and name:
            out[name].append((int(m.group(1), 16), m.group(2), m.group(3)))
    return out


def k_loop(insns):
    best, best_n = [], -1
    for i, (addr, op, rest) in enumerate(insns):
        if not op.startswith("BRA"):
            continue
        m = re.search(r"0x([0-9a-f]+)", rest)
        if not m or int(m.group(1), 16) >= addr:
            continue
        target = int(m.group(1), 16)
        body = [x for x in insns if target <= x[0] <= addr]
        n = sum(x[1].split(".")[0] in ("FFMA", "HMMA") for x in body)
        if n > best_n:
            best, best_n = body, n
    return best


def is_gemm(insns):
    return any(op.split(".")[0] in ("FFMA", "HMMA") for _, op, _ in k_loop(insns))


def counts(body):
    c = collections.Counter(op.split(".")[0] for _, op, _ in body)
    return c


def sass_of(nvcc, include, sources, stem):
    """[(name, SASS)] of the '+'-joined files: each file's sorted by pair_key, files in order."""
    out = []
    for j, source in enumerate(sources.split("+")):
        cubin = f"{stem}_{j}.cubin"
        subprocess.run([nvcc, *FLAGS, "-I", include, "-cubin", "-o", cubin, source], check=True)
        funcs = functions(subprocess.run(["cuobjdump", "-sass", cubin], check=True,
                                         capture_output=True, text=True).stdout)
        out += sorted(funcs.items(), key=lambda kv: pair_key(kv[0]))
    return out


def main():
    nvcc, include, work = sys.argv[1:4]
    os.makedirs(work, exist_ok=True)
    bad = 0
    for i in range(4, len(sys.argv), 2):
        kernel, twin = sys.argv[i], sys.argv[i + 1]
        # GEMM kernels only (operand packing, shared by both, has no k-loop of FFMA or HMMA).
        mine = [f for f in sass_of(nvcc, include, kernel, os.path.join(work, f"k{i}"))
                if is_gemm(f[1])]
        hand = [f for f in sass_of(nvcc, include, twin, os.path.join(work, f"t{i}"))
                if is_gemm(f[1])]
        label = "+".join(os.path.basename(k) for k in kernel.split("+"))
        print(f"== {label} vs its twin: k-loop SASS counts (vocabulary / hand)")
        print(f"{'#':>3} " + " ".join(f"{w:>13}" for w in WATCH) + f"{'total':>13}")
        if len(mine) != len(hand):
            print(f"    FAIL: {len(mine)} kernels, the twin {len(hand)}")
            bad = 1
        for j, ((n, body), (hn, hbody)) in enumerate(zip(mine, hand)):
            a, b = counts(k_loop(body)), counts(k_loop(hbody))
            cells = []
            for w in WATCH:
                cells.append(f"{a[w]:>6}/{b[w]:<6}")
                if abs(a[w] - b[w]) > 0.02 * max(b[w], 1):
                    bad = 1
            cells.append(f"{sum(a.values()):>6}/{sum(b.values()):<6}")
            print(f"{j:>3} " + " ".join(cells))
            local = sum(op.startswith(("LDL", "STL")) for _, op, _ in body)
            if local > sum(op.startswith(("LDL", "STL")) for _, op, _ in hbody):
                print(f"    FAIL: kernel #{j}: {local} local-memory instructions,"
                      " more than the twin's")
                bad = 1
    print("FAILED" if bad else
          "PASSED: memory and math SASS counts of every k-loop within 2% of the twins'")
    return bad


if __name__ == "__main__":
    sys.exit(main())
