"""tessera.nvgpu: CuTe DSL's copy operations (cute.nvgpu.CopyUniversalOp, cute.nvgpu.cpasync,
cute.nvgpu.warp) and make_copy_atom (tessera.make_copy_atom), read as the copy atoms of CuTe's C++
catalog.

    >>> import tessera
    >>> from tessera import nvgpu
    >>> atom = tessera.make_copy_atom(nvgpu.warp.LdMatrix8x8x16bOp(num_matrices=4), "f16")
    >>> atom.name
    'SM75_U32x4_LDSM_N'
    >>> tessera.make_copy_atom(nvgpu.cpasync.CopyG2SOp(), "f16", num_bits_per_copy=128).name
    'SM80_CP_ASYNC_CACHEALWAYS<uint128_t>'

An operation picks the C++ atom (CuTe DSL's CopyUniversalOp with num_bits_per_copy=128 is
UniversalCopy<uint128_t>); the element type gives the atom's layouts in elements.
"""
from __future__ import annotations

from dataclasses import dataclass
from types import SimpleNamespace

from typing import TYPE_CHECKING, Any, Union

from . import _tessera

if TYPE_CHECKING:
    from . import CopyAtom

# Element types by name: CuTe DSL's (Float16), CuTe C++'s (half_t), PyTorch's and short ones.
_BITS = {
    8: ("int8", "uint8", "i8", "u8", "s8", "int8_t", "uint8_t", "float8_e4m3fn", "float8e4m3fn",
        "float8_e5m2", "float8e5m2", "e4m3", "e5m2", "float_e4m3_t", "float_e5m2_t"),
    16: ("float16", "half", "f16", "half_t", "bfloat16", "bf16", "bfloat16_t", "int16", "i16",
         "uint16", "u16", "int16_t", "uint16_t"),
    32: ("float32", "float", "f32", "tfloat32", "tf32", "tfloat32_t", "int32", "i32", "uint32",
         "u32", "int32_t", "uint32_t"),
    64: ("float64", "double", "f64", "int64", "i64", "uint64", "u64", "int64_t", "uint64_t"),
}
_BITS_OF = {name: bits for bits, names in _BITS.items() for name in names}


def element_bits(dtype: int | str | Any) -> int:
    """The width in bits of an element type: an int (bits), a name ("f16", "Float16", "half_t",
    "bfloat16"), a CuTe DSL numeric type (its .width) or a PyTorch / NumPy dtype (its itemsize).

    >>> element_bits("Float16"), element_bits("half_t"), element_bits("tf32"), element_bits(8)
    (16, 16, 32, 8)
    """
    if isinstance(dtype, bool):
        raise TypeError(f"an element type, got {dtype!r}")
    if isinstance(dtype, int):
        return dtype
    if isinstance(getattr(dtype, "width", None), int):
        return dtype.width
    if isinstance(getattr(dtype, "itemsize", None), int):
        return 8 * dtype.itemsize
    name = str(dtype).lower().split(".")[-1].replace("'>", "")
    if name in _BITS_OF:
        return _BITS_OF[name]
    raise _tessera.Error(
        f"element type {dtype!r}: expected bits (16), a name such as f16, bf16, f32, tf32, int8, "
        "f64 (CuTe DSL's Float16, CuTe's half_t), a CuTe DSL numeric type or a torch dtype")


@dataclass(frozen=True)
class CopyUniversalOp:
    """CuTe DSL's cute.nvgpu.CopyUniversalOp: plain loads and stores, `num_bits_per_copy` bits
    per thread and instruction (default: one element): CuTe's UniversalCopy<uintN_t>."""

    def _atom_name(self, elem_bits: int, num_bits_per_copy):
        bits = elem_bits if num_bits_per_copy is None else num_bits_per_copy
        if bits not in (8, 16, 32, 64, 128):
            raise _tessera.Error(
                f"make_copy_atom: CopyUniversalOp moves 8, 16, 32, 64 or 128 bits per copy, not "
                f"{bits} (num_bits_per_copy, or the element's width when it is not given)")
        return f"UniversalCopy<uint{bits}_t>"


@dataclass(frozen=True)
class CopyG2SOp:
    """CuTe DSL's cute.nvgpu.cpasync.CopyG2SOp: cp.async from global to shared memory of
    num_bits_per_copy (32, 64 or 128) bits per thread: CuTe's SM80_CP_ASYNC_CACHEALWAYS<uintN_t>,
    or SM80_CP_ASYNC_CACHEGLOBAL<uint128_t> with cache_mode "global" (the layouts are the same)."""

    cache_mode: object = "always"

    def _atom_name(self, elem_bits: int, num_bits_per_copy):
        if not isinstance(num_bits_per_copy, int) or num_bits_per_copy <= 0:
            raise _tessera.Error(
                "make_copy_atom: CopyG2SOp needs num_bits_per_copy=32, 64 or 128 (the bits one "
                "thread's cp.async moves)")
        mode = str(getattr(self.cache_mode, "name", self.cache_mode)).upper()
        if mode not in ("ALWAYS", "GLOBAL"):
            raise _tessera.Error(
                f"make_copy_atom: cache_mode {self.cache_mode!r}: expected \"always\" or "
                "\"global\"")
        return f"SM80_CP_ASYNC_CACHE{mode}<uint{num_bits_per_copy}_t>"


