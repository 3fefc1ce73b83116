#!/usr/bin/env python3
"""torch.ops.tessera on the GPU (run by `scripts/gpu.sh torch`): the installed package's operators
against PyTorch.

  1. torch.library.opcheck on both operators (schema, fake implementation, autograd registration,
     AOT dispatch), f32 and f16;
  2. eager results against torch.mm in float64: f32, tf32, f16, bf16; row-major, transposed and
     sliced operands, an `out` with beta, odd sizes;
  3. a two-layer model calling tessera.gemm: eager vs torch.compile(fullgraph=True) (one graph, no
     break) vs CUDA-graph capture and replay on new inputs vs torch.compile(mode="reduce-overhead");
  4. autograd (a, b, c with alpha and beta) against torch.mm's gradients;
  5. errors on CUDA tensors, raised before any launch;
  6. per-call host time of tessera.gemm and of the operator against torch.mm on a small problem
     (launch-bound: the loop's wall time over many calls).
Writes $OUT/torch_ops.md (GPU, date, commit, command, numbers).

Usage: torch_ops_test.py [PATH/TO/libtessera_gemm.so]   exit 0 all passed, 1 a failure, 77 no
torch or no GPU. The path is needed only where the package was installed without the library.
"""
import datetime
import os
import pathlib
import subprocess
import sys
import time

import tessera_package

ROOT = pathlib.Path(__file__).resolve().parents[2]
failures, checks, notes = [], 0, []


def check(ok: bool, what: str):
    global checks
    checks += 1
    if not ok:
        failures.append(what)
        print("FAIL " + what)


def rel_err(got, want, scale=None):
    """max |got - want| / max(scale), in float64; scale: |alpha| |A| |B| + |beta| |C| where
    cancellation can make the result small (default |want|)."""
    want = want.double()
    scale = want.abs() if scale is None else scale
    return ((got.double() - want).abs().max() / scale.max().clamp_min(1e-30)).item()


BOUND = {"float32": 1e-5, "tf32": 5e-3, "float16": 2e-3, "bfloat16": 1.5e-2}


def opchecks(torch, tessera):
    for dtype in (torch.float32, torch.float16):
        a = torch.randn(33, 17, device="cuda", dtype=dtype, requires_grad=True)
        b = torch.randn(17, 9, device="cuda", dtype=dtype, requires_grad=True)
        c = torch.randn(33, 9, device="cuda", dtype=dtype, requires_grad=True)
        for op, args in ((torch.ops.tessera.gemm.default, (a, b, None, 1.0, 0.0, False)),
                         (torch.ops.tessera.gemm.default, (a, b, c, 0.5, 2.0, False)),
                         (torch.ops.tessera.gemm_out.default,
                          (a.detach(), b.detach(), c.detach().clone(), 1.0, 1.0, False))):
            try:
                torch.library.opcheck(op, args)
                check(True, "")
            except Exception as e:  # noqa: BLE001  (opcheck reports by exception)
                check(False, f"opcheck {op} {dtype}: {type(e).__name__}: {e}")


def eager(torch, tessera):
    n_runs = 0
    for name in ("float32", "tf32", "float16", "bfloat16"):
        dtype = torch.float32 if name == "tf32" else getattr(torch, name)
        for m, n, k in ((1, 1, 1), (5, 7, 40), (129, 257, 65), (1000, 333, 777), (2048, 1024, 512)):
            def rand(r, c):
                return (torch.rand(r, c, device="cuda") * 2 - 1).to(dtype)
            cases = {"row-major": (rand(m, k), rand(k, n)),
                     "transposed": (rand(k, m).t(), rand(n, k).t()),
                     "sliced": (rand(m + 3, k + 5)[1:m + 1, 2:k + 2],
                                rand(k + 4, n + 6)[3:k + 3, :n])}
            for case, (a, b) in cases.items():
                tf32 = name == "tf32"
                want = a.double() @ b.double()
                scale = a.double().abs() @ b.double().abs()
                got = tessera.gemm(a, b, tf32=tf32)
                err = rel_err(got, want, scale)
                check(got.shape == (m, n) and got.dtype == dtype and got.stride() == (n, 1)
                      and err <= BOUND[name], f"eager {name} {m}x{n}x{k} {case}: err {err:.3g}")
                out = rand(n, m).t()  # a column-major out with beta
                want = 1.5 * want + 0.5 * out.double()
                scale = 1.5 * scale + 0.5 * out.double().abs()
                got = tessera.gemm(a, b, out=out, alpha=1.5, beta=0.5, tf32=tf32)
                err = rel_err(got, want, scale)
                check(got is out and err <= BOUND[name],
                      f"out {name} {m}x{n}x{k} {case}: err {err:.3g}")
                n_runs += 2
    notes.append(f"eager: {n_runs} calls against torch.mm in float64")


