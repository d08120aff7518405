"""Every touch of TensorFlow internals lives here, version-gated, with a fallback.

Public TF API is used where it exists (the eager flag, ``tf.inside_function``); private
hooks (the trace hook, the scoped tf.data debug switch) are checked against the
supported versions and degrade to a one-time warning when they are missing.
"""
from __future__ import annotations

import logging
import os
import re
import sys
import threading
import warnings

import tensorflow as tf

log = logging.getLogger("tfdebug")

SUPPORTED = ((2, 16), (2, 21))


def tf_version() -> tuple[int, int]:
    major, minor = tf.__version__.split(".")[:2]
    return int(major), int(minor)


def version_supported() -> bool:
    return SUPPORTED[0] <= tf_version() <= SUPPORTED[1]


_warned: set[str] = set()
_warned_lock = threading.Lock()


def warn_once(key: str, message: str) -> None:
    """Emit ``message`` as a RuntimeWarning once per process for ``key``."""
    with _warned_lock:
        if key in _warned:
            return
        _warned.add(key)
    warnings.warn(message, RuntimeWarning, stacklevel=3)


# -- the eager flag (public API) ------------------------------------------------------

def functions_run_eagerly() -> bool:
    return bool(tf.config.functions_run_eagerly())


def set_functions_run_eagerly(value: bool) -> None:
    tf.config.run_functions_eagerly(bool(value))


def inside_function() -> bool:
    """True while a FuncGraph is being built (tracing), False in eager code."""
    return bool(tf.inside_function())


# -- tf.data debug mode ---------------------------------------------------------------

def _debug_mode_module():
    try:
        from tensorflow.python.data.ops import debug_mode  # TF >= 2.13
    except ImportError:
        return None
    if not hasattr(debug_mode, "toggle_debug_mode") or not hasattr(debug_mode, "DEBUG_MODE"):
        return None
    return debug_mode


def data_debug_mode() -> bool:
    """Whether tf.data runs user functions eagerly (``enable_debug_mode``)."""
    module = _debug_mode_module()
    return bool(module.DEBUG_MODE) if module else False


def data_debug_mode_scopable() -> bool:
    """True when the tf.data switch can be turned off again (private toggle present)."""
    return _debug_mode_module() is not None


def set_data_debug_mode(value: bool) -> None:
    """Turn tf.data debug mode on or off; off needs the private toggle.

    Raises RuntimeError when called while tracing (TF's switch only works eagerly).
    """
    if inside_function():
        raise RuntimeError(
            "eager(data=True) cannot take effect inside a tf.function or a tf.data function: "
            "enter it in eager code, before the tf.data pipeline is built.")
    module = _debug_mode_module()
    if module is not None:
        module.toggle_debug_mode(bool(value))
    elif value:
        tf.data.experimental.enable_debug_mode()
    else:
        warn_once("data-debug-off",
                  f"tf.data debug mode cannot be turned off on TensorFlow {tf.__version__}; "
                  "it stays on for the rest of the process.")


# -- the trace hook -------------------------------------------------------------------
#
# Every tf.function trace (tf.function, Keras train/predict functions, tf.data functions,
# get_concrete_function) goes through tracing_compilation._create_concrete_function in
# TF 2.15+. We replace that module attribute with a wrapper that calls one callback
# around the real call; tracing.py multiplexes that callback to its subscribers.

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
    version = ".".join(map(str, tf_version()))
    if module is None:
        warn_once("trace-hook", f"tfdebug: trace hooks unavailable on TensorFlow {version}; "
                                "tracing is not observed.")
        return False
    if not version_supported():
        warn_once("trace-hook-version", f"tfdebug: TensorFlow {version} is not a supported "
                  "version (2.16-2.21); trace hooks are installed but may misbehave.")
    with _hook_lock:
        if _original_create is not None:
            return True
        _hide_own_frames()
        original = module._create_concrete_function

        def _create_concrete_function(function_type, type_context, func_graph, tracing_options):
            traced = []

            def trace_call():
                traced.append(True)
                return original(function_type, type_context, func_graph, tracing_options)
            try:
                return around_trace(trace_call, function_type, tracing_options)
            except Exception as exc:
                if traced or isinstance(exc, HookRefusal):
                    raise  # the trace's own error, or tfdebug refusing it on purpose
                # a tfdebug bug before the trace began: trace as if tfdebug were not there
                log.debug("tfdebug: the trace hook failed; tracing without it", exc_info=True)
                return original(function_type, type_context, func_graph, tracing_options)

        _create_concrete_function.__wrapped__ = original
        module._create_concrete_function = _create_concrete_function
        _original_create = original
    return True


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
    own = os.path.dirname(os.path.abspath(__file__)) + os.sep
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


