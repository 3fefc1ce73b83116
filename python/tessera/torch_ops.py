"""tessera's GEMM as PyTorch operators: `torch.ops.tessera.gemm` and `torch.ops.tessera.gemm_out`.

Importing this module (tessera.gemm does on its first call) registers, with torch.library:

    tessera::gemm(Tensor a, Tensor b, Tensor? c=None, float alpha=1., float beta=0.,
                  bool tf32=False) -> Tensor          alpha * a @ b + beta * c, a new row-major one
    tessera::gemm_out(Tensor a, Tensor b, Tensor(a!) out, float alpha=1., float beta=0.,
                      bool tf32=False) -> ()           out = alpha * a @ b + beta * out, in place

each with a fake (meta) implementation giving the result's shape, dtype and strides, so that
torch.compile traces through them without a graph break, and the argument checks running there too,
before any launch. tessera::gemm is differentiable through two gemm calls:
    dA = alpha * dC @ B^T,  dB = alpha * A^T @ dC,  dc = beta * dC.
The kernels run on the current torch stream and allocate nothing but the result (the library's
scratch comes from its stream-ordered pool), so a CUDA graph captures them.
"""
from typing import Optional  # NOTE: no postponed annotations: custom_op reads these types

import torch

from . import _gemm
from ._cuda_stream import current_stream
from ._tessera import Error

if not hasattr(torch.library, "custom_op"):
    raise Error(f"gemm: the torch operators need PyTorch 2.4 or later (torch.library.custom_op); "
                f"this is torch {torch.__version__}")

# The C ABI's dtypes (include/tessera/gemm.h): torch dtype -> tessera_dtype; TF32 is fp32 storage.
_ABI = {torch.float32: _gemm.DTYPES["float32"], torch.float16: _gemm.DTYPES["float16"],
        torch.bfloat16: _gemm.DTYPES["bfloat16"]}


def _check(a, b, c, c_name: str, tf32: bool):
    """The checks of both ops, on real and fake tensors alike: 2-D, one dtype the ABI has, one
    device, matching shapes and unit-stride storage. Returns (m, n, k)."""
    for name, t in (("a", a), ("b", b), (c_name, c)):
        if t is None:
            continue
        if not isinstance(t, torch.Tensor):
            raise Error(f"gemm: {name} must be a torch.Tensor (got {type(t).__name__})")
        if t.dim() != 2:
            raise Error(f"gemm: {name} must be 2-D (got shape {tuple(t.shape)})")
        if t.dtype not in _ABI:
            raise Error(f"gemm: {name} has dtype {t.dtype}; the kernels take float32 (or tf32), "
                        f"float16 and bfloat16")
        if t.dtype != a.dtype:
            raise Error(f"gemm: {name} has dtype {t.dtype} but a has {a.dtype} (one dtype for all)")
        if t.device != a.device:
            raise Error(f"gemm: {name} is on {t.device} but a is on {a.device}")
    if tf32 and a.dtype != torch.float32:
        raise Error(f"gemm: tf32=True needs float32 tensors (a is {a.dtype})")
    m, k = a.shape
    n = b.shape[1]
    if b.shape[0] != k:
        raise Error(f"gemm: shapes a {tuple(a.shape)} @ b {tuple(b.shape)} do not match "
                    f"(a is (M,K), b is (K,N))")
    if c is not None and tuple(c.shape) != (m, n):
        raise Error(f"gemm: {c_name} has shape {tuple(c.shape)}, expected (M,N) = ({m}, {n})")
    if m and n and k:  # an empty product launches nothing: its strides do not matter
        _gemm.operand(tuple(a.shape), a.stride(), "a")
        _gemm.operand(tuple(b.shape), b.stride(), "b")
        if c_name == "out":
            _gemm.operand(tuple(c.shape), c.stride(), "out")
    return m, n, k


def _launch(a, b, out, alpha: float, beta: float, tf32: bool):
    """out = alpha * a @ b + beta * out through the C ABI (checked arguments, CUDA tensors)."""
    if not a.is_cuda:
        raise Error(f"gemm: a, b and out must be CUDA tensors (got {a.device}); tessera's kernels "
                    f"run on NVIDIA GPUs")
    m, n = out.shape
    k = a.shape[1]
    if m == 0 or n == 0:
        return
    if k == 0 or alpha == 0:  # BLAS's quick return: C = beta * C
        if beta != 0:
            out.mul_(beta)
        else:
            out.zero_()
        return
    args = _gemm.blas_args(a.shape, a.stride(), b.shape, b.stride(), out.shape, out.stride())
    dtype = _gemm.DTYPES["tf32"] if tf32 else _ABI[a.dtype]
    with torch.cuda.device(a.device):
        stream = current_stream(torch, a.device)
        _gemm.call(_gemm.load_library(), dtype, args, alpha, a.data_ptr(), b.data_ptr(), beta,
                   out.data_ptr(), stream)


