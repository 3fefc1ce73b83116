"""Shared by the Python tests: where the oracle vectors are, and CuTe's notation for Python
values."""
import json
import os
import pathlib

import pytest

REPO = pathlib.Path(__file__).resolve().parents[2]
ORACLE = pathlib.Path(os.environ.get("TESSERA_ORACLE_DIR", REPO.parent / "shared" / "oracle"))


def oracle_cases(name):
    """The cases of ../shared/oracle/<name>, read in place; the test skips visibly without them."""
    path = ORACLE / name
    if not path.exists():
        pytest.skip(f"SKIPPED: oracle vectors not found at {path} (they live in ../shared/oracle)")
    return json.loads(path.read_text())["cases"]


def notation(x):
    """A Python int or nested tuple in CuTe's notation: 4, (4), (2,(3,4))."""
    if isinstance(x, int):
        return str(x)
    return "(" + ",".join(notation(e) for e in x) + ")"
