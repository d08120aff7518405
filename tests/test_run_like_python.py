"""`tfdebug run` is `python` for schedulers, shells and crash reporters.

Real subprocesses: these are behaviours of a process (signals, pipes, symbolic links, the
interpreter's top level). Each case is compared with what `python` itself does.
"""
import json
import os
import signal
import subprocess
import sys
import textwrap
import time

import pytest

from conftest import run_tfdebug, without_native_log

ENV = dict(os.environ, TF_CPP_MIN_LOG_LEVEL="3", PYTHONUNBUFFERED="1")

SPIN = textwrap.dedent("""
    import tensorflow as tf

    @tf.function
    def spin(n):
        i = tf.constant(0, tf.int64)
        while i < n:
            i += 1
        return i

    spin(tf.constant(1, tf.int64))
    print("spinning", flush=True)
    spin(tf.constant(10 ** 12, tf.int64))   # hours inside one graph op
""")


def test_sigterm_during_a_graph_op_ends_the_run_at_once_with_the_report(tmp_path):
    script = tmp_path / "spin.py"
    script.write_text(SPIN)
    report = tmp_path / "r.json"
    proc = subprocess.Popen([sys.executable, "-m", "tfdebug", "run", "--report", str(report),
                             str(script)], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            env=ENV, text=True)
    try:
        assert proc.stdout.readline() == "spinning\n"
        time.sleep(1.0)                       # inside the op: no Python bytecode runs
        sent = time.perf_counter()
        proc.send_signal(signal.SIGTERM)
        code = proc.wait(timeout=20)          # before: only when the op returned
        latency = time.perf_counter() - sent
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        proc.stdout.close()
        proc.stderr.close()
    assert code == -signal.SIGTERM
    assert latency < 5, latency
    data = json.loads(report.read_text())
    assert data["exit_code"] == -signal.SIGTERM and data["status"] == "error"
    assert not [p for p in tmp_path.iterdir() if p.name.endswith(".tmp")]


CRASHING = textwrap.dedent("""
    import sys
    import sibling                       # next to the real file, not the link
    print("builtins", type(__builtins__).__name__, sibling.NAME)
    print("globals", sorted(k for k in globals() if k.startswith("__")))

    def reporter(exc_type, exc, tb):
        print("hook", exc_type.__name__, exc, tb.tb_frame.f_code.co_name,
              bool(getattr(exc, "__notes__", None)), file=sys.stderr)

    sys.excepthook = reporter
    import tensorflow as tf

    @tf.function
    def f(x):
        if x > 0:
            return x
        return -x

    f(tf.constant(1))
    raise ValueError("boom")
""")


def test_symlinked_script_globals_and_excepthook_as_python(tmp_path):
    real = tmp_path / "lib"
    real.mkdir()
    (real / "tool.py").write_text(CRASHING)
    (real / "sibling.py").write_text("NAME = 'sibling'\n")
    bin_ = tmp_path / "bin"
    bin_.mkdir()
    (bin_ / "tool.py").symlink_to(real / "tool.py")
    theirs = subprocess.run([sys.executable, "bin/tool.py"], cwd=tmp_path, env=ENV,
                            capture_output=True, text=True, timeout=120)
    ours = run_tfdebug("run", "bin/tool.py", cwd=str(tmp_path))
    assert ours.returncode == theirs.returncode == 1, ours.stderr
    assert ours.stdout == theirs.stdout
    assert "builtins module sibling" in ours.stdout
    hook_line = [line for line in ours.stderr.splitlines() if line.startswith("hook")]
    assert hook_line == ["hook ValueError boom <module> False"], ours.stderr
    assert "Traceback" not in without_native_log(ours.stderr)   # the hook replaced it


PRINT_WHERE = "import sys; print(repr(sys.path[0]), sys.argv, type(__builtins__).__name__)\n"


@pytest.mark.parametrize("how", ["/dev/stdin", "-", "process-substitution"])
def test_script_from_a_pipe_runs_as_python_runs_it(tmp_path, how):
    script = tmp_path / "piped.py"
    script.write_text(PRINT_WHERE)
    outputs = []
    for command in ([sys.executable], [sys.executable, "-m", "tfdebug", "run"]):
        if how == "process-substitution":
            shell = " ".join(command) + f" <(cat {script}) x"
            args, stdin = ["bash", "-c", shell], None
        else:
            args, stdin = [*command, how, "x"], script.read_text()
        proc = subprocess.run(args, input=stdin, capture_output=True, text=True, env=ENV,
                              timeout=120, cwd=tmp_path)
        outputs.append((proc.returncode, proc.stdout))
    assert outputs[0] == outputs[1]
    assert outputs[1][0] == 0 and "module" in outputs[1][1]


OWN_SIGNALS = textwrap.dedent("""
    import os, signal, time
    child = os.fork()
    if child == 0:
        time.sleep(30)
        os._exit(0)
    time.sleep(0.3)
    os.kill(child, signal.SIGTERM)           # a child's signal never ends the parent
    _, status = os.waitpid(child, 0)
    time.sleep(0.3)
    got = []
    signal.signal(signal.SIGTERM, lambda signum, frame: got.append(signum))
    os.kill(os.getpid(), signal.SIGTERM)      # the script's own handler, not tfdebug's exit
    time.sleep(0.3)
    print("handled", got, "child", os.WTERMSIG(status))
""")


def test_the_script_s_own_sigterm_handler_and_children_s_signals(tmp_path):
    script = tmp_path / "own.py"
    script.write_text(OWN_SIGNALS)
    theirs = subprocess.run([sys.executable, str(script)], env=ENV, capture_output=True,
                            text=True, timeout=120)
    ours = run_tfdebug("run", str(script))
    assert (ours.returncode, ours.stdout) == (theirs.returncode, theirs.stdout) \
        == (0, "handled [15] child 15\n"), ours.stderr
