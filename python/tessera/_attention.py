"""tessera.attention: the attention forward of libtessera_attention.so (include/tessera/attention.h)
on CUDA torch tensors, with torch.nn.functional.scaled_dot_product_attention's layout and rules.

    query (batch, heads_q, seqlen_q, head_dim), key and value (batch, heads_kv, seqlen_k, head_dim)
    out = softmax(scale * query @ key^T + mask) @ value, shaped like query

mask is -inf where key j > query i when is_causal (top-left aligned whatever the two lengths, as
torch's tril(ones(seqlen_q, seqlen_k))). heads_kv < heads_q (GQA, MQA) only with enable_gqa=True,
each key/value head serving heads_q / heads_kv consecutive query heads, as torch does.

The C ABI takes run-time strides with a unit head_dim stride, strides in multiples of 8 elements
and 16-byte aligned addresses: an operand that is not so (a head_dim stride other than 1, a view
at an odd offset) is first copied into a new contiguous tensor. The argument checks here (types,
ranks, dtypes, devices, shapes, heads) run before the library is loaded; the library checks the
rest (head_dim 64/128/256, scale, sizes) before any CUDA call, and each of its statuses becomes a
tessera.Error carrying its message. PyTorch is imported only when attention runs.
"""
from __future__ import annotations

import contextlib
import ctypes
import math

from . import _library
from ._cuda_stream import current_stream
from ._tessera import Error

# tessera_attention_dtype of include/tessera/attention.h, by torch dtype name
DTYPES = {"torch.float16": 2, "torch.bfloat16": 3}
DEVICE = "cuda"  # the device type the kernels run on (a CPU test's stand-in library sets "cpu")
_lib = None
_i64, _vp = ctypes.c_int64, ctypes.c_void_p


class Params(ctypes.Structure):
    """tessera_attention_params, field for field."""
    _fields_ = [("batch", _i64), ("heads_q", _i64), ("heads_kv", _i64), ("seqlen_q", _i64),
                ("seqlen_k", _i64), ("head_dim", _i64),
                ("q", _vp), ("q_strides", _i64 * 3), ("k", _vp), ("k_strides", _i64 * 3),
                ("v", _vp), ("v_strides", _i64 * 3), ("o", _vp), ("o_strides", _i64 * 3),
                ("lse", _vp), ("scale", ctypes.c_float), ("causal", ctypes.c_int)]


def declare(lib):
    """The C ABI's signatures (include/tessera/attention.h) on a loaded library."""
    params = ctypes.POINTER(Params)
    lib.tessera_attention.argtypes = [ctypes.c_int, params, _vp]
    lib.tessera_attention.restype = ctypes.c_int
    lib.tessera_attention_plan.argtypes = [ctypes.c_int, params, ctypes.c_char_p, ctypes.c_size_t]
    lib.tessera_attention_plan.restype = ctypes.c_int
    lib.tessera_attention_status_string.argtypes = [ctypes.c_int]
    lib.tessera_attention_status_string.restype = ctypes.c_char_p
    return lib


def load_library():
    """libtessera_attention.so: $TESSERA_ATTENTION_LIBRARY, beside the package, build/kernels/ of a
    checkout, or the system's library path (_library.py)."""
    global _lib
    if _lib is None:
        _lib = _library.load("tessera_attention", "TESSERA_ATTENTION_LIBRARY", declare,
                             "attention")
    return _lib


def _device(t) -> str:
    d = t.device
    return d.type if d.index is None else f"{d.type}:{d.index}"


