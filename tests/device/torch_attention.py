#!/usr/bin/env python3
"""tessera.attention on CUDA torch tensors against torch's scaled_dot_product_attention (math
backend, float32 copies of the same inputs) (GPU; run by scripts/gpu.sh attention-torch).

Odd lengths, seqlen_q != seqlen_k both ways with and without the causal mask, GQA and MQA, every
head dim and dtype, (B, S, H, D) tensors transposed to (B, H, S, D), operands the C ABI cannot
take (copied), a custom scale, the LSE against logsumexp of the scores, on a side stream. The
error bound is relative to torch's own SDPA (default backend) on the same inputs. Then the
argument errors the library reports and the plan's text. Uses the built package when it imports;
otherwise python/tessera of the source tree (tessera_package.py) with TESSERA_ATTENTION_LIBRARY.

Usage: torch_attention.py [PATH/TO/libtessera_attention.so]   exit 0 all passed, 77 no torch/GPU
"""
import math
import sys

from tessera_package import load_tessera, torch_on_gpu


def reference(torch, q, k, v, causal, scale):
    """(out, lse) in float32 from the math backend, and the scores' logsumexp."""
    from torch.nn.attention import SDPBackend, sdpa_kernel
    group = q.shape[1] // k.shape[1]
    qf, kf, vf = (t.float() for t in (q, k, v))
    kf, vf = kf.repeat_interleave(group, 1), vf.repeat_interleave(group, 1)
    with sdpa_kernel(SDPBackend.MATH):
        out = torch.nn.functional.scaled_dot_product_attention(qf, kf, vf, is_causal=causal,
                                                               scale=scale)
    s = (qf @ kf.transpose(-1, -2)) * (scale if scale is not None else q.shape[-1] ** -0.5)
    if causal:
        sq, sk = s.shape[-2:]
        s = s.masked_fill(torch.ones(sq, sk, dtype=torch.bool, device=s.device).triu(1),
                          float("-inf"))
    return out, torch.logsumexp(s, -1)


def make(torch, shape, dtype, layout):
    """A random (B, H, S, D) tensor: contiguous, a transposed (B, S, H, D) one, or one the ABI
    cannot take (head_dim stride 2)."""
    b, h, s, d = shape
    if layout == "bshd":
        return torch.randn(b, s, h, d, device="cuda", dtype=dtype).transpose(1, 2)
    if layout == "strided":
        return torch.randn(b, h, s, 2 * d, device="cuda", dtype=dtype)[..., ::2]
    return torch.randn(b, h, s, d, device="cuda", dtype=dtype)


CASES = [  # (b, hq, hk, sq, sk, d, causal, layout, scale)
    (1, 1, 1, 1, 1, 64, False, "bhsd", None),
    (2, 3, 3, 7, 7, 64, True, "bhsd", None),
    (1, 4, 4, 100, 1000, 128, True, "bhsd", None),     # seqlen_q < seqlen_k, causal
    (1, 4, 4, 1000, 100, 128, True, "bshd", None),     # seqlen_q > seqlen_k, causal
    (2, 2, 2, 333, 4097, 256, False, "bhsd", 0.05),
    (1, 8, 2, 1000, 1000, 128, True, "bshd", None),    # GQA
    (2, 6, 1, 129, 257, 64, False, "bhsd", None),      # MQA
    (1, 4, 4, 513, 77, 256, True, "strided", None),    # copied by tessera.attention
    (2, 16, 16, 4096, 4096, 128, True, "bhsd", None),
    # More tiles than CTAs: each persistent CTA walks several (ragged ends inside the walk).
    (4, 16, 16, 2000, 2000, 64, False, "bhsd", None),
    (2, 16, 4, 1500, 3000, 128, False, "bshd", None),
    (2, 8, 8, 2048, 1111, 256, False, "bhsd", None),
    (6, 8, 8, 1111, 1111, 64, True, "bhsd", None),     # 9 query blocks: middle blocks last
]


