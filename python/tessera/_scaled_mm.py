"""tessera.scaled_mm: the FP8 GEMM of libtessera_gemm.so (tessera_scaled_gemm of
include/tessera/gemm.h) on CUDA torch tensors, with torch._scaled_mm's conventions:

    out (M,N) = (a (M,K) @ b (K,N)) * scale_a * scale_b, stored as out_dtype

a and b are float8_e4m3fn or float8_e5m2 (one format for both); scale_a and scale_b are float32,
one element each (per tensor), (M,1) and (1,N) (per row of a and per column of b), or blocks as
DeepGEMM scales them: (M, ceil(K/128)) for a (1 x 128 blocks) and (ceil(K/128), ceil(N/128)) for b
(128 x 128 blocks), the fp32 partial sum of each 128 of K promoted with its scales. out_dtype
is torch.bfloat16 (the default), torch.float16 or torch.float32. torch._scaled_mm wants
a row-major and b column-major, which the kernel reads where they lie (K-major both); any other
row- or column-major operand is packed first (tessera.scaled_mm_plan says so).

The argument checks run before the library is loaded, on anything with shape, stride(), dtype and
device (so they are tested without a GPU); the library checks the rest before any CUDA call.
"""
from __future__ import annotations

import ctypes

from . import _gemm
from ._cuda_stream import current_stream
from ._tessera import Error

# tessera_dtype and tessera_scaling of include/tessera/gemm.h, by torch dtype name
FP8 = {"torch.float8_e4m3fn": 4, "torch.float8_e5m2": 5}
OUT = {"torch.float32": 0, "torch.float16": 2, "torch.bfloat16": 3}
SCALE_TENSOR, SCALE_ROW, SCALE_BLOCK_A_ROWS, SCALE_BLOCK_B_COLUMNS = 0, 1, 2, 3


def declare(lib):
    """tessera_scaled_gemm's and tessera_scaled_gemm_plan's signatures on the loaded library
    (once: ctypes rebuilds its converters each time they are set)."""
    if getattr(lib, "_tessera_scaled_declared", False):
        return lib
    i64, f32, vp = ctypes.c_int64, ctypes.c_float, ctypes.c_void_p
    ch, i = ctypes.c_char, ctypes.c_int
    lib.tessera_scaled_gemm.argtypes = [ctypes.c_char_p, i, i, i, ch, ch, i64, i64, i64, f32, vp,
                                        i64, vp, i64, i, vp, vp, i, f32, vp, i64, vp]
    lib.tessera_scaled_gemm.restype = i
    lib.tessera_scaled_gemm_plan.argtypes = [ctypes.c_char_p, i, i, i, ch, ch, i64, i64, i64, vp,
                                             i64, vp, i64, i, vp, vp, i, vp, i64, ctypes.c_char_p,
                                             ctypes.c_size_t]
    lib.tessera_scaled_gemm_plan.restype = i
    lib._tessera_scaled_declared = True
    return lib


def _numel(t) -> int:
    n = 1
    for d in t.shape:
        n *= d
    return n


def _dtype_name(dtype) -> str:
    """str(dtype), remembered per dtype object (they are few; str() is slow next to a launch)."""
    try:
        name = _DTYPE_NAMES.get(dtype)
    except TypeError:  # (not hashable: not a dtype; the checks say so)
        return str(dtype)
    if name is None:
        name = _DTYPE_NAMES[dtype] = str(dtype)
    return name


_DTYPE_NAMES: dict = {}
_TENSOR_PARTS = ("shape", "stride", "dtype", "device")


