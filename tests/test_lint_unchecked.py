"""No silent drops: every node type of the running Python is walked, and what the checker
cannot analyse (too deep, syntax it does not know) gives an E903 line naming the file and line,
while the rest of the file is still checked."""
import ast
import json
import os
import subprocess
import sys

import pytest

from tfdebug import lint
from tfdebug.lint import walker

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
HEADER = "import tensorflow as tf\n"

# Bodies of a traced function, together holding every node type of the running Python.
SNIPPETS = [
    "y = x + 1 - 2 * 3 / 4 // 5 % 6 ** 7 @ x << 1 >> 1 | 1 ^ 1 & 1",
    "y = not (x and x or x)",
    "y = -x\nz = +x\nw = ~x",
    "y = 1 < 2 <= 3 > 0 >= 0 == 0 != 1 and x is None and x is not None and 1 in [1] "
    "and 1 not in (2,)",
    "y = x if x is None else x",
    "y = {1: 2}\nz = {1, 2}\nw = [1, 2]\nv = (1, 2)",
    "y = [i for i in range(3) if i]\nz = {i for i in range(3)}\nw = {i: i for i in range(3)}\n"
    "v = list(i for i in range(3))",
    "y = lambda a, *b, c=1, **d: a",
    "y = f'{x!r:>10}'",
    "y = x[1:2:3]\nz = x.shape",
    "y = (z := 3)",
    "y = [*[1], 2]\nz = tf.reduce_sum(x, *[], axis=0, **{})",
    "y = [1]\ndel y[0]",
    "assert True, 'message'",
    "import os\nfrom os import path as p",
    "pass",
    "for i in range(2):\n    if i:\n        break\n    continue\nelse:\n    pass",
    "while False:\n    pass",
    "with tf.name_scope('s') as scope:\n    pass",
    "try:\n    pass\nexcept ValueError as e:\n    pass\nelse:\n    pass\nfinally:\n    pass",
    "try:\n    pass\nexcept* ValueError:\n    pass",
    "if x is None:\n    raise ValueError('x') from None",
    "y: int = 1\ny += 1",
    "class C:\n    pass",
    "def g():\n    v = 1\n    def h():\n        nonlocal v\n        v = 2\n    return h",
    "global G",
    "async def g():\n    await g()\n    async for i in g():\n        pass\n"
    "    async with g() as c:\n        pass",
    "def gen():\n    yield 1\n    yield from [1]",
    "match x:\n    case 1 | 2:\n        pass\n    case [a, *rest]:\n        pass\n"
    "    case {'k': v, **kw}:\n        pass\n    case tf.Tensor(shape=0) as p:\n        pass\n"
    "    case None:\n        pass\n    case _:\n        pass",
    "if x is None:\n    return x",
    "y = ...",
]
if sys.version_info >= (3, 12):  # type parameters and aliases
    SNIPPETS += ["type Alias[T] = list[T]", "def g[T, *Ts, **P](a: T) -> T:\n    return a"]
# Node types that never sit inside a function: the kinds of module, and type comments.
NOT_IN_A_BODY = {"Module", "Interactive", "Expression", "FunctionType", "TypeIgnore"}
ABSTRACT = (ast.mod, ast.stmt, ast.expr, ast.expr_context, ast.boolop, ast.operator,
            ast.unaryop, ast.cmpop, ast.excepthandler, ast.pattern, ast.type_ignore,
            *([ast.type_param] if hasattr(ast, "type_param") else []))


def _source(snippet: str) -> tuple[str, int]:
    body = "\n".join("    " + line for line in snippet.splitlines())
    source = f"@tf.function\ndef f(x):\n{body}\n    print(x)\n"
    return source, source.count("\n")


def _node_types() -> set[str]:
    """Every concrete node class of the running Python (deprecated aliases left out)."""
    def below(cls):
        for sub in cls.__subclasses__():
            yield sub
            yield from below(sub)
    found = set()
    for cls in below(ast.AST):
        if cls.__module__ != "ast" or cls in ABSTRACT or not cls._fields and not issubclass(
                cls, (ast.expr_context, ast.boolop, ast.operator, ast.unaryop, ast.cmpop)):
            continue
        if getattr(cls, "__doc__", "") and "Deprecated" in (cls.__doc__ or ""):
            continue
        found.add(cls.__name__)
    return found - {"AugLoad", "AugStore", "Param", "Suite", "Index", "ExtSlice", "Num", "Str",
                    "Bytes", "NameConstant", "Ellipsis", "slice"}


