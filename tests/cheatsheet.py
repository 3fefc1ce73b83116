"""The rows of docs/cheatsheet.md, for the tests that run its tessera columns (tests/doc_examples.py
for the CLI and C++, tests/python/test_cheatsheet.py for Python).

A row's cells hold code spans; the first span of a tessera cell is what runs, every span of the
result cell must appear in its output (compared without spaces). An empty cell has nothing to run.
The first ```python and ```cpp blocks of the file are the rows' setup."""
import pathlib
import re

SHEET = pathlib.Path(__file__).resolve().parents[1] / "docs" / "cheatsheet.md"
COLUMNS = ("what", "CuTe C++", "CuTe DSL", "tessera CLI", "tessera Python", "tessera C++",
           "result")


def spans(cell):
    return re.findall(r"`([^`]+)`", cell)


def rows(text=None):
    """Each table row as a dict: column -> list of code spans (the "what" column as text)."""
    text = SHEET.read_text() if text is None else text
    out = []
    for line in text.splitlines():
        if not line.startswith("| ") or line.startswith("| what") or line.startswith("| ---"):
            continue
        cells = [c.strip() for c in line.strip()[1:-1].split("|")]  # no | inside a cell
        assert len(cells) == len(COLUMNS), f"a row of {len(cells)} cells: {line}"
        row = {name: spans(cell) for name, cell in zip(COLUMNS, cells)}
        row["what"] = cells[0]
        assert row["result"], f"a row without a result: {line}"
        out.append(row)
    return out


def setup(language, text=None):
    """The first ```<language> block: the names the rows use."""
    text = SHEET.read_text() if text is None else text
    m = re.search(r"```" + language + r"\n(.*?)```", text, re.S)
    assert m, f"no {language} setup block"
    return m.group(1)


def contains(output, result_spans):
    """Whether every result span appears in the output, spaces ignored."""
    flat = re.sub(r"\s+", "", output)
    return all(re.sub(r"\s+", "", r) in flat for r in result_spans)
