"""`tfdebug run --report` on every reproducer that raises (or no longer does) in tests/cases
and in the held-out tests/cases_extra (written after the explainer, to measure how it generalises).

`expect: error`: the report's first diagnostic is an error naming the header's category
and one of its lines. `expect: none`: the script runs and gets no error diagnosis.
"""
import concurrent.futures
import json
import os
import re

import pytest

from conftest import CASES, run_tfdebug


def _header(path):
    fields = {}
    with open(path, encoding="utf-8") as fh:
        for line in fh:
            if not line.startswith("#"):
                break
            match = re.match(r"#\s*(\w+):\s*(.*)", line)
            if match:
                fields.setdefault(match.group(1), match.group(2).strip())
    lines = {int(n) for n in [fields.get("line", "-"), *fields.get("also", "-").split(",")]
             if n.strip().isdigit()}
    return set(fields["category"].split("|")), fields["expect"], lines


CASES_EXTRA = os.path.join(os.path.dirname(CASES), "cases_extra")
CASE_FILES = sorted((os.path.join(folder, f) for folder in (CASES, CASES_EXTRA) for f in os.listdir(folder)
                     if f.endswith(".py") and _header(os.path.join(folder, f))[1] in ("error", "none")),
                    key=os.path.basename)


def _run(case, tmp):
    report = os.path.join(tmp, os.path.basename(case) + ".json")
    proc = run_tfdebug("run", "--report", report, case, cwd=tmp, timeout=300)
    with open(report, encoding="utf-8") as fh:
        return proc, json.load(fh)


@pytest.fixture(scope="module")
def results(tmp_path_factory):
    tmp = str(tmp_path_factory.mktemp("reports"))
    with concurrent.futures.ThreadPoolExecutor(3) as pool:
        done = dict(zip(CASE_FILES, pool.map(lambda c: _run(c, tmp), CASE_FILES)))
    return done


@pytest.mark.parametrize("case", CASE_FILES, ids=os.path.basename)
def test_case_is_diagnosed_as_its_header_says(case, results):
    categories, expect, lines = _header(case)
    proc, report = results[case]
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
