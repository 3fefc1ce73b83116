#!/usr/bin/env python3
"""tessera.attention against torch's scaled_dot_product_attention with the cuDNN backend and the
flash backend (FlashAttention-2), in one process, launches interleaved (GPU; scripts/gpu.sh
attention-torch runs it).

Each row: B*S around 16k tokens and heads * head_dim = 2048 (the FlashAttention-3 paper's
setup), TFLOP/s = 4*B*H*Sq*Sk*D / time (halved when causal and Sq = Sk), from CUDA events around
batches of launches, the three backends taking turns batch by batch, the median batch of each.
The max error is that of tessera's output on batch 0, heads 0-1, against torch's math backend on
float32 copies. A backend that refuses a shape is recorded as n/a. Writes attention_sdpa.md and
attention_sdpa.json (GPU, date, commit, command; per dtype the geometric mean of ratio_cudnn =
tessera / cuDNN and the rows below 0.9).

Usage: attention_bench.py [--quick] [--out DIR] [--library PATH/libtessera_attention.so]
                          [--rows REGEX]
TESSERA_COMMIT and TESSERA_BENCH_COMMAND, when set, are the commit and command recorded.
"""
import argparse
import datetime
import json
import math
import os
import pathlib
import re
import statistics
import subprocess
import sys
import warnings

ROOT = pathlib.Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests" / "device"))
from tessera_package import load_tessera  # noqa: E402

TOKENS = 16384
HIDDEN = 2048  # heads * head_dim
SEQLENS = (512, 1024, 2048, 4096, 8192, 16384)


