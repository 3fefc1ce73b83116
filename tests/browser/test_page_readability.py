#!/usr/bin/env python3
"""The playground's pictures readable by default and exportable, in headless Chromium.

Usage: test_page_readability.py TESSERA_EXE PLAYGROUND_HTML [WORK_DIR]
Checks:
  - every picture (a layout, a large layout, an op's inputs and result, the swizzle op, the step 4,
    hopper and attention TiledMMAs, a TiledCopy) opens at legible cells (>= 24 pixels, labels of
    >= 9-pixel type drawn: T#V# on thread pictures, the value index on layouts), one atom of C
    whole where it fits, and the whole picture in an overview (minimap) when it is larger than
    its viewport;
  - ctrl + wheel zooms about the pointer: the cell under a screen point is the same before and
    after (in and out), and A and B follow C (same cell size, rows and columns aligned);
  - cells say what they are: T#V# labels, a visible legend saying "value index" on layouts; a
    thread or warp out of range is an error naming the range;
  - the index table, kernel 05's text and cuTensorMapEncodeTiled tables scroll inside their panel
    (the page itself does not overflow) and "64" stays on one line;
  - picking another op resets the argument fields to the new op's (swizzle -> logical_divide);
  - cuTensorMapEncodeTiled's arguments for tensors typed on the page (2-D f32 with a 128-byte
    swizzle, 3-D bf16) equal the rules of tessera/tma.hpp computed here, the default row equals
    `tessera explain --preset hopper --json`, and a stride TMA cannot take is an error naming it;
  - the SVG export of one picture and of all: title, tick labels, legend, one cell per element,
    every element inside the viewBox (measured by the browser); the PNG export has the SVG's size.
Exits 77 (ctest SKIP) when Chromium, chromedriver or Selenium is missing.
"""
import base64
import json
import os
import re
import shutil
import struct
import sys
import time
import xml.etree.ElementTree as ET

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import chromium  # noqa: E402  (same directory; Selenium importable, or a SKIP exit)
from chromium import choose, typed, wait  # noqa: E402
from page_checks import built, check, failures, runner, work_dir  # noqa: E402
from selenium.webdriver.common.action_chains import ActionChains  # noqa: E402
from selenium.webdriver.common.by import By  # noqa: E402

exe, page = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
work = work_dir(3, "tessera-readability-")
shots = os.environ.get("TESSERA_SCREENSHOT_DIR") or work
built(page, "playground")
tessera = runner(exe)
SVG = "{http://www.w3.org/2000/svg}"


driver, profile = chromium.start()
js = driver.execute_script


def load(fragment):
    driver.get("about:blank")
    driver.get("file://" + page + fragment)
    wait(driver, "return window.tesseraLive === true && "
         "(!!document.querySelector('#app canvas, #app h1') "
         "|| !document.getElementById('error').hidden)", f"the page {fragment}")
    time.sleep(0.2)


def grids():
    """Every picture on the page: its id, view and what its first drawn label says."""
    return js("""return [...document.querySelectorAll('canvas[id^="grid-"]')].map(c => {
      const id = c.id.slice(5), m = document.getElementById('mini-' + id);
      return Object.assign({id, label: c.dataset.label, font: +c.dataset.font,
                            rows: +c.dataset.rows, cols: +c.dataset.cols,
                            mini: m.getBoundingClientRect().width > 0,
                            miniView: m.dataset.view}, window.tessera.view(id));
    });""")


def legible(name, tv):
    """Checks the pictures of the page `name`; tv: thread pictures (T#V# labels)."""
    for g in grids():
        cell, rows, cols = g["cell"], g["rows"], g["cols"]
        # a wgmma operand in shared memory is labelled by bank, other thread pictures T#V#
        smem = js("return !!document.getElementById('smem-' + arguments[0])", g["id"])
        want = r"T\d+ V\d+" if tv and not smem else r"-?\d+"
        check(cell >= (28 if tv else 24) and g["font"] >= 9 and re.fullmatch(want, g["label"])
              is not None,
              f"{name} {g['id']} ({rows} x {cols}): opens at {cell}-pixel cells, labels "
              f"{g['label']!r} in {g['font']}-pixel type")
        whole = rows * cell <= g["H"] and cols * cell <= g["W"]
        where = "whole in view" if whole else f"the whole in an overview (minimap): {g['miniView']}"
        check(whole != g["mini"] and (whole or g["miniView"].startswith("0,")),
              f"{name} {g['id']}: {where}")


