"""`tfdebug run --report` on every reproducer that misbehaves silently, or must stay quiet.

Cases come from tests/cases and the held-out tests/cases_extra. `expect: warning`: the
script runs and the report has a diagnostic of the header's category at one of its lines
in the case file. `expect: clean`: the script runs and no diagnostic has that category.
"""
import os

import pytest

from conftest import case_files, case_header, end_to_end_cases

# Cases no general rule gets right yet: {file name: reason}. Strict, so a fix shows up.
KNOWN_FAILURES: dict[str, str] = {}

CASE_FILES = case_files("warning", "clean")
END_TO_END_CASES = end_to_end_cases(CASE_FILES)  # as real `tfdebug run` subprocesses


def _param(case):
    reason = KNOWN_FAILURES.get(os.path.basename(case))
    marks = [pytest.mark.xfail(strict=True, reason=reason)] if reason else []
    return pytest.param(case, id=os.path.basename(case), marks=marks)


@pytest.mark.parametrize("case", [_param(c) for c in CASE_FILES])
def test_case_is_flagged_as_its_header_says(case, case_run):
    categories, expect, lines = case_header(case)
    proc, report = case_run
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert report["status"] == "ok"
    ours = [d for d in report["diagnostics"] if d["category"] in categories]
    if expect == "clean":
        assert ours == [], ours
        return
    hits = [d for d in ours if d["line"] in lines and os.path.samefile(d["file"], case)]
    assert hits, (sorted(lines), [(d["category"], d["file"], d["line"]) for d in ours])
    hit = hits[0]
    assert hit["severity"] == "warning" and hit["recipe"], hit
    # The warning printed while the script ran names the recipe to look up.
    assert f"tfdebug {hit['recipe']} {hit['category']}" in proc.stderr
