#!/usr/bin/env python3
"""A layout's picture on the page coloured by value, by bank or by a tiler's tiles (the color
chooser), in headless Chromium (Selenium + chromedriver).

Usage: test_picture_colours.py TESSERA_EXE [WORK_DIR]
Checks, reading the canvas's pixels at every cell (a corner, clear of the labels), against banks
and tiles computed here from the definitions:
  - `render --layout "Sw<3,4,3> o (8,64):(64,1)" --tiler "(2,8)"`: the chooser offers value,
    bank and tile; by bank (16-bit elements), cell (r, c) holds Sw(64 r + c), Sw(o) = o XOR
    ((o & 0b111_0000000) >> 3), and two cells share a color exactly when they share its bank
    floor(Sw(o) * 16 / 32) mod 32; rows 0 and 1 alike, rows 0 and 2 differ (the XOR); the
    hover line names the cell's bank; the state (the link) keeps the choice;
  - by tile: cell (r, c) lies in tile r/2 + 4 (c/8) of the tiler (2,8) (zipped_divide's rest
    mode): 32 colors, shared exactly within a tile;
  - by value: the value gradient (colors other than the bank colors);
  - `render --layout ... --colour bank` opens colored by bank; with the library live (the
    WebAssembly build), typing another tiler, (4,4), recolors by its tiles r/4 + 2 (c/4);
  - the SVG export's colors are the canvas's; no console error.
Exits 77 (ctest SKIP) when Chromium, chromedriver or Selenium is missing.
Screenshots go to $TESSERA_SCREENSHOT_DIR when set (e.g. docs/), else WORK_DIR.
"""
import os
import re
import sys
import time
import xml.etree.ElementTree as ET

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import chromium  # noqa: E402  (same directory; Selenium importable, or a SKIP exit)
from page_checks import check, failures, runner, same_partition, work_dir  # noqa: E402
from selenium.webdriver.common.action_chains import ActionChains  # noqa: E402
from selenium.webdriver.common.by import By  # noqa: E402

exe = os.path.abspath(sys.argv[1])
work = work_dir(2, "tessera-picture-colours-")
shots = os.environ.get("TESSERA_SCREENSHOT_DIR") or work
tessera = runner(exe)
LAYOUT = "Sw<3,4,3> o (8,64):(64,1)"


def page(name, *flags):
    out = os.path.join(work, name + ".html")
    tessera("render", "--layout", LAYOUT, *flags, "-o", out)
    return out


def sw(o):  # Sw<3,4,3>: bits 7..9 XORed into bits 4..6
    return o ^ ((o & (7 << 7)) >> 3)


