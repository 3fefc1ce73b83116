#!/usr/bin/env python3
"""tessera.gemm on CUDA torch tensors against torch.matmul in float64 (GPU; run by scripts/gpu.sh).

Row-major, transposed (column-major) and sliced operands, an `out` with beta, on the current
torch stream (a side stream here), for f32, f16 and bf16. Uses the built package when it imports;
otherwise python/tessera of the source tree (tessera_package.py) with TESSERA_GEMM_LIBRARY
pointing at the built library.

Usage: torch_gemm.py PATH/TO/libtessera_gemm.so     exit 0 all passed, 77 no torch or no GPU
"""
import sys

from tessera_package import load_tessera, torch_on_gpu


def main():
    torch = torch_on_gpu("TESSERA_GEMM_LIBRARY")
    tessera, _ = load_tessera()
    gemm, Error = tessera.gemm, tessera.Error
    torch.manual_seed(0)
    bound = {torch.float32: 1e-5, torch.float16: 2e-3, torch.bfloat16: 1.5e-2}
    failures = runs = 0
    side = torch.cuda.Stream()
    for dtype in (torch.float32, torch.float16, torch.bfloat16):
        for m, n, k in ((5, 7, 40), (128, 256, 64), (1000, 333, 777), (2048, 1024, 512)):
            def rand(r, c):
                return (torch.rand(r, c, device="cuda", dtype=torch.float32) * 2 - 1).to(dtype)
            cases = {
                "row-major": (rand(m, k), rand(k, n)),
                "transposed": (rand(k, m).t(), rand(n, k).t()),
                "sliced": (rand(m + 3, k + 5)[1:m + 1, 2:k + 2], rand(k + 4, n + 6)[3:k + 3, :n]),
            }
            for name, (a, b) in cases.items():
                for beta in (0.0, 0.5):
                    out = rand(m, n) if beta else None
                    ref = a.double() @ b.double()
                    if beta:
                        ref = ref * 1.25 + beta * out.double()
                    with torch.cuda.stream(side):
                        c = gemm(a, b, out=out.clone() if beta else None,
                                 alpha=1.25 if beta else 1.0, beta=beta)
                    side.synchronize()
                    scale = (a.double().abs() @ b.double().abs()).max().item() * 1.25 + 1e-30
                    err = (c.double() - ref).abs().max().item() / scale
                    runs += 1
                    ok = c.shape == (m, n) and c.dtype == dtype and err <= bound[dtype]
                    if not ok:
                        failures += 1
                        print(f"FAIL {dtype} {m}x{n}x{k} {name} beta={beta}: err {err:.3g}, shape "
                              f"{tuple(c.shape)} {c.dtype}")
    # Errors: a CPU tensor, mismatched shapes.
    for bad in ((torch.ones(4, 4), torch.ones(4, 4)),
                (torch.ones(4, 5, device="cuda"), torch.ones(4, 5, device="cuda"))):
        runs += 1
        try:
            gemm(*bad)
            failures += 1
            print(f"FAIL: no error for {[tuple(t.shape) for t in bad]} on {bad[0].device}")
        except Error as e:
            print(f"  error as expected: {e}")
    print(f"torch_gemm: {runs} checks, {failures} failures")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
