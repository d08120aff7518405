"""Run a script the way ``python SCRIPT ARGS`` does, with tfdebug's checks around it.

Used by ``tfdebug run``: ``__main__`` as the module name, ``sys.argv``, the script's folder
first on ``sys.path``, stdin/stdout/stderr untouched, and every way of ending as python's
own: an uncaught error (exit 1), ``SystemExit`` with any value, ``KeyboardInterrupt`` (python
kills itself with SIGINT after cleaning up), SIGTERM/SIGHUP (killed by the signal),
``os._exit``, threads that outlive the main module (waited for, as python does). Around it:
error diagnosis, the trace logger and the side-effect guard, optionally ``eager()``.

The JSON report is written once, atomically, to the path resolved when the run starts, when
the process ends (after the script's threads and atexit handlers; from the signal handler
when killed; inside ``os._exit``). A forked child never writes it. A failure inside tfdebug
while reporting is one line on stderr and never changes the exit code.
"""
from __future__ import annotations

import atexit
import contextlib
import dataclasses
import logging
import os
import runpy
import signal
import sys
import threading
import time
import traceback

from . import report

log = logging.getLogger("tfdebug")

# Signals that kill python outright: the report is written, then the signal kills us too.
_FATAL_SIGNALS = tuple(getattr(signal, name) for name in ("SIGTERM", "SIGHUP") if hasattr(signal, name))


class ScriptError(Exception):
    """The script cannot be run at all (missing, a directory, a syntax error)."""


@dataclasses.dataclass
class RunOptions:
    script: str
    args: list[str]
    eager: bool = False
    report_path: str | None = None
    pdb: bool = False
    html_path: str | None = None


def check_script(path: str) -> bytes:
    """Return the script's source, or raise ScriptError with one clear sentence."""
    if not os.path.exists(path):
        if os.path.islink(path):
            raise ScriptError(f"{path} is a symbolic link to {os.readlink(path)}, which does not exist")
        raise ScriptError(f"no such script: {path}")
    if os.path.isdir(path):
        raise ScriptError(f"{path} is a directory; give the Python script to run")
    try:
        with open(path, "rb") as fh:
            source = fh.read()
    except OSError as exc:
        raise ScriptError(f"cannot read {path}: {exc.strerror}") from None
    if b"\0" in source:  # python refuses it too, with no line number
        line = source.count(b"\n", 0, source.index(b"\0")) + 1
        raise ScriptError(f"{path}:{line}: not a Python script: it contains a NUL byte "
                          "(a binary file?)")
    try:
        compile(source, path, "exec", dont_inherit=True)
    except SyntaxError as exc:
        raise ScriptError(syntax_error_line(path, exc)) from None
    except ValueError as exc:
        raise ScriptError(f"{path}: not a Python script ({exc})") from None
    return source


def syntax_error_line(path: str, exc: SyntaxError) -> str:
    """``path:line: syntax error: msg`` in words (no ``None`` for a line python did not know)."""
    where = f"{path}:{exc.lineno}" if isinstance(exc.lineno, int) and exc.lineno > 0 else path
    message = exc.msg or "invalid syntax"
    if message.startswith("(unicode error)"):
        detail = message.split(")", 1)[1].strip()
        return (f"{where}: not UTF-8 text ({detail}); save the file as UTF-8 or declare its "
                "encoding in a `# -*- coding: NAME -*-` first line")
    return f"{where}: syntax error: {message}"


def check_report_path(path: str | None, flag: str = "--report", example: str = "r.json") -> None:
    """Fail before the script runs when the report could not be written afterwards."""
    if path is None:
        return
    folder = os.path.dirname(os.path.abspath(path))
    if os.path.isdir(path):
        raise ScriptError(f"{flag} {path} is a directory; give a file name like {example}")
    if not os.path.isdir(folder):
        raise ScriptError(f"{flag} {path}: folder {folder} does not exist")
    if not os.access(folder, os.W_OK):
        raise ScriptError(f"{flag} {path}: folder {folder} is not writable")


def run(options: RunOptions) -> int:
    """Run the script; return its exit code (1 for an uncaught exception, like python).

    ``SystemExit`` and ``KeyboardInterrupt`` from the script are re-raised after tfdebug's
    part is done, so that python itself ends the process exactly as it would have.
    """
    check_script(options.script)
    check_report_path(options.report_path)
    check_report_path(options.html_path, "--html", "r.html")
    session = _Session(options)
    session.start()
    return session.run_script()


