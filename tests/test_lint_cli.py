"""tfdebug lint as tools and CI use it: output formats (GitHub, SARIF 2.1.0 validated against
the published schema), notebooks, per-file configuration, odd files, usage errors, and the
promise that linting never runs the code it reads."""
import io
import json
import os
import subprocess
import sys

import pytest

from tfdebug import lint
from tfdebug.lint import checks

from conftest import ROOT, run_tfdebug

SCHEMA = os.path.join(ROOT, "tests", "sarif-schema-2.1.0.json")
TF = "import tensorflow as tf\n"
BAD = TF + "@tf.function\ndef f(x):\n    print(x)\n    return x.numpy()\n"


def write(path, text):
    os.makedirs(os.path.dirname(str(path)), exist_ok=True)
    with open(path, "w", encoding="utf-8") as fh:
        fh.write(text)


def run_main(*paths, **kwargs):
    out, err = io.StringIO(), io.StringIO()
    code = lint.main(list(paths), out=out, err=err, **kwargs)
    return code, out.getvalue(), err.getvalue()


def notebook(*cells):
    """An nbformat-4 notebook: ("md", text) or ("code", text) cells."""
    return json.dumps({"nbformat": 4, "nbformat_minor": 5, "metadata": {}, "cells": [
        {"cell_type": "markdown" if kind == "md" else "code", "metadata": {},
         "source": text.splitlines(keepends=True),
         **({} if kind == "md" else {"outputs": [], "execution_count": None})}
        for kind, text in cells]})


# --------------------------------------------------------------------------- formats

