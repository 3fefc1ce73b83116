#!/usr/bin/env python3
"""scripts/check_style.py on trees of its own: every kind of violation is reported at its
file:line with exit status 1, what the rules leave alone is not, and a clean tree passes.

    python3 tests/check_style_test.py scripts/check_style.py
"""
import os
import subprocess
import sys
import tempfile

SCRIPT = sys.argv[1]
failures = []


def check(ok, what):
    if not ok:
        failures.append(what)
        print("FAIL:", what)


def write(root, path, text):
    full = os.path.join(root, path)
    os.makedirs(os.path.dirname(full), exist_ok=True)
    with open(full, "w") as f:
        f.write(text)


def run(root):
    r = subprocess.run([sys.executable, SCRIPT, root], capture_output=True, text=True)
    return r.returncode, r.stdout.splitlines()


# The words, spelled so that this file does not contain them.
TRACKER = "iss" + "ue 12"
SPEC, SPEC_TIGHT = "se" + "ed 004", "se" + "ed003"
PERIOD = "ses" + "sion"
PLANNING = "DES" + "IGN.md"

CLEAN = {
    "include/tessera/clean.hpp": "// A line of exactly one hundred columns is allowed.\n"
                                 + "int x = 0;" + " " * 85 + "// ok\n",
    "tests/clean.cpp": "int main() { return 0; }  // the random seed 42 is not a spec document\n",
    "bench/results/run.json": '{"note": "' + TRACKER + '"}\n',  # data: not read
    "docs/wide.md": "x" * 150 + "\n",  # Markdown: words only, any width
    "bench/sub/wide.cpp": "// " + "x" * 120 + "\n",  # only bench/*.cu, bench/*.cpp are measured
    "build/gen.cpp": "// " + TRACKER + " " + "x" * 120 + "\n",  # build folders are skipped
    # A function of exactly 80 lines is allowed; so are a longer kernel body, one outside the
    # checked folders, and braces in comments and strings.
    "python/src/short.cpp": "void f(int x) {\n" + "  x++;\n" * 78 + "}\n",
    "kernels/k.cu": "template <class T>\n__global__ void\nk(T x) {\n" + "  x++;\n" * 90 + "}\n",
    "docs/long.cpp": "void f(int x) {\n" + "  x++;\n" * 90 + "}\n",
    "tools/braces.cpp": "namespace n {\nstruct S {\n  int g() {  // }}}\n" + "    x++;\n" * 70
                        + '    return "}}";\n  }\n};\n}  // namespace n\n',
}
VIOLATIONS = {
    "kernels/gemm/wide.cu": ("int a;\n" + "// " + "x" * 98 + "\n", 2, "line of 101 columns"),
    "python/tessera/words.py": ("x = 1\n\n# see " + TRACKER + "\n", 3, "history word"),
    "tests/spec.cpp": ("// " + SPEC + " says so\n", 1, "history word"),
    "tools/spec.hpp": ("// " + SPEC_TIGHT + "\n", 1, "history word"),
    "docs/notes.md": ("# Notes\n\nwritten in one " + PERIOD + "\n", 3, "history word"),
    "README.md": ("see " + PLANNING + "\n", 1, "history word"),
    "bench/top.cpp": ("// " + "y" * 100 + "\n", 1, "line of 103 columns"),
    "tests/CMakeLists.txt": ("add_test(NAME t COMMAND " + "z" * 80 + ")\n", 1, "columns"),
    "python/src/long.cpp": ("// two functions\nint g() { return 0; }\nvoid f(int x) {\n"
                            + "  x++;\n" * 79 + "}\n", 3, "function of 81 lines"),
    # A signature over two lines inside a namespace, with a lambda and a loop in the body.
    "include/tessera/long.hpp": ("namespace t {\ninline int f(int a,\n             int b) {\n"
                                 "  auto g = [&] {\n    return a;\n  };\n"
                                 + "  for (;;) {\n    b++;\n  }\n" * 25 + "  return g();\n}\n"
                                 "}  // namespace t\n", 2, "function of 82 lines"),
    # A member function of a class template.
    "tests/member.cpp": ("template <class T>\nclass C {\n public:\n  void m() {\n"
                         + "    x++;\n" * 80 + "  }\n};\n", 4, "function of 82 lines"),
}

with tempfile.TemporaryDirectory() as root:
    for path, text in CLEAN.items():
        write(root, path, text)
    rc, out = run(root)
    check(rc == 0 and out == [], f"a clean tree passes: rc {rc}, {out}")

    for path, (text, _, _) in VIOLATIONS.items():
        write(root, path, text)
    rc, out = run(root)
    check(rc == 1, f"violations give exit status 1, got {rc}")
    for path, (_, line, what) in VIOLATIONS.items():
        hits = [o for o in out if o.startswith(f"{path}:{line}: ")]
        check(len(hits) == 1 and what in hits[0], f"{path}:{line} reported as '{what}': {hits}")
    check(len(out) == len(VIOLATIONS), f"one line per violation, nothing else: {out}")

if failures:
    sys.exit(1)
print(f"check_style: {len(VIOLATIONS)} violations found, clean files passed")
