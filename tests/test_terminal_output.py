"""Output that fits the terminal: tables narrower than it, colour on a terminal only."""
import io
import os
import subprocess
import sys

import pytest

from tfdebug import render

pytestmark = pytest.mark.smoke


class _Terminal(io.StringIO):
    def isatty(self):
        return True


ROWS = [["step\ntrain.py:29", "6 (5 retraces)", "lr: 6 Python values 0.1, 0.09, 0.081",
         "@tf.function(input_signature=[tf.TensorSpec(shape=[64, 8], dtype=tf.float32)])"]]
HEADERS = ["function", "traces", "retrace reasons", "suggestion"]


def test_a_table_wider_than_the_terminal_is_laid_out_vertically():
    wide = render.table(ROWS, HEADERS, "simple_grid")
    width = max(map(len, wide.splitlines()))
    assert render.table(ROWS, HEADERS, "simple_grid", width=width) == wide  # it fits: as is
    narrow = render.table(ROWS, HEADERS, "simple_grid", width=60)
    lines = narrow.splitlines()
    assert max(map(len, lines)) <= 60, narrow
    assert lines[:3] == ["function:        step", "                 train.py:29",
                         "traces:          6 (5 retraces)"]
    assert "".join(line.strip() for line in lines if not line.startswith("retrace")).endswith(
        "dtype=tf.float32)])")
    two = render.table(ROWS * 2, HEADERS, width=40).split("\n\n")
    assert len(two) == 2 and two[0] == two[1]                        # a block per row


def test_the_width_is_columns_else_the_terminal_s_else_none(monkeypatch):
    monkeypatch.setenv("COLUMNS", "77")
    assert render.terminal_width(io.StringIO()) == 77
    monkeypatch.delenv("COLUMNS")
    assert render.terminal_width(io.StringIO()) is None              # a pipe or a file
    assert isinstance(render.terminal_width(_Terminal()), int)


def test_table_headers_are_bold_on_a_terminal_only():
    assert "\x1b[1mfunction" in render.table(ROWS, HEADERS, color=True)
    assert "\x1b[" not in render.table(ROWS, HEADERS)
    assert "\x1b[1mfunction:" in render.table(ROWS, HEADERS, width=40, color=True)


@pytest.mark.parametrize("env, tty, painted", [({}, True, True), ({"NO_COLOR": "1"}, True, False),
                                               ({"TERM": "dumb"}, True, False), ({}, False, False)])
def test_lint_output_is_coloured_on_a_terminal_only(tmp_path, monkeypatch, env, tty, painted):
    from tfdebug.lint.cli import main

    monkeypatch.delenv("NO_COLOR", raising=False)
    monkeypatch.setenv("TERM", "xterm")
    for key, value in env.items():
        monkeypatch.setenv(key, value)
    (tmp_path / "bad.py").write_text("import tensorflow as tf\n\n@tf.function\ndef f(x):\n"
                                     "    return x.numpy()\n")
    out, err = (_Terminal(), _Terminal()) if tty else (io.StringIO(), io.StringIO())
    assert main([str(tmp_path / "bad.py")], out=out, err=err) == 1
    assert "TFD140" in out.getvalue()
    assert ("\x1b[1m\x1b[31mTFD140\x1b[0m" in out.getvalue()) is painted, out.getvalue()
    assert ("\x1b[" in err.getvalue()) is painted


def test_the_diagnosis_under_a_traceback_is_coloured_on_a_terminal_only(monkeypatch):
    import tensorflow as tf

    import tfdebug
    from tfdebug import explainer

    @tf.function
    def f(x):
        if x > 0:
            y = x * 2
        return y

    try:
        f(tf.constant(1.0))
    except ValueError as exc:
        error = exc
    monkeypatch.delenv("NO_COLOR", raising=False)
    monkeypatch.setenv("TERM", "xterm")
    monkeypatch.setattr(sys, "excepthook", sys.__excepthook__)
    shown = {}
    for name, stream in (("terminal", _Terminal()), ("pipe", io.StringIO())):
        monkeypatch.setattr(sys, "stderr", stream)
        tfdebug.install()
        try:
            explainer._sys_hook(type(error), error, error.__traceback__)
        finally:
            tfdebug.uninstall()
        shown[name] = stream.getvalue()
    assert "\x1b[1m\x1b[31mtfdebug TFD155 branch-mismatch: \x1b[0m" in shown["terminal"]
    assert "  --> \x1b[36m" in shown["terminal"] and "\x1b[1m  cause:  \x1b[0m" in shown["terminal"]
    assert "\x1b[" not in shown["pipe"] and "tfdebug TFD155 branch-mismatch: " in shown["pipe"]
    assert not any("\x1b[" in note for note in error.__notes__)       # the note stays text


IC_SCRIPT = """
import os, tfdebug
tfdebug.ic(1 + 2)
os.environ["NO_COLOR"] = "1"
tfdebug.ic(3 + 4)
del os.environ["NO_COLOR"]
os.environ["TERM"] = "dumb"
tfdebug.ic(5 + 6)
"""


def _ic_lines(text: str) -> list[str]:
    import re

    return [line.rstrip("\r") for line in text.splitlines()
            if re.sub(r"\x1b\[[0-9;]*m", "", line).startswith("ic|")]


def _ic_output(tmp_path, tty: bool, forked_python=None) -> list[str]:
    """The ic lines of IC_SCRIPT's stderr: a pty (a real process: its stderr is the terminal),
    else a file (a fork of the case server, as a pipe: no terminal)."""
    script = tmp_path / "ic_script.py"  # a file: icecream reads the call's source
    script.write_text(IC_SCRIPT)
    if not tty:
        proc = forked_python(script, cwd=tmp_path, env={"TERM": "xterm"})
        assert proc.returncode == 0, proc.stderr[-2000:]
        return _ic_lines(proc.stderr)
    env = dict(os.environ, TF_CPP_MIN_LOG_LEVEL="3", TERM="xterm")
    env.pop("NO_COLOR", None)
    import pty

    parent, child = pty.openpty()
    try:
        proc = subprocess.run([sys.executable, str(script)], env=env, stderr=child,
                              stdout=subprocess.DEVNULL, timeout=300)
        os.close(child)
        chunks = []
        while True:
            try:
                data = os.read(parent, 65536)
            except OSError:
                break
            if not data:
                break
            chunks.append(data)
    finally:
        os.close(parent)
    assert proc.returncode == 0
    return _ic_lines(b"".join(chunks).decode())


def test_ic_is_coloured_on_a_terminal_and_plain_under_no_color_term_dumb_or_a_pipe(
        forked_python, tmp_path):
    terminal = _ic_output(tmp_path, tty=True)
    assert len(terminal) == 3, terminal
    assert "\x1b[" in terminal[0]                                    # icecream's colours
    assert "\x1b[" not in terminal[1] and "3 + 4: 7" in terminal[1]  # NO_COLOR
    assert "\x1b[" not in terminal[2] and "5 + 6: 11" in terminal[2]  # TERM=dumb
    piped = _ic_output(tmp_path, tty=False, forked_python=forked_python)
    assert piped == ["ic| 1 + 2: 3", "ic| 3 + 4: 7", "ic| 5 + 6: 11"], piped
