"""The HTML report in a real headless browser (Debian's chromium + chromedriver, Selenium).

The page of ``tfdebug run --html`` on examples/retracing.py, opened from a file:// URL: no
console errors, one mark per recorded trace, hovering a retrace shows its reason, clicking
it jumps to its row; a screenshot is taken (``TFDEBUG_SCREENSHOT=PATH`` keeps a copy, which
is how docs/html-report.png is made). A user string with ``<script>`` in it stays text.
Skipped, with the reason, only where no browser can be found or started.
"""
import json
import os
import shutil
import tempfile

import pytest

from conftest import ROOT, run_tfdebug

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser") or "/usr/bin/chromium"
CHROMEDRIVER = shutil.which("chromedriver") or "/usr/bin/chromedriver"
FLAGS = ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync",
         "--disable-dev-shm-usage", "--window-size=1280,900")
WAIT = 15  # seconds: any single browser step


@pytest.fixture(scope="module")
def browser():
    """One headless chromium for the module; its console log is read by every test."""
    try:
        from selenium import webdriver
        from selenium.webdriver.chrome.service import Service
    except ImportError:
        pytest.skip("selenium is not installed: pip install -e '.[test]'")
    for path, package in ((CHROMIUM, "chromium"), (CHROMEDRIVER, "chromium-driver")):
        if not os.access(path, os.X_OK):
            pytest.skip(f"no {path}: install Debian's {package} (apt-get install -y "
                        f"chromium chromium-driver; .ci/run does)")
    profile = tempfile.mkdtemp(prefix="tfdebug-chromium-")
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for flag in (*FLAGS, f"--user-data-dir={profile}"):
        options.add_argument(flag)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    try:
        driver = webdriver.Chrome(service=Service(CHROMEDRIVER), options=options)
    except Exception as exc:  # noqa: BLE001 - the reason is the skip message
        shutil.rmtree(profile, ignore_errors=True)
        pytest.skip(f"chromium could not be started: {str(exc).splitlines()[0]}")
    driver.set_page_load_timeout(WAIT)
    driver.set_script_timeout(WAIT)
    try:
        yield driver
    finally:
        driver.quit()
        shutil.rmtree(profile, ignore_errors=True)


def _open(driver, path):
    """Load ``path`` from a file:// URL; return the console messages it caused."""
    driver.get_log("browser")  # drop what earlier pages logged
    driver.get("file://" + os.path.abspath(path))
    return driver.get_log("browser")


def _problems(console):
    return [entry for entry in console if entry.get("level") in ("SEVERE", "WARNING")]


def test_the_console_check_sees_errors(browser, tmp_path):
    """The browser's log is really read: a page with a script error shows up in it."""
    page = tmp_path / "broken.html"
    page.write_text("<!DOCTYPE html><title>x</title><script>no_such_function()</script>")
    assert any("no_such_function" in e["message"] for e in _problems(_open(browser, page)))


@pytest.fixture(scope="module")
def retracing_run(tmp_path_factory):
    folder = tmp_path_factory.mktemp("retracing")
    proc = run_tfdebug("run", "--report", str(folder / "r.json"), "--html",
                       str(folder / "r.html"), os.path.join("examples", "retracing.py"),
                       cwd=ROOT)
    assert proc.returncode == 0, proc.stderr[-3000:]
    return folder / "r.html", json.loads((folder / "r.json").read_text())


def test_retracing_page_marks_tooltips_and_screenshot(browser, retracing_run, tmp_path):
    from selenium.webdriver.common.action_chains import ActionChains
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import WebDriverWait

    page, data = retracing_run
    console = _open(browser, page)
    assert _problems(console) == [], console
    assert browser.title.startswith("tfdebug: examples/retracing.py")

    marks = browser.find_elements(By.CSS_SELECTOR, "svg .tfd-mark")
    recorded = sum(t["count"] for t in data["traces"])
    assert len(marks) == len(data["events"]) == recorded
    retraces = browser.find_elements(By.CSS_SELECTOR, "svg .tfd-k-retrace")
    assert len(retraces) == sum(e["kind"] == "retrace" for e in data["events"]) > 0

    # Hover the first retrace: the tooltip shows that trace's reason from the report.
    first_retrace = next(e for e in data["events"] if e["kind"] == "retrace")
    tip = browser.find_element(By.ID, "tfd-tip")
    assert not tip.is_displayed()
    ActionChains(browser).move_to_element(retraces[0]).perform()
    WebDriverWait(browser, WAIT).until(lambda _: tip.is_displayed())
    for reason in first_retrace["reasons"]:
        assert reason["text"] in tip.text
    assert first_retrace["function"] in tip.text and "retrace" in tip.text

    # Warnings and the stale capture sit on the same axis, linked to their diagnostics.
    findings = browser.find_elements(By.CSS_SELECTOR, "svg .tfd-finding")
    assert len(findings) == len(data["diagnostics"])
    shot = tmp_path / "timeline.png"
    assert browser.save_screenshot(str(shot))
    assert shot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and shot.stat().st_size > 10_000
    keep = os.environ.get("TFDEBUG_SCREENSHOT")
    if keep:
        shutil.copyfile(shot, keep)

    # Clicking the mark jumps to its row in the function's table of traces.
    retraces[0].click()
    WebDriverWait(browser, WAIT).until(
        lambda b: b.execute_script("return location.hash") == f"#t{first_retrace['index']}")
    row = browser.find_element(By.ID, f"t{first_retrace['index']}")
    assert row.is_displayed() and first_retrace["reasons"][0]["text"] in row.text
    (copy,) = browser.find_elements(By.CSS_SELECTOR, "button.tfd-copy-button")  # train_step's
    copy.click()
    WebDriverWait(browser, WAIT).until(lambda _: copy.text != "copy")
    assert _problems(browser.get_log("browser")) == []


