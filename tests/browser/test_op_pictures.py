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
  - hovering a result cell outlines the cells of its tile in A's picture (hover linking), and
    marks the very element it shows: hovering result cell (3, 5) marks exactly one cell of A,
    the one holding the same value (A is injective: the value names the element); so does
    hovering the (tile, rest) form's cell (1, 2), another element than A's (1, 2);
  - blocked_product((2,2):(1,2), (2,3):(1,2)): hovering result cell (3, 4), value v, marks A's
    cell holding v mod 4 (the element of A, cosize 4) and outlines B's cell holding v / 4 (the
    copy);
  - swizzle 3 4 3: the block before and after: before, every row's colors alike; after, rows
    0 and 1 differ (the XOR), and 8 colors; colored by bank (the chooser), cells share a color
    exactly when they share the bank of their offset at 16 bits, computed here: before,
    (128 r + c) / 2 mod 32 (every row alike), after Sw<3,4,3>(128 r + c) / 2 mod 32;
  - the SVG export holds every picture; no console error.
Exits 77 (ctest SKIP) when Chromium, chromedriver or Selenium is missing.
Screenshots go to $TESSERA_SCREENSHOT_DIR when set (e.g. docs/), else WORK_DIR.
"""
import os
import sys
import time
import xml.etree.ElementTree as ET

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import chromium  # noqa: E402  (same directory; Selenium importable, or a SKIP exit)
from page_checks import check, failures, runner, same_partition, work_dir  # noqa: E402
from selenium.webdriver.common.action_chains import ActionChains  # noqa: E402
from selenium.webdriver.common.by import By  # noqa: E402

exe = os.path.abspath(sys.argv[1])
work = work_dir(2, "tessera-op-pictures-")
shots = os.environ.get("TESSERA_SCREENSHOT_DIR") or work
tessera = runner(exe)


def page(name, op, *args):
    out = os.path.join(work, name + ".html")
    tessera("render", "--op", op, "--args", *args, "-o", out)
    return out


driver, profile = chromium.start()


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


# The cells of a picture its overlay layer marks at their middles: [tile outlines, element marks]
# (an element mark is ELEMENT_MARK's magenta: red well above green).
MARKS = """
window.tessera.whole(arguments[0]);  // every cell on the canvas (the marks kept)
const h = document.getElementById('hi-' + arguments[0]), g = document.getElementById(
    'grid-' + arguments[0]), cell = +g.dataset.cell, C = +g.dataset.cols;