# -- locations, caches and failed calls (shape probes, debugger) ----------------------

def _tf_stack_module():
    try:
        from tensorflow.python.util import tf_stack
    except ImportError:
        return None
    return tf_stack if callable(getattr(tf_stack, "extract_stack", None)) else None


def traced_user_location() -> tuple[str, int, str] | None:
    """(file, line, function) of the innermost user line being traced or run.

    While AutoGraph runs converted code, Python frames point into generated files; TF's
    stack mappers translate them back to the user's source, so that is asked first.
    """
    from . import _frames

    tf_stack = _tf_stack_module()
    if tf_stack is not None:
        try:
            for fs in reversed(tf_stack.extract_stack()):
                if _frames.is_user_file(fs.filename):
                    return fs.filename, fs.lineno, fs.name
        except Exception:  # noqa: BLE001 - fall back to plain frames
            log.debug("tfdebug: tf_stack.extract_stack failed", exc_info=True)
    frame = _frames.user_caller(skip=1)
    if frame is None:
        return None
    return frame.f_code.co_filename, frame.f_lineno, frame.f_code.co_name


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


def is_tf_function(obj) -> bool:
    """True for a ``tf.function`` object (not a ConcreteFunction, not a plain callable)."""
    kinds = tuple(getattr(tf.types.experimental, name) for name in
                  ("PolymorphicFunction", "GenericFunction") if hasattr(tf.types.experimental, name))
    return bool(kinds) and isinstance(obj, kinds)


def failed_function_call(exc: BaseException):
    """``(tf_function, args, kwargs)`` of the outermost tf.function call in exc's traceback.

    Nothing is recorded per call: the traceback keeps the frames of the failed call alive,
    and the frame of ``Function.__call__`` (or TF's traceback-filtering wrapper around it,
    which survives filtering) holds the function and the very inputs it was called with.
    Returns None when the error did not come through a tf.function call.
    """
    tb = exc.__traceback__
    while tb is not None:
        found = _call_in_frame(tb.tb_frame)
        if found is not None:
            return found
        tb = tb.tb_next
    return None


def _call_in_frame(frame):
    code = frame.f_code
    if os.sep + "tensorflow" + os.sep not in code.co_filename:
        return None
    try:
        local = frame.f_locals
    except Exception:  # noqa: BLE001
        return None
    if code.co_name == "__call__" and is_tf_function(local.get("self")):
        return local["self"], tuple(local.get("args", ())), dict(local.get("kwds", {}) or {})
    if code.co_name == "error_handler":
        args = local.get("args") or ()
        if args and is_tf_function(args[0]):
            return args[0], tuple(args[1:]), dict(local.get("kwargs", {}) or {})
    return None


_FILE_LINE = re.compile(r'File "([^"]+)", line (\d+), in (\S+)')


def graph_error_locations(exc: BaseException) -> list[tuple[str, int, str]]:
    """User (file, line, function) that a graph-mode error names, innermost first.

    AutoGraph rewrites trace-time errors with the user's source lines ("in user code:"),
    and out-of-scope tensor errors carry the stack where the tensor was defined; both are
    in the message. The traceback's own user frames come last.
    """
    from . import _frames

    found: list[tuple[str, int, str]] = []
    metadata = getattr(exc, "ag_error_metadata", None)
    for fs in reversed(list(getattr(metadata, "translated_stack", None) or [])):
        filename, lineno, name = getattr(fs, "filename", None), getattr(fs, "lineno", None), \
            getattr(fs, "function_name", getattr(fs, "name", ""))
        if _frames.is_user_file(filename) and lineno:
            found.append((filename, int(lineno), name))
    try:
        message = str(exc)
    except Exception:  # noqa: BLE001 - a broken __str__ gives no locations
        message = ""
    for filename, lineno, name in reversed(_FILE_LINE.findall(message)):
        if _frames.is_user_file(filename) and name != "<module>":
            found.append((filename, int(lineno), name))
    tb, frames = exc.__traceback__, []
    while tb is not None:
        if _frames.is_user_frame(tb.tb_frame):
            frames.append((tb.tb_frame.f_code.co_filename, tb.tb_lineno, tb.tb_frame.f_code.co_name))
        tb = tb.tb_next
    found.extend(reversed(frames))
    unique = []
    for item in found:
        if item not in unique:
            unique.append(item)
    return unique


