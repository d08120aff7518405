"""The hook points around tracing: the trace hook and scope-private trace caches.

Every tf.function trace (tf.function, Keras train/predict functions, tf.data functions,
get_concrete_function) goes through tracing_compilation._create_concrete_function in
TF 2.15+. We replace that module attribute with a wrapper that calls one callback
around the real call; tracing.py multiplexes that callback to its subscribers.
print_to_tfprint() gives each tf.function a scope-private trace cache, so the graphs it
builds (with print ops) are never seen by calls made after the scope.
"""
from __future__ import annotations

import os
import threading

import tensorflow as tf

from . import versions
from .versions import log, warn_once


def _tracing_module():
    try:
        from tensorflow.python.eager.polymorphic_function import tracing_compilation
    except ImportError:
        return None
    if not callable(getattr(tracing_compilation, "_create_concrete_function", None)):
        return None
    return tracing_compilation


_hook_lock = threading.Lock()
_original_create = None


class HookRefusal(Exception):
    """Raised around a trace by tfdebug on purpose (``trace_logger(max_traces=...)``,
    ``side_effect_guard(action="raise")``): it reaches the user, never absorbed."""


def trace_hook_available() -> bool:
    return _tracing_module() is not None


def install_trace_hook(around_trace) -> bool:
    """Route every trace through ``around_trace(trace_call, function_type, tracing_options)``.

    ``around_trace`` must call ``trace_call()`` exactly once and return its result.
    Returns False (after a one-time warning) when this TensorFlow has no hook point.
    """
    global _original_create
    module = _tracing_module()
    version = ".".join(map(str, versions.tf_version()))
    if module is None:
        warn_once("trace-hook", f"tfdebug: trace hooks unavailable on TensorFlow {version}; "
                                "tracing is not observed.")
        return False
    if not versions.version_supported():
        warn_once("trace-hook-version", f"tfdebug: TensorFlow {version} is not a supported "
                  "version (2.16-2.21); trace hooks are installed but may misbehave.")
    with _hook_lock:
        if _original_create is not None:
            return True
        _hide_own_frames()
        original = module._create_concrete_function

        def _create_concrete_function(function_type, type_context, func_graph, tracing_options):
            __tracebackhide__ = True  # pytest shows the user's frames, not the hook's
            trace_call = _TraceCall(original, function_type, type_context, func_graph,
                                    tracing_options)
            try:
                return around_trace(trace_call, function_type, tracing_options)
            except Exception as exc:
                if trace_call.began or isinstance(exc, HookRefusal):
                    raise  # the trace's own error, or tfdebug refusing it on purpose
                # a tfdebug bug before the trace began: trace as if tfdebug were not there
                log.debug("tfdebug: the trace hook failed; tracing without it", exc_info=True)
                return original(function_type, type_context, func_graph, tracing_options)

        _create_concrete_function.__wrapped__ = original
        module._create_concrete_function = _create_concrete_function
        _original_create = original
    return True


class _TraceCall:
    """The real trace, called once by ``around_trace``; ``began`` once it was called.

    One object per trace (a closure would add a list and a cell per argument: every object
    made here is work, and garbage the collector counts, added to each trace)."""

    __slots__ = ("original", "function_type", "type_context", "func_graph", "tracing_options",
                 "began")

    def __init__(self, original, function_type, type_context, func_graph, tracing_options):
        self.original, self.function_type, self.type_context = original, function_type, type_context
        self.func_graph, self.tracing_options, self.began = func_graph, tracing_options, False

    def __call__(self):
        __tracebackhide__ = True
        self.began = True
        return self.original(self.function_type, self.type_context, self.func_graph,
                             self.tracing_options)


def _hide_own_frames() -> None:
    """Let TF's traceback filter drop tfdebug's hook frames from the user's tracebacks.

    TF re-raises errors of tf.function calls with frames under its excluded paths removed;
    adding tfdebug's folder there hides the wrapper frames the trace hook adds.
    """
    try:
        from tensorflow.python.util import traceback_utils
    except ImportError:
        return
    paths = getattr(traceback_utils, "_EXCLUDED_PATHS", None)
    own = os.path.dirname(os.path.dirname(os.path.abspath(__file__))) + os.sep  # tfdebug/
    if isinstance(paths, tuple) and own not in paths:
        traceback_utils._EXCLUDED_PATHS = paths + (own,)


def uninstall_trace_hook() -> None:
    global _original_create
    module = _tracing_module()
    with _hook_lock:
        if module is None or _original_create is None:
            return
        module._create_concrete_function = _original_create
        _original_create = None


def trace_hook_installed() -> bool:
    module = _tracing_module()
    return module is not None and hasattr(module._create_concrete_function, "__wrapped__")


def traced_python_function(tracing_options):
    """The user's Python function being traced (unwrapped from decorators TF adds)."""
    fn = getattr(tracing_options, "python_function", None)
    return getattr(fn, "__wrapped__", fn) if fn is not None else None


