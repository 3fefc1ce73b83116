"""Finding tessera's CUDA libraries (libtessera_gemm.so, libtessera_attention.so) for ctypes.

Each is looked for, in order, at $TESSERA_<NAME>_LIBRARY (only there, when set), beside the package
(where `pip install .` puts it when nvcc was found and TESSERA_PIP_CUDA was not OFF; _build.py,
written by the same build, says which), in build/kernels/ of a source checkout (the package's or
the current directory's), and on the system's library path.
"""
from __future__ import annotations

import ctypes
import ctypes.util
import os
import pathlib

from ._tessera import Error


def candidates(stem: str, env_var: str):
    """The paths to try for lib<stem>.so (stem: "tessera_gemm")."""
    env = os.environ.get(env_var)
    if env:
        yield pathlib.Path(env)
        return
    name = f"lib{stem}.so"
    here = pathlib.Path(__file__).resolve().parent
    yield here / name
    for root in (here.parent.parent, pathlib.Path.cwd()):  # a source checkout's build folder
        yield root / "build" / "kernels" / name
    found = ctypes.util.find_library(stem)
    if found:
        yield pathlib.Path(found)


def load(stem: str, env_var: str, declare, op: str):
    """declare(ctypes.CDLL) of the first candidate that loads, or an Error for `op` naming what was
    tried and how to get the library."""
    tried = []
    for path in candidates(stem, env_var):
        tried.append(str(path))
        if path.is_absolute() and not path.exists():
            continue
        try:
            lib = ctypes.CDLL(str(path))
        except OSError as e:
            tried[-1] += f" ({e})"
            continue
        return declare(lib)
    note = (f"{env_var} is set: only it was tried (unset it to search the package and a build)."
            if os.environ.get(env_var) else build_note(stem, env_var))
    raise Error(f"{op}: lib{stem}.so was not found. " + note + " Tried: " + ", ".join(tried))


def build_note(stem: str, env_var: str) -> str:
    """Why this installation has no CUDA library, from what `pip install .` recorded."""
    name = f"lib{stem}.so"
    try:
        from . import _build
    except ImportError:  # a source tree, not an installed package
        return ("Build it with CMake where nvcc is present (cmake --preset default && "
                f"cmake --build build --target {stem}) or pip install . there; or set "
                f"{env_var}=/path/to/{name}.")
    if _build.CUDA:
        return "pip install . built it, but it is not beside the package (" + _build.NOTE + ")."
    return ("This package was installed without it (" + _build.NOTE + "): reinstall with "
            f"`pip install .` on a machine with nvcc, or set {env_var}=/path/to/{name}.")
