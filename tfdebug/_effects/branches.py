"""Which children of a statement run while tracing: the branch taken, not a py_function body."""
from __future__ import annotations

import ast
import functools
import sys

from .._source import child_nodes, dotted_parts, parameter_names
from .names import UNRESOLVED, Env, Scope, resolve


# The nodes the walk acts on (``_Finder.statement``, ``traced_children``, ``_Finder.body``);
# any other node only leads to these inside it.
WALKED = (ast.Assign, ast.AugAssign, ast.AnnAssign, ast.Delete, ast.Call, ast.Expr, ast.With,
          ast.AsyncWith, ast.If, ast.IfExp, ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)


_WALKED_TYPES = frozenset(WALKED)
_DEFS = frozenset((ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef))
_LEAVES = frozenset((ast.Constant, ast.Load, ast.Store, ast.Del, ast.Pass, ast.Break,
                     ast.Continue))


def analyse(node) -> tuple[Scope, list]:
    """``(scope_of(node), walked(node's body))`` of a def or lambda, from one pass over its
    own nodes (not those of defs and classes inside it); on the way, each node the walk acts
    on gets its ``walked_children``. A function's first trace pays for this pass alone."""
    params = set(parameter_names(node))
    stored, glob, nonloc = set(), set(), set()
    body: list = []
    stack = [(iter(node.body if isinstance(node.body, list) else [node.body]), body)]
    while stack:  # no recursion: an expression can be thousands of nodes deep
        nodes, found = stack[-1]
        child = next(nodes, None)
        if child is None:
            stack.pop()
            continue
        kind = type(child)
        if kind is ast.Name:  # (its only child is its context)
            if not isinstance(child.ctx, ast.Load):
                stored.add(child.id)
            continue
        if kind in _LEAVES:
            continue
        if kind in _DEFS:
            if kind is not ast.Lambda:
                stored.add(child.name)
            if kind is not ast.ClassDef:
                found.append(child)  # walked with its own scope added (``_Finder.body``)
            continue
        if kind is ast.Global:
            glob.update(child.names)
        elif kind is ast.Nonlocal:
            nonloc.update(child.names)
        elif kind is ast.Import or kind is ast.ImportFrom:
            stored.update((alias.asname or alias.name).split(".")[0] for alias in child.names)
        elif kind is ast.ExceptHandler and child.name:
            stored.add(child.name)
        elif kind is ast.arg:
            stored.add(child.arg)
        if kind in _WALKED_TYPES:
            found.append(child)
            found = child._tfdebug_walked = []
        stack.append((iter(child_nodes(child)), found))
    return Scope(params, (stored | params) - glob - nonloc, glob, nonloc), body


def walked(nodes) -> list:
    """``nodes`` as the walk meets them: a node it acts on as itself, any other node as the
    nodes it acts on inside it (``return a + f(x)`` is its call ``f(x)``), in the order a
    depth-first walk of the whole tree reaches them; classes are left out (their bodies do
    not run when the function runs)."""
    found = []
    stack = [iter(nodes)]
    while stack:  # no recursion: an expression can be thousands of nodes deep
        node = next(stack[-1], None)
        if node is None:
            stack.pop()
        elif isinstance(node, WALKED):
            found.append(node)
        elif not isinstance(node, ast.ClassDef):
            stack.append(iter(child_nodes(node)))
    return found


def walked_children(node) -> list:
    """``walked`` of ``node``'s children, worked out once per node and kept on it (a new
    tree, for an edited file or a redefined function, has new nodes)."""
    found = node.__dict__.get("_tfdebug_walked")
    if found is None:
        found = node._tfdebug_walked = walked(child_nodes(node))
    return found


