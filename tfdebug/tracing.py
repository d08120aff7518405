"""One trace hook, many subscribers.

The trace logger, the side-effect guard, print conversion and shape probes all need to run
code around each tf.function trace. They subscribe here; the single hook in ``_tf`` is
installed when the first subscriber arrives and removed when the last one leaves, so a
process without active tfdebug scopes runs TensorFlow's own code untouched. Subscribers run
only at trace time: calling an already-traced function costs nothing extra (DESIGN 3).

A subscriber is a callable ``subscriber(trace) -> context manager | None``; its context
(when it returns one) wraps the trace, and sees ``trace.error`` / ``trace.concrete`` on exit.
"""
from __future__ import annotations

import contextlib
import dataclasses
import functools
import logging
import threading
import time
import weakref
from typing import Any, Callable

from . import _tf

log = logging.getLogger("tfdebug")

_lock = threading.Lock()
_subscribers: tuple[Callable, ...] = ()  # copy-on-write: the hook reads it without a lock
_local = threading.local()


@dataclasses.dataclass
class Trace:
    """One tf.function trace, as subscribers see it."""

    python_function: Any          # the user's Python function (unwrapped)
    name: str                     # the tf.function's name
    function_type: Any            # TF's canonical FunctionType of the inputs
    tracing_options: Any          # TF's TracingOptions (function_cache, reduce_retracing, ...)
    depth: int                    # 0 for a top-level trace, 1+ for nested tf.functions
    started: float = 0.0          # time.perf_counter() at the start
    duration: float = 0.0         # seconds spent tracing
    concrete: Any = None          # the ConcreteFunction, once traced
    error: BaseException | None = None

    @functools.cached_property
    def target(self) -> tuple:
        """``(function, instance, kind)`` the trace runs (``_tf.traced_target``), worked out
        once for every subscriber."""
        return _tf.traced_target(self.tracing_options)

    @property
    def parameters(self) -> list[tuple[str, Any]]:
        """(argument name, TraceType) for each input."""
        return _tf.trace_parameters(self.function_type)


def subscribe(subscriber: Callable) -> None:
    """Add ``subscriber``; installs the trace hook on the first one."""
    global _subscribers
    with _lock:
        subscribers = _subscribers + (subscriber,)
        if len(subscribers) == 1:  # the hook first: if it fails, nothing has changed
            _tf.install_trace_hook(_around_trace)
        _subscribers = subscribers


def unsubscribe(subscriber: Callable) -> None:
    """Remove ``subscriber`` (once); removes the trace hook after the last one."""
    global _subscribers
    with _lock:
        subs = list(_subscribers)
        if subscriber in subs:
            subs.remove(subscriber)
        _subscribers = tuple(subs)
        if not _subscribers:
            _tf.uninstall_trace_hook()


def active() -> bool:
    return bool(_subscribers)


@contextlib.contextmanager
def subscribed(subscriber: Callable):
    """``with subscribed(fn):`` — fn observes every trace inside the block."""
    subscribe(subscriber)
    try:
        yield
    finally:
        unsubscribe(subscriber)


# The code of the Python function each function graph was traced from, kept while an
# explaining scope is active (``remember_graphs``): a leaked input placeholder names its
# graph, not the code that stored it. Weak keys, and a code object as value: no entry keeps
# a graph alive (a function would, through its globals and the tf.function they hold).
_graph_functions: "weakref.WeakKeyDictionary" = weakref.WeakKeyDictionary()
_remembering = 0
_remember_hooked = False  # whether the outermost remember_graphs() subscribed
_remember_lock = threading.Lock()


def _keep_hook(trace) -> None:
    """The subscriber that keeps the trace hook installed while graphs are remembered (the
    recording itself is in ``_around_trace``: no context object per trace)."""
    return None


def remember_graphs() -> None:
    """Until ``forget_graphs()``, map each function graph traced to its Python function
    (nests by count; the first call installs the trace hook, on a supported TensorFlow only:
    elsewhere the leaked input is not read, and explaining warns of no missing hook)."""
    global _remembering, _remember_hooked
    with _remember_lock:
        if _remembering == 0 and _tf.version_supported() and _tf.trace_hook_available():
            subscribe(_keep_hook)
            _remember_hooked = True
        _remembering += 1


def forget_graphs() -> None:
    """Undo one ``remember_graphs()``; the graphs already mapped stay mapped while they live."""
    global _remembering, _remember_hooked
    with _remember_lock:
        if _remembering == 0:
            return
        _remembering -= 1
        if _remembering == 0 and _remember_hooked:
            _remember_hooked = False
            unsubscribe(_keep_hook)


