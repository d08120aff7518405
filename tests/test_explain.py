"""explain(), install()/uninstall(): the user's exception survives, with a tfdebug note."""
import importlib
import os
import sys
import threading

import pytest
import tensorflow as tf

import tfdebug
from tfdebug.explainer import annotate, installed

explain_module = importlib.import_module("tfdebug.explainer")
diagnose_module = importlib.import_module("tfdebug.diagnosis")


@tf.function
def _truthy(x):
    if x:
        return x
    return -x


class _ValidationError(Exception):
    def __init__(self, field, message):
        super().__init__(message)
        self.field = field


@tf.function
def _user_error(x):
    raise _ValidationError("x", "bad input")


@pytest.fixture(autouse=True)
def hooks_restored():
    before = (sys.excepthook, threading.excepthook)
    yield
    tfdebug.uninstall()
    assert (sys.excepthook, threading.excepthook) == before
    assert not installed()


def _notes(exc):
    return [n for n in getattr(exc, "__notes__", []) if n.startswith("tfdebug")]


def _fail_inside_explain(cause=None):
    """Raise a real graph error inside ``explain()``; return (what reached us, what was raised)."""
    captured = {}
    with pytest.raises(ValueError) as info:
        with tfdebug.explain():
            try:
                _truthy(tf.constant(3))
            except ValueError as exc:
                captured["exc"], captured["args"] = exc, exc.args
                if cause is not None:
                    exc.__cause__ = cause
                raise
    return info.value, captured


def test_scope_adds_a_note_and_reraises_the_same_object():
    cause = KeyError("why")
    exc, captured = _fail_inside_explain(cause)
    assert exc is captured["exc"] and exc.args == captured["args"] and exc.__cause__ is cause
    (note,) = _notes(exc)
    assert note.startswith("tfdebug TFD102 tensor-as-bool:")
    assert "  > " in note and "if x:" in note and "tfdebug explain TFD102" in note


def test_decorator_and_nesting_add_one_note():
    @tfdebug.explain()
    def run(depth):
        if depth:
            return run(depth - 1)
        return _truthy(tf.constant(3))

    with pytest.raises(ValueError) as info:
        with tfdebug.explain():
            run(2)
    assert len(_notes(info.value)) == 1


def test_staging_error_becomes_the_users_own_exception():
    with pytest.raises(_ValidationError) as info:
        with tfdebug.explain():
            _user_error(tf.constant(1))
    exc = info.value
    assert type(exc) is _ValidationError and exc.field == "x" and exc.args == ("bad input",)
    (note,) = _notes(exc)
    assert "StagingError" in note and "test_explain.py" in note


def test_without_explain_autograph_gives_staging_error():
    # The contrast that makes the test above meaningful.
    with pytest.raises(Exception) as info:
        _user_error(tf.constant(1))
    assert type(info.value).__name__ == "StagingError"


def test_errors_without_a_recipe_pass_untouched():
    with pytest.raises(KeyError) as info:
        with tfdebug.explain():
            {}["missing"]
    assert _notes(info.value) == []


@pytest.mark.parametrize("target", ["diagnose", "render"])
def test_injected_internal_failure_leaves_the_exception_untouched(monkeypatch, target):
    def boom(*args, **kwargs):
        raise RuntimeError("tfdebug bug")

    if target == "diagnose":
        monkeypatch.setattr(diagnose_module, "_diagnose", boom)
    else:
        monkeypatch.setattr(importlib.import_module("tfdebug.render"), "diagnosis_text", boom)
    exc, captured = _fail_inside_explain()
    assert exc is captured["exc"] and exc.args == captured["args"]
    assert getattr(exc, "__notes__", []) == []


def test_tfdebug_off_disables_everything(monkeypatch):
    monkeypatch.setenv("TFDEBUG", "off")
    with pytest.raises(ValueError) as info:
        with tfdebug.explain():
            _truthy(tf.constant(3))
    assert _notes(info.value) == []
    hooks = (sys.excepthook, threading.excepthook)
    assert tfdebug.install() == {}
    assert (sys.excepthook, threading.excepthook) == hooks


def test_install_returns_what_it_replaced_and_uninstall_restores():
    previous_sys, previous_thread = sys.excepthook, threading.excepthook
    replaced = tfdebug.install()
    assert replaced["sys"] is previous_sys and replaced["threading"] is previous_thread
    assert sys.excepthook is not previous_sys and installed()
    assert tfdebug.install() == {}  # a second call changes nothing
    tfdebug.uninstall()
    assert sys.excepthook is previous_sys and threading.excepthook is previous_thread
    tfdebug.uninstall()  # idempotent


def test_sys_excepthook_prints_the_diagnosis(capsys):
    tfdebug.install()
    try:
        _truthy(tf.constant(3))
    except ValueError as exc:
        sys.excepthook(type(exc), exc, exc.__traceback__)
    err = capsys.readouterr().err
    assert "ValueError" in err and "tfdebug TFD102 tensor-as-bool" in err


def test_threading_excepthook_in_a_real_thread(monkeypatch):
    seen = []
    monkeypatch.setattr(threading, "excepthook", seen.append)  # the hook install() chains to
    assert tfdebug.install()["threading"] == seen.append
    thread = threading.Thread(target=_truthy, args=(tf.constant(3),))
    thread.start()
    thread.join()
    tfdebug.uninstall()
    (args,) = seen
    assert args.thread is thread and isinstance(args.exc_value, ValueError)
    assert _notes(args.exc_value)[0].startswith("tfdebug TFD102")


