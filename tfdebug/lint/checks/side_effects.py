"""trace-time-side-effect (TFD300-308, TFD311): Python effects that happen once per trace, not
once per call (print, I/O, random numbers, clocks, writes to outside state), and in-place
updates that only eager code makes (a TensorArray write whose result is dropped)."""
from __future__ import annotations

import ast

from ..._source import (all_args, call_bindings, dotted_rooted, dropped_update, locally_bound,
                        mentions, method_of, own_statements, self_attribute)
from ..._vocab import CLOCK_READS, MUTATORS, TENSOR_ARRAY_UPDATES, counts_traces
from ..facts import _closure_binding, instances_of, statement_binds
from ..values import Kind


def builtin_io(w, node, name, args_kinds):
    builtin = w.builtin(node.func)
    if builtin is None or w.eager_guard:
        return
    if builtin == "print":
        if "BUILTIN_FUNCTIONS" in w.ctx.features and w.ctx.converted and not all(
                isinstance(a, ast.Constant) for a in node.args):
            return  # AutoGraph's BUILTIN_FUNCTIONS option prints tensors when the graph runs
        w.mod.report("print", node, "`print()` in traced code runs once per trace, not "
                     "once per call; use tf.print")
    elif builtin == "open" and w.ctx.kind != "keras":
        w.mod.report("python-io", node, "`open()` in traced code reads or writes once, at "
                     "trace time; use tf.io ops (tf.io.read_file, tf.io.write_file)")
    elif builtin == "input":
        w.mod.report("python-input", node, "`input()` in traced code asks once, at trace "
                     "time; read the value outside and pass it in as a tensor")


def random_and_clocks(w, node, name, args_kinds):
    if name is None or w.eager_guard:
        return
    func = node.func
    if name.startswith("numpy.random."):
        w.mod.report("python-random", node, f"`{dotted_rooted(func)}()` in traced code runs "
                     "once per trace: the random value is frozen into the graph; use "
                     "tf.random")
    elif name.startswith("random.") and name.count(".") == 1:
        w.mod.report("python-random", node, f"`{dotted_rooted(func)}()` in traced code runs once "
                     "per trace: the value is frozen into the graph; use tf.random")
    elif name in CLOCK_READS:
        w.mod.report("python-clock", node, f"`{dotted_rooted(func)}()` in traced code is read "
                     "once, at trace time; use tf.timestamp()")


def _reads_stale_state(w, node) -> str | None:
    """``proven`` when ``node`` reads a global a module-level loop reassigns; ``inferred``
    when it reads an attribute of that name that some loop assigns (on some object, maybe
    another one); None when neither."""
    found = None
    for sub in ast.walk(node):
        if isinstance(sub, ast.Name) and sub.id in w.mod.loop_assigned_globals and \
                sub.id not in w.assigned and sub.id not in w.local_names:
            return "proven"
        if isinstance(sub, ast.Attribute) and isinstance(sub.ctx, ast.Load) and \
                sub.attr in w.mod.loop_assigned_attrs:
            # proven for `self.attr` in a method of a class whose instance the loop changes
            owners = instances_of(w.mod, w.cls.name) if (
                w.cls is not None and self_attribute(sub) is not None) else set()
            if any((owner, sub.attr) in w.mod.loop_assigned_owned for owner in owners):
                return "proven"
            found = "inferred"
    return found


def numpy_reads_stale_state(w, node, name, args_kinds):
    """NumPy on Python state a host loop changes (NumPy on tensors is numpy-in-graph's)."""
    if name is None or not name.startswith("numpy.") or name.startswith("numpy.random.") \
            or w.tensor_in_args(node, args_kinds):
        return
    stale = _reads_stale_state(w, node)
    if stale:
        w.mod.report("stale-capture", node, f"`{dotted_rooted(node.func)}()` reads Python state "
                     "that changes between calls; the value is frozen when the function is "
                     "traced: pass it as a tensor argument", inferred=stale == "inferred")


def global_write(w, stmt, name: str, augmented: bool):
    if w.ctx.graph and name in w.globals:
        verb = "written" if augmented else "assigned"
        # a counter named for traces counts them on purpose: preview only
        w.mod.report("global-write", stmt, f"`{name}` is a global {verb} inside "
                     "traced code: it changes once per trace, not once per call",
                     inferred=augmented and counts_traces(name))


def discarded_tensor_array_update(w, stmt):
    """``ta.write(i, x)`` as a statement in traced code: eagerly the array changes in place,
    in a graph the update is only in the returned array, and dropping it loses the write."""
    dropped = dropped_update(stmt, TENSOR_ARRAY_UPDATES) if w.ctx.graph and not w.eager_guard else None
    if dropped is None:
        return
    owner, call = dropped
    made = call_bindings(w.func, owner)
    if made and all(w.mod.resolve(c.func) == "tensorflow.TensorArray" for c in made):
        w.mod.report("tensor-array-dropped", stmt, f"the result of `{owner}.{call.func.attr}()` is "
                     f"dropped: in a graph a TensorArray is not changed in place; write "
                     f"`{owner} = {owner}.{call.func.attr}(...)`")


def attribute_update(w, node):
    """``obj.attr += ...`` in a tf.function (Keras layers keep state in variables)."""
    ctx, target = w.ctx, node.target
    if ctx.graph and ctx.kind in ("function", "data", "helper"):
        owner = dotted_rooted(target.value) or "object"
        w.mod.report("attribute-mutation", node, f"`{owner}.{target.attr}` is updated "
                     "inside traced code: it runs once per trace, not once per call; "
                     "keep the state in a tf.Variable", inferred=counts_traces(target.attr))


