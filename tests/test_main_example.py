"""The README's first command: `tfdebug run examples/train_broken.py` finds every bug."""
import json
import os

import pytest

from conftest import ROOT, run_tfdebug

pytestmark = pytest.mark.smoke  # also run on the oldest supported TensorFlow


def test_main_example_is_diagnosed_line_by_line(tmp_path):
    report_path = tmp_path / "r.json"
    proc = run_tfdebug("run", "--report", str(report_path), "examples/train_broken.py", cwd=ROOT)
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


def machinery_file(filename: str) -> bool:
    """A frame of tfdebug (its package or console script), runpy, IPython or pytest."""
    import tfdebug

    parts = os.path.normpath(filename).split(os.sep)
    return (filename.startswith(os.path.dirname(tfdebug.__file__) + os.sep)
            or "runpy" in filename or parts[-2:] == ["bin", "tfdebug"]
            or bool({"IPython", "ipykernel", "pytest", "_pytest", "pluggy"} & set(parts)))


@pytest.fixture(scope="module")
def first_command():
    """The README's first command as a user types it: the console script, a 100-column
    terminal (the output is a pipe: no colour)."""
    import subprocess
    import sys

    from conftest import without_native_log

    script = os.path.join(os.path.dirname(sys.executable), "tfdebug")
    command = [script] if os.path.exists(script) else [sys.executable, "-m", "tfdebug"]
    env = dict(os.environ, TF_CPP_MIN_LOG_LEVEL="0", COLUMNS="100", PYTHONUNBUFFERED="1")
    env.pop("NO_COLOR", None)
    proc = subprocess.run([*command, "run", "examples/train_broken.py"], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=600)
    proc.stderr = without_native_log(proc.stderr)
    return proc


def test_first_command_shows_no_machinery_frame_in_any_stack(first_command):
    # TensorFlow's "... was defined here:" stack passes through the console script, the CLI,
    # the runner and the trace hook: each run of those frames is one folded line.
    import re

    err = first_command.stderr
    assert "was defined here:" in err, err[-3000:]
    files = re.findall(r'File "([^"]+)", line \d+', err)
    assert files and not [f for f in files if machinery_file(f)], err[-4000:]
    stack = err.split("was defined here:")[1].split("The tensor")[0]
    assert "frames of tfdebug hidden]" in stack
    assert 'train_broken.py", line 46, in evaluate' in stack


def test_first_command_leaves_out_tensorflow_s_retracing_warning(first_command):
    # tfdebug's RetracingWarning names train_step with its cause and fix; TensorFlow's own
    # "N out of the last N calls ... triggered tf.function retracing" says less, twice
    assert "RetracingWarning: tfdebug TFD202 retracing: train_step" in first_command.stderr
    assert "triggered tf.function retracing" not in first_command.stderr


def test_first_command_s_retrace_table_fits_a_100_column_terminal(first_command):
    table = first_command.stderr.split("tfdebug: functions that retraced:\n")[1]
    lines = table.rstrip("\n").splitlines()
    assert lines[0].startswith("function:") and "train_step" in lines[0], table
    assert max(map(len, lines)) <= 100, table
    assert any(line.startswith("traces:") and "retraces" in line for line in lines)
    assert "pass lr as a tensor: tf.constant(lr)" in table
    assert "\x1b[" not in table  # a pipe: no colour
