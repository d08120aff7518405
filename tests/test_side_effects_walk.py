"""The side-effect guard's walk of a def: one pass over its source finds its scope (the
names it binds) and the nodes the walk acts on, kept on the nodes for later traces. Both
must be what a plain walk of every node finds, on real code of every shape (the stdlib's
and tfdebug's own: nested defs, lambdas, classes, comprehensions, try, with, match)."""
import ast
import importlib

import pytest

from tfdebug._effects import branches
from tfdebug._effects.names import Scope
from tfdebug._source import own_nodes, parameter_names

MODULES = ("ast", "inspect", "argparse", "dataclasses", "json.decoder", "typing", "logging",
           "tfdebug.trace_log", "tfdebug._effects.finder", "tfdebug.lint.walker")
_NESTED = (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)


# The scope a plain walk of every own node finds: the reference for the one-pass analysis.
# Nodes that bind no name themselves (their children are still visited).
_NO_BINDING = (ast.expr_context, ast.operator, ast.unaryop, ast.cmpop, ast.boolop, ast.Constant,
               ast.Call, ast.Attribute, ast.BinOp, ast.Compare, ast.Expr, ast.Return,
               ast.keyword, ast.Subscript)


def _scope_of(node) -> Scope:
    params = set(parameter_names(node))
    stored, glob, nonloc = set(), set(), set()
    for child in own_nodes(node):
        if isinstance(child, _NO_BINDING):  # most nodes: a name read, an operator, a constant
            continue
        if isinstance(child, ast.Global):
            glob.update(child.names)
        elif isinstance(child, ast.Nonlocal):
            nonloc.update(child.names)
        elif isinstance(child, ast.Name) and isinstance(child.ctx, (ast.Store, ast.Del)):
            stored.add(child.id)
        elif isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            stored.add(child.name)
        elif isinstance(child, (ast.Import, ast.ImportFrom)):
            for alias in child.names:
                stored.add((alias.asname or alias.name).split(".")[0])
        elif isinstance(child, ast.ExceptHandler) and child.name:
            stored.add(child.name)
        elif isinstance(child, ast.arg):
            stored.add(child.arg)
    return Scope(params, (stored | params) - glob - nonloc, glob, nonloc)



def _defs(module_name):
    module = importlib.import_module(module_name)
    with open(module.__file__, encoding="utf-8") as fh:
        tree = ast.parse(fh.read())
    return [n for n in ast.walk(tree) if isinstance(n, _NESTED)]


def _every_node_walk(node):
    """The walk as it was: every node of the body in depth-first order, the ones acted on
    kept; defs and lambdas kept and not entered, classes skipped."""
    found, stack = [], list(reversed(node.body if isinstance(node.body, list) else [node.body]))
    while stack:
        child = stack.pop()
        if isinstance(child, ast.ClassDef):
            continue
        if isinstance(child, branches.WALKED):
            found.append(child)
        if isinstance(child, _NESTED):
            continue
        stack.extend(reversed(list(ast.iter_child_nodes(child))))
    return found


def _analysed_walk(node):
    found, stack = [], list(reversed(branches.analyse(node)[1]))
    while stack:
        child = stack.pop()
        found.append(child)
        if not isinstance(child, _NESTED):
            stack.extend(reversed(branches.walked_children(child)))
    return found


@pytest.mark.parametrize("module_name", MODULES)
def test_one_pass_finds_the_scope_and_the_nodes_a_walk_of_every_node_finds(module_name):
    defs = _defs(module_name)
    assert len(defs) > 5
    for node in defs:
        assert branches.analyse(node)[0] == _scope_of(node), ast.dump(node)[:200]
    for node in _defs(module_name):  # fresh nodes: nothing kept from the pass above
        assert _analysed_walk(node) == _every_node_walk(node), getattr(node, "name", "lambda")


def test_walked_children_of_an_unanalysed_node_are_the_same():
    source = ("def f(x):\n    if flag:\n        y = [g(v) for v in x]\n    else:\n"
              "        with ctx() as c:\n            c.send(lambda: h(x))\n    return k(y)\n")
    analysed, plain = ast.parse(source).body[0], ast.parse(source).body[0]
    branches.analyse(analysed)
    for a, p in zip(ast.walk(analysed), ast.walk(plain)):
        if isinstance(a, branches.WALKED) and not isinstance(a, _NESTED):
            assert [ast.dump(n) for n in branches.walked_children(a)] == \
                [ast.dump(n) for n in branches.walked_children(p)]


# -- a tf.data function under run_functions_eagerly(True): tf.data traces it anyway ---------

_SEEN = []


def _parse_element(x):
    _SEEN.append(x)  # <- appended once
    return x * 2


@pytest.mark.parametrize("eager", [True, False], ids=["eager-switch-on", "eager-switch-off"])
def test_an_effect_in_a_data_function_under_the_eager_switch_is_data_pipeline(eager):
    import tensorflow as tf
    from tfdebug.side_effects import side_effect_guard
    tf.config.run_functions_eagerly(eager)
    try:
        with side_effect_guard(action="log") as guard:
            list(tf.data.Dataset.range(3).map(_parse_element))
    finally:
        tf.config.run_functions_eagerly(False)
    line = next(n for n, text in enumerate(open(__file__), 1) if text.rstrip().endswith("# <- appended once"))
    assert [(f.recipe, f.line) for f in guard.findings] == [("TFD323" if eager else "TFD302", line)]


def _prints_str_of_tensor(step):
    import tensorflow as tf
    tf.print("step " + str(step))  # <- str of a graph tensor
    return step + 1


def test_str_of_a_graph_tensor_in_converted_code_is_string_format_at_the_users_line():
    """AutoGraph runs the builtin ``str`` the generated code calls through converted_call:
    the formatting is still the user's line's."""
    import tensorflow as tf
    from tfdebug.side_effects import side_effect_guard
    with side_effect_guard(action="log") as guard:
        tf.function(_prints_str_of_tensor)(tf.constant(1))
    line = next(n for n, text in enumerate(open(__file__), 1) if text.rstrip().endswith("# <- str of a graph tensor"))
    assert [(f.recipe, f.line) for f in guard.findings] == [("TFD310", line)]
