"""Tracebacks that show the user's code: AutoGraph's frames mapped back, library frames folded.

Python's own layout (chained exceptions, notes, ``^^^`` markers where Python gives them),
with three changes: a frame of AutoGraph's generated code (``__autograph_generated_file*``,
``tf__name``) is shown as the user's file, line and source it came from (AutoGraph's source
map); a run of TensorFlow/Keras frames is folded into one line naming where it raised; and
tfdebug's own frames and runpy's are left out. Only the text changes: the exception object,
its class and attributes are the user's. Never raises: on an internal failure the plain
Python traceback is returned.

Example::

    import sys
    from tfdebug import _traceback
    try:
        train_step(x, y)
    except Exception as exc:
        sys.stderr.write(_traceback.format_exception(exc))
"""
from __future__ import annotations

import linecache
import logging
import os
import re
import traceback

from . import _tf
from ._extract import library_module

log = logging.getLogger("tfdebug")

_TFDEBUG_DIR = os.path.dirname(os.path.abspath(__file__))
_CHAIN_LIMIT = 16


def _own_frame(filename: str) -> bool:
    """tfdebug's frames and runpy's: the machinery around the user's script."""
    return (os.path.abspath(filename).startswith(_TFDEBUG_DIR + os.sep)
            or os.path.basename(filename) == "runpy.py" or filename.startswith("<frozen runpy"))


class _Stack(traceback.StackSummary):
    """A stack already rendered to lines (what TracebackException.format prints)."""

    def format(self):
        return list(self)


def _frame_text(filename: str, lineno: int, name: str, source: str, note: str = "") -> str:
    text = f'  File "{filename}", line {lineno}, in {name}{note}\n'
    return text + (f"    {source}\n" if source else "")


def _fold_text(frames: list) -> str:
    packages = sorted({library_module(f.f_code.co_filename).split("/")[0] or "AutoGraph-generated code"
                       for f, _ in frames})
    frame, lineno = frames[-1]
    module = library_module(frame.f_code.co_filename) or os.path.basename(frame.f_code.co_filename)
    where = f"{module}:{lineno} in {frame.f_code.co_name}"
    count = f"{len(frames)} frame{'s' if len(frames) > 1 else ''}"
    return f"  [... {count} of {', '.join(packages)} hidden; innermost: {where}]\n"


def _walk(tb):
    count = 0
    while tb is not None and count < 4000:
        yield tb.tb_frame, tb.tb_lineno
        tb, count = tb.tb_next, count + 1


def source_maps(exc: BaseException) -> list:
    """AutoGraph's source maps reachable from ``exc`` and its chain (TensorFlow's traceback
    filtering drops ``converted_call`` from the outer exception, not from the inner one)."""
    maps, current, seen = [], exc, set()
    while isinstance(current, BaseException) and id(current) not in seen and len(seen) < _CHAIN_LIMIT:
        seen.add(id(current))
        for frame, _ in _walk(current.__traceback__):
            if library_module(frame.f_code.co_filename):
                maps.extend(_tf.autograph_source_maps(frame))
        current = current.__cause__ if current.__cause__ is not None else current.__context__
    return maps


def stack_lines(tb, maps=()) -> list[str]:
    """The rendered frames of traceback ``tb``: user code shown, library runs folded."""
    lines, folded, maps = [], [], list(maps)
    for frame, lineno in _walk(tb):
        filename = frame.f_code.co_filename
        if library_module(filename):
            maps.extend(_tf.autograph_source_maps(frame))
        if _own_frame(filename):
            continue
        origin = _tf.autograph_origin(maps, filename, lineno) if _tf.is_generated_file(filename) else None
        if library_module(filename) or (_tf.is_generated_file(filename) and origin is None):
            folded.append((frame, lineno))
            continue
        if folded:
            lines.append(_fold_text(folded))
            folded = []
        if origin is not None:
            user_file, user_line, name, source = origin
            lines.append(_frame_text(user_file, user_line, name, source, "  (converted by AutoGraph)"))
        else:
            source = linecache.getline(filename, lineno, frame.f_globals).strip()
            lines.append(_frame_text(filename, lineno, frame.f_code.co_name, source))
    if folded:
        lines.append(_fold_text(folded))
    return lines


_LIBRARY_MARKS = (f"{os.sep}tensorflow{os.sep}", f"{os.sep}keras{os.sep}", "__autograph_generated_file")


def involves_tensorflow(exc: BaseException) -> bool:
    """Whether a frame of ``exc`` or its chain is TensorFlow's, Keras' or AutoGraph's (else
    python's own traceback is already the user's code, and is printed as python prints it)."""
    seen, pending = set(), [exc]
    while pending and len(seen) < _CHAIN_LIMIT:
        error = pending.pop()
        if error is None or id(error) in seen:
            continue
        seen.add(id(error))
        tb = error.__traceback__
        while tb is not None:
            if any(mark in tb.tb_frame.f_code.co_filename for mark in _LIBRARY_MARKS):
                return True
            tb = tb.tb_next
        pending += [error.__cause__, error.__context__]
    return False


# A frame of the op-definition stack TensorFlow writes into a run-time error's message.
_MESSAGE_FRAME = re.compile(r'  File "([^"\n]+)", line \d+, in [^\n]*\n(?:\n|    [^\n]*\n)?')


def without_own_frames(message: str) -> str:
    """``message`` with tfdebug's and runpy's frames left out of the op-definition stack
    TensorFlow writes into it ("Detected at node X defined at (most recent call last):")."""
    if "defined at (most recent call last):" not in message:
        return message
    return _MESSAGE_FRAME.sub(lambda m: "" if _own_frame(m.group(1)) else m.group(0), message)


def format_exception(exc: BaseException) -> str:
    """The traceback of ``exc`` and its chain as text (see the module docstring)."""
    try:
        report = traceback.TracebackException.from_exception(exc)
        maps = source_maps(exc)
        pending, seen = [(report, exc)], set()
        while pending and len(seen) < _CHAIN_LIMIT:
            item, error = pending.pop()
            if id(item) in seen or error is None:
                continue
            seen.add(id(item))
            item.stack = _Stack(stack_lines(error.__traceback__, maps))
            if isinstance(getattr(item, "_str", None), str):
                item._str = without_own_frames(item._str)
            for name in ("__cause__", "__context__"):
                if getattr(item, name, None) is not None:
                    pending.append((getattr(item, name), getattr(error, name, None)))
            for sub_item, sub_error in zip(getattr(item, "exceptions", None) or [],
                                           getattr(error, "exceptions", None) or []):
                pending.append((sub_item, sub_error))
        return "".join(report.format())
    except Exception:  # noqa: BLE001 - the plain traceback is always better than none
        log.debug("tfdebug: formatting the traceback failed", exc_info=True)
        return "".join(traceback.format_exception(type(exc), exc, exc.__traceback__))


__all__ = ["format_exception", "involves_tensorflow", "source_maps", "stack_lines"]
