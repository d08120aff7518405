"""tfdebug: make TensorFlow 2 ``tf.function`` / AutoGraph code debuggable.

The package face is lazy (PEP 562): ``import tfdebug`` imports no TensorFlow, so ``tfdebug
lint``, ``tfdebug recipes`` and ``tfdebug explain`` work where TensorFlow is not installed.
TensorFlow is imported when a runtime feature (``tfdebug.eager``, ``tfdebug.explain``, ...)
is first used; without it, that use says what to install.

Example::

    import tfdebug

    with tfdebug.eager():          # every tf.function runs as plain Python: pdb works
        train_step(x, y)
"""
import importlib

from ._version import __version__

# public name -> the module that defines it (imported on first use)
_RUNTIME = {
    "eager": "modes", "eager_mode": "modes", "graph": "modes",
    "diagnose": "diagnosis",
    "explain": "explainer", "install": "explainer", "uninstall": "explainer",
    "breakpoint": "debugger", "debug": "debugger",
    "probe": "shapes", "shape_probe": "shapes",
    "compare": "comparison",
    "load_ipython_extension": "ipython", "unload_ipython_extension": "ipython",
    "side_effect_guard": "side_effects",
    "ic": "printing", "print_to_tfprint": "printing",
    "trace_logger": "trace_log", "TraceEvent": "trace_log", "RetracingError": "trace_log",
}

__all__ = [
    "__version__",
    "eager",
    "eager_mode",
    "graph",
    "diagnose",
    "explain",
    "install",
    "uninstall",
    "breakpoint",
    "debug",
    "probe",
    "shape_probe",
    "compare",
    "load_ipython_extension",
    "unload_ipython_extension",
    "side_effect_guard",
    "print_to_tfprint",
    "ic",
    "trace_logger",
    "TraceEvent",
    "RetracingError",
]


def _load(name: str):
    try:
        module = importlib.import_module(f"{__name__}.{_RUNTIME[name]}")
    except ModuleNotFoundError as exc:
        if (exc.name or "").split(".")[0] in ("tensorflow", "keras"):
            from ._install import needs_tensorflow
            raise ImportError(needs_tensorflow(f"tfdebug.{name}")) from None
        raise
    value = getattr(module, name)
    globals()[name] = value
    return value


def __getattr__(name: str):
    if name in _RUNTIME:
        return _load(name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def __dir__():
    return sorted(set(globals()) | set(__all__))