def pointer_data(name, x, y):
    """The picture's point (in cells) under viewport pixel (x, y), and the hover's cell there."""
    v = js("return window.tessera.view(arguments[0])", name)
    c = driver.find_element(By.ID, "grid-" + name)
    ActionChains(driver).move_to_element_with_offset(
        c, int(x - c.size["width"] / 2), int(y - c.size["height"] / 2)).perform()
    hov = js("return Object.assign({}, document.getElementById('hover-' + arguments[0]).dataset)",
             name)
    return ((v["ox"] + x) / v["cell"], (v["oy"] + y) / v["cell"]), (hov.get("row"),
                                                                      hov.get("col")), v["cell"]


def wheel(name, x, y, up):
    js("""const c = document.getElementById('grid-' + arguments[0]), b = c.getBoundingClientRect();
          c.dispatchEvent(new WheelEvent('wheel', {clientX: b.left + arguments[1],
            clientY: b.top + arguments[2], deltaY: arguments[3] ? -100 : 100, ctrlKey: true,
            bubbles: true, cancelable: true}));""", name, x, y, up)


def check_zoom():
    driver.execute_script("document.getElementById('grid-C').scrollIntoView({block: 'center'})")
    x, y = 7.5 * 32, 9.5 * 32  # the center of cell (9, 7) at the starting 32-pixel cells
    for up in (True, True, False):
        before, cell_b, size_b = pointer_data("C", x, y)
        wheel("C", x, y, up)
        after, cell_a, size_a = pointer_data("C", x, y)
        moved = max(abs(before[0] - after[0]), abs(before[1] - after[1])) * size_a
        check(size_a != size_b and cell_a == cell_b and moved <= 1.0,
              f"ctrl + wheel {'in' if up else 'out'} ({size_b} -> {size_a}-pixel cells): the "
              f"cell under the pointer stays (row, col) {cell_b} -> {cell_a}, the point moved "
              f"{moved:.2f} pixels")
    v = js("return window.tessera.view('C')")
    x, y = v["W"] / 2, v["H"] / 2  # the view's center
    before, _, size_b = pointer_data("C", x, y)
    driver.find_element(By.ID, "zoom-in-C").click()
    after, _, size_a = pointer_data("C", x, y)
    moved = max(abs(before[0] - after[0]), abs(before[1] - after[1])) * size_a
    check(size_a > size_b and moved <= 1.0,
          f"the + button ({size_b} -> {size_a}-pixel cells) keeps the view's center: the point "
          f"({before[0]:.2f}, {before[1]:.2f}) cells moved {moved:.2f} pixels")
    c, a, b = (js("return window.tessera.view(arguments[0])", n) for n in "CAB")
    check(a["cell"] == b["cell"] == c["cell"] and a["oy"] == c["oy"] and b["ox"] == c["ox"],
          f"A and B follow C's zoom: cells {a['cell']}, {b['cell']}, {c['cell']}; A's rows at "
          f"{a['oy']} (C {c['oy']}), B's columns at {b['ox']} (C {c['ox']})")
    driver.find_element(By.ID, "zoom-fit-A").click()
    whole = [(g["id"], g["cell"], g["mini"]) for g in grids()]
    check(all(not mini and g["rows"] * g["cell"] <= g["H"] and g["cols"] * g["cell"] <= g["W"]
              for g, (_, _, mini) in zip(grids(), whole)),
          f"'whole' on A shows the whole of A, B and C (id, cell, minimap shown): {whole}")
    driver.find_element(By.ID, "zoom-start-C").click()


def shown(el_id):
    e = driver.find_elements(By.ID, el_id)
    return bool(e) and e[0].is_displayed()


