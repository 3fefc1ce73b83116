#!/usr/bin/env python3
"""tessera.gemm against torch.mm (cuBLAS) on language models' linear layers, y = x W^T, in one
process (GPU; scripts/gpu.sh layers).

x is (tokens, in features) row-major and W (out features, in features) row-major, as
torch.nn.Linear holds them: y = x @ W.t(), (tokens, out features) row-major. Layers: the
attention projections (fused QKV, O) and the MLP's (fused gate and up, down) of Llama-3 8B and
70B, Qwen2.5 7B and a Mixtral 8x7B expert, and Llama-3's output projection onto its 128,256-word
vocabulary; tokens 1 to 8192; bf16 and f16. TFLOP/s = 2 tokens
in out / GPU time: CUDA events around CUDA graphs of launches, the two taking turns graph by
graph, the median of each (bench/gemm_fp8_bench.py's timing); ratio = tessera / cuBLAS; beside
it the time per call launched eagerly from Python. Each row names tessera's plan (tile and
schedule). Writes gemm_layers.md and .json (GPU, date, commit, command; per dtype the geometric
mean of the ratio and the rows below 0.9).

Usage: gemm_layers_bench.py [--quick] [--dtypes bf16,f16] [--rows REGEX] [--out DIR]
                            [--library PATH]
TESSERA_COMMIT and TESSERA_BENCH_COMMAND, when set, are the commit and command recorded; the
plan's measuring overrides (TESSERA_GEMM_TILE, _SCHEDULE, _SPLITS) are recorded when set.
"""
import argparse
import ctypes
import math
import pathlib
import re
import sys

ROOT = pathlib.Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "bench"))
from attention_bench import (below_text, fmt, gpu_and_tessera,  # noqa: E402
                             results_header, write_results)
from gemm_fp8_bench import (plan_overrides, ratio_summary, short_plan,  # noqa: E402
                            time_pair, time_pair_gpu)

# (model, layer, out features, in features)
LAYERS = (
    ("Llama-3 8B", "qkv", 6144, 4096), ("Llama-3 8B", "o", 4096, 4096),
    ("Llama-3 8B", "gate+up", 28672, 4096), ("Llama-3 8B", "down", 4096, 14336),
    ("Llama-3 70B", "qkv", 10240, 8192), ("Llama-3 70B", "o", 8192, 8192),
    ("Llama-3 70B", "gate+up", 57344, 8192), ("Llama-3 70B", "down", 8192, 28672),
    ("Qwen2.5 7B", "qkv", 4608, 3584), ("Qwen2.5 7B", "o", 3584, 3584),
    ("Qwen2.5 7B", "gate+up", 37888, 3584), ("Qwen2.5 7B", "down", 3584, 18944),
    ("Mixtral 8x7B", "expert gate+up", 28672, 4096), ("Mixtral 8x7B", "expert down", 4096, 14336),
    ("Llama-3 8B", "lm_head", 128256, 4096),
)
TOKENS = (1, 16, 64, 128, 512, 2048, 8192)
QUICK_TOKENS = (128, 512, 2048)
ABI_DTYPES = {"f16": 2, "bf16": 3}  # tessera_dtype of include/tessera/gemm.h


def declare_plan(lib):
    """tessera_gemm_plan's signature (include/tessera/gemm.h) on the loaded library."""
    lib.tessera_gemm_plan.argtypes = [ctypes.c_char_p, ctypes.c_int, ctypes.c_char,
                                      ctypes.c_char] + [ctypes.c_int64] * 3 + [
        ctypes.c_float, ctypes.c_void_p, ctypes.c_int64, ctypes.c_void_p, ctypes.c_int64,
        ctypes.c_float, ctypes.c_void_p, ctypes.c_int64, ctypes.c_char_p, ctypes.c_size_t]
    return lib


def plan_text(lib, dtype, x, w, y):
    """tessera_gemm_plan's words for y = x @ w.t() (the call tessera.gemm makes)."""
    from tessera import _gemm
    wt = w.t()
    swap, ta, lda, tb, ldb, m, n, k, ldc = _gemm.blas_args(x.shape, x.stride(), wt.shape,
                                                          wt.stride(), y.shape, y.stride())
    first, second = (wt, x) if swap else (x, wt)
    text = ctypes.create_string_buffer(1024)
    lib.tessera_gemm_plan(None, ABI_DTYPES[dtype], ta.encode(), tb.encode(), m, n, k, 1.0,
                          first.data_ptr(), lda, second.data_ptr(), ldb, 0.0, y.data_ptr(), ldc,
                          text, len(text))
    return text.value.decode()