def suite(quick: bool):
    """Rows: (dtype name, head_dim, batch, heads_q, heads_kv, seqlen_q, seqlen_k, causal)."""
    def row(dt, d, s, causal, hq=None, hk=None):
        hq = hq or HIDDEN // d
        return (dt, d, max(1, TOKENS // s), hq, hk or hq, s, s, causal)
    if quick:
        return [row("bfloat16", 128, 1024, False), row("bfloat16", 128, 4096, False),
                row("bfloat16", 128, 4096, True), row("float16", 64, 2048, False),
                row("float16", 256, 8192, True), row("bfloat16", 128, 4096, False, 32, 8)]
    rows = [row(dt, d, s, c) for dt in ("bfloat16", "float16") for d in (64, 128, 256)
            for s in SEQLENS for c in (False, True)]
    rows += [row(dt, 128, s, c, 32, 8) for dt in ("bfloat16", "float16") for s in (2048, 8192)
             for c in (False, True)]  # GQA: 32 query heads on 8 key/value heads
    return rows


def flops(b, hq, sq, sk, d, causal):
    f = 4.0 * b * hq * sq * sk * d
    return f / 2 if causal and sq == sk else f


def backends(torch, tessera):
    """name -> fn(q, k, v, causal, gqa, n): n launches."""
    from torch.nn.attention import SDPBackend, sdpa_kernel
    sdpa = torch.nn.functional.scaled_dot_product_attention

    def ours(q, k, v, causal, gqa, n):
        for _ in range(n):
            out = tessera.attention(q, k, v, is_causal=causal, enable_gqa=gqa)
        return out

    def torch_backend(kind):
        def run(q, k, v, causal, gqa, n):
            with sdpa_kernel(kind):
                for _ in range(n):
                    out = sdpa(q, k, v, is_causal=causal, enable_gqa=gqa) if gqa else \
                        sdpa(q, k, v, is_causal=causal)
            return out
        return run
    return {"tessera": ours, "cudnn": torch_backend(SDPBackend.CUDNN_ATTENTION),
            "fa2": torch_backend(SDPBackend.FLASH_ATTENTION)}


def time_row(torch, fns, args, reps=9, batch_ms=10.0):
    """Seconds per launch of each backend (None: it refused the shape): a warm-up and a probe
    launch each, then `reps` rounds in which each backend runs a batch of ~batch_ms. Round r
    starts with the r-th backend, so that each comes first, second, ... equally often: under
    the power cap the clock a batch runs at depends on the batch before it."""
    per, live = {}, {}
    for name, fn in fns.items():
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                fn(*args, 1)
                torch.cuda.synchronize()
            start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
            start.record()
            fn(*args, 1)
            end.record()
            end.synchronize()
            live[name] = max(1, int(batch_ms / max(start.elapsed_time(end), 1e-3)))
            per[name] = []
        except (RuntimeError, TypeError, tessera_error) as e:
            per[name] = None
            print(f"  {name}: n/a ({str(e).splitlines()[0][:100]})", flush=True)
    order = list(live.items())
    for r in range(reps):
        for name, n in order[r % len(order):] + order[:r % len(order)]:
            start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
            start.record()
            fns[name](*args, n)
            end.record()
            end.synchronize()
            per[name].append(start.elapsed_time(end) / 1e3 / n)
    return {name: statistics.median(t) if t else None for name, t in per.items()}


def max_error(torch, tessera, q, k, v, causal, gqa):
    """Max |tessera - float32 math reference| over batch 0, query heads 0-1."""
    from torch.nn.attention import SDPBackend, sdpa_kernel
    group = q.shape[1] // k.shape[1]
    hq, hk = min(2, q.shape[1]), max(1, min(2, q.shape[1]) // group)
    qs, ks, vs = q[:1, :hq], k[:1, :hk], v[:1, :hk]
    out = tessera.attention(qs, ks, vs, is_causal=causal, enable_gqa=gqa)
    kf, vf = (t.float().repeat_interleave(hq // hk, 1) for t in (ks, vs))
    with sdpa_kernel(SDPBackend.MATH):
        ref = torch.nn.functional.scaled_dot_product_attention(qs.float(), kf, vf,
                                                               is_causal=causal)
    return (out.float() - ref).abs().max().item()


def commit() -> str:
    if os.environ.get("TESSERA_COMMIT"):
        return os.environ["TESSERA_COMMIT"]
    try:
        return subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, text=True,
                              capture_output=True, check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return "unknown"


def cudnn_version(torch):
    try:
        return torch.backends.cudnn.version()
    except RuntimeError as e:  # a cuDNN that does not match torch's
        return f"unknown ({str(e).splitlines()[0][:80]})"


def fmt(x, spec=".0f"):
    return "n/a" if x is None else format(x, spec)


def geomean(values):
    """The geometric mean of positive values, None of none."""
    values = list(values)
    return math.exp(statistics.fmean(map(math.log, values))) if values else None


def results_header(torch, script: str) -> dict:
    """A results file's header: GPU, date, commit, the command (TESSERA_BENCH_COMMAND, else this
    script's command line) and torch's version."""
    return {"GPU": torch.cuda.get_device_name(),
            "date": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%MZ"),
            "commit": commit(), "command": os.environ.get("TESSERA_BENCH_COMMAND")
            or f"python3 bench/{script} " + " ".join(sys.argv[1:]),
            "torch": torch.__version__}


def below_text(names) -> str:
    """A summary's rows below 0.9, or none."""
    return ", ".join(names) if names else "none"


def write_results(out_dir: pathlib.Path, stem: str, title: str, header: dict, summary: dict,
                  rows: list, notes: str, summary_lines: list, columns: list, cells):
    """STEM.json (header, summary, rows) and STEM.md: the title, the header, the notes, the
    summary's lines, then a table of `columns` with the cells cells(row) of each row."""
    out_dir.mkdir(parents=True, exist_ok=True)
    (out_dir / f"{stem}.json").write_text(json.dumps(
        {"header": header, "summary": summary, "rows": rows}, indent=1) + "\n")
    lines = [f"# {title}", ""] + [f"- {k}: {v}" for k, v in header.items()] + [""]
    lines += [notes, ""] + summary_lines
    lines += ["", "| " + " | ".join(columns) + " |", "|" + "---|" * len(columns)]
    lines += ["| " + " | ".join(cells(r)) + " |" for r in rows]
    (out_dir / f"{stem}.md").write_text("\n".join(lines) + "\n")


def write(out_dir: pathlib.Path, header: dict, rows: list):
    summary = {}
    for dt in ("bfloat16", "float16"):
        ratios = [r["ratio_cudnn"] for r in rows if r["dtype"] == dt and r["ratio_cudnn"]]
        summary[dt] = {"geomean_ratio_cudnn": geomean(ratios), "rows": len(ratios),
                       "below_0.9": [r["name"] for r in rows if r["dtype"] == dt
                                     and r["ratio_cudnn"] is not None and r["ratio_cudnn"] < 0.9]}
    notes = ("TFLOP/s = 4·B·H·Sq·Sk·D / time (halved when causal); launches interleaved in one "
             "process; max error: tessera against torch's math backend in float32 (batch 0, "
             "heads 0-1).")
    lines = [f"- {dt}: geometric mean of ratio_cudnn {fmt(s['geomean_ratio_cudnn'], '.3f')} over "
             f"{s['rows']} rows; below 0.9: {below_text(s['below_0.9'])}"
             for dt, s in summary.items()]
    columns = ["dtype", "head dim", "batch", "heads (q/kv)", "seqlen_q", "seqlen_k", "causal",
               "tessera TFLOP/s", "cuDNN TFLOP/s", "FA2 TFLOP/s", "ratio_cudnn", "max error"]
    write_results(out_dir, "attention_sdpa",
                  "tessera.attention against torch SDPA (cuDNN and flash backends)", header,
                  summary, rows, notes, lines, columns,
                  lambda r: [r["dtype"], str(r["head_dim"]), str(r["batch"]),
                             f"{r['heads_q']}/{r['heads_kv']}", str(r["seqlen_q"]),
                             str(r["seqlen_k"]), "yes" if r["causal"] else "no",
                             fmt(r["tflops_tessera"]), fmt(r["tflops_cudnn"]),
                             fmt(r["tflops_fa2"]), fmt(r["ratio_cudnn"], ".2f"),
                             fmt(r["max_error"], ".2e")])
    return summary


def gpu_and_tessera(library, variable="TESSERA_ATTENTION_LIBRARY"):
    """(torch, tessera) for a bench: the package with the library at `library` where given (the
    environment variable the package reads it from: attention's, or TESSERA_GEMM_LIBRARY); None,
    having said SKIPPED, where there is no PyTorch or no GPU (the bench then exits with 77)."""
    try:
        import torch
    except ImportError:
        print("SKIPPED: no PyTorch")
        return None
    if not torch.cuda.is_available():
        print("SKIPPED: no GPU")
        return None
    if library:
        os.environ[variable] = library
    tessera, _ = load_tessera()
    return torch, tessera


tessera_error = RuntimeError  # replaced by tessera.Error once the package is loaded


def main():
    global tessera_error
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="six rows (a smoke run)")
    ap.add_argument("--out", default=str(ROOT / "bench" / "results"), help="results folder")
    ap.add_argument("--library", help="libtessera_attention.so (else the package's)")
    ap.add_argument("--rows", help="only the rows whose name matches this regular expression, "
                    "e.g. 'bfloat16 d256'")
    args = ap.parse_args()
    loaded = gpu_and_tessera(args.library)
    if not loaded:
        return 77
    torch, tessera = loaded
    tessera_error = tessera.Error
    fns = backends(torch, tessera)
    header = results_header(torch, "attention_bench.py") | {"cuDNN": cudnn_version(torch)}
    rows = []
    torch.manual_seed(0)
    for dt, d, b, hq, hk, sq, sk, causal in suite(args.quick):
        name = f"{dt} d{d} b{b} h{hq}/{hk} s{sq}{' causal' if causal else ''}"
        if args.rows and not re.search(args.rows, name):
            continue
        dtype = getattr(torch, dt)
        q = torch.randn(b, hq, sq, d, device="cuda", dtype=dtype)
        k, v = (torch.randn(b, hk, sk, d, device="cuda", dtype=dtype) for _ in range(2))
        gqa = hq != hk
        secs = time_row(torch, fns, (q, k, v, causal, gqa))
        f = flops(b, hq, sq, sk, d, causal)
        tf = {n: (f / s / 1e12 if s else None) for n, s in secs.items()}
        try:
            err = max_error(torch, tessera, q, k, v, causal, gqa)
        except tessera.Error:
            err = None
        ratio = tf["tessera"] / tf["cudnn"] if tf["tessera"] and tf["cudnn"] else None
        rows.append({"name": name, "dtype": dt, "head_dim": d, "batch": b, "heads_q": hq,
                     "heads_kv": hk, "seqlen_q": sq, "seqlen_k": sk, "causal": causal,
                     "tflops_tessera": tf["tessera"], "tflops_cudnn": tf["cudnn"],
                     "tflops_fa2": tf["fa2"], "ratio_cudnn": ratio, "max_error": err})
        print(f"{name}: tessera {fmt(tf['tessera'])}  cuDNN {fmt(tf['cudnn'])}  FA2 "
              f"{fmt(tf['fa2'])}  ratio {fmt(ratio, '.2f')}  err {fmt(err, '.2e')}", flush=True)
        del q, k, v
    summary = write(pathlib.Path(args.out), header, rows)
    for dt, s in summary.items():
        print(f"{dt}: geomean ratio_cudnn {fmt(s['geomean_ratio_cudnn'], '.3f')} over "
              f"{s['rows']} rows; below 0.9: {len(s['below_0.9'])}")
    print(f"wrote {args.out}/attention_sdpa.md and .json")
    return 0


if __name__ == "__main__":
    sys.exit(main())