def traced_children(node, env: Env) -> list:
    """The children of ``node`` that run while tracing, as ``walked`` gives them.

    Left out: the branch a plain Python condition (a global, closure or attribute holding
    a bool, number, string or None) does not take, and the function handed to
    ``tf.py_function``/``tf.numpy_function``, which runs on every call, not at trace time.
    """
    if isinstance(node, (ast.If, ast.IfExp)):
        taken = _python_truth(node.test, env)
        if taken is not None and isinstance(node, ast.If) and \
                _set_to_current(node.orelse if taken else node.body, node.test, env):
            # ``if self.first: ...; self.first = False``: the value is read after the trace,
            # and the skipped branch is what set it to that value (only a trace runs this
            # Python): that branch ran while tracing
            taken = not taken
        if taken is not None:
            branch = node.body if taken else node.orelse
            return walked([node.test] + (branch if isinstance(branch, list) else [branch]))
    elif isinstance(node, ast.Call) and runs_at_call_time(node, env):
        func_arg = node.args[0] if node.args else next(
            (k.value for k in node.keywords if k.arg in ("func", "generator")), None)
        return walked([c for c in child_nodes(node) if c is not func_arg])
    return walked_children(node)


_PYTHON_CONSTANTS = (bool, int, float, str, type(None))


def _set_to_current(branch: list, test, env: Env) -> bool:
    """A statement of ``branch`` (its own, not nested) assigns to the name or attribute chain
    ``test`` reads (under any ``not``) the constant it holds now."""
    while isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not):
        test = test.operand
    if not isinstance(test, (ast.Name, ast.Attribute)):
        return False
    now = resolve(test, env)
    if now is UNRESOLVED or not isinstance(now, _PYTHON_CONSTANTS):
        return False
    return any(isinstance(stmt, ast.Assign) and isinstance(stmt.value, ast.Constant)
               and type(stmt.value.value) is type(now) and stmt.value.value == now
               and any(dotted_parts(t) == dotted_parts(test) for t in stmt.targets)
               for stmt in branch)


def _python_truth(test, env: Env) -> bool | None:
    """True/False when ``test`` is a name or attribute chain (maybe under ``not``) holding a
    plain Python value now, while tracing; None when it cannot be told (tensors, locals)."""
    negate = False
    while isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not):
        test, negate = test.operand, not negate
    if isinstance(test, ast.Call) and not test.args and not test.keywords:
        # tf.executing_eagerly() is False in a function being traced
        value = resolve(test.func, env)
        eager_checks = _tf_functions("executing_eagerly", "compat.v1.executing_eagerly")
        return negate if any(value is f for f in eager_checks) else None
    if not isinstance(test, (ast.Name, ast.Attribute)) or env.captured_root(test) is None:
        return None
    value = resolve(test, env)
    if value is UNRESOLVED or not isinstance(value, _PYTHON_CONSTANTS):
        return None
    return bool(value) != negate


def runs_at_call_time(node: ast.Call, env: Env) -> bool:
    """Is ``node`` a ``tf.py_function``/``tf.numpy_function`` call (its function runs per
    call) or a ``Dataset.from_generator`` (its generator runs per element)?"""
    value = resolve(node.func, env)
    if value is UNRESOLVED:
        return False
    # asked of every call in every trace: one set look-up (two C-level caches), not a
    # comparison per wrapper
    tf = sys.modules.get("tensorflow")
    return tf is not None and id(value) in _identities(_tf_functions_of(tf, _CALL_TIME_PATHS))


_CALL_TIME_PATHS = ("py_function", "numpy_function", "compat.v1.py_func",
                    "compat.v1.py_function", "compat.v1.numpy_function",
                    "data.Dataset.from_generator")


def _call_time_wrappers() -> tuple:
    """TF's public ops that run a Python function on every call (not while tracing), and
    ``Dataset.from_generator``, whose generator runs as the dataset is iterated."""
    return _tf_functions(*_CALL_TIME_PATHS)


@functools.lru_cache(maxsize=16)
def _identities(objects: tuple) -> frozenset:
    """The ids of ``objects`` (the cache keeps the tuple, so each id stays its object's)."""
    return frozenset(map(id, objects))


def _tf_functions(*paths: str) -> tuple:
    """The public ``tf.<path>`` objects that exist in the loaded TensorFlow: looked up once
    per TensorFlow module (every walk asked TensorFlow's lazy module wrapper again, a tenth
    of a trace's analysis)."""
    tf = sys.modules.get("tensorflow")
    return _tf_functions_of(tf, paths) if tf is not None else ()


@functools.lru_cache(maxsize=16)
def _tf_functions_of(tf, paths: tuple) -> tuple:
    found = []
    for path in paths:
        value = tf
        for part in path.split("."):
            value = getattr(value, part, None)
        if value is not None:
            found.append(value)
    return tuple(found)
