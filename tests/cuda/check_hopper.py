#!/usr/bin/env python3
"""CI check of kernel 05 (issue 6) without a GPU or cuobjdump: for each of its translation units,
compiles to PTX and to a cubin with `ptxas -v` (DESIGN.md "Verified facts": the CPU machines have
nvcc and ptxas, not cuobjdump) and checks every gemm_05_kernel entry:

  - the Hopper path is there: wgmma.mma_async, TMA loads (cp.async.bulk.tensor), mbarriers,
    setmaxnreg, and a cluster launch (multicast loads);
  - no local memory in the PTX (.local, ld.local / st.local) and ptxas reports 0 bytes of stack
    frame and of spill stores / loads (the SASS check on the GPU machine, scripts/gpu.sh, counts
    HGMMA and LDL/STL in the real SASS);
  - no `call` (every layout folded to integers).

Usage: check_hopper.py NVCC INCLUDE_DIR WORKDIR SOURCE...
"""
import os
import re
import subprocess
import sys

FLAGS = ["-std=c++20", "-O3", "-gencode=arch=compute_90a,code=sm_90a"]
KERNEL = "gemm_05_kernel"
REQUIRED = {
    "wgmma.mma_async": "wgmma",
    "cp.async.bulk.tensor": "TMA",
    "mbarrier.try_wait": "mbarrier wait",
    "setmaxnreg.inc": "setmaxnreg (consumers)",
    "setmaxnreg.dec": "setmaxnreg (producer)",
    ".multicast::cluster": "TMA multicast",
}


def run(cmd):
    r = subprocess.run(cmd, capture_output=True, text=True)
    if r.returncode != 0:
        sys.exit(f"FAIL: {' '.join(cmd)}\n{r.stdout}{r.stderr}")
    return r.stdout + r.stderr


def entries(ptx):
    """{mangled name: body text} for every .entry in the PTX."""
    out, name, body = {}, None, []
    for line in ptx.splitlines():
        m = re.match(r"\s*(?:\.visible\s+)?\.entry\s+(\S+)\(", line)
        if m:
            if name:
                out[name] = "\n".join(body)
            name, body = m.group(1), []
        elif name:
            body.append(line)
    if name:
        out[name] = "\n".join(body)
    return out


def main():
    nvcc, include, work = sys.argv[1:4]
    sources = sys.argv[4:]
    os.makedirs(work, exist_ok=True)
    failures, kernels = [], 0
    for src in sources:
        base = os.path.join(work, os.path.basename(src))
        ptx_path = base + ".ptx"
        run([nvcc, *FLAGS, "-I" + include, "-ptx", src, "-o", ptx_path])
        with open(ptx_path) as f:
            ptx = f.read()
        report = run([nvcc, *FLAGS, "-I" + include, "-cubin", "-Xptxas", "-v", src, "-o", base + ".cubin"])
        for name, body in entries(ptx).items():
            if KERNEL not in name:
                continue
            kernels += 1
            where = f"{os.path.basename(src)}: {name[:60]}..."
            for needle, what in REQUIRED.items():
                if needle not in body:
                    failures.append(f"{where}: no {what} ({needle}) in the PTX")
            if re.search(r"\.local|ld\.local|st\.local", body):
                failures.append(f"{where}: local memory in the PTX")
            if re.search(r"^\s*call", body, re.M):
                failures.append(f"{where}: a call in the PTX (a layout did not fold)")
            # ptxas -v: "Function properties for NAME\n  N bytes stack frame, N bytes spill stores, ..."
            m = re.search(re.escape(name) + r"\s*\n\s*(\d+) bytes stack frame, (\d+) bytes spill stores, "
                          r"(\d+) bytes spill loads", report)
            if not m:
                failures.append(f"{where}: no ptxas -v report")
            elif any(int(x) for x in m.groups()):
                failures.append(f"{where}: stack {m.group(1)} B, spill stores {m.group(2)} B, "
                                f"spill loads {m.group(3)} B")
            else:
                wgmma = body.count("wgmma.mma_async")
                print(f"ok  {where}: {wgmma} wgmma, 0 B stack / spills")
    if kernels != len(sources):
        failures.append(f"expected one {KERNEL} per source ({len(sources)}), found {kernels}")
    for f in failures:
        print("FAIL", f)
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