def measure(torch, tessera, lib, dtype, tokens, out_f, in_f):
    """(tessera TFLOP/s, cuBLAS TFLOP/s, eager us each, max relative difference, plan)."""
    dt = {"f16": torch.float16, "bf16": torch.bfloat16}[dtype]
    x = torch.randn(tokens, in_f, device="cuda", dtype=dt)
    w = torch.randn(out_f, in_f, device="cuda", dtype=dt) / math.sqrt(in_f)
    ours = torch.empty(tokens, out_f, device="cuda", dtype=dt)
    theirs = torch.empty_like(ours)
    fns = {"tessera": lambda: tessera.gemm(x, w.t(), out=ours),
           "cublas": lambda: torch.mm(x, w.t(), out=theirs)}
    eager = time_pair(torch, fns)
    gpu = time_pair_gpu(torch, fns, eager)
    f = 2.0 * tokens * out_f * in_f
    diff = ((ours.float() - theirs.float()).abs().max() /
            theirs.float().abs().max().clamp(min=1e-30)).item()
    return (f / gpu["tessera"] / 1e12, f / gpu["cublas"] / 1e12, eager["tessera"] * 1e6,
            eager["cublas"] * 1e6, diff, short_plan(plan_text(lib, dtype, x, w, ours)))


def write(out_dir: pathlib.Path, header: dict, rows: list, dtypes):
    summary = ratio_summary(rows, "dtype", dtypes)
    notes = ("y = x W^T as torch.nn.Linear computes it (x: tokens x in, W: out x in, both "
             "row-major); TFLOP/s = 2·tokens·in·out / GPU time (CUDA graphs of launches, the two "
             "in turns, in one process); eager µs: per call launched one by one from Python; "
             "difference: max |tessera - cuBLAS| / max |cuBLAS|; plan: tessera's kernel, tile "
             "and schedule (tessera_gemm_plan).")
    lines = [f"- {dt}: geometric mean of the ratio {fmt(s['geomean_ratio'], '.3f')} over "
             f"{s['rows']} rows; below 0.9: {below_text(s['below_0.9'])}"
             for dt, s in summary.items()]
    columns = ["dtype", "model", "layer", "tokens", "out", "in", "tessera TFLOP/s",
               "cuBLAS TFLOP/s", "ratio", "eager µs tessera / cuBLAS", "difference", "plan"]
    write_results(out_dir, "gemm_layers",
                  "GEMM on language models' linear layers: tessera.gemm against torch.mm (cuBLAS)",
                  header, summary, rows, notes, lines, columns,
                  lambda r: [r["dtype"], r["model"], r["layer"], str(r["tokens"]), str(r["out"]),
                             str(r["in"]), fmt(r["tflops_tessera"]), fmt(r["tflops_cublas"]),
                             fmt(r["ratio"], ".2f"),
                             f"{fmt(r['eager_us_tessera'], '.1f')} / "
                             f"{fmt(r['eager_us_cublas'], '.1f')}",
                             fmt(r["difference"], ".1e"), r["plan"]])
    return summary


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="128, 512 and 2048 tokens only")
    ap.add_argument("--dtypes", default="bf16,f16", help="comma-separated: bf16, f16")
    ap.add_argument("--out", default=str(ROOT / "bench" / "results"), help="results folder")
    ap.add_argument("--library", help="libtessera_gemm.so (else the package's)")
    ap.add_argument("--rows", help="only the rows whose name matches this regular expression, "
                    "e.g. 'Qwen.* o x(64|128)$' (a subset: its results go to --out as well)")
    args = ap.parse_args()
    loaded = gpu_and_tessera(args.library, "TESSERA_GEMM_LIBRARY")
    if not loaded:
        return 77
    torch, tessera = loaded
    from tessera import _gemm
    lib = declare_plan(_gemm.load_library())
    dtypes = [d for d in args.dtypes.split(",") if d]
    header = results_header(torch, "gemm_layers_bench.py")
    if plan_overrides():
        header["plan overrides"] = plan_overrides()
    torch.manual_seed(0)
    rows = []
    for dt in dtypes:
        for model, layer, out_f, in_f in LAYERS:
            for tokens in QUICK_TOKENS if args.quick else TOKENS:
                name = f"{dt} {model} {layer} x{tokens}"
                if args.rows and not re.search(args.rows, name):
                    continue
                ours, theirs, our_us, their_us, diff, plan = measure(torch, tessera, lib, dt,
                                                                     tokens, out_f, in_f)
                rows.append({"name": name, "dtype": dt, "model": model, "layer": layer,
                             "tokens": tokens, "out": out_f, "in": in_f, "tflops_tessera": ours,
                             "tflops_cublas": theirs, "ratio": ours / theirs,
                             "eager_us_tessera": our_us, "eager_us_cublas": their_us,
                             "difference": diff, "plan": plan})
                print(f"{name}: tessera {ours:.0f}  cuBLAS {theirs:.0f}  ratio {ours / theirs:.2f}"
                      f"  [{plan}]", flush=True)
    summary = write(pathlib.Path(args.out), header, rows, dtypes)
    for dt, s in summary.items():
        print(f"{dt}: geomean ratio {fmt(s['geomean_ratio'], '.3f')} over {s['rows']} rows; "
              f"below 0.9: {len(s['below_0.9'])}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