def test_the_snippets_hold_every_node_type_of_this_python():
    covered = {type(n).__name__ for s in SNIPPETS
               for n in ast.walk(ast.parse(HEADER + _source(s)[0]))}
    missing = _node_types() - covered - NOT_IN_A_BODY
    assert not missing, f"add a snippet with {sorted(missing)} (new syntax of this Python) " \
        "and teach the walker about it"


@pytest.mark.parametrize("snippet", SNIPPETS, ids=[s.split("\n")[0][:30] for s in SNIPPETS])
def test_each_node_type_is_walked_and_what_follows_is_checked(snippet):
    source, print_line = _source(snippet)
    found = lint.lint_source(source, "t.py", header=HEADER)
    codes = {(f.line, f.code) for f in found}
    assert (print_line, "TFD300") in codes, [f.text() for f in found]
    assert not [f for f in found if f.code in (lint.INTERNAL_ERROR, lint.UNCHECKED)]


def test_a_match_statement_is_checked_inside_and_after():
    found = lint.lint_source(
        "@tf.function\n"
        "def f(x, mode):\n"
        "    match mode:\n"
        "        case 'train':\n"
        "            y = x.numpy()\n"
        "        case _:\n"
        "            y = x\n"
        "    print(y)\n"
        "    return y\n", "t.py", header=HEADER)
    assert [(f.line, f.code) for f in found] == [(5, "TFD140"), (8, "TFD300")]


def test_a_statement_of_unknown_syntax_gives_e903_and_the_rest_is_checked():
    class Future(ast.stmt):  # what a later Python may add
        _fields = ("body",)

    tree = ast.parse(HEADER + "@tf.function\ndef f(x):\n    pass\n    print(x)\n")
    func = tree.body[1]
    func.body[0] = ast.copy_location(Future(body=[ast.Expr(ast.Call(
        ast.Name("print", ast.Load()), [], []))]), func.body[0])
    found = lint.analyse(tree, "t.py", [])
    assert [(f.line, f.code) for f in found] == [(4, lint.UNCHECKED), (5, "TFD300")]
    assert "`Future` statements are not analysed" in found[0].message
    assert found[0].text().startswith("t.py:4:5: E903 not checked:")


def test_a_600_term_sum_is_checked_to_its_end():
    terms = " + ".join(["x"] * 600)
    found = lint.lint_source(f"@tf.function\ndef f(x):\n    y = {terms} + x.numpy()\n"
                             "    return y\n", "t.py", header=HEADER)
    assert [(f.line, f.code) for f in found] == [(3, "TFD140")]


def test_a_400_branch_elif_chain_is_checked_to_its_end():
    branches = "".join(f"    elif n == {i}:\n        print({i})\n" for i in range(1, 400))
    found = lint.lint_source(f"@tf.function\ndef f(x, n):\n    if n == 0:\n        print(0)\n"
                             f"{branches}    else:\n        y = x.numpy()\n    return x\n",
                             "t.py", header=HEADER)
    assert sum(f.code == "TFD300" for f in found) == 400
    assert (804, "TFD140") in {(f.line, f.code) for f in found}
    assert not [f for f in found if f.code.startswith("E9")]


@pytest.mark.parametrize("deep", ["x" + "[0]" * 1500, "-" * 1500 + "x",
                                  "x" + ".read_value()" * 400])
def test_long_chains_are_checked_to_their_end(deep):
    # the kind of the whole chain (a tensor) is known, so the unconverted `if` on it is found
    found = lint.lint_source(f"@tf.function(autograph=False)\ndef f():\n"
                             f"    x = tf.ones([2])\n    y = {deep}\n    if y:\n"
                             "        print(x)\n", "t.py", header=HEADER)
    assert [(f.line, f.code) for f in found] == [(5, "TFD101"), (6, "TFD300")]


