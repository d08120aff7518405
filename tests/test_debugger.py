"""breakpoint(), debug() and `tfdebug run --pdb`, driven through a real pdb prompt.

Each test runs a script in a process of its own (TensorFlow and pdb own the process) and types
pdb commands on its stdin; the values pdb prints are checked. The scripts run as ``python
SCRIPT`` in forks of the case server (``forked_python``: TensorFlow imported once); `tfdebug
run --pdb` runs as a real subprocess.
"""
import os
import textwrap

from conftest import CASES, run_tfdebug


def run_script(run, tmp_path, source, commands, *args, name="script.py"):
    """``python SCRIPT ARGS`` with ``commands`` typed on stdin (``run``: forked_python)."""
    path = tmp_path / name
    path.write_text(textwrap.dedent(source))
    proc = run(path, *args, cwd=tmp_path, input="".join(c + "\n" for c in commands))
    return proc, str(path)


GRAPH_STEP = """
    import tensorflow as tf
    import tfdebug

    @tf.function
    def step(x):
        y = x * 2.0
        pair = (y, "tag")
        tfdebug.breakpoint()
        return y + 1.0

    print("first", step(tf.constant([1.0, 2.0])).numpy())
    print("second", step(tf.constant([5.0, 6.0])).numpy())
    try:
        step(tf.constant([7.0, 8.0]))
    except tf.errors.OutOfRangeError as exc:
        print("aborted:", "DebuggerQuit" in str(exc), "aborted with `q`" in str(exc))
    print("traces", step.experimental_get_tracing_count())
"""


def test_graph_breakpoint_shows_runtime_values_every_call(forked_python, tmp_path):
    proc, path = run_script(forked_python, tmp_path, GRAPH_STEP,
                            ["p y", "p pair", "p float(tf.reduce_sum(x))", "c",
                             "p y", "c",
                             "q"])
    out = proc.stdout
    assert proc.returncode == 0, proc.stderr[-2000:]
    # call 1: the runtime values of the caller's tensors, by name
    assert f"> {path}(9)step()" in out
    assert "numpy=array([2., 4.], dtype=float32)>" in out
    assert "'tag')" in out          # Python leaves keep their trace-time value
    assert "3.0" in out
    assert "first [3. 5.]" in out
    # call 2 stops again, with the new values: the stop is at run time, not trace time
    assert "call 2" in out and "numpy=array([10., 12.], dtype=float32)>" in out
    assert "second [11. 13.]" in out
    # q aborts the call with an exception that says so
    assert "aborted: True True" in out
    assert "traces 1" in out


def test_eager_breakpoint_is_pdb_at_the_caller(forked_python, tmp_path):
    proc, path = run_script(forked_python, tmp_path, """
        import tensorflow as tf
        import tfdebug

        def f(a):
            b = a + 1
            tfdebug.breakpoint()
            return b * 2

        print("eager", f(tf.constant(4)).numpy())

        @tf.function
        def g(a):
            b = a + 1
            tfdebug.breakpoint()
            return b * 2

        with tfdebug.eager():
            print("under eager()", g(tf.constant(6)).numpy())
    """, ["p b", "p a", "c", "p b", "p type(b).__name__", "c"])
    out = proc.stdout
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert f"> {path}(8)f()" in out                   # the caller's next line, not a wrapper
    assert "numpy=5>" in out and "numpy=4>" in out and "eager 10" in out
    assert f"> {path}(16)g()" in out and "numpy=7>" in out and "EagerTensor" in out
    assert "under eager() 14" in out
    assert "ag_ctx.py" not in out


def test_breakpoint_in_tf_data_map_and_graph_loop(forked_python, tmp_path):
    proc, _ = run_script(forked_python, tmp_path, """
        import tensorflow as tf
        import tfdebug

        def scale(v):
            w = v * 10
            tfdebug.breakpoint()
            return w

        ds = tf.data.Dataset.from_tensor_slices([1, 2]).map(scale)
        print("items", [int(t) for t in ds])

        @tf.function
        def loop(n):
            total = tf.constant(0)
            for i in tf.range(n):
                total += i
                tfdebug.breakpoint()
            return total

        print("loop", loop(tf.constant(3)).numpy())
    """, ["p w", "c", "p v", "c", "p (int(i), int(total))", "c", "p (int(i), int(total))", "c",
          "p (int(i), int(total))", "c"])
    out = proc.stdout
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert "numpy=10>" in out and "numpy=2>" in out and "items [10, 20]" in out
    # one stop per loop iteration, each with that iteration's values
    assert "(0, 0)" in out and "(1, 1)" in out and "(2, 3)" in out
    assert "loop 3" in out


def test_pythonbreakpoint_0_turns_it_off(forked_python, tmp_path):
    path = tmp_path / "off.py"
    path.write_text(textwrap.dedent(GRAPH_STEP))
    proc = forked_python(path, cwd=tmp_path, input="", env={"PYTHONBREAKPOINT": "0"})
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert "(Pdb)" not in proc.stdout and "second [11. 13.]" in proc.stdout


