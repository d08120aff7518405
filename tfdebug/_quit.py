"""Quitting a debugger is the user's choice, not an error: one line, never a diagnosis.

``q`` at a pdb prompt raises ``bdb.BdbQuit``; ``q`` at a ``tfdebug.breakpoint()`` inside a
graph aborts the call, which reaches the caller as TensorFlow's error carrying
:data:`ABORTED` (the text tfdebug's own ``DebuggerQuit`` raised in the graph).
"""
from __future__ import annotations

import os

from ._extract import safe_str

ABORTED = "tfdebug.breakpoint: the call was aborted with `q` at "


def quit_line(exc: BaseException) -> str | None:
    """The one line to show for an exception that is a debugger quit, else None.

    Example::

        quit_line(bdb.BdbQuit())   # 'tfdebug: quit from the debugger (q)'
    """
    seen, current = set(), exc
    while isinstance(current, BaseException) and id(current) not in seen and len(seen) < 8:
        seen.add(id(current))
        names = {c.__name__ for c in type(current).__mro__}
        if "BdbQuit" in names:
            return "tfdebug: quit from the debugger (q)"
        where = _aborted_at(current)
        if where is not None:
            return f"tfdebug.breakpoint: quit with `q` at {where}; the call was aborted"
        current = current.__cause__ if current.__cause__ is not None else current.__context__
    return None


def _aborted_at(exc: BaseException) -> str | None:
    text = safe_str(exc)  # a broken __str__ (even one raising KeyboardInterrupt) is no quit
    start = text.find(ABORTED)
    if start < 0:
        return None
    rest = text[start + len(ABORTED):]
    end = rest.find(". Use `c`")
    where = rest[:end] if end > 0 else rest.splitlines()[0]
    place, sep, function = where.rpartition(" in ")
    path, colon, line = place.rpartition(":")
    if not (sep and colon):
        return where
    try:  # below the working directory: relative, as diagnoses name files
        relative = os.path.relpath(path)
        path = path if relative.startswith("..") else relative
    except ValueError:
        pass
    return f"{path}:{line} in {function}"


def is_quit(exc: BaseException) -> bool:
    """True when ``exc`` is (or was caused by) the user quitting a debugger."""
    return quit_line(exc) is not None
