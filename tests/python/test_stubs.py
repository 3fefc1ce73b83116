"""The type stubs (python/tessera/__init__.pyi) declare exactly the package's public names, and
every class's public methods, so editors complete what is there."""
import ast
import pathlib

import tessera

STUB = pathlib.Path(__file__).resolve().parents[2] / "python" / "tessera" / "__init__.pyi"
ALIASES = {"IntTuple", "LayoutLike", "TilerEntry", "Tiler"}  # type aliases of the stub only


def stub_names():
    tree = ast.parse(STUB.read_text())
    top, members = set(), {}
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.ClassDef)):
            top.add(node.name)
        if isinstance(node, ast.ClassDef):
            members[node.name] = {n.name for n in node.body if isinstance(n, ast.FunctionDef)} | {
                n.target.id for n in node.body if isinstance(n, ast.AnnAssign)}
        elif isinstance(node, ast.Assign):
            top |= {t.id for t in node.targets}
        elif isinstance(node, ast.AnnAssign):
            top.add(node.target.id)
        elif isinstance(node, ast.ImportFrom) and node.level == 1:
            top |= {a.asname or a.name for a in node.names}
    return top - ALIASES, members


def public(obj):
    return {n for n in dir(obj) if not n.startswith("_") or n == "_repr_html_"}


def test_stub_declares_the_public_api():
    top, members = stub_names()
    have = set(tessera.__all__) | {"__version__"}
    # torch_ops: the PyTorch operators, a submodule imported on demand (it needs torch).
    ignored = ("torch_ops",)
    assert {n for n in dir(tessera) if not n.startswith("_") and n not in ignored} <= have, \
        "a public name missing from __all__"
    assert have - top == set(), f"public names without a stub: {sorted(have - top)}"
    assert top - have == set(), f"stub names the package lacks: {sorted(top - have)}"
    for cls in ("Layout", "Swizzle", "SwizzledLayout", "View", "TiledMMA", "TiledCopy", "MmaAtom",
                "CopyAtom",
                "ThrMMA", "ThrCopy"):
        obj = getattr(tessera, cls)
        have = public(obj)
        missing = have - members[cls]
        assert not missing, f"{cls}: methods without a stub: {sorted(missing)}"
        # instance attributes of the Python classes are set in __init__; the rest must exist
        extra = {m for m in members[cls] - have if not m.startswith("__")} - \
            {"tiled_mma", "tiled_copy", "thread"}
        assert not extra, f"{cls}: stubbed methods the class lacks: {sorted(extra)}"