# -- what a trace is of (trace logger) --------------------------------------------------
#
# The trace hook hands over TF's TracingOptions and canonical FunctionType. These helpers
# turn them into plain Python: the user's function and bound object, a key per tf.function
# object, and a neutral description of each argument's TraceType. Every private access
# falls back to a less precise answer instead of raising.

def _unwrap_decorators(fn):
    try:
        from tensorflow.python.util import tf_decorator
        return tf_decorator.unwrap(fn)[1]
    except Exception:  # noqa: BLE001 - older layouts: follow __wrapped__ as functools does
        seen = set()
        while hasattr(fn, "__wrapped__") and id(fn) not in seen:
            seen.add(id(fn))
            fn = fn.__wrapped__
        return fn


def _method_parts(fn):
    """(function, instance) of a bound method; tf.function binds through a weak target."""
    import types

    if not isinstance(fn, types.MethodType):
        return fn, None
    target = fn.__self__
    try:
        from tensorflow.python.eager.polymorphic_function.tf_method_target import TfMethodTarget
        if isinstance(target, TfMethodTarget):
            target = target.target
    except ImportError:
        pass
    return fn.__func__, target


def _data_function(fn):
    """The user's function inside a tf.data wrapper (``Dataset.map(fn)``), or None."""
    if "StructuredFunctionWrapper" not in getattr(fn, "__qualname__", ""):
        return None
    try:
        from tensorflow.python.data.ops.structured_function import StructuredFunctionWrapper
    except ImportError:
        return None
    wrapper = _closure_value(fn, lambda value: isinstance(value, StructuredFunctionWrapper))
    return getattr(wrapper, "_func", None)


def _replica_function(fn):
    """The user's tf.function that ``strategy.run`` re-wrapped to run on each replica."""
    if not getattr(fn, "__qualname__", "").endswith("call_for_each_replica.<locals>.wrapped_fn"):
        return None
    function = _closure_value(fn, is_tf_function)
    return function.python_function if function is not None else None


def _closure_value(fn, wanted):
    """The first value captured by ``fn``'s closure for which ``wanted(value)``, or None."""
    for cell in getattr(fn, "__closure__", None) or ():
        try:
            value = cell.cell_contents
        except ValueError:  # an empty cell
            continue
        if wanted(value):
            return value
    return None


def traced_target(tracing_options) -> tuple[object, object, str]:
    """(function, bound instance or None, kind) of a trace.

    kind is "function", "data" (a tf.data function) or "replica" (a tf.function that
    ``strategy.run`` runs on each replica). The function is the user's own Python function,
    with tf.function's, AutoGraph's, tf.data's and tf.distribute's wrappers removed, so its
    ``__code__`` is the source the user wrote.
    """
    fn = _unwrap_decorators(getattr(tracing_options, "python_function", None))
    kind = "function"
    inner = _data_function(fn)
    if inner is not None:
        fn, kind = _unwrap_decorators(inner), "data"
    else:
        inner = _replica_function(fn)
        if inner is not None:
            fn, kind = _unwrap_decorators(inner), "replica"
    fn, instance = _method_parts(fn)
    return fn, instance, kind


def is_internal_function(fn) -> bool:
    """True for TensorFlow's own bookkeeping functions (variable initializers, ...)."""
    module = getattr(fn, "__module__", None) or ""
    return module.startswith("tensorflow.python.eager")


def trace_scope(tracing_options) -> str:
    """The variable scope of a trace: "VARIABLE_CREATION", "NO_VARIABLE_CREATION" or ""."""
    scope = getattr(tracing_options, "scope_type", None)
    return getattr(scope, "name", "") or ""


