#!/usr/bin/env python3
"""The playground page (tessera-playground.html: the library compiled to WebAssembly) in headless
Chromium (Selenium + chromedriver).

Usage: test_playground.py TESSERA_EXE PLAYGROUND_HTML ORACLE_DIR [WORK_DIR]
Checks:
  - window.tessera.batch answers the whole public oracle (layout and TiledMMA cases, plus a
    malformed line) exactly as `tessera batch` does, line for line;
  - an op draws its inputs beside its result (logical_divide typed, swizzle from the URL);
  - typing a layout (send_keys) updates the result, the index table and the picture; a malformed
    layout shows the parse error with its position and a caret, and the page keeps working;
  - an algebra op typed in the inputs gives the CLI's answer; the URL fragment restores the state;
  - a TiledMMA (preset, then typed: wgmma m64n256k16, a 256 x 256 FMA tile) and a TiledCopy typed
    in the inputs draw C/A/B (A left, B above) and source/destination ownership as the library says;
  - wgmma's shared-memory A and B: one color per bank (4-byte word of the swizzled address), the
    hover's swizzled offset and bank, the descriptor of every wgmma (layout type, LBO, SBO, block
    starts) equal to `tessera explain --preset hopper --json` for kernel 05's tiles, K- and
    MN-major;
    a swizzle the tile cannot take shows the CLI's rule inline and the page keeps working;
  - the SVG export is valid XML with one <rect class="cell"> per cell;
  - `tessera render` writes the same page (inputs live, preset state);
  - no console error, no network request (loaded with the network emulated offline).
Prints (does not assert) the thread pick and hover times on the m64n256 wgmma and 256 x 256 pages.
Screenshots of step 1, step 4 and a wgmma configuration (zoomed and not, and kernel 05's shared
tiles by bank) go to
$TESSERA_SCREENSHOT_DIR when set (docs/), else WORK_DIR.
Exits 77 (ctest SKIP) when Chromium, chromedriver or Selenium is missing.
"""
import json
import os
import pathlib
import shutil
import subprocess
import sys
import time
import xml.etree.ElementTree as ET

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import chromium  # noqa: E402  (same directory; Selenium importable, or a SKIP exit)
from chromium import choose, typed, wait  # noqa: E402
from page_checks import built, check, failures, runner, work_dir  # noqa: E402
from selenium.webdriver.common.action_chains import ActionChains  # noqa: E402
from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.support.ui import Select  # noqa: E402

exe, page = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
oracle = pathlib.Path(sys.argv[3])
work = work_dir(4, "tessera-playground-")
shots = os.environ.get("TESSERA_SCREENSHOT_DIR") or work
tessera = runner(exe)
built(page, "playground")


driver, profile = chromium.start()


def load(url, name):
    """Loads a page offline and waits for the library; checks no request and no console error."""
    chromium.reopen(driver, url)
    wait(driver, "return window.tesseraLive === true", f"{name}: the WebAssembly library")
    no_errors(name, url)


def no_errors(name, url):
    resources = driver.execute_script("return performance.getEntriesByType('resource').map(e => "
                                      "e.name)")
    sent = [u for u in (json.loads(e["message"])["message"].get("params", {})
                        .get("request", {}).get("url")
                        for e in driver.get_log("performance")
                        if json.loads(e["message"])["message"].get("method")
                        == "Network.requestWillBeSent")
            if u and u.split("#")[0] != url.split("#")[0]]
    check(resources == [] and sent == [],
          f"{name}: no network request ({resources[:2]} {sent[:2]})")
    errors = chromium.console_errors(driver)
    check(errors == [], f"{name}: no console errors ({errors[:2]})")


def text(el_id):
    return driver.find_element(By.ID, el_id).text


def grid(name):
    c = driver.find_element(By.ID, "grid-" + name)
    return int(c.get_attribute("data-rows")), int(c.get_attribute("data-cols"))


def hover_cell(name, row, col):
    c = driver.find_element(By.ID, "grid-" + name)
    driver.execute_script("window.tessera.reveal(arguments[0], arguments[1], arguments[2])",
                          name, row, col)  # the cell in the view
    driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", c)
    cell, ox, oy = (int(c.get_attribute(k)) for k in ("data-cell", "data-ox", "data-oy"))
    w, h = c.size["width"], c.size["height"]
    ActionChains(driver).move_to_element_with_offset(c, int((col + 0.5) * cell - ox - w / 2),
                                                     int((row + 0.5) * cell - oy - h / 2)).perform()
    return driver.execute_script("return Object.assign({}, "
                                 "document.getElementById(arguments[0]).dataset)", "hover-" + name)


