#!/usr/bin/env python3
"""What the build kept of a checked CUDA translation unit (cmake/TesseraCudaChecks.cmake,
cmake/cuda_keep.py): the checks read these instead of compiling the unit again.

An artifact path is ${TESSERA_CUDA_ARTIFACTS}/<target>/<source file name> (CMake:
tessera_cuda_artifact); its files are that path + .ptx, .cubin, .ptxas, .includes, .cpu.
"""
import os
import sys


def read(path, kind):
    """The text of one kept file; exits with a clear message when the build did not keep it."""
    name = f"{path}.{kind}"
    if not os.path.exists(name):
        sys.exit(f"FAIL: {name} is missing: the build keeps it when it compiles "
                 f"{os.path.basename(path)} (tessera_cuda_checked_sources); build that target, "
                 "or touch the source if the file was removed after its compile")
    with open(name, errors="replace") as f:
        return f.read()


def ptx(path):
    return read(path, "ptx")


def ptxas(path):
    """nvcc's stderr with ptxas -v: per kernel stack frame, spills, registers; ptxas warnings."""
    return read(path, "ptxas")


def includes(path):
    """The host preprocessing's line markers (`# N "file" flags`), as `nvcc -E` prints them."""
    return read(path, "includes")


def cpu_seconds(path):
    """CPU seconds (user + system, nvcc and its children) of the build's compile of the unit."""
    return float(read(path, "cpu").split()[0])
