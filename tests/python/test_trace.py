"""tessera.trace: the step 1 kernel's thread 0 of CTA (0,0) on M=256, N=128, K=32, as the CLI's
`tessera trace` (one evaluator), and its errors."""
import pytest

import tessera


def step1(**kw):
    return tessera.trace("step1", (256, 128, 32), A="(256,32):(1,256)", B="(128,32):(1,128)",
                         C="(256,128):(128,1)", **kw)


def test_step1_every_number():
    t = step1()
    assert t.grid == (2, 1) and t.cta == (0, 0) and t.thread == 0
    assert str(t.local_tile["A"]["layout"]) == "(128,8,4):(1,256,2048)"
    assert str(t.local_tile["B"]["layout"]) == "(128,8,4):(1,128,1024)"
    assert str(t.local_tile["C"]["layout"]) == "(128,128):(128,1)"
    assert str(t.partitions["A"]["layout"]) == "(1,(4,2),8):(0,(1,64),256)"
    assert str(t.partitions["B"]["layout"]) == "(1,(4,2),8):(0,(1,64),128)"
    assert str(t.partitions["C"]["layout"]) == "(1,(4,2),(4,2)):(0,(128,8192),(1,64))"
    assert t.fragments["A"]["k_block_slice"]["shape"] == "(1,(4,2))"
    assert t.fragments["A"]["k_block_slice"]["rows"] == [0, 1, 2, 3, 64, 65, 66, 67]
    k = t.k_loop
    assert (k["k_tiles"], k["k_blocks"], k["per_k_block"], k["per_k_tile"], k["total"]) == \
        (4, 8, 64, 512, 2048)
    assert k["loads"]["A"]["elements"] == 64 and k["loads"]["B"]["elements"] == 64
    assert "per k_block 64 FMAs" in str(t)


def test_same_as_a_tiled_mma_and_layouts():
    mma = tessera.presets.step1()
    t = tessera.trace(mma, (256, 128, 32), A=tessera.Layout("(256,32):(1,256)"))
    assert t.fields == step1().fields


def test_errors_name_the_rule():
    with pytest.raises(Exception, match=r"CTA \(2,0\) is outside the grid 2 x 1"):
        step1(cta=(2, 0))
    with pytest.raises(Exception, match=r"thread 256 is outside the TiledMMA's threads"):
        step1(thread=256)
    with pytest.raises(Exception, match=r"the layout of A \(128,32\):\(1,128\) does not match"):
        tessera.trace("step1", (256, 128, 32), A="(128,32):(1,128)")
