"""tessera.scaled_mm without a GPU: the checks before the library (dtypes, shapes, scales,
devices), the scaling they pick, how torch._scaled_mm's row-major out maps onto the column-major
C ABI (operands and scales swapped), and the ctypes signature against include/tessera/gemm.h.
The kernels run in tests/device/torch_scaled_mm.py (scripts/gpu.sh fp8)."""
import ctypes
import pathlib
import re
import types

import pytest

from tessera import _scaled_mm, Error

REPO = pathlib.Path(__file__).resolve().parents[2]
E4M3, E5M2, F32 = "torch.float8_e4m3fn", "torch.float8_e5m2", "torch.float32"


class FakeTensor:
    """What the checks read of a torch tensor: shape, stride(), dtype, device, data_ptr()."""

    def __init__(self, shape, dtype=E4M3, strides=None, ptr=4096, device="cuda"):
        self.shape, self.dtype, self._ptr = tuple(shape), dtype, ptr
        self.device = types.SimpleNamespace(type=device, index=0)
        if strides is None:
            strides, step = [], 1
            for n in reversed(self.shape):
                strides.insert(0, step)
                step *= n
        self._strides = tuple(strides)

    def stride(self, dim=None):
        return self._strides if dim is None else self._strides[dim]

    def data_ptr(self):
        return self._ptr

    def contiguous(self):
        return self

    def t(self):
        return FakeTensor(self.shape[::-1], self.dtype, self._strides[::-1], self._ptr)


def operands(m=96, n=80, k=64, dtype=E4M3, rows=False):
    """a (M,K) row-major, b (K,N) column-major (torch._scaled_mm's layout), fp32 scales."""
    a = FakeTensor((m, k), dtype, ptr=0x10000)
    b = FakeTensor((k, n), dtype, strides=(1, k), ptr=0x20000)
    sa = FakeTensor((m, 1) if rows else (), F32, ptr=0x30000)
    sb = FakeTensor((1, n) if rows else (), F32, ptr=0x40000)
    return a, b, sa, sb


def test_the_scaling_follows_the_scales_shapes():
    assert _scaled_mm.check(*operands(), "torch.bfloat16") == _scaled_mm.SCALE_TENSOR
    assert _scaled_mm.check(*operands(rows=True), "torch.float32") == _scaled_mm.SCALE_ROW
    assert _scaled_mm.check(*operands(dtype=E5M2), "torch.float16") == _scaled_mm.SCALE_TENSOR


@pytest.mark.parametrize("change, words", [
    (lambda o: (FakeTensor((96, 64), "torch.float16"),) + o[1:], "expected torch.float8_e4m3fn"),
    (lambda o: (o[0], FakeTensor((64, 80), E5M2, strides=(1, 64))) + o[2:], "one FP8 format"),
    (lambda o: (o[0], FakeTensor((65, 80), E4M3, strides=(1, 65))) + o[2:], "do not match"),
    (lambda o: o[:2] + (FakeTensor((96, 1), F32), FakeTensor((80, 1), F32)), "(1, 80)"),
    (lambda o: o[:2] + (FakeTensor((), "torch.float16"), o[3]), "must be torch.float32"),
    (lambda o: (FakeTensor((96, 64, 1)),) + o[1:], "must be 2-D"),
    (lambda o: (o[0], o[1], o[2], 3.0), "must be a torch.Tensor"),
])
def test_bad_arguments_name_the_rule(change, words):
    with pytest.raises(Error, match=re.escape(words)):
        _scaled_mm.check(*change(operands()), "torch.bfloat16")


def test_block_scales_and_their_roles():
    # a (96, 300) in 1 x 128 blocks: (96, 3); b (300, 80) in 128 x 128 blocks: (3, 1).
    a, b, _, _ = operands(m=96, n=80, k=300)
    sa, sb = FakeTensor((96, 3), F32, ptr=0x30000), FakeTensor((3, 1), F32, ptr=0x40000)
    assert _scaled_mm.check(a, b, sa, sb, "torch.bfloat16") == _scaled_mm.SCALE_BLOCK_A_ROWS
    out = FakeTensor((96, 80), "torch.bfloat16", ptr=0x50000)
    args, _ = _scaled_mm._arguments(a, b, out, sa, sb, _scaled_mm.SCALE_BLOCK_A_ROWS)
    # row-major out: the call's B is a, so a's per-row scales are the call's B's per column
    assert args[10:13] == [_scaled_mm.SCALE_BLOCK_B_COLUMNS, sb.data_ptr(), sa.data_ptr()]
    out_cm = FakeTensor((96, 80), "torch.bfloat16", strides=(1, 96), ptr=0x50000)
    args, _ = _scaled_mm._arguments(a, b, out_cm, sa, sb, _scaled_mm.SCALE_BLOCK_A_ROWS)
    assert args[10:13] == [_scaled_mm.SCALE_BLOCK_A_ROWS, sa.data_ptr(), sb.data_ptr()]
    with pytest.raises(Error, match=re.escape("(96, 3) and (3, 1) (1 x 128 blocks")):
        _scaled_mm.check(a, b, FakeTensor((96, 2), F32), sb, "torch.bfloat16")


def test_out_dtype_must_be_16_or_32_bit():
    with pytest.raises(Error, match="out_dtype"):
        _scaled_mm.check(*operands(), E4M3)


def test_row_major_out_swaps_operands_and_scales():
    # out (M,N) row-major is out^T = b^T a^T: the call's A is b (N,K) K-major ('T', ld K), its B
    # is a (K,M) K-major ('N', ld K), m and n swapped, and the row scales go with their operands.
    a, b, sa, sb = operands(m=96, n=80, k=64, rows=True)
    out = FakeTensor((96, 80), "torch.bfloat16", ptr=0x50000)
    args, _ = _scaled_mm._arguments(a, b, out, sa, sb, _scaled_mm.SCALE_ROW)
    assert args[:5] == [b"T", b"N", 80, 96, 64]
    assert args[6:10] == [b.data_ptr(), 64, a.data_ptr(), 64]
    assert args[11:13] == [sb.data_ptr(), sa.data_ptr()]
    assert args[13:] == [0, 0.0, out.data_ptr(), 80]  # (promoted sums, beta, C, ldc)
    args, _ = _scaled_mm._arguments(a, b, out, sa, sb, _scaled_mm.SCALE_ROW, fast=True)
    assert args[13] == 1


def test_signatures_match_the_header():
    header = (REPO / "include/tessera/gemm.h").read_text()
    lib = types.SimpleNamespace(tessera_scaled_gemm=types.SimpleNamespace(),
                                tessera_scaled_gemm_plan=types.SimpleNamespace())
    _scaled_mm.declare(lib)
    for name in ("tessera_scaled_gemm", "tessera_scaled_gemm_plan"):
        decl = re.search(name + r"\(([^;]*)\);", header).group(1)
        params = [p for p in decl.split(",") if p.strip()]
        assert len(getattr(lib, name).argtypes) == len(params), name
        assert getattr(lib, name).restype is ctypes.c_int
