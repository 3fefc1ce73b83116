#!/usr/bin/env python3
"""One row of bench/attention_bench.py's suite, tessera then cuDNN launched once inside the NVTX
range "profile", after a warm-up outside it: what Nsight Compute profiles side by side
(scripts/gpu.sh attention-profile runs it under ncu with --nvtx-include "profile/").

Usage: attention_profile.py --dtype bfloat16 --head-dim 128 --seqlen 512 [--causal]
       [--library PATH/libtessera_attention.so]
"""
import argparse
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from attention_bench import backends, suite  # noqa: E402  (same directory)
from attention_bench import gpu_and_tessera  # noqa: E402


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--dtype", default="bfloat16", choices=("bfloat16", "float16"))
    ap.add_argument("--head-dim", type=int, default=128, choices=(64, 128, 256))
    ap.add_argument("--seqlen", type=int, default=512)
    ap.add_argument("--causal", action="store_true")
    ap.add_argument("--library", help="libtessera_attention.so (else the package's)")
    args = ap.parse_args()
    loaded = gpu_and_tessera(args.library)
    if not loaded:
        return 77
    torch, tessera = loaded
    rows = [r for r in suite(False) if r[:2] == (args.dtype, args.head_dim) and
            r[5] == args.seqlen and r[7] == args.causal and r[3] == r[4]]
    if not rows:
        sys.exit(f"no suite row for {args}")
    dt, d, b, hq, hk, sq, sk, causal = rows[0]
    dtype = getattr(torch, dt)
    q = torch.randn(b, hq, sq, d, device="cuda", dtype=dtype)
    k, v = (torch.randn(b, hk, sk, d, device="cuda", dtype=dtype) for _ in range(2))
    fns = backends(torch, tessera)
    for name in ("tessera", "cudnn"):
        fns[name](q, k, v, causal, False, 3)  # warm-up, outside the profiled ranges
    torch.cuda.synchronize()
    torch.cuda.nvtx.range_push("profile")
    for name in ("tessera", "cudnn"):
        fns[name](q, k, v, causal, False, 1)
    torch.cuda.nvtx.range_pop()
    torch.cuda.synchronize()
    print(f"profiled {dt} d{d} b{b} h{hq} s{sq}{' causal' if causal else ''}: tessera, cuDNN")
    return 0


if __name__ == "__main__":
    sys.exit(main())
