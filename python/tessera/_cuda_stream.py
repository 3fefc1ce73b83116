"""The current torch stream of a CUDA device as the cudaStream_t the libraries' calls take.

torch.cuda.current_stream(device) builds a Stream object per call, which costs as much as a
small kernel's launch (bench/results/gemm_fp8.md); torch's own launchers read the raw handle
instead, which this does where the installed torch has it.
"""
from __future__ import annotations


def current_stream(torch, device) -> int:
    """The cudaStream_t (an int; 0: the legacy default stream) of `device`'s current stream."""
    raw = getattr(torch._C, "_cuda_getCurrentRawStream", None)
    if raw is not None and device.index is not None:
        return raw(device.index)
    return torch.cuda.current_stream(device).cuda_stream
