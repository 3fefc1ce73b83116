#!/usr/bin/env python3
"""tessera.scaled_mm (FP8 e4m3, out bf16) against torch._scaled_mm (cuBLASLt; block scales through
torch.nn.functional.scaled_mm) in one process, launches interleaved (GPU; scripts/gpu.sh fp8).

Rows: squares 2048-16384, DeepGEMM's shapes (M = 64, 128, 4096 against (N, K) = (2112, 7168),
(24576, 1536), (32768, 512), (7168, 16384), (4096, 7168), (7168, 2048)) and transformer
projections (y = x W^T, x of M tokens), each with per-tensor, row-wise and block scales (1 x 128
on a, 128 x 128 on b). TFLOP/s = 2 M N K / GPU time: CUDA events around CUDA graphs of launches,
the two taking turns graph by graph, the median of each; ratio = tessera / cuBLASLt. Beside it
the time per call launched eagerly from Python (host work included where it outlasts the GPU's:
the small-token rows). Writes gemm_fp8.md and gemm_fp8.json (GPU, date, commit, command; per
scaling the geometric mean of the ratio and the rows below 0.9).

Usage: gemm_fp8_bench.py [--quick | --tokens] [--rows REGEX] [--out DIR]
                         [--library PATH/libtessera_gemm.so]
TESSERA_COMMIT and TESSERA_BENCH_COMMAND, when set, are the commit and command recorded.
"""
import argparse
import os
import pathlib
import re
import statistics
import sys
import time

ROOT = pathlib.Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "bench"))
from attention_bench import (below_text, fmt, geomean,  # noqa: E402
                             gpu_and_tessera, results_header, write_results)

DEEPGEMM_NK = ((2112, 7168), (24576, 1536), (32768, 512), (7168, 16384), (4096, 7168),
               (7168, 2048))
# Llama-3 8B's projections (hidden 4096, MLP 14336, fused QKV 6144) at 4096 tokens.
PROJECTIONS = ((4096, 6144, 4096), (4096, 4096, 4096), (4096, 28672, 4096), (4096, 4096, 14336))


# Scalings, each against cuBLASLt doing the same: promoted sums (fp32 every 128 of K, cuBLASLt's
# default), or "fast" (use_fast_accum=True on both sides: all of K in the tensor cores).
SCALINGS = ("tensor", "row", "block", "tensor fast", "row fast")
PLAN_OVERRIDES = ("TESSERA_GEMM_TILE", "TESSERA_GEMM_SCHEDULE", "TESSERA_GEMM_SPLITS",
                  "TESSERA_GEMM_FP8_FEW_ON_M", "TESSERA_GEMM_CLUSTER")


def shapes(quick: bool, tokens: bool):
    """(group, M, N, K)."""
    if tokens:
        return [("deepgemm", m, n, k) for m in (64, 128) for n, k in DEEPGEMM_NK]
    if quick:
        return [("square", 4096, 4096, 4096), ("deepgemm", 4096, 7168, 16384),
                ("deepgemm", 128, 7168, 2048)]
    rows = [("square", s, s, s) for s in (2048, 4096, 8192, 16384)]
    rows += [("deepgemm", m, n, k) for m in (64, 128, 4096) for n, k in DEEPGEMM_NK]
    rows += [("projection", m, n, k) for m, n, k in PROJECTIONS]
    return rows


