"""TensorFlow's global switches: the eager flag and the tf.data debug mode.

The eager flag is public API; turning the tf.data switch off again needs its private toggle.
"""
from __future__ import annotations

import tensorflow as tf

from .versions import warn_once


def functions_run_eagerly() -> bool:
    return bool(tf.config.functions_run_eagerly())


def set_functions_run_eagerly(value: bool) -> None:
    tf.config.run_functions_eagerly(bool(value))


def inside_function() -> bool:
    """True while a FuncGraph is being built (tracing), False in eager code."""
    return bool(tf.inside_function())


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
