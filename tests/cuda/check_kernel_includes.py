#!/usr/bin/env python3
"""Fails when a GEMM kernel file includes a heavy host header (a count, not seconds).

Usage: check_kernel_includes.py ARTIFACT [...]   (${TESSERA_CUDA_ARTIFACTS}/<target>/<kernel>.cu)

The headers each kernel file pulls in are read off the line markers of its host preprocessing,
which the build kept (tessera_cuda_checked_sources, cmake/TesseraCudaChecks.cmake).
The kernel files must not include <string>, <mutex> and their kin: nvcc parses
every header three times (cudafe++, the device front end, the host compiler), and <mutex> alone
(it brings <string>, <system_error> and <stdexcept>) was a fifth of 03_simt_pipelined.cu's compile
time. What needs them (the memory pool, the plan's words) lives in kernels/gemm/scratch.cu and
kernels/gemm_abi.cu, compiled once. The compile-time ratio tests (compile_budget.py) measure the
cost; this check names the header and the file that included it.
"""
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import artifacts  # noqa: E402  (same directory)

FORBIDDEN = ["string", "mutex", "system_error", "stdexcept", "sstream", "iostream", "ostream",
             "vector", "map", "memory", "functional", "thread"]
MARKER = re.compile(r'^# \d+ "([^"]+)"((?: \d)*)$')


def forbidden(path):
    """Whether `path` is one of the standard headers above (or <string>'s own body)."""
    return bool(re.search(r"/c\+\+/\d+/(" + "|".join(FORBIDDEN) + r")$", path)) or \
        path.endswith("/bits/basic_string.h")


def includes(source):
    """[(header, includer)] of every forbidden header, in the order first entered."""
    stack, found, seen = [], [], set()
    for line in artifacts.includes(source).splitlines():
        m = MARKER.match(line)
        if not m:
            continue
        name, flags = m.group(1), m.group(2).split()
        if "1" in flags:  # entering `name`
            if forbidden(name) and name not in seen:
                seen.add(name)
                found.append((name, stack[-1] if stack else source))
            stack.append(name)
        elif "2" in flags:  # back in `name`
            while stack and stack[-1] != name:
                stack.pop()
        elif not stack:
            stack.append(name)
    return found


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    failures = 0
    for source in sys.argv[1:]:
        found = includes(source)
        name = os.path.basename(source)
        if not found:
            print(f"ok   {name}")
            continue
        failures += 1
        for header, includer in found:
            print(f"FAIL {name}: includes {header} (from {includer})")
    if failures:
        print(f"FAILED: {failures} kernel file(s) compile heavy host headers; move what needs them "
              "to kernels/gemm/scratch.cu or gemm_abi.cu")
        return 1
    print(f"PASSED: no kernel file includes <{'>, <'.join(FORBIDDEN)}>")
    return 0


if __name__ == "__main__":
    sys.exit(main())
