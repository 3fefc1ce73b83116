#!/usr/bin/env python3
"""The compiler launcher of tessera_cuda_checked_sources (cmake/TesseraCudaChecks.cmake): runs
one nvcc compile of the build and keeps what the CUDA checks read, so no check compiles a
translation unit again.

Usage (as CUDA_COMPILER_LAUNCHER): cuda_keep.py OUT_DIR [--device-only] NVCC ARGS... -c SOURCE.cu
                                   -o OBJECT
--device-only (units that only checks read: nothing links their object) compiles the device side
alone: nvcc -cubin instead of -c, the cubin written as OBJECT, no host compile (about half the CPU
of a small unit).

For SOURCE.cu it writes, under OUT_DIR, the files SOURCE.cu.<kind>:
  ptx       the PTX cicc wrote (nvcc -keep), every .entry as the driver would JIT it
  cubin     the cubin ptxas wrote from it (the object's SASS; cuobjdump reads it on a GPU machine)
  ptxas     ptxas's -v report: per kernel registers, stack frame, spill stores and loads, and its
            warnings (C7515 ...)
  includes  the line markers (`# N "file" flags`) of the host preprocessing, as `nvcc -E` prints
  cpu       the CPU seconds (user + system, nvcc and its children) of this compile
The object is the build's, unchanged: -keep and -Xptxas -v only leave files and lines behind.
ptxas's "info" lines go to the ptxas file only; everything else nvcc prints reaches the build log.
The launcher never runs a compiler cache: every artifact comes from this compile.
"""
import glob
import os
import re
import resource
import shutil
import subprocess
import json
import sys
import tempfile

INFO = re.compile(r"^ptxas info\s*:|^\s+\d+ bytes stack frame|^\s*$")


def source_of(args):
    """The .cu file among nvcc's arguments (the one after -c, or the last *.cu)."""
    if "-c" in args and args.index("-c") + 1 < len(args):
        return args[args.index("-c") + 1]
    return next(a for a in reversed(args) if a.endswith(".cu"))


def harvest(keep, out, stderr, cpu, argv):
    """Copies the kept PTX and cubin, the host line markers, the ptxas report and the seconds."""
    def one(pattern, kind):
        files = sorted(glob.glob(os.path.join(keep, pattern)))
        with open(f"{out}.{kind}", "w" if kind != "cubin" else "wb") as f:
            for path in files:
                with open(path, "r" if kind != "cubin" else "rb") as src:
                    shutil.copyfileobj(src, f)
    one("*.ptx", "ptx")
    one("*.cubin", "cubin")
    with open(f"{out}.includes", "w") as f:
        for path in sorted(glob.glob(os.path.join(keep, "*.cpp4.ii"))):
            with open(path, errors="replace") as src:
                f.writelines(l for l in src if l.startswith("# "))
    with open(f"{out}.ptxas", "w") as f:
        f.write(stderr)
    with open(f"{out}.cpu", "w") as f:
        f.write(f"{cpu:.3f}\n")
    with open(f"{out}.cmd", "w") as f:  # to measure the compile again (compile_budget.py)
        json.dump({"cwd": os.getcwd(), "argv": argv}, f)


def main():
    out_dir, rest = sys.argv[1], sys.argv[2:]
    device_only = rest[0] == "--device-only"
    nvcc, args = rest[device_only], rest[device_only + 1:]
    os.makedirs(out_dir, exist_ok=True)
    out = os.path.join(out_dir, os.path.basename(source_of(args)))
    if device_only:
        args = ["-cubin" if a == "-c" else a for a in args]
    keep = tempfile.mkdtemp(prefix=os.path.basename(out) + ".", dir=out_dir)
    try:
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        r = subprocess.run([nvcc, *args, "-keep", "-keep-dir", keep, "-Xptxas=-v"],
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
        sys.stdout.write(r.stdout)
        sys.stderr.write("".join(l for l in r.stderr.splitlines(True) if not INFO.match(l)))
        if r.returncode == 0:
            if device_only:  # the cubin is the output, not a kept intermediate
                shutil.copyfile(args[args.index("-o") + 1], os.path.join(keep, "unit.cubin"))
            harvest(keep, out, r.stderr, cpu, [nvcc, *args])
        return r.returncode
    finally:
        shutil.rmtree(keep, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
