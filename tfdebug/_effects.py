"""Find the Python side effects in the source of a function that is being traced.

Static analysis of the user's own source (``ast``, real line numbers), made precise with
facts only the live trace has: which names are globals or closure cells, which objects
those names hold (a captured list vs. one created inside the function), which object a
method is bound to. Calls to user functions, methods and Keras layers are followed, so a
``print`` in a helper or in ``Model.call`` is found where it is written.

``find(fn, instance)`` returns :class:`Effect` records; ``side_effects`` decides what to
report. Nothing here raises: an unreadable source yields no effects.
"""
from __future__ import annotations

import ast
import builtins
import collections
import dataclasses
import inspect
import logging
import sys
import types
from typing import Any, Callable

from . import _frames
from ._source import dotted_parts, function_node, own_nodes, parameter_names
from ._vocab import (CLOCK_OTHERS, CLOCK_READS, KERAS_TRACED_METHODS, MUTATORS, TRAINING_LAYERS,
                     UNAMBIGUOUS_MUTATORS)

log = logging.getLogger("tfdebug")

MAX_DEPTH = 6  # calls followed from the traced function
CONTAINERS = (list, dict, set, bytearray, collections.deque)

# Qualified names of calls whose effect (or result) belongs to the moment of tracing.
# A name matches when it equals an entry or starts with an entry that ends in ".".
CALLS = {
    "print": ("builtins.print",),
    "input": ("builtins.input",),
    "random": ("random.", "numpy.random.", "secrets.", "uuid.uuid1", "uuid.uuid3",
               "uuid.uuid4", "uuid.uuid5", "os.urandom", "os.getrandom"),
    "clock": CLOCK_READS + CLOCK_OTHERS,
    "io": ("builtins.open", "io.open", "os.remove", "os.unlink", "os.rename", "os.replace",
           "os.makedirs", "os.mkdir", "os.rmdir", "os.listdir", "os.scandir", "os.walk",
           "os.stat", "os.system", "os.popen", "os.write", "os.read", "os.path.exists",
           "os.path.isfile", "os.path.isdir", "os.path.getsize", "os.path.getmtime",
           "shutil.", "pathlib.Path.write_text", "pathlib.Path.write_bytes",
           "pathlib.Path.read_text", "pathlib.Path.read_bytes", "pathlib.Path.open",
           "pathlib.Path.mkdir", "pathlib.Path.unlink", "pathlib.Path.touch",
           "pathlib.Path.exists", "pathlib.Path.iterdir", "pathlib.Path.glob",
           "json.dump", "json.load", "pickle.dump", "pickle.load", "numpy.save",
           "numpy.savez", "numpy.savez_compressed", "numpy.load", "numpy.savetxt",
           "numpy.loadtxt", "numpy.genfromtxt", "numpy.fromfile", "csv.reader", "csv.writer",
           "socket.", "urllib.request.", "http.client.", "requests.", "subprocess.",
           "tensorflow.io.gfile.", "tensorflow.python.lib.io.file_io.",
           "tensorflow.python.platform.gfile."),
}
ENTRY_METHODS = KERAS_TRACED_METHODS


@dataclasses.dataclass
class Effect:
    """One trace-time-only effect at a user line."""

    # print, input, random, clock, io, global, container, attribute, numpy-state,
    # training-flag, string-format
    kind: str
    file: str
    line: int
    function: str
    detail: str         # what it is, in the user's own code ("history.append(...)")
    still_relevant: Callable[[], bool] | None = None  # re-checked after the trace

    def key(self) -> tuple:
        return (self.kind, self.file, self.line)


# -- scopes --------------------------------------------------------------------------------

@dataclasses.dataclass
class _Scope:
    params: set
    local: set           # assigned here (and not declared global/nonlocal)
    declared_global: set
    declared_nonlocal: set


def _scope(node) -> _Scope:
    params = set(parameter_names(node))
    stored, glob, nonloc = set(), set(), set()
    for child in own_nodes(node):
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
    return _Scope(params, (stored | params) - glob - nonloc, glob, nonloc)


# -- resolving names to live objects -----------------------------------------------------

_UNRESOLVED = object()


