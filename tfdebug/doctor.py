"""``tfdebug doctor``: one screen about this environment and what tfdebug can hook here."""
from __future__ import annotations

import platform
import sys


def facts() -> list[tuple[str, str]]:
    """(name, value) rows: versions, devices, flags, and whether each hook works."""
    import tensorflow as tf

    from . import _tf
    from ._version import __version__

    try:
        import keras
        keras_version = keras.__version__
    except Exception as exc:  # noqa: BLE001 - doctor reports, never crashes
        keras_version = f"unavailable ({type(exc).__name__})"
    devices = ", ".join(d.name.replace("/physical_device:", "") for d in tf.config.list_physical_devices())
    supported = "supported" if _tf.version_supported() else (
        "NOT supported: tfdebug supports TensorFlow "
        f"{'.'.join(map(str, _tf.SUPPORTED[0]))}-{'.'.join(map(str, _tf.SUPPORTED[1]))}")
    return [
        ("tfdebug", __version__),
        ("python", f"{platform.python_version()} ({sys.executable})"),
        ("tensorflow", f"{tf.__version__} ({supported})"),
        ("keras", keras_version),
        ("devices", devices or "none"),
        ("functions run eagerly", str(_tf.functions_run_eagerly())),
        ("tf.data debug mode", str(_tf.data_debug_mode())),
        ("trace hook", _probe(_trace_hook_works)),
        ("tf.data debug switch scoped", _probe(_tf.data_debug_mode_scopable)),
    ]


def _probe(check) -> str:
    try:
        return "works" if check() else "unavailable"
    except Exception as exc:  # noqa: BLE001
        return f"broken ({type(exc).__name__}: {exc})"


def _trace_hook_works() -> bool:
    """Trace a throwaway function with a subscriber and see that the hook fired."""
    import tensorflow as tf

    from . import tracing

    seen = []
    with tracing.subscribed(lambda trace: seen.append(trace.name)):
        tf.function(lambda x: x + 1).get_concrete_function(tf.TensorSpec([], tf.float32))
    return bool(seen)


def render() -> str:
    rows = facts()
    width = max(len(name) for name, _ in rows)
    return "\n".join(f"{name:<{width}}  {value}" for name, value in rows)