def test_the_timeline_zooms(browser, retracing_run):
    """Buttons, a drag across the plot and reset move every mark by its recorded time."""
    from selenium.webdriver.common.action_chains import ActionChains
    from selenium.webdriver.common.by import By

    page, data = retracing_run
    console = _open(browser, page)
    assert _problems(console) == [], console
    bar = browser.find_element(By.CSS_SELECTOR, ".tfd-zoom")
    assert bar.is_displayed()                     # shown by the script (hidden without it)
    read = ("return Array.from(document.querySelectorAll('svg .tfd-mark'), "
            "m => [+m.getAttribute('data-t'), +m.getAttribute('x'), +m.getAttribute('width')])")
    ticks = ("return Array.from(document.querySelectorAll('svg .tfd-ticks text'), "
             "t => t.textContent)")
    before, labels = browser.execute_script(read), browser.execute_script(ticks)
    assert sorted(t for t, _, _ in before) == sorted(e["time"] for e in data["events"])

    def flat(marks):
        return [value for mark in marks for value in mark]

    def scale(marks):  # SVG units per second, from the two marks furthest apart in time
        (t0, a, _), (t1, b, _) = min(marks), max(marks)
        return (b - a) / (t1 - t0)

    bar.find_element(By.CSS_SELECTOR, "button[data-zoom=in]").click()
    zoomed = browser.execute_script(read)
    assert scale(zoomed) == pytest.approx(2 * scale(before), rel=0.01)
    assert browser.execute_script(ticks) != labels
    assert "showing" in bar.find_element(By.CSS_SELECTOR, ".tfd-zoom-range").text
    bar.find_element(By.CSS_SELECTOR, "button[data-zoom=reset]").click()
    assert flat(browser.execute_script(read)) == pytest.approx(flat(before), abs=0.11)
    assert browser.execute_script(ticks) == labels

    # A drag across a tenth of the plot zooms to it: ten times the scale.
    svg = browser.find_element(By.CSS_SELECTOR, "svg.tfd-svg")
    box = svg.rect
    units = box["width"] / browser.execute_script("return arguments[0].viewBox.baseVal.width", svg)
    x0, x1 = float(svg.get_attribute("data-x0")), float(svg.get_attribute("data-x1"))
    start = (x0 + 0.3 * (x1 - x0)) * units - box["width"] / 2
    ActionChains(browser).move_to_element_with_offset(svg, int(start), 0).click_and_hold() \
        .move_by_offset(int(0.1 * (x1 - x0) * units), 0).release().perform()
    dragged = browser.execute_script(read)
    assert scale(dragged) == pytest.approx(10 * scale(before), rel=0.05)
    assert browser.execute_script("return location.hash") == ""   # a drag is not a click
    ActionChains(browser).double_click(svg).perform()
    assert flat(browser.execute_script(read)) == pytest.approx(flat(before), abs=0.11)
    assert _problems(browser.get_log("browser")) == []


def test_a_script_string_in_the_page_stays_text(browser, tmp_path):
    import tensorflow as tf

    import tfdebug
    from selenium.webdriver.common.by import By

    payload = "<script>window.pwned = 1</script><img src=x onerror=window.pwned=2>"

    @tf.function
    def tag(x, label):
        return x + len(label)

    with tfdebug.trace_logger(warn_after=None) as log:
        for label in ("ok", payload):           # the string is in the retrace reason too
            tag(tf.constant(1), label)
    log.to_html(str(tmp_path / "h.html"))
    console = _open(browser, tmp_path / "h.html")
    assert _problems(console) == [], console
    assert browser.execute_script("return window.pwned === undefined")
    assert payload in browser.find_element(By.TAG_NAME, "body").text
    assert len(browser.find_elements(By.TAG_NAME, "script")) == 1
    assert not browser.find_elements(By.TAG_NAME, "img")
