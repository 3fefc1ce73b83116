"""The library's functions under CuTe DSL's keyword names as well as tessera's own.

    >>> import tessera
    >>> mma = tessera.make_tiled_mma("SM80_16x8x16_F32F16F16F32_TN", atom_layout_mnk=(2, 2, 1))
    >>> tessera.size(tessera.Layout("((2,3),4):((1,2),6)"), mode=[0])
    6
    >>> print(tessera.coalesce(tessera.Layout("(2,(1,6)):(1,(6,2))"), target_profile=(1, 1)))
    (2,6):(1,2)

Each keyword has one meaning: giving both spellings of an argument is an error.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Sequence

from . import _tessera

if TYPE_CHECKING:  # the stub's names, for the annotations help() shows
    from . import IntTuple, Layout, MmaAtom, SwizzledLayout, Tiler, TiledMMA


def _one_of(name: str, ours, theirs, their_name: str, default):
    """The argument given under tessera's name or CuTe DSL's (None: not given), or `default`."""
    if ours is not None and theirs is not None:
        raise TypeError(f"{name}: give {their_name} or its tessera name, not both")
    if theirs is not None:
        return theirs
    return default if ours is None else ours


def make_tiled_mma(atom: MmaAtom | str, atom_layout: Layout | str | IntTuple | None = None,
                   permutation: Tiler | None = None, tile: tuple[int, int, int] | None = None, *,
                   atom_layout_mnk: Layout | str | IntTuple | None = None,
                   permutation_mnk: Tiler | None = None) -> TiledMMA:
    """A TiledMMA: `atom` (an MmaAtom or its name, in any spelling `tessera atoms` knows)
    repeated over atom_layout (M,N,K) (None: one atom, (1,1,1)), each mode permuted by
    `permutation` (one entry per mode: a Layout, an int or None); `tile` is the CTA tile (M,N,K)
    for pictures (default: one pass of the atoms). CuTe DSL's names atom_layout_mnk= and
    permutation_mnk= are the same arguments.

    >>> mma = make_tiled_mma("SM80_16x8x16_F32F16F16F32_TN", atom_layout_mnk=(2, 2, 1),
    ...                      permutation_mnk=(32, 32, 16))
    >>> mma.size(), [mma.tile_size_mnk(i) for i in range(3)]
    (128, [32, 32, 16])
    """
    layout = _one_of("make_tiled_mma", atom_layout, atom_layout_mnk, "atom_layout_mnk", (1, 1, 1))
    perm = _one_of("make_tiled_mma", permutation, permutation_mnk, "permutation_mnk", None)
    return _tessera.make_tiled_mma(atom, layout, perm, tile)


def size(x: Layout | SwizzledLayout | IntTuple, mode: int | Sequence[int] | None = None) -> int:
    """The number of coordinates of a Layout, SwizzledLayout or int tuple; with `mode` (CuTe
    DSL's mode=[i, j, ...]: a path of mode indices), of that mode.

    >>> size(Layout("((2,3),4):((1,2),6)"))
    24
    >>> size(Layout("((2,3),4):((1,2),6)"), mode=[0])
    6
    """
    if mode is None:
        return _tessera.size(x)
    if isinstance(mode, int):
        mode = [mode]
    for i in mode:
        if isinstance(x, _tessera.SwizzledLayout):
            raise _tessera.Error("size: mode= of a swizzled layout: take size(L.layout, mode=...)")
        x = x[i]
    return _tessera.size(x)


def coalesce(layout: Layout | str, profile: IntTuple | None = None, *,
             target_profile: IntTuple | None = None) -> Layout:
    """Merge modes keeping the function; a tuple `profile` (CuTe DSL: target_profile=) coalesces
    mode by mode, keeping the profile's modes.

    >>> coalesce(Layout("(2,(1,6)):(1,(6,2))"))
    Layout("12:1")
    >>> coalesce(Layout("(2,(1,6)):(1,(6,2))"), target_profile=(1, 1))
    Layout("(2,6):(1,2)")
    """
    p = _one_of("coalesce", profile, target_profile, "target_profile", None)
    return _tessera.coalesce(layout, p)
