#!/usr/bin/env python3
"""The thread trace in the playground (tessera-playground.html, kind "trace") in headless
Chromium (Selenium + chromedriver).

Usage: test_trace_page.py TESSERA_EXE PLAYGROUND_HTML [WORK_DIR]
Checks, on the step 1 kernel's trace (M=256, N=128, K=32, A (256,32):(1,256), B (128,32):(1,128),
C (256,128):(128,1), CTA (0,0), thread 0), with the page's state given in the URL:
  - the numbers beside the picture: the grid, gA/gB/gC, tCgA/tCgB/tCgC, the fragments, the
    K-loop's counts (4 k_tiles x 8 k_blocks, 64 FMAs per k_block, 512 per k_tile, 2,048 in all),
    64 loads of A and of B per k_tile, 64 stores; the page's text and JSON equal `tessera trace`'s
    (the page runs the same C++ through WebAssembly);
  - the k_tile stepper (next, previous, play) moves A's and B's tiles and fills C;
  - the URL round-trips the state (thread, CTA and k_tile typed and stepped, then reloaded);
  - a ragged problem (M=200, N=128, K=30, CTA (1,0), thread 40): the masked elements drawn at
    each k_tile are the trace's predicates;
  - a CTA outside the grid shows the library's rule, and the page recovers;
  - no console error, no network request.
Exits 77 (ctest SKIP) when Chromium, chromedriver or Selenium is missing.
"""
import json
import os
import shutil
import sys
import time
import urllib.parse

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import chromium  # noqa: E402  (same directory; Selenium importable, or a SKIP exit)
from chromium import typed, wait  # noqa: E402
from page_checks import built, check, failures, runner, work_dir  # noqa: E402
from selenium.webdriver.common.by import By  # noqa: E402

exe, page = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
work = work_dir(3, "tessera-trace-page-")
tessera = runner(exe)
built(page, "playground")


driver, profile = chromium.start()


def load(url, name):
    chromium.reopen(driver, url)
    wait(driver, "return window.tesseraLive === true && !!document.getElementById('trace-numbers')",
         f"{name}: the library and the trace")


def field(name):
    return driver.find_element(By.CSS_SELECTOR, f'[data-field="{name}"]').text


def canvas(name, key):
    return driver.find_element(By.ID, "trace-" + name).get_attribute("data-" + key)


def click(el_id):
    driver.find_element(By.ID, el_id).click()
    time.sleep(0.1)


def state():
    return driver.execute_script("return JSON.parse(JSON.stringify(window.tessera.state()))")


STEP1 = {"kind": "trace", "preset": "step1", "problem": "256,128,32",
         "layout_A": "(256,32):(1,256)", "layout_B": "(128,32):(1,128)",
         "layout_C": "(256,128):(128,1)", "cta": "0,0", "thread": "0", "k_tile": "0"}
STEP1_CLI = ["trace", "--preset", "step1", "--problem", "256", "128", "32", "--layout-A",
             "(256,32):(1,256)", "--layout-B", "(128,32):(1,128)", "--layout-C",
             "(256,128):(128,1)"]

