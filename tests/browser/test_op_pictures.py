#!/usr/bin/env python3
"""An algebra op's pictures on the page (`tessera render --op`, the page the playground draws
ops with) in headless Chromium (Selenium + chromedriver).

Usage: test_op_pictures.py TESSERA_EXE [WORK_DIR]
Checks, reading the canvases' pixels at every cell (a corner, clear of the labels):
  - logical_divide((8,16):(16,1), (2,4)): the inputs A and the tiler and the results (the result
    and its (tile, rest) form) are drawn; the result's cells take 16 colors, and two cells share
    a color exactly when the library tags them with one tile (the page data's "tile"); A's
    picture the same; so the result no longer looks like its input: A's tile colors are the
    result's, and the (tile, rest) picture has one color per column;
  - hovering a result cell outlines the cells of its tile in A's picture (hover linking);
  - swizzle 3 4 3: the block before and after: before, every row's colors alike; after, rows
    0 and 1 differ (the XOR), and 8 colors;
  - the SVG export holds every picture; no console error.
Exits 77 (ctest SKIP) when Chromium, chromedriver or Selenium is missing.
Screenshots go to $TESSERA_SCREENSHOT_DIR when set (e.g. docs/), else WORK_DIR.
"""
import json
import os
import subprocess
import sys
import tempfile
import time
import xml.etree.ElementTree as ET

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import chromium  # noqa: E402  (same directory; Selenium importable, or a SKIP exit)
from selenium.webdriver.common.action_chains import ActionChains  # noqa: E402
from selenium.webdriver.common.by import By  # noqa: E402

exe = os.path.abspath(sys.argv[1])
work = os.path.abspath(sys.argv[2] if len(sys.argv) > 2
                       else tempfile.mkdtemp(prefix="tessera-op-pictures-"))
os.makedirs(work, exist_ok=True)
shots = os.environ.get("TESSERA_SCREENSHOT_DIR") or work
failures = []


def check(cond, what):
    print(("ok   " if cond else "FAIL ") + what)
    if not cond:
        failures.append(what)


def page(name, op, *args):
    out = os.path.join(work, name + ".html")
    p = subprocess.run([exe, "render", "--op", op, "--args", *args, "-o", out],
                       capture_output=True, text=True)
    if p.returncode != 0:
        sys.exit(f"render --op {op} failed: {p.stderr}")
    return out


driver, profile = chromium.start()


def load(path):
    driver.get("file://" + path)
    end = time.time() + 30
    while time.time() < end and not driver.execute_script("return window.tesseraReady === true"):
        time.sleep(0.05)


# The page's data and, per picture, the color at each cell's corner (row-major).
CELL_COLORS = """
const D = JSON.parse(document.getElementById('tessera-data').textContent);
return [D, [...document.querySelectorAll('.op-picture')].map(p => {
  window.tessera.whole(p.dataset.grid);  // every cell on the canvas
  const c = document.getElementById('grid-' + p.dataset.grid), cell = +c.dataset.cell;
  const R = +c.dataset.rows, C = +c.dataset.cols;
  const px = c.getContext('2d').getImageData(0, 0, c.width, c.height).data, out = [];
  for (let r = 0; r < R; ++r)
    for (let k = 0; k < C; ++k) {
      const o = 4 * ((r * cell + 1) * c.width + k * cell + 1);
      out.push(px[o] + ',' + px[o + 1] + ',' + px[o + 2]);
    }
  return {role: p.dataset.role, grid: p.dataset.grid, pic: +p.dataset.pic, rows: R, cols: C,
          colors: out};
})];
"""


def same_partition(colors, tiles):
    """Cells share a color exactly when they share a tile."""
    color_of, tile_of = {}, {}
    for c, t in zip(colors, tiles):
        if color_of.setdefault(t, c) != c or tile_of.setdefault(c, t) != t:
            return False
    return True