@dataclass(frozen=True)
class _MatrixOp:
    transpose: bool = False
    num_matrices: int = 1
    _cpp, _cpp_kind = "", ""  # the C++ atom's architecture and family (SM75, LDSM)

    def _atom_name(self, elem_bits: int, num_bits_per_copy):
        n = self.num_matrices
        if n not in (1, 2, 4):
            raise _tessera.Error(f"make_copy_atom: {type(self).__name__}: num_matrices {n}: "
                                 "expected 1, 2 or 4 (8x8 matrices per instruction)")
        # .trans moves 16-bit elements: x4.trans is U16x8 (8 halves a thread), x4 is U32x4.
        if self.transpose:
            return f"{self._cpp}_U16x{2 * n}_{self._cpp_kind}_T"
        return f"{self._cpp}_U32x{n}_{self._cpp_kind}_N"


@dataclass(frozen=True)
class LdMatrix8x8x16bOp(_MatrixOp):
    """CuTe DSL's cute.nvgpu.warp.LdMatrix8x8x16bOp(transpose, num_matrices): ldmatrix.xN[.trans]
    from shared memory, CuTe's SM75_U32xN_LDSM_N or SM75_U16x(2N)_LDSM_T."""
    _cpp, _cpp_kind = "SM75", "LDSM"


@dataclass(frozen=True)
class StMatrix8x8x16bOp(_MatrixOp):
    """CuTe DSL's cute.nvgpu.warp.StMatrix8x8x16bOp(transpose, num_matrices): stmatrix.xN[.trans]
    to shared memory, CuTe's SM90_U32xN_STSM_N or SM90_U16x(2N)_STSM_T."""
    _cpp, _cpp_kind = "SM90", "STSM"


CopyOp = Union[CopyUniversalOp, CopyG2SOp, LdMatrix8x8x16bOp, StMatrix8x8x16bOp]

# As CuTe DSL's modules: cute.nvgpu.cpasync.CopyG2SOp, cute.nvgpu.warp.LdMatrix8x8x16bOp.
cpasync = SimpleNamespace(CopyG2SOp=CopyG2SOp)
warp = SimpleNamespace(LdMatrix8x8x16bOp=LdMatrix8x8x16bOp, StMatrix8x8x16bOp=StMatrix8x8x16bOp)


def make_copy_atom(op: CopyOp | str, dtype: int | str | Any, *,
                   num_bits_per_copy: int | None = None) -> CopyAtom:
    """make_copy_atom(op, dtype, *, num_bits_per_copy=None): CuTe DSL's copy atom of an operation
    for elements of `dtype` (see element_bits), as the CopyAtom of CuTe's C++ name.

    `op` is a CuTe DSL operation of tessera.nvgpu (CopyUniversalOp(), cpasync.CopyG2SOp(),
    warp.LdMatrix8x8x16bOp(transpose, num_matrices), warp.StMatrix8x8x16bOp(...)) or a name:
    CuTe's C++ atom ("SM75_U32x4_LDSM_N", "Copy_Atom<UniversalCopy<uint128_t>, half_t>") or
    tessera's short form ("universal:128", "cp_async:16", "ldmatrix:x4t").

    >>> atom = make_copy_atom(nvgpu.CopyUniversalOp(), "f16", num_bits_per_copy=128)
    >>> atom, atom.layout_src_tv
    (CopyAtom("UniversalCopy<uint128_t>", elem_bits=16), Layout("(1,8):(0,1)"))
    """
    bits = element_bits(dtype)
    if isinstance(op, str):
        if num_bits_per_copy is not None:
            raise TypeError("make_copy_atom: num_bits_per_copy= goes with a CuTe DSL operation; "
                            f"the atom {op!r} has its own width")
        return _tessera.CopyAtom(op, bits)
    if not hasattr(op, "_atom_name"):
        raise TypeError("make_copy_atom: op is a tessera.nvgpu operation (CopyUniversalOp(), "
                        f"cpasync.CopyG2SOp(), warp.LdMatrix8x8x16bOp()) or an atom name, got "
                        f"{op!r}")
    if isinstance(op, _MatrixOp) and num_bits_per_copy is not None:
        raise TypeError(f"make_copy_atom: {type(op).__name__} moves 8x8 matrices; "
                        "num_bits_per_copy= is not one of its arguments")
    return _tessera.CopyAtom(op._atom_name(bits, num_bits_per_copy), bits)
