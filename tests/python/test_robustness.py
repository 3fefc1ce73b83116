"""Random and malformed arguments through the whole API: every call returns or raises tessera.Error
/
TypeError / IndexError, never crashes the interpreter (a crash fails the run). Zero, negative and
huge extents and strides, empty and deep tuples, None and "_" where tilers take them."""
import random

import tessera as ts

EXPECTED = (ts.Error, TypeError, IndexError, OverflowError)


def test_random_arguments_never_crash():
    rng = random.Random(18)

    def rint():
        return rng.choice([0, 1, 2, 3, 4, 6, 8, 16, -1, -3, 2**40, 2**62])

    def rtuple(depth=2):
        if depth == 0 or rng.random() < 0.5:
            return rint()
        return tuple(rtuple(depth - 1) for _ in range(rng.randint(0, 3)))

    unary = [ts.coalesce, ts.filter, ts.right_inverse, ts.left_inverse, ts.flatten, ts.cosize,
             ts.size, ts.rank,
             ts.depth, ts.Layout.to_svg]
    binary = [ts.composition, ts.logical_divide, ts.zipped_divide, ts.tiled_divide, ts.flat_divide,
              ts.logical_product, ts.zipped_product, ts.tiled_product, ts.flat_product,
              ts.blocked_product,
              ts.raked_product, ts.complement, ts.coalesce]
    calls = 0
    for _ in range(8000):
        try:
            a = ts.Layout(rtuple(), rtuple())
        except EXPECTED:
            a = ts.Layout("(4,3):(1,8)")
        b = rng.choice([rtuple(), rint(), (None, rint()), "(2,_)", "_", a, ts.Swizzle(2, 3, 3), 1.5,
                        [rint(), None]])
        try:
            f = rng.choice(unary + binary + ["call", "crd2idx", "idx2crd", "tile"])
            if f == "call":
                c = rtuple(1)
                a(*c) if isinstance(c, tuple) else a(c)
            elif f == "crd2idx":
                ts.crd2idx(rtuple(), a)
            elif f == "idx2crd":
                ts.idx2crd(rint(), rtuple())
            elif f == "tile":
                ts.local_tile(a, rtuple(1), (rint(), None), proj=rng.choice([None, (1, None)]))
            elif f in unary:
                f(a)
            else:
                f(a, b)
            calls += 1
        except EXPECTED:
            pass
    assert calls > 1000  # most calls are valid: the run exercises the algebra, not only the checks
