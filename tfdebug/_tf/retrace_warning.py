"""TensorFlow's own "N out of the last N calls to F triggered tf.function retracing" warning.

TensorFlow logs it (on its "tensorflow" logger) from
``polymorphic_function._FrequentTracingDetector.called_with_tracing`` in TF 2.16-2.21, after
the call that traced; the Python function it names is that frame's ``function_name``. Where
that method is missing, :func:`warned_function` finds nothing and nothing is filtered.
"""
from __future__ import annotations

import logging
import sys


def _detector_code():
    try:
        from tensorflow.python.eager.polymorphic_function import polymorphic_function
        return polymorphic_function._FrequentTracingDetector.called_with_tracing.__code__
    except (ImportError, AttributeError):
        return None


def warned_function(record: logging.LogRecord):
    """The Python function TensorFlow's frequent-retracing warning names, when ``record`` is
    that warning being logged right now (read off TF's frame); else None."""
    if record.name != "tensorflow" or record.levelno != logging.WARNING:
        return None
    code = _detector_code()
    frame = sys._getframe(1) if code is not None else None
    while frame is not None:
        if frame.f_code is code:
            return frame.f_locals.get("function_name")
        frame = frame.f_back
    return None


def tensorflow_logger() -> logging.Logger:
    """The logger TensorFlow writes its Python warnings to."""
    return logging.getLogger("tensorflow")
