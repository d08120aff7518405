"""Run a script the way ``python SCRIPT ARGS`` does, with tfdebug's checks around it.

Used by ``tfdebug run`` (``tfdebug run -m MODULE`` as ``python -m MODULE``): a fresh ``__main__`` with python's globals, ``sys.argv``, the
script's folder (its symbolic links resolved) first on ``sys.path``, a script from a pipe
(``/dev/stdin``, ``-``, ``<(...)``) read once, stdin/stdout/stderr untouched, the script's
own ``sys.excepthook`` called for an uncaught error, and every way of ending as python's
own: an uncaught error (exit 1), ``SystemExit`` with any value, ``KeyboardInterrupt`` (python
kills itself with SIGINT after cleaning up), SIGTERM/SIGHUP (killed by the signal),
``os._exit``, threads that outlive the main module (waited for, as python does). Around it:
error diagnosis, the trace logger and the side-effect guard, optionally ``eager()``.

The JSON report is written once, atomically, to the path resolved when the run starts, when
the process ends (after the script's threads and atexit handlers; when killed, at once, from
a thread woken by the signal; inside ``os._exit``). A forked child never writes it. A
failure inside tfdebug while reporting is one line on stderr and never changes the exit code.
"""
from __future__ import annotations

import atexit
import contextlib
import os
import signal
import sys
import threading
import time

from ._import_hook import when_imported
from ._log import log  # logging imported on the first message


# Signals that kill python outright: the report is written, then the signal kills us too.
_FATAL_SIGNALS = tuple(getattr(signal, name) for name in ("SIGTERM", "SIGHUP") if hasattr(signal, name))


class ScriptError(Exception):
    """The script cannot be run at all (missing, a directory, a syntax error)."""


class RunOptions:
    """What to run and how (a plain class: ``dataclasses`` imports ``inspect``, and a
    script run without TensorFlow starts without either)."""

    def __init__(self, script: str, args: list[str], eager: bool = False,
                 report_path: str | None = None, pdb: bool = False,
                 html_path: str | None = None, module: bool = False):
        self.script, self.args, self.eager = script, args, eager
        self.report_path, self.pdb, self.html_path = report_path, pdb, html_path
        self.module = module  # ``script`` is a module name, run as ``python -m`` runs it

    def __repr__(self) -> str:
        return f"RunOptions({', '.join(f'{k}={v!r}' for k, v in vars(self).items())})"

    def __eq__(self, other) -> bool:
        return isinstance(other, RunOptions) and vars(self) == vars(other)


STDIN = "-"  # `tfdebug run - ARGS`: the script comes on stdin, as `python -` reads it


def check_script(path: str) -> bytes:
    """Return the script's source, or raise ScriptError with one clear sentence.

    The source is read once: a pipe (``/dev/stdin``, ``<(...)``, ``-``) gives it only once,
    and the run executes what was read here.
    """
    if path == STDIN:
        return _checked_source(path, "<stdin>", _read_stdin())
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
    return _checked_source(path, path, source)


def _read_stdin() -> bytes:
    stream = getattr(sys.stdin, "buffer", None)
    if stream is None:
        raise ScriptError("- reads the script from stdin, but there is no stdin")
    try:
        return stream.read()
    except (OSError, ValueError) as exc:
        raise ScriptError(f"cannot read the script from stdin: {_describe(exc)}") from None


class ModuleCode:
    """A module found for ``-m NAME`` as ``python -m`` finds it (the current folder first
    on ``sys.path``; a package runs its ``__main__``): its spec and compiled code."""

    def __init__(self, name: str):
        folder = os.getcwd()
        sys.path.insert(0, folder)
        try:
            spec = _find_spec(name)
            if spec is not None and spec.submodule_search_locations is not None:
                spec = _find_spec(name + ".__main__")
                if spec is None:
                    raise ScriptError(f"-m {name}: {name} is a package and cannot be run "
                                      f"directly (it has no __main__ module)")
            if spec is None or spec.loader is None:
                raise ScriptError(f"-m {name}: no module named {name}")
            try:
                code = spec.loader.get_code(spec.name)
            except SyntaxError as exc:
                raise ScriptError(syntax_error_line(exc.filename or name, exc)) from None
            if code is None:
                raise ScriptError(f"-m {name}: no code to run in {spec.origin}")
        finally:
            sys.path.remove(folder)
        self.name, self.spec, self.code, self.folder = name, spec, code, folder
        self.filename = spec.origin or name


