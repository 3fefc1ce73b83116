#!/usr/bin/env python3
"""Feeds every case of the CuTe oracle (layout_cases.json) to `tessera batch` and checks the
answers.

Usage: oracle_batch.py TESSERA_EXE ORACLE_DIR. Exit 77 (ctest: skipped) when the oracle is absent.
A case passes when the image (the function) and the printed result (pycute's or C++'s form) match;
an error case passes when tessera answers with an error.
"""
import json
import pathlib
import subprocess
import sys
import time

exe, oracle_dir = sys.argv[1], pathlib.Path(sys.argv[2])
path = oracle_dir / "layout_cases.json"
if not path.exists():
    print(f"SKIPPED: oracle vectors not found at {path} (they live in ../shared/oracle)")
    sys.exit(77)

cases = json.loads(path.read_text())["cases"]
lines = "\n".join(json.dumps({"id": c["id"], "op": c["op"], "args": c["args"]}) for c in cases)
lines += "\nthis is not json\n"
start = time.perf_counter()
run = subprocess.run([exe, "batch"], input=lines, capture_output=True, text=True, check=True)
elapsed = time.perf_counter() - start
answers = [json.loads(l) for l in run.stdout.splitlines()]
assert len(answers) == len(cases) + 1, f"{len(answers)} answers for {len(cases) + 1} lines"
assert "error" in answers[-1], "a malformed line must get an error object"

def image_of_layout(text):
    got = subprocess.run([exe, "coalesce", text, "--json"], capture_output=True, text=True)
    return json.loads(got.stdout)["image"]

def noted_ok(case, got):
    """pycute and C++ disagree (the case's note): tessera follows C++; either side is accepted
    (the README allows it), an error only where one side rejects. The exact C++ answers are
    checked by tests/test_cute_cpp.cpp (tests/data/cute_cpp_cases.json)."""
    note = case["note"]
    if "error" in got:
        return case["error"] or "fails to compile" in note
    if case["error"] or "fails to compile" in note or got["image"] == case["image"]:
        return True
    at = note.find("C++ gives ")
    return at >= 0 and got["image"] == image_of_layout(note[at + 10:note.index(". ", at)])

failures = []
for case, got in zip(cases, answers):
    if got.get("id") != case["id"]:
        failures.append(f"{case['id']}: answer out of order ({got.get('id')})")
    elif "note" in case:
        if not noted_ok(case, got):
            failures.append(f"{case['id']}: {case['op']}{case['args']} is neither pycute's nor "
                            f"C++'s: {got}")
    elif case["error"]:
        if "error" not in got:
            failures.append(f"{case['id']}: {case['op']}{case['args']} must be rejected, got "
                            f"{got.get('result')}")
    elif "error" in got:
        failures.append(f"{case['id']}: {case['op']}{case['args']} rejected: {got['error']}")
    elif case["image"] is not None and got["image"] != case["image"]:
        failures.append(f"{case['id']}: {case['op']}{case['args']} image differs: {got['result']} "
                        f"vs {case['result']}")
    elif got["result"] not in (case["result"], case.get("cpp_result")):
        failures.append(f"{case['id']}: {case['op']}{case['args']} printed {got['result']}, "
                        f"expected {case['result']}")

print(f"{len(cases) - len(failures)}/{len(cases)} oracle cases pass through `tessera batch` "
      f"in {elapsed * 1000:.0f} ms ({len(cases) / elapsed:.0f} cases/s)")
# TiledMMA cases: every thread's coordinates exactly; thread 0's fragment as a string or, where
# the oracle's C++ printed a mode unmerged (e.g. (2,4):(16,32) for 8:16), as the same function.
def image(layout_text):
    got = subprocess.run([exe, "coalesce", layout_text, "--json"], capture_output=True, text=True)
    return json.loads(got.stdout)["image"]

mma_path = oracle_dir / "tiledmma_cases.json"
mma_cases = json.loads(mma_path.read_text())["cases"]
strip = lambda c: {k: v for k, v in c.items() if k not in ("C", "A", "B", "tiled_mma_layouts")} | {
    k: {"tensor_layout": c[k]["tensor_layout"]} for k in "CAB"}
run = subprocess.run([exe, "batch"], input="\n".join(json.dumps(strip(c)) for c in mma_cases),
                     capture_output=True, text=True, check=True)
checked = 0
for case, line in zip(mma_cases, run.stdout.splitlines()):
    got = json.loads(line)
    if "error" in got:
        failures.append(f"{case['id']}: {got['error']}")
        continue
    for k in "CAB":
        if got[k]["coords"] != case[k]["coords"]:
            failures.append(f"{case['id']} {k}: thread coordinates differ")
        frag, want = got[k]["thread0_fragment"], case[k]["thread0_fragment"]
        if frag != want and image(frag) != image(want):
            failures.append(f"{case['id']} {k}: thread 0 fragment {frag} is not {want}")
        checked += 1
print(f"{checked} TiledMMA operand partitions (all threads) checked through `tessera batch`")

for f in failures[:50]:
    print("FAIL", f)
sys.exit(1 if failures else 0)