def check_thread_range():
    typed(driver, "thread", "500")
    msg = driver.find_element(By.ID, "thread-error").text
    check(shown("thread-error") and "500" in msg and "0 to 127" in msg,
          f"thread 500 of 128: an error naming the range ({msg!r})")
    typed(driver, "thread", "5")
    check(not shown("thread-error") and "thread 5" in driver.find_element(By.ID,
                                                                         "selected-info").text,
          "thread 5: selected, the error gone")
    typed(driver, "warp", "9")
    msg = driver.find_element(By.ID, "warp-error").text
    check("9" in msg and "0 to 3" in msg, f"warp 9 of 4: an error naming the range ({msg!r})")
    load("#kind=mma&preset=step4&thread=500")
    msg = driver.find_element(By.ID, "error-message").text if shown("error") else ""
    check("500" in msg and "0 to 127" in msg,
          f"thread=500 in the link: the library's error names the range ({msg!r})")


def overflow():
    return js("return document.documentElement.scrollWidth - document.documentElement.clientWidth")


def check_tables():
    load("#kind=layout&layout=(32,32):(32,1)")
    sw, cw = js("const f = document.getElementById('index-table').parentElement; "
                "return [f.scrollWidth, f.clientWidth]")
    lines = js("""const td = document.querySelector('#index-table tbody tr:nth-child(3) td');
                  const r = document.createRange(); r.selectNodeContents(td);
                  return [td.textContent, r.getClientRects().length];""")
    check(sw > cw and overflow() <= 0 and lines == ["64", 1],
          f"(32,32):(32,1): the index table scrolls in its panel ({sw} > {cw} pixels), the page "
          f"does not ({overflow()}), {lines[0]!r} on {lines[1]} line")
    load("#kind=mma&preset=hopper")
    wait(driver, "return !!document.getElementById('tma-row')", "the TMA table")
    for box in ("hopper-scroll", "tma-preset-scroll", "tma-scroll"):
        sw, cw = js(f"const e = document.getElementById('{box}'); "
                    "return [e.scrollWidth, e.clientWidth]")
        check(sw > cw, f"hopper: {box} scrolls inside its panel ({sw} > {cw} pixels)")
    wrapped = js("""return [...document.querySelectorAll('table.encode td, #smem-wgmma-A td')]
                      .filter(td => { const r = document.createRange(); r.selectNodeContents(td);
                                      return r.getClientRects().length > 1; }).length""")
    check(overflow() <= 0 and wrapped == 0,
          f"hopper: the page does not overflow ({overflow()}), no table cell wraps ({wrapped})")
    driver.execute_script("document.getElementById('tma-preset-scroll').scrollIntoView()")
    driver.save_screenshot(os.path.join(shots, "playground_hopper_tma.png"))


def check_op_fields():
    load("#kind=op&op=swizzle&a0=3&a1=4&a2=3")
    choose(driver, "in-op", "logical_divide")
    vals = [driver.find_element(By.ID, f"in-arg{i}").get_attribute("value") for i in range(3)]
    third = driver.find_element(By.ID, "in-arg2")
    want = tessera("logical_divide", vals[0], vals[1]).splitlines()[0]
    got = driver.find_element(By.ID, "result").text
    check(vals[2] == "" and not third.is_enabled() and vals[0] and vals[1]
          and not shown("error") and got == want,
          f"swizzle -> logical_divide: the fields reset to {vals} (the third disabled), result "
          f"{got!r} (CLI {want!r})")
    holders = [driver.find_element(By.ID, f"in-arg{i}").get_attribute("placeholder")
               for i in range(2)]
    check(holders[0].startswith("A") and holders[1].startswith("the tiler"),
          f"logical_divide's placeholders name its arguments {holders}")


def tma_row():
    return js("""const r = document.getElementById('tma-row');
                 return r ? Object.fromEntries([...r.querySelectorAll('td')].map(
                     td => [td.dataset.field, td.textContent])) : null;""")


def encode_text(e):
    """A cuTensorMapEncodeTiled argument list as the page writes it."""
    return {k: "{" + ", ".join(map(str, v)) + "}" if isinstance(v, list) else str(v)
            for k, v in e.items()}


def expected(dtype, shape, stride, box, swizzle):
    """tessera/tma.hpp's rules for a column-major box (mode 0 contiguous): dimension i is mode i,
    strides in bytes of dimensions 1.., the box the tile when it is one box."""
    size = {"f16": 2, "bf16": 2, "f32": 4, "u8": 1}[dtype]
    name = {"f16": "FLOAT16", "bf16": "BFLOAT16", "f32": "FLOAT32", "u8": "UINT8"}[dtype]
    return {"tensorDataType": f"CU_TENSOR_MAP_DATA_TYPE_{name}", "tensorRank": len(shape),
            "globalDim": shape, "globalStrides": [s * size for s in stride[1:]], "boxDim": box,
            "elementStrides": [1] * len(shape),
            "swizzle": "CU_TENSOR_MAP_SWIZZLE_" + ("NONE" if swizzle == "none" else swizzle)}