try:
    chromium.offline(driver)
    base = "file://" + page
    load(base + "#" + urllib.parse.urlencode(STEP1), "step 1 trace")

    # 1. The step 1 trace's numbers, as the documents give them.
    want = {
        "grid": "2 x 1",
        "local_tile.A": "(128,8,4):(1,256,2048)", "local_tile.B": "(128,8,4):(1,128,1024)",
        "local_tile.C": "(128,128):(128,1)",
        "partitions.A": "(1,(4,2),8):(0,(1,64),256)", "partitions.B": "(1,(4,2),8):(0,(1,64),128)",
        "partitions.C": "(1,(4,2),(4,2)):(0,(128,8192),(1,64))",
        "fragments.A": "(1,(4,2),8)", "fragments.B": "(1,(4,2),8)",
        "fragments.C": "(1,(4,2),(4,2))",
        "k_loop.k_tiles": "4", "k_loop.k_blocks": "8", "k_loop.per_k_block": "64",
        "k_loop.per_k_tile": "512", "k_loop.total": "2048",
        "k_loop.loads.A": "64", "k_loop.loads.B": "64", "epilogue.elements": "64",
        "predicates.A": "0, 0, 0, 0", "predicates.C": "0",
    }
    for k, v in want.items():
        got = field(k)
        check(got == v, f"step 1 trace: {k} = {v} (page: {got})")
    cli_text = tessera(*STEP1_CLI, "--cta", "0", "0", "--thread", "0")
    check(driver.find_element(By.ID, "trace-text").get_attribute("textContent") == cli_text,
          "step 1 trace: the page's text is `tessera trace`'s")
    cli = json.loads(tessera(*STEP1_CLI, "--json"))
    data = driver.execute_script("return window.tessera.page(window.tessera.state())")
    check(all(data.get(k) == v for k, v in cli.items()),
          f"step 1 trace: the page's JSON has every field of `tessera trace --json` "
          f"({[k for k, v in cli.items() if data.get(k) != v]} differ)")
    check(canvas("A", "tile") == "0,0,128,8" and canvas("B", "tile") == "0,0,8,128"
          and canvas("A", "lit") == "64" and canvas("B", "lit") == "64"
          and canvas("C", "filled") == "1/4",
          f"k_tile 0: A's tile at k 0..7, B's too, 64 elements of each lit, C 1/4 filled "
          f"({canvas('A', 'tile')}, {canvas('B', 'tile')}, {canvas('C', 'filled')})")

    # 2. The stepper.
    click("trace-next")
    click("trace-next")
    check(driver.find_element(By.ID, "trace-k").text == "k_tile 2 of 4"
          and canvas("A", "tile") == "0,16,128,8" and canvas("B", "tile") == "16,0,8,128"
          and canvas("C", "filled") == "3/4",
          f"next twice: k_tile 2, the tiles at k 16..23, C 3/4 filled ({canvas('A', 'tile')})")
    check("k_tile=2" in driver.execute_script("return location.hash"),
          "the stepper writes k_tile into the URL")
    click("trace-prev")
    check(driver.find_element(By.ID, "trace-k").text == "k_tile 1 of 4", "previous: k_tile 1")
    click("trace-play")
    wait(driver, "return document.getElementById('trace-k').textContent === 'k_tile 2 of 4'",
         "play: the next k_tile")
    click("trace-play")  # pause
    paused = driver.find_element(By.ID, "trace-k").text
    time.sleep(1.0)
    check(driver.find_element(By.ID, "trace-k").text == paused, "pause stops the stepper")

    # 3. The URL round-trips the state: thread and CTA typed, k_tile stepped, then reloaded.
    typed(driver, "in-thread", "17")
    typed(driver, "in-cta", "1,0")
    wait(driver, "return document.getElementById('trace-k').textContent === 'k_tile 0 of 4'"
         " && window.tessera.state().thread === 17", "thread 17 of CTA (1,0)")
    click("trace-next")
    click("trace-next")
    click("trace-next")
    before, href = state(), driver.current_url
    load(href, "reloaded")
    after = state()
    check(after == before and after["thread"] == 17 and after["cta"] == [1, 0]
          and after["k_tile"] == 3, f"the URL restores the state ({before} -> {after})")
    check(driver.find_element(By.ID, "trace-k").text == "k_tile 3 of 4"
          and canvas("A", "tile") == "128,24,128,8",
          f"the reloaded page shows k_tile 3 of CTA (1,0) ({canvas('A', 'tile')})")
    check(driver.find_element(By.ID, "trace-text").get_attribute("textContent")
          == tessera(*STEP1_CLI, "--cta", "1", "0", "--thread", "17"),
          "the reloaded page's text is `tessera trace --cta 1 0 --thread 17`'s")

    # 4. A ragged problem: the masked elements per k_tile are the trace's predicates.
    # Thread 40 owns rows 128 + {8..11, 72..75}: the last four lie past M = 200.
    ragged = {"kind": "trace", "preset": "step1", "problem": "200,128,30", "cta": "1,0",
              "thread": "40", "k_tile": "0"}
    load(base + "#" + urllib.parse.urlencode(ragged), "ragged trace")
    cli = json.loads(tessera("trace", "--preset", "step1", "--problem", "200", "128", "30",
                             "--cta", "1", "0", "--thread", "40", "--json"))
    masked = {n: [] for n in "AB"}
    for k in range(4):
        for n in "AB":
            masked[n].append(int(canvas(n, "masked")))
        click("trace-next")
    check(masked["A"] == cli["predicates"]["A"]["masked_per_k_tile"]
          and masked["B"] == cli["predicates"]["B"]["masked_per_k_tile"]
          and masked["A"][3] > 0,
          f"ragged: masked A and B elements per k_tile {masked} are the trace's")
    check(int(canvas("C", "masked")) == len(cli["predicates"]["C"]["masked"])
          and int(canvas("C", "masked")) > 0,
          f"ragged: the masked C elements ({canvas('C', 'masked')}) are the trace's")

    # 5. A CTA outside the grid: the library's rule, then the page recovers.
    typed(driver, "in-cta", "2,0")
    wait(driver, "return !document.getElementById('error').hidden", "the error box")
    msg = driver.find_element(By.ID, "error-message").text
    check("CTA (2,0) is outside the grid 2 x 1" in msg, f"a CTA outside the grid: {msg!r}")
    typed(driver, "in-thread", "300")
    typed(driver, "in-cta", "0,0")
    wait(driver, "return !document.getElementById('error').hidden && "
         "document.getElementById('error-message').textContent.includes('thread 300')",
         "the thread error")
    typed(driver, "in-thread", "3")
    wait(driver, "return document.getElementById('error').hidden", "the page recovers")
    check(field("grid") == "2 x 1" and state()["thread"] == 3, "the page recovers")
    errors = chromium.console_errors(driver)
    check(errors == [], f"no console errors ({errors[:2]})")
    sent = [json.loads(e["message"])["message"] for e in driver.get_log("performance")]
    sent = [m["params"]["request"]["url"] for m in sent
            if m.get("method") == "Network.requestWillBeSent"
            and not m["params"]["request"]["url"].startswith("file://")]
    check(sent == [], f"no network request ({sent[:2]})")
    driver.save_screenshot(os.path.join(work, "trace_ragged.png"))
finally:
    driver.quit()
    shutil.rmtree(profile, ignore_errors=True)

if failures:
    print(f"{len(failures)} failures")
    sys.exit(1)
print("all passed")
