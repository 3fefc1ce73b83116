#!/usr/bin/env python3
"""check_examples.py NAME PTXAS_LOG KEEP -- what the build of an example left, checked.

Every kernel in the build's ptxas report (-Xptxas -v) has a 0-byte stack frame and no spill
stores or loads. gemm_epilogue_sm80: each instantiation of its kernel loads from global memory
only the bias (A and B arrive by cp.async, D is only stored), and the PTX must read 16 bias
values per thread (a 128 x 128 tile's fragment has 8 rows x 16 columns: the stride-0 broadcast
along M folds), not 128.
"""
import glob
import re
import sys


def kernels_ok(log):
    text = open(log).read()
    reports = re.findall(r"Compiling entry function '(\w+)'.*?(\d+) bytes stack frame, "
                         r"(\d+) bytes spill stores, (\d+) bytes spill loads", text, re.S)
    if not reports:
        print(f"FAIL: no ptxas report in {log}")
        return False
    ok = True
    for name, stack, st, ld in reports:
        good = stack == "0" and st == "0" and ld == "0"
        print(f"{'ok  ' if good else 'FAIL'} {name}: {stack} bytes stack, "
              f"{st}/{ld} bytes spill stores/loads")
        ok = ok and good
    return ok


def global_values_loaded(body):
    """Values read by ld.global in a PTX function body (a .v2 / .v4 load counts 2 / 4)."""
    n = 0
    loads = r"\bld\.global(?:\.\w+)*?(?:\.v(\d))?\.(?:f32|b32|u32|f16|b16|u16)\b"
    for vec in re.findall(loads, body):
        n += int(vec) if vec else 1
    return n


def bias_loads_ok(keep):
    # KEEP_DIR: nvcc's --keep-dir, or the common path of a kept unit (<path>.ptx beside it).
    files = sorted(glob.glob(f"{keep}/*.ptx") or glob.glob(f"{keep}.ptx"))
    ptx = "".join(open(p).read() for p in files)
    entries = re.findall(r"\.entry (\w*gemm_epilogue_kernel\w*)\((.*?)\n}\n", ptx, re.S)
    if not entries:
        print(f"FAIL: no gemm_epilogue_kernel in the PTX under {keep}")
        return False
    ok = True
    for name, body in entries:
        n = global_values_loaded(body)
        print(f"{'ok  ' if n == 16 else 'FAIL'} {name}: {n} values loaded from global memory "
              "(the bias), want 16")
        ok = ok and n == 16
    return ok


def main():
    name, log, keep = sys.argv[1:4]
    ok = kernels_ok(log)
    if name == "gemm_epilogue_sm80":
        ok = bias_loads_ok(keep) and ok
    print("PASSED" if ok else "FAILED")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
