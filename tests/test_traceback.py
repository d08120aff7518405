"""Tracebacks that show the user's code: AutoGraph frames mapped back, library frames folded."""
import importlib
import inspect
import os

import pytest
import tensorflow as tf

from tfdebug import _tf, _traceback

explain_module = importlib.import_module("tfdebug.explainer")


@tf.function
def _branch_undefined(x):
    if x > 0:  # <- if
        y = x * 2
    return y


def _error():
    try:
        _branch_undefined(tf.constant(1.0))
    except ValueError as exc:
        return exc
    raise AssertionError("no error")


@pytest.mark.smoke
def test_generated_frames_show_the_users_line_and_library_frames_fold():
    exc = _error()
    args, cls = exc.args, type(exc)
    text = _traceback.format_exception(exc)
    lines, first = inspect.getsourcelines(_branch_undefined.python_function)
    line = first + next(i for i, t in enumerate(lines) if "<- if" in t)
    assert f'File "{__file__}", line {line}, in _branch_undefined  (converted by AutoGraph)' in text
    assert "if x > 0:  # <- if" in text
    assert "__autograph_generated_file" not in text.split("During handling")[-1]
    assert "hidden; innermost: tensorflow/" in text
    assert text.rstrip().endswith("'y' must also be initialized in the else branch")
    assert type(exc) is cls and exc.args == args  # only the text changed


@pytest.mark.smoke
def test_source_map_fallback_leaves_frames_unmapped():
    assert _tf.autograph_origin([{("gen.py", 3): object()}], "gen.py", 3) is None
    assert _tf.autograph_origin([], "gen.py", 3) is None
    assert _tf.autograph_source_maps(object()) == []


def test_run_shows_user_frames_and_tfdebug_off_shows_tensorflows_traceback(
        forked_python, tmp_path):
    script = tmp_path / "branch.py"
    script.write_text("import tensorflow as tf\n\n@tf.function\ndef f(x):\n    if x > 0:\n"
                      "        y = x * 2\n    return y\n\nf(tf.constant(1.0))\n")
    shown = forked_python(None, "run", script, cwd=tmp_path)
    assert shown.returncode == 1
    assert f'File "{script}", line 5, in f  (converted by AutoGraph)' in shown.stderr
    assert "__autograph_generated_file" not in shown.stderr
    plain = forked_python(None, "run", script, cwd=tmp_path, env={"TFDEBUG": "off"})
    assert plain.returncode == 1 and "__autograph_generated_file" in plain.stderr
    assert "converted by AutoGraph" not in plain.stderr and "tfdebug" not in plain.stderr


def test_sys_excepthook_prints_the_users_frames(capsys, monkeypatch):
    monkeypatch.setattr("sys.excepthook", __import__("sys").__excepthook__)
    import tfdebug
    tfdebug.install()
    try:
        exc = _error()
        __import__("sys").excepthook(type(exc), exc, exc.__traceback__)
    finally:
        tfdebug.uninstall()
    err = capsys.readouterr().err
    assert "(converted by AutoGraph)" in err and "tfdebug TFD155 branch-mismatch" in err


def test_a_thread_s_uncaught_error_is_cleaned_like_the_main_thread_s(capsys, monkeypatch):
    import threading

    monkeypatch.setattr(threading, "excepthook", threading.__excepthook__)
    import tfdebug
    tfdebug.install()
    try:
        worker = threading.Thread(target=_branch_undefined, args=(tf.constant(1.0),), name="worker")
        worker.start()
        worker.join()
    finally:
        tfdebug.uninstall()
    err = capsys.readouterr().err
    assert err.startswith("Exception in thread worker:\nTraceback (most recent call last):"), err
    assert "(converted by AutoGraph)" in err and "hidden; innermost: tensorflow/" in err
    assert "__autograph_generated_file" not in err.split("During handling")[-1]
    assert "tfdebug TFD155 branch-mismatch" in err


def test_op_definition_stack_in_a_run_time_error_shows_no_tfdebug_frames(forked_python, tmp_path):
    # TensorFlow writes the stack that defined the failing op into the message; under
    # `tfdebug run` that stack passes through the runner and the trace hook. The text
    # shown leaves those out, as it does in the traceback; the exception keeps them.
    script = tmp_path / "script.py"
    script.write_text("import tensorflow as tf\n\n@tf.function(input_signature=[tf.TensorSpec([None])])\n"
                      "def f(x):\n    return tf.reshape(x, [2, 3])\n\nf(tf.ones([4]))\n")
    proc = forked_python(None, "run", script, cwd=tmp_path)
    assert "defined at (most recent call last):" in proc.stderr, proc.stderr[-2000:]
    block = proc.stderr.split("defined at (most recent call last):")[1].split("Input to reshape")[0]
    assert f'File "{script}", line 5, in f' in block and f'File "{script}", line 7, in <module>' in block
    assert os.path.dirname(_traceback.__file__) not in block and "<frozen runpy>" not in block, block
    assert "frames of runpy, tfdebug hidden]" in block  # `python -m tfdebug`: one line


def test_message_stacks_fold_the_machinery_and_keep_the_user_s_frames():
    import runpy

    user = os.path.abspath(__file__)
    message = (
        'defined at (most recent call last):\n  File "<frozen runpy>", line 88, in _run_code\n\n'
        f'  File "{_traceback.__file__}", line 1, in x\n\n  File "{user}", line 5, in f\n\nboom')
    assert _traceback.fold_message_stacks(message) == (
        'defined at (most recent call last):\n  [... 2 frames of runpy, tfdebug hidden]\n\n'
        f'  File "{user}", line 5, in f\n\nboom')
    # "... was defined here:" (no source lines); the stdlib between two machinery frames
    # (a kernel's asyncio) folds with them; the user's frames stay, in order.
    asyncio_file = __import__("asyncio").base_events.__file__
    here = (f'<tf.Tensor> was defined here:\n        File "{runpy.__file__}", line 1, in a\n'
            f'        File "{asyncio_file}", line 2, in b\n'
            f'        File "{_traceback.__file__}", line 3, in c\n'
            f'        File "{user}", line 4, in d\n'
            f'        File "{asyncio_file}", line 5, in e\n    \nThe tensor ...')
    assert _traceback.fold_message_stacks(here) == (
        f'<tf.Tensor> was defined here:\n        [... 3 frames of asyncio, runpy, tfdebug hidden]\n'
        f'        File "{user}", line 4, in d\n'
        f'        File "{asyncio_file}", line 5, in e\n    \nThe tensor ...')
    assert _traceback.fold_message_stacks("no stack") == "no stack"


def test_the_exception_keeps_its_message_only_the_text_shown_is_folded():
    import runpy

    text = f'op defined at (most recent call last):\n  File "{runpy.__file__}", line 1, in a\n\nboom'
    exc = ValueError(text)
    shown = _traceback.format_exception(exc)
    assert "1 frame of runpy hidden" in shown and str(exc) == text and exc.args == (text,)
