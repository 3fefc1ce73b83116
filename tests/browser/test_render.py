#!/usr/bin/env python3
"""`tessera render` pages in headless Chromium (Selenium + chromedriver).

Usage: test_render.py TESSERA_EXE [WORK_DIR]
Checks, against the library's own answers (`tessera explain --json`):
  - hovering cells of step 1 and step 4's C tile shows the owning thread and its value index;
  - selecting thread 0 of step 1 highlights exactly its 64 elements (counted on the canvas);
  - the page makes no network request (loaded offline; performance entries and the CDP log);
  - a screenshot is non-blank; the layout and TiledCopy pages answer hovers too;
  - the memory-access overlay: the bank overlay of a 32x32 float column read and of step 4's A in
    shared memory shows the conflicts `tessera analyze` predicts and recolors the warp's cells
    (pixels: one color per bank, column by column); the sector overlay of step 1's C shows
    "128-bit" and "coalesced" and 16 sector colors in one warp store.
Exits 77 (ctest SKIP) with a message when Chromium, chromedriver or Selenium is missing.
Screenshots go to $TESSERA_SCREENSHOT_DIR when set (e.g. docs/), else WORK_DIR.
"""
import json
import os
import shutil
import struct
import sys
import zlib

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import chromium  # noqa: E402  (same directory; Selenium importable, or a SKIP exit)
from page_checks import check, failures, runner, work_dir  # noqa: E402
from selenium.webdriver.common.actions.action_builder import ActionBuilder  # noqa: E402
from selenium.webdriver.common.by import By  # noqa: E402

exe = os.path.abspath(sys.argv[1])
work = work_dir(2, "tessera-browser-")
shots = os.environ.get("TESSERA_SCREENSHOT_DIR") or work
tessera = runner(exe)


def library_fragment(preset, thread, operand="C"):
    """Thread's coordinates [(row, col)] of an operand in fragment order, from `tessera explain
    --json`."""
    j = json.loads(tessera("explain", "--preset", preset, "--thread", str(thread), "--operand",
                           operand, "--json"))
    return [tuple(c) for c in j["operands"][operand]["coords"]]


