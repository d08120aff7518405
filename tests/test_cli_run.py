"""`tfdebug run` behaves like `python SCRIPT ARGS`; `tfdebug doctor`; usage errors exit 2."""
import json
import sys
import textwrap

import pytest

from conftest import run_tfdebug

pytestmark = pytest.mark.smoke  # also run on the oldest supported TensorFlow

ECHO = textwrap.dedent("""
    import sys
    import os
    data = sys.stdin.read()
    print("argv", sys.argv[1:])
    print("name", __name__)
    print("path0", os.path.basename(sys.path[0]))
    print("stdin", data.strip())
    print("to stderr", file=sys.stderr)
    if __name__ == "__main__":
        sys.exit(int(sys.argv[1]) if len(sys.argv) > 1 else 0)
""")


def _script(tmp_path, text, name="script.py"):
    folder = tmp_path / "proj"
    folder.mkdir(exist_ok=True)
    path = folder / name
    path.write_text(textwrap.dedent(text))
    return path


@pytest.mark.parametrize("code", [0, 3])
def test_run_matches_python_argv_stdin_stdout_exit_code(tmp_path, code):
    import subprocess
    script = _script(tmp_path, ECHO)
    ours = run_tfdebug("run", str(script), str(code), "--flag", input="hello\n")
    theirs = subprocess.run([sys.executable, str(script), str(code), "--flag"], input="hello\n",
                            capture_output=True, text=True)
    assert ours.returncode == theirs.returncode == code
    assert ours.stdout == theirs.stdout
    assert "argv ['%d', '--flag']" % code in ours.stdout
    assert "name __main__" in ours.stdout and "path0 proj" in ours.stdout
    assert "to stderr" in ours.stderr


def test_run_imports_modules_next_to_the_script(tmp_path):
    _script(tmp_path, "VALUE = 41\n", name="helper.py")
    script = _script(tmp_path, "import helper\nprint(helper.VALUE + 1)\n")
    proc = run_tfdebug("run", str(script), cwd=str(tmp_path))
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip() == "42"


@pytest.mark.parametrize("body, code", [("raise SystemExit('bye')", 1), ("raise SystemExit(None)", 0),
                                        ("raise ValueError('broken')", 1)])
def test_exit_codes_and_uncaught_errors_like_python(tmp_path, body, code):
    script = _script(tmp_path, body + "\n")
    proc = run_tfdebug("run", str(script))
    assert proc.returncode == code
    if "ValueError" in body:
        assert "Traceback (most recent call last)" in proc.stderr
        assert "ValueError: broken" in proc.stderr
        assert "runpy" not in proc.stderr and "tfdebug/runner.py" not in proc.stderr
    if "bye" in body:
        assert "bye" in proc.stderr


def test_report_is_written_even_when_the_script_fails(tmp_path):
    script = _script(tmp_path, "print('partial')\nraise RuntimeError('late failure')\n")
    report = tmp_path / "r.json"
    proc = run_tfdebug("run", "--report", str(report), str(script))
    assert proc.returncode == 1
    data = json.loads(report.read_text())
    assert data["status"] == "error"
    assert data["script"] == str(script)
    assert {"tfdebug", "tensorflow", "python", "diagnostics", "traces"} <= set(data)


# The runs of scripts that import TensorFlow, but for one plain run and `doctor`, are
# `python -m tfdebug` in forks of the case server (forked_python): what they check is what
# the run reports, not how its process starts; TensorFlow's import is paid once.

def test_report_of_a_clean_run(tmp_path, forked_python):
    script = _script(tmp_path, "import tensorflow as tf\nprint(int(tf.function(lambda: tf.constant(2))()))\n")
    report = tmp_path / "r.json"
    proc = forked_python(None, "run", "--report", report, script, cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    data = json.loads(report.read_text())
    assert data["status"] == "ok" and data["diagnostics"] == []


def test_run_eager_runs_tf_functions_eagerly(tmp_path, forked_python):
    script = _script(tmp_path, """
        import tensorflow as tf

        @tf.function
        def mode():
            return tf.executing_eagerly()

        print("eager" if mode() else "graph")
    """)
    assert run_tfdebug("run", str(script)).stdout.strip() == "graph"  # a real process
    assert forked_python(None, "run", "--eager", script, cwd=tmp_path).stdout.strip() == "eager"


@pytest.mark.parametrize("make, message", [
    (lambda p: p / "missing.py", "no such script"),
    (lambda p: p, "is a directory"),
    (lambda p: _script(p, "def broken(:\n    pass\n", name="bad.py"), "bad.py:1: syntax error"),
])
def test_usage_errors_are_one_clear_line_and_exit_2(tmp_path, make, message):
    proc = run_tfdebug("run", str(make(tmp_path)))
    assert proc.returncode == 2
    lines = [line for line in proc.stderr.splitlines() if line.startswith("tfdebug:")]
    assert len(lines) == 1 and message in lines[0], proc.stderr
    assert "Traceback" not in proc.stderr


@pytest.mark.parametrize("where, message", [("missing/r.json", "does not exist"), (".", "is a directory")])
def test_bad_report_path_is_refused_before_the_script_runs(tmp_path, where, message):
    script = _script(tmp_path, "print('ran')\n")
    proc = run_tfdebug("run", "--report", str(tmp_path / where), str(script))
    assert proc.returncode == 2
    assert message in proc.stderr and "ran" not in proc.stdout


def test_unknown_command_exits_2():
    assert run_tfdebug("frobnicate").returncode == 2


def test_doctor_reports_versions_flags_and_hooks():
    proc = run_tfdebug("doctor")
    assert proc.returncode == 0, proc.stderr
    import tensorflow as tf
    assert "tensorflow" in proc.stdout and tf.__version__ in proc.stdout
    assert "functions run eagerly        False" in proc.stdout
    assert "trace hook                   works" in proc.stdout
    assert "CPU:0" in proc.stdout


def test_uncaught_traceback_hides_tfdebug_frames_even_inside_traced_code(tmp_path,
                                                                         forked_python):
    script = _script(tmp_path, """
        import tensorflow as tf

        @tf.function
        def step(x):
            raise KeyError("user bug")

        step(tf.constant(1))
    """)
    proc = forked_python(None, "run", script, cwd=tmp_path)
    assert proc.returncode == 1
    traceback_part = proc.stderr.split("KeyError")[0]
    assert 'script.py", line 8, in <module>' in traceback_part
    assert "tfdebug" not in traceback_part.replace("tfdebug TFD", "")
    assert "runpy" not in traceback_part


@pytest.mark.parametrize("argv", [
    ["run", "s.py"], ["run", "s.py", "a", "--report", "x.json"], ["run", "s.py", "-m", "x"],
    ["run", "dir/s.py", "-x", "--y=1"]])
def test_the_quick_reading_of_run_is_argparses(argv):
    """`tfdebug run SCRIPT ARGS` is read without importing argparse, as argparse reads it:
    every option at its default, SCRIPT, and everything after it the script's."""
    from tfdebug import cli

    quick = cli.quick_run_args(argv)
    assert quick == vars(cli._parser().parse_args(argv))
    assert cli.quick_run_args(["run", "--eager", "s.py"]) is None  # an option: argparse
    assert cli.quick_run_args(["run", "s.py", "--", "-x"]) is None  # argparse drops the "--"
    assert cli.quick_run_args(["run"]) is None and cli.quick_run_args(["lint", "s.py"]) is None
