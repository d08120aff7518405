"""Which user functions run while a tf.function is traced (not only the ones the source names).

The walk in ``finder`` follows the calls it can resolve in the source. Python decides the
rest only while the trace runs: a function passed as an argument, a table of functions
indexed at trace time, ``super().call(x)``, a context manager made in the ``with`` line, a
metric's ``update_state`` or a loss that Keras calls. While a trace runs, a Python trace
function (``sys.settrace``; ``sys.setprofile`` when a debugger or a coverage tool holds the
first; nothing when both are taken) records each user function that starts on this thread,
and it is removed when the trace ends: calling a traced function runs none of the user's
Python and costs nothing.

Code that runs once by design, in eager execution too, is left out with everything it calls:
code running under ``tf.init_scope()`` (variables and their initializers), a Keras layer's
``build`` (the layer is not built yet), and special methods (``__eq__``, ``__hash__``, ...)
that TensorFlow's own machinery calls. An object whose ``__init__`` ran during the trace, or
that is gone when the trace ends, is new: its attributes are not captured state.

Example::

    recorder = running.start()
    try:
        trace()                       # TensorFlow traces the function
    finally:
        ran = running.stop(recorder)  # [(function, instance), ...] in the order they ran
"""
from __future__ import annotations

import logging
import sys
import threading
import types
import weakref

from .. import _frames, _tf
from .objects import is_layer, is_user_function

log = logging.getLogger("tfdebug")

_USER, _GENERATED, _OTHER = 1, 2, 0
_kinds: dict[str, int] = {}  # filename -> kind; files are few, so the cache stays small
# special methods that user code runs itself (``with``, calling an object); other dunders
# are the protocol TensorFlow's own code drives (comparing, hashing, flattening arguments)
_CALLED_BY_USER = {"__call__", "__enter__", "__exit__", "__aenter__", "__aexit__", "__init__"}
_local = threading.local()


class Recorder:
    """The user functions one trace ran, as ``(function, instance)`` pairs."""

    def __init__(self):
        self.ran: list[tuple] = []
        self._seen: set = set()
        self._fresh: dict[int, object] = {}    # objects made during the trace, kept alive
        self._once: dict[int, object] = {}     # frames of run-once code (and what they call)

    def saw(self, frame) -> None:
        code = frame.f_code
        kind = _kinds.get(code.co_filename)
        if kind is None:
            kind = _kinds[code.co_filename] = _kind(code.co_filename)
        if kind == _OTHER:
            return
        name = code.co_name
        if name.startswith("__") and name.endswith("__") and name not in _CALLED_BY_USER:
            self._once[id(frame)] = frame
            return
        if kind == _GENERATED:
            target = _tf.converted_target(frame)
            if target is None:
                return
            fn, instance = target
        else:
            fn, instance = _function_of(frame)
        if fn is None or not is_user_function(fn) or self._under_once(frame):
            return
        if _executing_eagerly() or (is_layer(instance) and not getattr(instance, "built", True)):
            self._once[id(frame)] = frame  # tf.init_scope() or a layer's build: runs once
            return
        if name == "__init__" and instance is not None:
            self._fresh[id(instance)] = instance
        if instance is not None and id(instance) in self._fresh:
            instance = None  # an object made during this trace: its state is not captured
        key = (fn.__code__, id(instance))
        if key not in self._seen:
            self._seen.add(key)
            self.ran.append((fn, _reference(instance)))

    def _under_once(self, frame) -> bool:
        if not self._once:
            return False
        frame = frame.f_back
        while frame is not None:
            if id(frame) in self._once and self._once[id(frame)] is frame:
                return True
            frame = frame.f_back
        return False


def _reference(instance):
    """A weak reference where one can be made: an object that is gone when the trace ends
    (``with Timer():``) did not outlive it, so its attributes are not captured state."""
    if instance is None:
        return lambda: None
    try:
        return weakref.ref(instance)
    except TypeError:
        return lambda: instance


def _kind(filename: str) -> int:
    if _tf.is_generated_file(filename):
        return _GENERATED
    return _USER if _frames.is_user_file(filename) else _OTHER


def _executing_eagerly() -> bool:
    import tensorflow as tf
    return tf.executing_eagerly()


def _function_of(frame) -> tuple:
    """The function (with the instance it is bound to) whose code ``frame`` runs."""
    code = frame.f_code
    try:
        local = frame.f_locals
    except Exception:  # noqa: BLE001
        return None, None
    if code.co_argcount:
        first = local.get(code.co_varnames[0])
        for cls in type(first).__mro__ if first is not None else ():
            member = cls.__dict__.get(code.co_name)
            member = getattr(member, "__func__", member)
            if getattr(member, "__code__", None) is code:
                return member, first
    cells = []
    for name in code.co_freevars:
        cells.append(types.CellType(local[name]) if name in local else types.CellType())
    try:
        return types.FunctionType(code, frame.f_globals, code.co_name, None,
                                  tuple(cells) or None), None
    except (TypeError, ValueError):
        return None, None


def _hook(stack: list):
    """The trace function of one thread: as little as possible per call (it runs for every
    Python call while a function is traced); a known library file costs one dict lookup."""
    kinds = _kinds

    def on_event(frame, event, arg):
        if event == "call" and kinds.get(frame.f_code.co_filename) != _OTHER and stack:
            try:
                stack[-1].saw(frame)
            except Exception:  # noqa: BLE001 - observing must never break the user's trace
                log.debug("tfdebug: recording a traced frame failed", exc_info=True)
        return None
    return on_event


def start() -> Recorder | None:
    """Record the user functions that run on this thread until :func:`stop`; None when
    another tool holds both of Python's hooks (then only the static walk is done)."""
    stack = getattr(_local, "stack", None)
    if stack is None:
        stack = _local.stack = []
    if not stack:
        hook = _hook(stack)
        if sys.gettrace() is None:
            sys.settrace(hook)
            _local.installed = (sys.settrace, sys.gettrace, hook)
        elif sys.getprofile() is None:
            sys.setprofile(hook)
            _local.installed = (sys.setprofile, sys.getprofile, hook)
        else:
            return None
    recorder = Recorder()
    stack.append(recorder)
    return recorder


def stop(recorder: Recorder | None) -> list[tuple]:
    """Stop ``recorder``; the last one out removes the hook (unless another tool replaced it)."""
    if recorder is None:
        return []
    stack = getattr(_local, "stack", [])
    if recorder in stack:
        stack.remove(recorder)
    installed = getattr(_local, "installed", None)
    if not stack and installed is not None:
        set_hook, get_hook, hook = installed
        if get_hook() is hook:
            set_hook(None)
        _local.installed = None
    recorder._fresh.clear()
    recorder._once.clear()
    ran, recorder.ran = recorder.ran, []
    return [(fn, ref()) for fn, ref in ran]


def hooked() -> bool:
    """True while this thread's trace (or profile) function is the recorder's."""
    installed = getattr(_local, "installed", None)
    return installed is not None and installed[1]() is installed[2]
