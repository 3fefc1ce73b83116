"""Headless Chromium for the page tests (Selenium + chromedriver). Importing it makes Selenium
importable (Debian's python3-selenium lives in the system interpreter: a venv's python runs the
test again there) or exits 77 (ctest SKIP) saying what is missing; start() opens the browser."""
import os
import shutil
import sys
import tempfile

SKIP = 77


def skip(why):
    print(f"SKIP: {why}")
    sys.exit(SKIP)


try:
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service
except ImportError:
    system = "/usr/bin/python3"
    if os.path.exists(system) and os.path.realpath(sys.executable) != os.path.realpath(system) \
            and not os.environ.get("TESSERA_BROWSER_REEXEC"):
        os.environ["TESSERA_BROWSER_REEXEC"] = "1"
        os.execv(system, [system, *sys.argv])
    skip("Selenium for Python is not installed (Debian: python3-selenium)")


def start():
    """(driver, profile directory): a headless Chromium at 1400 x 1000, scale 1, with its network
    and console logs kept; skips where Chromium or chromedriver is missing."""
    chrome = os.environ.get("CHROME_BIN") or shutil.which("chromium") or shutil.which(
        "chromium-browser")
    driver_exe = os.environ.get("CHROMEDRIVER") or shutil.which("chromedriver") or (
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
              "--disable-dev-shm-usage", f"--user-data-dir={profile}", "--window-size=1400,1000",
              "--force-device-scale-factor=1"]:
        opts.add_argument(a)
    opts.set_capability("goog:loggingPrefs", {"performance": "ALL", "browser": "ALL"})
    try:
        return webdriver.Chrome(service=Service(executable_path=driver_exe), options=opts), profile
    except Exception as e:  # noqa: BLE001 -- a browser that cannot start is the environment's
        sys.exit(f"Chromium did not start: {e}")
