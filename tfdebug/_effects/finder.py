"""Walk a traced function's source (and what it calls) and record its trace-time effects."""
from __future__ import annotations

import ast
import builtins
import dataclasses
import logging
import types
from itertools import repeat
from typing import Callable

from .. import _tf
from .._source import call_bindings, dropped_update, function_node, parameter_names
from .._vocab import (KERAS_TRACED_METHODS, MUTATORS, TENSOR_ARRAY_UPDATES, UNAMBIGUOUS_MUTATORS,
                      counts_traces)
from .branches import analyse, runs_at_call_time, traced_children
from .names import (LOG_CALLS, UNRESOLVED, Env, call_kind, log_call_writes, qualified_names,
                    resolve, static_attr)
from .objects import (callable_entry, closure_values, is_array, is_plain_container, is_tf_function,
                      is_user_function, one_walk, sublayers, unwrap_library, is_layer,
                      is_trackable, training_sensitive)

log = logging.getLogger("tfdebug")

MAX_DEPTH = 6  # calls followed from the traced function
ENTRY_METHODS = KERAS_TRACED_METHODS


@dataclasses.dataclass
class Effect:
    """One trace-time-only effect at a user line."""

    # print, input, random, clock, io, global, container, attribute, numpy-state,
    # training-flag, string-format, tensor-array, replica-mean, replica-rescaled, iterator
    kind: str
    file: str
    line: int
    function: str
    detail: str         # what it is, in the user's own code ("history.append(...)")
    still_relevant: Callable[[], bool] | None = None  # re-checked after the trace

    def key(self) -> tuple:
        return (self.kind, self.file, self.line)


# -- the walk ------------------------------------------------------------------------------

