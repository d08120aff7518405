"""loop-var-shape, branch-mismatch (TFD150, 151, 155, 156): what AutoGraph's converted loops
and branches need of the variables they carry."""
from __future__ import annotations

import ast

from ..._source import (dotted_rooted, mentions, mentions_name, names_used_after,
                        own_statements, terminates)
from ..apis import _GRAPH_LOOP_SHAPE_OPS, _literal_dtype
from ..values import SCALAR, _is_tensor


def _int_literal_init(w, name) -> bool:
    for stmt in ast.walk(w.func):
        if isinstance(stmt, ast.Assign) and any(
                isinstance(t, ast.Name) and t.id == name for t in stmt.targets):
            return _literal_dtype(stmt.value) == "int"
    return False


def loop_var_dtype(w, node, before, after):
    """``total += 0.5`` in a tensor loop on a variable that started as a Python int."""
    target = node.target
    if (w.ctx.converted and before == SCALAR and _is_tensor(after)
            and after.dtype == "float" and _int_literal_init(w, target.id)
            and any(lp[1] and target.id in lp[2] for lp in w.loops)):
        w.mod.report("loop-var-dtype", node, f"loop variable `{target.id}` starts as a "
                     "Python int (int32 tensor) but becomes float inside the tensor loop; "
                     "initialise it as a float (0.0)")


def loop_shape(w, loop, body, bound_before):
    mod = w.mod
    if any(mentions(s, "set_loop_options") for s in body):
        return
    for stmt in own_statements(body):
        if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 and isinstance(
                stmt.targets[0], ast.Name) and isinstance(stmt.value, ast.Call):
            name = stmt.targets[0].id
            callee = mod.resolve(stmt.value.func) or ""
            if name in bound_before and callee.startswith("tensorflow.") and \
                    callee.rsplit(".", 1)[-1] in _GRAPH_LOOP_SHAPE_OPS and stmt.value.args and \
                    mentions_name(stmt.value.args[0], {name}):
                mod.report("loop-var-grows", stmt, f"`{name}` grows on every iteration of a "
                           "loop over a tensor; declare a shape invariant with "
                           "tf.autograph.experimental.set_loop_options or use tf.TensorArray")


def _branch_structures(body) -> dict:
    out = {}
    for stmt in body:
        if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 and isinstance(
                stmt.targets[0], ast.Name):
            value = stmt.value
            if isinstance(value, (ast.Tuple, ast.List)):
                out[stmt.targets[0].id] = f"a {len(value.elts)}-tuple"
            elif isinstance(value, (ast.Name, ast.BinOp, ast.UnaryOp)) or (
                    isinstance(value, ast.Call) and isinstance(value.func, ast.Attribute)
                    and dotted_rooted(value.func).startswith(("tf.", "tensorflow."))):
                out[stmt.targets[0].id] = "a single tensor"
            else:
                out[stmt.targets[0].id] = None
    return out


def branches(w, node, bound_before, body_assigned, else_assigned):
    mod = w.mod
    if terminates(node.body) or terminates(node.orelse):
        return
    used_after = names_used_after(w.func, node)
    for name in sorted((body_assigned ^ else_assigned) - bound_before):
        if name in used_after and name not in w.local_defs and not _rebound_before_read(
                w.func, node, name):
            where = "`if`" if name in body_assigned else "`else`"
            mod.report("branch-undefined", node, f"`{name}` is set only in the {where} branch "
                       "of an `if` on a tensor but used after it; define it before the `if` "
                       "(or in both branches)")
            return
    body_shapes, else_shapes = _branch_structures(node.body), _branch_structures(node.orelse)
    for name in sorted(set(body_shapes) & set(else_shapes)):
        a, b = body_shapes[name], else_shapes[name]
        if a is not None and b is not None and a != b:
            mod.report("branch-structure", node, f"the branches of this tensor `if` give "
                       f"`{name}` different structures ({a} vs {b}); return the same "
                       "nesting from both")
            return


def _rebound_before_read(func, node, name) -> bool:
    """Is ``name`` bound anew after ``node`` before anything reads it? Then it is no output
    of the tensor ``if`` (AutoGraph carries only names that are read afterwards). Follows the
    statements after ``node``, then after each enclosing ``if``/``with``/``try``; a loop
    stops the search (the next iteration may read it)."""
    parents = {}
    for outer in ast.walk(func):
        for field in ("body", "orelse", "finalbody", "handlers"):
            block = getattr(outer, field, None)
            if isinstance(block, list):
                for i, stmt in enumerate(block):
                    parents[id(stmt)] = (outer, block, i)
    loop_bound = []  # the ``for`` loops that bind it as their target before any read
    while id(node) in parents:
        outer, block, i = parents[id(node)]
        found = _first_use(block[i + 1:], name, loop_bound)
        if found is not None:
            return found == _WRITE
        if isinstance(outer, (ast.For, ast.AsyncFor, ast.While)):
            return False
        if outer is func:
            return True  # no path after the ``if`` reads it before binding it anew
        node = outer
    return True


_READ, _WRITE = "read", "write"


def _first_use(block, name, loop_bound: list) -> str | None:
    """``_READ`` or ``_WRITE``: what happens to ``name`` first on every path through
    ``block``; None when some path leaves it untouched (the statements after decide)."""
    for stmt in block:
        if not mentions_name(stmt, {name}):
            continue
        found = _use(stmt, name, loop_bound)
        if found is not None:
            return found
    return None


def _use(stmt, name, loop_bound: list) -> str | None:
    if isinstance(stmt, (ast.For, ast.AsyncFor)) and name in _target_names(stmt.target) and \
            not mentions_name(stmt.iter, {name}) and not any(
                mentions_name(s, {name}) for s in stmt.orelse):
        # the loop binds it as its target before its body reads it; only a read after the
        # loop (which may run zero times) reads the branch's value
        loop_bound.append(stmt)
        return None
    if isinstance(stmt, ast.If) and not mentions_name(stmt.test, {name}):
        # both branches bind it first, or one reads it; a branch that leaves it alone
        # hands the question to the statements after the ``if``
        uses = {_first_use(stmt.body, name, loop_bound), _first_use(stmt.orelse, name, loop_bound)}
        return _READ if _READ in uses else _WRITE if uses == {_WRITE} else None
    if isinstance(stmt, (ast.Assign, ast.AnnAssign)) and stmt.value is not None \
            and not mentions_name(stmt.value, {name}):
        targets = stmt.targets if isinstance(stmt, ast.Assign) else [stmt.target]
        plain = all(isinstance(n, (ast.Name, ast.Tuple, ast.List, ast.Starred, ast.Store))
                    for t in targets for n in ast.walk(t))
        return _WRITE if plain else _READ
    return _READ


def _target_names(target) -> set[str]:
    return {n.id for n in ast.walk(target) if isinstance(n, ast.Name)}
