"""tessera.gemm: the GEMM of libtessera_gemm.so (include/tessera/gemm.h) on CUDA torch tensors.

The C ABI is column-major like BLAS. A row-major torch matrix is the transpose of a column-major
one, so every operand maps to (op, leading dimension) of its storage, and a row-major output is
computed as C^T = B^T A^T. PyTorch is imported only when gemm is called: the operators themselves
(torch.library, torch.compile, autograd) are in torch_ops.py.

`pip install .` puts libtessera_gemm.so beside this file when nvcc was found (and
TESSERA_PIP_CUDA was not OFF); _library.py finds it.
"""
from __future__ import annotations

import ctypes

from . import _library
from ._tessera import Error

# tessera_dtype of include/tessera/gemm.h
DTYPES = {"float32": 0, "tf32": 1, "float16": 2, "bfloat16": 3}
_lib = None


def declare(lib):
    """The C ABI's signatures (include/tessera/gemm.h) on a loaded library."""
    i64, f32, vp = ctypes.c_int64, ctypes.c_float, ctypes.c_void_p
    lib.tessera_gemm.argtypes = [ctypes.c_int, ctypes.c_char, ctypes.c_char, i64, i64, i64, f32, vp,
                                 i64, vp, i64, f32, vp, i64, vp]
    lib.tessera_gemm.restype = ctypes.c_int
    lib.tessera_status_string.argtypes = [ctypes.c_int]
    lib.tessera_status_string.restype = ctypes.c_char_p
    return lib


def load_library():
    """libtessera_gemm.so: $TESSERA_GEMM_LIBRARY, beside the package, build/kernels/ of a checkout,
    or the system's library path (_library.py)."""
    global _lib
    if _lib is None:
        _lib = _library.load("tessera_gemm", "TESSERA_GEMM_LIBRARY", declare, "gemm")
    return _lib


def operand(shape, strides, what: str):
    """(op, ld) of a 2-D matrix of `shape` and element `strides` as BLAS sees its storage:
    ('N', ld) when the rows are contiguous (column-major), ('T', ld) when the columns are."""
    rows, cols = shape
    rs, cs = strides
    if rs == 1 or rows == 1:
        if cols == 1 or cs >= max(1, rows):
            return "N", cs if cols > 1 else max(1, rows)
    if cs == 1 or cols == 1:
        if rows == 1 or rs >= max(1, cols):
            return "T", rs if rows > 1 else max(1, cols)
    raise Error(f"gemm: {what} of shape {tuple(shape)} with strides {tuple(strides)} has no unit "
                f"stride (BLAS needs row- or column-major storage): pass {what}.contiguous()")


def blas_args(a_shape, a_strides, b_shape, b_strides, c_shape, c_strides):
    """The tessera_gemm arguments for C (M,N) = A (M,K) @ B (K,N), with torch's element strides:
    (swap, transa, lda, transb, ldb, m, n, k, ldc). swap: the call computes C^T = B^T A^T (C is
    row-major), so its first operand is B."""
    (m, k), (k2, n) = a_shape, b_shape
    if k != k2 or tuple(c_shape) != (m, n):
        raise Error(f"gemm: shapes {tuple(a_shape)} @ {tuple(b_shape)} -> {tuple(c_shape)} do not "
                    f"match (A is (M,K), B is (K,N), out is (M,N))")
    c_op, ldc = operand(c_shape, c_strides, "out")
    if c_op == "N":  # C column-major: C = op(A) op(B)
        ta, lda = operand(a_shape, a_strides, "a")
        tb, ldb = operand(b_shape, b_strides, "b")
        return False, ta, lda, tb, ldb, m, n, k, ldc
    # C row-major: C^T (N,M) column-major = B^T A^T; a transposed operand swaps N and T.
    tb, ldb = operand((n, k), tuple(reversed(b_strides)), "b")
    ta, lda = operand((k, m), tuple(reversed(a_strides)), "a")
    return True, tb, ldb, ta, lda, n, m, k, ldc


def gemm(a, b, out=None, alpha: float = 1.0, beta: float = 0.0, tf32: bool = False):
    """alpha * a @ b + beta * out on CUDA torch tensors (float32, float16 or bfloat16; any row- or
    column-major strides), on the current torch stream: torch.ops.tessera.gemm (out None, a new
    tensor, differentiable) or torch.ops.tessera.gemm_out (in place). See torch_ops.py."""
    try:
        from . import torch_ops
    except ImportError as e:
        if e.name != "torch":
            raise
        raise Error("gemm: PyTorch is not installed (pip install torch); tessera.gemm runs on CUDA "
                    "torch tensors") from None
    return torch_ops.gemm(a, b, out=out, alpha=alpha, beta=beta, tf32=tf32)


def call(lib, dtype: int, args, alpha: float, a_ptr: int, b_ptr: int, beta: float, c_ptr: int,
         stream: int = 0):
    """tessera_gemm(dtype, ...) with blas_args' arguments for out = alpha * a @ b + beta * out, the
    operands given by their device addresses."""
    swap, ta, lda, tb, ldb, m, n, k, ldc = args
    first, second = (b_ptr, a_ptr) if swap else (a_ptr, b_ptr)
    status = lib.tessera_gemm(dtype, ta.encode(), tb.encode(), m, n, k, alpha, first, lda, second,
                              ldb, beta, c_ptr, ldc, stream or None)
    if status != 0:
        raise Error("gemm: " + lib.tessera_status_string(status).decode())