@dataclasses.dataclass
class _Env:
    """Where a function's free names live, and what its parameters are known to be."""

    fn: Any                      # the Python function (for globals / closure)
    self_name: str | None        # the first parameter, when bound
    instance: Any                # the object it is bound to
    top: bool                    # the traced function itself (its params are captured)
    scopes: list                 # enclosing scopes inside the traced function, innermost last

    def is_local(self, name: str) -> bool:
        return any(name in s.local for s in self.scopes) and not self.is_bound(name)

    def is_bound(self, name: str) -> bool:
        return self.self_name is not None and name == self.self_name \
            and name in self.scopes[0].params

    def is_top_param(self, name: str) -> bool:
        return self.top and name in self.scopes[0].params and not any(
            name in s.local for s in self.scopes[1:])

    def lookup(self, name: str):
        if self.is_bound(name):
            return self.instance
        if self.is_local(name):
            return _UNRESOLVED
        code = getattr(self.fn, "__code__", None)
        closure = getattr(self.fn, "__closure__", None) or ()
        if code is not None and name in code.co_freevars and closure:
            try:
                return closure[code.co_freevars.index(name)].cell_contents
            except (ValueError, IndexError):
                return _UNRESOLVED
        module_globals = getattr(self.fn, "__globals__", {})
        if name in module_globals:
            return module_globals[name]
        return getattr(builtins, name, _UNRESOLVED)

    def captured_root(self, expr) -> str | None:
        """The root name of ``a.b[c].d`` when it names state that outlives the trace."""
        while isinstance(expr, (ast.Attribute, ast.Subscript)):
            expr = expr.value
        if not isinstance(expr, ast.Name):
            return None
        name = expr.id
        if self.is_bound(name) or self.is_top_param(name):
            return name
        if self.is_local(name):
            return None
        return name if self.lookup(name) is not _UNRESOLVED else None


def _static_attr(obj, name: str):
    if isinstance(obj, types.ModuleType):
        return getattr(obj, name, _UNRESOLVED)
    try:
        value = inspect.getattr_static(obj, name)
    except AttributeError:
        return _UNRESOLVED
    if isinstance(value, (staticmethod, classmethod)):
        return getattr(obj, name, _UNRESOLVED)
    return value


def resolve(expr, env: _Env):
    """The live object ``expr`` names (a name or an attribute chain), or _UNRESOLVED.

    Attributes are read statically (no property or ``__getattr__`` runs).
    """
    if isinstance(expr, ast.Name):
        if env.is_top_param(expr.id) and not env.is_bound(expr.id):
            return _UNRESOLVED
        return env.lookup(expr.id)
    if isinstance(expr, ast.Attribute):
        owner = resolve(expr.value, env)
        if owner is _UNRESOLVED:
            return _UNRESOLVED
        return _static_attr(owner, expr.attr)
    return _UNRESOLVED


def qualified_names(expr, env: _Env, value) -> set[str]:
    """Names a call target is known by: its access path from a module, its definition."""
    names = set()
    parts = dotted_parts(expr)
    if parts:
        root = env.lookup(parts[0]) if not env.is_local(parts[0]) else _UNRESOLVED
        if isinstance(root, types.ModuleType):
            names.add(".".join([root.__name__] + parts[1:]))
    if value is _UNRESOLVED:
        return names
    if isinstance(value, types.ModuleType):
        names.add(value.__name__)
        return names
    owner = getattr(value, "__self__", None)
    if owner is not None and not isinstance(owner, types.ModuleType):
        cls = owner if isinstance(owner, type) else type(owner)
        names.add(f"{cls.__module__}.{cls.__qualname__}.{getattr(value, '__name__', '')}")
    objclass = getattr(value, "__objclass__", None)
    if isinstance(objclass, type):
        names.add(f"{objclass.__module__}.{objclass.__qualname__}.{getattr(value, '__name__', '')}")
    module = getattr(value, "__module__", None)
    qualname = getattr(value, "__qualname__", None) or getattr(value, "__name__", None)
    if isinstance(module, str) and isinstance(qualname, str):
        names.add(f"{module}.{qualname}")
    elif isinstance(qualname, str) and getattr(builtins, qualname, None) is value:
        names.add(f"builtins.{qualname}")
    return names


def call_kind(names: set[str]) -> str | None:
    for kind, patterns in CALLS.items():
        for name in names:
            for pattern in patterns:
                if name == pattern or (pattern.endswith(".") and name.startswith(pattern)):
                    if kind == "random" and name.startswith("numpy.random.") and \
                            name.split(".")[-1] in ("RandomState", "Generator", "SeedSequence"):
                        continue
                    return kind
    return None


# -- trackable values: building state at trace time is fine ---------------------------------

