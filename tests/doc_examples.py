#!/usr/bin/env python3
"""The docs say what the tool says: docs/cheatsheet.md's CLI and C++ columns run (the Python column
is tests/python/test_cheatsheet.py), each ```jsonl block of docs/batch.md goes through `tessera
batch` and must give the ```json block after it, and each `$ tessera ...` line of a ```console
block (README.md, docs/batch.md) must print the lines under it; each command of docs/pictures.md's
tessera CLI column writes its picture (its Python column is tests/python/test_pictures.py). In
expected lines `...` stands for any text (an image or a message shortened in the docs).

Usage: doc_examples.py TESSERA_EXE CXX_COMPILER INCLUDE_DIR
"""
import os
import pathlib
import re
import shlex
import subprocess
import sys
import tempfile

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
import cheatsheet  # noqa: E402

exe, cxx, include = sys.argv[1:4]
ROOT = pathlib.Path(__file__).resolve().parents[1]
failures = []


def check(ok, what):
    if not ok:
        failures.append(what)


def run(args, stdin=None, cwd=None):
    p = subprocess.run([exe, *args], input=stdin, capture_output=True, text=True, cwd=cwd)
    return p.returncode, p.stdout, p.stderr


def matches(expected, actual):
    """One line: equal, `...` matching any text."""
    pattern = ".*".join(re.escape(part) for part in expected.split("..."))
    return re.fullmatch(pattern, actual) is not None


def blocks(text, info):
    """The code blocks whose info string is `info`, with the line each starts at."""
    return [(text[:m.start()].count("\n") + 1, m.group(1))
            for m in re.finditer(r"^```" + info + r"\n(.*?)^```", text, re.S | re.M)]


def check_cli_column():
    for row in cheatsheet.rows():
        if not row["tessera CLI"]:
            continue
        words = shlex.split(row["tessera CLI"][0])
        assert words[0] == "tessera", row["what"]
        rc, out, err = run(words[1:])
        check(rc == 0 and cheatsheet.contains(out, row["result"]),
              f"cheat sheet, {row['what']}: {row['tessera CLI'][0]} printed {out[:400]!r} "
              f"{err!r}, not {row['result']}")


def check_cpp_column():
    cells = [r for r in cheatsheet.rows() if r["tessera C++"]]
    body = "\n".join(f"  show({r['tessera C++'][0]});" for r in cells)
    program = cheatsheet.setup("cpp") + """
#include <cstdio>
#include <string>
namespace {
void line(std::string const& s) { std::printf("%s\\n", s.c_str()), std::fflush(stdout); }
void show(int64_t v) { line(std::to_string(v)); }
void show(std::string const& s) { line(s); }
void show(View const& v) { line(std::to_string(v.offset) + " + " + to_string(v.layout)); }
void show(CopyAtom const& a) { line(a.name); }
template <class T>
void show(T const& x) { line(to_string(x)); }
}  // namespace
int main() {
""" + body + "\n}\n"
    with tempfile.TemporaryDirectory() as d:
        src, binary = os.path.join(d, "cheatsheet.cpp"), os.path.join(d, "cheatsheet")
        pathlib.Path(src).write_text(program)
        c = subprocess.run([cxx, "-std=c++20", "-O0", "-I", include, src, "-o", binary],
                           capture_output=True, text=True)
        check(c.returncode == 0, f"cheat sheet C++ column does not compile:\n{c.stderr[:3000]}")
        if c.returncode != 0:
            return
        r = subprocess.run([binary], capture_output=True, text=True)
        check(r.returncode == 0, f"cheat sheet C++ program failed: {r.stderr[:2000]}")
        out = r.stdout.splitlines()
    check(len(out) == len(cells), f"cheat sheet C++: {len(out)} lines for {len(cells)} cells")
    for row, got in zip(cells, out):
        check(cheatsheet.contains(got, row["result"]),
              f"cheat sheet, {row['what']}: {row['tessera C++'][0]} gave {got!r}, "
              f"not {row['result']}")