class _Finder:
    def __init__(self):
        self.effects: list[Effect] = []
        self.seen: set = set()
        self.defs: list = []         # the def (or lambda) whose body is being walked, innermost last
        self.tape_lines: dict = {}   # id(def) -> line spans of its ``with <GradientTape>`` blocks

    def add(self, kind, node, env: Env, detail, still_relevant=None):
        code = env.fn.__code__
        function = code.co_name
        self.effects.append(Effect(kind, code.co_filename, node.lineno, function, detail,
                                   still_relevant))

    # entry ---------------------------------------------------------------------------

    def function(self, fn, instance=None, top=False, depth=0, under_tape=False):
        fn = unwrap_library(fn)
        if isinstance(fn, types.MethodType):
            fn, instance = fn.__func__, fn.__self__
        if not is_user_function(fn) or depth > MAX_DEPTH:
            return
        key = (fn.__code__, id(instance), under_tape)
        if key in self.seen:
            return
        self.seen.add(key)
        node = function_node(fn.__code__)
        if node is None:
            return
        scope = _analysed(node)[0]
        params = parameter_names(node)
        self_name = params[0] if instance is not None and params else None
        env = Env(fn, self_name, instance, top, [scope], under_tape)
        in_layer_call = instance is not None and is_layer(instance) and fn.__name__ == "call"
        if instance is not None and fn.__name__ == "train_step" and is_layer(instance):
            # Keras runs a custom train_step per replica under the model's strategy
            strategy = _tf.model_strategy(instance)
            self.replica_loss(strategy, node, Env(fn, None, None, False, [scope]))
            if _replicas(strategy) > 1 and _tf.logs_averaged_across_replicas(instance):
                self.logged_global_loss(strategy, fn)
        self.body(node, env, depth, in_layer_call)

    def object(self, obj, depth, methods=ENTRY_METHODS):
        """User-defined ``methods`` of a Keras layer and of the layers inside it."""
        if depth > MAX_DEPTH:
            return
        if is_layer(obj):
            for sub in sublayers(obj):
                for name in methods:
                    method = getattr(type(sub), name, None)
                    if is_user_function(method):
                        self.function(method, sub, top=False, depth=depth + 1)

    # body ----------------------------------------------------------------------------

    def body(self, node, env: Env, depth, in_layer_call):
        # only the nodes the walk acts on (assignments, calls, ``with``, ``if``, nested
        # functions), found once per def from its source and kept on its node
        stack = list(reversed(_analysed(node)[1]))
        self.defs.append(node)
        try:
            while stack:
                child = stack.pop()
                if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
                    # nested functions (cond branches, loop bodies, helpers) run during the
                    # trace: search them with their own locals added
                    inner = Env(env.fn, env.self_name, env.instance, env.top,
                                env.scopes + [_analysed(child)[0]], env.under_tape)
                    self.body(child, inner, depth, in_layer_call)
                    continue
                self.statement(child, env, depth, in_layer_call)
                stack.extend(reversed(traced_children(child, env)))
        finally:
            self.defs.pop()

    def records_gradients(self, node, env: Env) -> bool:
        """Does ``node`` run while a GradientTape records: inside a ``with`` block of one in
        the def being walked, or in a function called from inside one?"""
        if env.under_tape:
            return True
        if not self.defs:
            return False
        owner = self.defs[-1]
        spans = self.tape_lines.get(id(owner))
        if spans is None:
            spans = self.tape_lines[id(owner)] = _tape_spans(owner, env)
        return any(first <= node.lineno <= last for first, last in spans)

    def statement(self, node, env, depth, in_layer_call):
        if isinstance(node, (ast.Assign, ast.AugAssign, ast.AnnAssign, ast.Delete)):
            targets = node.targets if isinstance(node, (ast.Assign, ast.Delete)) else [node.target]
            for target in targets:
                for leaf in _leaves(target):
                    self.store(leaf, node, env)
        elif isinstance(node, ast.Call):
            self.call(node, env, depth, in_layer_call)
        elif isinstance(node, ast.Expr):
            self.dropped_update(node, env)
        elif isinstance(node, (ast.With, ast.AsyncWith)):
            self.context_managers(node, env, depth)

    def context_managers(self, node, env: Env, depth):
        """``with timer:``: the user's ``__enter__``/``__exit__`` of an object that exists
        before the trace run while tracing (a ``with make():`` is a call, followed there)."""
        for item in node.items:
            if isinstance(item.context_expr, ast.Call):
                continue
            value = resolve(item.context_expr, env)
            if value is UNRESOLVED or isinstance(value, type):
                continue
            for name in ("__enter__", "__exit__", "__aenter__", "__aexit__"):
                method = getattr(type(value), name, None)
                if is_user_function(method):
                    self.function(method, value, depth=depth + 1)

    def function_arguments(self, node: ast.Call, env: Env, value, names, depth):
        """User functions given to a call that runs them while tracing: TensorFlow's APIs
        (``tf.nest.map_structure(fn, x)``, ``tf.map_fn``, ``tf.cond``; not
        ``tf.py_function``, which runs its function on every call), and a user function
        whose body calls the parameter it is given (``apply(fn, x)``). ``names``: the
        qualified names of the called ``value`` (``qualified_names``)."""
        if runs_at_call_time(node, env):
            return
        library = any(map(str.startswith, names, repeat("tensorflow.")))  # no Python frame
        if library and node.args and isinstance(node.func, ast.Attribute) and node.func.attr == "run":
            step = _step_function(node.args[0], env)
            if step is not None:
                self.replica_loss(resolve(node.func.value, env), *step)
        called = _called_parameters(value) if not library else None
        if not library and not called:
            return
        params = _positional_parameters(value) if called else []
        for index, arg in enumerate(node.args):
            if called and not (index < len(params) and params[index] in called):
                continue
            self.given_function(resolve(arg, env), depth)
        for keyword in node.keywords:
            if keyword.arg is not None and (library or keyword.arg in (called or ())):
                self.given_function(resolve(keyword.value, env), depth)

    def replica_loss(self, strategy, node, env: Env):
        """``strategy.run(step, ...)`` with several replicas: a loss that ``step`` (its def
        ``node``, names resolved in ``env``) averages with ``tf.reduce_mean`` over its own
        replica's batch and then differentiates. The optimizer sums the replicas' gradients,
        so the update is num_replicas times the gradient of the global mean
        (``tf.nn.compute_average_loss`` divides by the global batch)."""
        if not _replicas(strategy) > 1:
            return
        means = {}
        for stmt in ast.walk(node):
            if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 \
                    and isinstance(stmt.targets[0], ast.Name):
                found = _replica_mean(stmt.value, env)
                if found is not None:  # blamed where the mean is taken: where the fix goes
                    means[stmt.targets[0].id] = (stmt, *found)
        for call in ast.walk(node):
            if isinstance(call, ast.Call) and isinstance(call.func, ast.Attribute) \
                    and call.func.attr == "gradient" and call.args \
                    and isinstance(call.args[0], ast.Name) and call.args[0].id in means:
                stmt, mean, where = means[call.args[0].id]
                via = "" if where is env else f" (called by `{_text(stmt)}`)"
                self.add("replica-mean", mean, where, f"`{_text(mean)}` averages over one replica's "
                         f"batch ({_replicas(strategy)} replicas){via} before `{_text(call.func)}(...)`")

    def logged_global_loss(self, strategy, fn):
        """A custom ``train_step`` returns, for ``fit`` to log, a loss that
        ``tf.nn.compute_average_loss`` divided by the *global* batch: Keras averages the
        replicas' logs, so the logged loss is 1/num_replicas of the true one."""
        node = function_node(fn.__code__)
        if node is None:
            return
        env = Env(fn, None, None, False, [_analysed(node)[0]])
        scaled = _global_batch_losses(node, env)
        for stmt in _own_returns(node):
            if isinstance(stmt.value, ast.Dict) and any(
                    isinstance(v, ast.Name) and v.id in scaled for v in stmt.value.values):
                self.add("replica-rescaled", stmt, env, f"`{_text(stmt)}`: a loss already divided by "
                         f"the global batch, which Keras averages again over {_replicas(strategy)} replicas")

    def replica_reduce(self, node: ast.Call, env: Env):
        """``strategy.reduce(ReduceOp.MEAN, strategy.run(step, ...))`` where ``step`` returns
        a loss ``tf.nn.compute_average_loss`` divided by the global batch: each replica's
        value is already its share of the global mean, so their mean is 1/num_replicas of
        it (``ReduceOp.SUM`` adds the shares up)."""
        strategy = resolve(node.func.value, env)
        if _replicas(strategy) < 2 or not _is_mean(resolve(node.args[0], env)):
            return
        given = node.args[1]
        runs = [given] if isinstance(given, ast.Call) else call_bindings(
            function_node(env.fn.__code__), given.id) if isinstance(given, ast.Name) else []
        if not runs or not all(isinstance(r.func, ast.Attribute) and r.func.attr == "run" and r.args
                               and resolve(r.func.value, env) is strategy for r in runs):
            return
        for run in runs:
            step = resolve(run.args[0], env)
            inner = function_node(step.__code__) if isinstance(step, types.FunctionType) \
                and is_user_function(step) else None
            if inner is None:
                return
            step_env = Env(step, None, None, False, [_analysed(inner)[0]])
            scaled = _global_batch_losses(inner, step_env)
            if not any((isinstance(r.value, ast.Name) and r.value.id in scaled)
                       or _average_loss_call(r.value, step_env) for r in _own_returns(inner)):
                return
        self.add("replica-rescaled", node, env, f"`{_text(node)}` averages losses already divided by "
                 f"the global batch over {_replicas(strategy)} replicas")

    def given_function(self, value, depth):
        if value is UNRESOLVED or is_tf_function(value):
            return
        if isinstance(value, types.MethodType):
            self.function(value.__func__, value.__self__, depth=depth + 1)
        elif isinstance(value, types.FunctionType):
            self.function(value, None, depth=depth + 1)

    def dropped_update(self, stmt, env: Env):
        """``ta.write(i, x)`` with its result dropped, ``ta`` made by ``tf.TensorArray(...)``."""
        dropped = dropped_update(stmt, TENSOR_ARRAY_UPDATES)
        function = function_node(env.fn.__code__) if dropped else None
        made = call_bindings(function, dropped[0]) if function is not None else []
        if made and all(_is_tensor_array(qualified_names(c.func, env, resolve(c.func, env)))
                        for c in made):
            self.add("tensor-array", stmt, env, f"`{_text(dropped[1])}` drops the updated array")

    def store(self, target, stmt, env: Env):
        if isinstance(stmt, ast.AugAssign) and isinstance(target, (ast.Name, ast.Attribute)) \
                and counts_traces(target.id if isinstance(target, ast.Name) else target.attr):
            return  # a trace counter: counting traces is what it is for
        if isinstance(target, ast.Name):
            name = target.id
            scope = env.scopes[-1]
            if name in scope.declared_global:
                globs = env.fn.__globals__
                self.add("global", stmt, env, f"assignment to global `{name}`",
                         lambda: not is_trackable(globs.get(name)))
            elif name in scope.declared_nonlocal and not any(
                    name in s.local for s in env.scopes[:-1]):
                self.add("global", stmt, env, f"assignment to nonlocal `{name}`",
                         _closure_check(env.fn, name))
            return
        root = env.captured_root(target)
        if root is None:
            return
        text = _text(target)
        if isinstance(target, ast.Attribute):
            owner = resolve(target.value, env)
            if owner is not UNRESOLVED and isinstance(owner, types.ModuleType):
                what = f"module `{owner.__name__}`"
            else:
                what = f"captured {type(owner).__name__} object" if owner is not UNRESOLVED \
                    else "captured object"
            check = None
            if owner is not UNRESOLVED:
                attr = target.attr
                check = lambda: not is_trackable(static_attr(owner, attr))  # noqa: E731
            self.add("attribute", stmt, env, f"`{text}` set on a {what}", check)
        elif isinstance(target, ast.Subscript):
            owner = resolve(target.value, env)
            if owner is not UNRESOLVED and not is_plain_container(owner, array_ok=True):
                return
            kind = type(owner).__name__ if owner is not UNRESOLVED else "container"
            self.add("container", stmt, env, f"`{text}` changes a captured {kind}")

    def call(self, node: ast.Call, env: Env, depth, in_layer_call):
        func = node.func
        value = resolve(func, env)
        names = qualified_names(func, env, value)
        kind = call_kind(names)
        if kind == "io" and names.intersection(LOG_CALLS) and not log_call_writes(node, env, names):
            return  # a record the logger filters out (or one not known to be written)
        if kind is not None:
            shown = _text(func)
            self.add(kind, node, env, f"`{shown}(...)`")
            return
        if isinstance(func, ast.Name) and func.id == "next" and value is builtins.next and node.args \
                and env.captured_root(node.args[0]) is not None \
                and _python_iterator(resolve(node.args[0], env)):
            self.add("iterator", node, env, f"`{_text(node)}` advances a captured Python iterator")
            return
        if isinstance(func, ast.Name) and func.id == "setattr" and value is builtins.setattr \
                and node.args and env.captured_root(node.args[0]):
            self.add("attribute", node, env, f"`{_text(node)}` on a captured object")
            return
        if isinstance(func, ast.Attribute) and func.attr in MUTATORS:
            root = env.captured_root(func.value)
            if root is not None:
                owner = resolve(func.value, env)
                if (owner is UNRESOLVED and func.attr in UNAMBIGUOUS_MUTATORS) or \
                        (owner is not UNRESOLVED and is_plain_container(owner)):
                    kind = type(owner).__name__ if owner is not UNRESOLVED else "container"
                    self.add("container", node, env,
                             f"`{_text(func)}(...)` changes a captured {kind}")
                    return
        if any(map(str.startswith, names, repeat("numpy."))) and \
                any(n.startswith("numpy.") and not n.startswith("numpy.random") for n in names):
            for arg in list(node.args) + [k.value for k in node.keywords]:
                if env.captured_root(arg) is not None and is_array(resolve(arg, env)):
                    self.add("numpy-state", node, env,
                             f"`{_text(node)}` on NumPy state `{_text(arg)}`")
                    return
        if value is UNRESOLVED:
            return
        if isinstance(func, ast.Attribute) and func.attr == "reduce" and len(node.args) >= 2:
            self.replica_reduce(node, env)
        self.function_arguments(node, env, value, names, depth)
        if is_layer(value):
            # a model called without ``training=`` runs in inference mode: a bug only where
            # gradients are recorded (a training step); an evaluation step is right as it is
            if not in_layer_call and not _passes_training(node) and self.records_gradients(node, env):
                sensitive = training_sensitive(value)
                if sensitive:
                    self.add("training-flag", node, env,
                             f"`{_text(func)}(...)` without `training=` ({sensitive})")
            self.object(value, depth + 1, ("call",))
            return
        if is_tf_function(value):
            return  # traced on its own: the trace hook sees it
        if isinstance(value, types.MethodType):
            target, bound = value.__func__, value.__self__
        elif isinstance(value, types.FunctionType):
            owner = resolve(func.value, env) if isinstance(func, ast.Attribute) else None
            target, bound = value, owner if owner is not UNRESOLVED and owner is not None and \
                not isinstance(owner, (type, types.ModuleType)) else None
        elif isinstance(value, (staticmethod, classmethod)):
            target, bound = value.__func__, None
        elif not isinstance(value, type):
            target, bound = getattr(type(value), "__call__", None), value
        else:
            return
        # the tape question only for a callee the walk enters (most calls are TensorFlow's)
        inner = unwrap_library(target)
        if is_user_function(getattr(inner, "__func__", inner)):
            self.function(target, bound, depth=depth + 1,
                          under_tape=self.records_gradients(node, env))