def model(tessera, torch):
    def forward(x, w1, w2):
        return tessera.gemm(torch.relu(tessera.gemm(x, w1)), w2)
    return forward


equalities = []


def same(torch, what, got, want):
    """got equals eager's want: within the dtype's bound (the kernels may sum split K in another
    order), and whether bitwise, for the record."""
    bound = BOUND[str(want.dtype).replace("torch.", "")]
    err = rel_err(got, want)
    check(got.shape == want.shape and err <= bound, f"{what}: err {err:.3g} against eager")
    equalities.append(f"{what} {'bitwise equal' if torch.equal(got, want) else f'err {err:.2g}'}")


def compile_and_graphs(torch, tessera):
    forward = model(tessera, torch)
    for dtype in (torch.float16, torch.float32):
        x, w1, w2 = (torch.randn(s, device="cuda", dtype=dtype) / 8 for s in
                     ((256, 512), (512, 1024), (1024, 128)))
        ref = forward(x, w1, w2)
        explained = torch._dynamo.explain(forward)(x, w1, w2)
        check(explained.graph_count == 1 and explained.graph_break_count == 0,
              f"compile {dtype}: {explained.graph_count} graphs, "
              f"{explained.graph_break_count} breaks {explained.break_reasons}")
        torch._dynamo.reset()
        compiled = torch.compile(forward, fullgraph=True)
        same(torch, f"compiled {dtype}", compiled(x, w1, w2), ref)

        # CUDA graph: capture on static inputs, replay on new values copied into them.
        static = [t.clone() for t in (x, w1, w2)]
        side = torch.cuda.Stream()
        side.wait_stream(torch.cuda.current_stream())
        with torch.cuda.stream(side):  # warm-up outside capture, as torch's docs do
            forward(*static)
        torch.cuda.current_stream().wait_stream(side)
        graph = torch.cuda.CUDAGraph()
        with torch.cuda.graph(graph):
            static_y = forward(*static)
        for trial in range(3):
            new = [torch.randn_like(t) / 8 for t in static]
            for s, t in zip(static, new):
                s.copy_(t)
            graph.replay()
            same(torch, f"graph replay {dtype} #{trial}", static_y, forward(*new))
        # torch.compile's CUDA graphs.
        torch._dynamo.reset()
        overhead = torch.compile(forward, mode="reduce-overhead", fullgraph=True)
        for _ in range(3):
            got = overhead(x, w1, w2)
        same(torch, f"reduce-overhead {dtype}", got, ref)
    notes.append("compile: one graph, no break; compiled, graph-replayed and reduce-overhead "
                 "results against eager (f16, f32): " + "; ".join(equalities))


def autograd(torch, tessera):
    for dtype, bound in ((torch.float32, 1e-5), (torch.bfloat16, 1.5e-2)):
        a = torch.randn(130, 70, device="cuda", dtype=dtype, requires_grad=True)
        b0 = torch.randn(90, 70, device="cuda", dtype=dtype)
        b = b0.t().detach().requires_grad_()  # a column-major leaf
        c = torch.randn(130, 90, device="cuda", dtype=dtype, requires_grad=True)
        g = torch.randn(130, 90, device="cuda", dtype=dtype)
        y = torch.ops.tessera.gemm(a, b, c, 1.5, 0.5)
        y.backward(g)
        ref = [t.detach().double().requires_grad_() for t in (a, b, c)]
        (1.5 * torch.mm(ref[0], ref[1]) + 0.5 * ref[2]).backward(g.double())
        for name, t, r in zip("abc", (a, b, c), ref):
            err = rel_err(t.grad, r.grad)
            check(t.grad.shape == t.shape and err <= bound, f"grad {name} {dtype}: err {err:.3g}")
        # Through the wrapper and a loss: expanded (zero-stride) gradients are made contiguous.
        a.grad = None
        tessera.gemm(a, b).sum().backward()
        err = rel_err(a.grad, torch.ones(130, 90, device="cuda").double() @ b.double().t())
        check(err <= bound, f"grad of sum {dtype}: err {err:.3g}")
    notes.append("autograd: grads of a, b (column-major leaf), c against torch.mm in float64")


def errors(torch, tessera):
    lib_calls = []
    from tessera import _gemm
    real = _gemm.load_library
    _gemm.load_library = lambda: lib_calls.append(1) or real()
    x = torch.ones(4, 5, device="cuda")
    bad = [((x, x), "do not match"), ((x, torch.ones(5, 3, device="cuda").half()), "dtype"),
           ((x, torch.ones(5, 3)), "is on cpu"), ((x[:, ::2], torch.ones(3, 3, device="cuda")),
                                                 "no unit stride")]
    for args, message in bad:
        try:
            tessera.gemm(*args)
            check(False, f"no error for {message}")
        except tessera.Error as e:
            check(message in str(e), f"error text {e!r} lacks {message!r}")
    check(not lib_calls, "the library was reached by a bad call")
    _gemm.load_library = real