def _find_spec(name: str):
    import importlib.util

    try:
        return importlib.util.find_spec(name)
    except (ImportError, ValueError) as exc:  # a parent package that is not there
        raise ScriptError(f"-m {name}: {_describe(exc)}") from None


def _checked_source(path: str, filename: str, source: bytes) -> bytes:
    if b"\0" in source:  # python refuses it too, with no line number
        line = source.count(b"\n", 0, source.index(b"\0")) + 1
        raise ScriptError(f"{path}:{line}: not a Python script: it contains a NUL byte "
                          "(a binary file?)")
    try:
        compile(source, filename, "exec", dont_inherit=True)
    except SyntaxError as exc:
        raise ScriptError(syntax_error_line(path, exc)) from None
    except ValueError as exc:
        raise ScriptError(f"{path}: not a Python script ({exc})") from None
    except (MemoryError, RecursionError):  # python's parser gives up on deep nesting too
        raise ScriptError(f"{path}: Python cannot parse this script: its expressions are "
                          "nested too deeply") from None
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
    source = ModuleCode(options.script) if options.module else check_script(options.script)
    check_report_path(options.report_path)
    check_report_path(options.html_path, "--html", "r.html")
    session = _Session(options, source)
    session.start()
    return session.run_script()


class _Session:
    """One run: its checks, how the script ended, and the report written once at the end."""

    def __init__(self, options: RunOptions, source: "bytes | ModuleCode | None" = None):
        self.options = options
        stdin = options.script == STDIN and not options.module
        # before the script can chdir; python names the script and its folder this way
        self.script = "<stdin>" if stdin else os.path.join(os.getcwd(), options.script)
        self.folder = "" if stdin else python_path0(options.script)
        if isinstance(source, ModuleCode):  # python -m: the module's file, the current folder
            self.script, self.folder = source.filename, source.folder
        self.source = source
        self.report_path = os.path.abspath(options.report_path) if options.report_path else None
        self.html_path = os.path.abspath(options.html_path) if options.html_path else None
        self.origin, self.started = time.perf_counter(), time.time()  # the report's timeline
        self.pid = os.getpid()
        self.recursion_limit = sys.getrecursionlimit()
        self.status, self.code = "ok", 0
        self.findings: list = []  # report.Finding
        self.exception: dict | None = None  # report.uncaught(): what ended the script
        self.checks: list = []
        self.scopes = contextlib.ExitStack()
        self.collected: list = []  # report.Finding, once the checks start
        self.finished = False
        self.lock = threading.RLock()  # a signal handler may finish while finish() runs
        self.real_os_exit = os._exit

    # -- before the script ------------------------------------------------------------

    def start(self) -> None:
        if self.report_path or self.html_path:
            from . import report

            report.prepare(html=bool(self.html_path))  # nothing to import at exit
        # The checks need TensorFlow: they start when the script first imports it (at once
        # if it is imported already), so a script without TensorFlow never loads it.
        when_imported("tensorflow", self._start_checks)
        # Registered before the script runs, so it runs after the script's own atexit
        # handlers, and after python has waited for the script's threads.
        atexit.register(self.finish)
        hooked = False
        for signum in _FATAL_SIGNALS:
            with contextlib.suppress(ValueError, OSError):  # not the main thread: python's
                if signal.getsignal(signum) is signal.SIG_DFL:
                    signal.signal(signum, self._on_fatal_signal)
                    hooked = True
        if hooked:
            self._watch_fatal_signals()
        os._exit = self._os_exit

    def _start_checks(self, _tensorflow=None) -> None:
        from . import report  # (findings come from the checks: they start here)

        with self.lock:
            if self.finished:
                return
            self.collected = self.scopes.enter_context(report.collecting())
            try:  # the Python function of each graph, for the explainer (a leaked input)
                from .tracing import graphs_remembered
                self.scopes.enter_context(graphs_remembered())
            except Exception:  # noqa: BLE001 - errors are explained without it
                log.debug("tfdebug: graphs are not remembered in this run", exc_info=True)
            for check in _runtime_checks(self.options):
                try:
                    self.scopes.enter_context(check)
                    self.checks.append(check)
                except Exception as exc:  # noqa: BLE001 - the script runs without this check
                    say(f"tfdebug: {type(check).__name__} is off for this run ({_describe(exc)})")

    def _watch_fatal_signals(self) -> None:
        """Act on SIGTERM/SIGHUP as soon as they arrive, not when the main thread next runs
        Python (a graph op may hold it for minutes): python's C-level handler writes each
        signal's number to a wakeup pipe, and a thread blocked on that pipe writes the
        report and dies by the signal. Where this cannot be set up (the script or an event
        loop owns the wakeup fd), the Python-level handler still does it, later."""
        try:
            read_fd, write_fd = os.pipe()
        except OSError:
            return
        try:
            os.set_blocking(write_fd, False)
            previous = signal.set_wakeup_fd(write_fd, warn_on_full_buffer=False)
            if previous != -1:  # someone else's: leave it theirs
                signal.set_wakeup_fd(previous)
                raise OSError("the wakeup fd is taken")
        except (OSError, ValueError):
            os.close(read_fd)
            os.close(write_fd)
            return
        # a forked child has its own signals: it must not wake the parent's watcher
        os.register_at_fork(after_in_child=_forget_wakeup_fd)
        threading.Thread(target=self._watch, args=(read_fd,), name="tfdebug-signals",
                         daemon=True).start()

    def _watch(self, read_fd: int) -> None:
        while True:
            try:
                data = os.read(read_fd, 64)
            except InterruptedError:
                continue
            except OSError:
                return
            if not data:
                return
            for signum in data:
                if signum in _FATAL_SIGNALS and signal.getsignal(signum) == self._on_fatal_signal:
                    self._on_fatal_signal(signum, None)

    # -- the script -------------------------------------------------------------------

    def run_script(self) -> int:
        sys.argv = [self.options.script, *self.options.args]
        sys.path.insert(0, self.folder)
        if self.source is None:
            self.source = (ModuleCode(self.options.script) if self.options.module
                           else check_script(self.options.script))
        if isinstance(self.source, ModuleCode):
            sys.argv[0] = self.script
            code, module = self.source.code, _main_module(self.script, False, self.source.spec)
        else:
            code = compile(self.source, self.script, "exec", dont_inherit=True)
            module = _main_module(self.script, self.options.script == STDIN)
        if isinstance(self.source, bytes) and not self.script.startswith("<") and (not os.path.isfile(self.script)
                                                or self.script.startswith(("/dev/", "/proc/"))):
            _remember_source(self.script, self.source)  # a pipe: tracebacks show its lines
        # python gives a script the whole recursion limit: add the frames tfdebug sits on
        raised = self.recursion_limit + _stack_depth() + _EXEC_FRAMES
        sys.setrecursionlimit(raised)
        try:
            exec(code, module.__dict__)
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
        import traceback  # here: a run that ends well never loads it (nor linecache, tokenize)

        self.status = "error"
        moment = time.perf_counter()  # the error's place on the report's timeline
        if self.report_path or self.html_path:
            self.exception = _record_uncaught(exc, moment)  # before notes are added to it
        from ._quit import quit_line

        quit = quit_line(exc)
        if quit is not None:  # the user's own `q` at a debugger: one line, no diagnosis
            _flush_stdout()
            say(quit)
            return
        if "tensorflow" in sys.modules:  # else no TensorFlow error is possible
            self.findings.extend(_diagnose_uncaught(exc, moment))
        hook = _script_excepthook()
        if hook is not None:  # the script's own (a crash reporter): called as python calls it
            _call_excepthook(hook, exc)
        else:
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
        """SIGTERM/SIGHUP: write the report, then die by the signal, as python does (from
        the main thread's handler, or at once from the watcher thread)."""
        if os.getpid() == self.pid:
            self.code, self.status = -signum, "error"
            self.finish(dying=True)
        _die_by(signum)

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
        with self.lock:  # held while writing: a second caller (a signal) waits for the report
            if self.finished or os.getpid() != self.pid:
                return
            self.finished = True
            self._finish(dying)

    def _finish(self, dying: bool) -> None:
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
        from . import report

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

    def _shown_script(self) -> str:
        return f"-m {self.options.script}" if self.options.module else self.options.script

    def _report_data(self) -> dict:
        from . import report

        findings = self.findings + list(self.collected)
        traces = _traces(self.checks)
        try:
            data = report.build(self._shown_script(), self.status, findings, traces,
                                logger=_logger(self.checks), origin=self.origin,
                                wall_seconds=time.perf_counter() - self.origin,
                                started=self.started, exception=self.exception)
        except Exception:  # noqa: BLE001 - the timeline is a courtesy: the schema's keys only
            log.debug("tfdebug: building the report's timeline failed", exc_info=True)
            data = report.build(self._shown_script(), self.status, findings, traces,
                                exception=self.exception)
        data["exit_code"] = self.code
        return data