def test_a_statement_too_deep_to_analyse_is_reported_and_the_rest_checked(monkeypatch):
    real = walker.Walker.s_Assign

    def too_deep(self, node):
        if node.lineno == 4:  # (the header is line 1)
            raise RecursionError("maximum recursion depth exceeded")
        return real(self, node)

    monkeypatch.setattr(walker.Walker, "s_Assign", too_deep)
    found = lint.lint_source("@tf.function\ndef f(x):\n    y = x\n    print(x)\n",
                             "t.py", header=HEADER)
    assert [(f.line, f.code) for f in found] == [(3, lint.UNCHECKED), (4, "TFD300")]
    assert found[0].message == ("not checked: this statement is nested too deeply for the "
                                "checker; the rest of the file was checked")


def test_a_checker_failure_costs_one_statement(monkeypatch):
    def broken(self, node):
        raise KeyError("boom")

    monkeypatch.setattr(walker.Walker, "s_Return", broken)
    found = lint.lint_source("@tf.function\ndef f(x):\n    print(x)\n    return x\n"
                             "@tf.function\ndef g(x):\n    return x.numpy()\n", "t.py",
                             header=HEADER)
    assert [(f.line, f.code) for f in found] == [
        (3, "TFD300"), (4, lint.INTERNAL_ERROR), (7, lint.INTERNAL_ERROR)]


def test_a_function_the_walker_fails_on_is_reported_at_its_line(monkeypatch):
    def broken(self):
        raise RecursionError

    monkeypatch.setattr(walker.Walker, "run", broken)
    found = lint.lint_source("@tf.function\ndef f(x):\n    return x\n", "t.py", header=HEADER)
    assert [(f.line, f.code) for f in found] == [(2, lint.UNCHECKED)]


def _run_lint(args, env=None, cwd=None):
    return subprocess.run([sys.executable, "-m", "tfdebug", "lint", *args], capture_output=True,
                          text=True, cwd=cwd or ROOT, timeout=120,
                          env=dict(os.environ, **(env or {})))


def test_a_deeply_nested_notebook_is_one_line_not_a_traceback(tmp_path):
    path = tmp_path / "deep.ipynb"
    path.write_text("[" * 100_000 + "]" * 100_000)
    proc = _run_lint([str(path)])
    assert "Traceback" not in proc.stderr
    assert proc.stdout.splitlines() == [
        f"{path}:1:1: E902 not a Jupyter notebook (its JSON is nested too deeply to read)"]


def test_a_notebook_with_cells_of_the_wrong_type_is_read(tmp_path):
    path = tmp_path / "odd.ipynb"
    path.write_text(json.dumps({"cells": [{"cell_type": "code", "source": [1, None]},
                                          {"cell_type": "code", "source": 3}]}))
    assert lint.lint_file(str(path)) == []


def test_a_non_ascii_file_name_on_an_ascii_stdout(tmp_path):
    path = tmp_path / "r\u00e9seau_\u4e2d.py"
    path.write_text(HEADER + "@tf.function\ndef f(x):\n    print(x)\n", encoding="utf-8")
    proc = _run_lint([str(path)], env={"PYTHONIOENCODING": "ascii"})
    assert "Traceback" not in proc.stderr and proc.returncode == 1, proc.stderr
    assert proc.stdout.strip().endswith(
        "r\\xe9seau_\\u4e2d.py:4:5: TFD300 `print()` in traced code runs once per trace, not "
        "once per call; use tf.print")


@pytest.mark.parametrize("fmt", lint.FORMATS)
def test_e903_renders_in_every_format(fmt):
    class Future(ast.stmt):
        _fields = ()

    tree = ast.parse(HEADER + "@tf.function\ndef f(x):\n    pass\n")
    tree.body[1].body[0] = ast.copy_location(Future(), tree.body[1].body[0])
    text = lint.render(lint.analyse(tree, "t.py", []), fmt)
    assert "E903" in text
    if fmt == "sarif":
        rules = json.loads(text)["runs"][0]["tool"]["driver"]["rules"]
        assert [r["name"] for r in rules] == ["unchecked-code"]
