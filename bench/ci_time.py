#!/usr/bin/env python3
"""Where a CI run's build time went, from the builds' own records (bench/results/ci_time.md).

Usage: ci_time.py BUILD_DIR [BUILD_DIR ...]     (e.g. build build-asan build-fuzz)

For each build directory: its compile jobs from .ninja_log (the last run of each output: count,
job-seconds summed, the longest jobs), the nvcc commands of its build graph (`ninja -t
commands`: every CUDA unit compiles once), and, where the CUDA checks kept them
(cmake/TesseraCudaChecks.cmake), the CPU seconds of each checked unit's compile. Job-seconds
are wall seconds of jobs that ran side by side (-j2 on 2 cores is about twice the wall time);
the CPU seconds are the compilers' own.
"""
import glob
import os
import subprocess
import sys


def ninja_jobs(build):
    """{output: seconds} of the last build of each output in BUILD/.ninja_log."""
    jobs = {}
    path = os.path.join(build, ".ninja_log")
    if not os.path.exists(path):
        return jobs
    for line in open(path):
        if line.startswith("#"):
            continue
        start, end, _, output = line.split("\t")[:4]
        jobs[output] = (int(end) - int(start)) / 1000
    return jobs


def nvcc_commands(build):
    r = subprocess.run(["ninja", "-C", build, "-t", "commands"], capture_output=True, text=True)
    return sum("nvcc " in line for line in r.stdout.splitlines())


def checked_units(build):
    """[(seconds, target/unit)] from BUILD/cuda-artifacts/<target>/<unit>.cpu."""
    out = []
    for path in glob.glob(os.path.join(build, "cuda-artifacts", "*", "*.cpu")):
        unit = os.path.relpath(path, os.path.join(build, "cuda-artifacts"))[:-4]
        out.append((float(open(path).read().split()[0]), unit))
    return sorted(out, reverse=True)


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    for build in sys.argv[1:]:
        jobs = ninja_jobs(build)
        print(f"## {build}")
        print(f"{len(jobs)} jobs, {sum(jobs.values()):.0f} job-seconds; nvcc commands in the "
              f"build graph: {nvcc_commands(build)}")
        for seconds, output in sorted(((s, o) for o, s in jobs.items()), reverse=True)[:10]:
            print(f"  {seconds:7.1f} s  {output}")
        units = checked_units(build)
        if units:
            print(f"checked CUDA units: {len(units)}, {sum(s for s, _ in units):.0f} s CPU")
            for seconds, unit in units:
                print(f"  {seconds:7.1f} s CPU  {unit}")


if __name__ == "__main__":
    main()
