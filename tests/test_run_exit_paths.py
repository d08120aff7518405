"""`tfdebug run SCRIPT` ends as `python SCRIPT` does, on every exit path, and writes its report.

Each test runs the same script under real `python` and under `tfdebug run` (both real
subprocesses) and compares exit codes, stdout and stderr.
"""
import json
import os
import subprocess
import sys
import textwrap

import pytest

from conftest import run_tfdebug, without_native_log

ENV = dict(os.environ, TF_CPP_MIN_LOG_LEVEL="3", PYTHONUNBUFFERED="1")


def _script(tmp_path, text, name="script.py"):
    path = tmp_path / name
    path.write_text(textwrap.dedent(text))
    return path


def _python(script, cwd=None, env=None):
    proc = subprocess.run([sys.executable, str(script)], capture_output=True, text=True,
                          cwd=cwd, env=dict(ENV, **(env or {})), timeout=120)
    proc.stderr = without_native_log(proc.stderr)
    return proc


def _both(tmp_path, text, report=True, env=None):
    """(python's CompletedProcess, tfdebug run's, the report dict or None)."""
    script = _script(tmp_path, text)
    theirs = _python(script, env=env)
    path = tmp_path / "report.json"
    args = ["--report", str(path)] if report else []
    ours = run_tfdebug("run", *args, str(script), timeout=120, env=env)
    data = json.loads(path.read_text()) if report and path.exists() else None
    return theirs, ours, data


@pytest.mark.smoke
@pytest.mark.parametrize("body", [
    "print('hi')\nsys.stdout.close()",
    "print('hi')\nsys.stdout = None\nprint('lost')",
    "sys.stderr.close()\nraise ValueError('no stderr left')",
    "sys.stderr = io.StringIO()\nraise ValueError('swallowed')",
    "sys.stderr = None\nraise SystemExit('to the C stderr')",
], ids=["close-stdout", "stdout-None", "close-stderr", "stderr-StringIO", "stderr-None-exit"])
def test_closed_or_replaced_streams(tmp_path, body):
    theirs, ours, data = _both(tmp_path, "import io, sys\n" + body + "\n")
    assert ours.returncode == theirs.returncode
    assert ours.stdout == theirs.stdout
    if "lost sys.stderr" in theirs.stderr:  # python's C-level dump, with memory addresses
        assert "Traceback" not in ours.stderr
    else:
        assert ours.stderr == theirs.stderr
    assert data is not None and data["exit_code"] == theirs.returncode


@pytest.mark.parametrize("value", ["'bye'", "2**64", "-1", "(1, 2)", "Unprintable()"])
def test_system_exit_with_odd_values(tmp_path, value):
    theirs, ours, data = _both(tmp_path, f"""
        class Unprintable:
            def __str__(self):
                raise RuntimeError("no str")
        print("before")
        raise SystemExit({value})
    """)
    assert (ours.returncode, ours.stdout, ours.stderr) == \
        (theirs.returncode, theirs.stdout, theirs.stderr)
    assert data["exit_code"] == theirs.returncode and data["status"] == "ok"


@pytest.mark.smoke
def test_report_goes_where_asked_although_the_script_changes_folder(tmp_path):
    (tmp_path / "elsewhere").mkdir()
    script = _script(tmp_path, "import os\nos.chdir('elsewhere')\nprint(os.getcwd())\n")
    proc = run_tfdebug("run", "--report", "r.json", "script.py", cwd=str(tmp_path))
    assert proc.returncode == 0, proc.stderr
    assert json.loads((tmp_path / "r.json").read_text())["script"] == "script.py"
    assert not (tmp_path / "elsewhere" / "r.json").exists()
    assert _python(script, cwd=str(tmp_path)).stdout == proc.stdout


def test_relative_script_traceback_names_the_absolute_path_like_python(tmp_path):
    _script(tmp_path, "import os\nos.chdir('..')\nraise KeyError('k')\n")
    theirs = subprocess.run([sys.executable, "script.py"], capture_output=True, text=True,
                            cwd=str(tmp_path), env=ENV)
    ours = run_tfdebug("run", "script.py", cwd=str(tmp_path))
    assert ours.returncode == theirs.returncode == 1
    assert ours.stderr == theirs.stderr


def _skip_if_ignored(signame):
    """A signal this process ignores (SIGHUP under nohup, SIGINT in a background job without
    job control) is ignored by every child too, python's included: nothing to compare."""
    import signal

    if signal.getsignal(getattr(signal, signame)) is signal.SIG_IGN:
        pytest.skip(f"{signame} is ignored in this process, so in its children too")