def tf_function_key(tracing_options):
    """A hashable key per tf.function object that does not keep the object alive."""
    import weakref

    captures = getattr(tracing_options, "function_captures", None)
    if captures is not None:
        try:
            return weakref.ref(captures)
        except TypeError:
            pass
    return ("cache", id(getattr(tracing_options, "function_cache", None)))


_SPEC_NOISE = re.compile(r"TensorSpec\(shape=(\([^)]*\)|<unknown>), dtype=tf\.(\w+), name=None\)")


def _short_spec(match) -> str:
    return f"{match.group(2)} {match.group(1)}"


def describe_trace_type(trace_type):
    """A TraceType as plain tuples, so callers never touch TF's type classes:

    ("tensor", shape tuple or None, dtype name), ("value", python value),
    ("object", type name, weakref or None, id), ("tuple" | "list", [items]),
    ("namedtuple", type name, [(field, item)]), ("dict", [(key, item)]),
    ("replicated", type name, count, item) for per-replica values whose replicas agree,
    ("spec", text) for anything else.
    """
    try:
        from tensorflow.core.function.trace_type import default_types as dt
    except ImportError:  # pragma: no cover - layout change: compare by text only
        return ("spec", str(trace_type))
    try:
        if isinstance(trace_type, tf.TensorSpec):
            shape = trace_type.shape
            dims = None if shape.rank is None else tuple(shape.as_list())
            return ("tensor", dims, trace_type.dtype.name)
        if isinstance(trace_type, tf.TypeSpec):
            # tf.distribute values (PerReplicaSpec, ...) hold one spec per replica.
            parts = getattr(trace_type, "_component_specs", None)
            if (isinstance(parts, (tuple, list)) and len(parts) > 1
                    and all(isinstance(p, tf.TensorSpec) and p == parts[0] for p in parts)):
                return ("replicated", type(trace_type).__name__.removesuffix("Spec"),
                        len(parts), describe_trace_type(parts[0]))
            return ("spec", _SPEC_NOISE.sub(_short_spec, str(trace_type)))
        if isinstance(trace_type, dt.Literal):
            value = trace_type.value
            if isinstance(value, type) and value.__name__ == "NanMarker":
                value = float("nan")
            return ("value", value)
        if isinstance(trace_type, dt.Weakref):
            ref = trace_type._ref
            obj = ref()
            return ("object", type(obj).__name__ if obj is not None else "object", ref, id(obj))
        if isinstance(trace_type, dt.NamedTuple):
            items = [describe_trace_type(c) for c in trace_type.attributes.components]
            return ("namedtuple", trace_type.type_name, list(zip(trace_type.attribute_names, items)))
        if isinstance(trace_type, dt.Attrs):
            named = trace_type.named_attributes
            items = [describe_trace_type(c) for c in named.attributes.components]
            return ("namedtuple", named.type_name, list(zip(named.attribute_names, items)))
        if isinstance(trace_type, dt.List):
            return ("list", [describe_trace_type(c) for c in trace_type.components_tuple.components])
        if isinstance(trace_type, dt.Tuple):
            return ("tuple", [describe_trace_type(c) for c in trace_type.components])
        if isinstance(trace_type, dt.Dict):
            return ("dict", [(k, describe_trace_type(v)) for k, v in trace_type.mapping.items()])
    except Exception:  # noqa: BLE001 - an unexpected layout degrades to text
        log.debug("tfdebug: cannot describe trace type %r", trace_type, exc_info=True)
    return ("spec", str(trace_type))



# -- side effects and run-time prints (side_effect_guard, print_to_tfprint, ic) ---------
#
# Symbolic tensors formatted into Python strings (f-strings, str.format, str()) are seen
# through a hook on the graph tensor class, installed only while a tfdebug scope needs
# it. print_to_tfprint() gives each tf.function a scope-private trace cache, so the graphs
# it builds (with print ops) are never seen by calls made after the scope.

_GENERATED_MARKER = "__autograph_generated_file"


def is_generated_file(filename: str | None) -> bool:
    """True for the files AutoGraph writes its converted functions to."""
    return bool(filename) and _GENERATED_MARKER in filename


def is_symbolic(value) -> bool:
    """True for a graph (symbolic) tensor, False for eager tensors and everything else."""
    try:
        return bool(tf.is_symbolic_tensor(value))
    except Exception:  # noqa: BLE001 - odd objects are simply not symbolic tensors
        return False