def check(query, key, value, enable_gqa: bool):
    """The checks before the library (any object with shape, stride(), dtype and device, so that
    they run without a GPU): (batch, heads_q, heads_kv, seqlen_q, seqlen_k, head_dim)."""
    named = (("query", query), ("key", key), ("value", value))
    for name, t in named:
        if not all(hasattr(t, a) for a in ("shape", "stride", "dtype", "device")):
            raise Error(f"attention: {name} must be a torch.Tensor (got {type(t).__name__})")
        if len(t.shape) != 4:
            raise Error(f"attention: {name} must be 4-D (batch, heads, seq, head_dim); got shape "
                        f"{tuple(t.shape)}")
        if str(t.dtype) not in DTYPES:
            raise Error(f"attention: {name} has dtype {t.dtype}; the kernels take torch.float16 "
                        f"and torch.bfloat16")
        if str(t.dtype) != str(query.dtype):
            raise Error(f"attention: {name} has dtype {t.dtype} but query has {query.dtype} "
                        f"(one dtype for all)")
        if t.device.type != DEVICE:
            raise Error(f"attention: {name} is on {_device(t)}; tessera's kernels run on CUDA "
                        f"tensors")
        if _device(t) != _device(query):
            raise Error(f"attention: {name} is on {_device(t)} but query is on {_device(query)}")
    (b, hq, sq, d), (bk, hk, sk, dk), (bv, hv, sv, dv) = (tuple(t.shape) for _, t in named)
    shapes = f"query {tuple(query.shape)}, key {tuple(key.shape)}, value {tuple(value.shape)}"
    if not b == bk == bv:
        raise Error(f"attention: batch sizes differ ({shapes}); no broadcasting")
    if not d == dk == dv:
        raise Error(f"attention: head_dim differs ({shapes}); query, key and value share it")
    if (hk, sk) != (hv, sv):
        raise Error(f"attention: key and value must have the same heads and seq ({shapes})")
    if hk != hq and not enable_gqa:
        raise Error(f"attention: query has {hq} heads but key and value {hk} ({shapes}): pass "
                    f"enable_gqa=True for grouped-query attention")
    if hk != hq and (hk == 0 or hq % hk):
        raise Error(f"attention: key/value heads ({hk}) must divide query heads ({hq}) for "
                    f"grouped-query attention ({shapes})")
    return b, hq, hk, sq, sk, d


def abi_strides(t):
    """The (batch, head, seq) element strides the C ABI takes for `t`, or None when it cannot take
    them (head_dim stride not 1, a stride not a multiple of 8, address not 16-byte aligned). A mode
    of extent 1 is never stepped: its stride is passed as 0."""
    shape, stride = tuple(t.shape), tuple(t.stride())
    if shape[3] > 1 and stride[3] != 1:
        return None
    strides = tuple(s if n > 1 else 0 for n, s in zip(shape[:3], stride[:3]))
    if any(s % 8 or s < 0 for s in strides) or t.data_ptr() % 16:
        return None
    return strides


def params(dims, q, k, v, o, lse_ptr: int, scale: float, causal: bool) -> Params:
    """tessera_attention_params of `dims` (check's) and the (address, strides) of q, k, v, o."""
    p = Params(*dims)
    for name, (ptr, strides) in zip("qkvo", (q, k, v, o)):
        setattr(p, name, ptr or None)
        setattr(p, name + "_strides", (_i64 * 3)(*strides))
    p.lse, p.scale, p.causal = lse_ptr or None, scale, int(bool(causal))
    return p


def call(lib, dtype: int, p: Params, stream: int = 0):
    """tessera_attention(dtype, p, stream); a status other than success raises its message."""
    status = lib.tessera_attention(dtype, ctypes.byref(p), stream or None)
    if status != 0:
        raise _status_error(lib, status)


def plan(lib, dtype: int, p: Params) -> str:
    """tessera_attention_plan's text; a status other than success raises its message."""
    text = ctypes.create_string_buffer(1024)
    status = lib.tessera_attention_plan(dtype, ctypes.byref(p), text, len(text))
    if status != 0:
        raise _status_error(lib, status)
    return text.value.decode()


def _status_error(lib, status: int) -> Error:
    """The Error of a status, with the library's message ("tessera_attention: ..." becomes
    "attention: ...")."""
    text = lib.tessera_attention_status_string(status).decode()
    return Error("attention: " + text.removeprefix("tessera_attention: "))


def _torch():
    try:
        import torch
    except ImportError as e:
        if e.name != "torch":
            raise
        raise Error("attention: PyTorch is not installed (pip install torch); tessera.attention "
                    "runs on CUDA torch tensors") from None
    return torch


