"""Differential test against `tensor-layouts` (PyPI), on thousands of random layouts, for the ops
both libraries have. Where the two disagree, the reference is CuTe's C++: each disagreement is
checked against the op's definition evaluated by brute force (every offset, through nothing but
layout evaluation), so a wrong tessera result fails the test whatever tensor-layouts says:

  composition     R(i) = A(B(i))                                  (mode by mode for a tuple tiler)
  logical_divide  R(i) = A(T(i)),  T = (B, complement(B, size A))
  logical_product R(a + |A| b) = A(a) + C(B(b)),  C = complement(A, size A * cosize B)
  zipped / tiled / flat variants, blocked / raked products: the same offsets regrouped
  left_inverse    R(A(i)) = i for injective A (not unique: both results are checked)

A rejection by tessera must name CuTe's rule (the divisibility conditions CuTe's C++ asserts).
The counts per op and category are printed; docs/python.md lists what they showed."""
import collections
import itertools
import random

import pytest

import tessera as ts

tl = pytest.importorskip("tensor_layouts",
                         reason="SKIPPED: tensor-layouts is not installed (pip install "
                         "tensor-layouts)")

CASES = 3000
TILER_OPS = ["composition", "logical_divide", "zipped_divide", "tiled_divide", "flat_divide",
             "logical_product",
             "zipped_product", "tiled_product", "flat_product"]
OPS = ["coalesce", "complement", "right_inverse", "left_inverse", "blocked_product",
       "raked_product"] + TILER_OPS


class Gen:
    """Random layouts: nested shapes of small extents, strides a shuffled compact layout with
    occasional gaps and broadcast (0) modes, so most ops are defined and some are not."""

    def __init__(self, seed):
        self.rng = random.Random(seed)

    def shape(self, depth):
        if depth == 0 or self.rng.random() < 0.55:
            return self.rng.choice([1, 2, 2, 3, 4, 4, 6, 8])
        return tuple(self.shape(depth - 1) for _ in range(self.rng.randint(1, 3)))

    def layout(self, depth=2):
        s = self.shape(depth)
        leaves = list(_leaves(s))
        order = list(range(len(leaves)))
        self.rng.shuffle(order)
        strides, p = [0] * len(leaves), 1
        for i in order:
            r = self.rng.random()
            if r >= 0.1:
                if r < 0.25:
                    p *= self.rng.choice([2, 3])
                strides[i] = p
                p *= leaves[i]
        it = iter(strides)
        return s, _rebuild(s, it)

    def case(self):
        op = self.rng.choice(OPS)
        a = self.layout()
        b = None
        if op == "complement":
            c = ts.Layout(*a).cosize()
            b = self.rng.choice([1, c, c * self.rng.choice([2, 3, 4]), self.rng.randint(1, 64)])
        elif op in ("blocked_product", "raked_product"):
            b = self.layout(1)
        elif op in TILER_OPS:
            if self.rng.random() < 0.5:
                b = self.layout(1)
            else:
                rank = len(a[0]) if isinstance(a[0], tuple) else 1
                # entries: layouts, or integers n meaning n:1 (a shape tiler, as CuTe reads one)
                b = [self.layout(0) if self.rng.random() < 0.7 else self.rng.choice([1, 2, 3, 4, 8])
                     for _ in range(self.rng.randint(1, rank))]
        return op, a, b


def _leaves(s):
    if isinstance(s, int):
        yield s
    else:
        for e in s:
            yield from _leaves(e)


def _rebuild(s, it):
    return next(it) if isinstance(s, int) else tuple(_rebuild(e, it) for e in s)


def _unwrap(x):
    """tensor-layouts writes a one-element tuple (x) as x; CuTe (and tessera) keep it."""
    if isinstance(x, tuple):
        x = tuple(_unwrap(e) for e in x)
        return x[0] if len(x) == 1 else x
    return x