DEBUG_CASE = """
    import runpy, sys
    import tensorflow as tf
    import tfdebug

    # Load the case's functions; its last line (the failing call) raises and is re-run
    # under debug() with the very function and inputs it failed with.
    source = open(sys.argv[1]).read().rsplit("\\nprint(", 1)[0]
    namespace = {"__name__": "case"}
    exec(compile(source, sys.argv[1], "exec"), namespace)
    fn, args = namespace[sys.argv[2]], eval(sys.argv[3], namespace)
    try:
        tfdebug.debug(fn, *args)
    except Exception as exc:
        print("re-raised", type(exc).__name__)
"""


def test_debug_lands_on_the_user_line_of_case_014(forked_python, tmp_path):
    case = os.path.join(CASES, "014_inaccessible_list_append_tf_range_add_n.py")
    proc, _ = run_script(forked_python, tmp_path, DEBUG_CASE, ["p num_iter", "p digit_list", "c"],
                         case, "tf_function_with_loop", "(5,)")
    out = proc.stdout
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert "fails only as a graph" in out
    # the line the diagnosis blames (TFD115: the append), not the loop TensorFlow names
    assert f"> {case}(17)tf_function_with_loop()\n-> digit_list.append(i)" in out
    assert "(Pdb) 5" in out and "(Pdb) []" in out     # real values of that call
    assert "re-raised InaccessibleTensorError" in out


def test_debug_lands_on_the_user_line_of_case_009(forked_python, tmp_path):
    case = os.path.join(CASES, "009_iter_listcomp_over_tf_range.py")
    proc, _ = run_script(forked_python, tmp_path, DEBUG_CASE, ["p bands.shape", "p widths", "c"],
                         case, "band2bin", "(tf.ones([2, 3, 4]), [1, 2, 3])")
    out = proc.stdout
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert f"> {case}(15)band2bin()" in out
    assert "TensorShape([2, 3, 4])" in out and "[1, 2, 3]" in out
    assert "re-raised OperatorNotAllowedInGraphError" in out


def test_debug_post_mortem_when_eager_fails_too(forked_python, tmp_path):
    proc, path = run_script(forked_python, tmp_path, """
        import tensorflow as tf
        import tfdebug

        def flatten3(t):
            n = int(tf.size(t))
            return tf.reshape(t, [3])

        @tf.function
        def model(x):
            h = x + 1.0
            return flatten3(h)

        original = None
        try:
            model(tf.zeros([2, 2]))
        except Exception as exc:
            original = exc
        try:
            tfdebug.debug(model, tf.zeros([2, 2]))
        except Exception as exc:
            print("re-raised", type(exc).__name__, type(exc) is type(original))
        print("ok", tfdebug.debug(model, tf.zeros([3])).numpy())
    """, ["p n", "p t.shape", "up", "p h.numpy().tolist()", "c"])
    out = proc.stdout
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert "the eager re-run raised InvalidArgumentError" in out
    assert f"> {path}(7)flatten3()" in out          # innermost user frame, not TF
    assert "(Pdb) 4" in out and "TensorShape([2, 2])" in out
    assert "[[1.0, 1.0], [1.0, 1.0]]" in out         # `up` reaches the caller with values
    assert "re-raised ValueError True" in out   # the graph error, unchanged
    assert "ok [1. 1. 1.]" in out


def test_debug_rejects_a_non_callable():
    import pytest

    import tfdebug

    with pytest.raises(TypeError, match="needs a callable"):
        tfdebug.debug(3)


def test_run_pdb_reruns_only_the_failing_call(tmp_path):
    script = tmp_path / "train.py"
    script.write_text(textwrap.dedent("""
        import tensorflow as tf
        print("script started")

        @tf.function
        def accumulate(n, scale):
            values = []
            for i in tf.range(n):
                values.append(i * scale)
            return tf.add_n(values)

        accumulate(tf.constant(4), 3)
    """))
    proc = run_tfdebug("run", "--pdb", str(script), input="p n\np scale\nc\n", cwd=tmp_path)
    out = proc.stdout
    assert proc.returncode == 1, proc.stderr[-2000:]
    assert out.count("script started") == 1           # the script itself is not re-run
    assert "InaccessibleTensorError" in proc.stderr  # the original traceback, as python shows it
    assert f"> {script}(9)accumulate()" in out   # the append, where the tensor is made
    assert "numpy=4>" in out and "(Pdb) 3" in out


def test_run_pdb_plain_python_error_opens_at_the_user_frame(tmp_path):
    script = tmp_path / "plain.py"
    script.write_text("def parse(text):\n    value = text.upper()\n    return int(value)\n\n"
                      "parse('abc')\n")
    proc = run_tfdebug("run", "--pdb", str(script), input="p value\nc\n", cwd=tmp_path)
    assert proc.returncode == 1
    assert f"> {script}(3)parse()" in proc.stdout and "'ABC'" in proc.stdout


def test_run_without_pdb_never_prompts(tmp_path):
    script = tmp_path / "plain.py"
    script.write_text("raise ValueError('boom')\n")
    proc = run_tfdebug("run", str(script), input="", cwd=tmp_path)
    assert proc.returncode == 1 and "(Pdb)" not in proc.stdout
    assert "ValueError: boom" in proc.stderr
