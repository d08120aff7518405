"""Seeing symbolic tensors formatted into Python strings (f-strings, str.format, str()).

The hook sits on the graph tensor class and is installed only while a tfdebug scope needs it
(side_effect_guard, print_to_tfprint, ic).
"""
from __future__ import annotations

import functools
import re
import sys
import threading

import tensorflow as tf

from .versions import log, warn_once


def is_symbolic(value) -> bool:
    """True for a graph (symbolic) tensor, False for eager tensors and everything else."""
    try:
        return bool(tf.is_symbolic_tensor(value))
    except Exception:  # noqa: BLE001 - odd objects are simply not symbolic tensors
        return False


@functools.lru_cache(maxsize=1)
def per_replica_type_names() -> frozenset:
    """The class names of TensorFlow's per-replica values (``tf.distribute.DistributedValues``
    and its subclasses that are not variables), read from the loaded classes."""
    values = sys.modules.get("tensorflow.python.distribute.values")
    base = getattr(values, "DistributedValues", None)
    names, stack = set(), [base] if base is not None else []
    while stack:
        kind = stack.pop()
        if not issubclass(kind, tf.Variable):
            names.add(kind.__name__)
        stack.extend(kind.__subclasses__())
    return frozenset(names)


def is_per_replica(value) -> bool:
    """True for a ``tf.distribute.DistributedValues`` that is not a variable (per-replica
    values, mirrored values)."""
    values = sys.modules.get("tensorflow.python.distribute.values")
    kind = getattr(values, "DistributedValues", None)
    return kind is not None and isinstance(value, kind) and not isinstance(value, tf.Variable)


def symbolic_tensor_type_names() -> tuple[str, ...]:
    """The class names Python's own messages give a graph tensor (``'SymbolicTensor'``)."""
    cls = _symbolic_tensor_class()
    return (cls.__name__,) if cls is not None else ()


@functools.lru_cache(maxsize=1)
def symbolic_tensor_repr() -> "re.Pattern | None":
    """A regex of a graph tensor's ``repr`` (``<tf.Tensor 'x:0' shape=() dtype=string>``), from
    the repr of one made in a scratch graph; None when it cannot be made."""
    try:
        with tf.Graph().as_default():
            text = repr(tf.compat.v1.placeholder(tf.float32, [], name="tfdebug_probe"))
        prefix, found, _ = text.partition("'tfdebug_probe:0'")
        return re.compile(re.escape(prefix) + r"'[^'\n]+:\d+'") if found and prefix else None
    except Exception:  # noqa: BLE001 - another repr: no pattern, no claim
        return None


@functools.lru_cache(maxsize=1)
def symbolic_tensor_text() -> "re.Pattern | None":
    """A regex of the text Python formatting makes of a graph tensor (``str``, an f-string:
    ``Tensor("x:0", shape=(), dtype=string)``), from one made in a scratch graph; None when it
    cannot be made."""
    try:
        with tf.Graph().as_default():
            text = str(tf.compat.v1.placeholder(tf.float32, [], name="tfdebug_probe"))
        prefix, found, rest = text.partition("tfdebug_probe:0")
        after = rest[:rest.find("(") + 1] if "(" in rest else rest[:2]
        return re.compile(re.escape(prefix) + r"[^\s\"']+:\d+" + re.escape(after)) \
            if found and prefix and after else None
    except Exception:  # noqa: BLE001 - another format: no pattern, no claim
        return None


def _symbolic_tensor_class():
    try:
        from tensorflow.python.framework.ops import SymbolicTensor  # TF >= 2.14
        return SymbolicTensor
    except ImportError:  # pragma: no cover - older layouts
        return None


_format_lock = threading.Lock()
_format_hooks: tuple = ()
_format_originals: dict = {}
_patched_made: dict = {}  # name -> (the original, its patched formatter)


_format_local = threading.local()


def _patched_formatter(name, original):
    def method(self, *args):
        if getattr(_format_local, "busy", False):  # __format__ calling __str__: report once
            return original(self, *args)
        _format_local.busy = True
        try:
            text = original(self, *args)
        finally:
            _format_local.busy = False
        hooks = _format_hooks
        if not hooks:
            return text
        caller = sys._getframe(1)
        # hooks that replace the text (print conversion) first, newest first; observers
        # (the side-effect guard) only see text that stays as it is
        for hook, observe_only in sorted(reversed(hooks), key=lambda h: h[1]):
            try:
                replaced = hook(self, text, caller)
            except Exception:  # noqa: BLE001 - formatting must never fail because of tfdebug
                log.debug("tfdebug: tensor format hook %r failed", hook, exc_info=True)
                continue
            if replaced is not None and not observe_only:
                return replaced
        return text
    method.__name__ = name
    method.__wrapped__ = original
    return method


def add_tensor_format_hook(hook, observe_only: bool = False) -> bool:
    """Call ``hook(tensor, text, caller_frame) -> str | None`` whenever a symbolic tensor is
    formatted (``__format__``, ``__str__``, ``__repr__``); a str return replaces the text.
    ``observe_only`` hooks run only when no other hook replaced the text.

    Returns False (after a one-time warning) when this TensorFlow has no graph tensor class.
    """
    global _format_hooks
    cls = _symbolic_tensor_class()
    if cls is None:
        warn_once("format-hook", f"tfdebug: formatting of graph tensors cannot be observed on "
                                 f"TensorFlow {tf.__version__}.")
        return False
    with _format_lock:
        _format_hooks = _format_hooks + ((hook, observe_only),)
        if not _format_originals:
            for name in ("__format__", "__str__", "__repr__"):
                original = getattr(cls, name)
                _format_originals[name] = cls.__dict__.get(name, _MISSING)
                made = _patched_made.get(name)
                if made is None or made[0] is not original:  # made once, reused by each scope
                    made = _patched_made[name] = (original, _patched_formatter(name, original))
                setattr(cls, name, made[1])
    return True


_MISSING = object()


def remove_tensor_format_hook(hook) -> None:
    """Undo one ``add_tensor_format_hook(hook)``; the class is restored after the last."""
    global _format_hooks
    cls = _symbolic_tensor_class()
    with _format_lock:
        hooks = list(_format_hooks)
        for index in range(len(hooks) - 1, -1, -1):
            if hooks[index][0] == hook:  # bound methods are equal, never identical
                del hooks[index]
                break
        _format_hooks = tuple(hooks)
        if not _format_hooks and _format_originals and cls is not None:
            for name, original in _format_originals.items():
                if original is _MISSING:
                    delattr(cls, name)
                else:
                    setattr(cls, name, original)
            _format_originals.clear()


def tensor_format_hooked() -> bool:
    return bool(_format_originals)