def type_tensor(dtype, shape, stride, tile, swizzle):
    choose(driver, "tma-dtype", dtype)
    choose(driver, "tma-swizzle", swizzle)
    typed(driver, "tma-shape", ",".join(map(str, shape)))
    typed(driver, "tma-stride", ",".join(map(str, stride)))
    typed(driver, "tma-tile", tile)


def check_tma():
    load("#kind=mma&preset=hopper")
    wait(driver, "return !!document.getElementById('tma-row')", "the TMA table")
    ref = json.loads(tessera("explain", "--preset", "hopper", "--json"))["hopper"]["operands"][0]
    want = {k: v for k, v in encode_text(ref["tma"]["encode"]).items() if k != "l2Promotion"}
    row = tma_row()
    check(row and all(row[k] == v for k, v in want.items()),
          f"TMA for the default tensor (A, K-major) equals explain --preset hopper: {row}")
    cases = [("f32", [300, 1000], [1, 304], [32, 16], "128B"),
             ("bf16", [64, 48, 10], [1, 64, 3072], [64, 16, 2], "128B"),
             ("u8", [1000, 999], [1, 1008], [64, 8], "64B")]
    for dtype, shape, stride, box, swz in cases:
        type_tensor(dtype, shape, stride, "(" + ",".join(map(str, box)) + ")", swz)
        row, want = tma_row(), encode_text(expected(dtype, shape, stride, box, swz))
        bad = {k: (row or {}).get(k) for k, v in want.items() if (row or {}).get(k) != v}
        check(row is not None and not bad and row["boxes"].startswith("1 x "),
              f"TMA for a typed {dtype} tensor {shape}:{stride}, tile {box}, {swz}: "
              f"{'the arguments tma.hpp gives' if not bad else bad}")
    typed(driver, "tma-stride", "1,302")  # 302 x 1 byte is no multiple of 16
    msg = driver.find_element(By.ID, "tma-error").text
    check("multiple of 16" in msg and "302" in msg and tma_row() is None,
          f"a stride TMA cannot take: the rule ({msg!r})")


def png_size(url):
    data = base64.b64decode(url.split(",", 1)[1])
    return struct.unpack(">II", data[16:24]) if data[:8] == b"\x89PNG\r\n\x1a\n" else None


# Every element's box (the browser's own text metrics) against the viewBox.
CLIPPED = """
const d = document.createElement('div'); d.innerHTML = arguments[0]; document.body.append(d);
const svg = d.firstChild, [x0, y0, w, h] = svg.getAttribute('viewBox').split(' ').map(Number);
const out = [];
for (const e of svg.querySelectorAll('rect, text, line')) {
  if (e.classList.contains('background')) continue;
  const b = e.getBBox(), m = e.getCTM(), s = svg.getCTM().inverse().multiply(m);
  const pts = [[b.x, b.y], [b.x + b.width, b.y + b.height]].map(([x, y]) =>
      new DOMPoint(x, y).matrixTransform(s));
  const xs = pts.map(p => p.x), ys = pts.map(p => p.y);
  if (Math.min(...xs) < x0 - 0.5 || Math.max(...xs) > x0 + w + 0.5 ||
      Math.min(...ys) < y0 - 0.5 || Math.max(...ys) > y0 + h + 0.5)
    out.push(e.tagName + ' ' + (e.textContent || '').slice(0, 30));
}
d.remove();
return out;
"""


