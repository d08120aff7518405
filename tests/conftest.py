"""Shared fixtures. Every test must leave TensorFlow's global switches as it found them."""
import os
import re
import sys

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")

import pytest  # noqa: E402
import tensorflow as tf  # noqa: E402

import importlib  # noqa: E402

from tfdebug import _tf, tracing  # noqa: E402

eager_module = importlib.import_module("tfdebug.eager")  # the module; tfdebug.eager is the scope

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CASES = os.path.join(ROOT, "tests", "cases")  # verbatim copies of the shared reproducers

# Third-party code kept as lint input (some of it is named *_test.py): linted, never collected.
collect_ignore_glob = ["lint_realworld/*"]


@pytest.fixture(autouse=True)
def switches_restored():
    """Fail a test that leaves the eager flag, tf.data debug mode or the trace hook changed."""
    before = (_tf.functions_run_eagerly(), _tf.data_debug_mode())
    yield
    after = (_tf.functions_run_eagerly(), _tf.data_debug_mode())
    problems = []
    if after != before:
        problems.append(f"eager/tf.data flags {before} -> {after}")
    if eager_module.active_entries():
        problems.append(f"{eager_module.active_entries()} eager()/graph() entries left open")
    if tracing.active() or _tf.trace_hook_installed():
        problems.append("trace hook still installed")
    if _tf.tensor_format_hooked():
        problems.append("graph-tensor formatting still hooked")
    if _tf.trace_caches_redirected():
        problems.append("trace caches still redirected")
    if _tf.layer_call_hooked():
        problems.append("Keras layer-call hook still installed")
    if problems:
        tf.config.run_functions_eagerly(before[0])
        pytest.fail("switches not restored: " + "; ".join(problems))


def run_tfdebug(*args, cwd=None, input=None, timeout=300, env=None):
    """Run ``python -m tfdebug ARGS`` in a real subprocess; return CompletedProcess."""
    import subprocess

    full_env = dict(os.environ, TF_CPP_MIN_LOG_LEVEL="3", PYTHONUNBUFFERED="1")
    full_env.update(env or {})
    proc = subprocess.run([sys.executable, "-m", "tfdebug", *args], cwd=cwd, input=input,
                          capture_output=True, text=True, timeout=timeout, env=full_env)
    proc.stderr = without_native_log(proc.stderr)
    return proc


# TensorFlow's C++ start-up lines (absl's preamble, "I0000 00:00:... port.cc:153] oneDNN ...").
# On some CPUs TF 2.21 prints them whatever TF_CPP_MIN_LOG_LEVEL says; they are TensorFlow's
# noise, not the program's output, so output comparisons leave them out.
_NATIVE_LOG = re.compile(r"^(WARNING: All log messages before absl::InitializeLog\(\) is called"
                         r"|[IWEF]\d{4} [\d:.]+ +\d+ [\w.]+:\d+\] ).*\n?", re.M)


def without_native_log(text):
    """``text`` without TensorFlow's C++ log lines."""
    return _NATIVE_LOG.sub("", text) if text else text


def raised_by(fn, *args):
    """The exception ``fn(*args)`` raises (an AssertionError when it raises none)."""
    try:
        fn(*args)
    except Exception as exc:  # noqa: BLE001
        return exc
    raise AssertionError(f"{fn!r} raised nothing")


def line_of(path: str, text: str) -> int:
    """The number of the first line of ``path`` containing ``text`` (not this call's line)."""
    with open(path, encoding="utf-8") as fh:
        for number, line in enumerate(fh, 1):
            if text in line and "_line_of(" not in line:
                return number
    raise AssertionError(f"{text!r} not in {path}")


# -- the reproducer cases (tests/cases, and the held-out tests/cases_extra) -----------------

CASES_EXTRA = os.path.join(ROOT, "tests", "cases_extra")
CASES_CATALOG = os.path.join(ROOT, "tests", "cases_catalog")  # written from tools/tf_errors.json


def case_header(path):
    """(categories, expect, acceptable lines) from a case file's ``# key: value`` header."""
    import re

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


def case_files(*expects):
    """Every case of the three folders whose ``expect`` is one of ``expects``, by file name."""
    return sorted((os.path.join(folder, f) for folder in (CASES, CASES_EXTRA, CASES_CATALOG)
                   for f in os.listdir(folder)
                   if f.endswith(".py") and case_header(os.path.join(folder, f))[1] in expects),
                  key=os.path.basename)


def selected_cases(request, cases):
    """The ``cases`` this run's selected tests of the requesting module ask for, in order.

    A module-scoped fixture that runs every case would run all of them even under ``-k`` on
    one; this keeps the batch to what was collected and not deselected.
    """
    wanted = {item.callspec.params.get("case") for item in request.session.items
              if item.module is request.module and hasattr(item, "callspec")}
    return [case for case in cases if case in wanted]


def run_cases(cases, folder):
    """{case: (CompletedProcess, report dict)} of `tfdebug run --report` on each, 3 at a time."""
    import concurrent.futures
    import json

    def run_one(case):
        report = os.path.join(folder, os.path.basename(case) + ".json")
        proc = run_tfdebug("run", "--report", report, case, cwd=folder, timeout=300)
        with open(report, encoding="utf-8") as fh:
            return proc, json.load(fh)

    with concurrent.futures.ThreadPoolExecutor(3) as pool:
        return dict(zip(cases, pool.map(run_one, cases)))