def test_ipython_shell_hook(capsys):
    from IPython.core.interactiveshell import InteractiveShell

    shell = InteractiveShell.instance()
    saved = shell.custom_exceptions
    try:
        replaced = tfdebug.install(shell=shell)
        assert replaced["ipython"][0] is shell
        shell.run_cell("import tensorflow as tf\n"
                       "@tf.function\n"
                       "def f(x):\n"
                       "    return x in [1, 2]\n"
                       "f(tf.constant(1))\n")
        out = capsys.readouterr().out
        assert "OperatorNotAllowedInGraphError" in out and "tfdebug TFD104 tensor-as-bool" in out
        tfdebug.uninstall()
        assert shell.custom_exceptions == saved
        shell.run_cell("raise ValueError('plain')")
        assert "tfdebug" not in capsys.readouterr().out
    finally:
        shell.custom_exceptions = saved
        InteractiveShell.clear_instance()


def test_notebook_through_nbclient(tmp_path):
    import nbformat
    from nbclient import NotebookClient

    nb = nbformat.v4.new_notebook()
    nb.cells = [
        nbformat.v4.new_code_cell("import os\nos.environ['TF_CPP_MIN_LOG_LEVEL'] = '3'\n"
                                  "import tfdebug\ntfdebug.install(get_ipython())"),
        nbformat.v4.new_code_cell("import tensorflow as tf\n"
                                  "@tf.function\n"
                                  "def f(x):\n"
                                  "    return {x: 1}\n"
                                  "f(tf.constant(1))"),
    ]
    client = NotebookClient(nb, timeout=240, kernel_name="python3", allow_errors=True,
                            resources={"metadata": {"path": str(tmp_path)}})
    client.execute()
    errors = [o for o in nb.cells[1].outputs if o.output_type == "error"]
    assert errors and errors[0].ename == "TypeError"
    text = "\n".join(errors[0].traceback)
    assert "tfdebug TFD118 unhashable-tensor" in text
    assert "<ipython-input" in text or "Cell In[" in text or "tmp" in text


def test_annotate_is_idempotent():
    try:
        _truthy(tf.constant(3))
    except ValueError as exc:
        error = exc
    for _ in range(3):
        target, diagnosis = annotate(error)
        assert target is error and diagnosis.recipe.id == "TFD102"
    assert len(_notes(error)) == 1


def test_tfdebug_off_env_is_read_at_call_time(monkeypatch):
    monkeypatch.setenv("TFDEBUG", "0")
    assert explain_module.disabled()
    monkeypatch.setenv("TFDEBUG", "on")
    assert not explain_module.disabled()
    assert os.environ["TFDEBUG"] == "on"


# -- command line ---------------------------------------------------------------------------

def test_cli_recipes_explain_id_and_text():
    from conftest import run_tfdebug

    # one row per recipe: wide enough that no title wraps (pytest-xdist's workers set COLUMNS=80)
    listing = run_tfdebug("recipes", "--category", "branch-mismatch", env={"COLUMNS": "200"})
    assert listing.returncode == 0
    rows = [line.split()[0] for line in listing.stdout.splitlines()[2:]]
    assert rows and all(r.startswith("TFD") for r in rows) and "TFD155" in rows
    assert "TFD101" not in rows

    by_id = run_tfdebug("explain", "TFD115")
    assert by_id.returncode == 0
    assert by_id.stdout.startswith("TFD115 out-of-scope-tensor:")
    assert "before:" in by_id.stdout and "after:" in by_id.stdout and "tf.TensorArray" in by_id.stdout
    assert "\x1b[" not in by_id.stdout  # not a terminal: no colour

    by_text = run_tfdebug("explain", "TypeError: Tensor is unhashable. Instead, use tensor.ref() as the key.")
    assert by_text.returncode == 0 and by_text.stdout.startswith("TFD118 unhashable-tensor:")

    unknown = run_tfdebug("explain", "TFD999")
    assert unknown.returncode == 2 and "no recipe 'TFD999'" in unknown.stderr
    nothing = run_tfdebug("explain", "all is well")
    assert nothing.returncode == 1 and "tfdebug recipes" in nothing.stderr
    bad = run_tfdebug("recipes", "--category", "nonsense")
    assert bad.returncode == 2 and "nonsense" in bad.stderr


def test_run_with_tfdebug_off_reports_no_diagnosis(tmp_path, forked_python):
    import json

    script = tmp_path / "bad.py"
    script.write_text("import tensorflow as tf\n\n@tf.function\ndef f(x):\n    return {x: 1}\n\nf(tf.constant(1))\n")
    report = tmp_path / "r.json"
    # `tfdebug run` in a fork of the case server (TFDEBUG is read when the run starts)
    proc = forked_python(None, "run", "--report", report, script, cwd=tmp_path,
                         env={"TFDEBUG": "off"})
    assert proc.returncode == 1 and "Tensor is unhashable" in proc.stderr
    assert "tfdebug TFD" not in proc.stderr
    assert [d for d in json.loads(report.read_text())["diagnostics"] if d["severity"] == "error"] == []