def test_sigint_exits_as_python_does_and_the_report_is_written(tmp_path):
    _skip_if_ignored("SIGINT")
    theirs, ours, data = _both(tmp_path, """
        import atexit, os, signal
        atexit.register(lambda: print("atexit ran"))
        print("working")
        os.kill(os.getpid(), signal.SIGINT)
    """)
    assert theirs.returncode == -2  # python re-kills itself with SIGINT after cleaning up
    assert (ours.returncode, ours.stdout, ours.stderr) == \
        (theirs.returncode, theirs.stdout, theirs.stderr)
    assert data["status"] == "error" and data["exit_code"] == -2


@pytest.mark.parametrize("signame", ["SIGTERM", "SIGHUP"])
def test_killed_by_a_signal_as_python_is_and_the_report_is_written(tmp_path, signame):
    _skip_if_ignored(signame)
    theirs, ours, data = _both(tmp_path, f"""
        import atexit, os, signal
        import tensorflow as tf
        atexit.register(lambda: print("atexit never runs"))
        f = tf.function(lambda x: x + 1)
        f(tf.constant(1)); f(tf.constant(1.0))
        print("working")
        try:
            os.kill(os.getpid(), signal.{signame})
        finally:
            print("finally never runs")
    """)
    number = -getattr(__import__("signal"), signame)
    assert theirs.returncode == ours.returncode == number
    assert ours.stdout == theirs.stdout == "working\n"
    assert data is not None, ours.stderr
    assert data["exit_code"] == number and data["status"] == "error"
    assert data["traces"] and data["traces"][0]["count"] == 2


def test_os_exit_keeps_its_code_and_the_report_is_written(tmp_path):
    # buffered stdout (no PYTHONUNBUFFERED): what the script did not flush is lost, as in python
    theirs, ours, data = _both(tmp_path, """
        import os, sys
        print("flushed", flush=True)
        sys.stdout.write("never flushed")
        os._exit(7)
    """, env={"PYTHONUNBUFFERED": ""})
    assert (ours.returncode, ours.stdout) == (theirs.returncode, theirs.stdout) == (7, "flushed\n")
    assert data["exit_code"] == 7 and data["status"] == "ok"


def test_a_forked_child_never_writes_the_report(tmp_path):
    theirs, ours, data = _both(tmp_path, """
        import os, sys, time
        if os.fork() == 0:
            time.sleep(1)  # outlives the parent, then fails
            raise RuntimeError("child fails after the parent has exited")
        print("parent done")
    """)
    assert ours.returncode == theirs.returncode == 0
    assert ours.stdout == theirs.stdout == "parent done\n"
    assert "RuntimeError: child fails" in ours.stderr and "RuntimeError: child fails" in theirs.stderr
    assert data["status"] == "ok" and data["exit_code"] == 0


def test_threads_that_outlive_main_are_waited_for_and_reported(tmp_path):
    theirs, ours, data = _both(tmp_path, """
        import threading, time
        import tensorflow as tf

        @tf.function
        def late(x):
            return x * 2

        def work():
            time.sleep(0.5)
            for value in (1, 2.0, 3):
                late(tf.constant(value))
            print("thread done")

        threading.Thread(target=work).start()
        print("main done")
    """)
    assert ours.returncode == theirs.returncode == 0
    assert ours.stdout == theirs.stdout == "main done\nthread done\n"
    assert [t["function"] for t in data["traces"]] == ["late"], data
    assert data["traces"][0]["count"] == 2
    assert "functions that retraced" in ours.stderr


def test_recursion_error_has_python_s_traceback_and_depth(tmp_path):
    theirs, ours, data = _both(tmp_path, """
        def down(n):
            return down(n + 1)

        down(0)
    """)
    assert ours.returncode == theirs.returncode == 1
    assert ours.stderr == theirs.stderr  # also the "[Previous line repeated N more times]"
    assert data["status"] == "error"


@pytest.mark.smoke
def test_a_report_that_cannot_be_written_is_one_line_and_keeps_the_exit_code(tmp_path):
    folder = tmp_path / "out"
    folder.mkdir()
    script = _script(tmp_path, f"""
        import shutil, sys
        shutil.rmtree({str(folder)!r})
        sys.exit(4)
    """)
    proc = run_tfdebug("run", "--report", str(folder / "r.json"), str(script))
    assert proc.returncode == 4
    lines = proc.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("tfdebug: cannot write the report"), proc.stderr


def test_report_write_is_atomic_and_leaves_no_temporary_file(tmp_path):
    from tfdebug import report

    path = tmp_path / "r.json"
    report.write(str(path), {"status": "ok"})
    assert json.loads(path.read_text()) == {"status": "ok"}

    class Unserialisable:
        def __str__(self):
            raise RuntimeError("half-way through")

    with pytest.raises(RuntimeError):
        report.write(str(path), {"status": "error", "diagnostics": ["x" * 10000, Unserialisable()]})
    assert json.loads(path.read_text()) == {"status": "ok"}  # the old report, whole
    assert sorted(p.name for p in tmp_path.iterdir()) == ["r.json"]