def trace_parameters(function_type) -> list[tuple[str, object]]:
    """(name, TraceType) per parameter of a canonicalized function type."""
    try:
        return [(p.name, p.type_constraint) for p in function_type.parameters.values()]
    except AttributeError:
        return []


def traced_concretes(tracing_options) -> list:
    """The concrete functions a tf.function's trace cache holds (FunctionCache keeps them in
    ``_primary``, as ``evict_concrete`` reads it); empty on another layout."""
    primary = getattr(getattr(tracing_options, "function_cache", None), "_primary", None)
    return list(primary.values()) if isinstance(primary, dict) else []


def evict_concrete(function_cache, concrete) -> bool:
    """Drop ``concrete`` from a tf.function's cache, so the next call traces afresh.

    Used when a trace baked in ops that must not outlive a tfdebug scope. FunctionCache
    keys entries by (context, function_type); the context is not visible to the trace
    hook, so the entry is found by identity.
    """
    primary = getattr(function_cache, "_primary", None)
    if primary is None or not hasattr(function_cache, "delete"):
        warn_once("evict", f"tfdebug: cannot drop probed traces on TensorFlow {tf.__version__};"
                           " functions traced inside shape_probe() keep their probe ops.")
        return False
    for (context, function_type), value in list(primary.items()):
        if value is concrete:
            return bool(function_cache.delete(function_type, context))
    return False


def trace_uses_xla(tracing_options) -> bool:
    """True when the function being traced is compiled with XLA (no Python ops inside)."""
    attributes = getattr(tracing_options, "attributes", None) or {}
    return bool(attributes.get("_XlaMustCompile", False))


_redirect_lock = threading.Lock()
_redirect_depth = 0
_redirect_original = None
_shadow_options: dict = {}  # id(TracingOptions) -> (original options, options to use)
_redirect_select = None     # which functions get a private cache (None: every one)


def _shadow(tracing_options):
    """The options a call uses inside the scope: a scope-private copy (same function, fresh
    trace cache) when the scope selects this function, else its own, decided once."""
    import dataclasses

    with _redirect_lock:
        key = id(tracing_options)
        entry = _shadow_options.get(key)
        if entry is not None and entry[0] is tracing_options:
            return entry[1]
        select = _redirect_select
    chosen = tracing_options
    if select is None or _selected(select, tracing_options):
        from tensorflow.core.function.polymorphism import function_cache as function_cache_lib
        chosen = dataclasses.replace(tracing_options,
                                     function_cache=function_cache_lib.FunctionCache())
    with _redirect_lock:
        if _redirect_depth:
            _shadow_options[key] = (tracing_options, chosen)
    return chosen


def _selected(select, tracing_options) -> bool:
    try:
        return bool(select(tracing_options))
    except Exception:  # noqa: BLE001 - unknown: a private cache, as for every function
        log.debug("tfdebug: choosing the trace cache failed", exc_info=True)
        return True


def redirect_trace_caches(select=None) -> bool:
    """Until ``restore_trace_caches()``, every tf.function (or those whose TracingOptions
    ``select`` accepts, asked once per function) looks up and stores its traces in a
    private cache: it traces afresh on its first call, and the traces made meanwhile are
    dropped afterwards (calls after the restore use the function's own cache, untouched).
    The others keep their traces: a call costs one dictionary look-up more. Nests by count
    (the outermost call's ``select``). Returns False when this TensorFlow has no hook point.
    """
    global _redirect_depth, _redirect_original, _redirect_select
    module = _tracing_module()
    if module is None or not callable(getattr(module, "trace_function", None)):
        warn_once("trace-cache", f"tfdebug: traces cannot be scoped on TensorFlow "
                                 f"{tf.__version__}; functions traced inside keep their prints.")
        return False
    with _redirect_lock:
        _redirect_depth += 1
        if _redirect_depth > 1:
            return True
        original = module.trace_function
        options = _shadow_options

        def trace_function(args=None, kwargs=None, tracing_options=None):
            if tracing_options is not None and _redirect_depth:
                entry = options.get(id(tracing_options))  # the fast path: decided already
                if entry is not None and entry[0] is tracing_options:
                    tracing_options = entry[1]
                elif tracing_options.function_cache is not None:
                    tracing_options = _shadow(tracing_options)
            return original(args=args, kwargs=kwargs, tracing_options=tracing_options)

        trace_function.__wrapped__ = original
        module.trace_function = trace_function
        _redirect_original = original
        _redirect_select = select
    return True


def restore_trace_caches() -> None:
    """Undo one ``redirect_trace_caches()``; the last one drops every private cache."""
    global _redirect_depth, _redirect_original, _redirect_select
    module = _tracing_module()
    with _redirect_lock:
        if _redirect_depth == 0:
            return
        _redirect_depth -= 1
        if _redirect_depth:
            return
        if module is not None and _redirect_original is not None:
            module.trace_function = _redirect_original
        _redirect_original = None
        _redirect_select = None
        _shadow_options.clear()


def trace_caches_redirected() -> bool:
    return _redirect_depth > 0