@contextlib.contextmanager
def graphs_remembered():
    """``with graphs_remembered():`` -- ``remember_graphs()`` for the block."""
    remember_graphs()
    try:
        yield
    finally:
        forget_graphs()


def _remember(trace) -> None:
    function = trace.target[0]  # the user's own function, without TensorFlow's wrappers
    code = getattr(getattr(function, "__func__", function), "__code__", None)
    graph = getattr(trace.concrete, "graph", None)
    if code is not None and graph is not None:
        _graph_functions[graph] = code


def traced_code_of(graph):
    """The code of the Python function ``graph`` was traced from, when it was traced while
    graphs were remembered; else None."""
    try:
        return _graph_functions.get(graph)
    except TypeError:  # not weakly referable: never remembered
        return None


def current_depth() -> int:
    """How many traces are in progress on this thread."""
    return getattr(_local, "depth", 0)


def _around_trace(trace_call, function_type, tracing_options):
    __tracebackhide__ = True  # tfdebug frames in the user's stack: pytest leaves them out
    subscribers = _subscribers
    if not subscribers:
        return trace_call()
    trace = Trace(
        python_function=_tf.traced_python_function(tracing_options),
        name=getattr(tracing_options, "name", "function"),
        function_type=function_type,
        tracing_options=tracing_options,
        depth=current_depth(),
    )
    # a plain list and loops, not an ExitStack and a generator per subscriber: this runs in
    # every trace, and each object made here is work (and garbage) added to it
    entered = []  # (context, subscriber) in the order entered; exited in reverse
    try:
        for subscriber in subscribers:
            cm = _enter_safely(subscriber, trace)
            if cm is not None:
                entered.append((cm, subscriber))
    except BaseException as exc:  # a subscriber refused the trace: the entered ones see it
        _exit_all(entered, exc)
        raise
    _local.depth = trace.depth + 1
    trace.started = time.perf_counter()
    try:
        trace.concrete = trace_call()
    except BaseException as exc:
        trace.error = exc
        trace.duration = time.perf_counter() - trace.started
        _local.depth = trace.depth
        _exit_all(entered, exc)
        raise
    trace.duration = time.perf_counter() - trace.started
    _local.depth = trace.depth
    if _remembering:
        try:
            _remember(trace)
        except Exception:  # noqa: BLE001 - a tfdebug bug must not break the user's trace
            log.debug("tfdebug: remembering the traced graph failed", exc_info=True)
    _exit_all(entered, None)
    return trace.concrete


class SubscriberError(_tf.HookRefusal):
    """Base for errors a subscriber raises on purpose; they reach the user.

    Example: ``trace_logger(max_traces=N)`` and ``side_effect_guard(action="raise")``.
    Any other exception from a subscriber is a tfdebug bug: logged at DEBUG and ignored.
    """


def _enter_safely(subscriber, trace: Trace):
    """``subscriber(trace)``'s context, entered; None when it has none or failed (a bug)."""
    __tracebackhide__ = True
    try:
        cm = subscriber(trace)
        if cm is not None:
            cm.__enter__()
        return cm
    except SubscriberError:
        raise
    except Exception:  # noqa: BLE001 - a tfdebug bug must not break the user's trace
        log.debug("tfdebug: trace subscriber %r failed on entry", subscriber, exc_info=True)
        return None


def _exit_all(entered: list, error: BaseException | None) -> None:
    """Exit the entered contexts, newest first, as a ``with`` statement would: each sees the
    trace's error, or the SubscriberError an exit raised after a successful trace (which
    then reaches the user); no return value swallows the user's error."""
    __tracebackhide__ = True
    refusal = None
    for cm, subscriber in reversed(entered):
        try:
            _exit_safely(cm, subscriber, error if error is not None else refusal)
        except SubscriberError as exc:  # raised only while nothing else is failing
            refusal = exc
    if refusal is not None:
        raise refusal


def _exit_safely(cm, subscriber, exc: BaseException | None) -> None:
    __tracebackhide__ = True
    try:
        if exc is None:
            cm.__exit__(None, None, None)
        else:
            cm.__exit__(type(exc), exc, exc.__traceback__)
    except SubscriberError:
        if exc is None:
            raise
        log.debug("tfdebug: %r raised while the trace was already failing", subscriber,
                  exc_info=True)
    except Exception:  # noqa: BLE001
        log.debug("tfdebug: trace subscriber %r failed on exit", subscriber, exc_info=True)