def _python_iterator(value) -> bool:
    """A Python iterator or generator (not TensorFlow's or Keras' own, whose ``next`` AutoGraph
    turns into a graph op)."""
    if value is UNRESOLVED:
        return False
    kind = type(value)
    module = (getattr(kind, "__module__", "") or "").split(".")[0]
    return callable(getattr(kind, "__next__", None)) and module not in ("tensorflow", "keras", "tf_keras")


def _step_function(expr, env: Env):
    """``(def node, env)`` of the function ``expr`` names: a user function that exists, or a
    def nested in the function being walked (``strategy.run(step_fn)`` with ``step_fn``
    defined in the traced body) when it is the name's only binding there; else None."""
    value = resolve(expr, env)
    if isinstance(value, types.FunctionType):
        node = function_node(value.__code__) if is_user_function(value) else None
        return (node, Env(value, None, None, False, [_analysed(node)[0]])) if node is not None else None
    if value is not UNRESOLVED or not isinstance(expr, ast.Name) or not env.is_local(expr.id):
        return None
    outer = function_node(env.fn.__code__)
    if outer is None:
        return None
    defs = [n for n in ast.walk(outer) if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))
            and n.name == expr.id and n is not outer]
    stores = [n for n in ast.walk(outer) if isinstance(n, ast.Name) and n.id == expr.id
              and isinstance(n.ctx, (ast.Store, ast.Del))]
    if len(defs) != 1 or stores:
        return None
    return defs[0], Env(env.fn, None, None, False, env.scopes + [_analysed(defs[0])[0]])


