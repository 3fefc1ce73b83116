"""Every case of NVIDIA's CuTe oracle (../shared/oracle) through the Python API: the function (its
image at every index), the exact printed notation (pycute's or C++'s form), and the rejections."""
import pytest

import tessera
from conftest import notation, oracle_cases


def tiler_entry(e):
    e = str(e)
    return tessera.Layout(e) if ":" in e else tessera.parse_int_tuple(e)


def tiler(a):
    """The oracle's tiler argument as the Python API takes it: a Layout, an int or shape tuple, or a
    tuple of entries with None for `_`."""
    if isinstance(a, list):
        return tuple(None if e == "_" else tiler_entry(e) for e in a)
    return tiler_entry(a)


def layout(a):
    return tessera.Layout(str(a))


def run(op, args):
    """(printed result, image or None) of one oracle case through the public functions."""
    if op in ("size", "cosize", "rank", "depth"):
        return str(getattr(tessera, op)(layout(args[0]))), None
    if op == "crd2idx":
        return str(tessera.crd2idx(tessera.parse_int_tuple(str(args[0])), layout(args[1]))), None
    if op == "idx2crd":
        return notation(tessera.idx2crd(int(args[0]), tessera.parse_int_tuple(str(args[1])))), None
    if op == "swizzle":
        sw = tessera.Swizzle(*args)
        return str(sw), [sw(i) for i in range(sw.span())]
    if op == "swizzle_layout":
        r = tessera.make_composed_layout(tessera.Swizzle(*args[0]), 0, layout(args[1]))
    elif op == "coalesce":
        r = tessera.coalesce(layout(args[0]), *(tessera.parse_int_tuple(str(p)) for p in args[1:]))
    elif op == "complement":
        r = tessera.complement(layout(args[0]),
                               *(tessera.parse_int_tuple(str(c)) for c in args[1:]))
    elif op in ("filter", "right_inverse", "left_inverse"):
        r = getattr(tessera, op)(layout(args[0]))
    elif op in ("blocked_product", "raked_product"):
        r = getattr(tessera, op)(layout(args[0]), layout(args[1]))
    else:  # composition and the divides and products: A and a tiler
        r = getattr(tessera, op)(layout(args[0]), tiler(args[1]))
    return str(r), [r(i) for i in range(r.size())]


def noted(c):
    """pycute and C++ disagree (the case's note): tessera follows CuTe's C++, and either side is
    accepted as the oracle's README allows (the same rule as tests/oracle_batch.py); the exact C++
    answers are checked by the C++ test of NVIDIA's cases (tests/test_cute_cpp.cpp). Returns
    "rejected", "computed" or None (neither side's answer)."""
    note = c["note"]
    try:
        _, image = run(c["op"], c["args"])
    except tessera.Error:
        return "rejected" if c["error"] or "fails to compile" in note else None
    if c["error"] or "fails to compile" in note or image == c["image"]:
        return "computed"
    at = note.find("C++ gives ")
    if at < 0:
        return None
    cpp = tessera.Layout(note[at + 10:note.index(". ", at)])
    return "computed" if image == [cpp(i) for i in range(cpp.size())] else None


def test_layout_cases():
    cases = oracle_cases("layout_cases.json")
    failures, rejected, as_cpp = [], 0, 0
    for c in cases:
        where = f"{c['id']}: {c['op']}{c['args']}"
        if "note" in c:
            verdict = noted(c)
            if verdict is None:
                failures.append(f"{where} is neither pycute's nor C++'s answer")
            rejected += verdict == "rejected"
            continue
        if c["error"]:
            try:
                got = run(c["op"], c["args"])
                failures.append(f"{where} must be rejected, got {got[0]}")
            except tessera.Error:
                rejected += 1
            continue
        try:
            printed, image = run(c["op"], c["args"])
        except tessera.Error as e:
            failures.append(f"{where} rejected: {e}")
            continue
        if c["image"] is not None and image != c["image"]:
            failures.append(f"{where}: image of {printed} differs from {c['result']}")
        elif printed not in (c["result"], c.get("cpp_result")):
            failures.append(f"{where}: printed {printed}, expected {c['result']}")
        as_cpp += printed != c["result"]
    assert not failures, "\n".join(failures[:30])
    assert len(cases) > 1400 and rejected > 40
    print(f"{len(cases)} oracle cases through the Python API, {rejected} rejected as required, "
          f"{as_cpp} printed in C++'s form")


@pytest.mark.parametrize("operand", ["C", "A", "B"])
def test_tiledmma_cases(operand):
    """Every thread's coordinates of every fragment element, and thread 0's fragment."""
    for c in oracle_cases("tiledmma_cases.json"):
        perm = c["permutation"]
        if perm == "none":
            perm = None
        else:
            perm = perm.replace("M=", "").replace("N=", "").replace("K=", "")
        mma = tessera.make_tiled_mma(c["atom"], c["atom_layout"], perm, tile=c["tile_mnk"])
        m, n, k = c["tile_mnk"]
        rows, cols = {"C": (m, n), "A": (m, k), "B": (n, k)}[operand]
        tile = tessera.Layout((rows, cols))
        coords = []
        for t in range(mma.size()):
            v = mma.partition(operand, tile, t)
            coords.append([list(tessera.idx2crd(v(i), (rows, cols))) for i in range(v.size())])
        assert coords == c[operand]["coords"], f"{c['id']} {operand}: thread coordinates differ"
        want = c[operand]["thread0_fragment"]
        got = mma.partition(operand, tessera.Layout(c[operand]["tensor_layout"]), 0).layout
        want_layout = tessera.Layout(want)
        same_function = [got(i) for i in range(got.size())] == \
            [want_layout(i) for i in range(got.size())]
        assert str(got) == want or (same_function and got.size() == tessera.Layout(want).size()), \
            f"{c['id']} {operand}: thread 0 fragment {got} is not {want}"
