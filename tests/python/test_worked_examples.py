"""The worked examples through the Python API: the layout algebra walk-through
("Honey, I tiled the tensors"), the step 1 kernel's tiles and thread 0's partitions, and the
step 4 kernel's fragment."""
import pytest

import tessera
from tessera import Layout


@pytest.mark.parametrize("op,args,want", [
    # Coalescing: (2,4):(1,2) is 8:1; a size-1 mode is an identity; by mode keeps the rank.
    ("coalesce", ("(2,4):(1,2)",), "8:1"),
    ("coalesce", ("(1,6):(7,2)",), "6:2"),
    ("coalesce", ("((2,2),(3,2)):((1,2),(4,12))", (1, 1)), "(4,6):(1,4)"),
    # Composition: (6:2) o ((3,2):(1,3)) = (3,2):(2,6); (4,3):(1,8) o 6:2 = (2,3):(2,8), traced.
    ("composition", ("6:2", "(3,2):(1,3)"), "(3,2):(2,6)"),
    ("composition", ("(4,3):(1,8)", "6:2"), "(2,3):(2,8)"),
    ("composition", ("(3):(8)", "3:1"), "3:8"),
    # Complement: 4:1 within 12 is 3:4.
    ("complement", ("4:1", 12), "3:4"),
    ("complement", ("4:1", 8), "2:4"),
    # Division.
    ("logical_divide", ("12:1", "4:1"), "(4,3):(1,4)"),
    ("logical_divide", ("(4,6):(1,4)", (2, 3)), "((2,2),(3,2)):((1,2),(4,12))"),
    ("zipped_divide", ("(4,6):(1,4)", (2, 3)), "((2,3),(2,2)):((1,4),(2,12))"),
    ("tiled_divide", ("(4,6):(1,4)", (2, 3)), "((2,3),2,2):((1,4),2,12)"),
    ("flat_divide", ("(4,6):(1,4)", (2, 3)), "(2,3,2,2):(1,4,2,12)"),
    # Products: the dual of the divide; blocked and raked; zipped and tiled regroup.
    ("logical_product", ("4:1", "3:1"), "(4,3):(1,4)"),
    ("logical_product", ("(2,5):(5,1)", "(3,4):(1,3)"), "((2,5),(3,4)):((5,1),(10,30))"),
    ("blocked_product", ("(2,5):(5,1)", "(3,4):(1,3)"), "((2,3),(5,4)):((5,10),(1,30))"),
    ("raked_product", ("(2,5):(5,1)", "(3,4):(1,3)"), "((3,2),(4,5)):((10,5),(30,1))"),
    ("zipped_product", ("(2,5):(5,1)", ("3:5", "4:6")), "((2,5),(3,4)):((5,1),(10,30))"),
    ("tiled_product", ("(2,5):(5,1)", ("3:5", "4:6")), "((2,5),3,4):((5,1),10,30)"),
    # right_inverse skips broadcast modes, as CuTe's C++.
    ("right_inverse", ("(2,4):(0,1)",), "4:2"),
    ("right_inverse", ("(4,2):(2,1)",), "(2,4):(4,1)"),
])
def test_algebra_walkthrough(op, args, want):
    a = [Layout(x) if isinstance(x, str) else x for x in args]
    a[1:] = [tuple(Layout(e) for e in x) if isinstance(x, tuple)
             and all(isinstance(e, str) for e in x) else x
             for x in a[1:]]
    assert str(getattr(tessera, op)(*a)) == want


def test_nested_layout_offsets():
    # ((2,2),(2,2)):((1,4),(2,8)): the interleaved example's table of coordinates and offsets.
    L = Layout("((2,2),(2,2)):((1,4),(2,8))")
    table = {((0, 0), (0, 0)): 0, ((0, 1), (0, 0)): 4, ((1, 0), (0, 0)): 1, ((1, 1), (0, 0)): 5,
             ((0, 0), (1, 0)): 2, ((0, 1), (1, 0)): 6, ((1, 0), (1, 0)): 3, ((1, 1), (1, 0)): 7}
    for crd, offset in table.items():
        assert L(crd) == offset
    # ... a permutation of the 16 offsets.
    assert sorted(L(i) for i in range(16)) == list(range(16))