def time_pair(torch, fns, reps=7, batch_ms=10.0):
    """Seconds per launch of each function, launched from Python one after the other (what an
    eager caller sees, host work included where it outlasts the GPU's): a probe launch sizes a
    batch of ~batch_ms (by its wall time to completion, which holds its GPU time: a call of a
    few microseconds on the GPU takes tens on the host), then `reps` rounds in which each runs
    its batch."""
    sizes, per = {}, {name: [] for name in fns}
    for name, fn in fns.items():
        fn()
        torch.cuda.synchronize()
        began = time.perf_counter()
        fn()
        torch.cuda.synchronize()
        wall_ms = (time.perf_counter() - began) * 1e3
        sizes[name] = max(1, int(batch_ms / max(wall_ms, 1e-3)))
    for _ in range(reps):
        for name, fn in fns.items():
            start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
            start.record()
            for _ in range(sizes[name]):
                fn()
            end.record()
            end.synchronize()
            per[name].append(start.elapsed_time(end) / 1e3 / sizes[name])
    return {name: statistics.median(t) for name, t in per.items()}


def graph_of(torch, fn, launches):
    """A CUDA graph of `launches` calls of fn (captured after two calls on a side stream)."""
    side = torch.cuda.Stream()
    side.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(side):
        fn()
        fn()
    torch.cuda.current_stream().wait_stream(side)
    torch.cuda.synchronize()
    graph = torch.cuda.CUDAGraph()
    with torch.cuda.graph(graph):
        for _ in range(launches):
            fn()
    return graph


def time_pair_gpu(torch, fns, eager, reps=7, batch_ms=10.0):
    """Seconds per launch of each function on the GPU alone: its launches captured in a CUDA
    graph of ~batch_ms (sized from the eager time, at most 500 launches), the graphs replayed in
    turns, `reps` rounds, the median of each. The host's work per call is not in it."""
    launches = {name: max(1, min(500, int(batch_ms / 1e3 / eager[name]))) for name in fns}
    graphs = {name: graph_of(torch, fn, launches[name]) for name, fn in fns.items()}
    per = {name: [] for name in fns}
    for _ in range(reps):
        for name, graph in graphs.items():
            start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
            start.record()
            graph.replay()
            end.record()
            end.synchronize()
            per[name].append(start.elapsed_time(end) / 1e3 / launches[name])
    return {name: statistics.median(t) for name, t in per.items()}


def block_scaled_mm(torch, a, b, sa, sb):
    """cuBLASLt's block-scaled call through torch.nn.functional.scaled_mm (1 x 128 on a, 128 x
    128 on b), or None where this torch has none; the scale layouts it accepts are tried in turn
    (a's scales M-major, b's (KB, NB) either major)."""
    F = torch.nn.functional
    if not hasattr(F, "scaled_mm") or not hasattr(F, "ScalingType"):
        return None
    kinds = (F.ScalingType.BlockWise1x128, F.ScalingType.BlockWise128x128)
    sa_m_major = sa.t().contiguous().t()
    for ta, tb in ((sa_m_major, sb), (sa_m_major, sb.t().contiguous().t()), (sa, sb)):
        def run(ta=ta, tb=tb):
            return F.scaled_mm(a, b, ta, kinds[0], tb, kinds[1], output_dtype=torch.bfloat16)
        try:
            run()
            return run
        except (RuntimeError, TypeError, ValueError) as e:
            last = str(e).splitlines()[0][:120]
    print(f"  cuBLASLt block scales: n/a ({last})", flush=True)
    return None


