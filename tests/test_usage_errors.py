"""Usage errors of `tfdebug run | explain | recipes | doctor`: one line, the file and the
problem in words, exit 2 (1 for doctor), never a traceback nor a `None` line number."""
import os
import subprocess
import sys

import pytest

from conftest import run_tfdebug
from tfdebug import cli

pytestmark = pytest.mark.smoke


def _one_error_line(proc) -> str:
    lines = [line for line in proc.stderr.splitlines() if line.strip()]
    assert "Traceback" not in proc.stderr and "None" not in proc.stderr, proc.stderr
    assert len(lines) == 1, proc.stderr
    return lines[0]


@pytest.mark.parametrize("content, expected", [
    (b"x = 1\ny = '\0'\n", "bad.py:2: not a Python script: it contains a NUL byte"),
    (b"x = 1\ns = '\xff'\n", "bad.py:2: not UTF-8 text ("),
])
def test_run_names_the_file_line_and_problem(tmp_path, content, expected):
    (tmp_path / "bad.py").write_bytes(content)
    proc = run_tfdebug("run", "bad.py", cwd=str(tmp_path))
    assert proc.returncode == 2
    assert _one_error_line(proc) .startswith(f"tfdebug: error: {expected}")


def test_run_names_a_dangling_symlink(tmp_path):
    os.symlink(tmp_path / "gone.py", tmp_path / "link.py")
    proc = run_tfdebug("run", "link.py", cwd=str(tmp_path))
    assert proc.returncode == 2
    line = _one_error_line(proc)
    assert "link.py is a symbolic link to" in line and "gone.py, which does not exist" in line


def test_run_without_a_script_names_only_the_script():
    proc = run_tfdebug("run")
    assert proc.returncode == 2
    assert proc.stderr.splitlines()[-1] == \
        "tfdebug run: error: the following arguments are required: script"


def test_explain_with_only_blanks_says_what_it_needs():
    proc = run_tfdebug("explain", "  ")
    assert proc.returncode == 2
    assert "needs a recipe id (e.g. TFD101) or the text of an error" in _one_error_line(proc)


def test_doctor_survives_a_failing_tensorflow_query_and_says_which(tmp_path, forked_python):
    # TensorFlow failing to list its devices (a broken driver does this): doctor still
    # prints every other row, and says why that one is missing. (`python SCRIPT` in a fork
    # of the case server; tests/test_cli_run.py runs doctor as a real process.)
    script = tmp_path / "doctor_broken.py"
    script.write_text("import sys, tensorflow as tf\n"
                      "def broken():\n    raise RuntimeError('driver gone')\n"
                      "tf.config.list_physical_devices = broken\n"
                      "from tfdebug.cli import main\nsys.exit(main(['doctor']))\n")
    proc = forked_python(script, cwd=tmp_path, env={"TF_CPP_MIN_LOG_LEVEL": "3"}, timeout=120)
    assert proc.returncode == 0, proc.stderr
    assert "devices                      unavailable (RuntimeError: driver gone)" in proc.stdout
    assert "trace hook                   works" in proc.stdout


@pytest.mark.parametrize("args", [["recipes"], ["explain", "TFD101"], ["lint", "tests/cases_extra"]])
def test_a_reader_that_leaves_early_stops_the_command_quietly(args):
    # `tfdebug lint | head -1`: the pipe closes before the output is written
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    proc = subprocess.Popen([sys.executable, "-m", "tfdebug", *args], cwd=root, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, env=dict(os.environ, TF_CPP_MIN_LOG_LEVEL="3"))
    proc.stdout.close()
    stderr = proc.stderr.read().decode()
    assert proc.wait(timeout=120) in (0, 1)
    assert "Traceback" not in stderr and "BrokenPipeError" not in stderr, stderr


@pytest.mark.parametrize("source", ["x = " + "-" * 200_000 + "1\n", "x = " + "not " * 100_000 + "1\n"],
                         ids=["unary", "not"])
def test_run_of_a_script_nested_too_deeply_is_one_line(tmp_path, capsys, source):
    (tmp_path / "deep.py").write_text(source)
    assert cli.main(["run", str(tmp_path / "deep.py")]) == 2   # in-process: refused before running
    err = capsys.readouterr().err
    assert err.startswith("tfdebug: error: ") and "nested too deeply" in err
    assert len(err.strip().splitlines()) == 1
