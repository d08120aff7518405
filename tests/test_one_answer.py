"""Tools that agree and results that show themselves: the debugger front ends stop at the
line the diagnosis blames, quitting a debugger is one line, tfdebug's own errors and pasted
text get the right answer, results display themselves, and the small conveniences
(``--version``, ``run -m``, bare ``@tfdebug.eager``, ``cell N``).

Scripts whose Python-level output is checked run in forks of the case server
(``forked_python``: TensorFlow imported once); the two that check that TensorFlow's own C++
log stays quiet run as real processes, which read ``TF_CPP_MIN_LOG_LEVEL`` (2: errors shown)
when TensorFlow starts."""
import os
import subprocess
import sys
import textwrap

import pytest
import tensorflow as tf

import tfdebug
from tfdebug import diagnosis

pytest_plugins = ["pytester"]

ENV = {**os.environ, "TF_CPP_MIN_LOG_LEVEL": "2", "NO_COLOR": "1"}

APPEND = textwrap.dedent("""\
    import tensorflow as tf

    @tf.function
    def evaluate(xs, n):
        losses = []
        for i in tf.range(n):
            losses.append(tf.reduce_mean(xs[i]))
        return tf.reduce_min(tf.stack(losses))

    evaluate(tf.ones((4, 3)), tf.constant(4))
""")

BREAKPOINT = textwrap.dedent("""\
    import tensorflow as tf
    import tfdebug

    @tf.function
    def step(x):
        y = x * 2
        tfdebug.breakpoint()
        return y + 1

    print(step(tf.constant(3.0)))
""")


def _tfdebug(*args, stdin="", cwd=None):
    import tempfile

    return subprocess.run([sys.executable, "-m", "tfdebug", *args], input=stdin, text=True,
                          capture_output=True, env=ENV, cwd=cwd or tempfile.gettempdir(),
                          timeout=300)


def test_pdb_stops_at_the_line_the_diagnosis_blames(forked_python, tmp_path):
    (tmp_path / "loop.py").write_text(APPEND)
    proc = forked_python(None, "run", "--pdb", "loop.py", input="p i\nq\n", cwd=tmp_path,
                         env={"NO_COLOR": "1"})
    out = proc.stdout + proc.stderr
    assert "--> loop.py:7 in evaluate" in out                 # the diagnosis ...
    assert "Stopping at loop.py:7 in evaluate, the line the diagnosis blames" in out
    assert "-> losses.append(tf.reduce_mean(xs[i]))" in out    # ... and pdb agree
    assert "numpy=0>" in out                                    # with this call's values


def test_quit_at_a_graph_breakpoint_is_one_line_and_no_diagnosis(tmp_path):
    (tmp_path / "bp.py").write_text(BREAKPOINT)
    proc = _tfdebug("run", "bp.py", stdin="p y\nq\n", cwd=tmp_path)
    assert proc.returncode == 1
    assert "numpy=6.0>" in proc.stdout
    lines = [line for line in proc.stderr.splitlines() if "DebuggerQuit" in line or
             "quit" in line or "tfdebug" in line or "Traceback" in line]
    assert lines == ["tfdebug.breakpoint: quit with `q` at bp.py:7 in step; the call was "
                     "aborted"], proc.stderr
    assert "op_kernel" not in proc.stderr and "generic" not in proc.stderr


def test_quit_at_an_eager_breakpoint_or_at_pdb_is_one_line(forked_python, tmp_path):
    (tmp_path / "bp.py").write_text(BREAKPOINT)
    proc = forked_python(None, "run", "--eager", "bp.py", input="p y\nq\n", cwd=tmp_path,
                         env={"NO_COLOR": "1"})
    assert "numpy=6.0>" in proc.stdout
    assert proc.stderr.strip().splitlines()[-1:] == ["tfdebug: quit from the debugger (q)"]
    assert "Traceback" not in proc.stderr and "BdbQuit" not in proc.stderr


def test_quit_without_tfdebug_run_keeps_the_exception(tmp_path):
    (tmp_path / "bp.py").write_text(BREAKPOINT)
    proc = subprocess.run([sys.executable, "bp.py"], input="q\n", text=True, env=ENV,
                          capture_output=True, cwd=tmp_path, timeout=300)
    assert "OutOfRangeError" in proc.stderr and "op_kernel" not in proc.stderr
    assert "Local rendezvous" not in proc.stderr


def test_tfdebugs_own_errors_are_not_diagnosed():
    @tf.function
    def scale(x, factor):
        return x * factor

    with pytest.raises(tfdebug.RetracingError) as info:
        with tfdebug.trace_logger(max_traces=1):
            scale(tf.ones(2), 1.0)
            scale(tf.ones(2), 2.0)
    assert diagnosis.diagnose(info.value) is None


# The inner session loads the plugin this process imported already (see test_pytest_plugin).
@pytest.mark.filterwarnings(
    "ignore:Module already imported so cannot be rewritten:pytest.PytestAssertRewriteWarning")
def test_pytest_explain_adds_nothing_under_a_retracing_error(pytester):
    pytester.makepyfile(textwrap.dedent("""\
        import tensorflow as tf
        import tfdebug

        @tf.function
        def scale(x, factor):
            return x * factor

        def test_scale():
            with tfdebug.trace_logger(max_traces=1):
                scale(tf.ones(2), 1.0)
                scale(tf.ones(2), 2.0)
    """))
    result = pytester.runpytest_inprocess("--tfdebug-explain", "-p", "no:cacheprovider")
    out = result.stdout.str()
    assert "RetracingError" in out and "knows no cause" not in out and "generic" not in out


