"""TiledMMA / TiledCopy from Python: the CLI's explain and analyze text, thread slices, and the
pictures (the page of `tessera render`, inline; the SVG)."""
import json
import os
import re
import subprocess

import pytest

import tessera
from tessera import Layout
from conftest import REPO


def test_explain_matches_the_partition():
    mma = tessera.presets.step1()
    for op, tensor in (("C", "(128,128):(128,1)"), ("A", "(128,8):(1,128)"),
                       ("B", "(128,8):(1,128)")):
        for t in (0, 5, 200):
            e = mma.explain(op, t)
            v = mma.partition(op, Layout(tensor), t)
            assert (e.offset, e.fragment) == (v.offset, v.layout)
            assert str(e).startswith(
                f"{op} ") and f"=> offset {v.offset}, fragment {v.layout}" in str(e)
    # A tensor given to explain replaces the configuration's.
    e = tessera.explain(mma, "C", 0, tensor=Layout("(128,128):(1,128)"))
    assert str(e.fragment) == "(1,(4,2),(4,2)):(0,(1,64),(128,8192))"


def test_get_slice_and_presets():
    mma = tessera.presets.step4()
    assert mma.tile_mnk == (128, 128, 32) and mma.size() == 128
    assert "step 4 kernel" in mma.name and "seed" not in mma.name
    thr = mma.get_slice(37)
    assert thr.partition_A(mma.tensor("A")) == mma.partition_A(mma.tensor("A"), 37)
    assert mma.thread_vmnk(37) == (5, 1, 0, 0)
    assert mma.with_tensors(C=Layout("(128,128):(1,128)")).tensor("C") == Layout(
        "(128,128):(1,128)")
    thread, frag = mma.partitioner("C", Layout("(128,128):(128,1)"))
    for t in (0, 37, 127):
        assert thread(t) == mma.partition_C(Layout("(128,128):(128,1)"), t).offset


def test_tiled_mma_own_tile():
    mma = tessera.make_tiled_mma(tessera.MmaAtom("SM80_16x8x16_F32F16F16F32_TN"), (2, 2, 1),
                                 (32, 32, 16))
    assert mma.tile_mnk == (32, 32, 16) and mma.atom.shape_mnk == (16, 8, 16)


def test_catalog_atoms():
    # Any atom of `tessera atoms`, by CuTe's name.
    a = tessera.MmaAtom("SM80_8x8x4_F64F64F64F64_TN")
    assert a.shape_mnk == (8, 8, 4) and str(a.layout_c_tv) == "((4,8),2):((16,1),8)"
    assert tessera.make_tiled_mma(a, (2, 2, 1)).tile_mnk == (16, 16, 4)
    rs = tessera.make_tiled_mma("SM90_64x24x16_F32BF16BF16_RS", (1, 1, 1))
    assert rs.tile_mnk == (64, 24, 16)
    # FP8 wgmma (the kernels' atom and the catalog's other formats): CuTe's 8-bit RS A layout.
    for name in ("SM90_64x128x32_F32E4M3E4M3_RS_TN", "SM90_64x128x32_F32E5M2E4M3_RS_TN"):
        f8 = tessera.MmaAtom(name)
        assert f8.shape_mnk == (64, 128, 32)
        assert str(f8.layout_a_tv) == "((4,8,4),(4,2,2)):((256,1,16),(64,8,1024))"
        assert str(f8.layout_b_tv) == "(128,(128,32)):(0,(1,128))"
    c = tessera.CopyAtom("SM90_U16x8_STSM_T", 16)
    assert str(c.layout_dst_tv) == "(32,8):(8,1)"
    with pytest.raises(Exception, match="close names: SM80_8x8x4_F64F64F64F64_TN"):
        tessera.MmaAtom("SM80_8x8x4_F64F64F64F65_TN")


def test_analyze_text_and_fields():
    mma = tessera.presets.step4()
    r = tessera.analyze(mma, "A", space="shared")
    assert r["elem_bits"] == 16 and r["access"] == "load" and r["space"] == "shared"
    assert str(r).splitlines()[0].strip().startswith("128 threads = 4 warps")
    fixed = tessera.analyze(mma, "A", space="shared", swizzle="Sw<3,3,3>")
    assert fixed["shared"]["bank_conflicts"] <= r["shared"]["bank_conflicts"]
    copy = tessera.make_tiled_copy_tv(tessera.CopyAtom("cp_async:16"), Layout("(32,8):(1,32)"),
                                      (4, 1))
    assert copy.analyze("D")["vector_bits"] == 128


def test_tiled_copy():
    atom = tessera.CopyAtom("cp_async:16")
    copy = tessera.make_tiled_copy_tv(atom, Layout("(32,8):(1,32)"), (4, 1))
    assert str(copy.layout_tv) == "(256,4):(4,1)"
    assert copy.tiler_mn == (128, 8) and copy.size() == 256
    assert str(copy.get_slice(1).partition_S(Layout("(128,8)"))) == "4 + ((4,1),1,1):((1,0),0,0)"
    ldsm = tessera.make_tiled_copy_A(tessera.CopyAtom("ldmatrix:x4", 16), tessera.presets.step4())
    tCrA = Layout("((2,2,2),4,2):((1,2,4),16,8)")
    assert str(ldsm.get_slice(0).retile_D(tCrA)) == "((8,1),4,2):((1,0),16,8)"