def _die_by(signum: int) -> None:
    """End the process by ``signum``'s default action, from any thread."""
    if threading.current_thread() is threading.main_thread():
        with contextlib.suppress(Exception):
            signal.signal(signum, signal.SIG_DFL)
    else:  # only the main thread may call signal.signal(): set the C disposition directly
        try:
            import ctypes

            libc = ctypes.CDLL(None, use_errno=True)
            libc.signal.restype = ctypes.c_void_p
            libc.signal.argtypes = (ctypes.c_int, ctypes.c_void_p)
            libc.signal(signum, 0)  # SIG_DFL
        except Exception:  # noqa: BLE001 - the main thread's handler will do it, later
            log.debug("tfdebug: cannot reset %s from a thread", signum, exc_info=True)
            return
    os.kill(os.getpid(), signum)  # dies as python would have, without cleaning up


def _forget_wakeup_fd() -> None:
    with contextlib.suppress(ValueError, OSError):
        signal.set_wakeup_fd(-1)


def python_exit_code(code) -> int:
    """The exit status python gives ``SystemExit(code)`` / ``os._exit(code)``: None is 0,
    an int its low byte (255 beyond a C long), anything else 1."""
    if code is None:
        return 0
    if isinstance(code, int):
        return code & 0xFF if -2 ** 63 <= code < 2 ** 63 else 255
    return 1


