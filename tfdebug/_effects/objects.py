"""What the live objects a traced function touches are: trackable state, layers, user code.

Building state at trace time (variables, layers, optimizers) is fine; plain containers and
arrays captured from outside are not. Keras is read from ``sys.modules`` (never imported).
"""
from __future__ import annotations

import collections
import inspect
import sys
import threading
import types

from .. import _frames
from .._vocab import TRAINING_LAYERS

CONTAINERS = (list, dict, set, bytearray, collections.deque)


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


def sublayers(layer) -> list:
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
    for sub in sublayers(layer):
        if kinds and isinstance(sub, kinds):
            return f"{type(sub).__name__} {getattr(sub, 'name', '')!r}".strip()
        call = getattr(type(sub), "call", None)
        if sub is not layer and is_user_function(call):
            try:
                if "training" in inspect.signature(call).parameters:
                    return f"{type(sub).__name__} {getattr(sub, 'name', '')!r}"
            except (TypeError, ValueError):
                pass
    return None


def is_user_function(fn) -> bool:
    code = getattr(fn, "__code__", None)
    if not isinstance(fn, types.FunctionType) or code is None:
        return False
    is_user = getattr(_walking, "is_user", None) or _frames.is_user_file
    return is_user(code.co_filename)


def callable_entry(value) -> tuple | None:
    """``(function, instance)`` that calling ``value`` runs: a function as itself, a bound
    method as its function bound to its object, any other callable as its class's
    ``__call__`` bound to it; None for None."""
    if value is None:
        return None
    if isinstance(value, types.MethodType):
        return value.__func__, value.__self__
    if isinstance(value, types.FunctionType):
        return value, None
    return getattr(type(value), "__call__", None), value


_walking = threading.local()  # .is_user: the library folders as one walk saw them


class one_walk:
    """The library folders checked once for a whole walk (``_frames.user_file_test``), not
    at each of its ~20 questions: a walk runs no user code, so nothing is imported during it.
    (A class, not a generator: it is entered at every trace.)"""

    def __enter__(self):
        self.outer = getattr(_walking, "is_user", None)
        _walking.is_user = _frames.user_file_test()
        return self

    def __exit__(self, *exc) -> None:
        _walking.is_user = self.outer


def unwrap_library(fn):
    """``fn`` without the library decorators around it; a user's own wrapper is kept, since
    its body (timing, logging, counting) runs while tracing too."""
    is_user = getattr(_walking, "is_user", None) or _frames.user_file_test()
    entry = _unwrapped.get(id(fn))
    if entry is not None and entry[0] is fn and entry[1] is is_user.folders:
        return entry[2]
    given, seen = fn, set()
    while callable(fn) and not is_user_function(fn) and hasattr(fn, "__wrapped__") \
            and id(fn) not in seen:
        seen.add(id(fn))
        fn = fn.__wrapped__
    if fn is not given and isinstance(given, types.FunctionType) \
            and "<locals>" not in given.__qualname__ and not is_user_function(fn):
        # a library's module-level function (tf.reduce_sum under its dispatch decorators):
        # the same answer at every call of it in every trace, while no library is re-imported
        if len(_unwrapped) >= 4096:
            _unwrapped.clear()
        _unwrapped[id(given)] = (given, is_user.folders, fn)
    return fn


# id(function) -> (the function, the library folders it was unwrapped with, the unwrapped)
_unwrapped: dict = {}


def is_tf_function(value) -> bool:
    return hasattr(value, "python_function") and hasattr(value, "get_concrete_function")


def is_plain_container(value, array_ok=False) -> bool:
    if isinstance(value, CONTAINERS):
        return not is_trackable(value) or not value
    return array_ok and is_array(value)


def is_array(value) -> bool:
    numpy = sys.modules.get("numpy")
    return numpy is not None and isinstance(value, numpy.ndarray)


def closure_values(fn, depth: int = 3) -> list:
    """Values captured by library wrappers (Keras' train function -> the model), searched
    through nested closures and bound methods.

    A loop over a stack, not a recursive inner function: that function would hold itself in
    its closure, a reference cycle keeping the values found (the user's arguments among
    them) alive until the collector runs, and TensorFlow matches an argument that is still
    alive to an earlier trace (a bound method passed anew each call would stop retracing).
    """
    values, seen = [], set()
    stack = [(_cells(fn, values), 0)]  # depth first, each value before what it captures
    while stack:
        cells, level = stack[-1]
        cell = next(cells, None)
        if cell is None:
            stack.pop()
            continue
        try:
            value = cell.cell_contents
        except ValueError:
            continue
        if id(value) in seen:
            continue
        seen.add(id(value))
        values.append(value)
        if level < depth and callable(value) and not is_user_function(value) and \
                (isinstance(value, (types.FunctionType, types.MethodType))):
            stack.append((_cells(value, values), level + 1))
    return values


def _cells(f, values: list):
    """The closure cells of ``f``; a bound method adds its instance to ``values`` first."""
    if isinstance(f, types.MethodType):
        values.append(f.__self__)
        f = f.__func__
    return iter(getattr(f, "__closure__", None) or ())
