"""Resolve the names in a traced function's source to the live objects they hold.

Which names are the function's own (parameters, locals, ``global``/``nonlocal``), which are
globals or closure cells, what a call target is known by (``numpy.random.rand``), and which
of those calls belong to the moment of tracing (``CALLS``).
"""
from __future__ import annotations

import ast
import builtins
import dataclasses
import inspect
import sys
import types
from typing import Any

from .._source import dotted_parts, own_nodes, parameter_names
from .._vocab import CLOCK_OTHERS, CLOCK_READS


# A log record is written to the logger's handlers when the call runs: while tracing only
# (``logging.info(...)``, ``logger.warning(...)`` on a ``logging.Logger``, absl's functions).
_LOG_LEVELS = {"debug": 10, "info": 20, "warning": 30, "warn": 30, "error": 40, "exception": 40,
               "critical": 50, "fatal": 50, "log": None}  # logging's own numbers
LOG_CALLS = tuple(f"{owner}.{level}" for owner in ("logging", "logging.Logger", "absl.logging")
                  for level in _LOG_LEVELS)


def log_call_writes(node: ast.Call, env, names: set[str]) -> bool | None:
    """For a call of ``LOG_CALLS``: does its logger write a record at its level now (the
    logger's ``isEnabledFor``)? None when the logger or the level is not known: a record that
    is filtered out is written neither while tracing nor after."""
    method = next((n.rsplit(".", 1)[1] for n in names if n in LOG_CALLS), None)
    if method is None:
        return None
    import logging

    if any(n.startswith("logging.Logger.") for n in names):  # ``logger.info``: that logger
        owner = resolve(node.func.value, env) if isinstance(node.func, ast.Attribute) else UNRESOLVED
        if not isinstance(owner, logging.Logger):
            return None
    elif any(n.startswith("absl.") for n in names):  # absl's functions: absl's logger
        absl = sys.modules.get("absl.logging")
        owner = absl.get_absl_logger() if absl is not None else None
    else:  # logging's functions: the root logger
        owner = logging.getLogger()
    level = _LOG_LEVELS[method]
    if level is None:  # ``log(level, ...)``: the level it is given
        level = resolve(node.args[0], env) if node.args else UNRESOLVED
    if not isinstance(level, int) or not callable(getattr(owner, "isEnabledFor", None)):
        return None
    try:
        return bool(owner.isEnabledFor(level))
    except Exception:  # noqa: BLE001 - an odd logger: unknown
        return None

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
           "tensorflow.python.platform.gfile.", *LOG_CALLS),
}


@dataclasses.dataclass
class Scope:
    params: set
    local: set           # assigned here (and not declared global/nonlocal)
    declared_global: set
    declared_nonlocal: set


UNRESOLVED = object()


@dataclasses.dataclass
class Env:
    """Where a function's free names live, and what its parameters are known to be."""

    fn: Any                      # the Python function (for globals / closure)
    self_name: str | None        # the first parameter, when bound
    instance: Any                # the object it is bound to
    top: bool                    # the traced function itself (its params are captured)
    scopes: list                 # enclosing scopes inside the traced function, innermost last
    under_tape: bool = False     # called from inside a ``with tf.GradientTape()`` block
    # resolve()'s answers for this walk of the function: a node is resolved by the checks of
    # its statement and again by the walk's choice of children (nothing runs in between)
    resolved: dict = dataclasses.field(default_factory=dict, repr=False, compare=False)

    def is_local(self, name: str) -> bool:
        for scope in self.scopes:
            if name in scope.local:
                return not self.is_bound(name)
        return False

    def is_bound(self, name: str) -> bool:
        return self.self_name is not None and name == self.self_name \
            and name in self.scopes[0].params

    def is_top_param(self, name: str) -> bool:
        return self.top and name in self.scopes[0].params and not any(
            name in s.local for s in self.scopes[1:])

    def lookup(self, name: str):
        # is_bound and is_local written out: every name of every call is looked up, per trace
        if self.self_name is not None and name == self.self_name and name in self.scopes[0].params:
            return self.instance
        for scope in self.scopes:
            if name in scope.local:
                return UNRESOLVED
        code = getattr(self.fn, "__code__", None)
        closure = getattr(self.fn, "__closure__", None) or ()
        if code is not None and name in code.co_freevars and closure:
            try:
                return closure[code.co_freevars.index(name)].cell_contents
            except (ValueError, IndexError):
                return UNRESOLVED
        module_globals = getattr(self.fn, "__globals__", {})
        if name in module_globals:
            return module_globals[name]
        return getattr(builtins, name, UNRESOLVED)

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
        return name if self.lookup(name) is not UNRESOLVED else None


def static_attr(obj, name: str):
    if isinstance(obj, types.ModuleType):
        return getattr(obj, name, UNRESOLVED)
    try:
        value = inspect.getattr_static(obj, name)
    except AttributeError:
        return UNRESOLVED
    if isinstance(value, (staticmethod, classmethod)):
        return getattr(obj, name, UNRESOLVED)
    return value


def resolve(expr, env: Env):
    """The live object ``expr`` names (a name or an attribute chain), or UNRESOLVED.

    Attributes are read statically (no property or ``__getattr__`` runs). Answers are kept
    on ``env`` for the rest of its walk.
    """
    known = env.resolved.get(expr, _NOT_KNOWN)
    if known is _NOT_KNOWN:
        known = env.resolved[expr] = _resolve(expr, env)
    return known


_NOT_KNOWN = object()


def _resolve(expr, env: Env):
    if isinstance(expr, ast.Name):
        if env.is_top_param(expr.id) and not env.is_bound(expr.id):
            return UNRESOLVED
        return env.lookup(expr.id)
    if isinstance(expr, ast.Attribute):
        owner = resolve(expr.value, env)
        if owner is UNRESOLVED:
            return UNRESOLVED
        return static_attr(owner, expr.attr)
    if isinstance(expr, ast.Subscript) and isinstance(expr.slice, ast.Constant):
        # ``table["relu"]``: an item of a plain container that exists before the trace
        owner = resolve(expr.value, env)
        if type(owner) in (dict, list, tuple):
            try:
                return owner[expr.slice.value]
            except (KeyError, IndexError, TypeError):
                return UNRESOLVED
    return UNRESOLVED


def qualified_names(expr, env: Env, value) -> set[str]:
    """Names a call target is known by: its access path from a module, its definition."""
    names = set()
    parts = dotted_parts(expr)
    if parts:
        root = env.lookup(parts[0]) if not env.is_local(parts[0]) else UNRESOLVED
        if isinstance(root, types.ModuleType):
            names.add(".".join([root.__name__] + parts[1:]))
    if value is UNRESOLVED:
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


# CALLS split once into exact names and prefixes (patterns ending in "."), per kind
_CALL_PATTERNS = tuple((kind, frozenset(p for p in patterns if not p.endswith(".")),
                        tuple(p for p in patterns if p.endswith(".")))
                       for kind, patterns in CALLS.items())
_RANDOM_OBJECTS = ("RandomState", "Generator", "SeedSequence")  # make a generator, draw nothing


def call_kind(names: set[str]) -> str | None:
    """The first kind of ``CALLS`` one of the qualified ``names`` is, else None."""
    for kind, exact, prefixes in _CALL_PATTERNS:
        for name in names:
            if name in exact or (prefixes and name.startswith(prefixes)):
                if kind == "random" and name.startswith("numpy.random.") and \
                        name.split(".")[-1] in _RANDOM_OBJECTS:
                    continue
                return kind
    return None