def _analysed(node) -> tuple:
    """``(scope, body nodes the walk acts on)`` of a def or lambda (``branches.analyse``),
    from its source alone: worked out once per node and kept on it (a new tree, for an
    edited file or a redefined function, has new nodes)."""
    found = node.__dict__.get("_tfdebug_analysis")
    if found is None:
        found = node._tfdebug_analysis = analyse(node)
    return found


def _tape_spans(owner, env: Env) -> list[tuple[int, int]]:
    """``(first, last)`` lines of each ``with`` block in ``owner``'s own body (not in its
    nested defs) that enters a GradientTape: ``with tf.GradientTape() as tape:``, a tape
    made earlier in the def (``tape = tf.GradientTape(); with tape:``) or one held in an
    attribute or a global."""
    made = {}  # local name -> the call that made it
    blocks = []
    stack = list(owner.body) if isinstance(owner.body, list) else [owner.body]
    while stack:
        node = stack.pop()
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)):
            continue
        if isinstance(node, ast.Assign) and isinstance(node.value, ast.Call):
            for target in node.targets:
                if isinstance(target, ast.Name):
                    made[target.id] = node.value
        elif isinstance(node, (ast.With, ast.AsyncWith)):
            blocks.append(node)
        stack.extend(ast.iter_child_nodes(node))
    return [(block.lineno, block.end_lineno or block.lineno) for block in blocks
            if any(_is_tape(item.context_expr, env, made) for item in block.items)]


