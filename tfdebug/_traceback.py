"""Tracebacks that show the user's code: AutoGraph's frames mapped back, library frames folded.

Python's own layout (chained exceptions, notes, ``^^^`` markers where Python gives them),
with three changes: a frame of AutoGraph's generated code (``__autograph_generated_file*``,
``tf__name``) is shown as the user's file, line and source it came from (AutoGraph's source
map); a run of TensorFlow/Keras frames is folded into one line naming where it raised; and
the machinery around the user's code (tfdebug, runpy, IPython, pytest: ``_frames.machinery``)
is left out where it starts the stack and folded with the library frames elsewhere. The stacks
TensorFlow writes into a message ("... was defined here:") are folded the same way. Only the
text changes: the exception object, its class and attributes are the user's. Never raises: on
an internal failure the plain Python traceback is returned.

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
from ._frames import is_user_file, machinery, package_of

log = logging.getLogger("tfdebug")

_CHAIN_LIMIT = 16


class _Stack(traceback.StackSummary):
    """A stack already rendered to lines (what TracebackException.format prints)."""

    def format(self):
        return list(self)


def _frame_text(filename: str, lineno: int, name: str, source: str, note: str = "") -> str:
    text = f'  File "{filename}", line {lineno}, in {name}{note}\n'
    return text + (f"    {source}\n" if source else "")


def _label(filename: str) -> str:
    return (machinery(filename) or library_module(filename).split("/")[0] or package_of(filename)
            or ("AutoGraph-generated code" if _tf.is_generated_file(filename) else os.path.basename(filename)))


def fold_line(filenames: list, indent: str = "  ", where: str = "") -> str:
    """The one line that stands for a run of frames: ``[... 3 frames of runpy, tfdebug hidden]``."""
    count = f"{len(filenames)} frame{'s' if len(filenames) > 1 else ''}"
    packages = ", ".join(sorted(set(map(_label, filenames)), key=str.lower))
    return f"{indent}[... {count} of {packages} hidden{'; innermost: ' + where if where else ''}]"


def _fold_text(frames: list) -> str:
    frame, lineno = frames[-1]
    where = ""
    if library_module(frame.f_code.co_filename) or _tf.is_generated_file(frame.f_code.co_filename):
        module = library_module(frame.f_code.co_filename) or os.path.basename(frame.f_code.co_filename)
        where = f"{module}:{lineno} in {frame.f_code.co_name}"
    return fold_line([f.f_code.co_filename for f, _ in frames], where=where) + "\n"


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
        if machinery(filename):
            if lines or folded:  # outermost (the launcher, runpy, IPython's run_code): left out
                folded.append((frame, lineno))  # as python starts at the script
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


# A frame line of a stack TensorFlow writes into a message ("defined at (most recent call
# last):", "... was defined here:"), optionally followed by its source or a blank line.
_MESSAGE_FRAME = re.compile(r'^(\s*)File "([^"\n]+)", line \d+, in ')


def fold_message_stacks(message: str) -> str:
    """``message`` with the machinery's frames (tfdebug, runpy, IPython, ipykernel, pytest,
    pluggy, a console script) folded to one line in the stacks TensorFlow writes into it:
    the op-definition stack of a run-time error, "... was defined here:" of a graph error.
    Library frames between two machinery frames (asyncio, tornado in a kernel) fold with them.
    """
    if not isinstance(message, str) or 'File "' not in message:
        return message
    lines = message.split("\n")
    frames = []  # (first line, last line + 1, filename, indent)
    index = 0
    while index < len(lines):
        match = _MESSAGE_FRAME.match(lines[index])
        if match is None:
            index += 1
            continue
        end = index + 1
        if end < len(lines) and not _MESSAGE_FRAME.match(lines[end]) and (
                not lines[end].strip() or lines[end].startswith(match.group(1) + " ")):
            end += 1  # its source line, or the blank line TF writes after each frame
        frames.append((index, end, match.group(2), match.group(1)))
        index = end
    if not any(machinery(f[2]) for f in frames):
        return message
    replace = {}  # first line -> (last line + 1, text)
    run: list = []

    def close():
        while run and not machinery(run[-1][2]):
            run.pop()  # a run ends at its last machinery frame
        if run:
            tail = lines[run[-1][1] - 1] if run[-1][1] - run[-1][0] > 1 else None
            text = fold_line([f[2] for f in run], run[0][3])
            replace[run[0][0]] = (run[-1][1], text if tail is None or tail.strip() else text + "\n" + tail)
        run.clear()

    previous_end = None
    for frame in frames:
        if previous_end != frame[0]:
            close()  # frames of another stack
        user = is_user_file(frame[2]) and not machinery(frame[2])
        if user:
            close()
        elif run or machinery(frame[2]):
            run.append(frame)
        previous_end = frame[1]
    close()
    out, index = [], 0
    while index < len(lines):
        if index in replace:
            end, text = replace[index]
            out.append(text)
            index = end
        else:
            out.append(lines[index])
            index += 1
    return "\n".join(out)


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
                item._str = fold_message_stacks(item._str)
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


__all__ = ["fold_line", "fold_message_stacks", "format_exception", "involves_tensorflow", "source_maps", "stack_lines"]