try:
    # 1. logical_divide: the inputs and the results, the tiles colored.
    load(page("logical_divide", "logical_divide", "(8,16):(16,1)", "(2,4)"))
    D, pics = driver.execute_script(CELL_COLORS)
    roles = [p["role"] for p in pics]
    check(roles == ["input", "input", "result", "result"],
          f"logical_divide: A, the tiler, the result, (tile, rest) drawn ({roles})")
    if len(pics) == 4:
        a, _, res, zipped = pics
        check(len(set(res["colors"])) == 16 == D["tiles"],
              f"logical_divide: 16 colors in the result ({len(set(res['colors']))})")
        check(same_partition(res["colors"], D["pictures"][res["pic"]]["tile"]),
              "logical_divide: result cells share a color exactly when they share a tile")
        check(same_partition(a["colors"], D["pictures"][a["pic"]]["tile"]),
              "logical_divide: A's cells share a color exactly when they share a tile")
        check(set(a["colors"]) == set(res["colors"]), "logical_divide: A's colors are the result's")
        cols = [[zipped["colors"][r * zipped["cols"] + c] for r in range(zipped["rows"])]
                for c in range(zipped["cols"])]
        check(zipped["rows"] == 8 and zipped["cols"] == 16 and
              all(len(set(col)) == 1 for col in cols) and len({col[0] for col in cols}) == 16,
              "logical_divide: (tile, rest) is 8 x 16, one color per column")
        # Hover result cell (0, 0) (tile 0): A's outline layer marks exactly tile 0's 8 cells.
        c = driver.find_element(By.ID, "grid-layout")
        driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", c)
        cell = int(c.get_attribute("data-cell"))
        ActionChains(driver).move_to_element_with_offset(
            c, cell // 2 - c.size["width"] // 2, cell // 2 - c.size["height"] // 2).perform()
        marked = driver.execute_script("""
          window.tessera.whole(arguments[0]);  // every cell on the canvas (the outline kept)
          const h = document.getElementById('hi-' + arguments[0]), g = document.getElementById(
              'grid-' + arguments[0]), cell = +g.dataset.cell, C = +g.dataset.cols;
          const px = h.getContext('2d').getImageData(0, 0, h.width, h.height).data, out = [];
          for (let i = 0; i < +g.dataset.rows * C; ++i) {
            const x = (i % C) * cell + (cell >> 1), y = Math.floor(i / C) * cell + (cell >> 1);
            if (px[4 * (y * h.width + x) + 3] > 0) out.push(i);
          }
          return out;""", a["grid"])
        tile0 = [i for i, t in enumerate(D["pictures"][a["pic"]]["tile"]) if t == 0]
        hover = driver.find_element(By.ID, "hover-op").get_attribute("data-tile")
        check(hover == "0" and marked == tile0,
              f"logical_divide: hovering the result's tile 0 outlines A's {tile0} ({marked})")
        driver.execute_script("document.getElementById('op-inputs').scrollIntoView()")
        driver.save_screenshot(os.path.join(shots, "op_logical_divide.png"))
        svg = ET.fromstring(driver.execute_script("return window.tessera.svg()"))
        groups = svg.findall("{http://www.w3.org/2000/svg}g")
        check(len(groups) == 4, f"logical_divide: the SVG export holds 4 pictures ({len(groups)})")

    # 2. swizzle: before and after, the XOR visible.
    load(page("swizzle", "swizzle", "3", "4", "3"))
    D, pics = driver.execute_script(CELL_COLORS)
    check([p["role"] for p in pics] == ["input", "result"], "swizzle: before and after drawn")
    if len(pics) == 2:
        before, after = pics
        row = lambda p, r: p["colors"][r * p["cols"]:(r + 1) * p["cols"]]  # noqa: E731
        check(before["rows"] == 8 and all(row(before, r) == row(before, 0) for r in range(8)),
              "swizzle: before, every row's colors alike")
        check(row(after, 0) != row(after, 1) and len(set(after["colors"])) == 8,
              "swizzle: after, rows 0 and 1 differ, 8 colors (the ZZZ bits XOR the row)")
        check(same_partition(after["colors"], D["pictures"][1]["tile"]),
              "swizzle: after, cells share a color exactly when they share the ZZZ bits")
        driver.save_screenshot(os.path.join(shots, "op_swizzle.png"))
    errors = [e for e in driver.get_log("browser") if e.get("level") == "SEVERE"]
    check(not errors, f"no console error ({errors[:2]})")
finally:
    driver.quit()

print(f"test_op_pictures: {len(failures)} failures")
sys.exit(1 if failures else 0)
