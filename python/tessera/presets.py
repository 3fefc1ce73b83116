"""The two worked TiledMMA configurations (step 1 and step 4), with their CTA tiles and operand
tensors.

    step1(): the step 1 kernel: UniversalFMA (scalar FMA), 256 threads as 16x16 atoms
             (16,16,1):(16,1,0), permutation (16,4):(4,1) in M and N, tile 128x128x8,
             C (128,128):(128,1), A and B (128,8):(1,128)
    step4(): mma.sync m16n8k16 (SM80_16x8x16_F32F16F16F32_TN), atoms (2,2,1), permutation
             (32,32,16), 128 threads, tile 128x128x32, C (128,128):(128,1), A and B (128,32):(32,1)
"""
from . import _tessera


def step1() -> "_tessera.TiledMMA":
    return _tessera._mma_preset("step1")


def step4() -> "_tessera.TiledMMA":
    return _tessera._mma_preset("step4")
