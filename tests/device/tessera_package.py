"""The tessera package for the GPU scripts (torch_gemm.py, torch_ops_test.py, torch_attention.py,
torch_scaled_mm.py, bench/attention_bench.py, bench/gemm_fp8_bench.py).

torch_on_gpu(library_variable) -> torch: the scripts' start; where torch or a GPU is missing it
says so ("SKIPPED: no torch" / "SKIPPED: no GPU") and exits 77 (skipped); a library path given as
the first argument goes to the environment variable library_variable.

load_tessera() -> (module, from_source): the installed package when it imports; otherwise
python/tessera of the source tree with a stand-in for the compiled module (it may be built for
another Python, or not at all): tessera.gemm, scaled_mm and attention need only ctypes, torch and
the Error class, and find their libraries through TESSERA_GEMM_LIBRARY / TESSERA_ATTENTION_LIBRARY.
"""
import os
import pathlib
import sys
import types

ROOT = pathlib.Path(__file__).resolve().parents[2]
SKIPPED = 77


def torch_on_gpu(library_variable):
    try:
        import torch
    except ImportError:
        print("SKIPPED: no torch")
        sys.exit(SKIPPED)
    if not torch.cuda.is_available():
        print("SKIPPED: no GPU")
        sys.exit(SKIPPED)
    if len(sys.argv) > 1:
        os.environ[library_variable] = sys.argv[1]
    return torch


def load_tessera():
    try:
        import tessera
        return tessera, False
    except ImportError:
        pass
    pkg = types.ModuleType("tessera")
    pkg.__path__ = [str(ROOT / "python" / "tessera")]
    pkg.__file__ = pkg.__path__[0] + "/__init__.py"
    shim = types.ModuleType("tessera._tessera")
    shim.Error = type("Error", (ValueError,), {})
    sys.modules["tessera"], sys.modules["tessera._tessera"] = pkg, shim
    from tessera._attention import attention, attention_plan
    from tessera._gemm import gemm
    from tessera._scaled_mm import scaled_mm, scaled_mm_plan
    pkg.gemm, pkg.Error = gemm, shim.Error
    pkg.scaled_mm, pkg.scaled_mm_plan = scaled_mm, scaled_mm_plan
    pkg.attention, pkg.attention_plan = attention, attention_plan
    return pkg, True
