#!/usr/bin/env python3
"""Fails when a kernel file costs more than MAX_RATIO times a baseline compile (issue 16).

Usage: compile_budget.py MAX_RATIO BASELINE.cu COMPILER ARGS...

Compiles BASELINE.cu (with -DBASELINE, the same flags), the kernel (COMPILER ARGS), and the
baseline again, and compares the kernel's CPU seconds (user + sys of the compiler and its
children) with the mean of the two baseline compiles around it. No wall-clock threshold: the
compiles run in the same test, one after the other, so a busy or slow machine slows them all and
the ratio stays put (the baseline on both sides follows load that changes during the kernel's
compile); CPU time also ignores the time spent waiting for a core. A ratio over the limit is
measured again, up to three times in all, and the lowest ratio counts: the baseline's own CPU
seconds vary by up to ~10 % between compiles (1.70-1.93 s on one machine), which moved
05_wgmma_tma_tf32.cu between 6.3x and 7.0x with its own seconds unchanged.
The seconds themselves are a benchmark: bench/compile_time.sh, results in
bench/results/compile_time.md.
"""
import os
import resource
import subprocess
import sys
import tempfile

ATTEMPTS = 3


def cpu_seconds(cmd):
    """CPU seconds of one compile; exits on a compile error."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    r = subprocess.run(cmd, capture_output=True, text=True)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if r.returncode != 0:
        sys.exit(f"FAIL: the compile failed\n{' '.join(cmd)}\n{r.stdout}{r.stderr}")
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def baseline_command(cmd, baseline, out):
    """The kernel's command with its source replaced by BASELINE.cu -DBASELINE, its output by out."""
    b = []
    skip = False
    for i, a in enumerate(cmd):
        if skip:
            skip = False
            continue
        if a == "-o":
            b += ["-o", out]
            skip = True
        elif a.endswith(".cu"):
            b.append(baseline)
        else:
            b.append(a)
    return b + ["-DBASELINE"]


def main():
    if len(sys.argv) < 5:
        sys.exit(__doc__)
    max_ratio = float(sys.argv[1])
    baseline = sys.argv[2]
    cmd = sys.argv[3:]
    name = os.path.basename(next((a for a in cmd if a.endswith(".cu")), cmd[-1]))
    best = None
    with tempfile.TemporaryDirectory() as work:
        base_cmd = baseline_command(cmd, baseline, os.path.join(work, "baseline.o"))
        for attempt in range(1, ATTEMPTS + 1):
            before = cpu_seconds(base_cmd)
            kernel = cpu_seconds(cmd)
            base = (before + cpu_seconds(base_cmd)) / 2
            ratio = kernel / max(base, 1e-3)
            print(f"run {attempt}: {name} {kernel:.2f} s CPU, baseline {base:.2f} s CPU (mean of 2): "
                  f"{ratio:.2f}x (limit {max_ratio:g}x)")
            if best is None or ratio < best:
                best = ratio
            if ratio <= max_ratio:
                break
    if best > max_ratio:
        print(f"FAIL: {name} costs {best:.2f}x the baseline compile, over its {max_ratio:g}x limit")
        return 1
    print(f"PASSED: {name} costs {best:.2f}x the baseline compile (limit {max_ratio:g}x)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
