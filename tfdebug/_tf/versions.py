"""Which TensorFlow is loaded, whether it is supported, and one-time warnings for missing hooks."""
from __future__ import annotations

import logging
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
