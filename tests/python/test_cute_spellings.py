"""What a CuTe user writes, read as CuTe reads it: a layout called on its domain only, plain shapes
where a layout is built from a shape (products, partition_*), and CuTe DSL's make_copy_atom with
its copy operations (tessera.nvgpu) as the copy atoms of CuTe's C++ catalog."""
import pytest

import tessera
from tessera import Layout, nvgpu


def test_a_layout_is_called_on_its_domain():
    L = Layout("(4,6):(1,4)")
    assert [L(i) for i in range(24)] == list(range(24))
    with pytest.raises(IndexError) as e:
        L(100)
    assert str(e.value) == ("index 100 is out of range for the layout (4,6):(1,4) of size 24: its "
                            "indices run from 0 to 23")
    with pytest.raises(IndexError, match="index 24 is out of range"):
        L(24)
    assert L(3, 5) == L((3, 5)) == 23
    with pytest.raises(IndexError) as e:
        L(4, 0)
    assert str(e.value) == (
        "coordinate (4,0) is out of range for the layout (4,6):(1,4): its entry 4 is past the "
        "extent 4 of its mode; the coordinates of (4,6) run from 0 to extent - 1 in each mode")
    # An integer over a nested mode runs over the whole mode: (2,3) takes 0..5.
    N = Layout("((2,3),4):((1,2),6)")
    assert N((5, 3)) == 23 and N(((1, 2), 3)) == 23
    with pytest.raises(IndexError, match=r"its entry 6 is past the extent 6 of its mode"):
        N((6, 0))
    with pytest.raises(IndexError, match=r"its entry 2 is past the extent 2 of its mode"):
        N(((2, 0), 0))


def test_swizzled_layouts_and_views_name_themselves():
    S = tessera.SwizzledLayout("Sw<1,0,1> o 0 o 4:1")
    assert [S(i) for i in range(4)] == [0, 1, 3, 2]
    with pytest.raises(IndexError, match=r"the layout Sw<1,0,1> o 0 o 4:1 of size 4"):
        S(4)
    V = tessera.View(10, Layout("(2,2):(1,2)"))
    assert V(1, 1) == 13
    with pytest.raises(IndexError, match=r"the layout 10 \+ \(2,2\):\(1,2\)"):
        V(2, 0)


def test_products_take_shapes():
    A = Layout("(2,5):(5,1)")
    # blocked/raked: a shape is its compact layout, as make_layout(shape) in CuTe (the values are
    # those of CuTe's layout algebra tutorial).
    for op in (tessera.blocked_product, tessera.raked_product):
        assert op(A, (3, 4)) == op(A, Layout("(3,4):(1,3)"))
        assert op((2, 5), (3, 4)) == op(Layout("(2,5):(1,2)"), Layout("(3,4):(1,3)"))
        assert op(A, 3) == op(A, Layout("3:1"))
    assert str(tessera.blocked_product(A, (3, 4))) == "((2,3),(5,4)):((5,10),(1,30))"
    assert str(tessera.raked_product(A, (3, 4))) == "((3,2),(4,5)):((10,5),(30,1))"
    # The tiler products: a tuple goes mode by mode and an int n is n:1, as CuTe's Tiler.
    L = Layout("(4,6):(1,4)")
    assert str(tessera.logical_product(L, (2, 3))) == "((4,2),(6,3)):((1,4),(4,1))"
    assert str(tessera.zipped_product(L, (2, 3))) == "((4,6),(2,3)):((1,4),(4,1))"
    assert str(tessera.tiled_product(L, (2, 3))) == "((4,6),2,3):((1,4),4,1)"
    assert str(tessera.flat_product(L, (2, 3))) == "(4,6,2,3):(1,4,4,1)"
    assert str(tessera.logical_product(Layout("4:1"), 3)) == "(4,3):(1,4)"
    with pytest.raises(TypeError, match="a product's operand is a Layout, its notation or a shape"):
        tessera.blocked_product(A, 2.5)