def call(lib, op, a, b):
    L = lib.Layout(*a)
    if op in ("coalesce", "right_inverse", "left_inverse"):
        return getattr(lib, op)(L)
    if op == "complement":
        return lib.complement(L, b)
    if op in ("blocked_product", "raked_product"):
        return getattr(lib, op)(L, lib.Layout(*b))
    t = lib.Layout(*b) if isinstance(b, tuple) else tuple(_entry(lib, e) for e in b)
    if op == "composition":
        return ts.composition(L, t) if lib is ts else tl.compose(L, t)
    return getattr(lib, op)(L, t)


def _entry(lib, e):
    return lib.Layout(*e) if isinstance(e, tuple) else e


def _entry_layout(e):
    return ts.Layout(*e) if isinstance(e, tuple) else ts.Layout(e, 1)


def image(L):
    return [L(i) for i in range(L.size() if isinstance(L, ts.Layout) else tl.size(L))]


# ---- the definitions, by brute force
# --------------------------------------------------------------

# Set when a definition evaluates a layout past its domain (B reaching past the end of A): the
# definition does not decide those cases (CuTe's C++ and pycute differ there; the oracle's notes).
_past_end = [False]


def at(L, x):
    if not 0 <= x < L.size():
        _past_end[0] = True
        return ts.crd2idx(x, L)  # CuTe's linear extension (calling L checks its domain)
    return L(x)


def compose_image(A, B):
    return [at(A, B(i)) for i in range(B.size())]


def divide_image(A, B):
    T = ts.make_layout_modes(B, ts.complement(B, A.size()))
    return compose_image(A, T)


def product_image(A, B):
    C = ts.complement(A, A.size() * B.cosize())
    return [A(a) + at(C, B(b)) for b in range(B.size()) for a in range(A.size())]


def by_mode_images(f, A, tiler):
    """Per mode of A: f(mode, tiler entry), or the mode itself past the tiler."""
    return [f(A[k], tiler[k]) if k < len(tiler) else image(A[k]) for k in range(A.rank())]


def definition(op, a, b):
    """(exact image or None, sorted image): what the op must compute, by brute force."""
    A = ts.Layout(*a)
    if op in ("blocked_product", "raked_product"):
        return None, sorted(product_image(A, ts.Layout(*b)))
    base = "divide" if "divide" in op else "product" if "product" in op else "composition"
    f = {"divide": divide_image, "product": product_image, "composition": compose_image}[base]
    if isinstance(b, tuple):  # a single layout tiler: the whole of A
        img = f(A, ts.Layout(*b))
        return (img if op in ("composition", "logical_divide", "logical_product")
                else None), sorted(img)
    modes = by_mode_images(f, A, [_entry_layout(e) for e in b])
    total = sorted(sum(x) for x in itertools.product(*modes))
    return None, total


def satisfies(op, a, b, R):
    """Whether a result (either library's) is the op's function; None where the definition reads
    a layout past its end (undecided)."""
    _past_end[0] = False
    ok = _satisfies(op, a, b, R)
    return None if _past_end[0] else ok


def _satisfies(op, a, b, R):
    if op == "left_inverse":
        A = ts.Layout(*a)
        return all(R(A(i)) == i for i in range(A.size()))
    exact, total = definition(op, a, b)
    if op in ("composition", "logical_divide", "logical_product") and isinstance(b, list):
        A = ts.Layout(*a)
        f = {"composition": compose_image, "logical_divide": divide_image,
             "logical_product": product_image}[op]
        want = by_mode_images(f, A, [_entry_layout(e) for e in b])
        rank = R.rank() if isinstance(R, ts.Layout) else tl.rank(R)
        return rank == A.rank() and all(image(_mode(R, k)) == want[k] for k in range(A.rank()))
    if op in ("zipped_divide", "tiled_divide", "flat_divide") and isinstance(b, list):
        # The tiles keep their own mode: tile k is mode k of A composed with entry k of the tiler.
        A = ts.Layout(*a)
        tiles = R if op == "flat_divide" else _mode(R, 0)
        if len(b) > 1 or op == "flat_divide" or isinstance(R, ts.Layout):
            for k, e in enumerate(b):
                if image(_mode(tiles, k)) != compose_image(A[k], _entry_layout(e)):
                    return False
    got = image(R)
    return got == exact if exact is not None else sorted(got) == total


