#!/usr/bin/env python3
"""`tessera render --preset attention` in headless Chromium (Selenium + chromedriver).

Usage: test_attention_page.py TESSERA_EXE [WORK_DIR]
Checks, against `tessera explain --preset attention --json` (the Hopper kernel, head dim 128):
  - the rows picture (SVG) of thread 37: its two rows of S, every cell owned by one of the lanes
    the explanation names (36-39), its own cells outlined, the shuffle butterfly's lines (xor 1, 2);
  - the P -> A picture (SVG): 64 accumulators, 32 A registers, one link per accumulator, each
    accumulator at the (row, key) of S the explanation gives;
  - selecting thread 130 redraws both for its rows (64, 72) and lanes (128-131);
  - the preset menu offers "attention", with the kernel and head-dim choices beside it;
  - no console error.
Exits 77 (ctest SKIP) when Chromium, chromedriver or Selenium is missing.
"""
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import chromium  # noqa: E402  (same directory; Selenium importable, or a SKIP exit)
from selenium.webdriver.common.by import By  # noqa: E402

exe = os.path.abspath(sys.argv[1])
work = os.path.abspath(sys.argv[2] if len(sys.argv) > 2
                       else tempfile.mkdtemp(prefix="tessera-attention-page-"))
os.makedirs(work, exist_ok=True)
failures = []


def check(cond, what):
    print(("ok   " if cond else "FAIL ") + what)
    if not cond:
        failures.append(what)


def tessera(*args):
    p = subprocess.run([exe, *args], capture_output=True, text=True)
    if p.returncode != 0:
        sys.exit(f"tessera {' '.join(args)} failed ({p.returncode}): {p.stderr}")
    return p.stdout


def explain(thread):
    return json.loads(tessera("explain", "--preset", "attention", "--thread", str(thread),
                              "--operand", "C", "--json"))["attention"]["thread"]


page = os.path.join(work, "attention.html")
tessera("render", "--preset", "attention", "--thread", "37", "-o", page)
driver, profile = chromium.start()


def wait(js, what, timeout=60):
    end = time.time() + timeout
    while time.time() < end:
        if driver.execute_script(js):
            return True
        time.sleep(0.05)
    check(False, f"timed out waiting for {what}")
    return False


def pictures(thread):
    want = explain(thread)
    wait(f"return (document.getElementById('attn-rows-info') || {{}}).textContent"
         f"?.startsWith('thread {thread} ')", f"thread {thread}'s pictures")
    cells = driver.execute_script(
        "return [...document.querySelectorAll('#attn-rows rect.attn-cell')].map(r => "
        "[+r.dataset.row, +r.dataset.col, +r.dataset.thread, r.classList.contains('attn-mine')])")
    check(len(cells) == 2 * 128 and sorted({c[0] for c in cells}) == want["rows"],
          f"thread {thread}: the rows picture is rows {want['rows']} x 128 keys ({len(cells)})")
    check(sorted({c[2] for c in cells}) == want["row_threads"],
          f"thread {thread}: the rows' owners are the lanes named, {want['row_threads']}")
    mine = sorted((c[0], c[1]) for c in cells if c[3])
    coords = sorted(tuple(rc) for rc in want["register_coords"])
    check(mine == coords and all(c[3] == (c[2] == thread) for c in cells),
          f"thread {thread}: its own cells outlined ({len(mine)})")
    shuffles = driver.execute_script(
        "return [...document.querySelectorAll('#attn-rows line.attn-shuffle')].map(l => "
        "[+l.dataset.xor, +l.dataset.from, +l.dataset.to])")
    check(sorted(shuffles) == sorted([x, u, u ^ x] for x in (1, 2) for u in want["row_threads"]),
          f"thread {thread}: the butterfly's lines {shuffles}")
    accs = driver.execute_script(
        "return [...document.querySelectorAll('#attn-p2a rect.attn-acc')].map(r => "
        "[+r.dataset.reg, +r.dataset.row, +r.dataset.col])")
    regs = driver.execute_script(
        "return document.querySelectorAll('#attn-p2a rect.attn-areg').length")
    links = driver.execute_script(
        "return [...document.querySelectorAll('#attn-p2a line.attn-link')].map(l => "
        "+l.dataset.acc)")
    check(sorted(accs) == [[i, *rc] for i, rc in enumerate(want["register_coords"])]
          and regs == 32 and sorted(links) == list(range(64)),
          f"thread {thread}: P -> A, 64 accumulators at their (row, key), 32 A registers, "
          f"64 links ({len(accs)}, {regs}, {len(links)})")


driver.get("file://" + page)
wait("return window.tesseraReady === true && !!document.getElementById('attention')",
     "the attention panel")
pictures(37)
field = driver.find_element(By.ID, "thread")
field.clear()
field.send_keys("130")
pictures(130)
presets = driver.execute_script(
    "return [...document.querySelectorAll('#in-preset option')].map(o => o.value)")
check("attention" in presets and driver.execute_script(
    "return document.getElementById('in-preset').value") == "attention",
    f"the preset menu offers attention: {presets}")
kernels = driver.execute_script(
    "return [...document.querySelectorAll('#in-kernel option')].map(o => o.value)")
dims = driver.execute_script(
    "return [...document.querySelectorAll('#in-head_dim option')].map(o => o.value)")
check("fa2_sm80" in kernels and "256" in dims, f"kernel and head dim choices: {kernels} {dims}")
errors = [e for e in driver.get_log("browser") if e.get("level") == "SEVERE"]
check(not errors, f"no console error: {errors}")
driver.set_window_size(1400, 2400)  # the whole panel in view
driver.find_element(By.ID, "attention").screenshot(
    os.path.join(os.environ.get("TESSERA_SCREENSHOT_DIR") or work, "attention_page.png"))
driver.quit()
shutil.rmtree(profile, ignore_errors=True)
if failures:
    print(f"{len(failures)} failure(s)")
    sys.exit(1)
print("browser_attention_page: all checks passed")
