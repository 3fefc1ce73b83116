#!/usr/bin/env python3
"""tessera.scaled_mm (FP8) against a float64 product of the dequantized inputs and against
torch._scaled_mm on the same inputs (GPU; run by scripts/gpu.sh fp8).

Inputs are quantized as a language model's are: x = randn * spread, scale = amax / FP8's max per
tensor or per row, x_fp8 = (x / scale).to(fp8). Every case: e4m3 and e5m2, out bf16 / f16 / f32,
per-tensor and row-wise scales, odd M and N, K not a multiple of 16, operands in torch's layout
(a row-major, b column-major: read in place) and the others (packed first), all inside larger
buffers whose guard regions must not change, out poisoned with NaN first. The error (max |out -
ref| / max |ref|) must be no worse than torch._scaled_mm's on the same inputs plus the output's
rounding where torch takes the case, else within the output type's rounding bound.

Usage: torch_scaled_mm.py PATH/TO/libtessera_gemm.so     exit 0 all passed, 77 no torch or no GPU
"""
import sys

from tessera_package import load_tessera, torch_on_gpu

ROUNDING = {"bfloat16": 2 ** -8, "float16": 2 ** -11, "float32": 2 ** -20}
# The FP8 tensor cores accumulate with fewer bits than fp32 (about 13 below the leading one): the
# error of a 128-deep partial sum, relative to the result's largest, where torch has no reference.
FP8_SUMS = 2 ** -10


def bound_for(out_dtype, theirs, fast=False):
    """No worse than torch's error on the same inputs (twice, for the noise of two summation
    orders), else the output's rounding plus FP8_SUMS (four times that with fast accumulation:
    all of K summed in the tensor cores)."""
    own = 4 * ROUNDING[str(out_dtype).split(".")[1]] + FP8_SUMS * (4 if fast else 1)
    return max(4 * ROUNDING[str(out_dtype).split(".")[1]] + 1e-5, 2 * theirs) \
        if theirs is not None else own


def quantize(torch, x, fp8, rows: bool):
    """(x_fp8, scale): scale per tensor (a 0-d tensor) or per row ((rows, 1))."""
    amax = x.abs().amax(dim=1, keepdim=True) if rows else x.abs().max()
    scale = (amax.float() / torch.finfo(fp8).max).clamp(min=1e-12)
    return (x / scale).to(fp8), scale