def test_partitions_take_shapes():
    mma = tessera.make_tiled_mma("SM80_16x8x16_F32F16F16F32_TN", (2, 2, 1))
    C = Layout((32, 16))
    for t in (0, 5, 127):
        assert mma.partition_C((32, 16), t) == mma.partition_C(C, t)
        assert mma.get_slice(t).partition_A((32, 16)) == mma.get_slice(t).partition_A(C)
    assert mma.thrfrg("B", (16, 16)) == mma.thrfrg("B", Layout("(16,16):(1,16)"))
    copy = tessera.make_tiled_copy_tv(tessera.CopyAtom("universal:128", 16), (8, 4), (8, 1))
    assert copy.partition_S((64, 4), 3) == copy.partition_S(Layout((64, 4)), 3)
    assert copy.get_slice(3).partition_D((64, 4)) == copy.partition_D(Layout((64, 4)), 3)
    with pytest.raises(TypeError, match="a tensor is a Layout, a View .a tile., its notation or"):
        mma.partition_C(2.5, 0)


@pytest.mark.parametrize("op, dtype, bits, name", [
    (nvgpu.CopyUniversalOp(), "f16", 128, "UniversalCopy<uint128_t>"),
    (nvgpu.CopyUniversalOp(), "Float32", None, "UniversalCopy<uint32_t>"),
    (nvgpu.cpasync.CopyG2SOp(), "bf16", 64, "SM80_CP_ASYNC_CACHEALWAYS<uint64_t>"),
    (nvgpu.cpasync.CopyG2SOp(cache_mode="global"), "half_t", 128,
     "SM80_CP_ASYNC_CACHEGLOBAL<uint128_t>"),
    (nvgpu.warp.LdMatrix8x8x16bOp(False, 4), "f16", None, "SM75_U32x4_LDSM_N"),
    (nvgpu.warp.LdMatrix8x8x16bOp(transpose=True, num_matrices=2), 16, None, "SM75_U16x4_LDSM_T"),
    (nvgpu.warp.StMatrix8x8x16bOp(True, 4), "float16", None, "SM90_U16x8_STSM_T"),
    ("SM75_U32x2_LDSM_N", "f16", None, "SM75_U32x2_LDSM_N"),
])
def test_make_copy_atom_is_the_cpp_atom(op, dtype, bits, name):
    atom = tessera.make_copy_atom(op, dtype, num_bits_per_copy=bits)
    assert atom.name == name
    elem_bits = tessera.nvgpu.element_bits(dtype)
    same = tessera.CopyAtom(name, elem_bits)
    assert atom.elem_bits == elem_bits
    assert (atom.layout_src_tv, atom.layout_dst_tv, atom.layout_ref_tv) == \
        (same.layout_src_tv, same.layout_dst_tv, same.layout_ref_tv)


def test_make_copy_atom_reads_cute_dsl_types():
    class Float16:  # a CuTe DSL numeric type: its width in bits
        width = 16
    atom = tessera.make_copy_atom(nvgpu.CopyUniversalOp(), Float16, num_bits_per_copy=64)
    assert (atom.name, atom.elem_bits) == ("UniversalCopy<uint64_t>", 16)
    assert str(atom.layout_src_tv) == "(1,4):(0,1)"


def test_make_copy_atom_layouts():
    # 128 bits of f16: one thread, 8 values; ldmatrix.x4: 32 threads, 8 halves each.
    assert str(tessera.make_copy_atom(nvgpu.CopyUniversalOp(), "f16", num_bits_per_copy=128)
               .layout_src_tv) == "(1,8):(0,1)"
    ld = tessera.make_copy_atom(nvgpu.warp.LdMatrix8x8x16bOp(num_matrices=4), "f16")
    assert str(ld.layout_src_tv) == "(32,8):(8,1)"
    assert str(ld.layout_dst_tv) == "(32,(2,4)):(2,(1,64))"
    copy = tessera.make_tiled_copy_tv(ld, (32, 1), (1, 8))
    assert copy.size() == 32