def run_cases(torch, tessera):
    from torch.nn.functional import scaled_dot_product_attention as sdpa
    failures = runs = 0
    side = torch.cuda.Stream()
    for dtype in (torch.float16, torch.bfloat16):
        for b, hq, hk, sq, sk, d, causal, layout, scale in CASES:
            q = make(torch, (b, hq, sq, d), dtype, layout)
            k, v = (make(torch, (b, hk, sk, d), dtype, layout) for _ in range(2))
            gqa = hq != hk
            side.wait_stream(torch.cuda.current_stream())  # the inputs, made on the default one
            with torch.cuda.stream(side):
                out, lse = tessera.attention(q, k, v, is_causal=causal, scale=scale,
                                             enable_gqa=gqa, return_lse=True)
            side.synchronize()
            ref, ref_lse = reference(torch, q, k, v, causal, scale)
            kk, vv = (t.repeat_interleave(hq // hk, 1) for t in (k, v))
            theirs = sdpa(q, kk, vv, is_causal=causal, scale=scale)
            err = (out.float() - ref).abs().max().item()
            torch_err = (theirs.float() - ref).abs().max().item()
            lse_err = (lse - ref_lse).abs().max().item()
            floor = 1e-3 if dtype == torch.float16 else 8e-3
            ok = (out.shape == q.shape and out.dtype == dtype and lse.dtype == torch.float32
                  and lse.shape == (b, hq, sq) and not out.isnan().any().item()
                  and err <= 2 * torch_err + floor and lse_err <= 1e-3 * max(1.0, math.log(sk)))
            if layout == "bshd" and sq > 1 and hq > 1:
                ok = ok and out.stride(2) > out.stride(1)  # the output keeps query's order
            runs += 1
            tag = (f"{str(dtype)[6:]} b={b} hq={hq} hk={hk} sq={sq} sk={sk} d={d} "
                   f"causal={causal} {layout} scale={scale}")
            print(f"{'ok  ' if ok else 'FAIL'} {tag}: err {err:.3g} (torch {torch_err:.3g}), "
                  f"lse err {lse_err:.3g}")
            failures += not ok
    return runs, failures


def run_errors(torch, tessera):
    """The library's statuses as tessera.Error with their text; the plan's text."""
    failures = 0
    q = torch.randn(1, 2, 64, 64, device="cuda", dtype=torch.float16)
    bad = {"head_dim": (torch.randn(1, 2, 64, 96, device="cuda", dtype=torch.float16),) * 3,
           "scale": (q, q, q)}
    for word, ops in bad.items():
        try:
            tessera.attention(*ops, scale=-1.0 if word == "scale" else None)
            print(f"FAIL no error for a bad {word}")
            failures += 1
        except tessera.Error as e:
            ok = word in str(e)
            print(f"{'ok  ' if ok else 'FAIL'} bad {word}: {e}")
            failures += not ok
    empty = tessera.attention(q[:0], q[:0], q[:0])
    failures += empty.shape != (0, 2, 64, 64)
    g = torch.randn(1, 2, 64, 64, device="cuda", dtype=torch.float16, requires_grad=True)
    try:
        tessera.attention(g, g, g)
        print("FAIL no error for requires_grad")
        failures += 1
    except tessera.Error as e:
        print(f"ok   requires_grad: {e}")
    text = tessera.attention_plan(q, q, q, is_causal=True)
    kernel = "fa3_sm90" if torch.cuda.get_device_capability() == (9, 0) else "fa2_sm80"
    print(f"{'ok  ' if kernel in text else 'FAIL'} plan: {text}")
    failures += kernel not in text
    return 5, failures


def main():
    torch = torch_on_gpu("TESSERA_ATTENTION_LIBRARY")
    tessera, from_source = load_tessera()
    print(f"tessera from {'the source tree' if from_source else tessera.__file__}, torch "
          f"{torch.__version__}, {torch.cuda.get_device_name()}")
    torch.manual_seed(0)
    runs, failures = run_cases(torch, tessera)
    more_runs, more_failures = run_errors(torch, tessera)
    runs, failures = runs + more_runs, failures + more_failures
    print(f"torch_attention: {runs - failures} of {runs} checks passed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
