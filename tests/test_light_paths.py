"""What the error path and the trace path load and redo: only what the answer needs."""
import linecache
import os
import subprocess
import sys
import textwrap

from tfdebug import _source

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def _run(code: str, tmp_path, forked_python) -> str:
    """``python probe.py`` in a fork of the case server (TensorFlow and the modules `tfdebug
    run` loads imported, none of tfdebug.lint: the probe checks that first, so what it
    finds loaded afterwards is what its diagnosis loaded); its last line of output."""
    script = tmp_path / "probe.py"
    script.write_text("import sys; assert not [m for m in sys.modules if m.startswith("
                      "'tfdebug.lint')]" + textwrap.dedent(code))  # on the code's empty first line
    proc = forked_python(script, cwd=tmp_path, env={"TF_CPP_MIN_LOG_LEVEL": "3"})
    assert proc.returncode == 0, proc.stderr[-3000:]
    return proc.stdout.strip().splitlines()[-1]


def test_an_error_no_lint_recipe_names_is_diagnosed_without_the_linter(tmp_path, forked_python):
    # AutoGraph wraps the IndexError raised in TensorFlow's shape code in a StagingError: no
    # recipe the linter cites names that class, so no finding could explain it
    out = _run("""
        import sys, warnings
        import tensorflow as tf
        import tfdebug
        warnings.simplefilter("ignore")

        @tf.function
        def third_dim(x):
            return x.shape[3]

        try:
            third_dim(tf.zeros([2, 2]))
        except Exception as exc:
            error = exc
        found = tfdebug.diagnose(error)
        print(found.layer, found.line, "tfdebug.lint.driver" in sys.modules)
    """, tmp_path, forked_python)
    assert out == "generic 9 False"


def test_an_error_a_lint_recipe_names_still_asks_the_linter(tmp_path, forked_python):
    out = _run("""
        import sys, warnings
        import tensorflow as tf
        import tfdebug
        warnings.simplefilter("ignore")

        @tf.function
        def tensor_array():
            ta = tf.TensorArray(tf.float32, size=2).write(0, [1.0, 2.0])
            return ta.write(1, [1.0, 2.0, 3.0]).stack()

        try:
            tensor_array()
        except ValueError as exc:
            error = exc
        found = tfdebug.diagnose(error)
        # only the checks whose recipe names ValueError run, and only their modules load:
        # these three modules hold none of them
        skipped = [m for m in ("iteration", "retracing", "side_effects")
                   if "tfdebug.lint.checks." + m in sys.modules]
        print(found.layer, "tfdebug.lint.driver" in sys.modules, skipped)
    """, tmp_path, forked_python)
    assert out == "generic True []"


def test_the_analysis_loads_no_command_line_configuration_or_output():
    code = ("import sys\nimport tfdebug.lint.driver\n"
            "extra = [m for m in ('cli', 'config', 'files', 'notebooks', 'output')\n"
            "         if 'tfdebug.lint.' + m in sys.modules]\n"
            "assert not extra, extra\n"
            "from tfdebug.lint import lint_source, main, CHECKS, FORMATS\n"
            "import tfdebug.lint as lint\n"
            "assert lint.Options and 'lint_paths' in dir(lint)\n")
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          cwd=ROOT, timeout=120)
    assert proc.returncode == 0, proc.stderr


def test_a_parsed_module_is_kept_while_its_text_is_unchanged_and_parsed_anew_when_edited(tmp_path):
    path = tmp_path / "mod.py"
    path.write_text("def f(x):\n    return x\n")
    filename = str(path)
    linecache.checkcache(filename)
    tree = _source.module_tree(filename)
    assert _source.module_tree(filename) is tree
    linecache.updatecache(filename)  # read again (as AutoGraph does per conversion): same text
    assert _source.module_tree(filename) is tree
    path.write_text("def g(y, z):\n    return y + z\n")
    os.utime(filename, (1, 1))  # another size and time: linecache re-reads it
    linecache.checkcache(filename)
    edited = _source.module_tree(filename)
    assert edited is not tree and edited.body[0].name == "g"
    # text with no file behind it (a notebook cell) is compared by content
    linecache.cache["<cell-1>"] = (10, None, ["x = 1\n"], "<cell-1>")
    cell = _source.module_tree("<cell-1>")
    linecache.cache["<cell-1>"] = (10, None, ["y = 2\n"], "<cell-1>")
    assert _source.module_tree("<cell-1>") is not cell
    linecache.cache.pop("<cell-1>", None)