def check_svg(which, title, rows, cols, labels):
    svg = js("return window.tessera.svg(arguments[0])", which)
    root = ET.fromstring(svg)
    g = root.find(f".//{SVG}g[@id='{which}']")
    texts = lambda cls: [t.text for t in g.iter(SVG + "text") if t.get("class") == cls]
    cells = [r for r in g.iter(SVG + "rect") if r.get("class") == "cell"]
    ticks = texts("x-tick")
    clipped = js(CLIPPED, svg)
    check(texts("x-title") == [title] and "0" in ticks and str(cols - 1 - (cols - 1) % 8) in ticks
          and len(cells) == rows * cols and texts("x-legend") and not clipped
          and len(texts("x-label")) >= (rows * cols if labels else 0),
          f"SVG of {which}: title {texts('x-title')}, {len(ticks)} tick labels, {len(cells)} cells "
          f"({rows} x {cols}), {len(texts('x-label'))} labels, legend {texts('x-legend')[:2]}, "
          f"clipped {clipped[:3]}")
    w, h = int(root.get("width")), int(root.get("height"))
    size = png_size(js("return window.tessera.png(arguments[0])", which))
    check(size == (w, h), f"PNG of {which}: {size} pixels, the SVG's {w} x {h}")
    return svg


def check_export():
    load("#kind=layout&layout=(4,8):(8,1)")
    svg = check_svg("layout", "(4,8):(8,1)", 4, 8, True)
    labels = [t.text for t in ET.fromstring(svg).iter(SVG + "text") if t.get("class") == "x-label"]
    check(labels[:9] == [str(v) for v in range(8)] + ["8"],
          f"the layout's SVG labels its cells with their value index ({labels[:9]})")
    load("#kind=mma&preset=step4")
    titles = js("return window.tessera.state() && [...document.querySelectorAll("
                "'#export-which option')].map(o => o.value)")
    check(titles == ["all", "B", "A", "C"], f"step4: export all or one picture ({titles})")
    title = js("return window.tessera.page(window.tessera.state()).operands[1].title")
    check_svg("A", title, 128, 32, True)
    load("#kind=op&op=logical_divide&a0=(8,16):(16,1)&a1=(2,4)")
    svg = js("return window.tessera.svg('all')")
    root, clipped = ET.fromstring(svg), js(CLIPPED, svg)
    ids = [g.get("id") for g in root.iter(SVG + "g") if g.get("class") == "picture"]
    legends = [t for t in root.iter(SVG + "text") if t.get("class") == "x-legend"]
    check(ids == ["pic0", "pic1", "layout", "pic3"] and len(legends) >= 4 and not clipped,
          f"SVG of all pictures (logical_divide's inputs and results): {ids}, "
          f"{len(legends)} legend lines, nothing outside the viewBox ({clipped[:3]})")
    with open(os.path.join(work, "logical_divide.png"), "wb") as f:
        f.write(base64.b64decode(js("return window.tessera.png('all')").split(",", 1)[1]))


def check_pictures():
    load("")
    legible("op logical_divide", False)
    load("#kind=layout&layout=(64,64):(64,1)")
    legible("layout (64,64):(64,1)", False)
    legend = driver.find_element(By.ID, "legend-layout")
    check(legend.is_displayed() and "value index" in legend.text,
          f"the layout's legend says what a cell's number is ({legend.text!r})")
    load("#kind=op&op=swizzle&a0=3&a1=4&a2=3")
    legible("op swizzle", False)
    for preset in ("step4", "hopper", "attention"):
        load(f"#kind=mma&preset={preset}")
        legible(preset, True)
    load("#kind=mma&preset=step4")
    c = js("return window.tessera.view('C')")
    check(c["H"] // c["cell"] >= 16 and c["W"] // c["cell"] >= 8,
          f"step4: C opens on at least one whole 16 x 8 atom ({c['H'] // c['cell']} x "
          f"{c['W'] // c['cell']} cells in view)")
    driver.execute_script("window.scrollTo(0, 0)")
    driver.save_screenshot(os.path.join(work, "playground_step4_default.png"))
    load("#kind=copy&atom=cp_async:16&elem_bits=32&thr=(32,8):(1,32)&val=(4,1)")
    legible("TiledCopy", True)


try:
    check_pictures()
    load("#kind=mma&preset=step4")
    check_zoom()
    check_thread_range()
    check_tables()
    check_op_fields()
    check_tma()
    check_export()
    errors = chromium.console_errors(driver)
    check(errors == [], f"no console errors ({errors[:2]})")
finally:
    driver.quit()
    shutil.rmtree(profile, ignore_errors=True)

print(f"page readability: {len(failures)} failures")
sys.exit(1 if failures else 0)