BANKS = [(sw(64 * r + c) * 16 // 32) % 32 for r in range(8) for c in range(64)]


def tiles(tr, tc):
    """The tile of each cell of an 8 x 64 layout under the tiler (tr, tc), row-major."""
    return [r // tr + (8 // tr) * (c // tc) for r in range(8) for c in range(64)]


driver, profile = chromium.start()


# The layout picture's color at each cell's corner (row-major).
CELL_COLORS = """
window.tessera.whole('layout');  // every cell on the canvas
const c = document.getElementById('grid-layout'), cell = +c.dataset.cell;
const R = +c.dataset.rows, C = +c.dataset.cols;
const px = c.getContext('2d').getImageData(0, 0, c.width, c.height).data, out = [];
for (let r = 0; r < R; ++r)
  for (let k = 0; k < C; ++k) {
    const o = 4 * ((r * cell + 1) * c.width + k * cell + 1);
    out.push(px[o] + ',' + px[o + 1] + ',' + px[o + 2]);
  }
return out;
"""


def colours():
    return driver.execute_script(CELL_COLORS)


def choose(mode):
    driver.find_element(By.ID, "colour-" + mode).click()
    time.sleep(0.1)


def rows(cs, r):
    return cs[64 * r:64 * (r + 1)]


try:
    chromium.open_file(driver, page("tiler", "--tiler", "(2,8)"))
    radios = [e.get_attribute("id") for e in driver.find_elements(By.NAME, "colour")]
    check(radios == ["colour-value", "colour-bank", "colour-tile"],
          f"the chooser offers value, bank and tile ({radios})")
    by_value = colours()
    choose("bank")
    by_bank = colours()
    check(same_partition(by_bank, BANKS),
          "by bank: cells share a color exactly when they share the bank of Sw(64 r + c) at 16 "
          "bits")
    check(rows(by_bank, 0) == rows(by_bank, 1) and rows(by_bank, 0) != rows(by_bank, 2),
          "by bank: rows 0 and 1 alike, row 2 differs (the XOR of row pair 1)")
    check(set(by_value).isdisjoint(by_bank), "by value: the value gradient, not the bank colors")
    check(driver.execute_script("return window.tessera.state().colour") == "bank",
          "the state (the link) keeps the choice")
    # Hover cell (2, 5): its bank in the hover line.
    c = driver.find_element(By.ID, "grid-layout")
    driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", c)
    cell = int(c.get_attribute("data-cell"))
    ActionChains(driver).move_to_element_with_offset(
        c, 5 * cell + cell // 2 - c.size["width"] // 2,
        2 * cell + cell // 2 - c.size["height"] // 2).perform()
    hover = driver.find_element(By.ID, "hover-layout")
    check(hover.get_attribute("data-bank") == str(BANKS[2 * 64 + 5]) and
          f"bank {BANKS[2 * 64 + 5]}" in hover.text,
          f"hovering (2,5) names its bank {BANKS[2 * 64 + 5]} ({hover.text})")
    driver.save_screenshot(os.path.join(shots, "layout_by_bank.png"))
    svg = ET.fromstring(driver.execute_script("return window.tessera.svg('layout')"))
    fills = [r.get("fill") for r in svg.iter("{http://www.w3.org/2000/svg}rect")
             if r.get("class") == "cell"]
    check(same_partition(fills, BANKS), "the SVG export is colored by bank as the canvas")
    choose("tile")
    by_tile = colours()
    check(same_partition(by_tile, tiles(2, 8)) and len(set(by_tile)) == 32,
          "by the tiles of (2,8): 32 colors, cell (r, c) in tile r/2 + 4 (c/8)")
    driver.save_screenshot(os.path.join(shots, "layout_by_tile.png"))

    chromium.open_file(driver, page("bank", "--colour", "bank"))
    check(same_partition(colours(), BANKS), "render --colour bank: the page opens by bank")
    live = driver.execute_script(
        "const end = Date.now() + 20000; return new Promise(ok => { const f = () => "
        "window.tesseraLive ? ok(true) : Date.now() > end ? ok(false) : setTimeout(f, 50); "
        "f(); })")
    if live:  # the tiler field recomputes through the library
        choose("tile")
        f = driver.find_element(By.ID, "in-tiler")
        f.send_keys("(4,4)")
        end = time.time() + 10
        while time.time() < end and driver.execute_script(
                "return JSON.stringify(window.tessera.state().tiler || '')") != '"(4,4)"':
            time.sleep(0.1)
        time.sleep(0.3)
        check(same_partition(colours(), tiles(4, 4)),
              "live: the tiler field (4,4) recolors by its tiles r/4 + 2 (c/4)")
        check(re.search(r"tiler=%284%2C4%29|tiler=\(4,4\)", driver.current_url) is not None,
              f"live: the link holds the tiler ({driver.current_url[-60:]})")
    else:
        print("note: the page is not live (no WebAssembly build): the tiler field not checked")
    errors = chromium.console_errors(driver)
    check(not errors, f"no console error ({errors[:2]})")
finally:
    driver.quit()

print(f"test_picture_colours: {len(failures)} failures")
sys.exit(1 if failures else 0)