class _Session:
    """One run: its checks, how the script ended, and the report written once at the end."""

    def __init__(self, options: RunOptions):
        self.options = options
        self.script = os.path.abspath(options.script)  # before the script can chdir
        self.report_path = os.path.abspath(options.report_path) if options.report_path else None
        self.html_path = os.path.abspath(options.html_path) if options.html_path else None
        self.origin, self.started = time.perf_counter(), time.time()  # the report's timeline
        self.pid = os.getpid()
        self.recursion_limit = sys.getrecursionlimit()
        self.status, self.code = "ok", 0
        self.findings: list[report.Finding] = []
        self.checks: list = []
        self.scopes = contextlib.ExitStack()
        self.collected: list[report.Finding] = []
        self.finished = False
        self.lock = threading.RLock()  # a signal handler may finish while finish() runs
        self.real_os_exit = os._exit

    # -- before the script ------------------------------------------------------------

    def start(self) -> None:
        self.collected = self.scopes.enter_context(report.collecting())
        for check in _runtime_checks(self.options):
            try:
                self.scopes.enter_context(check)
                self.checks.append(check)
            except Exception as exc:  # noqa: BLE001 - the script runs without this check
                say(f"tfdebug: {type(check).__name__} is off for this run ({_describe(exc)})")
        # Registered before the script runs, so it runs after the script's own atexit
        # handlers, and after python has waited for the script's threads.
        atexit.register(self.finish)
        for signum in _FATAL_SIGNALS:
            with contextlib.suppress(ValueError, OSError):  # not the main thread: python's
                if signal.getsignal(signum) is signal.SIG_DFL:
                    signal.signal(signum, self._on_fatal_signal)
        os._exit = self._os_exit

    # -- the script -------------------------------------------------------------------

    def run_script(self) -> int:
        sys.argv = [self.options.script, *self.options.args]
        sys.path.insert(0, os.path.dirname(self.script))
        # python gives a script the whole recursion limit: add the frames tfdebug sits on
        raised = self.recursion_limit + _stack_depth() + _RUNPY_FRAMES
        sys.setrecursionlimit(raised)
        try:
            runpy.run_path(self.script, run_name="__main__")
        except SystemExit as exc:
            self._lower_recursion_limit(raised)
            self.code = python_exit_code(exc.code)
            raise  # python prints and converts odd values itself, exactly
        except KeyboardInterrupt as exc:
            self._lower_recursion_limit(raised)
            self._uncaught(exc)
            self.code = -signal.SIGINT
            _reraise_quietly(exc)  # python cleans up, then kills itself with SIGINT
        except BaseException as exc:  # noqa: BLE001 - the script's own uncaught error
            self._lower_recursion_limit(raised)
            self._uncaught(exc)
            self.code = 1
        else:
            self._lower_recursion_limit(raised)
        return self.code

    def _lower_recursion_limit(self, raised: int) -> None:
        """Back to python's limit, unless the script set its own (then at least python's)."""
        with contextlib.suppress(Exception):
            current = sys.getrecursionlimit()
            sys.setrecursionlimit(self.recursion_limit if current == raised
                                  else max(current, self.recursion_limit))

    def _uncaught(self, exc: BaseException) -> None:
        self.status = "error"
        self.findings.extend(_diagnose_uncaught(exc))
        try:
            _print_uncaught(exc)
        except Exception as failure:  # noqa: BLE001 - python's own format, unfiltered
            log.debug("tfdebug: printing the traceback failed: %s", _describe(failure))
            with contextlib.suppress(Exception):
                traceback.print_exception(exc)
        if self.options.pdb:
            _debug_uncaught(exc)

    # -- the end: normal exit, a fatal signal, os._exit -----------------------------------

    def _on_fatal_signal(self, signum, frame) -> None:
        if os.getpid() == self.pid:
            self.code, self.status = -signum, "error"
            self.finish(dying=True)
        signal.signal(signum, signal.SIG_DFL)
        os.kill(os.getpid(), signum)  # dies as python would have, without cleaning up

    def _os_exit(self, status):
        if os.getpid() == self.pid:
            self.code = python_exit_code(status) if isinstance(status, int) else 1
            self.finish(dying=True)
        self.real_os_exit(status)

    def finish(self, dying: bool = False) -> None:
        """Close the checks, print their summary, write the report (once, never raises).

        ``dying`` (a fatal signal, ``os._exit``, maybe on another thread): the checks are
        read as they are, not closed; the process ends right after.
        """
        with self.lock:
            if self.finished or os.getpid() != self.pid:
                return
            self.finished = True
        with contextlib.suppress(Exception):  # the script is over: tfdebug needs its stack
            sys.setrecursionlimit(max(sys.getrecursionlimit(), self.recursion_limit))
        if os._exit == self._os_exit:
            os._exit = self.real_os_exit
        try:
            if not dying:
                self.scopes.close()  # checks first: they report what they saw at exit
        except Exception as exc:  # noqa: BLE001
            say(f"tfdebug: closing the run-time checks failed ({_describe(exc)})")
        _print_summary(self.checks)
        if self.report_path or self.html_path:
            self._write_reports()

    def _write_reports(self) -> None:
        """--report and --html: the same report, as JSON and as a page."""
        try:
            data = self._report_data()
        except Exception as exc:  # noqa: BLE001 - the script's own exit code still wins
            say(f"tfdebug: cannot build the report: {_describe(exc)}")
            return
        for path, write in ((self.report_path, report.write), (self.html_path, report.write_html)):
            if not path:
                continue
            try:
                write(path, data)
            except OSError as exc:
                say(f"tfdebug: cannot write the report {path}: {exc.strerror or exc}")
            except Exception as exc:  # noqa: BLE001 - a rendering bug must not change the exit code
                log.debug("tfdebug: writing the report %s failed", path, exc_info=True)
                say(f"tfdebug: cannot write the report {path}: {_describe(exc)}")

    def _report_data(self) -> dict:
        findings = self.findings + list(self.collected)
        traces = _traces(self.checks)
        try:
            data = report.build(self.options.script, self.status, findings, traces,
                                logger=_logger(self.checks), origin=self.origin,
                                wall_seconds=time.perf_counter() - self.origin,
                                started=self.started)
        except Exception:  # noqa: BLE001 - the timeline is a courtesy: the schema's keys only
            log.debug("tfdebug: building the report's timeline failed", exc_info=True)
            data = report.build(self.options.script, self.status, findings, traces)
        data["exit_code"] = self.code
        return data