def check_batch_doc():
    text = (ROOT / "docs" / "batch.md").read_text()
    inputs, answers = blocks(text, "jsonl"), blocks(text, "json")
    check(len(inputs) >= 4, "docs/batch.md: fewer ```jsonl examples than expected")
    for at, cases in inputs:
        after = [a for a in answers if a[0] > at]
        check(bool(after), f"docs/batch.md:{at}: no ```json answers after the cases")
        if not after:
            continue
        rc, out, _ = run(["batch"], stdin=cases)
        want, got = after[0][1].splitlines(), out.splitlines()
        check(rc == 0 and len(want) == len(got),
              f"docs/batch.md:{at}: {len(got)} answers for {len(want)} documented")
        for w, g in zip(want, got):
            check(matches(w, g), f"docs/batch.md:{at}: documented\n  {w}\nbut tessera batch "
                                 f"answers\n  {g[:600]}")


def check_console_blocks():
    for name in ("README.md", "docs/batch.md", "docs/cheatsheet.md"):
        text = (ROOT / name).read_text()
        for at, block in blocks(text, "console"):
            command, expected = None, []
            for line in block.splitlines() + ["$ "]:
                if not line.startswith("$ "):
                    expected.append(line)
                    continue
                if command:
                    rc, out, err = run(shlex.split(command)[1:])
                    got = (out + err).splitlines()
                    ok = len(got) >= len(expected) and all(
                        matches(w, g) for w, g in zip(expected, got))
                    check(ok, f"{name}:{at}: `{command}` printed\n{out}{err}not\n" +
                          "\n".join(expected))
                command, expected = line[2:].strip(), []


def pictures_rows():
    """docs/pictures.md's table: (feature, CLI spans, Python spans) per row."""
    text = (ROOT / "docs" / "pictures.md").read_text()
    out = []
    for line in text.splitlines():
        if not line.startswith("| ") or line.startswith(("| feature", "| ---")):
            continue
        cells = [c.strip() for c in line.strip()[1:-1].split(" | ")]
        check(len(cells) == 6, f"docs/pictures.md: a row of {len(cells)} cells: {line}")
        out.append((cells[0], re.findall(r"`([^`]+)`", cells[4]),
                    re.findall(r"`([^`]+)`", cells[5])))
    return out


# What a picture file starts with, by its extension.
PICTURE_START = {".svg": "<svg", ".tex": "% ", ".html": "<!doctype html>"}


def check_pictures_table():
    rows = pictures_rows()
    check(len(rows) >= 10, f"docs/pictures.md: {len(rows)} rows")
    for feature, cli, python in rows:
        check(bool(cli or python), f"docs/pictures.md: '{feature}' has no tessera command")
        if not cli:
            continue
        words = shlex.split(cli[0])
        check(words[0] == "tessera" and "-o" in words, f"docs/pictures.md: {cli[0]}")
        out = words[words.index("-o") + 1]
        with tempfile.TemporaryDirectory() as d:
            rc, _, err = run(words[1:], cwd=d)
            path = pathlib.Path(d) / out
            text = path.read_text() if path.exists() else ""
            start = PICTURE_START[path.suffix]
            check(rc == 0 and text.startswith(start),
                  f"docs/pictures.md, {feature}: `{cli[0]}` exit {rc} {err!r}, wrote "
                  f"{text[:80]!r}, not a file starting {start!r}")
            if path.suffix == ".tex":
                check("\\documentclass[convert]{standalone}" in text and "\\node" in text,
                      f"docs/pictures.md, {feature}: not CuTe's print_latex document")


check_cli_column()
check_cpp_column()
check_pictures_table()
check_batch_doc()
check_console_blocks()
for f in failures:
    print("FAIL", f)
print(f"doc_examples: {len(failures)} failures")
sys.exit(1 if failures else 0)