def _is_tape(expr, env: Env, made: dict) -> bool:
    if isinstance(expr, ast.Name) and expr.id in made and env.is_local(expr.id):
        expr = made[expr.id]
    if isinstance(expr, ast.Call):
        value = resolve(expr.func, env)
        return isinstance(value, type) and _is_tape_class(value)
    value = resolve(expr, env)
    return value is not UNRESOLVED and _is_tape_class(type(value))


def _is_tape_class(cls: type) -> bool:
    return any(k.__name__ == "GradientTape" and (k.__module__ or "").startswith("tensorflow.")
               for k in cls.__mro__)


def _replica_mean(value, env: Env, depth: int = 0):
    """``(node, env)`` of the ``tf.reduce_mean(...)`` that makes ``value`` a mean over the
    batch it is given, directly or inside a user function (two levels at most) every
    ``return`` of which is such a mean; None when it is not one. (Keras 3's ``Loss`` objects
    divide by the replica count themselves under a strategy: not a claim.)"""
    if not isinstance(value, ast.Call):
        return None
    called = resolve(value.func, env)
    if any(n.startswith("tensorflow.") and n.endswith(".reduce_mean")
           for n in qualified_names(value.func, env, called)):
        return value, env
    if called is UNRESOLVED:
        return None
    if depth >= 2 or not isinstance(called, types.FunctionType) or not is_user_function(called):
        return None
    node = function_node(called.__code__)
    if node is None:
        return None
    inner = Env(called, None, None, False, [_analysed(node)[0]])
    found = [_replica_mean(r.value, inner, depth + 1) for r in _own_returns(node)]
    return found[0] if found and all(found) else None