def test_a_recipes_when_holds_for_pasted_text(forked_python, tmp_path):
    proc = _tfdebug("explain", "Using a symbolic tf.Tensor as a Python bool is not allowed")
    assert proc.stdout.startswith("TFD101 "), proc.stdout  # not TFD167 (when: keras-loop)
    script = tmp_path / "kl.py"
    script.write_text(textwrap.dedent("""\
        import tensorflow as tf
        import keras

        model = keras.Sequential([keras.Input((3,)), keras.layers.Dense(2)])

        @tf.function
        def scores(x):
            return model.predict(x, verbose=0)

        scores(tf.ones((2, 3)))
    """))
    failed = forked_python(script, cwd=tmp_path, env={"NO_COLOR": "1"})
    assert failed.returncode == 1
    pasted = _tfdebug("explain", "-", stdin=failed.stderr)   # the whole traceback, on stdin
    assert pasted.stdout.startswith("TFD167 "), pasted.stdout + pasted.stderr


# -- results that show themselves ------------------------------------------------------------

def test_compare_and_diagnosis_show_themselves_in_ipython(capsys):
    from IPython.core.interactiveshell import InteractiveShell

    saved = (sys.displayhook, sys.excepthook)
    shell = InteractiveShell.instance()
    try:
        shell.run_cell("import tensorflow as tf, tfdebug\n"
                       "@tf.function(autograph=False)\n"
                       "def g(x):\n"
                       "    return x if x > 0 else -x\n", store_history=True)
        shell.run_cell("tfdebug.compare(tf.function(lambda x: x * 2.0), tf.ones(3), "
                       "repeats=2, warmup=1)", store_history=True)
        out = capsys.readouterr().out
        assert "speed-up of graph over eager" in out and "verdict: results match" in out
        shell.run_cell("try:\n    g(tf.constant(1.0))\nexcept Exception as e:\n"
                       "    d = tfdebug.diagnose(e)\nprint(repr(d))", store_history=True)
        shell.run_cell("d", store_history=True)
        out = capsys.readouterr().out
        assert "<Diagnosis TFD101 tensor-as-bool at cell 1:4 in g>" in out, out
        assert "tfdebug TFD101 tensor-as-bool" in out and "--> cell 1:4 in g" in out
        result = shell.user_ns["_2"]
        assert repr(result).startswith("<CompareResult <lambda>: same results, graph speed-up ")
        assert "<pre>tfdebug.compare: &lt;lambda&gt;" in result._repr_html_()
        d = shell.user_ns["d"]
        assert len(repr(d).splitlines()) == 1 and "before" not in repr(d)
        assert str(d) == d.note() and "<div" in d._repr_html_()
    finally:
        InteractiveShell.clear_instance()
        sys.displayhook, sys.excepthook = saved


def test_rerun_stops_at_the_line_the_diagnosis_blames(capsys):
    from IPython.core.interactiveshell import InteractiveShell

    saved = (sys.displayhook, sys.excepthook)
    shell = InteractiveShell.instance()
    try:
        shell.run_line_magic("load_ext", "tfdebug")
        shell.run_cell(APPEND, store_history=True)   # defines and calls in one cell
        out = capsys.readouterr()
        assert "--> cell 1:7 in evaluate" in out.out + out.err
        shell.run_cell('%tfdebug rerun -c "p i" -c q', store_history=True)
        out = capsys.readouterr().out
        assert "Stopping at cell 1:7 in evaluate, the line the diagnosis blames" in out, out
        assert "-> losses.append(tf.reduce_mean(xs[i]))" in out and "numpy=0>" in out
    finally:
        shell.run_line_magic("unload_ext", "tfdebug")
        InteractiveShell.clear_instance()
        sys.displayhook, sys.excepthook = saved


def test_trace_log_prints_its_table():
    @tf.function
    def double(x):
        return x * 2

    with tfdebug.trace_logger(warn_after=None) as log:
        double(tf.ones(2))
    assert str(log) == log.table() and "double" in str(log)
    assert len(repr(log).splitlines()) == 1


# -- conveniences -------------------------------------------------------------------------

def test_version():
    proc = _tfdebug("--version")
    assert proc.returncode == 0 and proc.stdout.strip() == f"tfdebug {tfdebug.__version__}"


def test_run_module_like_python_m(forked_python, tmp_path):
    package = tmp_path / "pkg"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "__main__.py").write_text(textwrap.dedent("""\
        import sys
        import tensorflow as tf
        print("argv", sys.argv[1:], __name__, __package__, sys.argv[0].endswith("__main__.py"))

        @tf.function
        def g(x):
            return {x: 1}

        g(tf.constant(1))
    """))
    proc = forked_python(None, "run", "--report", "r.json", "-m", "pkg", "--flag", "a",
                         cwd=tmp_path, env={"NO_COLOR": "1"})
    assert proc.returncode == 1
    assert "argv ['--flag', 'a'] __main__ pkg True" in proc.stdout
    assert "TFD118" in proc.stderr and "pkg/__main__.py:7 in g" in proc.stderr
    import json
    report = json.loads((tmp_path / "r.json").read_text())
    assert report["script"] == "-m pkg" and report["diagnostics"][0]["recipe"] == "TFD118"
    missing = _tfdebug("run", "-m", "nosuch", cwd=tmp_path)
    assert missing.returncode == 2 and "no module named nosuch" in missing.stderr


def test_bare_eager_decorator():
    @tfdebug.eager
    def inside():
        return tf.config.functions_run_eagerly()

    assert inside() is True and tf.config.functions_run_eagerly() is False
    assert inside.__name__ == "inside"
