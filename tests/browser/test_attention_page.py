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
  - with the library as WebAssembly in the page (the playground target built), choosing the SM80
    kernel at head dim 64 recomputes the page: thread 0's four rows, lanes and registers;
  - no console error.
Exits 77 (ctest SKIP) when Chromium, chromedriver or Selenium is missing.
"""
import json
import os
import shutil
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import chromium  # noqa: E402  (same directory; Selenium importable, or a SKIP exit)
from chromium import wait  # noqa: E402
from page_checks import check, failures, runner, work_dir  # noqa: E402
from selenium.webdriver.common.by import By  # noqa: E402

exe = os.path.abspath(sys.argv[1])
work = work_dir(2, "tessera-attention-page-")
tessera = runner(exe)


def explain(thread, kernel="fa3_sm90", d=128):
    return json.loads(tessera("explain", "--preset", "attention", "--kernel", kernel, "--head-dim",
                              str(d), "--thread", str(thread), "--operand", "C",
                              "--json"))["attention"]


page = os.path.join(work, "attention.html")
tessera("render", "--preset", "attention", "--thread", "37", "-o", page)
driver, profile = chromium.start()


def pictures(thread, kernel="fa3_sm90", d=128):
    a = explain(thread, kernel, d)
    want, bn, n = a["thread"], a["bn"], len(a["thread"]["register_coords"])
    wait(driver, f"return (document.getElementById('attn-rows-info') || {{}}).textContent"
         f"?.startsWith('thread {thread} ')", f"thread {thread}'s pictures")
    cells = driver.execute_script(
        "return [...document.querySelectorAll('#attn-rows rect.attn-cell')].map(r => "
        "[+r.dataset.row, +r.dataset.col, +r.dataset.thread, r.classList.contains('attn-mine')])")
    check(len(cells) == len(want["rows"]) * bn and sorted({c[0] for c in cells}) == want["rows"],
          f"thread {thread}: the rows picture is rows {want['rows']} x {bn} keys ({len(cells)})")
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
          and regs == n // 2 and sorted(links) == list(range(n)),
          f"thread {thread}: P -> A, {n} accumulators at their (row, key), {n // 2} A registers, "
          f"{n} links ({len(accs)}, {regs}, {len(links)})")


driver.get("file://" + page)
wait(driver, "return window.tesseraReady === true && !!document.getElementById('attention')",
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
# With the library as WebAssembly in the page (the playground target writes it beside the CLI;
# render embeds it) the kernel and head-dim choices recompute the page, as in the playground.
if driver.execute_script("return CATALOG.live"):
    wait(driver, "return window.tesseraLive === true", "the library (WebAssembly)")
    for k, v in (("kernel", "fa2_sm80"), ("head_dim", "64")):
        driver.execute_script(f"const s = document.getElementById('in-{k}'); s.value = '{v}'; "
                              "s.dispatchEvent(new Event('change'));")
    wait(driver, "return (document.querySelector('#attention h2') || {}).textContent?.includes("
         "'fa2_sm80') && document.querySelector('#attention h2').textContent.endsWith(' 64')",
         "the SM80 kernel at head dim 64")
    pictures(0, "fa2_sm80", 64)
else:
    print("note: no WebAssembly library in the page (the playground target): the live choices "
          "are not checked")
errors = chromium.console_errors(driver)
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