def _global_batch_losses(node, env: Env) -> set[str]:
    """Names the function assigns from ``tf.nn.compute_average_loss(...)``: a replica's
    per-example losses summed and divided by the global batch size."""
    return {stmt.targets[0].id for stmt in ast.walk(node)
            if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1
            and isinstance(stmt.targets[0], ast.Name) and _average_loss_call(stmt.value, env)}


def _average_loss_call(value, env: Env) -> bool:
    """``value`` is a call of ``tf.nn.compute_average_loss``."""
    return isinstance(value, ast.Call) and any(
        n.startswith("tensorflow.") and n.endswith("nn.compute_average_loss")
        for n in qualified_names(value.func, env, resolve(value.func, env)))


def _own_returns(node) -> list[ast.Return]:
    """The ``return`` statements of this def itself, not of functions nested in it."""
    out, stack = [], list(ast.iter_child_nodes(node))
    while stack:
        child = stack.pop()
        if isinstance(child, ast.Return) and child.value is not None:
            out.append(child)
        elif not isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)):
            stack.extend(ast.iter_child_nodes(child))
    return out


def _is_mean(op) -> bool:
    """``tf.distribute.ReduceOp.MEAN`` or the string TensorFlow accepts for it."""
    if isinstance(op, str):
        return op.upper() == "MEAN"
    module = type(op).__module__ or ""
    return module.startswith("tensorflow.python.distribute") and getattr(op, "name", None) == "MEAN"


def _replicas(strategy) -> int:
    """``strategy.num_replicas_in_sync`` of a ``tf.distribute.Strategy``, else 0."""
    module = type(strategy).__module__ or ""
    if not module.startswith("tensorflow.python.distribute"):
        return 0
    try:
        return int(strategy.num_replicas_in_sync)
    except Exception:  # noqa: BLE001 - a strategy that cannot say: no claim
        return 0


def _positional_parameters(fn) -> list[str]:
    code = getattr(fn, "__code__", None)
    if code is None:
        return []
    names = list(code.co_varnames[:code.co_argcount])
    return names[1:] if isinstance(fn, types.MethodType) else names


def _called_parameters(fn) -> set[str]:
    """The parameters of the user function ``fn`` its own body calls (``fn(x)``)."""
    fn = getattr(fn, "__func__", fn)
    if not isinstance(fn, types.FunctionType) or not is_user_function(fn):
        return set()
    node = function_node(fn.__code__)
    if node is None:
        return set()
    params = set(parameter_names(node))
    return {n.func.id for n in ast.walk(node) if isinstance(n, ast.Call)
            and isinstance(n.func, ast.Name) and n.func.id in params}


def _is_tensor_array(names) -> bool:
    return any(n.startswith("tensorflow.") and n.endswith(".TensorArray") for n in names)


def _leaves(target):
    if isinstance(target, (ast.Tuple, ast.List)):
        for elt in target.elts:
            yield from _leaves(elt)
    elif isinstance(target, ast.Starred):
        yield from _leaves(target.value)
    else:
        yield target


def _closure_check(fn, name):
    def check():
        code, closure = fn.__code__, fn.__closure__ or ()
        if name in code.co_freevars:
            try:
                return not is_trackable(closure[code.co_freevars.index(name)].cell_contents)
            except (ValueError, IndexError):
                return True
        return True
    return check


def _passes_training(node: ast.Call) -> bool:
    if len(node.args) >= 2:
        return True
    return any(k.arg in ("training", None) for k in node.keywords)


