"""tfdebug: make TensorFlow 2 ``tf.function`` / AutoGraph code debuggable.

The package face is lazy (PEP 562): ``import tfdebug`` imports no TensorFlow, so ``tfdebug
lint``, ``tfdebug recipes`` and ``tfdebug explain`` work with a plain ``pip install tfdebug``.
TensorFlow is imported when a runtime feature (``tfdebug.eager``, ``tfdebug.explain``, ...)
is first used; without it, that use says which extra to install.

Example::

    import tfdebug

    with tfdebug.eager():          # every tf.function runs as plain Python: pdb works
        train_step(x, y)
"""
import importlib
import sys
import types

from ._version import __version__

# public name -> the module that defines it (imported on first use)
_RUNTIME = {
    "eager": "eager", "eager_mode": "eager", "graph": "eager",
    "diagnose": "diagnose",
    "explain": "explain", "install": "explain", "uninstall": "explain",
    "breakpoint": "debugger", "debug": "debugger",
    "probe": "shapes", "shape_probe": "shapes",
    "compare": "compare",
    "load_ipython_extension": "ipython", "unload_ipython_extension": "ipython",
    "side_effect_guard": "side_effects",
    "ic": "printing", "print_to_tfprint": "printing",
    "trace_logger": "trace_log", "TraceEvent": "trace_log", "RetracingError": "trace_log",
}

NEEDS_TENSORFLOW = ("{what} needs TensorFlow: install it with "
                    "`pip install 'tfdebug[cpu]'` (or `pip install 'tfdebug[tf]'` for the GPU "
                    "build).")

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


_RUNTIME_MODULES = frozenset(_RUNTIME.values()) | {"_tf", "tracing"}
_completing = []


def _complete() -> None:
    """Bind every runtime name at once, as soon as one runtime module is imported.

    That module has imported TensorFlow, so the rest costs little; afterwards the face holds
    what an eager face would (``tfdebug.diagnose``, ``sys.modules["tfdebug.explain"]``, ...).
    """
    if _completing:
        return
    _completing.append(True)
    try:
        for name in _RUNTIME:
            if name not in globals():
                _load(name)
    finally:
        _completing.clear()


def _load(name: str):
    try:
        module = importlib.import_module(f"{__name__}.{_RUNTIME[name]}")
    except ModuleNotFoundError as exc:
        if (exc.name or "").split(".")[0] in ("tensorflow", "keras"):
            raise ImportError(NEEDS_TENSORFLOW.format(what=f"tfdebug.{name}")) from None
        raise
    value = getattr(module, name)
    globals()[name] = value
    _complete()
    return value


def __getattr__(name: str):
    if name in _RUNTIME:
        return _load(name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def __dir__():
    return sorted(set(globals()) | set(__all__))


class _Face(types.ModuleType):
    """Keeps ``tfdebug.eager`` (and explain, diagnose, compare) the public function.

    Importing the submodule ``tfdebug.eager`` makes Python set the package attribute
    ``eager`` to that module; the face stores the function the name stands for instead, as
    the eager ``from .eager import eager`` of earlier versions did.
    """

    def __setattr__(self, name, value):
        if name in _RUNTIME and isinstance(value, types.ModuleType) and \
                value.__name__ == f"{__name__}.{name}" and hasattr(value, name):
            value = getattr(value, name)
        super().__setattr__(name, value)
        if name in _RUNTIME_MODULES and not _importing():
            _complete()


def _importing() -> bool:
    """Is a tfdebug module still being imported? (Then the face completes when it is done:
    Python sets the package attribute of each submodule after running it.)"""
    return any(getattr(getattr(module, "__spec__", None), "_initializing", False)
               for key, module in list(sys.modules.items()) if key.startswith(__name__ + "."))


sys.modules[__name__].__class__ = _Face