def python_exit_code(code) -> int:
    """The exit status python gives ``SystemExit(code)`` / ``os._exit(code)``: None is 0,
    an int its low byte (255 beyond a C long), anything else 1."""
    if code is None:
        return 0
    if isinstance(code, int):
        return code & 0xFF if -2 ** 63 <= code < 2 ** 63 else 255
    return 1


_RUNPY_FRAMES = 5  # run_path, _run_module_code, _run_code, exec and its C call (3.11)


def _stack_depth() -> int:
    frame, depth = sys._getframe(1), 0
    while frame is not None:
        depth, frame = depth + 1, frame.f_back
    return depth


def _reraise_quietly(exc: BaseException):
    """Raise ``exc`` out to python's top level, which prints nothing more for it."""
    previous = sys.excepthook

    def hook(exc_type, value, tb):
        if value is not exc:
            previous(exc_type, value, tb)

    sys.excepthook = hook
    raise exc


def say(text: str) -> None:
    """One line from tfdebug on stderr, even when the script closed or dropped sys.stderr."""
    for stream in (sys.stderr, sys.__stderr__):
        try:
            if stream is not None and not stream.closed:
                print(text, file=stream, flush=True)
                return
        except Exception:  # noqa: BLE001 - try the next way out
            continue
    with contextlib.suppress(OSError):
        os.write(2, (text + "\n").encode("utf-8", "replace"))


def _describe(exc: BaseException) -> str:
    try:
        return f"{type(exc).__name__}: {exc}".splitlines()[0][:300]
    except Exception:  # noqa: BLE001
        return type(exc).__name__


def _flush_stdout() -> None:
    with contextlib.suppress(Exception):
        sys.stdout.flush()


