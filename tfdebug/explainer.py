"""Explain errors where they surface: the ``explain()`` scope and the global hooks.

``explain()`` adds the diagnosis to an exception as a PEP 678 note and lets the *same*
object propagate (class, args, ``__cause__`` untouched). Where AutoGraph turned the user's
own exception into ``StagingError``, the user's original exception is raised instead, with
the note. ``install()`` does the same for uncaught errors: ``sys.excepthook``,
``threading.excepthook`` and, under IPython, a custom exception handler. ``TFDEBUG=off``
turns all of it off.

Example::

    import tfdebug

    with tfdebug.explain():           # or @tfdebug.explain() on a function
        train_step(x, y)              # a failure gets a "tfdebug TFD101 ..." note

    tfdebug.install()                 # uncaught errors everywhere get the note
"""
from __future__ import annotations

import logging
import os
import sys
import threading

from ._scope import Scope, run_all

log = logging.getLogger("tfdebug")

__all__ = ["annotate", "disabled", "explain", "install", "installed", "uninstall"]

_NOTE_PREFIX = "tfdebug"
_STAGING = "StagingError"


def disabled() -> bool:
    """True when ``TFDEBUG=off`` (or 0/false/no): tfdebug leaves errors alone."""
    return os.environ.get("TFDEBUG", "").strip().lower() in ("off", "0", "false", "no")


def _has_note(exc: BaseException) -> bool:
    notes = getattr(exc, "__notes__", None)
    return isinstance(notes, list) and any(isinstance(n, str) and n.startswith(_NOTE_PREFIX) for n in notes)


def _takes_notes(exc: BaseException) -> bool:
    """False when ``__notes__`` is set to something other than a list: add_note refuses it."""
    try:
        return isinstance(exc.__dict__.get("__notes__", []), list)
    except Exception:  # noqa: BLE001
        return False


def _staged_original(exc: BaseException) -> BaseException | None:
    """The user's own exception that AutoGraph replaced with StagingError, or None."""
    try:
        if _STAGING not in {c.__name__ for c in type(exc).__mro__}:
            return None
        original = exc.__context__
        if not isinstance(original, Exception) or type(original).__module__.startswith(("tensorflow", "keras")):
            return None
        return original
    except Exception:  # noqa: BLE001
        return None


def annotate(exc: BaseException):
    """Add the diagnosis note; return ``(exception to raise, Diagnosis or None)``.

    The exception to raise is ``exc`` itself, or the user's original exception where
    AutoGraph wrapped it in StagingError. Never raises; does nothing when disabled.
    """
    target, diagnosis = exc, None
    if disabled():
        return exc, None
    try:
        from .diagnosis import diagnose

        original = _staged_original(exc)
        if original is not None:
            target = original
        diagnosis = diagnose(exc) or (diagnose(original) if original is not None else None)
        if _has_note(target) or not _takes_notes(target):
            return target, diagnosis
        if diagnosis is not None:
            target.add_note(diagnosis.note())
        elif original is not None:
            target.add_note(_staging_note(exc, original))
    except Exception:  # noqa: BLE001 - never break the user's error
        log.debug("tfdebug: could not annotate %s", type(exc).__name__, exc_info=True)
        return exc, None
    return target, diagnosis


def _staging_note(staging: BaseException, original: BaseException) -> str:
    from .diagnosis import extract
    from .render import display_path

    where = next((loc for locs in extract(staging).locations for loc in locs), None)
    at = f" at {display_path(where.file)}:{where.line} in {where.function}" if where else ""
    return (f"tfdebug: {type(original).__name__} was raised while tracing{at}; "
            f"AutoGraph reported it as {type(staging).__name__}")


class explain(Scope):  # noqa: N801 - used like a function: ``with tfdebug.explain():``
    """Diagnose errors raised inside: the same exception propagates, with a tfdebug note.

    Example::

        @tfdebug.explain()
        def main():
            train_step(x, y)
    """

    def _enter(self):
        from . import _tf, tracing
        # AutoGraph's declines, recorded while tracing; the frames TF's filters drop; the
        # Python function of each graph traced (a leaked input names only its graph)
        declines = _tf.record_declines()
        try:
            frames = _tf.record_hidden_frames()
            try:
                tracing.remember_graphs()
            except BaseException:
                if frames:
                    _tf.stop_recording_hidden_frames()
                raise
        except BaseException:
            if declines:
                _tf.stop_recording_declines()
            raise
        return declines, frames

    def _exit(self, token, exc):
        __tracebackhide__ = True
        try:
            if exc is None or not isinstance(exc, Exception):
                return None
            target, _ = annotate(exc)  # while the dropped frames are still kept
            return target  # the user's own exception where AutoGraph raised StagingError
        finally:
            from . import _tf, tracing
            declines, frames = token
            run_all(lambda: declines and _tf.stop_recording_declines(),
                    lambda: frames and _tf.stop_recording_hidden_frames(),
                    tracing.forget_graphs)


# -- global hooks ----------------------------------------------------------------------------

_lock = threading.Lock()
_saved: dict[str, object] = {}  # what install() replaced: "sys", "threading", "ipython"


def _quit_shown(exc, stream=None) -> bool:
    """A debugger quit (``q``) is shown as one line; True when it was."""
    from ._quit import quit_line

    line = quit_line(exc) if isinstance(exc, BaseException) and not disabled() else None
    if line is not None:
        print(line, file=stream or sys.stderr)
    return line is not None


def _sys_hook(exc_type, exc, tb):
    if _quit_shown(exc):
        return
    target = exc
    if isinstance(exc, BaseException):
        target, _ = annotate(exc)
    previous = _saved.get("sys", sys.__excepthook__)
    if previous is sys.__excepthook__ and isinstance(target, BaseException) and not disabled():
        _print_traceback(target)  # Python's own hook, with the user's code in the frames
    elif target is not exc:
        previous(type(target), target, target.__traceback__)
    else:
        previous(exc_type, exc, tb)


