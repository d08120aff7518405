"""``%load_ext tfdebug`` in a real IPython shell, and examples/notebook.ipynb executed by
nbclient in a real kernel running this interpreter."""
import os
import re
import sys

import pytest

from tfdebug import _tf

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


@pytest.fixture
def shell():
    """A real InteractiveShell; everything it changes in this process is put back."""
    from IPython.core.interactiveshell import InteractiveShell

    saved = (sys.displayhook, sys.excepthook)
    ipython = InteractiveShell.instance()
    try:
        yield ipython
    finally:
        ipython.run_line_magic("unload_ext", "tfdebug")
        InteractiveShell.clear_instance()
        sys.displayhook, sys.excepthook = saved


def _run(shell, capsys, source):
    result = shell.run_cell(source)
    captured = capsys.readouterr()
    return result, captured.out + captured.err


FUNCTIONS = """
import tensorflow as tf
SEEN = []

@tf.function
def step(x):
    SEEN.append(tf.executing_eagerly())
    return x + 1.0

@tf.function
def project(x, w):
    y = tf.nn.relu(x)
    return tf.matmul(y, w)
"""

SAFE_DIV = """
@tf.function(autograph=False)
def safe_div(a, b):
    return a / b if b != 0 else b

safe_div(tf.constant(1.0), tf.constant(2.0))
"""


@pytest.mark.smoke
def test_eager_magics_and_unload(shell, capsys):
    _run(shell, capsys, "%load_ext tfdebug")
    _run(shell, capsys, FUNCTIONS)
    _, out = _run(shell, capsys, "%tfdebug eager on")
    assert "tf.functions run eagerly" in out and _tf.functions_run_eagerly()
    _run(shell, capsys, "step(tf.constant(1.0)); step(tf.constant(2.0))")
    _, out = _run(shell, capsys, "%tfdebug eager off")
    assert "as graphs again" in out and not _tf.functions_run_eagerly()
    _run(shell, capsys, "%%tfdebug_eager\nstep(tf.constant(3.0))")
    _run(shell, capsys, "step(tf.constant(4.0)); step(tf.constant(5.0))")
    assert shell.user_ns["SEEN"] == [True, True, True, False]   # graph: traced once
    assert not _tf.functions_run_eagerly()

    result, out = _run(shell, capsys, "%tfdebug eager maybe")
    assert "usage: %tfdebug eager on|off" in out

    _, out = _run(shell, capsys, SAFE_DIV)                # the explainer's hook is installed
    assert "tfdebug TFD101 tensor-as-bool" in out and "in safe_div" in out

    _run(shell, capsys, "%tfdebug eager on")
    _run(shell, capsys, "%unload_ext tfdebug")          # unload leaves nothing switched on
    assert not _tf.functions_run_eagerly() and not _tf.trace_hook_installed()
    assert shell.custom_exceptions == ()
    _, out = _run(shell, capsys, SAFE_DIV)
    assert "OperatorNotAllowedInGraphError" in out and "TFD101" not in out
    result, out = _run(shell, capsys, "%tfdebug traces")
    assert "%tfdebug` not found" in out


@pytest.mark.smoke
def test_rerun_stops_at_the_offending_user_line(shell, capsys):
    _run(shell, capsys, "%load_ext tfdebug")
    _, out = _run(shell, capsys, "%tfdebug rerun")
    assert "nothing to re-run" in out
    _run(shell, capsys, FUNCTIONS)
    result, _ = _run(shell, capsys, "project(tf.ones((4, 3)), tf.ones((4, 2)))")
    assert isinstance(result.error_in_exec, ValueError)           # the graph's error
    _, out = _run(shell, capsys, '%tfdebug rerun -c "p y.shape, w.shape" -c "p float(x.numpy().sum())"')
    assert "-> return tf.matmul(y, w)" in out
    assert "(Pdb) p y.shape, w.shape\n(TensorShape([4, 3]), TensorShape([4, 2]))" in out
    assert "(Pdb) p float(x.numpy().sum())\n12.0" in out                  # eager values
    assert not _tf.functions_run_eagerly()
    _, out = _run(shell, capsys, "%tfdebug rerun -c")
    assert "takes `-c PDB_COMMAND` pairs" in out