def quantize_blocks(torch, x, fp8, rows: int):
    """(x_fp8, scales) in blocks of `rows` x 128 (1 x 128: a's; 128 x 128: w's), scales
    (ceil(R / rows), ceil(K / 128)); x's padded edges quantized with their block."""
    r, k = x.shape
    pr, pk = -(-r // rows) * rows, -(-k // 128) * 128
    padded = torch.zeros(pr, pk, device=x.device)
    padded[:r, :k] = x
    blocks = padded.reshape(pr // rows, rows, pk // 128, 128)
    amax = blocks.abs().amax(dim=(1, 3))
    scale = (amax / torch.finfo(fp8).max).clamp(min=1e-12)
    q = (blocks / scale[:, None, :, None]).reshape(pr, pk)[:r, :k].to(fp8)
    return q, scale


def dequantize_blocks(q, scale, rows: int):
    r, k = q.shape
    full = scale.repeat_interleave(rows, 0)[:r].repeat_interleave(128, 1)[:, :k]
    return q.double() * full.double()


def guarded(torch, rows, cols, dtype, column_major, fill):
    """(view, buffer): a rows x cols view strictly inside a larger buffer of `fill`."""
    if column_major:
        buf = torch.full((cols + 3, rows + 24), fill, dtype=torch.float32, device="cuda")
        buf = buf.to(dtype)
        return buf[1:cols + 1, 16:rows + 16].t(), buf
    buf = torch.full((rows + 3, cols + 24), fill, dtype=torch.float32, device="cuda").to(dtype)
    return buf[1:rows + 1, 16:cols + 16], buf


def run_case(torch, tessera, fp8, out_dtype, rows, m, n, k, layout, fast=False):
    """One case: (ok, message); fast: use_fast_accum on both sides."""
    x = torch.randn(m, k, device="cuda") * 3
    w = torch.randn(n, k, device="cuda") * 0.05
    xq, sx = quantize(torch, x, fp8, rows)
    wq, sw = quantize(torch, w, fp8, rows)
    sa = sx if rows else sx.reshape(())
    sb = sw.reshape(1, n) if rows else sw.reshape(())
    a, a_buf = guarded(torch, m, k, fp8, layout == "a column-major", 0.0)
    b, b_buf = guarded(torch, k, n, fp8, layout != "b row-major", 0.0)
    a.copy_(xq)
    b.copy_(wq.t())
    a_keep, b_keep = a_buf.view(torch.uint8).clone(), b_buf.view(torch.uint8).clone()
    out, out_buf = guarded(torch, m, n, out_dtype, False, float("nan"))
    out_keep = out_buf.clone()
    tessera.scaled_mm(a, b, sa, sb, out_dtype=out_dtype, out=out, use_fast_accum=fast)
    torch.cuda.synchronize()
    ref = (xq.double() * sx.double()) @ (wq.double() * sw.double()).t()
    norm = ref.abs().max().item() + 1e-30
    err = (out.double() - ref).abs().max().item() / norm
    inside = torch.zeros_like(out_buf, dtype=torch.bool)
    inside[1:m + 1, 16:n + 16] = True
    guards_ok = (torch.equal(a_buf.view(torch.uint8), a_keep)
                 and torch.equal(b_buf.view(torch.uint8), b_keep)
                 and torch.equal(out_buf[~inside].isnan(), out_keep[~inside].isnan()))
    theirs = None
    try:
        mine = torch._scaled_mm(xq, wq.t(), sa.float(), sb.float(), out_dtype=out_dtype,
                                use_fast_accum=fast)
        theirs = (mine.double() - ref).abs().max().item() / norm
    except (RuntimeError, TypeError, ValueError):
        pass  # a case torch refuses (e5m2 x e5m2, K % 16, row-wise with a non-bf16 out)
    bound = bound_for(out_dtype, theirs, fast)
    ok = err <= bound and guards_ok and not out.isnan().any().item()
    words = (f"{str(fp8).split('.')[1]} -> {str(out_dtype).split('.')[1]} "
             f"{'row' if rows else 'tensor'}{' fast' if fast else ''} {m}x{n}x{k} {layout}: "
             f"err {err:.3g} (torch "
             f"{'n/a' if theirs is None else format(theirs, '.3g')}, bound {bound:.3g})"
             f"{'' if guards_ok else ', GUARD REGION CHANGED'}")
    return ok, words


def off_boundary(torch, s):
    """s (r, c) column-major, 4 bytes past a 16-byte boundary (the library reads it in place)."""
    storage = torch.empty(s.numel() + 1, device="cuda")
    view = storage[1:].view(s.shape[1], s.shape[0]).t()
    view.copy_(s)
    return view


def run_block_case(torch, tessera, fp8, out_dtype, m, n, k, scales_off_boundary=False):
    """Block scales (1 x 128 on a, 128 x 128 on b): the error against float64 within the output's
    rounding of the fp32-promoted product. scales_off_boundary: both scales in gemm.h's layouts,
    4 bytes past a 16-byte boundary."""
    x = torch.randn(m, k, device="cuda") * 3
    w = torch.randn(n, k, device="cuda") * 0.05
    xq, sx = quantize_blocks(torch, x, fp8, 1)      # sx (m, kb)
    wq, sw = quantize_blocks(torch, w, fp8, 128)    # sw (nb, kb)
    out, out_buf = guarded(torch, m, n, out_dtype, False, float("nan"))
    out_keep = out_buf.clone()
    sa, sb = sx, sw.t()
    if scales_off_boundary:
        sa, sb = off_boundary(torch, sa), off_boundary(torch, sb)
    tessera.scaled_mm(xq, wq.t(), sa, sb, out_dtype=out_dtype, out=out)
    torch.cuda.synchronize()
    ref = dequantize_blocks(xq, sx, 1) @ dequantize_blocks(wq, sw, 128).t()
    norm = ref.abs().max().item() + 1e-30
    err = (out.double() - ref).abs().max().item() / norm
    inside = torch.zeros_like(out_buf, dtype=torch.bool)
    inside[1:m + 1, 16:n + 16] = True
    guards_ok = torch.equal(out_buf[~inside].isnan(), out_keep[~inside].isnan())
    bound = bound_for(out_dtype, None)
    ok = err <= bound and guards_ok and not out.isnan().any().item()
    where = ", scales off a 16-byte boundary" if scales_off_boundary else ""
    return ok, (f"{str(fp8).split('.')[1]} -> {str(out_dtype).split('.')[1]} block {m}x{n}x{k}"
                f"{where}: "
                f"err {err:.3g} (bound {bound:.3g}){'' if guards_ok else ', GUARD REGION CHANGED'}")


def bad_arguments(torch, tessera):
    """Errors before any launch: (ok, message) each."""
    e4 = torch.zeros(16, 32, dtype=torch.float8_e4m3fn, device="cuda")
    one = torch.ones((), device="cuda")
    cases = {"f16 operand": (e4.half(), e4.t(), one, one),
             "mismatched K": (e4, e4, one, one),
             "scale shapes": (e4, e4.t(), torch.ones(3, device="cuda"), one)}
    out = []
    for name, args in cases.items():
        try:
            tessera.scaled_mm(*args)
            out.append((False, f"{name}: no error"))
        except tessera.Error as e:
            out.append((True, f"{name}: {e}"))
    return out


def main():
    torch = torch_on_gpu("TESSERA_GEMM_LIBRARY")
    tessera, _ = load_tessera()
    torch.manual_seed(0)
    results = []
    # (48 x 2112 x 7168 and 1000 x 40 x 1024: e4m3's short promoted tile, whole and transposed;
    # 24 x 4096 x 7168 and 1000 x 20 x 4096: the same with K split in two)
    shapes = [(1, 1, 16), (7, 9, 40), (100, 300, 64), (129, 257, 528), (1000, 333, 1024),
              (2048, 1536, 4096), (48, 2112, 7168), (1000, 40, 1024), (24, 4096, 7168),
              (1000, 20, 4096)]
    for fp8 in (torch.float8_e4m3fn, torch.float8_e5m2):
        for out_dtype in (torch.bfloat16, torch.float16, torch.float32):
            for rows in (False, True):
                for m, n, k in shapes:
                    results.append(run_case(torch, tessera, fp8, out_dtype, rows, m, n, k,
                                            "torch's layout"))
    for fp8 in (torch.float8_e4m3fn, torch.float8_e5m2):
        for out_dtype in (torch.bfloat16, torch.float32):
            # (120, 128 and 100 rows: e4m3's short promoted tile, 128 wide; 100 x 2112 x 7168
            # with K split in three; at most 64 rows: the cluster along N, 20 x 300 with an odd
            # number of tiles)
            for m, n, k in ((1, 1, 16), (7, 9, 200), (129, 257, 528), (1000, 333, 1024),
                            (64, 2112, 7168), (2048, 1536, 4096), (120, 600, 640),
                            (128, 2112, 2048), (100, 2112, 7168), (20, 300, 512),
                            (50, 900, 1024)):
                results.append(run_block_case(torch, tessera, fp8, out_dtype, m, n, k))
    for m, n, k in ((129, 257, 528), (100, 2112, 7168)):
        results.append(run_block_case(torch, tessera, torch.float8_e4m3fn, torch.bfloat16, m, n,
                                      k, scales_off_boundary=True))
    for out_dtype in (torch.bfloat16, torch.float32):
        for rows in (False, True):
            for m, n, k in ((129, 257, 528), (2048, 1536, 4096)):
                results.append(run_case(torch, tessera, torch.float8_e4m3fn, out_dtype, rows,
                                        m, n, k, "torch's layout", fast=True))
    for layout in ("a column-major", "b row-major"):
        for m, n, k in ((100, 300, 64), (1000, 333, 1024)):
            results.append(run_case(torch, tessera, torch.float8_e4m3fn, torch.bfloat16, True,
                                    m, n, k, layout))
    results += bad_arguments(torch, tessera)
    a = torch.zeros(4096, 4096, dtype=torch.float8_e4m3fn, device="cuda")
    one = torch.ones((), device="cuda")
    print("plan:", tessera.scaled_mm_plan(a, a.t(), one, one))
    for ok, words in results:
        print(("ok   " if ok else "FAIL ") + words)
    failed = sum(not ok for ok, _ in results)
    print(f"torch_scaled_mm: {len(results) - failed} of {len(results)} checks passed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