def mapped_location(frame) -> tuple[str, int, str] | None:
    """(file, line, function) the user wrote for ``frame``, or None.

    A frame of AutoGraph-generated code is mapped back to the user's source line.
    """
    filename = frame.f_code.co_filename
    if not is_generated_file(filename):
        return filename, frame.f_lineno, frame.f_code.co_name
    origin = _autograph_source_map().get((filename, frame.f_lineno))
    if origin is None:
        return None
    try:
        return str(origin[0]), int(origin[1]), str(origin[2])
    except (TypeError, ValueError, IndexError):
        return None


def _autograph_source_map() -> dict:
    """{(generated file, line): (user file, line, function)} of the converted code running."""
    try:
        from tensorflow.python.util import tf_stack
        stack = tf_stack._source_mapper_stacks.get(threading.get_ident())
        return dict(stack[-1].get_effective_source_map()) if stack else {}
    except Exception:  # noqa: BLE001 - no map: generated frames stay unmapped
        log.debug("tfdebug: AutoGraph source map unavailable", exc_info=True)
        return {}


def _symbolic_tensor_class():
    try:
        from tensorflow.python.framework.ops import SymbolicTensor  # TF >= 2.14
        return SymbolicTensor
    except ImportError:  # pragma: no cover - older layouts
        return None


_format_lock = threading.Lock()
_format_hooks: tuple = ()
_format_originals: dict = {}


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
                setattr(cls, name, _patched_formatter(name, original))
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


_redirect_lock = threading.Lock()
_redirect_depth = 0
_redirect_original = None
_shadow_options: dict = {}  # id(TracingOptions) -> (original options, shadow options)


def _shadow(tracing_options):
    """The scope-private copy of ``tracing_options``: same function, fresh trace cache."""
    import dataclasses

    key = id(tracing_options)
    entry = _shadow_options.get(key)
    if entry is not None and entry[0] is tracing_options:
        return entry[1]
    from tensorflow.core.function.polymorphism import function_cache as function_cache_lib
    shadow = dataclasses.replace(tracing_options,
                                 function_cache=function_cache_lib.FunctionCache())
    _shadow_options[key] = (tracing_options, shadow)
    return shadow


def redirect_trace_caches() -> bool:
    """Until ``restore_trace_caches()``, every tf.function looks up and stores its traces in
    a private cache: it traces afresh on its first call, and the traces made meanwhile are
    dropped afterwards (calls after the restore use the function's own cache, untouched).
    Nests by count. Returns False when this TensorFlow has no hook point.
    """
    global _redirect_depth, _redirect_original
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

        def trace_function(args=None, kwargs=None, tracing_options=None):
            if tracing_options is not None and tracing_options.function_cache is not None:
                with _redirect_lock:
                    if _redirect_depth:
                        tracing_options = _shadow(tracing_options)
            return original(args=args, kwargs=kwargs, tracing_options=tracing_options)

        trace_function.__wrapped__ = original
        module.trace_function = trace_function
        _redirect_original = original
    return True


def restore_trace_caches() -> None:
    """Undo one ``redirect_trace_caches()``; the last one drops every private cache."""
    global _redirect_depth, _redirect_original
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
        _shadow_options.clear()


def trace_caches_redirected() -> bool:
    return _redirect_depth > 0


def do_not_convert_instance(obj):
    """Mark a callable object so AutoGraph calls it as is (``do_not_convert`` for objects)."""
    try:
        from tensorflow.python.autograph.impl.api import autograph_artifact
        autograph_artifact(obj)
    except Exception:  # noqa: BLE001 - without the mark AutoGraph converts it: still correct
        log.debug("tfdebug: cannot mark %r as not-to-convert", obj, exc_info=True)
    return obj


def function_target(obj) -> tuple[object, object, object]:
    """(Python function, bound instance, tf.function key or None) for what a user names:
    a tf.function (also one bound to an object), a method, or a plain function."""
    key = None
    if is_tf_function(obj):
        captures = getattr(obj, "_function_captures", None)
        if captures is not None:
            import weakref
            key = weakref.ref(captures)
        obj = getattr(obj, "python_function", obj)
    fn, instance = _method_parts(_unwrap_decorators(obj))
    return fn, instance, key