def is_trackable(value) -> bool:
    """Variables, modules, layers, optimizers, tf.functions: Keras/TF building, not a leak."""
    import tensorflow as tf

    if isinstance(value, (tf.Variable, tf.Module)):
        return True
    if hasattr(value, "python_function") and hasattr(value, "get_concrete_function"):
        return True
    keras = sys.modules.get("keras")
    if keras is not None:
        kinds = tuple(t for t in (getattr(keras, "Layer", None), getattr(keras, "Variable", None),
                                  getattr(getattr(keras, "optimizers", None), "Optimizer", None),
                                  getattr(getattr(keras, "metrics", None), "Metric", None))
                      if isinstance(t, type))
        if kinds and isinstance(value, kinds):
            return True
    if isinstance(value, (list, tuple)) and value:
        return all(is_trackable(v) for v in value)
    return False


def is_layer(value) -> bool:
    keras = sys.modules.get("keras")
    layer = getattr(keras, "Layer", None) if keras is not None else None
    return isinstance(layer, type) and isinstance(value, layer)


def _sublayers(layer) -> list:
    flatten = getattr(layer, "_flatten_layers", None)
    if callable(flatten):
        try:
            return list(flatten(include_self=True, recursive=True))
        except Exception:  # noqa: BLE001
            pass
    return [layer] + list(getattr(layer, "layers", []) or [])


def training_sensitive(layer) -> str | None:
    """The name of a sublayer whose behaviour depends on ``training``, or None."""
    keras = sys.modules.get("keras")
    kinds = tuple(t for t in (getattr(getattr(keras, "layers", None), n, None)
                              for n in TRAINING_LAYERS) if isinstance(t, type))
    for sub in _sublayers(layer):
        if kinds and isinstance(sub, kinds):
            return f"{type(sub).__name__} {getattr(sub, 'name', '')!r}".strip()
        call = getattr(type(sub), "call", None)
        if sub is not layer and _is_user_function(call):
            try:
                if "training" in inspect.signature(call).parameters:
                    return f"{type(sub).__name__} {getattr(sub, 'name', '')!r}"
            except (TypeError, ValueError):
                pass
    return None


def _is_user_function(fn) -> bool:
    code = getattr(fn, "__code__", None)
    return isinstance(fn, types.FunctionType) and code is not None and \
        _frames.is_user_file(code.co_filename)


def _unwrap_library(fn):
    """``fn`` without the library decorators around it; a user's own wrapper is kept, since
    its body (timing, logging, counting) runs while tracing too."""
    seen = set()
    while callable(fn) and not _is_user_function(fn) and hasattr(fn, "__wrapped__") \
            and id(fn) not in seen:
        seen.add(id(fn))
        fn = fn.__wrapped__
    return fn


def _is_tf_function(value) -> bool:
    return hasattr(value, "python_function") and hasattr(value, "get_concrete_function")


# -- the walk ------------------------------------------------------------------------------

