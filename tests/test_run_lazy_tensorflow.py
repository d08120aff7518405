"""`tfdebug run` loads TensorFlow only when the script does: a script without it starts at
python's speed, with the report, the exit code and the traceback python gives; a script that
imports it later (directly or through Keras) gets every check and the diagnosis."""
import importlib.machinery
import json
import sys
import textwrap

import pytest

from conftest import run_tfdebug

pytestmark = pytest.mark.smoke


def _run(tmp_path, body, *extra):
    script = tmp_path / "script.py"
    script.write_text(textwrap.dedent(body))
    report = tmp_path / "r.json"
    # python's own record of every import of the whole process, tfdebug's exit work included
    proc = run_tfdebug("run", "--report", str(report), *extra, str(script), cwd=str(tmp_path),
                       env={"PYTHONPROFILEIMPORTTIME": "1"})
    imported = {line.rsplit("|", 1)[-1].strip() for line in proc.stderr.splitlines()
                if line.startswith("import time:")}
    return proc, json.loads(report.read_text()), imported


def test_a_script_without_tensorflow_never_loads_it(tmp_path):
    proc, data, imported = _run(tmp_path, """
        import sys
        print("tensorflow loaded:", "tensorflow" in sys.modules)
    """)
    assert proc.returncode == 0, proc.stderr
    assert "tensorflow loaded: False" in proc.stdout
    assert "tensorflow" not in imported and "keras" not in imported
    assert data["status"] == "ok" and data["exit_code"] == 0
    assert data["tensorflow"][:2] == "2."  # named from the installed distribution


def test_an_uncaught_error_without_tensorflow_is_python_s(tmp_path):
    proc, data, imported = _run(tmp_path, """
        def check(n):
            raise ValueError(f"bad value {n}")
        check(3)
    """)
    assert proc.returncode == 1
    assert "ValueError: bad value 3" in proc.stderr and 'line 3, in check' in proc.stderr
    assert "tensorflow" not in imported
    assert data["status"] == "error" and data["exit_code"] == 1 and data["diagnostics"] == []


def test_tensorflow_imported_later_through_keras_gets_checks_and_diagnosis(tmp_path):
    proc, data, imported = _run(tmp_path, """
        import sys
        print("tensorflow loaded:", "tensorflow" in sys.modules)
        import keras  # imports tensorflow itself: the checks start inside that import
        import tensorflow as tf

        @tf.function
        def double(x):
            return x * 2

        @tf.function
        def to_numpy(x):
            return x.numpy()

        double(tf.constant([1.0]))
        double(tf.constant([1.0, 2.0]))
        to_numpy(tf.constant(1.0))
    """)
    assert proc.returncode == 1
    assert "tensorflow loaded: False" in proc.stdout
    assert "tensorflow" in imported
    assert [d["recipe"] for d in data["diagnostics"]][:1] == ["TFD140"], data["diagnostics"]
    assert "TFD140" in proc.stderr  # the note on the traceback, as before
    counts = {t["function"].rsplit(".", 1)[-1]: t["count"] for t in data["traces"]}
    assert counts.get("double") == 2, data["traces"]  # the trace logger was on


# -- the hook itself, on a module of its own ------------------------------------------------

def _module(tmp_path, monkeypatch, name):
    (tmp_path / f"{name}.py").write_text("VALUE = 42\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.delitem(sys.modules, name, raising=False)


def test_the_callback_runs_once_after_the_module_s_code(tmp_path, monkeypatch):
    from tfdebug._import_hook import when_imported

    _module(tmp_path, monkeypatch, "tfdebug_hook_probe_a")
    seen = []
    before = list(sys.meta_path)
    when_imported("tfdebug_hook_probe_a", lambda m: seen.append(m.VALUE))
    assert seen == []
    import tfdebug_hook_probe_a as module
    assert seen == [42]
    assert isinstance(module.__loader__, importlib.machinery.SourceFileLoader)
    assert module.__spec__.loader is module.__loader__
    assert sys.meta_path == before  # the watch is gone
    when_imported("tfdebug_hook_probe_a", lambda m: seen.append("now"))  # already imported
    assert seen == [42, "now"]


def test_a_failing_callback_never_breaks_the_import(tmp_path, monkeypatch):
    from tfdebug._import_hook import when_imported

    _module(tmp_path, monkeypatch, "tfdebug_hook_probe_b")

    def broken(module):
        raise RuntimeError("broken")

    when_imported("tfdebug_hook_probe_b", broken)
    import tfdebug_hook_probe_b
    assert tfdebug_hook_probe_b.VALUE == 42