def _mode(R, k):
    return R[k] if isinstance(R, ts.Layout) else tl.mode(R, k)


def injective(a):
    img = image(ts.Layout(*a))
    return len(set(img)) == len(img)


def test_against_tensor_layouts():
    gen = Gen(2026)
    counts = collections.defaultdict(collections.Counter)
    examples = {}
    for _ in range(CASES):
        op, a, b = gen.case()
        got = {}
        for name, lib in (("tessera", ts), ("tensor-layouts", tl)):
            try:
                got[name] = call(lib, op, a, b)
            except Exception as e:  # noqa: BLE001 (tensor-layouts raises several types)
                got[name] = e
        t, o = got["tessera"], got["tensor-layouts"]
        t_ok, o_ok = not isinstance(t, Exception), not isinstance(o, Exception)
        if t_ok:
            assert isinstance(t, ts.Layout), f"{op}{a, b}: {t!r}"
        else:
            assert isinstance(t, ts.Error), f"{op}{a, b}: tessera raised {type(t).__name__}: {t}"
        if not t_ok and not o_ok:
            cat = "both reject"
        elif t_ok and o_ok and (t.shape, t.stride) == (o.shape, o.stride):
            cat = "same"
        elif t_ok and o_ok and (_unwrap(t.shape), _unwrap(t.stride)) == \
                (_unwrap(o.shape), _unwrap(o.stride)):
            cat = "same, (x) printed as x"
        elif t_ok and o_ok and image(t) == image(o):
            cat = "same function, other nesting"
        elif op == "left_inverse" and not injective(a):
            cat = "left_inverse of a non-injective layout (undefined)"
        elif t_ok:
            # A real disagreement: tessera must compute the op's definition.
            verdict = satisfies(op, a, b, t)
            assert verdict is not False, f"{op}{a, b}: tessera's {t} is not the definition"
            if verdict is None:
                cat = "B reaches past the end of A (the definition does not decide)"
            elif o_ok:
                cat = ("both satisfy the definition" if satisfies(op, a, b, o)
                       else "tensor-layouts breaks the definition")
            else:
                cat = "tensor-layouts rejects, tessera computes the definition"
        else:
            # CuTe's divisibility rules, or the case docs/differences.md lists (B must end inside
            # the mode its stride does not divide: C++ silently returns a wrong layout there).
            assert "divisibility fails" in str(t) or "must end inside" in str(t), \
                f"{op}{a, b}: tessera rejects without a rule: {t}"
            verdict = satisfies(op, a, b, o)
            cat = ("tessera rejects (CuTe's divisibility rule), B reaches past the end of A"
                   if verdict is None else
                   "tessera rejects (CuTe's divisibility rule), tensor-layouts computes the "
                   "function" if verdict else
                   "tessera rejects (CuTe's divisibility rule), tensor-layouts breaks the "
                   "definition")
        counts[op][cat] += 1
        examples.setdefault((op, cat),
                            (a, b, str(t), repr(o) if o_ok else f"{type(o).__name__}: {o}"))
    agree = sum(c for op in counts for k, c in counts[op].items()
                if k in ("same", "same, (x) printed as x", "same function, other nesting",
                         "both reject"))
    print(f"\n{CASES} random cases, {agree} agree (same layout, same up to (x) vs x, same "
          f"function, or both reject)")
    for op in OPS:
        print(f"  {op:16} " + ", ".join(f"{k}: {v}" for k, v in sorted(counts[op].items())))
    print("first example of each disagreement (A, B, tessera, tensor-layouts):")
    for (op, cat), ex in sorted(examples.items()):
        if cat not in ("same", "same, (x) printed as x", "same function, other nesting",
                       "both reject"):
            print(f"  {op} / {cat}: {ex}")
    assert agree > CASES * 0.8
