"""`tfdebug run --report` on every reproducer that raises (or no longer does) in tests/cases
and in the held-out tests/cases_extra (written after the explainer, to measure how it generalises).

`expect: error`: the report's first diagnostic is an error naming the header's category
and one of its lines. `expect: none`: the script runs and gets no error diagnosis.
"""
import os

import pytest

from conftest import case_files, case_header, end_to_end_cases

CASE_FILES = case_files("error", "none")
END_TO_END_CASES = end_to_end_cases(CASE_FILES)  # as real `tfdebug run` subprocesses

# Cases of tests/cases_catalog the recipes alone cannot get right: the blamed line needs the
# matcher to read more than the traceback.
NEEDS_MATCHER: dict[str, str] = {}


def _param(case):
    reason = NEEDS_MATCHER.get(os.path.basename(case))
    return pytest.param(case, marks=pytest.mark.xfail(strict=True, reason=reason)) if reason else case


@pytest.mark.parametrize("case", [_param(c) for c in CASE_FILES], ids=os.path.basename)
def test_case_is_diagnosed_as_its_header_says(case, case_run):
    categories, expect, lines = case_header(case)
    proc, report = case_run
    errors = [d for d in report["diagnostics"] if d["severity"] == "error"]
    if expect == "none":
        assert proc.returncode == 0, proc.stderr[-2000:]
        assert report["status"] == "ok"
        assert errors == []
        return
    assert proc.returncode == 1 and report["status"] == "error"
    assert report["diagnostics"] and report["diagnostics"][0]["severity"] == "error", report
    first = report["diagnostics"][0]
    assert first["category"] in categories, first
    assert first["line"] in lines, first
    assert os.path.samefile(first["file"], case)
    assert first["code"], first
    # The printed traceback carries the diagnosis note, with the recipe id to look up.
    assert f"tfdebug {first['recipe']} {first['category']}" in proc.stderr
    assert f"tfdebug explain {first['recipe']}" in proc.stderr