def scales(torch, m, n, k, scaling):
    """(scale_a, scale_b) of the scaling: one each, per row and column, or per block."""
    if scaling == "row":
        return torch.rand(m, 1, device="cuda") + 0.5, torch.rand(1, n, device="cuda") + 0.5
    if scaling == "block":
        kb, nb = -(-k // 128), -(-n // 128)
        return torch.rand(m, kb, device="cuda") + 0.5, torch.rand(kb, nb, device="cuda") + 0.5
    return torch.tensor(0.7, device="cuda"), torch.tensor(1.3, device="cuda")


def short_plan(text):
    """The kernel, tile and schedule out of a plan's words (tessera_gemm_plan's and
    tessera_scaled_gemm_plan's)."""
    tile = re.search(r"tile (\d+ x \d+)", text)
    kernel = re.search(r"kernel (\S+?),", text)
    sched = "whole tiles"
    for pattern in (r"split-K: [^;(]*", r"stream-K on \d+ clusters", r"\d+ cluster tiles on \d+"):
        found = re.search(pattern, text)
        if found:
            sched = found.group(0).strip()
            break
    return f"{kernel.group(1) if kernel else '?'} {tile.group(1) if tile else ''}; {sched}"


def measure(torch, tessera, m, n, k, scaling, fast=False):
    """{tessera/cublaslt: (TFLOP/s on the GPU, eager microseconds per call)}, max relative
    difference of the outputs (None without cuBLASLt), tessera's plan (short_plan); fast:
    use_fast_accum on both sides. Block scales go to both in the layouts each reads in place (a's
    M-major; b's K-major for tessera, gemm.h's), so neither copies them per call."""
    fp8 = torch.float8_e4m3fn
    a = (torch.randn(m, k, device="cuda") * 2).to(fp8)
    b = (torch.randn(n, k, device="cuda") * 2).to(fp8).t()  # (K, N) column-major
    sa, sb = scales(torch, m, n, k, scaling)
    out = torch.empty(m, n, dtype=torch.bfloat16, device="cuda")
    theirs = block_scaled_mm(torch, a, b, sa, sb) if scaling == "block" else \
        (lambda: torch._scaled_mm(a, b, sa, sb, out_dtype=torch.bfloat16, use_fast_accum=fast))
    if scaling == "block":
        sa, sb = sa.t().contiguous().t(), sb.t().contiguous().t()
    fns = {"tessera": lambda: tessera.scaled_mm(a, b, sa, sb, out_dtype=torch.bfloat16, out=out,
                                                use_fast_accum=fast)}
    plan = short_plan(tessera.scaled_mm_plan(a, b, sa, sb, out_dtype=torch.bfloat16,
                                             use_fast_accum=fast))
    if theirs:
        fns["cublaslt"] = theirs
    eager = time_pair(torch, fns)
    gpu = time_pair_gpu(torch, fns, eager)
    f = 2.0 * m * n * k
    times = {name: (f / gpu[name] / 1e12, eager[name] * 1e6) for name in fns}
    if not theirs:
        return times, None, plan
    ref = theirs().float()
    diff = ((out.float() - ref).abs().max() / ref.abs().max().clamp(min=1e-30)).item()
    return times, diff, plan


def plan_overrides():
    """The plan's measuring overrides in effect (kernels/gemm/plan.hpp), for the header, or None."""
    forced = [f"{v}={os.environ[v]}" for v in PLAN_OVERRIDES if os.environ.get(v)]
    return ", ".join(forced) if forced else None


def ratio_summary(rows, group_key, groups):
    """Per group (rows whose group_key is it): the geometric mean of their ratios, how many
    have one, and the names of those below 0.9."""
    summary = {}
    for g in groups:
        mine = [r for r in rows if r[group_key] == g and r["ratio"]]
        summary[g] = {"geomean_ratio": geomean(r["ratio"] for r in mine), "rows": len(mine),
                      "below_0.9": [r["name"] for r in mine if r["ratio"] < 0.9]}
    return summary


def write(out_dir: pathlib.Path, header: dict, rows: list):
    summary = ratio_summary(rows, "scaling", SCALINGS)
    notes = ("e4m3 x e4m3 -> bf16, a row-major and b column-major (torch's layout); TFLOP/s = "
             "2·M·N·K / GPU time (CUDA graphs of launches, the two in turns, in one process); "
             "eager µs: the time per call launched one by one from Python (the host's work "
             "included where it outlasts the GPU's); difference: max |tessera - "
             "cuBLASLt| / max |cuBLASLt|. Scalings: per tensor, per row and column, per block "
             "(1 x 128 on a, 128 x 128 on b), all with the partial sums promoted to fp32 every "
             "128 of K on both sides; \"fast\": use_fast_accum=True on both sides; plan: "
             "tessera's kernel, tile and schedule (tessera.scaled_mm_plan).")
    lines = [f"- {scaling} scales: geometric mean of the ratio {fmt(s['geomean_ratio'], '.3f')} "
             f"over {s['rows']} rows; below 0.9: {below_text(s['below_0.9'])}"
             for scaling, s in summary.items()]
    columns = ["group", "M", "N", "K", "scaling", "tessera TFLOP/s", "cuBLASLt TFLOP/s", "ratio",
               "eager µs tessera / cuBLASLt", "difference", "plan"]
    write_results(out_dir, "gemm_fp8",
                  "FP8 GEMM: tessera.scaled_mm against torch._scaled_mm (cuBLASLt)", header,
                  summary, rows, notes, lines, columns,
                  lambda r: [r["group"], str(r["m"]), str(r["n"]), str(r["k"]), r["scaling"],
                             fmt(r["tflops_tessera"]), fmt(r["tflops_cublaslt"]),
                             fmt(r["ratio"], ".2f"),
                             f"{fmt(r['eager_us_tessera'], '.1f')} / "
                             f"{fmt(r['eager_us_cublaslt'], '.1f')}",
                             fmt(r["difference"], ".1e"), r.get("plan", "")])
    return summary


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="three shapes (a smoke run)")
    ap.add_argument("--tokens", action="store_true",
                    help="only DeepGEMM's 64- and 128-token rows (to compare TESSERA_GEMM_SPLITS)")
    ap.add_argument("--out", default=str(ROOT / "bench" / "results"), help="results folder")
    ap.add_argument("--library", help="libtessera_gemm.so (else the package's)")
    ap.add_argument("--rows", help="only the rows whose name matches this regular expression, "
                    "e.g. '^64x.* (tensor|row)$' (a subset: its results go to --out as well)")
    args = ap.parse_args()
    loaded = gpu_and_tessera(args.library, "TESSERA_GEMM_LIBRARY")
    if not loaded:
        return 77
    torch, tessera = loaded
    header = results_header(torch, "gemm_fp8_bench.py")
    if plan_overrides():
        header["plan overrides"] = plan_overrides()
    rows = []
    torch.manual_seed(0)
    for group, m, n, k in shapes(args.quick, args.tokens):
        for scaling in SCALINGS:
            if args.rows and not re.search(args.rows, f"{m}x{n}x{k} {scaling}"):
                continue
            started = time.monotonic()
            times, diff, plan = measure(torch, tessera, m, n, k, scaling.split()[0],
                                        scaling.endswith("fast"))
            (ours, our_us), (theirs, their_us) = times["tessera"], times.get("cublaslt",
                                                                            (None, None))
            name = f"{m}x{n}x{k} {scaling}"
            ratio = ours / theirs if theirs else None
            rows.append({"name": name, "group": group, "m": m, "n": n, "k": k,
                         "scaling": scaling, "tflops_tessera": ours, "tflops_cublaslt": theirs,
                         "ratio": ratio, "eager_us_tessera": our_us,
                         "eager_us_cublaslt": their_us, "difference": diff, "plan": plan})
            print(f"{name}: tessera {ours:.0f}  cuBLASLt {fmt(theirs)}  ratio {fmt(ratio, '.2f')}"
                  f"  eager us {our_us:.1f} / {fmt(their_us, '.1f')}  diff {fmt(diff, '.1e')}"
                  f"  ({time.monotonic() - started:.1f} s)", flush=True)
            write(pathlib.Path(args.out), header, rows)  # (so far: a cut-off run keeps its rows)
    summary = write(pathlib.Path(args.out), header, rows)
    for scaling, s in summary.items():
        print(f"{scaling}: geomean ratio {fmt(s['geomean_ratio'], '.3f')} over {s['rows']} rows; "
              f"below 0.9: {len(s['below_0.9'])}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
