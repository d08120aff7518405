"""How many calls a tf.function served since its last trace: TensorFlow's own count.

TensorFlow counts every eager call of a ``tf.function`` for its frequent-retracing warning
(``_FrequentTracingDetector`` in polymorphic_function.py, TF 2.16-2.21): keyed by the code of
the unwrapped Python function, ``_calls_per_tracings[-1]`` is the number of calls since the
latest trace, that tracing call included. Reading it costs nothing per call; a warning that
needs "the graph ran after X" reads it at X and later. None when this TensorFlow keeps no
such count: then nothing is proven and nothing is claimed.
"""
from __future__ import annotations

from .versions import log


def stats_key(python_function):
    """The key TensorFlow counts the calls of a tf.function wrapping ``python_function`` by."""
    target = python_function
    seen = set()
    while hasattr(target, "__wrapped__") and id(target) not in seen:
        seen.add(id(target))
        target = target.__wrapped__
    target = getattr(target, "__func__", target)
    return getattr(target, "__code__", None)


def calls_since_trace(key) -> int | None:
    """Calls served since the latest trace of the tf.functions counted by ``key`` (the tracing
    call included), or None when unknown."""
    if key is None:
        return None
    try:
        from tensorflow.python.eager.polymorphic_function import polymorphic_function as pf
        manager = pf._frequent_tracing_detector_manager
        with manager._lock:
            detector = manager._detectors.get(key)
            history = detector._calls_per_tracings if detector is not None else None
            return int(history[-1]) if history else 0
    except Exception:  # noqa: BLE001 - no count on this TensorFlow: no claim
        log.debug("tfdebug: TensorFlow's call count is unavailable", exc_info=True)
        return None
