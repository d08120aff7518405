"""tfdebug: make TensorFlow 2 ``tf.function`` / AutoGraph code debuggable.

Example::

    import tfdebug

    with tfdebug.eager():          # every tf.function runs as plain Python: pdb works
        train_step(x, y)
"""
try:
    import tensorflow as _tensorflow  # noqa: F401 - fail early, with the fix, when missing
except ImportError:  # pragma: no cover - exercised in a venv without TensorFlow
    raise ImportError(
        "tfdebug needs TensorFlow: install it with `pip install 'tfdebug[cpu]'` "
        "(or `pip install 'tfdebug[tf]'` for the GPU build).") from None

__version__ = "0.1.0"

from .eager import eager, eager_mode, graph  # noqa: E402
from .diagnose import diagnose  # noqa: E402
from .explain import explain, install, uninstall  # noqa: E402
from .debugger import breakpoint, debug  # noqa: E402,A004
from .shapes import probe, shape_probe  # noqa: E402
from .compare import compare  # noqa: E402
from .ipython import load_ipython_extension, unload_ipython_extension  # noqa: E402
from .side_effects import side_effect_guard  # noqa: E402
from .printing import ic, print_to_tfprint  # noqa: E402
from .trace_log import RetracingError, TraceEvent, trace_logger  # noqa: E402

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
