"""The frames TensorFlow's and Keras' traceback filters drop, kept for the diagnosis.

TensorFlow's public APIs (``tensorflow/python/util/traceback_utils.py``) and Keras'
(``keras/src/utils/traceback_utils.py``) re-raise every exception with their own frames
removed (``_process_traceback_frames``). The user's traceback is shorter; but the frame
that raised, TensorFlow's raise site, is gone, and the raise site is what says which check
refused (a ``tf.distribute`` merge point, a loop-variable check). While recording (a tfdebug
scope that explains errors), each filter's result is remembered with what it was given, and
:func:`unfiltered_frames` splices the dropped frames back. The user's exception and its
traceback are left exactly as the filters made them.

Example::

    record_hidden_frames()
    try:
        step(x)
    except Exception as exc:
        frames = unfiltered_frames(exc)   # [(frame, lineno), ...], outermost first
    finally:
        stop_recording_hidden_frames()
"""
from __future__ import annotations

import collections
import importlib
import threading

from .versions import log

# Modules whose ``_process_traceback_frames(tb) -> tb`` drops frames of their library.
_FILTERS = ("tensorflow.python.util.traceback_utils", "keras.src.utils.traceback_utils")
_KEPT_MAX = 16  # the exceptions of one failure pass a few filters; older ones are let go

_kept: "collections.OrderedDict[int, tuple]" = collections.OrderedDict()
_lock = threading.Lock()
_installed = {"count": 0, "originals": {}}


def _keeping(original):
    def _process_traceback_frames(tb):
        filtered = original(tb)
        try:
            if filtered is not None and filtered is not tb:
                with _lock:
                    _kept[id(filtered)] = (filtered, tb)
                    while len(_kept) > _KEPT_MAX:
                        _kept.popitem(last=False)
        except Exception:  # noqa: BLE001 - keeping must never change what the filter returns
            log.debug("tfdebug: cannot keep a filtered traceback", exc_info=True)
        return filtered
    _process_traceback_frames.tfdebug_original = original
    return _process_traceback_frames


def _filter_modules() -> list:
    modules = []
    for name in _FILTERS:
        try:
            module = importlib.import_module(name)
        except Exception:  # noqa: BLE001 - a layout without this filter: nothing to keep
            continue
        current = getattr(module, "_process_traceback_frames", None)
        code = getattr(current, "__code__", None) or getattr(
            getattr(current, "tfdebug_original", None), "__code__", None)
        if code is not None and code.co_argcount == 1:
            modules.append(module)
    return modules


def record_hidden_frames() -> bool:
    """Start keeping what the traceback filters drop (nested calls count); False when
    neither filter of the known shape is there (the filtered traceback is all there is)."""
    with _lock:
        if _installed["count"] == 0:
            modules = _filter_modules()
            if not modules:
                return False
            for module in modules:
                original = module._process_traceback_frames
                _installed["originals"][module] = original
                module._process_traceback_frames = _keeping(original)
        _installed["count"] += 1
    return True


def stop_recording_hidden_frames() -> None:
    """Undo one :func:`record_hidden_frames`; the last one puts the filters back (one
    replaced since by someone else is left alone) and lets the kept tracebacks go."""
    with _lock:
        if _installed["count"] == 0:
            return
        _installed["count"] -= 1
        if _installed["count"]:
            return
        for module, original in _installed["originals"].items():
            current = getattr(module, "_process_traceback_frames", None)
            if getattr(current, "tfdebug_original", None) is original:
                module._process_traceback_frames = original
        _installed["originals"] = {}
        _kept.clear()


def unfiltered_frames(exc: BaseException, limit: int = 2000) -> list[tuple[object, int]]:
    """``(frame, lineno)`` of ``exc``'s traceback, outermost first, with the frames each
    filter dropped put back where it dropped them (the traceback as it is when none was
    kept)."""
    out, tb, splices = [], getattr(exc, "__traceback__", None), 0
    while tb is not None and len(out) < limit:
        kept = _kept.get(id(tb)) if _kept else None
        if kept is not None and kept[0] is tb and splices < 64:
            tb, splices = kept[1], splices + 1  # what the filter was given, from here down
            if out and tb is not None and tb.tb_frame is out[-1][0]:
                tb = tb.tb_next  # the filter's own frame: already there, re-raising
            continue
        out.append((tb.tb_frame, tb.tb_lineno))
        tb = tb.tb_next
    return out