def per_call_us(torch, fn, calls=3000):
    for _ in range(100):
        fn()
    torch.cuda.synchronize()
    t0 = time.perf_counter()
    for _ in range(calls):
        fn()
    torch.cuda.synchronize()
    return (time.perf_counter() - t0) / calls * 1e6


def overhead(torch, tessera):
    rows = []
    for dtype in (torch.float16, torch.float32):
        a, b = (torch.randn(64, 64, device="cuda", dtype=dtype) for _ in range(2))
        out = torch.empty(64, 64, device="cuda", dtype=dtype)
        cases = [("torch.mm(a, b, out=out)", lambda: torch.mm(a, b, out=out)),
                 ("torch.mm(a, b)", lambda: torch.mm(a, b)),
                 ("tessera.gemm(a, b, out=out)", lambda: tessera.gemm(a, b, out=out)),
                 ("tessera.gemm(a, b)", lambda: tessera.gemm(a, b)),
                 ("torch.ops.tessera.gemm_out(a, b, out)",
                  lambda: torch.ops.tessera.gemm_out(a, b, out)),
                 ("torch.ops.tessera.gemm(a, b)", lambda: torch.ops.tessera.gemm(a, b))]
        times = {name: [] for name, _ in cases}
        for _ in range(5):  # alternate the cases, keep each one's median
            for name, fn in cases:
                times[name].append(per_call_us(torch, fn))
        for name, _ in cases:
            rows.append((str(dtype).replace("torch.", ""), name, sorted(times[name])[2]))
    return rows


def load_tessera():
    """The installed package, or python/tessera of the source tree (tessera_package.py), with
    torch.ops.tessera registered."""
    tessera, from_source = tessera_package.load_tessera()
    if from_source:
        notes.append("NOTE: source tree, not an installed package")
    import tessera.torch_ops  # noqa: F401  (registers torch.ops.tessera.*)
    return tessera


def main():
    torch = tessera_package.torch_on_gpu("TESSERA_GEMM_LIBRARY")
    tessera = load_tessera()
    from tessera import _gemm
    notes.append(f"package: {pathlib.Path(tessera.__file__).parent}; library: "
                 f"{_gemm.load_library()._name}")
    print(notes[-1] + f"; torch {torch.__version__}")
    torch.manual_seed(0)
    for step in (opchecks, eager, compile_and_graphs, autograd, errors):
        print(f"-- {step.__name__}")
        try:
            step(torch, tessera)
        except Exception as e:  # noqa: BLE001  (an exception is a failure of that step)
            import traceback
            traceback.print_exc()
            check(False, f"{step.__name__}: {type(e).__name__}: {e}")
    rows = overhead(torch, tessera)
    print(f"torch_ops: {checks} checks, {len(failures)} failures")
    write_results(torch, rows)
    return 1 if failures else 0


def write_results(torch, rows):
    out = pathlib.Path(os.environ.get("OUT", "/tmp/tessera-gpu"))
    out.mkdir(parents=True, exist_ok=True)
    commit = os.environ.get("TESSERA_COMMIT") or subprocess.run(
        ["git", "-C", str(ROOT), "rev-parse", "--short", "HEAD"], capture_output=True,
        text=True).stdout.strip() or "unknown"
    lines = [
        "# tessera's GEMM as PyTorch operators (torch.ops.tessera)", "",
        f"- GPU: {torch.cuda.get_device_name()}",
        f"- date: {datetime.datetime.now(datetime.timezone.utc):%Y-%m-%dT%H:%MZ}",
        f"- commit: {commit}",
        f"- command: `OUT=... scripts/gpu.sh torch` (`{' '.join(sys.argv)}`)",
        f"- torch {torch.__version__}, Python {sys.version.split()[0]}",
        f"- checks: {checks}, failures: {len(failures)}", ""]
    lines += [f"- {n}" for n in notes]
    lines += ["", "Per-call host time, 64 x 64 x 64 (launch-bound: wall time of 3,000 calls in a "
              "loop then one synchronize, median of 5 rounds, cases alternating):", "",
              "| dtype | call | us per call |", "| --- | --- | ---: |"]
    lines += [f"| {d} | `{name}` | {us:.1f} |" for d, name, us in rows]
    if failures:
        lines += ["", "Failures:", ""] + [f"- {f}" for f in failures]
    (out / "torch_ops.md").write_text("\n".join(lines) + "\n")
    print("\n".join(lines))


if __name__ == "__main__":
    sys.exit(main())