def check(a, b, scale_a, scale_b, out_dtype):
    """The checks before the library: the scaling (SCALE_TENSOR or SCALE_ROW)."""
    for name, t in (("a", a), ("b", b), ("scale_a", scale_a), ("scale_b", scale_b)):
        if not all(hasattr(t, x) for x in _TENSOR_PARTS):
            raise Error(f"scaled_mm: {name} must be a torch.Tensor (got {type(t).__name__})")
    for name, t in (("a", a), ("b", b)):
        if len(t.shape) != 2:
            raise Error(f"scaled_mm: {name} must be 2-D; got shape {tuple(t.shape)}")
        if _dtype_name(t.dtype) not in FP8:
            raise Error(f"scaled_mm: {name} has dtype {t.dtype}; expected torch.float8_e4m3fn or "
                        f"torch.float8_e5m2")
    if a.dtype != b.dtype:
        raise Error(f"scaled_mm: a is {a.dtype} and b is {b.dtype}; both must be one FP8 format")
    if _dtype_name(out_dtype) not in OUT:
        raise Error(f"scaled_mm: out_dtype {out_dtype} is not torch.bfloat16, torch.float16 or "
                    f"torch.float32")
    (m, k), (k2, n) = a.shape, b.shape
    if k != k2:
        raise Error(f"scaled_mm: shapes a {tuple(a.shape)} @ b {tuple(b.shape)} do not match")
    device = a.device
    for name, t in (("b", b), ("scale_a", scale_a), ("scale_b", scale_b)):
        if t.device != device:
            raise Error(f"scaled_mm: {name} is on {t.device} but a is on {device}")
    for name, t in (("scale_a", scale_a), ("scale_b", scale_b)):
        if _dtype_name(t.dtype) != "torch.float32":
            raise Error(f"scaled_mm: {name} must be torch.float32 (got {t.dtype})")
    if _numel(scale_a) == 1 and _numel(scale_b) == 1:
        return SCALE_TENSOR
    if tuple(scale_a.shape) == (m, 1) and tuple(scale_b.shape) == (1, n):
        return SCALE_ROW
    kb, nb = -(-k // 128), -(-n // 128)
    if tuple(scale_a.shape) == (m, kb) and tuple(scale_b.shape) == (kb, nb):
        return SCALE_BLOCK_A_ROWS
    raise Error(f"scaled_mm: scales of shapes {tuple(scale_a.shape)} and {tuple(scale_b.shape)}: "
                f"expected one element each (per tensor), ({m}, 1) and (1, {n}) (per row of a "
                f"and per column of b), or ({m}, {kb}) and ({kb}, {nb}) (1 x 128 blocks of a, "
                f"128 x 128 blocks of b)")


def _arguments(a, b, out, scale_a, scale_b, scaling, fast: bool = False):
    """tessera_scaled_gemm's arguments after the kernel name and the three types, up to the
    stream: out row-major is computed as out^T = b^T a^T, which swaps the operands and scales
    (and the block scales' roles: a's per-row scales become the call's B's per column). Block
    scales go in gemm.h's layouts: a's (M, KB) M-major, b's (KB, NB) K-major (DeepGEMM's)."""
    swap, ta, lda, tb, ldb, m, n, k, ldc = _gemm.blas_args(a.shape, a.stride(), b.shape,
                                                          b.stride(), out.shape, out.stride())
    if scaling == SCALE_BLOCK_A_ROWS:
        sa, sb = scale_a.t().contiguous(), scale_b.t().contiguous()
        scaling = SCALE_BLOCK_B_COLUMNS if swap else SCALE_BLOCK_A_ROWS
    else:
        sa, sb = scale_a.contiguous(), scale_b.contiguous()
    (first, s_first), (second, s_second) = ((b, sb), (a, sa)) if swap else ((a, sa), (b, sb))
    return [ta.encode(), tb.encode(), m, n, k, 1.0, first.data_ptr(), lda, second.data_ptr(), ldb,
            scaling, s_first.data_ptr(), s_second.data_ptr(), int(fast), 0.0, out.data_ptr(),
            ldc], (sa, sb)


def scaled_mm(a, b, scale_a, scale_b, out_dtype=None, out=None, use_fast_accum: bool = False):
    """(a @ b) * scale_a * scale_b as out_dtype (default torch.bfloat16), torch._scaled_mm's
    conventions (module docstring); out: an (M,N) tensor of out_dtype to write into. The tensor
    cores' partial sums are promoted to fp32 every 128 of K unless use_fast_accum (as torch's
    flag: faster, less accurate; not with block scales; e4m3 on at most 128 rows or columns is
    promoted anyway, being faster so). Runs on the current torch stream.

    >>> y = tessera.scaled_mm(x_fp8, w_fp8.t(), x_scale, w_scale, out_dtype=torch.bfloat16)
    """
    import torch
    out_dtype = out_dtype or (out.dtype if out is not None else torch.bfloat16)
    scaling = check(a, b, scale_a, scale_b, out_dtype)
    if a.device.type != "cuda":
        raise Error(f"scaled_mm: the tensors must be on a CUDA device (got {a.device})")
    m, n = a.shape[0], b.shape[1]
    if out is None:
        out = torch.empty((m, n), dtype=out_dtype, device=a.device)
    elif tuple(out.shape) != (m, n) or out.dtype != out_dtype:
        raise Error(f"scaled_mm: out is {tuple(out.shape)} {out.dtype}, expected ({m}, {n}) "
                    f"{out_dtype}")
    if use_fast_accum and scaling == SCALE_BLOCK_A_ROWS:
        raise Error("scaled_mm: block scales are promoted per block of K; use_fast_accum=True "
                    "does not apply to them")
    args, keep = _arguments(a, b, out, scale_a, scale_b, scaling, use_fast_accum)
    lib = declare(_gemm.load_library())
    fp8, c = FP8[_dtype_name(a.dtype)], OUT[_dtype_name(out_dtype)]
    with torch.cuda.device(a.device):  # (the library plans and launches on the current device)
        stream = current_stream(torch, a.device)
        status = lib.tessera_scaled_gemm(None, fp8, fp8, c, *args, stream or None)
    del keep
    if status != 0:
        raise Error("scaled_mm: " + lib.tessera_status_string(status).decode())
    return out


def scaled_mm_plan(a, b, scale_a, scale_b, out_dtype=None, use_fast_accum: bool = False) -> str:
    """What tessera.scaled_mm would do with these arguments, in words (no launch)."""
    import torch
    out_dtype = out_dtype or torch.bfloat16
    scaling = check(a, b, scale_a, scale_b, out_dtype)
    out = torch.empty((a.shape[0], b.shape[1]), dtype=out_dtype, device=a.device)
    args, _ = _arguments(a, b, out, scale_a, scale_b, scaling, use_fast_accum)
    args = args[:5] + args[6:14] + args[15:]  # (without alpha and beta: the plan takes neither)
    lib = declare(_gemm.load_library())
    fp8, c = FP8[str(a.dtype)], OUT[str(out_dtype)]
    text = ctypes.create_string_buffer(1024)
    lib.tessera_scaled_gemm_plan(None, fp8, fp8, c, *args, text, len(text))
    return text.value.decode()
