"""torch.ops.tessera without a GPU: registration and schemas, the fake (meta) implementations'
shapes, dtypes and strides, autograd's wiring, tracing under torch.compile(fullgraph=True), and the
argument checks (each names its argument, and none reaches the library). The kernels themselves
run in tests/device/torch_ops_test.py (scripts/gpu.sh torch)."""
import re

import pytest

import tessera
from tessera import _gemm

torch = pytest.importorskip(
    "torch", reason="SKIPPED: PyTorch is not installed; the torch operators are tested where it is "
                    "(tests/device/torch_ops_test.py, scripts/gpu.sh torch)")
import tessera.torch_ops  # noqa: E402,F401  (registers torch.ops.tessera.*)

DTYPES = (torch.float32, torch.float16, torch.bfloat16)


def meta(*shape, dtype=torch.float32):
    return torch.empty(*shape, device="meta", dtype=dtype)


@pytest.fixture
def no_library(monkeypatch):
    """Any attempt to load libtessera_gemm.so (the step before a launch) fails the test."""
    def refuse():
        raise AssertionError("the library was reached")
    monkeypatch.setattr(_gemm, "load_library", refuse)


def test_registered_with_schemas():
    schema = str(torch.ops.tessera.gemm.default._schema)
    assert schema.startswith("tessera::gemm(Tensor a, Tensor b, Tensor? c=None, float alpha=1.")
    assert "bool tf32=False) -> Tensor" in schema
    out_schema = str(torch.ops.tessera.gemm_out.default._schema)
    assert re.search(r"Tensor\(a\d*!\) out", out_schema) and out_schema.endswith("-> ()")


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("a_t,b_t", [(False, False), (True, False), (False, True), (True, True)])
def test_fake_gives_shape_dtype_strides(dtype, a_t, b_t):
    m, n, k = 7, 5, 3
    a = meta(k, m, dtype=dtype).t() if a_t else meta(m, k, dtype=dtype)
    b = meta(n, k, dtype=dtype).t() if b_t else meta(k, n, dtype=dtype)
    c = torch.ops.tessera.gemm(a, b)
    assert (c.shape, c.dtype, c.stride(), c.device.type) == ((m, n), dtype, (n, 1), "meta")
    c = tessera.gemm(a, b, alpha=2.0)
    assert (c.shape, c.stride()) == ((m, n), (n, 1))


def test_fake_tensor_mode_matches_the_result():
    from torch._subclasses.fake_tensor import FakeTensorMode
    with FakeTensorMode():
        a, b = torch.empty(6, 4, dtype=torch.float16), torch.empty(4, 9, dtype=torch.float16)
        c = torch.ops.tessera.gemm(a, b, torch.empty(6, 9, dtype=torch.float16), 1.0, 0.5)
        assert (c.shape, c.dtype, c.stride()) == ((6, 9), torch.float16, (9, 1))


def test_out_is_returned_in_place():
    out = meta(4, 6).t()  # column-major (6, 4)
    assert tessera.gemm(meta(6, 3), meta(3, 4), out=out, beta=1.0) is out


def test_autograd_through_two_gemms():
    a = meta(5, 3).requires_grad_()
    b = meta(4, 3).t().requires_grad_()  # a transposed leaf view's grad comes back (3, 4)
    c0 = meta(5, 4).requires_grad_()
    torch.ops.tessera.gemm(a, b, c0, 2.0, 0.5).sum().backward()
    assert a.grad.shape == (5, 3) and b.grad.shape == (3, 4) and c0.grad.shape == (5, 4)


def test_compile_fullgraph_traces_one_graph():
    graphs = []

    def backend(gm, example_inputs):
        graphs.append(gm)
        return gm.forward

    def model(x, w1, w2):
        return tessera.gemm(torch.relu(tessera.gemm(x, w1)), w2, tf32=True)

    fn = torch.compile(model, backend=backend, fullgraph=True)
    y = fn(meta(8, 16), meta(16, 32), meta(32, 4))
    assert (y.shape, y.stride()) == ((8, 4), (4, 1))
    assert len(graphs) == 1
    targets = [n.target for n in graphs[0].graph.nodes if n.op == "call_function"]
    assert sum(t in (torch.ops.tessera.gemm, torch.ops.tessera.gemm.default) for t in targets) == 2