def test_make_copy_atom_errors():
    with pytest.raises(tessera.Error, match="CopyG2SOp needs num_bits_per_copy=32, 64 or 128"):
        tessera.make_copy_atom(nvgpu.cpasync.CopyG2SOp(), "f16")
    with pytest.raises(tessera.Error, match="num_matrices 3: expected 1, 2 or 4"):
        tessera.make_copy_atom(nvgpu.warp.LdMatrix8x8x16bOp(num_matrices=3), "f16")
    with pytest.raises(tessera.Error, match="moves 8, 16, 32, 64 or 128 bits per copy, not 96"):
        tessera.make_copy_atom(nvgpu.CopyUniversalOp(), "f16", num_bits_per_copy=96)
    with pytest.raises(tessera.Error, match="element type 'complex'"):
        tessera.make_copy_atom(nvgpu.CopyUniversalOp(), "complex")
    with pytest.raises(TypeError, match="num_bits_per_copy= is not one of its arguments"):
        tessera.make_copy_atom(nvgpu.warp.LdMatrix8x8x16bOp(), "f16", num_bits_per_copy=128)
    with pytest.raises(TypeError, match="op is a tessera.nvgpu operation"):
        tessera.make_copy_atom(42, "f16")


def test_partition_of_a_tile_keeps_its_offset():
    # thr_mma.partition_C(gC), as the CuTe DSL writes it: the tile's offset carries over, and the
    # threads' parts of CTA (1,0)'s tile cover exactly that tile's elements of the tensor.
    mma = tessera.presets.step1()
    mC = Layout("(256,128):(128,1)")
    gC = tessera.local_tile(mC, (128, 128, 8), (1, 0, None), proj=(1, 1, None))
    assert gC.offset == 128 * 128
    part = mma.get_slice(0).partition_C(gC)
    assert part.offset == gC.offset + mma.partition_C(gC.layout, 0).offset
    assert part.layout == mma.partition_C(gC.layout, 0).layout
    owned = sorted(mma.partition_C(gC, t)(i) for t in range(mma.size())
                   for i in range(mma.partition_C(gC, t).size()))
    assert owned == sorted(gC(i) for i in range(gC.size()))
    copy = tessera.make_tiled_copy_tv(tessera.CopyAtom("universal:128", 32), (32, 8), (4, 1))
    assert copy.get_slice(3).partition_S(gC).offset == \
        gC.offset + copy.partition_S(gC.layout, 3).offset


def test_local_tile_of_a_tile_keeps_its_offset():
    mC = Layout("(256,128):(128,1)")
    gC = tessera.local_tile(mC, (128, 128), (1, 0))
    assert (gC.offset, str(gC.layout)) == (128 * 128, "(128,128):(128,1)")
    sub = tessera.local_tile(gC, (32, 64), (2, 1))  # rows 64.., columns 64.. of the tile
    assert sub.offset == gC.offset + 64 * 128 + 64
    assert [sub(i) for i in range(sub.size())] == \
        [mC(128 + 64 + r, 64 + c) for c in range(64) for r in range(32)]


def swizzled_values():
    """Sw<3,4,3> o 0 o (8,64):(64,1) by hand: the offset of index i is (i mod 8)*64 + i div 8,
    then bits [7,10) are XORed into bits [4,7)."""
    out = []
    for i in range(512):
        o = (i % 8) * 64 + i // 8
        out.append(o ^ ((o >> 3) & 0b1110000))
    return out


@pytest.mark.parametrize("spelled", ["Sw<3,4,3> o _0 o (8,64):(64,1)",
                                     "Sw<3,4,3> o (8,64):(64,1)",
                                     "Sw<3,4,3> o _0 o (_8,_64):(_64,_1)"])
def test_cutes_printed_swizzle_reads_as_the_swizzled_layout(spelled):
    S = tessera.SwizzledLayout(spelled)
    assert str(S) == "Sw<3,4,3> o 0 o (8,64):(64,1)"
    assert [S(i) for i in range(512)] == swizzled_values()
    assert S == tessera.SwizzledLayout("Sw<3,4,3> o 0 o (8,64):(64,1)")
    # make_layout and the ops take the printed form where a swizzled layout is an argument.
    assert tessera.make_layout(spelled) == S
    assert str(tessera.composition(spelled, (4, 8))) == "Sw<3,4,3> o 0 o (4,8):(64,1)"
    assert tessera.logical_divide(spelled, (2, 8)) == tessera.logical_divide(S, (2, 8))
    assert tessera.size(spelled) == 512
    # A Layout is plain: the swizzled spelling is refused with a message that says where it goes.
    with pytest.raises(tessera.Error, match=r"is a swizzled layout .*SwizzledLayout\("):
        Layout(spelled)
