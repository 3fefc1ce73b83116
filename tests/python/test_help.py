"""help() on the main functions shows a signature with argument names and types (never `object`)
and a docstring of more than one line whose examples are run here as doctests, so every example
is the library's own answer."""
import doctest
import inspect
import pydoc

import pytest

import tessera

FUNCTIONS = [
    "make_layout", "make_layout_modes", "parse_int_tuple", "parse_tiler", "size", "cosize", "rank",
    "depth", "crd2idx", "idx2crd", "flatten", "coalesce", "filter", "composition", "complement",
    "right_inverse", "left_inverse", "logical_divide", "zipped_divide", "tiled_divide",
    "flat_divide", "logical_product", "zipped_product", "tiled_product", "flat_product",
    "blocked_product", "raked_product", "make_swizzle", "make_composed_layout", "local_tile",
    "make_tiled_mma", "make_copy_atom", "make_tiled_copy_tv", "make_tiled_copy_A",
    "make_tiled_copy_B", "make_tiled_copy_C", "explain", "analyze", "trace", "render",
    "to_latex", "draw_tv", "render_op",
]
METHODS = [
    ("Layout", "__init__"), ("Layout", "__call__"),
    ("TiledMMA", "partition_C"), ("TiledMMA", "partition_A"), ("TiledMMA", "partition_B"),
    ("TiledMMA", "partition"), ("TiledMMA", "thrfrg"), ("TiledMMA", "partitioner"),
    ("TiledMMA", "thread_vmnk"), ("TiledCopy", "partition_S"), ("TiledCopy", "partition_D"),
    ("TiledCopy", "retile"), ("ThrMMA", "partition_C"), ("ThrMMA", "partition_A"),
    ("ThrMMA", "partition_B"), ("ThrCopy", "partition_S"), ("ThrCopy", "partition_D"),
    ("ThrCopy", "retile_S"), ("ThrCopy", "retile_D"), ("Layout", "to_svg"),
]
ALL = [(n, getattr(tessera, n)) for n in FUNCTIONS] + \
    [(f"{c}.{m}", getattr(getattr(tessera, c), m)) for c, m in METHODS]


def parameters(sig):
    """The parameters of a signature line, split at its top-level commas."""
    inner = sig[sig.index("(") + 1:sig.rindex(")")]
    out, depth, cur = [], 0, ""
    for ch in inner:
        depth += ch in "([" and 1 or ch in ")]" and -1 or 0
        if ch == "," and depth == 0:
            out.append(cur.strip())
            cur = ""
        else:
            cur += ch
    return [p for p in out + [cur.strip()] if p and p not in ("self", "*", "/")]


def signature_line(f):
    """The signature help() prints: nanobind's first docstring line, or Python's own."""
    try:
        return f.__name__ + str(inspect.signature(f))
    except (TypeError, ValueError):
        return f.__doc__.split("\n", 1)[0]


@pytest.mark.parametrize("name, f", ALL, ids=[n for n, _ in ALL])
def test_signature_names_and_types(name, f):
    sig = signature_line(f)
    assert "*args" not in sig, f"{name}: help() shows no argument names: {sig}"
    named = parameters(sig)
    assert named, f"{name}: no arguments in {sig}"
    for p in named:
        assert ":" in p, f"{name}: the argument {p} has no type: {sig}"
        assert p.split(":", 1)[1].split("=")[0].strip(" '") != "object", \
            f"{name}: help() shows `object` for {p}: {sig}"
    assert "->" in sig, f"{name}: no return type: {sig}"
    assert sig.split("->")[-1].strip(), name


@pytest.mark.parametrize("name, f", ALL, ids=[n for n, _ in ALL])
def test_docstring_explains_and_its_examples_run(name, f):
    text = pydoc.render_doc(f, renderer=pydoc.plaintext)
    doc = inspect.getdoc(f) or ""
    assert len([ln for ln in doc.splitlines() if ln.strip()]) >= 3, f"{name}: a one-line docstring"
    assert ">>>" in doc, f"{name}: no example"
    assert ">>>" in text
    globs = {k: getattr(tessera, k) for k in tessera.__all__}
    test = doctest.DocTestParser().get_doctest(doc, globs, name, None, 0)
    assert test.examples, name
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    out = []
    runner.run(test, out=out.append)
    assert runner.failures == 0, f"{name}: an example's answer differs:\n" + "".join(out)


def test_the_op_tables_functions_name_their_arguments():
    # The ops bound from the op table (upcast, tile_to_shape, ...): named, typed, positional.
    table = {op["name"] for op in tessera._tessera.ops()}
    generated = [n for n in ("nullspace", "upcast", "downcast", "recast_layout",
                             "max_common_layout", "max_common_vector", "tile_to_shape",
                             "layout_add", "swizzle_layout") if n in table]
    assert len(generated) >= 8
    for name in generated:
        sig = getattr(tessera._tessera, name).__doc__.split("\n", 1)[0]
        assert "*args" not in sig and "object" not in sig, sig
        params = parameters(sig)
        assert len(set(p.split(":")[0] for p in params)) == len(params), f"repeated names: {sig}"
        assert all(":" in p for p in params), sig
    up = tessera._tessera.upcast.__doc__.split("\n", 1)[0]
    assert up == "upcast(layout: LayoutLike, n: int, /)", up


@pytest.mark.parametrize("cls", ["Layout", "Swizzle", "SwizzledLayout", "View", "MmaAtom",
                                 "CopyAtom", "TiledMMA", "TiledCopy", "ThrMMA", "ThrCopy"])
def test_class_help_names_every_type(cls):
    text = pydoc.render_doc(getattr(tessera, cls), renderer=pydoc.plaintext)
    shown = [ln.strip() for ln in text.splitlines()
             if "(" in ln and "builtins.object" not in ln and "Create and return" not in ln]
    untyped = [ln for ln in shown if ": object" in ln or "-> object" in ln]
    assert not untyped, f"{cls}: help() shows `object`: {untyped}"