def test_aot_autograd_traces_both_ops_and_the_backward():
    """AOTAutograd (functionalization, the fake implementations, the backward's two gemms) on meta
    tensors: gemm_out's in-place write becomes a functional node, the gradients come back."""
    def model(x, w, out):
        tessera.gemm(x, w, out=out, alpha=0.5, beta=1.0)
        return tessera.gemm(out, w.t()).sum()

    x, w = meta(8, 16), meta(16, 12)
    loss = torch.compile(model, backend="aot_eager", fullgraph=True)(x, w, meta(8, 12))
    assert loss.shape == ()
    x.requires_grad_()
    y = torch.compile(lambda x, w: tessera.gemm(x, w).sum(), backend="aot_eager",
                      fullgraph=True)(x, w)
    y.backward()
    assert x.grad.shape == (8, 16)


def test_out_refuses_autograd():
    """gemm_out writes in place and has no gradient: asked for one, it says so at the call."""
    with pytest.raises(tessera.Error, match="out= is not differentiable"):
        tessera.gemm(meta(8, 16).requires_grad_(), meta(16, 12), out=meta(8, 12))
    with torch.no_grad():
        tessera.gemm(meta(8, 16).requires_grad_(), meta(16, 12), out=meta(8, 12))


def errors():
    """(arguments of tessera.gemm, message): each bad argument, named."""
    f16 = torch.float16
    return [
        ((meta(3), meta(3, 4)), "a must be 2-D"),
        ((meta(3, 4), [[1.0]]), "b must be a torch.Tensor"),
        ((meta(3, 4), meta(4, 5, dtype=f16)), "b has dtype torch.float16 but a has torch.float32"),
        ((meta(3, 4, dtype=torch.float64), meta(4, 5, dtype=torch.float64)),
         "a has dtype torch.float64"),
        ((meta(3, 4, dtype=torch.int32), meta(4, 5, dtype=torch.int32)), "a has dtype torch.int32"),
        ((meta(3, 4), meta(5, 5)), r"shapes a \(3, 4\) @ b \(5, 5\) do not match"),
        ((meta(3, 4), meta(4, 5), meta(5, 3)), r"out has shape \(5, 3\), expected"),
        ((meta(3, 4), meta(4, 5), meta(3, 5, dtype=f16)), "out has dtype torch.float16"),
        ((meta(3, 4), torch.empty(4, 5)), "b is on cpu but a is on meta"),
        ((meta(3, 8)[:, ::2], meta(4, 5)), "a of shape .* has no unit stride"),
        ((meta(3, 4), meta(4, 5), meta(3, 10)[:, ::2]), "out of shape .* has no unit stride"),
        ((meta(3, 4, dtype=f16), meta(4, 5, dtype=f16), None, 1.0, 0.0, True),
         "tf32=True needs float32"),
        ((meta(3, 4), meta(4, 5), None, 1.0, 0.5), "beta != 0 needs out"),
    ]


@pytest.mark.parametrize("args,message", errors())
def test_bad_arguments_are_named(no_library, args, message):
    with pytest.raises(tessera.Error, match="gemm: " + message):
        tessera.gemm(*args)


def test_error_is_a_value_error():
    assert issubclass(tessera.Error, ValueError)


def test_cpu_tensors_refused_before_the_library(no_library):
    with pytest.raises(tessera.Error, match="must be CUDA tensors"):
        tessera.gemm(torch.ones(3, 4), torch.ones(4, 5))
    with pytest.raises(tessera.Error, match="must be CUDA tensors"):
        torch.ops.tessera.gemm_out(torch.ones(3, 4), torch.ones(4, 5), torch.ones(3, 5))


def test_the_ops_check_too(no_library):
    """Direct torch.ops calls (no wrapper) get the same named errors from the fake and real
    implementations."""
    with pytest.raises(tessera.Error, match="gemm: c has shape"):
        torch.ops.tessera.gemm(meta(3, 4), meta(4, 5), meta(3, 6))
    with pytest.raises(tessera.Error, match="gemm: a must be 2-D"):
        torch.ops.tessera.gemm(torch.ones(2, 3, 4), torch.ones(4, 5))

