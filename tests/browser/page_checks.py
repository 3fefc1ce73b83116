"""What every test in this folder shares, with a browser (test_*.py) or without (*_cli.py):
importing it needs nothing beyond Python, so the tests without a browser run where Selenium is
missing. The browser and the helpers acting on it are chromium.py's.

check(cond, what) prints "ok   WHAT" or "FAIL WHAT" and keeps the failed ones in `failures` (a
test exits 1 when it holds any); work_dir(index, prefix) is the folder argv[index] names, else a
new temporary one, created either way; runner(exe) gives tessera(*args, stdin=None), the CLI's
standard output, exiting with its error output when the CLI fails; same_partition(colours, keys)
says whether cells share a colour exactly when they share a key (a tile, a bank); built(path,
target) exits saying how to build a file the test reads when it is missing."""
import os
import subprocess
import sys
import tempfile

failures = []


def check(cond, what):
    print(("ok   " if cond else "FAIL ") + what)
    if not cond:
        failures.append(what)


def work_dir(index, prefix=None):
    work = os.path.abspath(sys.argv[index] if len(sys.argv) > index
                           else tempfile.mkdtemp(prefix=prefix))
    os.makedirs(work, exist_ok=True)
    return work


def built(path, target):
    if not os.path.exists(path):
        sys.exit(f"{path} is missing: cmake --build build --target {target}")


def runner(exe):
    def tessera(*args, stdin=None):
        p = subprocess.run([exe, *args], input=stdin, capture_output=True, text=True)
        if p.returncode != 0:
            sys.exit(f"tessera {' '.join(args)} failed ({p.returncode}): {p.stderr}")
        return p.stdout
    return tessera


def same_partition(colours, keys):
    colour_of, key_of = {}, {}
    for c, k in zip(colours, keys):
        if colour_of.setdefault(k, c) != c or key_of.setdefault(c, k) != k:
            return False
    return len(colours) == len(keys)