def test_traces_magic(shell, capsys):
    _run(shell, capsys, "%load_ext tfdebug")
    _run(shell, capsys, FUNCTIONS)
    _run(shell, capsys, "step(tf.constant(1.0)); step(tf.constant([1.0, 2.0]))")
    _, out = _run(shell, capsys, "%tfdebug traces")
    assert "step" in out and "2" in out


# -- the example notebook in a real kernel ----------------------------------------------

def _text(cell) -> str:
    parts = []
    for output in cell.get("outputs", []):
        if output["output_type"] == "stream":
            parts.append(output["text"])
        elif output["output_type"] == "error":
            parts.append(f"{output['ename']}: {output['evalue']}\n" + "\n".join(output["traceback"]))
        else:
            parts.append(output.get("data", {}).get("text/plain", ""))
    return "\n".join(parts)


def test_example_notebook_runs_in_a_real_kernel(example_notebook):
    nb = example_notebook
    code = [cell for cell in nb.cells if cell.cell_type == "code"]
    by_source = {cell.source: _text(cell) for cell in code}

    def output_of(fragment: str) -> str:
        matches = [text for source, text in by_source.items() if fragment in source]
        assert len(matches) == 1, f"one notebook cell should contain {fragment!r}"
        return matches[0]

    traces = output_of("%tfdebug traces")
    assert "scale" in traces
    eager = output_of("%tfdebug eager on")
    assert "mean is 3.0" in eager and "as graphs again" in eager
    assert "mean is 6.0" in output_of("%%tfdebug_eager")
    diagnosis = output_of("def safe_div")
    assert "OperatorNotAllowedInGraphError" in diagnosis and "TFD101" in diagnosis
    assert "ValueError" in output_of("def project")
    rerun = re.sub(r"\x1b\[[0-9;]*m", "", output_of("%tfdebug rerun"))
    # Stopped in the user's function at the offending line (the kernel's pdb is IPython's).
    assert re.search(r"\(4\)project\(\)\n(.*\n)*.*4 +return tf\.matmul\(y, w\)", rerun), rerun
    assert re.search(r"(\(Pdb\)|ipdb>) p y\.shape, w\.shape\n"
                     r"\(TensorShape\(\[4, 3\]\), TensorShape\(\[4, 2\]\)\)", rerun), rerun


OUT_OF_SCOPE = """
@tf.function
def collect(n):
    values = []
    for i in tf.range(n):
        values.append(tf.cast(i, tf.float32) * 2.0)
    return tf.stack(values)

collect(tf.constant(3))
"""


def test_a_notebook_s_stacks_show_the_cells_not_the_kernel(notebook_kernel):
    # TensorFlow's "... was defined here:" stack runs through ipykernel, IPython, tornado and
    # asyncio (~30 frames): folded to one line, the cell's frames kept.
    import nbformat

    from conftest import run_notebook
    from test_main_example import machinery_file

    nb = nbformat.v4.new_notebook()
    nb.cells = [nbformat.v4.new_code_cell("import tensorflow as tf\n%load_ext tfdebug"),
                nbformat.v4.new_code_cell(OUT_OF_SCOPE)]
    run_notebook(nb, notebook_kernel, allow_errors=True)
    # what Jupyter shows: the traceback lines (the "evalue" field is str(exc), untouched)
    (error,) = [o for o in nb.cells[1].outputs if o["output_type"] == "error"]
    text = re.sub(r"\x1b\[[0-9;]*m", "", "\n".join(error["traceback"]))
    assert "was defined here:" in text, text
    stack = text.split("was defined here:")[1].split("The tensor")[0]
    files = re.findall(r'File "([^"]+)", line \d+', stack)
    assert files and not [f for f in files if machinery_file(f)], stack
    assert not any(name in f for f in files for name in ("site-packages", "asyncio", "tornado")), stack
    assert re.search(r"\[\.\.\. \d+ frames of .*ipykernel.* hidden\]", stack), stack
    assert "in collect" in stack and "TFD115" in text
