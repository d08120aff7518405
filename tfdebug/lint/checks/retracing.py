"""retracing, stale-capture (TFD200, 202, 204, 210): calls and definitions that make a
tf.function trace again, and globals it reads once."""
from __future__ import annotations

import ast

from ..._source import (assigned_names, called_not_kept, locally_bound, mentions_name,
                        own_statements)
from ..apis import _NAMED_SHAPE_CTORS, _literal_dtype
from ..._vocab import MUTATORS
from ..facts import called_in_a_loop
from ..values import SCALAR


def _names_changed_in_loops(w) -> set[str]:
    names = set()
    for loop, graph_loop, _ in w.loops:
        if graph_loop:
            continue
        for stmt in own_statements(loop.body):
            if isinstance(stmt, ast.AugAssign) and isinstance(stmt.target, ast.Name):
                names.add(stmt.target.id)
            elif isinstance(stmt, ast.Assign) and any(
                    isinstance(t, ast.Name) and mentions_name(stmt.value, {t.id})
                    for t in stmt.targets):
                names.update(t.id for t in stmt.targets if isinstance(t, ast.Name))
    return names


def _python_loop_vars(w) -> set[str]:
    names = set()
    for loop, graph_loop, _ in w.loops:
        if graph_loop or not isinstance(loop, ast.For):
            continue
        it = loop.iter
        if isinstance(it, ast.Call) and isinstance(it.func, ast.Name) and it.func.id in (
                "range", "enumerate"):
            if it.func.id == "range" and isinstance(loop.target, ast.Name):
                names.add(loop.target.id)
            elif it.func.id == "enumerate" and isinstance(loop.target, ast.Tuple) and \
                    isinstance(loop.target.elts[0], ast.Name):
                names.add(loop.target.elts[0].id)
        elif isinstance(it, (ast.List, ast.Tuple)) and it.elts and isinstance(loop.target, ast.Name) \
                and all(_literal_dtype(e) in ("int", "float") for e in it.elts):
            names.add(loop.target.id)
    return names


def host_call(w, node, target):
    """A host call of a tf.function with a Python number or a shape that changes per loop."""
    mod = w.mod
    func = node.func
    if func.id not in mod.tf_functions or func.id in mod.relaxed_names or (
            isinstance(target, (ast.FunctionDef, ast.AsyncFunctionDef))
            and target.name == func.id and id(target) in mod.no_retrace):
        return
    loop_vars = _python_loop_vars(w)
    changing = _names_changed_in_loops(w)
    for arg in list(node.args) + [kw.value for kw in node.keywords]:
        if isinstance(arg, ast.Name) and arg.id in changing and w.kind(arg) == SCALAR:
            mod.report("python-scalar-arg", node, f"`{func.id}` gets the Python number "
                       f"`{arg.id}`, which changes in the loop: every new value traces the "
                       f"function again; pass tf.constant({arg.id}) or keep it in a "
                       "tf.Variable")
            return
    if not loop_vars:
        return
    for arg in list(node.args) + [kw.value for kw in node.keywords]:
        if isinstance(arg, ast.Name) and arg.id in loop_vars:
            mod.report("python-scalar-arg", node, f"`{func.id}` gets the Python number "
                       f"`{arg.id}` from a loop: every new value traces the function again; "
                       f"pass tf.constant({arg.id})")
            return
        if isinstance(arg, ast.Call):
            sub = mod.resolve(arg.func) or ""
            if sub.startswith("tensorflow.") and sub.rsplit(".", 1)[-1] in _NAMED_SHAPE_CTORS:
                shape_args = arg.args[:2] if sub.endswith(".range") else arg.args[:1]
                if any(mentions_name(a, loop_vars) for a in shape_args):
                    mod.report("shape-changing-arg", node, f"`{func.id}` gets a tensor whose "
                               "shape changes with the loop: every new shape traces the "
                               "function again; pass an input_signature with None dimensions "
                               "or reduce_retracing=True")
                    return


_DATA_KINDS = ("tensor", "tensors", "scalar", "str", "dataset")