const px = h.getContext('2d').getImageData(0, 0, h.width, h.height).data, out = [[], []];
for (let i = 0; i < +g.dataset.rows * C; ++i) {
  const x = (i % C) * cell + (cell >> 1), y = Math.floor(i / C) * cell + (cell >> 1);
  const o = 4 * (y * h.width + x);
  if (px[o + 3] > 0) out[px[o] > px[o + 1] + 80 ? 1 : 0].push(i);
}
return out;
"""


def hover_cell(grid, row, col):
    """The pointer over cell (row, col) of a picture (the whole picture in view)."""
    driver.execute_script("window.tessera.whole(arguments[0])", grid)
    c = driver.find_element(By.ID, "grid-" + grid)
    driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", c)
    cell = int(c.get_attribute("data-cell"))
    ActionChains(driver).move_to_element_with_offset(
        c, col * cell + cell // 2 - c.size["width"] // 2,
        row * cell + cell // 2 - c.size["height"] // 2).perform()


try:
    # 1. logical_divide: the inputs and the results, the tiles colored.
    chromium.open_file(driver, page("logical_divide", "logical_divide", "(8,16):(16,1)", "(2,4)"))
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
        # Hover result cell (3, 5): A's cell of the same value marked, its tile outlined.
        hover_cell("layout", 3, 5)
        value = D["pictures"][res["pic"]]["values"][3 * res["cols"] + 5]
        tiles_, element = driver.execute_script(MARKS, a["grid"])
        want = [i for i, v in enumerate(D["pictures"][a["pic"]]["values"]) if v == value]
        check(len(want) == 1 and element == want,
              f"logical_divide: hovering result (3,5) = {value} marks A's cell {want} "
              f"({element})")
        check(len(tiles_) == 7 and all(D["pictures"][a["pic"]]["tile"][i] ==
                                       D["pictures"][a["pic"]]["tile"][want[0]] for i in tiles_),
              f"logical_divide: and outlines the other 7 cells of its tile ({tiles_})")
        # The (tile, rest) form's cell (1, 2) is another element than A's cell (1, 2).
        hover_cell(zipped["grid"], 1, 2)
        value = D["pictures"][zipped["pic"]]["values"][1 * zipped["cols"] + 2]
        _, element = driver.execute_script(MARKS, a["grid"])
        want = [i for i, v in enumerate(D["pictures"][a["pic"]]["values"]) if v == value]
        check(element == want and want != [1 * 16 + 2],
              f"logical_divide: hovering (tile, rest) (1,2) = {value} marks A's cell {want} "
              f"({element})")
        driver.execute_script("document.getElementById('op-inputs').scrollIntoView()")
        driver.save_screenshot(os.path.join(shots, "op_logical_divide.png"))
        svg = ET.fromstring(driver.execute_script("return window.tessera.svg()"))
        groups = svg.findall("{http://www.w3.org/2000/svg}g")
        check(len(groups) == 4, f"logical_divide: the SVG export holds 4 pictures ({len(groups)})")

    # 2. blocked_product: hovering a result cell marks its element of A and its copy in B.
    chromium.open_file(driver, page("blocked_product", "blocked_product", "(2,2):(1,2)",
                                    "(2,3):(1,2)"))
    D, pics = driver.execute_script(CELL_COLORS)
    if [p["role"] for p in pics] == ["input", "input", "result"]:
        a, b, res = pics
        hover_cell(res["grid"], 3, 4)
        value = D["pictures"][res["pic"]]["values"][3 * res["cols"] + 4]
        a_vals, b_vals = (D["pictures"][p["pic"]]["values"] for p in (a, b))
        _, a_el = driver.execute_script(MARKS, a["grid"])
        b_tile, _ = driver.execute_script(MARKS, b["grid"])
        check(a_el == [a_vals.index(value % 4)],
              f"blocked_product: hovering result (3,4) = {value} marks A's cell of value "
              f"{value % 4} ({a_el})")
        check(b_tile == [b_vals.index(value // 4)],
              f"blocked_product: and outlines B's cell of value {value // 4}, its copy ({b_tile})")
        driver.save_screenshot(os.path.join(shots, "op_blocked_product.png"))
    else:
        check(False, f"blocked_product: A, B and the result ({[p['role'] for p in pics]})")

    # 3. swizzle: before and after, the XOR visible.
    chromium.open_file(driver, page("swizzle", "swizzle", "3", "4", "3"))
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
        # Colored by bank: the bank of each offset at 16 bits.
        driver.find_element(By.ID, "colour-bank").click()
        time.sleep(0.1)
        D, pics = driver.execute_script(CELL_COLORS)
        before, after = pics

        def sw(o):
            return o ^ ((o & (7 << 7)) >> 3)

        banks = [[(f(128 * r + c) // 2) % 32 for r in range(8) for c in range(128)]
                 for f in (lambda o: o, sw)]
        check(same_partition(before["colors"], banks[0]) and
              all(row(before, r) == row(before, 0) for r in range(8)),
              "swizzle by bank: before, the bank of 128 r + c at 16 bits, every row alike")
        check(same_partition(after["colors"], banks[1]) and row(after, 0) != row(after, 1),
              "swizzle by bank: after, the bank of Sw<3,4,3>(128 r + c), rows 0 and 1 differ")
        driver.save_screenshot(os.path.join(shots, "op_swizzle_banks.png"))
    errors = chromium.console_errors(driver)
    check(not errors, f"no console error ({errors[:2]})")
finally:
    driver.quit()

print(f"test_op_pictures: {len(failures)} failures")
sys.exit(1 if failures else 0)