def container_mutation(w, owner, node, how):
    if mentions(node, "executing_eagerly") or w.eager_guard:
        return  # a probe recording whether this ran eagerly, or code that never traces
    if owner in w.assigned or owner in w.local_names or owner in w.env:
        return
    if owner in ("self", "cls") or owner in w.mod.aliases:
        return
    kind = w.mod.env.get(owner)
    # A local of the enclosing function is outside state only when that function is host
    # code: a helper nested in traced code fills a container its caller makes on every trace.
    # It is a container only when every binding there is a list/dict/set display or
    # constructor; a name bound to anything else (a buffer object, an optimizer) is unknown.
    closure = w.ctx.entry and _closure_binding(w.mod, w.func, owner)
    proven = closure and _closure_container(w.mod, w.func, owner)
    module_container = kind is not None and kind.what in ("list", "dict", "set") and \
        owner not in w.mod.declared_globals
    if module_container or closure:
        w.mod.report("container-mutation", node, f"{how} on `{owner}`, a Python "
                     "container from outside the traced function: it runs once per "
                     "trace, not on every call; return the values or use a tf.Variable",
                     inferred=not (module_container or proven))


def _closure_container(mod, func, name) -> bool:
    """Is ``name``, a local of the function enclosing ``func``, bound there only to new
    containers (``[]``, ``{}``, ``set()``, ``list(...)``, ``collections.deque()``)?"""
    parent = mod.parent_func.get(id(func))
    while parent is not None and name not in locally_bound(parent):
        parent = mod.parent_func.get(id(parent))
    if parent is None or name in {a.arg for a in all_args(parent.args)}:
        return False
    values = []
    for stmt in own_statements(parent.body):
        if name not in statement_binds(stmt) or isinstance(stmt, ast.AugAssign):
            continue
        targets = stmt.targets if isinstance(stmt, ast.Assign) else [getattr(stmt, "target", None)]
        if not isinstance(stmt, (ast.Assign, ast.AnnAssign)) or not any(
                isinstance(t, ast.Name) and t.id == name for t in targets):
            return False  # a loop target, an import, unpacked from something: unknown
        values.append(stmt.value)
    return bool(values) and all(new_container(mod, v) for v in values)


def new_container(mod, value) -> bool:
    """A list/dict/set display, comprehension, or a call of a container constructor."""
    if isinstance(value, (ast.List, ast.Dict, ast.Set, ast.ListComp, ast.DictComp, ast.SetComp)):
        return True
    if isinstance(value, ast.Call):
        if isinstance(value.func, ast.Name) and value.func.id in ("list", "dict", "set") and \
                value.func.id not in mod.defs and value.func.id not in mod.aliases:
            return True
        return mod.resolve(value.func) in _CONTAINER_TYPES
    return False


_CONTAINER_TYPES = {"collections.deque", "collections.defaultdict", "collections.OrderedDict",
                    "collections.Counter"}


def item_assignment(w, target, stmt):
    if w.ctx.graph and isinstance(target.value, ast.Name):
        container_mutation(w, target.value.id, stmt, "item assignment")


def _init_containers(mod, cls: ast.ClassDef | None) -> set[str]:
    """Attributes that ``cls.__init__`` sets to a new list/dict/set (``self.history = []``)
    and that no method of the class binds to anything else."""
    init = method_of(cls, "__init__") if cls is not None else None
    names, other = set(), set()
    for stmt in ast.walk(cls) if init is not None else ():
        targets = stmt.targets if isinstance(stmt, ast.Assign) else (
            [stmt.target] if isinstance(stmt, (ast.AnnAssign, ast.AugAssign)) else [])
        for target in targets:
            for sub in ast.walk(target):
                attr = self_attribute(sub)
                if attr is None:
                    continue
                if sub is target and isinstance(stmt, ast.Assign) and new_container(
                        mod, stmt.value):
                    names.add(attr)
                elif not isinstance(stmt, ast.AugAssign):
                    other.add(attr)
    return names - other


# the mutating methods of list, dict, set and deque that return None
_RETURN_NONE = MUTATORS - {"pop", "popitem", "popleft", "setdefault"}


def _result_assigned(w, node) -> bool:
    """Is the call's result assigned (``updates, state = optimizer.update(...)``)? A list,
    dict or set method that returns None would leave nothing to assign: the receiver is some
    other object with a method of that name, not a container."""
    return isinstance(w.statement, (ast.Assign, ast.AnnAssign)) and w.statement.value is node


def mutator_call(w, node, name, args_kinds):
    """``outside.append(x)``: once per trace. In a loop over a tensor, appending to a list made
    before the loop is the out-of-scope-tensor case (TFD115) instead."""
    mod, func = w.mod, node.func
    if isinstance(func, ast.Attribute) and func.attr in _RETURN_NONE and _result_assigned(
            w, node):
        return
    if isinstance(func, ast.Attribute) and func.attr in MUTATORS and isinstance(
            func.value, ast.Name):
        owner = func.value.id
        graph_loop = w.graph_loop()
        if (func.attr == "append" and graph_loop is not None and owner in graph_loop[2]
                and (w.env.get(owner) or Kind("?")).what == "list"):
            mod.report("append-in-graph-loop", node, f"`{owner}.append()` inside a loop over a "
                       "tensor: the appended tensors cannot leave the loop; use "
                       "tf.TensorArray")
        else:
            container_mutation(w, owner, node, f"`.{func.attr}()`")
    elif w.ctx.graph and isinstance(func, ast.Attribute) and func.attr in MUTATORS \
            and not w.eager_guard and self_attribute(func.value) in _init_containers(mod, w.cls):
        mod.report("container-mutation", node, f"`.{func.attr}()` on `self."
                   f"{func.value.attr}`, a Python container made in `__init__`: it runs once "
                   "per trace, not on every call; use a keras.metrics.Mean or a tf.Variable")
