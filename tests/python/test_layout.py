"""The Layout value from Python: construction, notation round trips, evaluation, modes, equality,
hashing, pickling, and tilers with None."""
import pickle
import random

import tessera
from tessera import Layout


def random_layout(rng, depth=2):
    def shape(d):
        if d == 0 or rng.random() < 0.5:
            return rng.randint(1, 6)
        return tuple(shape(d - 1) for _ in range(rng.randint(1, 3)))

    def stride_like(s):
        return rng.randint(-3, 40) if isinstance(s, int) else tuple(stride_like(x) for x in s)

    s = shape(depth)
    return Layout(s, stride_like(s))


def test_construction_forms():
    a = Layout("(4,3):(1,8)")
    assert a == Layout((4, 3), (1, 8)) == Layout([4, 3], [1, 8]) == \
        tessera.make_layout((4, 3), (1, 8))
    assert str(Layout((4, (3, 2)))) == "(4,(3,2)):(1,(4,12))"  # compact column-major
    assert str(Layout("(4,3)")) == "(4,3):(1,4)"
    assert str(Layout(8)) == "8:1" and str(Layout((8,))) == "(8):(1)"
    assert (a.shape, a.stride) == ((4, 3), (1, 8))
    assert (a.size(), a.cosize(), a.rank(), a.depth(), len(a)) == (12, 20, 2, 1, 2)
    assert (tessera.size(a), tessera.cosize(a), tessera.rank(a), tessera.depth(a)) == (12, 20, 2, 1)
    assert tessera.size((2, (3, 4))) == 24 and tessera.depth((2, (3, 4))) == 2
    assert repr(a) == 'Layout("(4,3):(1,8)")'


def test_evaluation():
    L = Layout("(4,(3,2)):(2,(8,1))")
    assert (L(0), L(1), L(4), L(12), L(3, (1, 1)), L((3, (1, 1)))) == (0, 2, 8, 1, 15, 15)
    assert tessera.crd2idx((3, (1, 1)), L) == 15 == \
        tessera.crd2idx((3, (1, 1)), (4, (3, 2)), (2, (8, 1)))
    assert tessera.idx2crd(7, (3, (2, 4))) == (1, (0, 1))
    assert tessera.idx2crd(8, (4, (1, 6))) == (0, (0, 2))
    assert str(L[1]) == "(3,2):(8,1)" and str(L[-1]) == "(3,2):(8,1)" and str(L[0]) == "4:2"
    assert [str(m) for m in L] == ["4:2", "(3,2):(8,1)"]


def test_round_trips_and_identity():
    rng = random.Random(18)
    seen = set()
    for _ in range(2000):
        L = random_layout(rng)
        text = str(L)
        again = Layout(text)
        assert again == L and hash(again) == hash(L) and str(again) == text
        assert pickle.loads(pickle.dumps(L)) == L
        assert eval(repr(L), {"Layout": Layout}) == L
        assert Layout(L.shape, L.stride) == L
        seen.add(L)
    assert len(seen) > 1000  # hashing tells different layouts apart
    assert Layout("(4,3):(1,8)") != Layout("(4,3):(1,4)")
    assert (Layout("4:1") == "4:1") is False


def test_flat_functions_agree_with_brute_force():
    rng = random.Random(7)
    for _ in range(500):
        L = random_layout(rng)
        n = L.size()
        image = [L(i) for i in range(n)]
        assert [tessera.coalesce(L)(i) for i in range(n)] == image
        assert [tessera.flatten(L)(i) for i in range(n)] == image
        assert L.cosize() == image[-1] + 1


def test_none_in_tilers():
    A = Layout("(9,(4,8)):(59,(13,1))")
    assert str(tessera.zipped_divide(A, (Layout("3:3"), Layout("(2,4):(1,8)")))) == \
        str(tessera.zipped_divide(A, "(3:3,(2,4):(1,8))"))
    B = Layout("(8,6,4):(1,8,48)")
    assert str(tessera.logical_divide(B, (2, None, 2))) == str(tessera.logical_divide(B, "(2,_,2)"))
    assert str(tessera.logical_divide(B, (2, None, 2))) == "((2,4),6,(2,2)):((1,2),8,(48,96))"
    assert str(tessera.composition(B, (Layout("4:2"), None))) == "(4,6,4):(2,8,48)"


def test_swizzled_layouts():
    s = tessera.SwizzledLayout("Sw<3,4,3> o 0 o (8,64):(64,1)")
    assert str(s) == "Sw<3,4,3> o 0 o (8,64):(64,1)"
    assert s == tessera.ComposedLayout(tessera.Swizzle(3, 4, 3), 0, "(8,64):(64,1)")
    assert s(2) == 144 and s.size() == 512
    tile = tessera.logical_divide(s, (2, 8))
    assert isinstance(tile, tessera.SwizzledLayout) and str(tile.swizzle) == "Sw<3,4,3>"
    assert tessera.Swizzle("Sw<2,3,3>") == tessera.make_swizzle(2, 3, 3)


def test_modes_and_views():
    assert str(tessera.make_layout_modes(Layout("4:1"), "3:4")) == "(4,3):(1,4)"
    assert tessera.View(3, "(2,2):(1,4)") == tessera.View(3, Layout("(2,2):(1,4)"))
    assert tessera.View(3, "(2,2):(1,4)")(3) == 8 and (tessera.View() == 3) is False
