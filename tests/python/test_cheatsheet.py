"""The Python column of docs/cheatsheet.md: each cell's first code, run after the sheet's Python
setup, gives the row's result (tests/doc_examples.py runs the CLI and C++ columns)."""
import pathlib
import sys

import pytest

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1]))
import cheatsheet  # noqa: E402

ROWS = [r for r in cheatsheet.rows() if r["tessera Python"]]


def test_every_row_has_python_or_says_why():
    assert len(ROWS) >= 25


@pytest.mark.parametrize("row", ROWS, ids=[r["what"] for r in ROWS])
def test_python_cell(row):
    scope = {}
    exec(cheatsheet.setup("python"), scope)
    value = eval(row["tessera Python"][0], scope)
    assert cheatsheet.contains(str(value), row["result"]), \
        f"{row['what']}: {row['tessera Python'][0]} gives {value}, not {row['result']}"