def _closes_over_loop_object(w, func, loop) -> bool:
    """Does ``func`` read a name the loop binds anew each iteration to an object (``layer =
    aug()``, ``for model in models``)? Then each iteration needs its own trace anyway. Data
    is not such an object (a ``range`` or ``enumerate`` counter, a batch of a dataset, a
    tensor): passing it as an argument is the fix, so the finding stays."""
    nested = isinstance(func, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda))
    objects = _loop_objects(w, loop) - (locally_bound(func) if nested else set())
    body = func.body if isinstance(func.body if nested else None, list) else [
        func.body if nested else func]  # a def's statements, a lambda's or an argument's expression
    return any(isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load) and n.id in objects
               for stmt in body for n in ast.walk(stmt))


def _loop_objects(w, loop) -> set[str]:
    """Names the loop binds anew each iteration to something that is not data: the target
    of a loop over objects, or a name assigned the result of a call in the body."""
    bound = set()
    for stmt in own_statements(loop.body):
        if isinstance(stmt, ast.Assign) and isinstance(stmt.value, ast.Call):
            bound |= assigned_names(stmt)
    iterates_data = isinstance(loop, (ast.For, ast.AsyncFor)) and \
        getattr(w.kind(loop.iter), "what", None) in _DATA_KINDS
    if isinstance(loop, (ast.For, ast.AsyncFor)) and not iterates_data:
        bound |= {n.id for n in ast.walk(loop.target) if isinstance(n, ast.Name)}
    return {name for name in bound if getattr(w.env.get(name), "what", None) not in _DATA_KINDS}


def _runs_per_call(w) -> bool | None:
    """Does the enclosing function run on every call, as far as the module proves? True when
    it is host code the module calls in a loop; None (inferred) for Keras code (a layer called
    eagerly runs it on every call) and for a function only called by name from somewhere.
    Code only a tf.function or tf.data traces runs once per trace, not per call: a tf.function
    made there is made again only when its caller traces again, a cost that retrace pays
    anyway (False), unless something calls it in a loop (None)."""
    func = w.func
    if not isinstance(func, (ast.FunctionDef, ast.AsyncFunctionDef)):
        return False
    if not w.ctx.graph and called_in_a_loop(w.mod, func):
        return True
    if w.ctx.graph and w.ctx.kind not in ("function", "helper", "data"):
        return None
    return None if func.name in w.mod.called_in_loop else False


def _python_loop(w):
    """The innermost loop, when it is a Python loop of host code (a loop in traced code runs
    at trace time, once per trace; a tensor loop is traced once)."""
    if not w.loops or w.ctx.graph or w.loops[-1][1]:
        return None
    return w.loops[-1][0]


def _called_in(loop, name: str, passed: bool = False) -> bool:
    """Does ``loop``'s body call ``name`` (or, with ``passed``, hand it to a call that runs
    it, such as ``strategy.run(fn)``; not to one that stores it, such as ``fns.append(fn)``)?"""
    for stmt in loop.body:
        for n in ast.walk(stmt):
            if not isinstance(n, ast.Call):
                continue
            if isinstance(n.func, ast.Name) and n.func.id == name:
                return True
            if passed and not (isinstance(n.func, ast.Attribute) and n.func.attr in MUTATORS) \
                    and any(isinstance(a, ast.Name) and a.id == name
                            for a in [*n.args, *(kw.value for kw in n.keywords)]):
                return True
    return False


def nested_tf_function(w, node):
    mod = w.mod
    decorated = any(mod.is_tf_function(d) for d in node.decorator_list)
    if not decorated:
        return
    if w.loops:
        if _closes_over_loop_object(w, node, w.loops[-1][0]):
            return  # a new function per object on purpose (one per layer, model, config)
        loop = _python_loop(w)
        # proven when the loop calls what it defines: each iteration traces a new function
        mod.report("tf-function-in-loop", node, "a tf.function is defined inside a loop: "
                   "each iteration makes a new function that traces again; define it once",
                   inferred=loop is None or not _called_in(loop, node.name, passed=True))
    elif called_not_kept(w.func, node.name) if isinstance(
            w.func, (ast.FunctionDef, ast.AsyncFunctionDef)) else False:
        per_call = _runs_per_call(w)
        if per_call is not False:
            mod.report("tf-function-in-loop", node, f"tf.function `{node.name}` is created "
                       "anew on every call of its enclosing function, and traced again each "
                       "time; define it once, outside", inferred=per_call is None)


