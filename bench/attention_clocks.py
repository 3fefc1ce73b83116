#!/usr/bin/env python3
"""The GPU's SM clock and power while each backend runs one row of the attention suite for a few
seconds, so that TFLOP/s measured at different clocks can be compared (GPU; scripts/gpu.sh
attention-clocks runs it).

An H100 at full tensor load runs at its power limit, and the clock it keeps depends on the
work: TFLOP/s per GHz of SM clock is the kernel's work per cycle, which the clock does not change.
For each row of bench/attention_bench.py's suite whose name matches --rows, tessera and torch
SDPA's cuDNN backend each run back to back for --seconds while nvidia-smi samples the SM clock,
the power draw and the clock event reasons every 50 ms. Reported from the second half of each
run (the steady state): TFLOP/s, the median SM clock and power, the reasons seen, and TFLOP/s per
GHz. Writes attention_clocks.md and .json (GPU, date, commit, command).

Usage: attention_clocks.py [--rows REGEX] [--seconds S] [--out DIR] [--library PATH]
"""
import argparse
import os
import pathlib
import re
import statistics
import subprocess
import sys
import threading
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from attention_bench import backends, flops, fmt, gpu_and_tessera, suite  # noqa: E402
from attention_bench import results_header, write_results  # noqa: E402

QUERY = "timestamp,clocks.sm,power.draw,clocks_event_reasons.active"
# Bits of nvidia-smi's clock event reasons that lower the clock under load.
REASONS = {0x4: "power cap", 0x8: "slowdown", 0x20: "thermal (software)",
           0x40: "thermal (hardware)", 0x80: "power brake"}


class Sampler:
    """nvidia-smi in the background, one line of QUERY every 50 ms, with the host time each
    line was read at."""

    def __enter__(self):
        self.proc = subprocess.Popen(
            ["nvidia-smi", f"--query-gpu={QUERY}", "--format=csv,noheader,nounits", "-lms", "50"],
            stdout=subprocess.PIPE, text=True)
        self.lines = []
        self.thread = threading.Thread(target=self._read, daemon=True)
        self.thread.start()
        return self

    def _read(self):
        for line in self.proc.stdout:
            self.lines.append((time.perf_counter(), line.strip()))

    def __exit__(self, *exc):
        self.proc.terminate()
        self.proc.wait()
        self.thread.join(timeout=1)

    def between(self, t0, t1):
        """(MHz, W, reason bits) of the samples read between host times t0 and t1."""
        out = []
        for t, line in self.lines:
            parts = [p.strip() for p in line.split(",")]
            if t0 <= t <= t1 and len(parts) == 4:
                try:
                    out.append((float(parts[1]), float(parts[2]), int(parts[3], 16)))
                except ValueError:
                    pass
        return out


def sustained(torch, fn, args, seconds):
    """[(host time, launches)] of batches of ~50 ms, back to back for `seconds`."""
    fn(*args, 1)
    torch.cuda.synchronize()
    t = time.perf_counter()
    fn(*args, 1)
    torch.cuda.synchronize()
    n = max(1, int(0.05 / max(time.perf_counter() - t, 1e-6)))
    batches, start = [(time.perf_counter(), 0)], time.perf_counter()
    while time.perf_counter() - start < seconds:
        fn(*args, n)
        torch.cuda.synchronize()
        batches.append((time.perf_counter(), n))
    return batches


def measure(torch, fn, args, f, seconds, sampler):
    batches = sustained(torch, fn, args, seconds)
    half = len(batches) // 2
    t0, t1 = batches[half][0], batches[-1][0]
    launches = sum(n for _, n in batches[half + 1:])
    samples = sampler.between(t0, t1)
    mhz = statistics.median(s[0] for s in samples) if samples else None
    watts = statistics.median(s[1] for s in samples) if samples else None
    bits = 0
    for s in samples:
        bits |= s[2]
    tflops = f * launches / (t1 - t0) / 1e12
    return {"tflops": tflops, "sm_mhz": mhz, "power_w": watts, "samples": len(samples),
            "reasons": [name for bit, name in REASONS.items() if bits & bit],
            "tflops_per_ghz": tflops / (mhz / 1e3) if mhz else None}


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rows", default=r"d128 b\d+ h16/16 s(4096|8192|16384)$| d64 .* s512| s512 "
                    "causal", help="rows of the suite whose name matches (default: head dim 128 "
                    "from 4,096 keys non-causal, and the 512-key rows below 0.9 of cuDNN)")
    ap.add_argument("--seconds", type=float, default=4.0, help="each backend's run per row")
    ap.add_argument("--out", default=str(pathlib.Path(__file__).parent / "results"))
    ap.add_argument("--library", help="libtessera_attention.so (else the package's)")
    args = ap.parse_args()
    loaded = gpu_and_tessera(args.library)
    if not loaded:
        return 77
    torch, tessera = loaded
    fns = {k: v for k, v in backends(torch, tessera).items() if k in ("tessera", "cudnn")}
    rows = []
    torch.manual_seed(0)
    with Sampler() as sampler:
        for dt, d, b, hq, hk, sq, sk, causal in suite(False):
            name = f"{dt} d{d} b{b} h{hq}/{hk} s{sq}{' causal' if causal else ''}"
            if not re.search(args.rows, name):
                continue
            dtype = getattr(torch, dt)
            q = torch.randn(b, hq, sq, d, device="cuda", dtype=dtype)
            k, v = (torch.randn(b, hk, sk, d, device="cuda", dtype=dtype) for _ in range(2))
            f = flops(b, hq, sq, sk, d, causal)
            for backend, fn in fns.items():
                r = measure(torch, fn, (q, k, v, causal, hq != hk), f, args.seconds, sampler)
                rows.append({"name": name, "backend": backend} | r)
                print(f"{name} {backend}: {fmt(r['tflops'])} TFLOP/s at {fmt(r['sm_mhz'])} MHz, "
                      f"{fmt(r['power_w'])} W ({', '.join(r['reasons']) or 'no reason'}): "
                      f"{fmt(r['tflops_per_ghz'])} TFLOP/s per GHz", flush=True)
                time.sleep(1.0)  # the next run starts from a cooler GPU, as in the bench
            del q, k, v
    header = results_header(torch, "attention_clocks.py")
    notes = ("Each backend back to back for the given seconds per row; figures from the second "
             "half of each run: TFLOP/s, median SM clock and power (nvidia-smi every 50 ms), the "
             "clock event reasons seen, TFLOP/s per GHz of SM clock.")
    columns = ["row", "backend", "TFLOP/s", "SM MHz", "power W", "reasons", "TFLOP/s per GHz"]
    write_results(pathlib.Path(args.out), "attention_clocks",
                  "Attention TFLOP/s and the SM clock it ran at", header, {}, rows, notes, [],
                  columns, lambda r: [r["name"], r["backend"], fmt(r["tflops"]),
                                      fmt(r["sm_mhz"]), fmt(r["power_w"]),
                                      ", ".join(r["reasons"]) or "none",
                                      fmt(r["tflops_per_ghz"])])
    print(f"wrote {args.out}/attention_clocks.md and .json")
    return 0


if __name__ == "__main__":
    sys.exit(main())