@contextlib.contextmanager
def _on_device(torch, device):
    """The tensors' device made current; yields its current torch stream (cudaStream_t)."""
    if device.type != "cuda":  # a CPU test's stand-in library: no stream
        yield 0
        return
    with torch.cuda.device(device):
        yield current_stream(torch, device)


def _prepare(query, key, value, is_causal, scale, enable_gqa, return_lse, allocate: bool):
    """Checks, copies of operands the ABI cannot take, the output (and LSE) and the Params.
    allocate=False (the plan): no copy and no output; the Params describe what a run would use."""
    dims = check(query, key, value, enable_gqa)
    torch = _torch()
    b, hq, _, sq, _, d = dims
    if torch.is_grad_enabled() and any(t.requires_grad for t in (query, key, value)):
        raise Error("attention: the kernel is a forward without a backward; run it under "
                    "torch.no_grad() or pass detached tensors")
    notes, ops = [], []
    for name, t in (("query", query), ("key", key), ("value", value)):
        strides = abi_strides(t)
        if strides is None:
            notes.append(f"{name} is copied to contiguous storage")
            if allocate:
                t = torch.empty(t.shape, dtype=t.dtype, device=t.device).copy_(t)
                strides = abi_strides(t)
            else:  # the copy's strides; any 16-byte aligned address stands for it
                strides = tuple(s if n > 1 else 0 for n, s in
                                zip(t.shape[:3], (t.shape[1] * t.shape[2] * d, t.shape[2] * d, d)))
        ops.append((t, strides))
    # The output in query's order of modes: (batch, seq, heads, head_dim) storage for a query
    # that is a transposed (B, S, H, D) tensor (as torch's flash backend), else contiguous.
    bshd = query.stride(2) > query.stride(1) and sq > 1 and hq > 1
    if allocate:
        opts = dict(dtype=query.dtype, device=query.device)
        out = (torch.empty((b, sq, hq, d), **opts).transpose(1, 2) if bshd
               else torch.empty((b, hq, sq, d), **opts))
        lse = torch.empty((b, hq, sq), dtype=torch.float32, device=query.device) \
            if return_lse else None
        o = (out.data_ptr(), abi_strides(out))
    else:
        out = lse = None
        o = (16, (sq * hq * d, d, hq * d) if bshd else (hq * sq * d, sq * d, d))
    scale = 1.0 / math.sqrt(d) if scale is None else float(scale)
    ptrs = [(t.data_ptr() if allocate or abi_strides(t) else 16, s) for t, s in ops]
    p = params(dims, *ptrs, o, lse.data_ptr() if lse is not None else (16 if return_lse else 0),
               scale, is_causal)
    return p, DTYPES[str(query.dtype)], out, lse, notes, [t for t, _ in ops]


def attention(query, key, value, is_causal: bool = False, scale=None, enable_gqa: bool = False,
              return_lse: bool = False):
    """scaled_dot_product_attention(query, key, value, is_causal=..., scale=..., enable_gqa=...)
    by tessera's kernels, on the current torch stream: a new tensor shaped like query, and with
    return_lse=True also the float32 row log-sum-exp (batch, heads_q, seqlen_q) (natural log)."""
    # operands: the tensors p points at (copies among them) are alive until the launch is queued
    p, dtype, out, lse, _, operands = _prepare(query, key, value, is_causal, scale, enable_gqa,
                                               return_lse, allocate=True)
    lib = load_library()
    with _on_device(_torch(), query.device) as stream:
        call(lib, dtype, p, stream)
    del operands  # freed after the launch, in its stream's order (torch's caching allocator)
    return (out, lse) if return_lse else out


def attention_plan(query, key, value, is_causal: bool = False, scale=None,
                   enable_gqa: bool = False, return_lse: bool = False) -> str:
    """What attention(...) would run on these tensors, without running it: the library's
    description (kernel, instruction, tiles, warps, stages, shared memory, grid, mask, GQA group),
    after the copies it would make, if any."""
    p, dtype, _, _, notes, _ = _prepare(query, key, value, is_causal, scale, enable_gqa,
                                        return_lse, allocate=False)
    lib = load_library()
    with _on_device(_torch(), query.device):
        text = plan(lib, dtype, p)
    return "; ".join(notes + [text])
