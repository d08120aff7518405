"""``tfdebug doctor``: one screen about this environment and what tfdebug can hook here."""
from __future__ import annotations

import platform
import sys


def facts() -> list[tuple[str, str]]:
    """(name, value) rows: versions, devices, flags, and whether each hook works.

    Each row is read on its own: one that fails says why ("unavailable (Error: ...)") and
    the others are still shown.
    """
    import tensorflow as tf

    from . import _tf
    from ._version import __version__

    def keras_version():
        import keras
        return keras.__version__

    def devices():
        names = [d.name.replace("/physical_device:", "") for d in tf.config.list_physical_devices()]
        return ", ".join(names) or "none"

    def tensorflow():
        supported = "supported" if _tf.version_supported() else (
            "NOT supported: tfdebug supports TensorFlow "
            f"{'.'.join(map(str, _tf.SUPPORTED[0]))}-{'.'.join(map(str, _tf.SUPPORTED[1]))}")
        return f"{tf.__version__} ({supported})"

    rows = [
        ("tfdebug", lambda: __version__),
        ("python", lambda: f"{platform.python_version()} ({sys.executable})"),
        ("tensorflow", tensorflow),
        ("keras", keras_version),
        ("devices", devices),
        ("functions run eagerly", lambda: str(_tf.functions_run_eagerly())),
        ("tf.data debug mode", lambda: str(_tf.data_debug_mode())),
        ("trace hook", lambda: _probe(_trace_hook_works)),
        ("tf.data debug switch scoped", lambda: _probe(_tf.data_debug_mode_scopable)),
    ]
    return [(name, _read(value)) for name, value in rows]


def _read(value) -> str:
    try:
        return value()
    except Exception as exc:  # noqa: BLE001 - doctor reports, never crashes
        return f"unavailable ({_one_line(exc)})"


def _one_line(exc: BaseException) -> str:
    text = str(exc).strip().splitlines()
    return f"{type(exc).__name__}: {text[0][:200]}" if text else type(exc).__name__


def _probe(check) -> str:
    try:
        return "works" if check() else "unavailable"
    except Exception as exc:  # noqa: BLE001
        return f"broken ({_one_line(exc)})"


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