@torch.library.custom_op("tessera::gemm", mutates_args=())
def gemm_op(a: torch.Tensor, b: torch.Tensor, c: Optional[torch.Tensor] = None,
            alpha: float = 1.0, beta: float = 0.0, tf32: bool = False) -> torch.Tensor:
    """alpha * a @ b + beta * c as a new row-major (M, N) tensor (c None: beta is ignored)."""
    m, n, _ = _check(a, b, c, "c", tf32)
    out = torch.empty((m, n), dtype=a.dtype, device=a.device)
    if c is not None and beta != 0:
        out.copy_(c)
    else:
        beta = 0.0
    _launch(a, b, out, alpha, beta, tf32)
    return out


@gemm_op.register_fake
def _gemm_fake(a, b, c=None, alpha=1.0, beta=0.0, tf32=False):
    m, n, _ = _check(a, b, c, "c", tf32)
    return a.new_empty((m, n))  # row-major (N, 1) strides, as the real one


@torch.library.custom_op("tessera::gemm_out", mutates_args=("out",))
def gemm_out_op(a: torch.Tensor, b: torch.Tensor, out: torch.Tensor, alpha: float = 1.0,
                beta: float = 0.0, tf32: bool = False) -> None:
    """out = alpha * a @ b + beta * out, in place (out row- or column-major, any leading
    dimension)."""
    _check(a, b, out, "out", tf32)
    _launch(a, b, out, alpha, beta, tf32)


@gemm_out_op.register_fake
def _gemm_out_fake(a, b, out, alpha=1.0, beta=0.0, tf32=False):
    _check(a, b, out, "out", tf32)


def _unit_stride(t):
    """t itself when BLAS can read its storage, else a contiguous copy (autograd's gradients may
    be expanded views with zero strides)."""
    try:
        _gemm.operand(tuple(t.shape), t.stride(), "grad")
        return t
    except Error:
        return t.contiguous()


def _setup_context(ctx, inputs, output):
    a, b, c, alpha, beta, tf32 = inputs
    ctx.save_for_backward(a, b)
    ctx.alpha, ctx.beta, ctx.tf32, ctx.has_c = alpha, beta, tf32, c is not None


def _backward(ctx, grad):
    a, b = ctx.saved_tensors
    grad = _unit_stride(grad)
    # NOTE: traced by AOTAutograd, needs_input_grad may stop at the last tensor given (no c).
    need_a, need_b, need_c = (tuple(ctx.needs_input_grad) + (False,) * 3)[:3]
    gemm = torch.ops.tessera.gemm
    grad_a = gemm(grad, b.t(), None, ctx.alpha, 0.0, ctx.tf32) if need_a else None
    grad_b = gemm(a.t(), grad, None, ctx.alpha, 0.0, ctx.tf32) if need_b else None
    grad_c = grad * ctx.beta if ctx.has_c and need_c else None
    return grad_a, grad_b, grad_c, None, None, None


gemm_op.register_autograd(_backward, setup_context=_setup_context)


def gemm(a, b, out=None, alpha: float = 1.0, beta: float = 0.0, tf32: bool = False):
    """alpha * a @ b + beta * out on CUDA tensors (float32, float16, bfloat16; tf32=True computes
    float32 in TF32), on the current stream. out None: a new row-major tensor (beta must be 0),
    differentiable; out given: written in place (row- or column-major, any leading dimension) and
    returned. Works under torch.compile(fullgraph=True) and CUDA graph capture."""
    for name, t in (("a", a), ("b", b), ("out", out)):
        if not (t is None and name == "out") and not isinstance(t, torch.Tensor):
            raise Error(f"gemm: {name} must be a torch.Tensor (got {type(t).__name__})")
    if out is None:
        if beta != 0:
            raise Error("gemm: beta != 0 needs out (the C that is scaled)")
        return torch.ops.tessera.gemm(a, b, None, float(alpha), 0.0, bool(tf32))
    if torch.is_grad_enabled() and (a.requires_grad or b.requires_grad or out.requires_grad):
        raise Error("gemm: out= is not differentiable (it writes in place) and a, b or out "
                    "requires grad: call tessera.gemm(a, b) without out")
    torch.ops.tessera.gemm_out(a, b, out, float(alpha), float(beta), bool(tf32))
    return out