_EXEC_FRAMES = 2  # exec and its C call (3.11)


def python_path0(script: str) -> str:
    """The folder python puts first on ``sys.path`` for ``python SCRIPT``: the script's
    own symbolic links resolved (a linked ``bin/tool.py`` imports its real siblings); for a
    pipe (``/dev/stdin``, ``/dev/fd/63``) the folder of the link python could read."""
    try:
        return os.path.dirname(os.path.realpath(script, strict=True))
    except (OSError, ValueError):
        pass
    resolved = script
    with contextlib.suppress(OSError, ValueError):
        link = os.readlink(script)
        if os.path.isabs(link):
            resolved = link
        elif os.sep in link:
            resolved = os.path.join(os.path.dirname(script), link)
    return os.path.dirname(os.path.abspath(resolved))


def _main_module(filename: str, stdin: bool, spec=None):
    """A fresh ``__main__`` with the globals python gives a script (``__builtins__`` the
    module, ``__loader__``, ``__annotations__``...), installed as ``sys.modules["__main__"]``
    for the rest of the process, as python's is; with ``spec``, those of ``python -m``."""
    import builtins
    import importlib.machinery
    import types

    module = types.ModuleType("__main__")
    loader = (importlib.machinery.BuiltinImporter if stdin
              else importlib.machinery.SourceFileLoader("__main__", filename))
    module.__dict__.update(__file__=filename, __cached__=None, __loader__=loader,
                           __package__=None, __spec__=None, __annotations__={},
                           __builtins__=builtins)
    if spec is not None:  # as runpy sets them for ``python -m``
        module.__dict__.update(__loader__=spec.loader, __spec__=spec, __package__=spec.parent,
                               __cached__=spec.cached if spec.has_location else None)
    sys.modules["__main__"] = module
    return module


def _remember_source(filename: str, source: bytes) -> None:
    """Keep a piped script's lines for tracebacks and diagnoses (the pipe is read once)."""
    import io
    import linecache
    import tokenize

    with contextlib.suppress(Exception):
        encoding, _ = tokenize.detect_encoding(io.BytesIO(source).readline)
        lines = source.decode(encoding, "replace").splitlines(keepends=True)
        linecache.cache[filename] = (len(source), None, lines, filename)