def test_swizzle_example():
    # Sw<3,4,3> moves 16-byte chunk 0 of row 1 (offset 128) to chunk 1 (offset 144) and back.
    sw = tessera.Swizzle(3, 4, 3)
    assert (sw(128), sw(144)) == (144, 128)
    assert tessera.composition(sw, Layout("(8,64):(64,1)"))(2) == 144


def test_step1_tiles_with_proj():
    # The step 1 kernel: M=256, N=128, K=32, tile (128,128,8) at CTA (0,0,_), A and B K-major.
    mA, mB, mC = Layout("(256,32):(1,256)"), Layout("(128,32):(1,128)"), Layout("(256,128):(128,1)")
    tiler, coord = (128, 128, 8), (0, 0, None)
    gA = tessera.local_tile(mA, tiler, coord, proj=(1, None, 1))
    gB = tessera.local_tile(mB, tiler, coord, proj=(None, 1, 1))
    gC = tessera.local_tile(mC, tiler, coord, proj=(1, 1, None))
    assert (gA.offset, str(gA.layout)) == (0, "(128,8,4):(1,256,2048)")   # (BM,BK,k)
    assert str(gB.layout) == "(128,8,4):(1,128,1024)"                     # (BN,BK,k)
    assert str(gC.layout) == "(128,128):(128,1)"                          # (BM,BN)
    # The second CTA along M starts 128 rows down.
    assert tessera.local_tile(mC, tiler, (1, 0, None), proj=(1, 1, None)).offset == 128 * 128


def test_step1_thread0_partitions():
    mma = tessera.presets.step1()
    thr = mma.get_slice(0)
    tCgC = thr.partition_C(Layout("(128,128):(128,1)"))  # (FrgV,RestM,RestN)
    assert str(tCgC.layout) == "(1,(4,2),(4,2)):(0,(128,8192),(1,64))" and tCgC.offset == 0
    tCsA = thr.partition_A(Layout("(128,8):(1,128)"))    # (FrgV,RestM,RestK)
    assert str(tCsA.layout) == "(1,(4,2),8):(0,(1,64),128)"
    # Thread t's C fragment starts at 512*(t/16) + 4*(t%16).
    for t in (1, 17, 255):
        assert mma.partition_C(Layout("(128,128):(128,1)"),
                               t).offset == 512 * (t // 16) + 4 * (t % 16)
    # Thread 0 owns rows and columns {0..3, 64..67} of the tile.
    e = tessera.explain(mma, "C", 0)
    assert sorted({r for r, _ in e.coords}) == [0, 1, 2, 3, 64, 65, 66, 67]
    assert [s.name for s in e.steps] == ["logical_divide", "zipped_divide", "compose",
                                         "zipped_divide", "slice"]
    assert str(e.steps[-1].layout) == str(tCgC.layout)


def test_step4_fragment():
    mma = tessera.presets.step4()
    assert mma.size() == 128
    frag = mma.partition_C(Layout("(128,128):(128,1)"), 0).layout
    # The step 4 text (CuTe's C++) prints ((2,2),4,(2,4)):((1,1024),4096,(16,32)): the same
    # function, whose
    # last mode tessera keeps merged as 8:16.
    assert str(frag) == "((2,2),4,8):((1,1024),4096,16)"
    cute = Layout("((2,2),4,(2,4)):((1,1024),4096,(16,32))")
    assert [frag(i) for i in range(frag.size())] == [cute(i) for i in range(cute.size())]


def test_step1_permutation_comparison():
    # The stores table: R = 4 stores 128 bits per thread and is coalesced; R = 1 is scattered.
    r4 = tessera.analyze(tessera.presets.step1())
    assert (r4["vector_bits"], r4.grade) == (128, "great")
    r1 = tessera.make_tiled_mma("UniversalFMA", "(16,16,1):(16,1,0)",
                                ("(16,1):(1,1)", "(16,1):(1,1)", None),
                                tile=(128, 128, 8))
    rep = tessera.analyze(r1)
    assert rep["vector_bits"] == 32 and rep.grade == "bad" and "scattered" in rep.verdict
