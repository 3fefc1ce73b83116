"""Headless Chromium for the page tests (Selenium + chromedriver). Importing it makes Selenium
importable (Debian's python3-selenium lives in the system interpreter: a venv's python runs the
test again there) or exits 77 (ctest SKIP) saying what is missing; start(width=1400) opens the
browser (width x 1000 pixels).

The helpers every page test uses on it (the checks themselves are page_checks.py's, which the
tests without a browser share too):
  - poll(driver, js, timeout): whether the script returned true within timeout seconds;
  - wait(driver, js, what, timeout=60): the same, a failed check "timed out waiting for WHAT"
    when it did not;
  - reopen(driver, url): the network log emptied, then url opened from a blank page (so that a
    URL differing only in its fragment loads again);
  - open_file(driver, path): a page file opened, then up to 30 seconds for its script to finish
    (window.tesseraReady; the test's checks say whether it did);
  - typed(driver, el_id, text) / choose(driver, el_id, value): a text field typed (send_keys) or
    a <select>'s option picked, then `settle` seconds (0.4) for the page to recompute (it does
    60 ms after the last key);
  - console_errors(driver): the console's SEVERE entries since the last call;
  - offline(driver): the network emulated offline (a page that fetches anything fails)."""
import os
import shutil
import sys
import tempfile
import time

from page_checks import check

SKIP = 77


def skip(why):
    print(f"SKIP: {why}")
    sys.exit(SKIP)


try:
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import Select
except ImportError:
    system = "/usr/bin/python3"
    if os.path.exists(system) and os.path.realpath(sys.executable) != os.path.realpath(system) \
            and not os.environ.get("TESSERA_BROWSER_REEXEC"):
        os.environ["TESSERA_BROWSER_REEXEC"] = "1"
        os.execv(system, [system, *sys.argv])
    skip("Selenium for Python is not installed (Debian: python3-selenium)")


def find(*names):
    return next((p for p in map(shutil.which, names) if p), None)


def start(width=1400):
    """(driver, profile directory): a headless Chromium at width x 1000, scale 1, with its network
    and console logs kept; skips where Chromium or chromedriver is missing."""
    chrome = os.environ.get("CHROME_BIN") or find("chromium", "chromium-browser", "google-chrome",
                                                  "chrome")
    driver_exe = os.environ.get("CHROMEDRIVER") or find("chromedriver") or (
        "/usr/lib/chromium/chromedriver" if os.path.exists("/usr/lib/chromium/chromedriver")
        else None)
    if not chrome:
        skip("Chromium is not installed (Debian: chromium)")
    if not driver_exe:
        skip("chromedriver is not installed (Debian: chromium-driver)")
    opts = webdriver.ChromeOptions()
    opts.binary_location = chrome
    profile = tempfile.mkdtemp(prefix="tessera-chromium-")
    for a in ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
              "--disable-background-networking", "--disable-component-update", "--disable-sync",
              "--disable-dev-shm-usage", f"--user-data-dir={profile}",
              f"--window-size={width},1000", "--force-device-scale-factor=1"]:
        opts.add_argument(a)
    opts.set_capability("goog:loggingPrefs", {"performance": "ALL", "browser": "ALL"})
    try:
        return webdriver.Chrome(service=Service(executable_path=driver_exe), options=opts), profile
    except Exception as e:  # noqa: BLE001 -- a browser that cannot start is the environment's
        sys.exit(f"Chromium did not start: {e}")


def poll(driver, js, timeout):
    end = time.time() + timeout
    while time.time() < end:
        if driver.execute_script(js):
            return True
        time.sleep(0.05)
    return False


def reopen(driver, url):
    driver.get_log("performance")
    driver.get("about:blank")
    driver.get(url)


def open_file(driver, path):
    driver.get("file://" + path)
    poll(driver, "return window.tesseraReady === true", 30)


def wait(driver, js, what, timeout=60):
    if poll(driver, js, timeout):
        return True
    check(False, f"timed out waiting for {what}")
    return False


def typed(driver, el_id, text, settle=0.4):
    box = driver.find_element(By.ID, el_id)
    box.clear()
    box.send_keys(text)
    time.sleep(settle)


def choose(driver, el_id, value, settle=0.4):
    Select(driver.find_element(By.ID, el_id)).select_by_value(value)
    time.sleep(settle)


def console_errors(driver):
    return [e for e in driver.get_log("browser") if e.get("level") == "SEVERE"]


def offline(driver):
    driver.execute_cdp_cmd("Network.enable", {})
    driver.execute_cdp_cmd("Network.emulateNetworkConditions",
                           {"offline": True, "latency": 0, "downloadThroughput": 0,
                            "uploadThroughput": 0})