# Pick and hover times (ms), measured in the page: the input event and the redraw it causes.
TIMING = """
const pick = [], move = [], c = document.getElementById('grid-C');
const box = c.getBoundingClientRect(), cell = +c.dataset.cell;
const input = document.getElementById('thread');
for (let k = 0; k < 10; ++k) {
  const t0 = performance.now();
  input.value = String((k * 37) % arguments[0]); input.dispatchEvent(new Event('input'));
  pick.push(performance.now() - t0);
}
input.value = ''; input.dispatchEvent(new Event('input'));
for (let k = 0; k < 40; ++k) {
  const r = (k * 7) % +c.dataset.rows, col = (k * 13) % +c.dataset.cols, t0 = performance.now();
  c.dispatchEvent(new MouseEvent('mousemove', {
    clientX: box.left + (col + 0.5) * cell, clientY: box.top + (r + 0.5) * cell, bubbles: true }));
  move.push(performance.now() - t0);
}
const med = a => a.slice().sort((x, y) => x - y)[a.length >> 1];
return [med(pick), Math.max(...pick), med(move), Math.max(...move)];
"""

try:
    chromium.offline(driver)
    url = "file://" + page
    load(url, "playground")
    kib = os.path.getsize(page) // 1024
    print(f"playground page: {kib} KiB")

    # 1. The oracle through window.tessera.batch, line for line against the CLI.
    layout_path, mma_path = oracle / "layout_cases.json", oracle / "tiledmma_cases.json"
    if not layout_path.exists():
        print(f"SKIPPED: the oracle comparison (no oracle at {oracle}; it lives in "
              f"../shared/oracle)")
    else:
        cases = json.loads(layout_path.read_text())["cases"]
        lines = [json.dumps({"id": c["id"], "op": c["op"], "args": c["args"]}) for c in cases]
        strip = lambda c: {k: v for k,
                           v in c.items() if k not in ("C", "A", "B", "tiled_mma_layouts")} | {
            k: {"tensor_layout": c[k]["tensor_layout"]} for k in "CAB"}
        mma_cases = json.loads(mma_path.read_text())["cases"]
        lines += [json.dumps(strip(c)) for c in mma_cases]
        lines += ["this is not json", '{"id": "x", "op": "composition", "args": ["(4,3):(1,8"]}']
        stdin = "\n".join(lines) + "\n"
        cli = tessera("batch", stdin=stdin)
        t0 = time.perf_counter()
        web = driver.execute_script("return window.tessera.batch(arguments[0])", stdin)
        ms = (time.perf_counter() - t0) * 1000
        cl, wl = cli.splitlines(), web.splitlines()
        differ = [i for i, (a, b) in enumerate(zip(cl, wl)) if a != b]
        check(len(cl) == len(lines) and cl == wl,
              f"window.tessera.batch equals `tessera batch` line for line on the oracle: "
              f"{len(cases)} layout and "
              f"{len(mma_cases)} TiledMMA cases + 2 malformed ({len(wl)} lines, {len(differ)} "
              f"differ"
              f"{': ' + wl[differ[0]][:120] if differ else ''}; {ms:.0f} ms in the browser)")
        check(web == cli, "window.tessera.batch's text is byte-identical to the CLI's output")

    # 2. Typing a layout updates the result, the table and the picture.
    choose(driver, "in-kind", "layout")
    typed(driver, "in-layout", "(4,8):(8,1)")
    check(grid("layout") == (4, 8) and "(4,8):(8,1)" in driver.find_element(By.TAG_NAME, "h1").text,
          f"typed (4,8):(8,1): a 4 x 8 picture ({grid('layout')})")
    got = hover_cell("layout", 2, 3)
    check(got.get("value") == "19", f"typed layout: hovering (2,3) shows 19 ({got.get('value')})")
    cells = [td.text for td in driver.find_elements(By.CSS_SELECTOR,
                                                    "#index-table tbody tr:nth-child(2) td")]
    check(cells == [str(8 + c) for c in range(8)],
          f"typed layout: index table row 1 is 8..15 ({cells})")
    # A malformed layout: the parse error with its position, the old picture kept, then fixed.
    typed(driver, "in-layout", "(4,8:(8,1)")
    msg = text("error-message")
    want = subprocess.run([exe, "show", "(4,8:(8,1)"], capture_output=True,
                          text=True).stderr.strip()
    check("position 4" in msg and msg in want
          and driver.find_element(By.ID, "error-caret").text.endswith("^"),
          f"malformed layout: the parse error with its position and a caret ({msg!r}; CLI: "
          f"{want!r})")
    typed(driver, "in-layout", "(2,(2,4)):(16,(1,4))")
    check(not driver.find_element(By.ID, "error").is_displayed() and grid("layout") == (2, 8),
          f"after the error the page keeps working: (2,(2,4)):(16,(1,4)) drawn 2 x 8 "
          f"({grid('layout')})")
    driver.save_screenshot(os.path.join(work, "playground_layout.png"))

    # 3. An algebra op, the URL fragment, the SVG export.
    choose(driver, "in-kind", "op")
    choose(driver, "in-op", "logical_divide")
    typed(driver, "in-arg0", "(8,16):(16,1)")
    typed(driver, "in-arg1", "(2,4)")
    want = tessera("logical_divide", "(8,16):(16,1)", "(2,4)").splitlines()[0]
    check(text("result") == want, f"typed logical_divide: {text('result')} (CLI: {want})")
    roles = driver.execute_script(
        "return [...document.querySelectorAll('.op-picture')].map(p => p.dataset.role)")
    check(roles == ["input", "input", "result", "result"] and grid("layout") == (8, 16),
          f"typed logical_divide: A and the tiler drawn beside the result and (tile, rest) "
          f"({roles}, result {grid('layout')})")
    choose(driver, "in-op", "composition")
    typed(driver, "in-arg1", "(4,2):(2,1)")
    want = tessera("composition", "(8,16):(16,1)", "(4,2):(2,1)").splitlines()[0]
    check(text("result") == want and grid("layout") == (4, 2),
          f"picked composition: {text('result')} (CLI: {want})")
    shared = driver.current_url
    svg = driver.execute_script("return window.tessera.svg()")
    try:
        root = ET.fromstring(svg)
        # The result's picture (g#layout) beside the op's inputs A (8 x 16) and B (4 x 2).
        rects = root.findall(".//{http://www.w3.org/2000/svg}g[@id='layout']"
                             "/{http://www.w3.org/2000/svg}rect[@class='cell']")
        every = root.findall(".//{http://www.w3.org/2000/svg}rect[@class='cell']")
        check(root.tag == "{http://www.w3.org/2000/svg}svg" and len(rects) == 8 and
              len(every) == 8 + 128 + 8,
              f"SVG export: valid SVG with one rect per cell of the result ({len(rects)} of 8) "
              f"and of A and B ({len(every)} of 144)")
    except ET.ParseError as e:
        check(False, f"SVG export is not valid XML: {e}")
    png = driver.execute_script("return window.tessera.png()")
    check(png.startswith("data:image/png;base64,") and len(png) > 100, "PNG export: a PNG data URL")
    load(shared, "shared link")
    vals = [driver.find_element(By.ID, i).get_attribute("value")
            for i in ("in-kind", "in-op", "in-arg0", "in-arg1")]
    check(vals == ["op", "composition", "(8,16):(16,1)", "(4,2):(2,1)"] and text("result") == want,
          f"the shared URL restores the state ({'#' + shared.split('#')[1][:60]}: {vals}, "
          f"{text('result')})")

    # The swizzle op from a URL: the block before and after, computed by the WebAssembly library.
    load(url + "#kind=op&op=swizzle&a0=3&a1=4&a2=3", "swizzle")
    roles = driver.execute_script(
        "return [...document.querySelectorAll('.op-picture')].map(p => p.dataset.role)")
    check(roles == ["input", "result"] and grid("layout") == (8, 128) and
          text("result") == "Sw<3,4,3>",
          f"swizzle 3 4 3: before and after drawn, 8 x 128 ({roles}, {text('result')})")

    # 4. A TiledMMA from the inputs (step 4's atom, custom), then a wgmma (m64n256) configuration.
    driver.get(url)
    wait(driver, "return window.tesseraLive === true", "playground (again)")
    choose(driver, "in-kind", "mma")
    choose(driver, "in-preset", "step4")
    check(grid("C") == (128, 128) and grid("A") == (128, 32) and grid("B") == (32, 128),
          f"step4: C 128 x 128, A 128 x 32, B drawn 32 x 128 above C ({grid('C')}, {grid('A')}, "
          f"{grid('B')})")
    got = hover_cell("C", 9, 3)
    ref = json.loads(tessera("explain", "--preset", "step4", "--thread", got.get("thread", "0"),
                             "--operand", "C", "--json"))
    frag = [tuple(c) for c in ref["operands"]["C"]["coords"]]
    check(frag[int(got["value"])] == (9, 3),
          f"step4: hover C[9][3] -> thread {got['thread']} value {got['value']}")
    driver.execute_script("window.scrollTo(0, 0)")
    driver.save_screenshot(os.path.join(shots, "playground_step4.png"))
    for _ in range(3):
        driver.find_element(By.ID, "zoom-in-C").click()
    hover_cell("C", 66, 66)
    driver.execute_script("window.scrollTo(0, 0)")
    driver.save_screenshot(os.path.join(shots, "playground_step4_zoom.png"))
    choose(driver, "in-preset", "step1")
    driver.find_element(By.ID, "zoom-in-C").click()
    driver.find_element(By.ID, "zoom-in-C").click()
    hover_cell("C", 66, 66)
    driver.execute_script("window.scrollTo(0, 0)")
    driver.save_screenshot(os.path.join(shots, "playground_step1.png"))
    # Kernel 05's configuration: its shared tiles, descriptors and TMA boxes as `explain --preset
    # hopper` says.
    choose(driver, "in-preset", "hopper")
    pre = driver.execute_script("return [...document.querySelectorAll('pre')].map(p => "
                                "p.textContent).join('\\n')")
    cli = tessera("explain", "--preset", "hopper", "--operand", "C")
    lines = [l.strip() for l in cli.splitlines() if "LBO" in l or "boxDim" in l]
    check(grid("C") == (128, 256) and lines and all(l in pre for l in lines),
          f"hopper preset: C {grid('C')}, the CLI's descriptor and box lines on the page "
          f"({len(lines)} lines)")
    choose(driver, "in-preset", "")
    typed(driver, "in-atom", "SM90_64x256x16_F32F16F16_SS")
    typed(driver, "in-atom_layout", "(1,1,1)")
    typed(driver, "in-perm", "none")
    typed(driver, "in-tile", "64,256,16")
    wait(driver, "return document.getElementById('grid-C') && "
         "document.getElementById('grid-C').dataset.cols === '256'", "the m64n256 page")
    check(grid("C") == (64, 256) and grid("A") == (64, 16) and grid("B") == (16, 256),
          f"wgmma m64n256k16 typed: C 64 x 256, A 64 x 16, B 16 x 256 ({grid('C')}, {grid('A')}, "
          f"{grid('B')})")
    pick_med, pick_max, hover_med, hover_max = driver.execute_script(TIMING, 128)
    print(f"TIMING m64n256 (128 threads, C 64x256): thread pick median {pick_med:.1f} ms (max "
          f"{pick_max:.1f}), "
          f"hover median {hover_med:.2f} ms (max {hover_max:.2f})")
    driver.execute_script("window.scrollTo(0, 0)")
    driver.save_screenshot(os.path.join(shots, "playground_wgmma.png"))
    for _ in range(4):
        driver.find_element(By.ID, "zoom-in-C").click()
    hover_cell("C", 32, 130)
    driver.execute_script("window.scrollTo(0, 0)")
    driver.save_screenshot(os.path.join(shots, "playground_wgmma_zoom.png"))
    zoomed = int(driver.find_element(By.ID, "grid-C").get_attribute("data-cell"))
    check(zoomed >= 26, f"zoomed in four times: {zoomed}-pixel cells, T#V# labels drawn")
    # wgmma's shared-memory A and B: colored by bank (the 4-byte word of the swizzled address),
    # the descriptor of every wgmma equal to `explain --preset hopper` (make_gmma_operand) for
    # kernel 05's tiles, and a swizzle the tile cannot take shown inline with the rule.
    check("by bank" in text("title-B")
          and driver.find_element(By.ID, "smem-color-bank").is_selected(),
          f"wgmma: B is drawn as shared memory colored by bank ({text('title-B')!r})")
    d = driver.execute_script("return window.tessera.page(window.tessera.state())")
    sa = d["operands"][1]["smem"]
    # Each cell's color: the cell brought into view, then a pixel in from its top-left corner,
    # clear of the label; all cells in one call (arguments: the canvas, [[row, col], ...]).
    PIXELS = """const c = document.getElementById(arguments[0]);
                return arguments[1].map(([r, k]) => {
                  window.tessera.reveal(arguments[0].slice(5), r, k);
                  const n = +c.dataset.cell, x = k * n + 2 - +c.dataset.ox;
                  const y = r * n + 2 - +c.dataset.oy;
                  return Array.from(c.getContext('2d').getImageData(x, y, 1, 1).data).slice(0, 3);
                });"""
    cells = [(r, c) for r in range(0, 64, 3) for c in range(16)]
    color = dict(zip(cells, map(tuple, driver.execute_script(PIXELS, "grid-A", cells))))
    bank = {rc: sa["bank"][rc[0] * 16 + rc[1]] for rc in cells}
    same = all(color[x] == color[y] for x in cells for y in cells if bank[x] == bank[y])
    differ = all(color[x] != color[y] for x in cells for y in cells if bank[x] != bank[y])
    check(same and differ and len(set(bank.values())) >= 8
          and all(len(set(v)) > 1 for v in color.values()),
          f"wgmma A (32B, the default for K = 16): one color per bank ({len(set(bank.values()))} "
          f"banks, "
          f"{len(set(color.values()))} colors)")
    # a cell the swizzle moves
    i = next(i for i in range(8 * 16, 64 * 16) if sa["phys"][i] != sa["offset"][i])
    got = hover_cell("A", i // 16, i % 16)
    check((got.get("smemPhys"), got.get("smemBank")) == (str(sa["phys"][i]), str(sa["bank"][i])) and
          sa["phys"][i] != sa["offset"][i] and "swizzled" in text("hover-A"),
          f"wgmma A hover ({i // 16},{i % 16}): tile offset {got.get('smemOffset')} -> swizzled "
          f"{got.get('smemPhys')}, bank {got.get('smemBank')}")
    driver.find_element(By.ID, "smem-color-offset").click()
    check(tuple(driver.execute_script(PIXELS, "grid-A", [(0, 0)])[0]) != color[(0, 0)]
          and "swizzled offset" in text("title-B"),
          "wgmma: colored by swizzled offset on request")
    driver.find_element(By.ID, "smem-color-bank").click()
    hopper = json.loads(tessera("explain", "--preset", "hopper", "--json"))["hopper"]["operands"]
    typed(driver, "in-atom_layout", "(2,1,1)")
    typed(driver, "in-tile", "128,256,64")
    for major in ("K", "MN"):
        choose(driver, "in-smem_swizzle", "128B")
        choose(driver, "in-smem_major", major)
        wait(driver, "return !!document.getElementById('smem-wgmma-A') && "
             "document.getElementById('title-B').textContent.includes('128B "
             + major + "-major')", f"the 128B {major}-major wgmma tiles")
        for name in "AB":
            ref = next(o for o in hopper if o["operand"] == name and o["major"] == major)
            rows = driver.execute_script(
                "return Array.from(document.querySelectorAll('#smem-wgmma-' + arguments[0] + ' "
                "tbody tr')).map(r => Object.assign({}, r.dataset))", name)
            starts = [[int(r["start"]) for r in rows if int(r["mnBlock"]) == i]
                      for i in range(len(ref["block_starts"]))]
            fields = {(int(r["layoutType"]), int(r["lbo"]), int(r["sbo"])) for r in rows}
            rd = ref["descriptor"]
            check(fields == {(rd["layout_type"], rd["lbo_bytes"], rd["sbo_bytes"])}
                  and starts == ref["block_starts"]
                  and f"LBO {rd['lbo_bytes']} B, SBO {rd['sbo_bytes']} B"
                  in text("smem-desc-" + name),
                  f"wgmma {name} {major}-major 128B: {len(rows)} wgmmas, (layout type, LBO, SBO) "
                  f"{fields}, starts {starts} "
                  f"equal explain --preset hopper")
        # kernel 05's tiles: A zoomed until the cells show their bank, then the descriptor panel
        if major == "K":
            for _ in range(2):
                driver.find_element(By.ID, "zoom-in-A").click()
            driver.execute_script("window.scrollTo(0, 0)")
            driver.save_screenshot(os.path.join(shots, "playground_wgmma_smem.png"))
            driver.execute_script("document.getElementById('smem-A').scrollIntoView({block: "
                                  "'center'})")
            driver.save_screenshot(os.path.join(work, "playground_wgmma_descriptors.png"))
    # A bad choice: a 16-deep tile cannot take the 128-byte swizzle; the rule inline, the page keeps
    # working.
    choose(driver, "in-smem_major", "K")
    typed(driver, "in-atom_layout", "(1,1,1)")
    typed(driver, "in-tile", "64,256,16")
    wait(driver, "return !!document.getElementById('smem-error-A')", "the inline shared-tile error")
    bad = subprocess.run([exe, "render", "--atom", "SM90_64x256x16_F32F16F16_SS", "--atom-layout",
                          "(1,1,1)", "--tile", "64",
                          "256", "16", "--smem-swizzle", "128B", "-o",
                          os.path.join(work, "bad.html")],
                         capture_output=True, text=True)
    msg = text("smem-error-A")
    check(bad.returncode == 1 and msg and msg in bad.stderr and "not a whole number of" in msg
          and grid("C") == (64, 256)
          and not driver.find_element(By.ID, "error").is_displayed(),
          f"128B on a 16-deep tile: the rule inline ({msg!r}), the same as the CLI's error, the "
          f"page drawn")
    choose(driver, "in-smem_swizzle", "32B")
    wait(driver, "return !document.getElementById('smem-error-A') && "
         "!!document.getElementById('smem-wgmma-A')", "the page after the error")
    check("32B K-major" in text("title-B"),
          f"after the error the page keeps working: 32B ({text('title-B')!r})")
    choose(driver, "in-smem_swizzle", "")
    no_errors("wgmma shared tiles", url)
    # 256 x 256: UniversalFMA over (16,16,1), tile 256 x 256 x 8.
    typed(driver, "in-atom", "UniversalFMA")
    typed(driver, "in-atom_layout", "(16,16,1)")
    typed(driver, "in-tile", "256,256,8")
    wait(driver, "return document.getElementById('grid-C') && "
         "document.getElementById('grid-C').dataset.rows === '256'", "the 256 x 256 page")
    pick_med, pick_max, hover_med, hover_max = driver.execute_script(TIMING, 256)
    print(f"TIMING 256x256 (256 threads, C 256x256): thread pick median {pick_med:.1f} ms (max "
          f"{pick_max:.1f}), "
          f"hover median {hover_med:.2f} ms (max {hover_max:.2f})")
    # A TiledCopy from the inputs: source and destination ownership (thread t copies elements
    # 4t..4t+3).
    choose(driver, "in-kind", "copy")
    typed(driver, "in-thr", "(32,8):(1,32)")
    typed(driver, "in-val", "(4,1)")
    got = hover_cell("src", 6, 1)
    check(grid("src") == (128, 8) and grid("dst") == (128, 8)
          and got.get("thread") == str((6 + 128) // 4),
          f"TiledCopy typed: 128 x 8 source and destination, source (6,1) -> thread "
          f"{got.get('thread')} (want 33)")
    no_errors("playground after typing", url)

    # 5. `tessera render` writes the same page, its state preset and its inputs live.
    path = os.path.join(work, "render_step4.html")
    tessera("render", "--preset", "step4", "--thread", "5", "-o", path)
    load("file://" + path, "render --preset step4")
    sel = driver.find_element(By.ID, "thread").get_attribute("value")
    preset = Select(driver.find_element(By.ID, "in-preset")).first_selected_option
    check(preset.get_attribute("value") == "step4" and sel == "5",
          f"render --preset step4 --thread 5: the page opens with its state ({sel})")
    choose(driver, "in-kind", "layout")
    typed(driver, "in-layout", "(3,5):(5,1)")
    check(grid("layout") == (3, 5), "the rendered page's inputs are live (typed a layout)")
finally:
    driver.quit()
    shutil.rmtree(profile, ignore_errors=True)

print(f"playground: {len(failures)} failures")
sys.exit(1 if failures else 0)
