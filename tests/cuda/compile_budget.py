#!/usr/bin/env python3
"""Fails when a CUDA translation unit costs more than MAX_RATIO times a baseline compile.

Usage: compile_budget.py MAX_RATIO ARTIFACT BASELINE_ARTIFACT [BASELINE_ARTIFACT ...]

Reads the CPU seconds (user + system of nvcc and its children) that the build's own compile of the
unit took (ARTIFACT.cpu, kept by cmake/cuda_keep.py: tessera_cuda_checked_sources) and those of
the baseline kernel without tessera (bench/compile_time_kernel.cu -DBASELINE), compiled as
several objects of the same build, and compares the unit's seconds with the baselines' median.
Nothing is compiled here. No wall-clock threshold: CPU seconds leave out the time a compile waits
for a core, and the baselines run in the same build on the same machine, so a slower or busier
machine moves both. The baseline's own CPU seconds vary by up to ~10 % between compiles, hence
several of them and their median. A unit over its limit is measured once more, alone, beside one
baseline compiled the same way (the build's command, kept as ARTIFACT.cmd), and the lower of the
two ratios counts: two compiles sharing the machine's cores each take more CPU seconds than one
alone. The seconds themselves are a benchmark: bench/compile_time.sh,
results in bench/results/compile_time.md.
"""
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import artifacts  # noqa: E402  (same directory)


def compile_again(artifact):
    """CPU seconds of the build's compile of `artifact` run again alone (None: no command kept)."""
    if not os.path.exists(f"{artifact}.cmd"):
        return None
    with open(f"{artifact}.cmd") as f:
        cmd = json.load(f)
    # The same command writing its object elsewhere and no dependency file.
    argv, skip = [], False
    with tempfile.TemporaryDirectory() as tmp:
        for a in cmd["argv"]:
            if skip:
                skip = False
            elif a in ("-MT", "-MF", "-o"):
                skip = True
            elif a != "-MD":
                argv.append(a)
        argv += ["-o", os.path.join(tmp, "unit.o")]
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        r = subprocess.run(argv, cwd=cmd["cwd"], capture_output=True)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if r.returncode != 0:
        return None
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def main():
    if len(sys.argv) < 4:
        sys.exit(__doc__)
    max_ratio, unit, baselines = float(sys.argv[1]), sys.argv[2], sys.argv[3:]
    name = os.path.basename(unit)
    seconds = artifacts.cpu_seconds(unit)
    base = [artifacts.cpu_seconds(b) for b in baselines]
    median = statistics.median(base)
    ratio = seconds / max(median, 1e-3)
    print(f"{name}: {seconds:.2f} s CPU in the build; baseline {median:.2f} s CPU (median of "
          f"{', '.join(f'{b:.2f}' for b in base)}): {ratio:.2f}x (limit {max_ratio:g}x)")
    if ratio > max_ratio:
        again, base_again = compile_again(unit), compile_again(baselines[0])
        if again is not None and base_again is not None:
            second = again / max(base_again, 1e-3)
            print(f"{name} again, alone: {again:.2f} s CPU; baseline {base_again:.2f} s CPU: "
                  f"{second:.2f}x")
            ratio = min(ratio, second)
    if ratio > max_ratio:
        print(f"FAIL: {name} costs {ratio:.2f}x the baseline compile,"
              f" over its {max_ratio:g}x limit")
        return 1
    print(f"PASSED: {name} costs {ratio:.2f}x the baseline compile (limit {max_ratio:g}x)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