def png_colors(png):
    """The number of distinct RGB colors of an 8-bit RGB/RGBA PNG (a small decoder, no PIL)."""
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    pos, idat, w = 8, b"", 0
    while pos < len(png):
        n, kind = struct.unpack(">I4s", png[pos:pos + 8])
        body = png[pos + 8:pos + 8 + n]
        if kind == b"IHDR":
            w, h, depth, ctype = struct.unpack(">IIBB", body[:10])
            assert depth == 8 and ctype in (2, 6), (depth, ctype)
            bpp = 3 if ctype == 2 else 4
        elif kind == b"IDAT":
            idat += body
        pos += 12 + n
    raw, stride = zlib.decompress(idat), w * bpp
    prev, colors, at = bytearray(stride), set(), 0
    for _ in range(h):
        f, line = raw[at], bytearray(raw[at + 1:at + 1 + stride])
        at += 1 + stride
        for i in range(stride):
            a = line[i - bpp] if i >= bpp else 0
            b, c = prev[i], prev[i - bpp] if i >= bpp else 0
            if f == 1: line[i] = (line[i] + a) & 255
            elif f == 2: line[i] = (line[i] + b) & 255
            elif f == 3: line[i] = (line[i] + (a + b) // 2) & 255
            elif f == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        for x in range(0, stride, bpp * 7):
            colors.add(bytes(line[x:x + 3]))
        prev = line
    return len(colors)


def load(driver, path):
    """Loads a page with the network emulated offline; returns requests other than the page
    itself."""
    driver.get_log("performance")  # drop earlier entries
    url = "file://" + path
    driver.get(url)
    ready = driver.execute_script("return window.tesseraReady === true")
    check(ready, f"{os.path.basename(path)}: the script ran to the end (offline)")
    resources = driver.execute_script("return performance.getEntriesByType('resource').map(e => "
                                      "e.name)")
    check(resources == [], f"{os.path.basename(path)}: no resource fetched ({resources})")
    sent = []
    for entry in driver.get_log("performance"):
        msg = json.loads(entry["message"])["message"]
        if msg.get("method") == "Network.requestWillBeSent":
            u = msg["params"]["request"]["url"]
            if u != url:
                sent.append(u)
    check(sent == [], f"{os.path.basename(path)}: no network request in the DevTools log "
          f"({sent[:3]})")
    errors = chromium.console_errors(driver)
    check(errors == [], f"{os.path.basename(path)}: no console errors ({errors[:2]})")


def hover(driver, canvas_id, row, col):
    """Moves the real mouse pointer to the center of cell (row, col) and returns the hover data."""
    canvas = driver.find_element(By.ID, canvas_id)
    driver.execute_script("window.tessera.reveal(arguments[0], arguments[1], arguments[2])",
                          canvas_id.replace("grid-", ""), row, col)  # the cell in the view
    driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", canvas)
    cell, ox, oy = (int(canvas.get_attribute(k)) for k in ("data-cell", "data-ox", "data-oy"))
    rect = driver.execute_script("const r = arguments[0].getBoundingClientRect(); return [r.left, "
                                 "r.top]", canvas)
    action = ActionBuilder(driver)
    action.pointer_action.move_to_location(int(rect[0] + (col + 0.5) * cell - ox),
                                           int(rect[1] + (row + 0.5) * cell - oy))
    action.perform()
    hover_id = canvas_id.replace("grid-", "hover-")
    return driver.execute_script("return Object.assign({}, "
                                 "document.getElementById(arguments[0]).dataset)", hover_id)


# Cells whose center pixel is not gray (the selected thread's cells; others are drawn in grays).
COUNT_HIGHLIGHTED = """
window.tessera.whole(arguments[0].replace('grid-', ''));  // every cell on the canvas
const c = document.getElementById(arguments[0]), cell = +c.dataset.cell;
const px = c.getContext('2d').getImageData(0, 0, c.width, c.height).data, out = [];
for (let r = 0; r < +c.dataset.rows; ++r) for (let k = 0; k < +c.dataset.cols; ++k) {
  // the page leaves a 1-pixel gap between cells of 5+ pixels
  const inner = cell - (cell >= 5 ? 1 : 0);
  const x = k * cell + (inner >> 1), y = r * cell + (inner >> 1);
  const i = 4 * (y * c.width + x);
  if (!(px[i] === px[i + 1] && px[i + 1] === px[i + 2])) out.push([r, k]);
}
document.getElementById(arguments[0].replace('grid-', 'zoom-start-')).click();
return out;
"""


# The RGB of every cell (a pixel one in from its top-left corner, clear of the drawn numbers).
CELL_COLORS = """
window.tessera.whole(arguments[0].replace('grid-', ''));  // every cell on the canvas
const c = document.getElementById(arguments[0]), cell = +c.dataset.cell;
const px = c.getContext('2d').getImageData(0, 0, c.width, c.height).data, out = [];
for (let r = 0; r < +c.dataset.rows; ++r) { const row = []; out.push(row);
  for (let k = 0; k < +c.dataset.cols; ++k) {
    const i = 4 * ((r * cell + 1) * c.width + k * cell + 1);
    row.push([px[i], px[i + 1], px[i + 2]]); } }
document.getElementById(arguments[0].replace('grid-', 'zoom-start-')).click();
return out;
"""


def colors(driver, canvas_id):
    return [[tuple(p) for p in row] for row in driver.execute_script(CELL_COLORS, canvas_id)]


def gray(p):
    return p[0] == p[1] == p[2]


def set_input(driver, el_id, value):
    box = driver.find_element(By.ID, el_id)
    box.clear()
    if value != "":
        box.send_keys(str(value))


def overlay(driver, mode, warp=0, instr=""):
    driver.find_element(By.ID, f"overlay-{mode}").click()
    set_input(driver, "warp", warp)
    set_input(driver, "instr", instr)


def text_of(driver, el_id):
    return driver.find_element(By.ID, el_id).text


def check_overlays():
    # A warp reads a row-major 32x32 float tile column by column from shared memory (lane l: row
    # l, value j: column j; 32-bit loads): every load hits one bank 32 times.
    col = ["--copy", "universal:32", "--dtype", "float", "--thr", "(32,1)", "--val", "(1,32)",
           "--src", "(32,32):(32,1)"]
    want = json.loads(tessera("analyze", "--tv", "(32,32):(1,32)", "--tensor", "(32,32):(32,1)",
                              "--space", "shared",
                              "--max-vector-bits", "32", "--json"))["analysis"]["shared"]
    path = os.path.join(work, "column_read.html")
    tessera("render", *col, "--space", "shared", "-o", path)
    load(driver, path)
    before = colors(driver, "grid-src")
    overlay(driver, "bank")
    text = text_of(driver, "analysis-src")
    check(f"{want['max_way']}-way" in text and f"{want['bank_conflicts']} bank conflicts" in text,
          f"column read: the bank overlay shows {want['max_way']}-way, {want['bank_conflicts']} "
          f"bank conflicts "
          f"as `tessera analyze` predicts ({text_of(driver, 'an-shared-src')})")
    after = colors(driver, "grid-src")
    col0_before = {before[r][0] for r in range(32)}
    by_col = [{after[r][c] for r in range(32)} for c in range(32)]
    changed = sum(before[r][c] != after[r][c] for r in range(32) for c in range(32))
    check(len(col0_before) == 32 and all(len(s) == 1 for s in by_col)
          and len({next(iter(s)) for s in by_col}) == 32
          and changed == 32 * 32,
          f"column read: warp 0's cells recolored from 32 threads per column to one bank color per "
          f"column "
          f"({changed} of 1024 cells changed, {len({next(iter(s)) for s in by_col})} bank colors)")
    set_input(driver, "instr", 0)
    lit = [(r, c) for r, row in enumerate(colors(driver, "grid-src")) for c,
           p in enumerate(row) if not gray(p)]
    one = {colors(driver, "grid-src")[r][c] for r, c in lit}
    warp_line = text_of(driver, "an-warp-src")
    check(sorted(lit) == [(r, 0) for r in range(32)] and len(one) == 1
          and "31 bank conflicts" in warp_line,
          f"column read: load 0 lights column 0 in a single bank color ({len(lit)} cells, "
          f"{len(one)} colors; {warp_line})")
    driver.save_screenshot(os.path.join(work, "column_read_banks.png"))
    # Swizzled by Sw<5,0,5> (the swizzle tessera derives for this case): conflict-free, 32 banks in
    # load 0.
    path = os.path.join(work, "column_read_swizzled.html")
    tessera("render", *col, "--swizzle", "Sw<5,0,5>", "--overlay", "bank", "-o", path)
    load(driver, path)
    set_input(driver, "instr", 0)
    c0 = {colors(driver, "grid-src")[r][0] for r in range(32)}
    text = text_of(driver, "analysis-src")
    check("conflict-free" in text and " 0 bank conflicts" in text and len(c0) == 32,
          f"column read, Sw<5,0,5>: conflict-free, load 0 spans {len(c0)} banks")

    # Step 4's A (128x32 halves, row-major) read by the mma_sync fragments from shared memory.
    want = json.loads(tessera("analyze", "--preset", "step4", "--operand", "A", "--space", "shared",
                              "--json"))
    want = want["analysis"]["shared"]
    path = os.path.join(work, "step4_shared.html")
    tessera("render", "--preset", "step4", "--space", "shared", "-o", path)
    load(driver, path)
    before = colors(driver, "grid-A")
    overlay(driver, "bank")
    text = text_of(driver, "analysis-A")
    check(f"{want['bank_conflicts']} bank conflicts" in text and f"{want['max_way']}-way" in text,
          f"step4 A: the bank overlay shows {want['bank_conflicts']} bank conflicts, "
          f"{want['max_way']}-way "
          f"({text_of(driver, 'an-shared-A')})")
    after = colors(driver, "grid-A")
    lit = sorted((r, c) for r, row in enumerate(after) for c, p in enumerate(row) if not gray(p))
    mine = sorted({rc for t in range(32) for rc in library_fragment("step4", t, "A")})
    changed = sum(before[r][c] != after[r][c] for r, c in lit)
    check(lit == mine and changed == len(lit),
          f"step4 A: exactly warp 0's {len(mine)} cells (the library's) recolored by bank, the "
          f"rest gray "
          f"({len(lit)} lit, {changed} changed)")
    set_input(driver, "instr", 0)
    warp_line = text_of(driver, "an-warp-A")
    check("4 wavefronts (ideal 1): 3 bank conflicts" in warp_line,
          f"step4 A: warp 0's load 0 ({warp_line})")

    # Step 1's C stored to global memory: the sector overlay and its verdict.
    path = os.path.join(work, "step1_sectors.html")
    tessera("render", "--preset", "step1", "-o", path)
    load(driver, path)
    overlay(driver, "sector", warp=0, instr=0)
    verdict = text_of(driver, "an-verdict-C")
    check("128-bit" in verdict and "coalesced" in verdict,
          f"step1 C: the sector overlay's verdict ({verdict})")
    lit = [p for row in colors(driver, "grid-C") for p in row if not gray(p)]
    check(len(lit) == 128 and len(set(lit)) == 16,
          f"step1 C: warp 0's store 0 writes 128 floats in 16 sectors "
                                                   f"({len(lit)} cells, {len(set(lit))} sector "
                                                   f"colors)")
    got = hover(driver, "grid-C", 4, 9)
    check(got.get("sector") == str((4 * 128 + 9) * 4 // 32)
          and "sector" in text_of(driver, "hover-C"),
          f"step1 C: hovering C[4][9] names its sector ({got.get('sector')})")
    driver.execute_script("window.scrollTo(0, 0)")
    driver.save_screenshot(os.path.join(shots, "step1_sectors.png"))


def check_mma(driver, preset, cells):
    path = os.path.join(work, f"{preset}.html")
    args = ["render", "--preset", preset, "-o", path]
    if preset == "step1":
        args += ["--compare-perm", "(16,4):(1,16)", "--compare-perm", "(16,8):(8,1)"]
    tessera(*args)
    load(driver, path)
    driver.execute_script("window.scrollTo(0, 0)")
    for row, col in cells:
        got = hover(driver, "grid-C", row, col)
        t, v = int(got.get("thread", -1)), int(got.get("value", -1))
        ok = (int(got.get("row", -1)), int(got.get("col", -1))) == (row, col) and t >= 0
        frag = library_fragment(preset, t) if ok else []
        ok = ok and v < len(frag) and frag[v] == (row,
                                                  col) and int(got["offset"]) == row * 128 + col
        check(ok, f"{preset}: hover C[{row}][{col}] -> thread {t} value {v} offset "
              f"{got.get('offset')}"
                  f" (library: thread {t} value {v} is {frag[v] if 0 <= v < len(frag) else None})")
    driver.execute_script("window.scrollTo(0, 0)")
    png = driver.get_screenshot_as_png()
    with open(os.path.join(shots, f"{preset}.png"), "wb") as f:
        f.write(png)
    n = png_colors(png)
    check(n > 16, f"{preset}: screenshot is not blank ({n} distinct colors sampled)")


driver, profile = chromium.start(width=1280)
try:
    chromium.offline(driver)

    check_mma(driver, "step1", [(0, 0), (66, 3), (5, 70), (127, 127), (64, 64), (17, 100)])
    # Selecting thread 0 (typed) lights exactly its 64 elements, as the library says.
    box = driver.find_element(By.ID, "thread")
    box.clear()
    box.send_keys("0")
    lit = sorted(tuple(x) for x in driver.execute_script(COUNT_HIGHLIGHTED, "grid-C"))
    want = sorted(library_fragment("step1", 0))
    check(len(lit) == 64 and lit == want,
          f"step1: thread 0 highlights exactly its 64 elements ({len(lit)} lit)")
    table_rows = len(driver.find_elements(By.CSS_SELECTOR, "#frag-C tbody tr"))
    check(table_rows == 64, f"step1: thread 0's fragment table has 64 rows ({table_rows})")
    layout = driver.find_element(By.ID, "fraglayout-C").text
    check("(1,(4,2),(4,2)):(0,(128,8192),(1,64))" in layout,
          f"step1: thread 0's fragment layout ({layout})")
    # Clicking a cell selects its owner: C[66][3] belongs to thread 0 too.
    hover(driver, "grid-C", 70, 9)
    a = ActionBuilder(driver)
    a.pointer_action.click()
    a.perform()
    sel = driver.find_element(By.ID, "thread").get_attribute("value")
    check(sel == str(int(hover(driver, "grid-C", 70, 9)["thread"])),
          f"step1: clicking C[70][9] selects its thread ({sel})")
    driver.save_screenshot(os.path.join(shots, "step1_thread.png"))

    check_mma(driver, "step4", [(0, 0), (9, 3), (31, 31), (100, 77), (127, 0)])

    # A layout page and a TiledCopy page (the tiling example's B copy: thread t copies tile elements
    # 4t..4t+3).
    path = os.path.join(work, "layout.html")
    tessera("render", "--layout", "(8,8):(8,1)", "-o", path)
    load(driver, path)
    got = hover(driver, "grid-layout", 2, 3)
    check(got.get("value") == "19" and got.get("coord") == "(2,3)", f"layout: hover (2,3) -> {got}")
    path = os.path.join(work, "copy.html")
    tessera("render", "--copy", "cp_async:16", "--dtype", "float", "--thr", "(32,8):(1,32)",
            "--val", "(4,1)",
            "-o", path)
    load(driver, path)
    got = hover(driver, "grid-src", 6, 1)
    check(got.get("thread") == str((6 + 128 * 1) // 4) and got.get("value") == "2",
          f"copy: source (6,1) -> thread {got.get('thread')} value {got.get('value')} (want 33, 2)")
    check_overlays()
finally:
    driver.quit()
    shutil.rmtree(profile, ignore_errors=True)

print(f"browser: {len(failures)} failures; screenshots in {shots}")
sys.exit(1 if failures else 0)
