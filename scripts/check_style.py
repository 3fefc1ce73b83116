#!/usr/bin/env python3
"""The house rules that a compiler does not check, over a source tree.

    python3 scripts/check_style.py [ROOT]      (ROOT: the repository root by default)

1. Width: no line over 100 columns in the C, C++, CUDA, Python and CMake files of include/,
   kernels/, tools/, python/src/, python/tessera/, tests/, examples/, and bench/*.cu, bench/*.cpp.
2. Words: code, comments and docs speak of the software only, so no text file (sources, scripts,
   CMake, Markdown) names a tracker item ("issue" and a number), a numbered spec document
   ("seed" and its number), a work period, or the planning document by its file name.
   Data (JSON, CSV, recorded tool output) is not checked.
3. Length: no C++ function over 80 lines in python/src/. A function is counted from its first line
   (at column 0, ending in `{`) to the `}` at column 0 that closes it.

Prints `file:line: rule` for each violation and exits with status 1 if there is any.
In a git work tree the files are git's (tracked, or untracked and not ignored); elsewhere every
file under ROOT except build folders.
"""
import os
import re
import subprocess
import sys

MAX_COLUMNS = 100
MAX_FUNCTION_LINES = 80
LENGTH_FOLDERS = ("python/src/",)
LENGTH_SUFFIXES = (".hpp", ".cpp", ".h", ".cc")

SOURCE_SUFFIXES = (".h", ".hpp", ".c", ".cc", ".cpp", ".cu", ".cuh", ".py", ".pyi", ".cmake")
WIDTH_FOLDERS = ("include/", "kernels/", "tools/", "python/src/", "python/tessera/", "tests/",
                 "examples/")
TEXT_SUFFIXES = SOURCE_SUFFIXES + (".md", ".sh", ".js", ".toml", ".cfg", ".in")
TEXT_NAMES = ("CMakeLists.txt", "run", ".clang-format", ".gitignore")

# Written so that this file does not match itself.
HISTORY = re.compile(r"issue [0-9]|seed ?0[0-9]|seed[0-9]|sess(?:ion)|DESIGN\.md", re.IGNORECASE)

SKIPPED_DIRS = {".git", "__pycache__", ".cache", "node_modules", ".venv"}


def is_source(path):
    return path.endswith(SOURCE_SUFFIXES) or os.path.basename(path) == "CMakeLists.txt"


def width_checked(path):
    """Rule 1's files: sources in the width folders, and the C++/CUDA files directly in bench/."""
    if not is_source(path):
        return False
    if path.startswith(WIDTH_FOLDERS):
        return True
    return os.path.dirname(path) == "bench" and path.endswith((".cu", ".cpp"))


def words_checked(path):
    """Rule 2's files: every text file that is not data."""
    return path.endswith(TEXT_SUFFIXES) or os.path.basename(path) in TEXT_NAMES


def git_files(root):
    """The files git sees under root, if root is the top of a work tree; else None."""
    try:
        top = subprocess.run(["git", "-C", root, "rev-parse", "--show-toplevel"],
                             capture_output=True, text=True, check=True).stdout.strip()
        if os.path.realpath(top) != os.path.realpath(root):
            return None
        out = subprocess.run(["git", "-C", root, "ls-files", "-z", "--cached", "--others",
                              "--exclude-standard"], capture_output=True, check=True).stdout
    except (OSError, subprocess.CalledProcessError):
        return None
    names = {n.decode() for n in out.split(b"\0") if n}
    return sorted(n for n in names if os.path.isfile(os.path.join(root, n)))


def walked_files(root):
    files = []
    for here, dirs, names in os.walk(root):
        dirs[:] = sorted(d for d in dirs if d not in SKIPPED_DIRS and not d.startswith("build"))
        for name in sorted(names):
            files.append(os.path.relpath(os.path.join(here, name), root).replace(os.sep, "/"))
    return files


def long_functions(path, lines):
    """Rule 3's violations: (line of the function's start, its length) over the limit."""
    found, start = [], None
    for number, line in enumerate(lines, 1):
        head = line[:1]
        if start is None and head not in ("", " ", "/", "#", "}") and line.rstrip().endswith("{") \
                and "(" in line and not line.startswith(("namespace", "struct", "class", "enum")):
            start = number
        elif start is not None and head == "}":
            if number - start + 1 > MAX_FUNCTION_LINES:
                found.append(f"{path}:{start}: function of {number - start + 1} lines (at most "
                             f"{MAX_FUNCTION_LINES})")
            start = None
    return found


def check_file(root, path):
    """The violations of one file, as `path:line: rule` strings."""
    width, words = width_checked(path), words_checked(path)
    if not (width or words):
        return []
    try:
        with open(os.path.join(root, path), encoding="utf-8") as f:
            lines = f.read().split("\n")
    except (UnicodeDecodeError, OSError):
        return []
    found = []
    for number, line in enumerate(lines, 1):
        if width and len(line) > MAX_COLUMNS:
            found.append(f"{path}:{number}: line of {len(line)} columns (at most {MAX_COLUMNS})")
        match = HISTORY.search(line) if words else None
        if match:
            found.append(f"{path}:{number}: history word '{match.group(0)}' (name things by what"
                         " they are)")
    if path.startswith(LENGTH_FOLDERS) and path.endswith(LENGTH_SUFFIXES):
        found += long_functions(path, lines)
    return found


def main(argv):
    root = argv[1] if len(argv) > 1 else os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    files = git_files(root)
    if files is None:
        files = walked_files(root)
    violations = [v for path in files for v in check_file(root, path)]
    for v in violations:
        print(v)
    if violations:
        print(f"check_style: {len(violations)} violation(s)", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