def _print_uncaught(exc: BaseException) -> None:
    """Print the traceback as python would, without tfdebug's or runpy's frames (and, unless
    ``TFDEBUG=off``, with AutoGraph's frames as the user's code, library frames folded)."""
    from .explain import disabled

    from ._traceback import format_exception, involves_tensorflow

    if not disabled() and involves_tensorflow(exc):
        _print_traceback_text(format_exception(exc))
        return
    report_ = traceback.TracebackException.from_exception(exc)
    seen = set()
    pending = [report_]
    while pending:  # the exception, its __cause__/__context__ chain and group members
        item = pending.pop()
        if id(item) in seen:
            continue
        seen.add(id(item))
        item.stack = traceback.StackSummary.from_list(
            [frame for frame in item.stack if not _is_tfdebug_or_runpy(frame.filename)])
        pending.extend(x for x in (item.__cause__, item.__context__) if x is not None)
        pending.extend(getattr(item, "exceptions", None) or [])
    _print_traceback_text("".join(report_.format()))


def _print_traceback_text(text: str) -> None:
    _flush_stdout()
    stream = sys.stderr
    if stream is None:  # python prints nothing then
        return
    with contextlib.suppress(ValueError, OSError):  # closed: python's traceback is lost too
        print(text, end="", file=stream)
        stream.flush()


def _is_tfdebug_or_runpy(filename: str) -> bool:
    return (os.path.dirname(os.path.abspath(filename)) == os.path.dirname(__file__)
            or os.path.basename(filename) == "runpy.py" or filename.startswith("<frozen runpy"))


# -- the checks `tfdebug run` enables ------------------------------------------------------

def _runtime_checks(options: RunOptions) -> list:
    """The scopes that wrap the script: eager switch, trace logger, side-effect guard."""
    checks = []
    if options.eager:
        from .eager import eager
        checks.append(eager())
    from .side_effects import side_effect_guard
    checks.append(side_effect_guard(action="warn"))
    from .trace_log import trace_logger
    checks.append(trace_logger())
    return checks


def _traces(checks) -> list[dict]:
    """The report's ``traces`` key, from the trace logger among ``checks``."""
    from .trace_log import TraceLogger

    try:
        return [t for c in checks if isinstance(c, TraceLogger) for t in c.report_traces()]
    except Exception:  # noqa: BLE001 - the report is written without traces
        log.debug("tfdebug: collecting the trace log failed", exc_info=True)
        return []


def _print_summary(checks) -> None:
    """What the checks have to say at exit (the retrace table, ...), on stderr."""
    from .trace_log import TraceLogger

    for check in checks:
        if not isinstance(check, TraceLogger):
            continue
        try:
            if check.functions(retraced_only=True):
                say("tfdebug: functions that retraced:\n" + check.table(retraced_only=True))
        except Exception:  # noqa: BLE001 - the summary is a courtesy, never a failure
            log.debug("tfdebug: printing the trace log failed", exc_info=True)


def _debug_uncaught(exc: BaseException) -> None:
    """``--pdb``: re-run the failing tf.function call eagerly, pdb at the user line."""
    if isinstance(exc, KeyboardInterrupt):
        return
    from .debugger import post_mortem_uncaught
    try:
        post_mortem_uncaught(exc)
    except Exception as failure:  # noqa: BLE001 - the script's exit code still wins
        say(f"tfdebug: --pdb failed ({_describe(failure)})")


def _diagnose_uncaught(exc: BaseException) -> list[report.Finding]:
    """The error diagnosis of the script's uncaught exception (first in the report).

    The diagnosis is also added to the exception as a note, so the traceback printed next
    shows it (``TFDEBUG=off`` skips both).
    """
    try:
        from .explain import annotate

        target, diagnosis = annotate(exc)
        if target is not exc and diagnosis is not None:
            exc.add_note(diagnosis.note())
        return [diagnosis.finding()] if diagnosis is not None else []
    except Exception:  # noqa: BLE001 - the script's error is reported as it is
        log.debug("tfdebug: diagnosing the uncaught error failed", exc_info=True)
        return []


def _logger(checks):
    """The trace logger among ``checks`` (the report's timeline comes from it)."""
    from .trace_log import TraceLogger

    return next((c for c in checks if isinstance(c, TraceLogger)), None)