def _text(node) -> str:
    try:
        text = ast.unparse(node)
    except Exception:  # noqa: BLE001
        return "..."
    return text if len(text) <= 80 else text[:77] + "..."


def find(fn, instance=None, ran=()) -> list[Effect]:
    """The trace-time effects in ``fn`` (the traced function) and what it calls.

    ``fn`` may be library code (Keras' train function, a tf.data wrapper): then the user
    code reachable from its closure (a Keras model's ``call``/``train_step``) is searched.
    ``ran``: ``(function, instance)`` pairs of user code seen running during the trace
    (``running.Recorder``), searched too, with the same rules as a call in the source.
    """
    with one_walk():
        finder = _walk(fn, instance)
        for function, owner in ran:
            try:
                finder.function(function, owner, depth=1)
            except Exception:  # noqa: BLE001 - a tfdebug bug must not break the user's trace
                log.debug("tfdebug: side-effect analysis of %r failed", function, exc_info=True)
    return finder.effects


def reached(fn, instance=None) -> list[types.CodeType]:
    """The code of every user function ``find`` reads for ``fn``: itself (or the user code
    a library function runs) and what it calls, whether or not its source is readable."""
    return list(dict.fromkeys(code for code, *_ in _walk(fn, instance).seen))


def _walk(fn, instance) -> _Finder:
    finder = _Finder()
    try:
        if is_user_function(unwrap_library(fn)):
            finder.function(fn, instance, top=True)
        else:
            for value in closure_values(fn) + ([instance] if instance is not None else []):
                if is_layer(value):
                    finder.object(value, 0)
                elif is_user_function(value):
                    finder.function(value, None, top=True)
    except Exception:  # noqa: BLE001 - a tfdebug bug must not break the user's trace
        log.debug("tfdebug: side-effect analysis of %r failed", fn, exc_info=True)
    return finder


def _compiled_losses(model) -> list[tuple]:
    """``(function, instance)`` pairs of the user's losses a Keras model was compiled with
    (``model.loss``: a function, a loss object, or a list or dict of them), which its train
    function calls while it is traced: a user function as itself; an object (a ``Loss``
    subclass, any callable) by the ``call``/``__call__`` its class defines in user code,
    bound to it (its attributes are state the trace reads)."""
    loss = vars(model).get("loss") if hasattr(model, "__dict__") else None
    losses = loss.values() if isinstance(loss, dict) else loss if isinstance(loss, (list, tuple)) else [loss]
    pairs = []
    for item in losses:
        if isinstance(item, types.FunctionType):
            if is_user_function(item):
                pairs.append((item, None))
        elif item is not None and not isinstance(item, (str, type)):
            pairs += [(method, item) for method in
                      (getattr(type(item), name, None) for name in _LOSS_METHODS)
                      if is_user_function(method)]
    return pairs


_LOSS_METHODS = ("call", "__call__")  # what Keras' loss wrapper runs of a loss object


def _compiled_rate(model) -> list[tuple]:
    """The ``(function, instance)`` of a plain callable learning rate of the optimizer a
    Keras model was compiled with: its train step applies the gradients, which calls it."""
    from .. import _tf

    entry = callable_entry(_tf.rate_callable(vars(model).get("optimizer"))) \
        if hasattr(model, "__dict__") else None
    return [entry] if entry is not None and is_user_function(entry[0]) else []


def user_entry_points(fn, instance=None) -> list[tuple]:
    """``(function, instance)`` pairs of the user's code that a library-made traced function
    (Keras' train function, a tf.data wrapper) runs: the user-defined ``call``/``train_step``/...
    of the Keras layers it captures (bound to each layer) and the user functions it captures.
    """
    pairs = []
    try:
        for value in closure_values(fn) + ([instance] if instance is not None else []):
            if is_layer(value):
                for sub in sublayers(value):
                    for name in ENTRY_METHODS:
                        method = getattr(type(sub), name, None)
                        if is_user_function(method):
                            pairs.append((method, sub))
                pairs += _compiled_losses(value) + _compiled_rate(value)
            elif is_user_function(value):
                pairs.append((value, None))
    except Exception:  # noqa: BLE001 - nothing found is the safe answer
        log.debug("tfdebug: looking for user code in %r failed", fn, exc_info=True)
    return pairs