def test_github_format_is_workflow_annotations(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    write(tmp_path / "bad.py", BAD)
    code, out, _ = run_main("bad.py", fmt="github")
    assert code == 1
    assert out.splitlines() == [
        "::warning file=bad.py,line=4,col=5,title=tfdebug TFD300::`print()` in traced code "
        "runs once per trace, not once per call; use tf.print",
        "::warning file=bad.py,line=5,col=12,title=tfdebug TFD140::`.numpy()` inside traced "
        "code: tensors are symbolic there; return the tensor and call .numpy() outside"]


def test_github_format_escapes_and_names_notebook_cells(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    write(tmp_path / "a,b.py", "def f(:\n")
    write(tmp_path / "nb.ipynb", notebook(("md", "# title"), ("code", BAD)))
    _, out, _ = run_main("a,b.py", "nb.ipynb", fmt="github")
    lines = out.splitlines()
    assert lines[0].startswith("::error file=a%2Cb.py,line=1,col=7,title=tfdebug E999::")
    assert lines[1] == ("::warning file=nb.ipynb,title=tfdebug TFD300::cell 2, line 4: "
                        "`print()` in traced code runs once per trace, not once per call; "
                        "use tf.print")


def _validated_sarif(out):
    jsonschema = pytest.importorskip("jsonschema")
    with open(SCHEMA, encoding="utf-8") as fh:
        schema = json.load(fh)
    log = json.loads(out)
    validator = jsonschema.Draft4Validator(schema, format_checker=jsonschema.FormatChecker())
    errors = sorted(validator.iter_errors(log), key=str)
    assert not errors, "\n".join(str(e) for e in errors[:3])
    return log


def test_sarif_is_valid_against_the_published_schema(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    write(tmp_path / "bad.py", BAD)
    write(tmp_path / "dir with space" / "syntax.py", "def f(:\n")
    cell = "@tf.function\ndef g(x):\n    return x.numpy()\n"
    write(tmp_path / "nb.ipynb", notebook(("code", TF), ("code", cell)))
    code, out, _ = run_main(".", fmt="sarif")
    assert code == 1
    log = _validated_sarif(out)
    run = log["runs"][0]
    assert log["version"] == "2.1.0" and run["tool"]["driver"]["name"] == "tfdebug"
    rules = run["tool"]["driver"]["rules"]
    by_rule = {r["id"]: r for r in rules}
    assert by_rule["TFD300"]["name"] == "print"
    assert by_rule["TFD300"]["properties"]["category"] == "trace-time-side-effect"
    assert by_rule["E999"]["name"] == "syntax-error"
    results = [(r["ruleId"], r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"],
                r["locations"][0]["physicalLocation"].get("region", {}).get("startLine"),
                r.get("properties", {}).get("cell")) for r in run["results"]]
    assert ("TFD300", "bad.py", 4, None) in results
    assert ("E999", "dir%20with%20space/syntax.py", 1, None) in results
    assert ("TFD140", "nb.ipynb", None, 2) in results
    assert all(rules[r["ruleIndex"]]["id"] == r["ruleId"] for r in run["results"])


def test_sarif_links_only_to_pages_that_exist(tmp_path):
    """Every URI in the log is a recipe's documentation page (TensorFlow's, Keras'): the
    tool's own ``informationUri`` is left out, as SARIF allows, since tfdebug publishes no
    page to link to."""
    from tfdebug import recipebook

    write(tmp_path / "bad.py", BAD)
    code, out, _ = run_main(str(tmp_path / "bad.py"), fmt="sarif")
    assert code == 1
    log = _validated_sarif(out)

    def uris(node):
        if isinstance(node, dict):
            for key, value in node.items():
                if key.endswith("Uri") and isinstance(value, str):
                    yield value
                else:
                    yield from uris(value)
        elif isinstance(node, list):
            for value in node:
                yield from uris(value)

    found = list(uris(log["runs"]))
    assert found and set(found) <= {r.docs for r in recipebook.load()}
    assert "informationUri" not in log["runs"][0]["tool"]["driver"]


def test_sarif_with_no_findings_is_valid(tmp_path):
    write(tmp_path / "ok.py", TF + "@tf.function\ndef f(x):\n    return x + 1\n")
    code, out, _ = run_main(str(tmp_path / "ok.py"), fmt="sarif")
    assert code == 0
    assert _validated_sarif(out)["runs"][0]["results"] == []


# --------------------------------------------------------------------------- notebooks

def test_notebook_findings_name_cell_and_line_across_cells(tmp_path):
    path = str(tmp_path / "train.ipynb")
    write(path, notebook(
        ("md", "# Training\nsome text"),
        ("code", "import tensorflow as tf\n%matplotlib inline\n!pip list\n"),
        ("code", "%%bash\necho not python\n"),
        ("code", "@tf.function\ndef step(x):\n    if x > 0:\n        x = x - 1\n"
                 "    return len(x.numpy())\nstep?\n"),
    ))
    found = lint.lint_file(path)
    assert [(f.cell, f.line, f.col, f.code) for f in found] == [(4, 5, 16, "TFD140")]
    assert found[0].text().startswith(f"{path}:cell 4:5:16: TFD140 ")
    assert found[0].to_json()["cell"] == 4


def test_notebook_syntax_error_and_broken_json(tmp_path):
    good = str(tmp_path / "a.ipynb")
    write(good, notebook(("code", TF), ("code", "def f(:\n    pass\n")))
    (finding,) = lint.lint_file(good)
    assert (finding.cell, finding.line, finding.code) == (2, 1, lint.SYNTAX_ERROR)
    broken = str(tmp_path / "b.ipynb")
    write(broken, "{not json")
    (finding,) = lint.lint_file(broken)
    assert finding.code == lint.READ_ERROR and "not a Jupyter notebook" in finding.message


def test_noqa_works_in_notebook_cells(tmp_path):
    path = str(tmp_path / "n.ipynb")
    write(path, notebook(("code", TF + "@tf.function\ndef f(x):\n"
                                       "    return x.numpy()  # noqa: TFD140\n")))
    assert lint.lint_file(path) == []


# --------------------------------------------------------------------------- configuration

def test_nearest_config_with_a_tfdebug_table_applies_to_each_file(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    write(tmp_path / "proj" / "pyproject.toml", '[tool.tfdebug]\nignore = ["TFD140"]\n'
                                                'exclude = ["generated"]\n')
    write(tmp_path / "proj" / "a.py", BAD)
    write(tmp_path / "proj" / "generated" / "g.py", BAD)
    write(tmp_path / "proj" / "sub" / "pyproject.toml", "[project]\nname = 'x'\n")  # no table
    write(tmp_path / "proj" / "sub" / "b.py", BAD)
    write(tmp_path / "other" / "c.py", BAD)
    _, out, _ = run_main("proj", "other")
    codes = sorted((line.split(":")[0], line.split()[1]) for line in out.splitlines())
    assert codes == [("other/c.py", "TFD140"), ("other/c.py", "TFD300"),
                     ("proj/a.py", "TFD300"), ("proj/sub/b.py", "TFD300")]
    # a file named on the command line is checked even when its config excludes it
    _, out, _ = run_main("proj/generated/g.py")
    assert "TFD300" in out and "TFD140" not in out


def test_config_flag_overrides_the_files_own_config(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    write(tmp_path / "proj" / "pyproject.toml", '[tool.tfdebug]\nignore = ["TFD140"]\n')
    write(tmp_path / "proj" / "a.py", BAD)
    write(tmp_path / "ci.toml", '[tool.tfdebug]\nselect = ["numpy-in-graph"]\n')
    _, out, _ = run_main("proj", config="ci.toml")
    assert [line.split()[1] for line in out.splitlines()] == ["TFD140"]
    # the command line still wins per key
    _, out, _ = run_main("proj", config="ci.toml", select=["TFD3"])
    assert [line.split()[1] for line in out.splitlines()] == ["TFD300"]


# --------------------------------------------------------------------------- odd files

@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs FIFOs")
def test_symlink_loops_dangling_links_and_fifos_never_block(tmp_path):
    tree = tmp_path / "tree"
    write(tree / "real.py", BAD)
    os.symlink(str(tree / "real.py"), str(tree / "alias.py"))      # same file twice
    os.symlink(str(tree), str(tree / "loop"))                        # a folder loop
    os.symlink(str(tmp_path / "gone.py"), str(tree / "dangling.py"))
    os.symlink(str(tree / "self1.py"), str(tree / "self2.py"))       # a link loop
    os.symlink(str(tree / "self2.py"), str(tree / "self1.py"))
    os.mkfifo(str(tree / "pipe.py"))
    proc = run_tfdebug("lint", "--format", "json", str(tree), str(tree / "pipe.py"), timeout=60)
    assert proc.returncode == 1, proc.stderr
    found = [(os.path.basename(d["file"]), d["code"]) for d in json.loads(proc.stdout)]
    assert found.count(("alias.py", "TFD300")) + found.count(("real.py", "TFD300")) == 1
    assert ("dangling.py", "E902") in found
    assert ("self1.py", "E902") in found and ("self2.py", "E902") in found
    assert ("pipe.py", "E902") in found and found.count(("pipe.py", "E902")) == 1
    pipe = next(d for d in json.loads(proc.stdout) if d["file"].endswith("pipe.py"))
    assert "not a regular file" in pipe["message"]


# --------------------------------------------------------------------------- usage errors

@pytest.mark.parametrize("args, words", [
    (["--select", "TFD999", "x.py"], "--select: 'TFD999' is no recipe id"),
    (["--ignore", "bogus", "x.py"], "--ignore: 'bogus' is neither a recipe id"),
    (["--config", "missing.toml", "x.py"], "--config missing.toml: no such file"),
    (["--config", "broken.toml", "x.py"], "broken.toml: cannot read [tool.tfdebug]"),
    (["--jobs", "-1", "x.py"], "--jobs -1: give a number of processes >= 0"),
    (["nowhere.py"], "nowhere.py: no such file or directory"),
])
def test_usage_errors_are_one_line_exit_2(tmp_path, args, words):
    write(tmp_path / "x.py", BAD)
    write(tmp_path / "broken.toml", "[tool.tfdebug\n")
    proc = run_tfdebug("lint", *args, cwd=str(tmp_path), timeout=60)
    assert proc.returncode == 2
    assert proc.stdout == ""
    assert proc.stderr.count("\n") == 1 and "Traceback" not in proc.stderr, proc.stderr
    assert proc.stderr.startswith("tfdebug lint: error: ") and words in proc.stderr, proc.stderr


def test_a_real_recipe_id_lint_does_not_check_is_accepted(tmp_path):
    write(tmp_path / "x.py", BAD)
    assert run_main(str(tmp_path / "x.py"), select=["TFD400"])[0] == 0


# a plain `tfdebug lint` command line is read without argparse; where that reader answers it
# must answer as argparse does, and everything else goes to argparse
READ_QUICKLY = [
    ["lint"], ["lint", "a.py", "b/"], ["lint", "--format", "json", "a.py"],
    ["lint", "--format=sarif", "--select", "TFD1,TFD300", "--select=tensor-as-bool", "a.py"],
    ["lint", "--ignore", "TFD300", "--exclude", "build", "--exclude=*.pyi", "--config",
     "pyproject.toml", "-j", "2", "--jobs=3", "x.py", "y.py"],
    ["lint", "--jobs=-1", "x.py"], ["lint", "--preview", "x.py"],
    ["lint", "--format", "json", "--preview", "--select", "TFD165", "x.py"]]
LEFT_TO_ARGPARSE = [
    ["lint", "--jobs", "-1", "x.py"], ["lint", "-j2", "x.py"], ["lint", "--form", "json"],
    ["lint", "--format", "jsn"], ["lint", "--jobs", "two"], ["lint", "a.py", "--format", "json"],
    ["lint", "a.py", "--select", "TFD1", "b.py"], ["lint", "--", "-a.py"], ["lint", "-"],
    ["lint", "--select"], ["lint", "--help"], ["lint", "--nope"], ["run", "x.py"],
    ["lint", "--format", "--select", "X"], ["lint", "--preview=yes", "x.py"]]


@pytest.mark.parametrize("argv", READ_QUICKLY + LEFT_TO_ARGPARSE)
def test_the_quick_reader_of_lint_options_answers_as_argparse_does(argv, capsys):
    from tfdebug import cli

    quick = cli.quick_lint_args(argv)
    if argv in LEFT_TO_ARGPARSE:
        assert quick is None
        return
    assert quick == vars(cli._lint_parser().parse_args(argv))
    capsys.readouterr()


INFERRED = """\
import tensorflow as tf


class Model(tf.keras.Model):
    def __init__(self):
        super().__init__()
        self.dense = tf.keras.layers.Dense(1)

    @tf.function
    def call(self, x):
        return self.dense(x)
"""


@pytest.mark.parametrize("argv", [["lint"], ["lint", "--select", "TFD165"]])
def test_preview_on_the_command_line_adds_the_inferred_findings(argv, tmp_path):
    write(tmp_path / "block.py", INFERRED)
    default = subprocess.run([sys.executable, "-m", "tfdebug", *argv, "--format", "json",
                              "block.py"], cwd=str(tmp_path), capture_output=True, text=True,
                             timeout=120)
    preview = subprocess.run([sys.executable, "-m", "tfdebug", *argv, "--format", "json",
                              "--preview", "block.py"], cwd=str(tmp_path), capture_output=True,
                             text=True, timeout=120)
    assert default.returncode == 0 and json.loads(default.stdout or "[]") == []
    found = json.loads(preview.stdout)
    assert preview.returncode == 1
    assert [(f["code"], f["confidence"]) for f in found] == [("TFD165", "inferred")]


def test_a_plain_lint_run_imports_no_argparse(tmp_path):
    write(tmp_path / "bad.py", BAD)
    proc = subprocess.run([sys.executable, "-X", "importtime", "-m", "tfdebug", "lint",
                           "--format", "json", "--select", "TFD300", "bad.py"],
                          cwd=str(tmp_path), capture_output=True, text=True, timeout=120)
    assert proc.returncode == 1 and json.loads(proc.stdout)[0]["code"] == "TFD300"
    modules = [line.rsplit("|", 1)[-1].strip() for line in proc.stderr.splitlines()
               if line.startswith("import time:")]
    assert "tfdebug.lint.walker" in modules and "argparse" not in modules


# --------------------------------------------------------------------------- skipping checks

def test_disabled_checks_are_not_run():
    calls, exprs = checks.dispatch(frozenset({"print"}))
    assert [fn.__name__ for fn in calls] == ["builtin_io"]
    assert exprs == {}
    all_calls, all_exprs = checks.dispatch(None)
    assert len(all_calls) == len(checks.CALL_CHECKS) and set(all_exprs) == set(checks.EXPR_CHECKS)
    # every check name a registered check reports exists
    registered = list(checks.CALL_CHECKS) + [c for cs in checks.EXPR_CHECKS.values() for c in cs]
    for _, names in registered:
        assert set(names) <= set(lint.CHECKS)


def test_select_gives_what_filtering_afterwards_gives():
    source = open(os.path.join(ROOT, "examples", "side_effects.py"), encoding="utf-8").read()
    every = lint.lint_source(source, "s.py")
    for category in ("trace-time-side-effect", "tensor-as-bool", "retracing"):
        options = lint.Options(select=(category,))
        chosen = lint.lint_source(source, "s.py", enabled=options.enabled_checks())
        assert chosen == [f for f in every if f.category == category]


# --------------------------------------------------------------------------- nothing runs

MARKER_CODE = "open({marker!r}, 'a').write({name!r} + '\\n')\n"


def _booby_trapped_tree(tmp_path):
    marker = str(tmp_path / "ran.txt")
    tree = tmp_path / "proj"
    for name in ("tensorflow.py", "numpy.py", "sitecustomize.py", "conftest.py",
                 "pkg/__init__.py", "argparse.py", "tokenize.py"):
        write(tree / name, MARKER_CODE.format(marker=marker, name=name))
    write(tree / "train.py", "import numpy as np\nimport pkg\n" + BAD)
    return tree, marker


def test_lint_never_imports_the_code_it_checks(tmp_path):
    tree, marker = _booby_trapped_tree(tmp_path)
    script = os.path.join(os.path.dirname(sys.executable), "tfdebug")
    env = dict(os.environ, TF_CPP_MIN_LOG_LEVEL="3")
    for command in ([sys.executable, "-m", "tfdebug", "lint", "."], [script, "lint", "."],
                    [sys.executable, "-m", "tfdebug", "lint", "train.py"]):
        proc = subprocess.run(command, cwd=str(tree), capture_output=True, text=True,
                              timeout=120, env=env)
        assert proc.returncode == 1, proc.stderr
        assert "train.py:6:5: TFD300" in proc.stdout
        assert not os.path.exists(marker), (command, open(marker).read())


def test_lint_imports_no_tensorflow_or_numpy(tmp_path):
    write(tmp_path / "bad.py", BAD)
    proc = subprocess.run([sys.executable, "-X", "importtime", "-m", "tfdebug", "lint", "bad.py"],
                          cwd=str(tmp_path), capture_output=True, text=True, timeout=120)
    assert proc.returncode == 1
    modules = [line.rsplit("|", 1)[-1].strip() for line in proc.stderr.splitlines()
               if line.startswith("import time:")]
    assert "tfdebug.lint.walker" in modules
    heavy = [m for m in modules if m.split(".")[0] in ("tensorflow", "numpy", "keras")]
    assert not heavy, heavy


def test_each_check_run_alone_finds_what_it_finds_among_all_checks():
    # the explainer runs only the checks whose recipe names the error's class (their modules
    # loaded on first use, the hooks of the others skipped): alone, each check must find
    # exactly what it finds in a run of all checks, inferred findings included
    import glob

    paths = sorted(glob.glob(os.path.join(ROOT, "examples", "*.py"))) + \
        sorted(glob.glob(os.path.join(ROOT, "tests", "cases", "*.py")))
    assert len(paths) > 20
    checked = 0
    for path in paths:
        source = open(path, encoding="utf-8").read()
        every = lint.lint_source(source, "s.py", preview=True)
        for check in {f.check for f in every} | {"global-write", "tf-function-in-loop",
                                                 "python-scalar-arg", "tensor-array-dropped",
                                                 "comprehension-tensor", "unhashable"}:
            alone = lint.lint_source(source, "s.py", enabled=frozenset({check}), preview=True)
            assert alone == [f for f in every if f.check == check], (path, check)
            checked += bool(alone)
    assert checked > 20
