#!/usr/bin/env python3
"""The house rules that a compiler does not check, over a source tree.

    python3 scripts/check_style.py [ROOT]      (ROOT: the repository root by default)

1. Width: no line over 100 columns in the C, C++, CUDA, Python and CMake files of include/,
   kernels/, tools/, python/src/, python/tessera/, tests/, examples/, and bench/*.cu, bench/*.cpp.
2. Words: code, comments and docs speak of the software only, so no text file (sources, scripts,
   CMake, Markdown) names a tracker item ("issue" and a number), a numbered spec document
   ("seed" and its number), a work period, or the planning document by its file name.
   Data (JSON, CSV, recorded tool output) is not checked.
3. Length: no C++ or CUDA function over 80 lines in the width folders and bench/, kernels'
   bodies (`__global__` functions) aside. A function is counted from the first line of its
   signature to the `}` that closes its body; lambdas and local classes count in the function
   that holds them, member functions on their own.

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
LENGTH_SUFFIXES = (".hpp", ".cpp", ".h", ".cc", ".cu", ".cuh")

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


# Text a brace is not code in: comments, string and character literals, raw strings.
NOT_CODE = re.compile(r'//.*|/\*(?s:.*?)\*/|R"(\w*)\((?s:.*?)\)\1"|"(?:\\.|[^"\\\n])*"'
                      r"|'(?:\\.|[^'\\\n])*'")
SCOPE = re.compile(r"(?:template\s*<[^{;]*>\s*)?(?:(?:typedef|export)\s+)?"
                   r"(?:namespace|struct|class|union|enum)\b|extern\s*\"C\"")
ACCESS = ("public", "protected", "private")
CONTROL = re.compile(r"(?:\}\s*)?(?:if|for|while|switch|catch|do|else|try)\b")


def code_only(text):
    """text with every comment and literal blanked, line breaks kept."""
    return NOT_CODE.sub(lambda m: re.sub(r"[^\n]", " ", m.group(0)), text)


def long_functions(path, lines):
    """Rule 3's violations: (line of the function's start, its length) over the limit.
    Walks the braces: a `{` opens a function body where the text before it (since the last
    `;`, `{` or `}`) has a parameter list and is not a scope, a control statement or an
    initializer, and the enclosing brace is a scope (namespace, class) or none."""
    found, stack, head = [], [], (0, "")  # stack: (kind, start line); head: (line, text)
    code = code_only("\n".join(lines)).split("\n")
    for number, line in enumerate(code, 1):
        if line.lstrip().startswith("#"):
            continue
        for ch in line:
            if ch == "{":
                text = " ".join(head[1].split())
                in_scope = all(kind == "scope" for kind, _ in stack)
                if SCOPE.match(text):
                    kind = "scope"
                elif in_scope and "(" in text and not CONTROL.match(text) and \
                        not text.endswith(("=", ",", "return")) and "__global__" not in text:
                    kind = "function"
                else:
                    kind = "block"
                stack.append((kind, head[0] or number))
                head = (0, "")
            elif ch in ";}":
                if ch == "}" and stack:
                    kind, first = stack.pop()
                    if kind == "function" and number - first + 1 > MAX_FUNCTION_LINES:
                        found.append(f"{path}:{first}: function of {number - first + 1} lines "
                                     f"(at most {MAX_FUNCTION_LINES})")
                head = (0, "")
            elif ch == ":" and head[1].strip() in ACCESS:
                head = (0, "")
            else:
                if not head[1].strip() and not ch.isspace():
                    head = (number, "")
                head = (head[0], head[1] + ch)
        head = (head[0], head[1] + " ")
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
    if width and path.endswith(LENGTH_SUFFIXES):
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
