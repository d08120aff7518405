"""The user's source as syntax trees, for the explainer: parsed once per file, indexed once.

Trees come from linecache (the text Python ran, notebooks included) and are cached until
that text changes. Every helper returns None/[] on what it cannot read; nothing raises.
"""
from __future__ import annotations

import ast
import linecache
import re

from ._ast import attribute_chain

KERAS_CONSTRUCTORS = re.compile(r"(^|\.)(layers|optimizers|models)\.[A-Z]\w*$|(^|\.)(Sequential|Model)$")
PY_FUNCTIONS = ("py_function", "numpy_function", "py_func")

_tree_cache: dict[str, tuple[tuple, ast.AST | None]] = {}


def tree_of(filename: str | None) -> ast.AST | None:
    """The parsed module of ``filename`` (cached by its linecache text), or None."""
    if not filename:
        return None
    try:
        lines = linecache.getlines(filename)
    except Exception:  # noqa: BLE001 - unreadable, vanished or binary files give nothing
        return None
    if not lines:
        return None
    key = (len(lines), hash(lines[0]), hash(lines[-1]), id(lines))
    cached = _tree_cache.get(filename)
    if cached is not None and cached[0] == key:
        return cached[1]
    try:
        tree = ast.parse("".join(lines), filename)
    except (SyntaxError, ValueError, MemoryError, RecursionError):
        tree = None
    if len(_tree_cache) > 64:
        _tree_cache.clear()
    _tree_cache[filename] = (key, tree)
    return tree


class SourceIndex:
    """One walk of a module's tree: every node, parents, statements, functions, calls."""

    def __init__(self, tree: ast.AST):
        self.nodes = list(ast.walk(tree))
        self.parents = {child: node for node in self.nodes for child in ast.iter_child_nodes(node)}
        self.stmts = [n for n in self.nodes if isinstance(n, ast.stmt)]
        self.functions = [n for n in self.nodes
                          if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda))]
        self.calls = [n for n in self.nodes if isinstance(n, ast.Call)]
        self.call_names = [(dotted(n.func), n) for n in self.calls]


def index_of(tree: ast.AST) -> SourceIndex:
    index = getattr(tree, "_tfdebug_index", None)
    if index is None:
        index = tree._tfdebug_index = SourceIndex(tree)
    return index


def parents_of(tree: ast.AST) -> dict[ast.AST, ast.AST]:
    return index_of(tree).parents


def statement_at(tree: ast.AST, line: int) -> ast.stmt | None:
    """The innermost statement whose lines cover ``line``."""
    best = None
    for node in index_of(tree).stmts:  # breadth first: a later hit on the same line is nested deeper
        if node.lineno <= line <= (node.end_lineno or node.lineno):
            if best is None or node.lineno >= best.lineno:
                best = node
    return best


def calls_in(tree: ast.AST, node: ast.AST):
    """(dotted name, Call) for the calls inside ``node``'s lines."""
    first, last = node.lineno, node.end_lineno or node.lineno
    return [(name, call) for name, call in index_of(tree).call_names if first <= call.lineno <= last]


def line_nodes(stmt: ast.stmt, line: int) -> list[ast.AST]:
    """Expression nodes of ``stmt`` on ``line`` (the header only, for compound statements)."""
    if isinstance(stmt, (ast.For, ast.While, ast.If, ast.With, ast.Try, ast.FunctionDef,
                         ast.AsyncFunctionDef, ast.ClassDef)):
        roots = [getattr(stmt, name) for name in ("iter", "target", "test", "items")
                 if getattr(stmt, name, None) is not None]
        roots = [r for item in roots for r in (item if isinstance(item, list) else [item])]
    else:
        roots = [stmt]
    return [n for root in roots for n in ast.walk(root)
            if getattr(n, "lineno", line) <= line <= (getattr(n, "end_lineno", None) or line)]


def dotted(node: ast.AST) -> str:
    """``a.b.c`` for an attribute chain; the known tail (``b.c``) for ``f().b.c``."""
    return ".".join(attribute_chain(node)[0])


def enclosing_function(tree: ast.AST, line: int) -> ast.AST | None:
    best = None
    for node in index_of(tree).functions:
        if node.lineno <= line <= (node.end_lineno or node.lineno):
            if best is None or node.lineno >= best.lineno:
                best = node
    return best


def is_loop(node: ast.AST) -> bool:
    return isinstance(node, (ast.For, ast.While, ast.AsyncFor))


def assigned_names(node: ast.AST) -> set[str]:
    targets = []
    if isinstance(node, ast.Assign):
        targets = node.targets
    elif isinstance(node, (ast.AugAssign, ast.AnnAssign)):
        targets = [node.target]
    return {n.id for t in targets for n in ast.walk(t) if isinstance(n, ast.Name)}


def constructor_binding(tree: ast.AST, function: ast.AST, nodes) -> ast.stmt | None:
    """The assignment ``layer = keras.layers.Dense(4)`` in ``function`` of a name the
    offending line calls (``layer(x)``): the weights are made by the call, the cause is there."""
    called = {n.func.id for n in nodes if isinstance(n, ast.Call) and isinstance(n.func, ast.Name)}
    if not called:
        return None
    for node in ast.walk(function):
        if isinstance(node, ast.Assign) and isinstance(node.value, ast.Call) \
                and assigned_names(node) & called and KERAS_CONSTRUCTORS.search(dotted(node.value.func)):
            return node
    return None


def inside_loop(node: ast.AST, parents, stop: ast.AST) -> bool:
    while node is not None and node is not stop:
        node = parents.get(node)
        if is_loop(node):
            return True
    return False


def first_call(tree: ast.AST, suffixes) -> ast.Call | None:
    calls = [n for name, n in index_of(tree).call_names if name.rsplit(".", 1)[-1] in suffixes]
    return min(calls, key=lambda n: (n.lineno, n.col_offset)) if calls else None
