"""Retake docs/html-report.png from a real run on this machine.

The browser test (tests/test_html_browser.py) runs ``tfdebug run --html`` on
examples/retracing.py, opens the page in headless chromium, hovers a retrace and takes the
screenshot; ``TFDEBUG_SCREENSHOT=PATH`` keeps a copy. This runs that test with it set and
fails when the test did not write the picture (no browser: ``apt-get install -y chromium
chromium-driver``).

Example::

    python tools/html_screenshot.py                 # writes docs/html-report.png
    python tools/html_screenshot.py /tmp/page.png   # elsewhere
"""
import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TEST = "tests/test_html_browser.py::test_retracing_page_marks_tooltips_and_screenshot"


def main(argv: list[str]) -> int:
    target = os.path.abspath(argv[0] if argv else os.path.join(ROOT, "docs", "html-report.png"))
    before = os.stat(target).st_mtime_ns if os.path.exists(target) else None
    proc = subprocess.run([sys.executable, "-m", "pytest", "-q", "-rs", "-p", "no:cacheprovider",
                           TEST], cwd=ROOT, env=dict(os.environ, TFDEBUG_SCREENSHOT=target))
    after = os.stat(target).st_mtime_ns if os.path.exists(target) else None
    if proc.returncode != 0 or after is None or after == before:
        print(f"html_screenshot: {target} was not written (see the test's output above)",
              file=sys.stderr)
        return 1
    print(f"html_screenshot: wrote {os.path.relpath(target, os.getcwd())}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