def page_state(html):
    """The state a page's inputs start with."""
    return json.loads(re.search(r'id="tessera-state">(.*?)</script>', html, re.S).group(1))


def strip_state(html):
    return re.sub(r'(id="tessera-state">).*?(</script>)', r"\1\2", html, flags=re.S)


def page_data(html):
    """The JSON a page embeds (every number it shows)."""
    return json.loads(re.search(r'id="tessera-data">(.*?)</script>', html, re.S).group(1))


def test_pages_are_the_cli_page():
    L = Layout("(4,3):(1,8)")
    page = tessera.render(L)
    assert page.startswith("<!doctype html>") and "src=\"http" not in page
    # The notebook picture: static SVG that says so (test_pictures.py checks it closely).
    frame = L._repr_html_()
    assert "<iframe" not in frame and "Static picture" in frame and "<svg" in frame
    mma = tessera.presets.step1()
    page = mma.to_html(thread=18)
    assert page_data(page)["initial_thread"] == 18
    assert "the step 1 kernel" in page
    copy = tessera.make_tiled_copy_tv(tessera.CopyAtom("cp_async:16"), Layout("(32,8):(1,32)"),
                                      (4, 1))
    assert "SM80_CP_ASYNC_CACHEALWAYS" in copy._repr_html_()
    # A layout too large for a picture, a copy made from a TiledMMA: no picture, the text repr.
    assert Layout(1 << 20)._repr_html_() is None
    assert tessera.make_tiled_copy_C(tessera.CopyAtom("universal:128"), mma)._repr_html_() is None


def test_same_page_as_the_cli(tmp_path):
    cli = REPO / "build" / "tools" / "tessera"
    if not cli.exists():
        pytest.skip(f"SKIPPED: the CLI is not built at {cli} (scripts/test.sh builds it first)")
    cases = [(["--layout", "(8,8):(8,1)"], Layout("(8,8):(8,1)")),
             (["--preset", "step1", "--thread", "18"], tessera.presets.step1()),
             (["--copy", "cp_async:16", "--thr", "(32,8):(1,32)", "--val", "(4,1):(1,4)"],
              tessera.make_tiled_copy_tv(tessera.CopyAtom("cp_async:16"), Layout("(32,8):(1,32)"),
                                         Layout("(4,1)")))]
    for args, obj in cases:
        out = tmp_path / "page.html"
        # The CLI's static page (without the playground's WebAssembly, which the package does not
        # carry).
        env = dict(os.environ, TESSERA_WASM_JS=str(tmp_path / "no_wasm.js"))
        subprocess.run([str(cli), "render", *args, "-o", str(out)], check=True, capture_output=True,
                       env=env)
        want = out.read_text()
        got = tessera.render(obj, thread=18 if "--thread" in args else None)
        if isinstance(obj, tessera.TiledMMA):  # the Python preset's own name for the configuration
            cli_name = page_data(want)["name"]
            want = want.replace(cli_name, obj.name)
        # The inputs' starting state names the object as each side knows it (the CLI a preset,
        # Python
        # the atom, atom layout, permutation and tile); the page, its data and its code are the
        # same.
        assert page_state(got)["kind"] == page_state(want)["kind"], args
        assert strip_state(got) == strip_state(want), args


def test_svg():
    def cells_of(svg):  # the grid's cells (not the legend's swatches)
        return re.search(r'<g class="cells"[^>]*>(.*?)</g>', svg, re.S).group(1)
    svg = Layout("(4,3):(1,8)").to_svg()
    assert svg.startswith("<svg") and cells_of(svg).count("<rect") == 12
    cells = re.findall(r">(\d+)</text>", cells_of(svg))
    assert "19" in cells  # L(3,2) = 3 + 16
    svg = tessera.presets.step1().to_svg("A")
    assert cells_of(svg).count("<rect") == 128 * 8 and ">T0</text>" in svg
    # One thread: its 64 cells of C at rows and columns {0..3, 64..67}, numbered 0..63.
    one = tessera.presets.step1().to_svg("C", thread=0)
    cells = re.findall(r'<rect x="(\d+)" y="(\d+)" width="12" height="12"', one)
    assert sorted({int(y) // 12 for _, y in cells}) == [0, 1, 2, 3, 64, 65, 66, 67]
    assert sorted({int(x) // 12 for x, _ in cells}) == [0, 1, 2, 3, 64, 65, 66, 67]
    assert "thread 0, 0 + (1,(4,2),(4,2)):(0,(128,8192),(1,64))" in one
    with pytest.raises(tessera.Error, match="thread 256"):
        tessera.presets.step1().to_svg("C", thread=256)
    with pytest.raises(tessera.Error, match="operand 'X'"):
        tessera.presets.step1().to_svg("X")