def _print_traceback(exc: BaseException) -> None:
    from ._traceback import format_exception
    from .render import paint_diagnoses, use_color

    print(paint_diagnoses(format_exception(exc), use_color(sys.stderr)), end="", file=sys.stderr)


def _threading_hook(args):
    exc = args.exc_value
    if _quit_shown(exc):
        return
    if isinstance(exc, BaseException):
        target, _ = annotate(exc)
        if target is not exc:
            args = threading.ExceptHookArgs([type(target), target, target.__traceback__, args.thread])
    previous = _saved.get("threading", threading.__excepthook__)
    if previous is threading.__excepthook__ and _print_thread_traceback(args):
        return  # Python's own hook, with the user's code in the frames (as the main thread's)
    previous(args)


def _print_thread_traceback(args) -> bool:
    """What ``threading.__excepthook__`` prints, through tfdebug's traceback (False: leave it
    to Python, e.g. for SystemExit, which Python's hook ignores, or when disabled)."""
    if disabled() or not isinstance(args.exc_value, Exception) or sys.stderr is None:
        return False
    from ._traceback import format_exception

    name = args.thread.name if args.thread is not None else threading.get_ident()
    from .render import paint_diagnoses, use_color

    text = paint_diagnoses(format_exception(args.exc_value), use_color(sys.stderr))
    print(f"Exception in thread {name}:\n{text}", end="", file=sys.stderr, flush=True)
    return True


def _ipython_handler(shell, etype, value, tb, tb_offset=None):
    if _quit_shown(value, sys.stdout):
        return None
    target = value
    if isinstance(value, BaseException):
        target, _ = annotate(value)
    if target is not value:
        etype, value, tb = type(target), target, target.__traceback__
    # IPython's own display (which shows notes); with our handler out of the way so that
    # showtraceback cannot come back here for a bare ``Exception``.
    saved = shell.custom_exceptions
    shell.custom_exceptions = ()
    try:
        if not _show_user_traceback(shell, etype, value):
            shell.showtraceback((etype, value, tb), tb_offset=tb_offset)
    finally:
        shell.custom_exceptions = saved
    return None


def _show_user_traceback(shell, etype, value) -> bool:
    """Show tfdebug's traceback (user frames for AutoGraph's) through the shell's own display
    hook (``_showtraceback``, which kernels override); False to leave it to IPython."""
    if disabled() or not isinstance(value, BaseException):
        return False
    try:
        from ._traceback import format_exception

        text = format_exception(value).rstrip("\n")
        shell._showtraceback(etype, value, text.splitlines())
        return True
    except Exception:  # noqa: BLE001 - IPython's own traceback then
        log.debug("tfdebug: could not show the traceback in IPython", exc_info=True)
        return False


def _current_shell():
    if "IPython" not in sys.modules:  # never import IPython just to look
        return None
    try:
        from IPython import get_ipython
        return get_ipython()
    except Exception:  # noqa: BLE001
        return None


def install(shell=None) -> dict:
    """Explain uncaught errors: ``sys.excepthook``, ``threading.excepthook``, IPython.

    ``shell`` is an IPython shell (default: the running one, if any). Returns what it
    replaced ({"sys": hook, "threading": hook, "ipython": (shell, handler)}); a second call
    replaces nothing and returns {}. ``TFDEBUG=off`` makes it a no-op.

    Example::

        replaced = tfdebug.install()
        ...
        tfdebug.uninstall()
    """
    if disabled():
        return {}
    replaced = {}
    with _lock:
        if "sys" not in _saved:
            _saved["sys"] = replaced["sys"] = sys.excepthook
            sys.excepthook = _sys_hook
        if "threading" not in _saved:
            _saved["threading"] = replaced["threading"] = threading.excepthook
            threading.excepthook = _threading_hook
        shell = shell if shell is not None else _current_shell()
        if shell is not None and "ipython" not in _saved:
            previous = (shell, tuple(getattr(shell, "custom_exceptions", ())), getattr(shell, "CustomTB", None))
            shell.set_custom_exc((Exception,), _ipython_handler)
            _saved["ipython"] = previous
            replaced["ipython"] = (shell, previous[2])
        if "tensorflow" in sys.modules and "autograph" not in _saved:  # never import TF here
            from . import _tf
            if _tf.record_declines():
                _saved["autograph"] = True
            if _tf.record_hidden_frames():
                _saved["frames"] = True
    return replaced


def installed() -> bool:
    """True while ``install()`` is in effect."""
    return bool(_saved)


def uninstall() -> None:
    """Put back what ``install()`` replaced (a hook someone set since is left alone)."""
    with _lock:
        if "sys" in _saved:
            previous = _saved.pop("sys")
            if sys.excepthook is _sys_hook:
                sys.excepthook = previous
        if "threading" in _saved:
            previous = _saved.pop("threading")
            if threading.excepthook is _threading_hook:
                threading.excepthook = previous
        if _saved.pop("autograph", None):
            from . import _tf
            _tf.stop_recording_declines()
        if _saved.pop("frames", None):
            from . import _tf
            _tf.stop_recording_hidden_frames()
        if "ipython" in _saved:
            shell, exceptions, custom_tb = _saved.pop("ipython")
            try:
                shell.custom_exceptions = exceptions
                if custom_tb is not None:
                    shell.CustomTB = custom_tb
            except Exception:  # noqa: BLE001 - a shell that is gone needs nothing back
                log.debug("tfdebug: could not restore the IPython handler", exc_info=True)
