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
several of them and their median. The seconds themselves are a benchmark: bench/compile_time.sh,
results in bench/results/compile_time.md.
"""
import os
import statistics
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import artifacts  # noqa: E402  (same directory)


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
        print(f"FAIL: {name} costs {ratio:.2f}x the baseline compile,"
              f" over its {max_ratio:g}x limit")
        return 1
    print(f"PASSED: {name} costs {ratio:.2f}x the baseline compile (limit {max_ratio:g}x)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
