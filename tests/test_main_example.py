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