class _Finder:
    def __init__(self):
        self.effects: list[Effect] = []
        self.seen: set = set()

    def add(self, kind, node, env: _Env, detail, still_relevant=None):
        code = env.fn.__code__
        function = code.co_name
        self.effects.append(Effect(kind, code.co_filename, node.lineno, function, detail,
                                   still_relevant))

    # entry ---------------------------------------------------------------------------

    def function(self, fn, instance=None, top=False, depth=0):
        fn = _unwrap_library(fn)
        if isinstance(fn, types.MethodType):
            fn, instance = fn.__func__, fn.__self__
        if not _is_user_function(fn) or depth > MAX_DEPTH:
            return
        key = (fn.__code__, id(instance))
        if key in self.seen:
            return
        self.seen.add(key)
        node = function_node(fn.__code__)
        if node is None:
            return
        scope = _scope(node)
        params = parameter_names(node)
        self_name = params[0] if instance is not None and params else None
        env = _Env(fn, self_name, instance, top, [scope])
        in_layer_call = instance is not None and is_layer(instance) and fn.__name__ == "call"
        self.body(node, env, depth, in_layer_call)

    def object(self, obj, depth, methods=ENTRY_METHODS):
        """User-defined ``methods`` of a Keras layer and of the layers inside it."""
        if depth > MAX_DEPTH:
            return
        if is_layer(obj):
            for sub in _sublayers(obj):
                for name in methods:
                    method = getattr(type(sub), name, None)
                    if _is_user_function(method):
                        self.function(method, sub, top=False, depth=depth + 1)

    # body ----------------------------------------------------------------------------

    def body(self, node, env: _Env, depth, in_layer_call):
        body = node.body if isinstance(node.body, list) else [node.body]
        stack = list(reversed(body))
        while stack:
            child = stack.pop()
            if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
                # nested functions (cond branches, loop bodies, helpers) run during the
                # trace: search them with their own locals added
                inner = _Env(env.fn, env.self_name, env.instance, env.top,
                             env.scopes + [_scope(child)])
                self.body(child, inner, depth, in_layer_call)
                continue
            if isinstance(child, ast.ClassDef):
                continue
            self.statement(child, env, depth, in_layer_call)
            stack.extend(reversed(_traced_children(child, env)))

    def statement(self, node, env, depth, in_layer_call):
        if isinstance(node, (ast.Assign, ast.AugAssign, ast.AnnAssign, ast.Delete)):
            targets = node.targets if isinstance(node, (ast.Assign, ast.Delete)) else [node.target]
            for target in targets:
                for leaf in _leaves(target):
                    self.store(leaf, node, env)
        elif isinstance(node, ast.Call):
            self.call(node, env, depth, in_layer_call)

    def store(self, target, stmt, env: _Env):
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
            if owner is not _UNRESOLVED and isinstance(owner, types.ModuleType):
                what = f"module `{owner.__name__}`"
            else:
                what = f"captured {type(owner).__name__} object" if owner is not _UNRESOLVED \
                    else "captured object"
            check = None
            if owner is not _UNRESOLVED:
                attr = target.attr
                check = lambda: not is_trackable(_static_attr(owner, attr))  # noqa: E731
            self.add("attribute", stmt, env, f"`{text}` set on a {what}", check)
        elif isinstance(target, ast.Subscript):
            owner = resolve(target.value, env)
            if owner is not _UNRESOLVED and not _is_plain_container(owner, array_ok=True):
                return
            kind = type(owner).__name__ if owner is not _UNRESOLVED else "container"
            self.add("container", stmt, env, f"`{text}` changes a captured {kind}")

    def call(self, node: ast.Call, env: _Env, depth, in_layer_call):
        func = node.func
        value = resolve(func, env)
        names = qualified_names(func, env, value)
        kind = call_kind(names)
        if kind is not None:
            shown = _text(func)
            self.add(kind, node, env, f"`{shown}(...)`")
            return
        if isinstance(func, ast.Name) and func.id == "setattr" and value is builtins.setattr \
                and node.args and env.captured_root(node.args[0]):
            self.add("attribute", node, env, f"`{_text(node)}` on a captured object")
            return
        if isinstance(func, ast.Attribute) and func.attr in MUTATORS:
            root = env.captured_root(func.value)
            if root is not None:
                owner = resolve(func.value, env)
                if (owner is _UNRESOLVED and func.attr in UNAMBIGUOUS_MUTATORS) or \
                        (owner is not _UNRESOLVED and _is_plain_container(owner)):
                    kind = type(owner).__name__ if owner is not _UNRESOLVED else "container"
                    self.add("container", node, env,
                             f"`{_text(func)}(...)` changes a captured {kind}")
                    return
        if any(n.startswith("numpy.") and not n.startswith("numpy.random") for n in names):
            for arg in list(node.args) + [k.value for k in node.keywords]:
                if env.captured_root(arg) is not None and _is_array(resolve(arg, env)):
                    self.add("numpy-state", node, env,
                             f"`{_text(node)}` on NumPy state `{_text(arg)}`")
                    return
        if value is _UNRESOLVED:
            return
        if is_layer(value):
            if not in_layer_call and not _passes_training(node):
                sensitive = training_sensitive(value)
                if sensitive:
                    self.add("training-flag", node, env,
                             f"`{_text(func)}(...)` without `training=` ({sensitive})")
            self.object(value, depth + 1, ("call",))
            return
        if _is_tf_function(value):
            return  # traced on its own: the trace hook sees it
        if isinstance(value, types.MethodType):
            self.function(value.__func__, value.__self__, depth=depth + 1)
        elif isinstance(value, types.FunctionType):
            owner = resolve(func.value, env) if isinstance(func, ast.Attribute) else None
            bound = owner if owner is not _UNRESOLVED and owner is not None and not isinstance(
                owner, (type, types.ModuleType)) else None
            self.function(value, bound, depth=depth + 1)
        elif isinstance(value, (staticmethod, classmethod)):
            self.function(value.__func__, None, depth=depth + 1)
        elif not isinstance(value, type) and \
                _is_user_function(getattr(type(value), "__call__", None)):
            self.function(type(value).__call__, value, depth=depth + 1)