def tf_function_call(w, node):
    mod = w.mod
    func = w.func
    if isinstance(node.func, ast.Call) and isinstance(func, (ast.FunctionDef, ast.AsyncFunctionDef)) \
            and not w.loops:
        per_call = _runs_per_call(w)
        if per_call is not False:
            mod.report("tf-function-in-loop", node, f"tf.function(...) is created and called "
                       f"on every call of `{func.name}`, so it traces every time; create it "
                       "once, outside", inferred=per_call is None)
        return
    if w.loops:
        # proven when it is called at once (`tf.function(f)(x)`) in a Python loop of host
        # code, on a function that does not come from the loop (one per object on purpose)
        loop = _python_loop(w)
        made = node.func if isinstance(node.func, ast.Call) else node
        if loop is not None and _called_with_loop_object(w, loop, made):
            return  # called with an object the iteration builds: it traces per object anyway
        from_loop = loop is not None and any(_closes_over_loop_object(w, arg, loop)
                                             for arg in made.args)
        called = isinstance(node.func, ast.Call) or (loop is not None and any(
            isinstance(stmt, ast.Assign) and stmt.value is node and any(
                isinstance(t, ast.Name) and _called_in(loop, t.id) for t in stmt.targets)
            for stmt in own_statements(loop.body)))
        mod.report("tf-function-in-loop", node, "tf.function(...) is called inside a loop: "
                   "each iteration makes a new function that traces again; create it once",
                   inferred=loop is None or from_loop or not called)


def _called_with_loop_object(w, loop, made) -> bool:
    """Is ``tf.function(f)`` called at once (``tf.function(f)(jd)``) with an object the
    iteration builds? A new object is a new trace type, whether the function is new or not."""
    objects = _loop_objects(w, loop)
    return any(isinstance(n, ast.Call) and n.func is made and any(
        isinstance(a, ast.Name) and a.id in objects
        for a in [*n.args, *(kw.value for kw in n.keywords)])
        for stmt in own_statements(loop.body) for n in ast.walk(stmt))


def stale_global(w, node):
    mod, ctx = w.mod, w.ctx
    if (ctx.graph and ctx.kind in ("function", "helper") and isinstance(node.ctx, ast.Load)
            and node.id in mod.loop_assigned_globals and node.id not in w.local_names
            and id(w.func) not in mod.made_in_loop  # a new function sees the new value
            and node.id not in w.env and node.id not in mod.defs
            and node.id not in mod.classes and node.id not in mod.aliases
            and not _set_before_defined(mod, node.id, w.func)):
        mod.report("stale-global", node, f"the global `{node.id}` is reassigned in a loop, but "
                   "the traced function keeps the value it saw when it was traced; pass it "
                   "as a tensor argument or keep it in a tf.Variable",
                   inferred=node.id not in reassigned_between_calls(mod))


def _set_before_defined(mod, name: str, func) -> bool:
    """Do all the module-level loops that reassign ``name`` end before ``func`` (or the def or
    class holding it) is defined? Then no trace can see an earlier value: the function does
    not exist until the loops are done (a set-up loop in an earlier notebook cell)."""
    if mod.set_up_globals is None:
        mod.set_up_globals = {}
        for loop in own_statements(mod.tree.body):
            if isinstance(loop, (ast.For, ast.While, ast.AsyncFor)):
                for stmt in own_statements(loop.body):
                    for bound in assigned_names(stmt):
                        mod.set_up_globals[bound] = max(mod.set_up_globals.get(bound, 0),
                                                        loop.end_lineno)
    outer = func
    while mod.parent_func.get(id(outer)) is not None:
        outer = mod.parent_func[id(outer)]
    cls = mod.parent_class.get(id(outer))
    outer = cls if cls is not None else outer
    first = min([outer.lineno] + [d.lineno for d in getattr(outer, "decorator_list", ())])
    return mod.set_up_globals.get(name, first) < first


def reassigned_between_calls(mod) -> set[str]:
    """Globals a module-level loop reassigns while it also calls a tf.function of the
    module: the function traced on the first pass keeps the first value (proven). A global
    reassigned in a loop that calls none may be set up before any trace (inferred)."""
    if mod.stale_proven is None:
        mod.stale_proven = set()
        for loop in own_statements(mod.tree.body):
            if not isinstance(loop, (ast.For, ast.While, ast.AsyncFor)):
                continue
            body = list(own_statements(loop.body))
            if any(isinstance(n, ast.Call) and isinstance(n.func, ast.Name)
                   and n.func.id in mod.tf_functions for s in body for n in ast.walk(s)):
                for stmt in body:
                    mod.stale_proven |= assigned_names(stmt)
    return mod.stale_proven
