"""tfdebug lint on Jupyter notebooks written with nbformat: cells read as IPython reads them
(escapes, continued escapes, magics inside blocks, indented first lines, cell magics), and a
cell that does not parse reported alone while the other cells are still checked."""
import nbformat
from nbformat.v4 import new_code_cell, new_markdown_cell, new_notebook

from tfdebug import lint

from conftest import run_tfdebug

TF = "import tensorflow as tf\n"
# one TFD140 at line 3, column 12 of its cell: the marker that a cell was checked
NUMPY_IN_GRAPH = "@tf.function\ndef f{n}(x):\n    return x.numpy()\n"


def marker(n: int, before: str = "") -> str:
    """A cell made of ``before`` and then a tf.function whose TFD140 sits on the cell's line
    ``before.count(newline) + 3``."""
    return before + NUMPY_IN_GRAPH.format(n=n)


def write_notebook(path, *cells, language=None) -> str:
    notebook = new_notebook(cells=[new_markdown_cell(text) if kind == "md" else new_code_cell(text)
                                   for kind, text in cells])
    if language:
        notebook.metadata["kernelspec"] = {"name": language, "display_name": language,
                                           "language": language}
    nbformat.validate(notebook)
    nbformat.write(notebook, str(path))
    return str(path)


def where(findings) -> list[tuple]:
    return [(f.cell, f.line, f.col, f.code) for f in findings]


def test_a_broken_cell_is_reported_alone_and_the_other_cells_still_checked(tmp_path):
    path = write_notebook(tmp_path / "exercise.ipynb",
                          ("md", "# Fill in the blanks"),
                          ("code", TF),
                          ("code", "batch_size = # YOUR CODE HERE\nepochs = 3\n"),
                          ("code", marker(1)),
                          ("code", "def f(:\n    pass\n"),
                          ("code", marker(2, "x = 1\n")))
    assert where(lint.lint_file(path)) == [
        (3, 1, 14, lint.SYNTAX_ERROR), (4, 3, 12, "TFD140"), (5, 1, 7, lint.SYNTAX_ERROR),
        (6, 4, 12, "TFD140")]


def test_ipython_escapes_anywhere_a_statement_starts(tmp_path):
    path = write_notebook(
        tmp_path / "colab.ipynb",
        ("code", TF + "try:\n  %%time\nexcept:\n  pass\n" + marker(1)),
        ("code", "if True:\n    !wget https://example.com/{m}.tar.gz\n    !tar zxf x.tgz\n"
                 + marker(2)),
        ("code", "!wget --no-check-certificate \\\n    https://example.com/a.csv \\\n"
                 "    -O /tmp/a.csv\n" + marker(3)),
        ("code", "files = !ls\nout, err = %sx ls\ntf.function?\n??tf\n%pinfo tf\n"
                 + marker(4)),
        # inside brackets and strings a leading % or ! is Python, not an escape
        ("code", marker(5, 'print("size: %d bytes"\n      % (3))\n'
                           'text = """\n%not a magic\n"""\n')))
    assert where(lint.lint_file(path)) == [
        (1, 8, 12, "TFD140"), (2, 6, 12, "TFD140"), (3, 6, 12, "TFD140"), (4, 8, 12, "TFD140"),
        (5, 8, 12, "TFD140")]


def test_cells_as_ipython_reads_them(tmp_path):
    path = write_notebook(
        tmp_path / "cells.ipynb",
        ("code", TF),
        # IPython drops the indent of a cell's first line from each line: columns stay the cell's
        ("code", "  " + marker(1).replace("\n", "\n  ")),
        ("code", "%%time\n" + marker(2)),            # Python body: checked
        ("code", "%%bash\necho $HOME\nif [ -x a ]; then ls; fi\n"),   # not Python: skipped
        ("code", "pip install tensorflow-datasets\n"),                # automagic: skipped
        ("code", "time = 3\n" + marker(3)))         # a name like a magic is still Python
    assert where(lint.lint_file(path)) == [
        (2, 3, 14, "TFD140"), (3, 4, 12, "TFD140"), (6, 4, 12, "TFD140")]


def test_a_notebook_in_another_language_is_not_python(tmp_path):
    r_cell = "library(tensorflow)\nif (x > 1) { print(x) }\n"
    path = write_notebook(tmp_path / "r.ipynb", ("code", r_cell), language="R")
    assert lint.lint_file(path) == []
    python = write_notebook(tmp_path / "py.ipynb", ("code", TF + marker(1)), language="python")
    assert where(lint.lint_file(python)) == [(1, 4, 12, "TFD140")]


def test_the_cli_reports_the_broken_cell_and_the_findings_of_the_others(tmp_path):
    write_notebook(tmp_path / "nb.ipynb", ("code", TF + "%matplotlib inline\n"),
                   ("code", "x = (\n"), ("code", marker(1)))
    proc = run_tfdebug("lint", "nb.ipynb", cwd=str(tmp_path), timeout=120)
    assert proc.returncode == 1, proc.stderr
    lines = proc.stdout.splitlines()
    assert lines[0].startswith("nb.ipynb:cell 2:1:5: E999 SyntaxError: '(' was never closed")
    assert lines[1].startswith("nb.ipynb:cell 3:3:12: TFD140 ")
