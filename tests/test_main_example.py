"""The README's first command: `tfdebug run examples/train_broken.py` finds every bug.

The command runs once as a user types it (the console script, a real process: the README's
sample and the terminal checks read that one run); the report's contents are checked on a run
in a fork of the case server (TensorFlow imported once)."""
import json
import os
import re
import subprocess
import sys

import pytest
import tensorflow as tf

from conftest import ROOT, without_native_log

pytestmark = pytest.mark.smoke  # also run on the oldest supported TensorFlow

README = os.path.join(ROOT, "README.md")
README_TENSORFLOW = "2.21"  # the version the README's sample was produced with


def test_main_example_is_diagnosed_line_by_line(forked_python, tmp_path):
    report_path = tmp_path / "r.json"
    proc = forked_python(None, "run", "--report", report_path, "examples/train_broken.py",
                         cwd=ROOT)
    assert proc.returncode == 1                               # the script's own crash
    report = json.loads(report_path.read_text())
    assert report["status"] == "error"
    script = os.path.join(ROOT, "examples", "train_broken.py")
    found = [(d["severity"], d["category"], d["line"]) for d in report["diagnostics"]]
    assert found[0] == ("error", "out-of-scope-tensor", 46)   # the append, not the stack
    assert ("warning", "keras-training-flag", 32) in found
    assert ("warning", "trace-time-side-effect", 37) in found
    assert ("warning", "retracing", 56) in found
    assert all(d["file"] == script for d in report["diagnostics"])
    (trace,) = [t for t in report["traces"] if t["function"] == "train_step"]
    assert trace["file"] == script and trace["count"] >= 5
    assert "tf.constant(lr)" in trace["suggestion"]
    # what the user sees on the terminal
    assert "tfdebug TFD115 out-of-scope-tensor" in proc.stderr
    assert "> 46 |         losses.append" in proc.stderr
    assert "functions that retraced" in proc.stderr


# What differs from one machine or run to the next: object addresses and graph ids in
# TensorFlow's messages, timings. Paths read as the README shows them: the checkout's
# relative to it, the environment's as `.venv`.
_VARYING = [
    (re.compile(r"0x[0-9a-f]+"), "0x…"),
    (re.compile(r"\bid=\d+"), "id=…"),
    (re.compile(r"\b\d+(\.\d+)?\s?(s|ms|us|µs)\b"), "<time>"),
]
# The continuation line of TensorFlow's CPU-feature start-up message, which the C++ log
# filter leaves behind (its first line is a native log line).
_NATIVE_TAIL = re.compile(r"^To enable the following instructions: .*\n?", re.M)


def _normalised(text):
    text = _NATIVE_TAIL.sub("", without_native_log(text))
    text = text.replace(sys.prefix + os.sep, ".venv" + os.sep).replace(ROOT + os.sep, "")
    for pattern, replacement in _VARYING:
        text = pattern.sub(replacement, text)
    return [line.rstrip() for line in text.strip("\n").split("\n")]


def _readme_sample():
    text = open(README, encoding="utf-8").read()
    block = text.split("<!-- main-example:start -->", 1)[1].split("<!-- main-example:end -->")[0]
    body = block.strip()
    assert body.startswith("```") and body.endswith("```"), "the sample is one code block"
    return body.split("\n", 1)[1].rsplit("\n", 1)[0]


def _console_script():
    script = os.path.join(os.path.dirname(sys.executable), "tfdebug")
    return [script] if os.path.exists(script) else [sys.executable, "-m", "tfdebug"]


@pytest.fixture(scope="module")
def first_command():
    """The README's first command as a user types it: the console script, a 100-column
    terminal whose output is a pipe (no colour), nothing of tfdebug's or TensorFlow's set in
    the environment; stdout and stderr interleaved as the terminal shows them."""
    env = dict(os.environ, COLUMNS="100", LINES="50", PYTHONUNBUFFERED="1")
    for name in ("NO_COLOR", "FORCE_COLOR", "CLICOLOR_FORCE", "TFDEBUG", "TF_CPP_MIN_LOG_LEVEL"):
        env.pop(name, None)
    proc = subprocess.run([*_console_script(), "run", "examples/train_broken.py"], cwd=ROOT,
                          env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                          text=True, timeout=600)
    proc.output = without_native_log(proc.stdout)  # what the checks below read
    return proc


@pytest.mark.skipif(not tf.__version__.startswith(README_TENSORFLOW + "."),
                    reason=f"the README's sample is TensorFlow {README_TENSORFLOW}'s output")
def test_readme_sample_is_what_the_first_command_prints(first_command):
    assert first_command.returncode == 1
    got, want = _normalised(first_command.stdout), _normalised(_readme_sample())
    assert got == want, "README.md's sample of the first command is out of date:\n" + "\n".join(
        f"{'=' if a == b else '!'} got:  {a}\n  want: {b}"
        for a, b in zip(got + [""] * len(want), want + [""] * len(got)) if a or b)


def machinery_file(filename: str) -> bool:
    """A frame of tfdebug (its package or console script), runpy, IPython or pytest."""
    import tfdebug

    parts = os.path.normpath(filename).split(os.sep)
    return (filename.startswith(os.path.dirname(tfdebug.__file__) + os.sep)
            or "runpy" in filename or parts[-2:] == ["bin", "tfdebug"]
            or bool({"IPython", "ipykernel", "pytest", "_pytest", "pluggy"} & set(parts)))


def test_first_command_shows_no_machinery_frame_in_any_stack(first_command):
    # TensorFlow's "... was defined here:" stack passes through the console script, the CLI,
    # the runner and the trace hook: each run of those frames is one folded line.
    import re

    err = first_command.output
    assert "was defined here:" in err, err[-3000:]
    files = re.findall(r'File "([^"]+)", line \d+', err)
    assert files and not [f for f in files if machinery_file(f)], err[-4000:]
    stack = err.split("was defined here:")[1].split("The tensor")[0]
    assert "frames of tfdebug hidden]" in stack
    assert 'train_broken.py", line 46, in evaluate' in stack


def test_first_command_leaves_out_tensorflow_s_retracing_warning(first_command):
    # tfdebug's RetracingWarning names train_step with its cause and fix; TensorFlow's own
    # "N out of the last N calls ... triggered tf.function retracing" says less, twice
    assert "RetracingWarning: tfdebug TFD202 retracing: train_step" in first_command.output
    assert "triggered tf.function retracing" not in first_command.output


def test_first_command_s_retrace_table_fits_a_100_column_terminal(first_command):
    table = first_command.output.split("tfdebug: functions that retraced:\n")[1]
    lines = table.rstrip("\n").splitlines()
    assert lines[0].startswith("function:") and "train_step" in lines[0], table
    assert max(map(len, lines)) <= 100, table
    assert any(line.startswith("traces:") and "retraces" in line for line in lines)
    assert "pass lr as a tensor: tf.constant(lr)" in table
    assert "\x1b[" not in table  # a pipe: no colour
