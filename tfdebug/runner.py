"""Run a script the way ``python SCRIPT ARGS`` does, with tfdebug's checks around it.

Used by ``tfdebug run``: ``__main__`` as the module name, ``sys.argv``, the script's folder
first on ``sys.path``, its own exit code, stdin/stdout/stderr untouched. Around it: error
diagnosis for an uncaught exception, the trace logger and the side-effect guard, and
optionally ``eager()``. The JSON report is written even when the script fails.
"""
from __future__ import annotations

import contextlib
import dataclasses
import logging
import os
import runpy
import sys
import time
import traceback

from . import report

log = logging.getLogger("tfdebug")


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


def check_script(path: str) -> str:
    """Return the script's source, or raise ScriptError with one clear sentence."""
    if not os.path.exists(path):
        raise ScriptError(f"no such script: {path}")
    if os.path.isdir(path):
        raise ScriptError(f"{path} is a directory; give the Python script to run")
    try:
        with open(path, "rb") as fh:
            source = fh.read()
    except OSError as exc:
        raise ScriptError(f"cannot read {path}: {exc.strerror}") from None
    try:
        compile(source, path, "exec", dont_inherit=True)
    except SyntaxError as exc:
        raise ScriptError(f"{path}:{exc.lineno}: syntax error: {exc.msg}") from None
    except ValueError as exc:  # e.g. null bytes
        raise ScriptError(f"{path}: not a Python script ({exc})") from None
    return source


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
    """Run the script; return its exit code (1 for an uncaught exception, like python)."""
    check_script(options.script)
    check_report_path(options.report_path)
    check_report_path(options.html_path, "--html", "r.html")
    origin, started = time.perf_counter(), time.time()
    findings: list[report.Finding] = []
    checks = _runtime_checks(options)
    status, code = "ok", 0
    with report.collecting() as collected:
        try:
            with contextlib.ExitStack() as stack:
                for check in checks:
                    stack.enter_context(check)
                code = _run_script(options)
        except BaseException as exc:  # noqa: BLE001 - the script's own uncaught error
            status, code = "error", (130 if isinstance(exc, KeyboardInterrupt) else 1)
            findings.extend(_diagnose_uncaught(exc))
            _print_uncaught(exc)
            if options.pdb:
                _debug_uncaught(exc)
        findings.extend(collected)
    wall = time.perf_counter() - origin
    traces = _traces(checks)
    _print_summary(checks)
    if options.report_path or options.html_path:
        try:
            data = report.build(options.script, status, findings, traces,
                                logger=_logger(checks), origin=origin, wall_seconds=wall,
                                started=started)
        except Exception:  # noqa: BLE001 - the timeline is a courtesy: the schema's keys only
            log.debug("tfdebug: building the report's timeline failed", exc_info=True)
            data = report.build(options.script, status, findings, traces)
        _write_reports(options, data)
    return code


def _write_reports(options: RunOptions, data: dict) -> None:
    """--report and --html: the same report, as JSON and as a page."""
    for path, write in ((options.report_path, report.write),
                        (options.html_path, report.write_html)):
        if not path:
            continue
        try:
            write(path, data)
        except OSError as exc:  # the script's own exit code still wins
            print(f"tfdebug: cannot write the report {path}: {exc.strerror}", file=sys.stderr)
        except Exception:  # noqa: BLE001 - a rendering bug must not change the exit code
            log.debug("tfdebug: writing the report %s failed", path, exc_info=True)
            print(f"tfdebug: could not render the report {path} (a tfdebug bug; "
                  f"--report still writes the JSON)", file=sys.stderr)


def _run_script(options: RunOptions) -> int:
    script = options.script
    saved_argv, saved_path0 = sys.argv[:], sys.path[0] if sys.path else None
    sys.argv = [script, *options.args]
    sys.path.insert(0, os.path.dirname(os.path.abspath(script)))
    try:
        runpy.run_path(script, run_name="__main__")
        return 0
    except SystemExit as exc:
        return _exit_code(exc)
    finally:
        sys.argv = saved_argv
        if sys.path and sys.path[0] == os.path.dirname(os.path.abspath(script)):
            del sys.path[0]
        elif saved_path0 is not None and saved_path0 not in sys.path:
            sys.path.insert(0, saved_path0)
        sys.stdout.flush()


def _exit_code(exc: SystemExit) -> int:
    """What python's own exit code would be for ``SystemExit(code)``."""
    code = exc.code
    if code is None:
        return 0
    if isinstance(code, int):
        return code & 0xFF if code >= 0 else code % 256
    print(code, file=sys.stderr)
    return 1


def _print_uncaught(exc: BaseException) -> None:
    """Print the traceback as python would, without tfdebug's or runpy's frames (and, unless
    ``TFDEBUG=off``, with AutoGraph's frames as the user's code, library frames folded)."""
    from .explain import disabled

    if not disabled():
        from ._traceback import format_exception

        sys.stdout.flush()
        print(format_exception(exc), end="", file=sys.stderr)
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
    sys.stdout.flush()
    print("".join(report_.format()), end="", file=sys.stderr)


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


def _logger(checks):
    """The trace logger among ``checks`` (the report's timeline comes from it)."""
    from .trace_log import TraceLogger

    return next((c for c in checks if isinstance(c, TraceLogger)), None)


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
                print("tfdebug: functions that retraced:\n"
                      + check.table(retraced_only=True), file=sys.stderr)
        except Exception:  # noqa: BLE001 - the summary is a courtesy, never a failure
            log.debug("tfdebug: printing the trace log failed", exc_info=True)


def _debug_uncaught(exc: BaseException) -> None:
    """``--pdb``: re-run the failing tf.function call eagerly, pdb at the user line."""
    if isinstance(exc, KeyboardInterrupt):
        return
    from .debugger import post_mortem_uncaught
    post_mortem_uncaught(exc)


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
