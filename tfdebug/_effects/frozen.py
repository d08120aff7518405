"""Values a trace froze into the graph: names at a line that hold a Python draw made while
tracing (``random.randint``, ``np.random.rand``, ``time.time()``).

Such a value is a constant of the graph: every call runs with the number the trace drew,
where eager code draws a new one each time. When an op fails while the graph runs and the
failing line reads such a name, the frozen draw is the cause (a reshape to a batch size drawn
once, a slice bound read from the clock once).

Read from the user's source and the module's live globals (what ``random`` names there),
with the same qualified names the side-effect walk uses (``names.CALLS``).

Example::

    frozen_draws("train.py", 28)   # [(24, "random", "batch_size")]: line 28 reads
                                   # batch_size, drawn by random.randint at line 24
"""
from __future__ import annotations

import ast
import sys
import types

from .._source import dotted_parts, enclosing_function, module_tree, own_statements, statement_at
from .names import UNRESOLVED, Env, call_kind, qualified_names, resolve

# the kinds of trace-time call whose *result* differs from call to call in eager code
FROZEN_KINDS = ("random", "clock")


def frozen_draws(file: str, line: int, module_globals: dict | None = None) -> list[tuple[int, str, str]]:
    """``(line, kind, name)`` for each name the statement at ``file:line`` reads that its
    function binds exactly once, before it, to an expression calling a random or clock
    function of the module's globals (``module_globals``: those of a live frame of ``file``;
    else the loaded module whose source it is). Empty when the source, the function or the
    module is not found, or when nothing is proven."""
    tree = module_tree(file)
    stmt = statement_at(tree, line) if tree is not None else None
    function = enclosing_function(tree, line) if stmt is not None else None
    if module_globals is None:
        module = _module_of(file)
        module_globals = vars(module) if module is not None else None
    if not isinstance(function, (ast.FunctionDef, ast.AsyncFunctionDef)) or module_globals is None:
        return []
    read = {n.id for n in ast.walk(stmt) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load)}
    bindings: dict[str, list] = {}
    for node in own_statements(function.body):
        for target in _targets(node):
            for name in (n.id for n in ast.walk(target) if isinstance(n, ast.Name)):
                bindings.setdefault(name, []).append(node)
    env = _module_env(module_globals, function)
    found = []
    for name in sorted(read):
        nodes = bindings.get(name, [])
        if len(nodes) != 1 or not isinstance(nodes[0], ast.Assign) or nodes[0].lineno >= stmt.lineno:
            continue  # bound more than once, by a loop or a with, or after the line
        if not all(isinstance(t, ast.Name) for t in nodes[0].targets):
            continue  # unpacking: which part holds the draw is not proven
        kind = _draw_kind(nodes[0].value, env)
        if kind is not None:
            found.append((nodes[0].lineno, kind, name))
    return found


def _targets(node) -> list:
    if isinstance(node, ast.Assign):
        return list(node.targets)
    if isinstance(node, (ast.AugAssign, ast.AnnAssign, ast.For, ast.AsyncFor)):
        return [node.target]
    if isinstance(node, (ast.With, ast.AsyncWith)):
        return [item.optional_vars for item in node.items if item.optional_vars is not None]
    if isinstance(node, (ast.Import, ast.ImportFrom)):
        return [ast.Name(id=(a.asname or a.name).split(".")[0]) for a in node.names]
    return []


def _draw_kind(value: ast.AST, env: Env) -> str | None:
    for call in (n for n in ast.walk(value) if isinstance(n, ast.Call)):
        if dotted_parts(call.func) is None:
            continue
        target = resolve(call.func, env)
        if target is UNRESOLVED:
            continue
        kind = call_kind(qualified_names(call.func, env, target))
        if kind in FROZEN_KINDS:
            return kind
    return None


def _module_env(module_globals: dict, function) -> Env:
    """Names looked up as the function would: its parameters and locals are not the module's."""
    from .finder import _analysed  # the function's scope, from its source

    holder = types.SimpleNamespace(__globals__=module_globals)
    return Env(holder, None, None, False, [_analysed(function)[0]])


def _module_of(file: str):
    """The loaded module whose source is ``file`` (``__main__`` for a script); read from
    each module's ``__dict__``, so no lazily loaded module is imported by looking."""
    for module in list(sys.modules.values()):
        namespace = getattr(module, "__dict__", None)
        if isinstance(namespace, dict) and namespace.get("__file__") == file:
            return module
    return None
