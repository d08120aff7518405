"""``eager()`` / ``graph()``: scoped ``tf.config.run_functions_eagerly``.

TensorFlow's flag is process-global. Every entry of these scopes, on any thread, pushes
onto one lock-protected stack; every exit removes its own entry, wherever it is, and sets
the flag from what is left (the newest remaining entry, or the value found before the first
entry). An inner exit never clobbers an outer scope, and out-of-order exits from several
threads leave the flag right.
"""
from __future__ import annotations

import threading
import warnings

from . import _tf
from ._scope import Scope, run_all

_lock = threading.Lock()
_stack: list[tuple[object, bool]] = []   # (token, eager?) in entry order
_base: list[bool] = []                    # the flag before the first entry (one item)


class eager(Scope):
    """Run every ``tf.function`` as plain Python inside the scope, so pdb, print and
    ``.numpy()`` work; ``eager(False)`` (or :func:`graph`) forces graph execution.

    ``data=True`` also runs ``tf.data`` functions (``map``, ``filter``, ...) eagerly. TF
    applies that switch when a pipeline is *built*: only datasets created inside the scope
    are affected.

    Example::

        with tfdebug.eager():
            loss = train_step(x, y)      # a breakpoint() in train_step stops with values

        @tfdebug.eager             # bare, as @tfdebug.eager() does
        def check(): ...
    """

    def __new__(cls, enabled=True, **kwargs):
        # ``@tfdebug.eager`` without parentheses: Python passes the function as ``enabled``
        if callable(enabled) and not isinstance(enabled, bool) and not kwargs:
            return cls()(enabled)
        return super().__new__(cls)

    def __init__(self, enabled: bool = True, *, data: bool = False):
        if not isinstance(enabled, bool):
            raise TypeError(f"eager(enabled) takes True or False, got {enabled!r}")
        if not isinstance(data, bool):
            raise TypeError(f"eager(data=...) takes True or False, got {data!r}")
        if data and not enabled:
            raise ValueError("eager(False, data=True) makes no sense: tf.data debug mode "
                             "runs pipeline functions eagerly")
        self.enabled = enabled
        self.data = data

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.enabled}{', data=True' if self.data else ''})"

    def _enter(self):
        data_before = None
        if self.data:
            data_before = _tf.data_debug_mode()
            _tf.set_data_debug_mode(True)  # raises a clear error inside a trace
        try:
            if self.data and not _tf.data_debug_mode_scopable():
                warnings.warn("eager(data=True): tf.data debug mode stays on after the scope "
                              "on this TensorFlow version.", RuntimeWarning, stacklevel=3)
            token = object()
            with _lock:
                if not _stack:
                    _base[:] = [_tf.functions_run_eagerly()]
                _tf.set_functions_run_eagerly(self.enabled)
                _stack.append((token, self.enabled))
        except BaseException:
            if data_before is not None:
                _restore_data(data_before)
            raise
        return token, data_before

    def _exit(self, state, exc) -> None:
        token, data_before = state

        def flag():
            with _lock:
                _stack[:] = [entry for entry in _stack if entry[0] is not token]
                _tf.set_functions_run_eagerly(_stack[-1][1] if _stack else _base[0])

        run_all(flag, lambda: _restore_data(data_before) if data_before is not None else None)


def _restore_data(value: bool) -> None:
    if _tf.data_debug_mode_scopable():
        _tf.set_data_debug_mode(value)


eager_mode = eager


def graph() -> eager:
    """Force graph execution of tf.functions inside an eager region: ``eager(False)``.

    Example::

        with tfdebug.eager():
            with tfdebug.graph():
                fast_step(x)             # traced and run as a graph
    """
    return eager(False)


def active_entries() -> int:
    """How many eager()/graph() entries are open, process-wide (for tests and doctor)."""
    with _lock:
        return len(_stack)