def _traced_children(node, env: _Env) -> list:
    """The children of ``node`` that run while tracing.

    Left out: the branch a plain Python condition (a global, closure or attribute holding
    a bool, number, string or None) does not take, and the function handed to
    ``tf.py_function``/``tf.numpy_function``, which runs on every call, not at trace time.
    """
    children = list(ast.iter_child_nodes(node))
    if isinstance(node, (ast.If, ast.IfExp)):
        taken = _python_truth(node.test, env)
        if taken is not None:
            branch = node.body if taken else node.orelse
            return [node.test] + (branch if isinstance(branch, list) else [branch])
    elif isinstance(node, ast.Call) and _runs_at_call_time(node, env):
        func_arg = node.args[0] if node.args else next(
            (k.value for k in node.keywords if k.arg == "func"), None)
        return [c for c in children if c is not func_arg]
    return children


_PYTHON_CONSTANTS = (bool, int, float, str, type(None))


def _python_truth(test, env: _Env) -> bool | None:
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
    if value is _UNRESOLVED or not isinstance(value, _PYTHON_CONSTANTS):
        return None
    return bool(value) != negate


def _runs_at_call_time(node: ast.Call, env: _Env) -> bool:
    value = resolve(node.func, env)
    if value is _UNRESOLVED:
        return False
    return any(value is wrapper for wrapper in _call_time_wrappers())


def _call_time_wrappers() -> tuple:
    """TF's public ops that run a Python function on every call (not while tracing)."""
    return _tf_functions("py_function", "numpy_function", "compat.v1.py_func",
                         "compat.v1.py_function", "compat.v1.numpy_function")


def _tf_functions(*paths: str) -> tuple:
    """The public ``tf.<path>`` objects that exist in the loaded TensorFlow."""
    tf = sys.modules.get("tensorflow")
    found = []
    for path in paths if tf is not None else ():
        value = tf
        for part in path.split("."):
            value = getattr(value, part, None)
        if value is not None:
            found.append(value)
    return tuple(found)


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


def _is_plain_container(value, array_ok=False) -> bool:
    if isinstance(value, CONTAINERS):
        return not is_trackable(value) or not value
    return array_ok and _is_array(value)


def _is_array(value) -> bool:
    numpy = sys.modules.get("numpy")
    return numpy is not None and isinstance(value, numpy.ndarray)


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


def find(fn, instance=None) -> list[Effect]:
    """The trace-time effects in ``fn`` (the traced function) and what it calls.

    ``fn`` may be library code (Keras' train function, a tf.data wrapper): then the user
    code reachable from its closure (a Keras model's ``call``/``train_step``) is searched.
    """
    finder = _Finder()
    try:
        if _is_user_function(_unwrap_library(fn)):
            finder.function(fn, instance, top=True)
        else:
            for value in _closure_values(fn) + ([instance] if instance is not None else []):
                if is_layer(value):
                    finder.object(value, 0)
                elif _is_user_function(value):
                    finder.function(value, None, top=True)
    except Exception:  # noqa: BLE001 - a tfdebug bug must not break the user's trace
        log.debug("tfdebug: side-effect analysis of %r failed", fn, exc_info=True)
    return finder.effects


def user_entry_points(fn, instance=None) -> list[tuple]:
    """``(function, instance)`` pairs of the user's code that a library-made traced function
    (Keras' train function, a tf.data wrapper) runs: the user-defined ``call``/``train_step``/...
    of the Keras layers it captures (bound to each layer) and the user functions it captures.
    """
    pairs = []
    try:
        for value in _closure_values(fn) + ([instance] if instance is not None else []):
            if is_layer(value):
                for sub in _sublayers(value):
                    for name in ENTRY_METHODS:
                        method = getattr(type(sub), name, None)
                        if _is_user_function(method):
                            pairs.append((method, sub))
            elif _is_user_function(value):
                pairs.append((value, None))
    except Exception:  # noqa: BLE001 - nothing found is the safe answer
        log.debug("tfdebug: looking for user code in %r failed", fn, exc_info=True)
    return pairs


def _closure_values(fn, depth: int = 3) -> list:
    """Values captured by library wrappers (Keras' train function -> the model), searched
    through nested closures and bound methods."""
    values, seen = [], set()

    def visit(f, level):
        if isinstance(f, types.MethodType):
            values.append(f.__self__)
            f = f.__func__
        for cell in getattr(f, "__closure__", None) or ():
            try:
                value = cell.cell_contents
            except ValueError:
                continue
            if id(value) in seen:
                continue
            seen.add(id(value))
            values.append(value)
            if level < depth and callable(value) and not _is_user_function(value) and \
                    (isinstance(value, (types.FunctionType, types.MethodType))):
                visit(value, level + 1)

    visit(fn, 0)
    return values