# -- shape probes: XLA and Keras layer calls ------------------------------------------

def trace_uses_xla(tracing_options) -> bool:
    """True when the function being traced is compiled with XLA (no Python ops inside)."""
    attributes = getattr(tracing_options, "attributes", None) or {}
    return bool(attributes.get("_XlaMustCompile", False))


_layer_hook_lock = threading.Lock()
_layer_hook = {"count": 0, "original": None, "cls": None}


def install_layer_call_hook(before, after) -> bool:
    """Wrap ``keras.Layer.__call__`` so ``before(layer, args, kwargs)`` and
    ``after(layer, outputs)`` see every layer call; counted, undone by the last uninstall.

    Returns False when Keras 3 is not installed (layers are then not probed).
    """
    with _layer_hook_lock:
        if _layer_hook["count"]:
            _layer_hook["count"] += 1
            return True
        try:
            import keras
            cls = keras.Layer
        except (ImportError, AttributeError):
            return False
        original = cls.__call__

        def __call__(self, *args, **kwargs):
            before(self, args, kwargs)
            outputs = original(self, *args, **kwargs)
            after(self, outputs)
            return outputs

        __call__.__wrapped__ = original
        cls.__call__ = __call__
        _layer_hook.update(count=1, original=original, cls=cls)
        return True


def layer_call_hooked() -> bool:
    return bool(_layer_hook["count"])


def uninstall_layer_call_hook() -> None:
    with _layer_hook_lock:
        if not _layer_hook["count"]:
            return
        _layer_hook["count"] -= 1
        if not _layer_hook["count"]:
            _layer_hook["cls"].__call__ = _layer_hook["original"]
            _layer_hook.update(original=None, cls=None)


# -- run-time errors of graph ops (error diagnosis) --------------------------------------------

def op_creation_stack(exc: BaseException) -> list[tuple[str, int, str]]:
    """(file, line, function) where the graph op that failed at run time was created.

    Graph-mode (Session, ``tf.compat.v1``) errors carry the failing ``op``, whose
    ``traceback`` is the stack that built it; innermost first. [] when there is none.
    """
    op = getattr(exc, "op", None)
    try:
        stack = list(getattr(op, "traceback", None) or [])
    except Exception:  # noqa: BLE001 - an op from another layout gives no stack
        log.debug("tfdebug: cannot read the op traceback", exc_info=True)
        return []
    out = []
    for frame in reversed(stack[-500:]):
        filename, lineno = getattr(frame, "filename", None), getattr(frame, "lineno", None)
        if isinstance(filename, str) and isinstance(lineno, int):
            out.append((filename, lineno, str(getattr(frame, "name", "") or "")))
    return out


# -- AutoGraph's source maps (tracebacks that show the user's code) ----------------------------
#
# A converted function carries ``ag_source_map`` ({LineLocation(file, line): OriginInfo(loc,
# function_name, source_code_line, comment)}, autograph/impl/api.py and pyct/origin_info.py);
# ``converted_call`` holds it in its local ``converted_f`` while the generated code runs, so
# the frame of that call in a traceback leads to the map of the generated frames below it.

def autograph_source_maps(frame) -> list:
    """The source maps of the converted functions ``frame`` (``converted_call``) was running."""
    try:
        local = frame.f_locals
    except Exception:  # noqa: BLE001 - frames of odd objects have no readable locals
        return []
    maps = []
    for name in ("converted_f", "f", "target_entity"):
        source_map = getattr(local.get(name), "ag_source_map", None)
        if isinstance(source_map, dict) and source_map:
            maps.append(source_map)
    return maps


def autograph_origin(source_maps, filename: str, lineno: int) -> tuple[str, int, str, str] | None:
    """(user file, line, function, source line) a generated ``filename:lineno`` came from."""
    for source_map in reversed(source_maps):
        try:
            origin = source_map.get((filename, lineno))
            if origin is not None:
                return (str(origin.loc.filename), int(origin.loc.lineno), str(origin.function_name),
                        str(origin.source_code_line or "").strip())
        except Exception:  # noqa: BLE001 - another layout of OriginInfo: leave the frame unmapped
            log.debug("tfdebug: unreadable AutoGraph origin", exc_info=True)
    return None