def _script_excepthook():
    """The ``sys.excepthook`` the script installed (None: python's own, or tfdebug's)."""
    hook = sys.excepthook
    explain = sys.modules.get(f"{__package__}.explainer")
    if explain is not None and hook is getattr(explain, "_sys_hook", None):
        hook = getattr(explain, "_saved", {}).get("sys", sys.__excepthook__)
    return None if hook is sys.__excepthook__ else hook


def _call_excepthook(hook, exc: BaseException) -> None:
    """``hook(type, value, traceback)`` with the script's frames only, as python calls it;
    a hook that fails is reported as python reports it, then the original error."""
    tb = exc.__traceback__
    while tb is not None and _is_tfdebug_or_runpy(tb.tb_frame.f_code.co_filename):
        tb = tb.tb_next
    with contextlib.suppress(Exception):
        exc = exc.with_traceback(tb)
    _flush_stdout()
    try:
        hook(type(exc), exc, tb)
    except BaseException as failure:  # noqa: BLE001 - python's own words for it
        with contextlib.suppress(Exception):
            print("Error in sys.excepthook:", file=sys.stderr)
            sys.__excepthook__(type(failure), failure, failure.__traceback__)
            print("\nOriginal exception was:", file=sys.stderr)
            sys.__excepthook__(type(exc), exc, tb)


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
    import traceback

    if "tensorflow" in sys.modules:  # else no TensorFlow frame to fold (nor TF to load)
        from ._traceback import format_exception, involves_tensorflow
        from .explainer import disabled

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
        if "tfdebug " in text:
            from .render import paint_diagnoses, use_color

            text = paint_diagnoses(text, use_color(stream))
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
        from .modes import eager
        checks.append(eager())
    from .side_effects import side_effect_guard
    checks.append(side_effect_guard(action="warn", follow_calls=True))  # a debugging run: every call
    from .trace_log import trace_logger
    checks.append(trace_logger())
    return checks


def _traces(checks) -> list[dict]:
    """The report's ``traces`` key, from the trace logger among ``checks``."""
    if not checks:  # never started: the script did not import TensorFlow
        return []
    from .trace_log import TraceLogger

    try:
        return [t for c in checks if isinstance(c, TraceLogger) for t in c.report_traces()]
    except Exception:  # noqa: BLE001 - the report is written without traces
        log.debug("tfdebug: collecting the trace log failed", exc_info=True)
        return []


def _print_summary(checks) -> None:
    """What the checks have to say at exit (the retrace table, ...), on stderr."""
    if not checks:  # never started: the script did not import TensorFlow
        return
    from .trace_log import TraceLogger

    for check in checks:
        if not isinstance(check, TraceLogger):
            continue
        try:
            if check.functions(retraced_only=True):
                from .render import terminal_width, use_color

                stream = sys.stderr or sys.__stderr__
                say("tfdebug: functions that retraced:\n" + check.table(
                    retraced_only=True, width=terminal_width(stream), color=use_color(stream)))
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


def _diagnose_uncaught(exc: BaseException, moment: float | None = None) -> list:
    """The error diagnosis of the script's uncaught exception (first in the report), at
    ``moment`` on the report's timeline.

    The diagnosis is also added to the exception as a note, so the traceback printed next
    shows it (``TFDEBUG=off`` skips both).
    """
    try:
        from .explainer import annotate

        target, diagnosis = annotate(exc)
        if target is not exc and diagnosis is not None:
            exc.add_note(diagnosis.note())
        if diagnosis is None:
            return []
        import dataclasses  # loaded already by the diagnosis

        return [dataclasses.replace(diagnosis.finding(), time=moment)]
    except Exception:  # noqa: BLE001 - the script's error is reported as it is
        log.debug("tfdebug: diagnosing the uncaught error failed", exc_info=True)
        return []


def _record_uncaught(exc: BaseException, moment: float) -> dict | None:
    """The report's record of the script's uncaught exception, diagnosed or not."""
    try:
        from .report import uncaught

        return uncaught(exc, moment)
    except Exception:  # noqa: BLE001 - the script's error is reported as it is
        log.debug("tfdebug: recording the uncaught error failed", exc_info=True)
        return None


def _logger(checks):
    """The trace logger among ``checks`` (the report's timeline comes from it)."""
    if not checks:  # never started: the script did not import TensorFlow
        return None
    from .trace_log import TraceLogger

    return next((c for c in checks if isinstance(c, TraceLogger)), None)
