"""Findings and the report of a run.

A :class:`Finding` is one diagnostic: an uncaught error's diagnosis, or a warning from the
trace logger, the side-effect guard or another run-time check, each tied to a user line.
Checks ``emit()`` findings; whoever wants them (``tfdebug run``, the pytest plugin)
listens with ``collecting()``. The JSON layout is DESIGN.md's report schema: keys are only
ever added. The same report dict is rendered as a page by ``write_html`` (tfdebug.html_report):
one model, two renderers.

Example::

    report = tfdebug.report.load("r.json")      # a saved `tfdebug run --report` file
    tfdebug.report.write_html("r.html", report)  # the same run as one self-contained page
"""
from __future__ import annotations

import contextlib
import dataclasses
import os
import threading
import time


SEVERITIES = ("error", "warning")


@dataclasses.dataclass(frozen=True)
class Finding:
    """One diagnostic tied to a user line (``file`` absolute, ``line`` 1-based)."""

    severity: str
    recipe: str | None
    category: str | None
    file: str | None
    line: int | None
    function: str | None
    code: str | None
    message: str
    # time.perf_counter() when it was emitted (the report shows it on the run's timeline)
    time: float | None = dataclasses.field(default=None, compare=False)
    generic: bool = False  # an error no recipe explains: no ``recipe``, no claimed fix

    def __post_init__(self):
        if self.severity not in SEVERITIES:
            raise ValueError(f"severity must be one of {SEVERITIES}, got {self.severity!r}")

    @classmethod
    def at(cls, recipe, severity: str, file: str | None, line: int | None,
           function: str | None = None, message: str | None = None) -> "Finding":
        """A finding for ``recipe`` (a recipebook.Recipe) at a user line; reads the code."""
        from ._frames import source_line

        return cls(severity=severity, recipe=recipe.id, category=recipe.category,
                   file=os.path.abspath(file) if file and not file.startswith("<") else file,
                   line=line, function=function, code=source_line(file, line),
                   message=message or recipe.title)

    @classmethod
    def generic_at(cls, category: str | None, file: str | None, line: int | None,
                   function: str | None, message: str) -> "Finding":
        """The finding of an error no recipe explains (``"generic": true``, no ``recipe``)."""
        from ._frames import source_line

        return cls(severity="error", recipe=None, category=category,
                   file=os.path.abspath(file) if file and not file.startswith("<") else file,
                   line=line, function=function, code=source_line(file, line), message=message,
                   generic=True)

    def to_json(self) -> dict:
        entry = dataclasses.asdict(self)
        del entry["time"]  # a process-local clock; build() gives seconds since the run began
        return entry

    def key(self) -> tuple:
        """Identity for de-duplication: the same problem at the same line."""
        return (self.severity, self.recipe, self.category, self.file, self.line)


_lock = threading.Lock()
_sinks: list[list[Finding]] = []


def emit(finding: Finding) -> None:
    """Hand ``finding`` to every active collector (a no-op when none listens)."""
    if finding.time is None:
        finding = dataclasses.replace(finding, time=time.perf_counter())
    with _lock:
        for sink in _sinks:
            if all(f.key() != finding.key() for f in sink):
                sink.append(finding)


def listening() -> bool:
    return bool(_sinks)


@contextlib.contextmanager
def collecting():
    """``with collecting() as findings:`` gathers every finding emitted inside."""
    sink: list[Finding] = []
    with _lock:
        _sinks.append(sink)
    try:
        yield sink
    finally:
        with _lock:
            _sinks[:] = [s for s in _sinks if s is not sink]


class ReportError(Exception):
    """A file that is not a readable tfdebug report; the message says what to do."""


class Report(dict):
    """The report dict (DESIGN.md schema); in a notebook it shows as the rendered page."""

    def _repr_html_(self) -> str:
        from . import html_report
        return html_report.render(self, fragment=True)


def build(script: str, status: str, diagnostics: list[Finding], traces: list[dict], *,
          logger=None, origin: float | None = None, wall_seconds: float | None = None,
          started: float | None = None, exception: dict | None = None) -> Report:
    """The JSON report of ``tfdebug run`` (DESIGN.md schema, plus the timeline's keys).

    ``logger`` (a TraceLogger) adds ``events`` (every trace, in order, with its time) and
    ``stale_captures``; ``origin`` is the ``time.perf_counter()`` the run began at, the zero
    of every ``time``; ``started`` its ``time.time()``; ``exception`` is :func:`uncaught`'s
    record of the error that ended the run (its ``time`` a ``time.perf_counter()``).
    """
    from ._version import __version__

    errors = [f for f in diagnostics if f.severity == "error"]
    warnings_ = [f for f in diagnostics if f.severity != "error"]
    return Report({
        "tfdebug": __version__,
        "tensorflow": _version_of("tensorflow", _TF_DISTRIBUTIONS),
        "python": _python_version(),
        "script": script,
        "status": status,
        "diagnostics": [_diagnostic_json(f, origin) for f in errors + warnings_],
        "traces": traces,
        "keras": _keras_version(),
        "started": _iso(started),
        "wall_seconds": None if wall_seconds is None else round(wall_seconds, 6),
        "events": trace_events(logger, origin) if logger is not None else [],
        "stale_captures": stale_captures(logger) if logger is not None else [],
        "exception": _exception_json(exception, errors, origin),
    })


def from_logger(logger, script: str | None = None) -> Report:
    """A report of one ``trace_logger()`` on its own (``log.to_html(path)``, notebooks).

    Its diagnostics are the logger's stale captures; its clock starts at the first trace.
    """
    from . import recipebook

    events = logger.events
    origin = min((e.started for e in events if e.started), default=None)
    findings = []
    for stale in logger.stale_captures:
        try:
            recipe = recipebook.get(stale.recipe)
        except KeyError:
            continue
        findings.append(Finding.at(recipe, "warning", stale.file, stale.line, stale.function,
                                   str(stale)))
    last = max((e.started + e.duration for e in events if e.started), default=None)
    wall = (last - origin) if origin is not None and last is not None else None
    started = time.time() - (time.perf_counter() - origin) if origin is not None else None
    return build(script or "(trace_logger)", "ok", findings, logger.report_traces(),
                 logger=logger, origin=origin, wall_seconds=wall, started=started)


def trace_events(logger, origin: float | None) -> list[dict]:
    """The report's ``events``: one entry per recorded trace, in the order they happened."""
    out = []
    for number, event in enumerate(logger.events):
        out.append({
            "index": number,
            "function": event.function,
            "file": _abspath(event.file), "line": event.line,
            "kind": event.kind,
            "time": _since(event.started or None, origin),
            "duration": round(event.duration, 6),
            "signature": [[name, str(value)] for name, value in event.signature],
            "reasons": [{"text": r.text, "recipe": r.recipe, "kind": r.kind,
                         "argument": r.argument} for r in event.reasons],
            "call_file": _abspath(event.call_file), "call_line": event.call_line,
            "call_function": event.call_function,
            "depth": event.depth, "user_code": event.user_code,
        })
    return out


def stale_captures(logger) -> list[dict]:
    """The report's ``stale_captures``: values the graphs froze that changed since."""
    return [{"label": s.label, "kind": s.kind, "file": _abspath(s.file), "line": s.line,
             "function": s.function, "traced": s.traced, "before": s.before, "after": s.after,
             "recipe": s.recipe, "message": str(s)} for s in logger.stale_captures]


_MESSAGE_LIMIT = 20_000  # characters of an exception's message kept (its head and its tail)


def uncaught(exc: BaseException, moment: float | None = None) -> dict:
    """What ended a run, as plain data: the report's ``exception`` (``moment`` a
    ``time.perf_counter()``, made relative to the run's start by :func:`build`).

    ``class`` and ``message`` are as python prints them; ``file``/``line``/``function``/
    ``code`` the user line it was raised at (AutoGraph's "in user code" frame, else the
    innermost user frame of the traceback); ``original`` the user's own exception where
    AutoGraph reported it as a ``StagingError``. Never raises.

    Example::

        try:
            main()
        except Exception as exc:
            record = tfdebug.report.uncaught(exc)   # {"class": "ValueError", ...}
    """
    import sys

    from ._extract import safe_str

    tensorflow = "tensorflow" in sys.modules  # else no TensorFlow error is possible
    record = {"class": _class_name(exc), "message": _bounded(safe_str(exc)),
              "file": None, "line": None, "function": None, "code": None, "time": moment}
    try:
        where = _raised_at(exc, tensorflow)
        if where is not None:
            from ._frames import source_line

            record.update(file=_abspath(where.file), line=where.line,
                          function=where.function or None,
                          code=source_line(where.file, where.line) or None)
        original = None
        if tensorflow:  # AutoGraph may have replaced the user's own exception
            from .explainer import _staged_original

            original = _staged_original(exc)
        if original is not None:
            record["original"] = {"class": _class_name(original),
                                  "message": _bounded(safe_str(original))}
    except Exception:  # noqa: BLE001 - the class and the message are still worth reporting
        pass
    return record


def _class_name(exc: BaseException) -> str:
    """The class as python's traceback names it (``module.Name``, bare for builtins/main)."""
    cls = type(exc)
    module = getattr(cls, "__module__", None)
    name = getattr(cls, "__qualname__", cls.__name__)
    return name if module in (None, "builtins", "__main__") else f"{module}.{name}"


def _bounded(text: str) -> str:
    if len(text) <= _MESSAGE_LIMIT:
        return text
    half = _MESSAGE_LIMIT // 2
    return text[:half] + "\n...\n" + text[-half:]


def _raised_at(exc: BaseException, tensorflow: bool):
    """The user line ``exc`` was raised at: TensorFlow's record of it when TensorFlow is
    loaded (never imported here for a script that does not use it), else the traceback's."""
    from . import _extract

    if tensorflow:
        return next((locs[0] for locs in _extract.extract(exc).locations if locs), None)
    for frame, line in reversed(_extract.tb_frames(exc)):
        if _extract.is_user(frame.f_code.co_filename):
            return _extract.Location(frame.f_code.co_filename, line, frame.f_code.co_name)
    return None


def _exception_json(record: dict | None, errors: list[Finding], origin: float | None):
    from ._frames import source_context

    if record is None:
        return None
    entry = dict(record)
    entry["time"] = _since(record.get("time"), origin)
    entry["context"] = [[n, text] for n, text in
                        source_context(record.get("file"), record.get("line"), 2)]
    entry["diagnosed"] = bool(errors)
    return entry


def _diagnostic_json(finding: Finding, origin: float | None) -> dict:
    from ._frames import source_context

    entry = finding.to_json()
    entry["time"] = _since(finding.time, origin)
    entry["context"] = [[n, text] for n, text in source_context(finding.file, finding.line, 2)]
    return entry


def _since(moment: float | None, origin: float | None) -> float | None:
    return None if moment is None or origin is None else round(moment - origin, 6)


def _abspath(path: str | None) -> str | None:
    return os.path.abspath(path) if path and not path.startswith("<") else path


def _iso(moment: float | None) -> str | None:
    if moment is None:
        return None
    import datetime

    return datetime.datetime.fromtimestamp(moment, datetime.timezone.utc).isoformat(
        timespec="seconds")


def prepare(html: bool = False) -> None:
    """Import now what writing the report needs: ``tfdebug run`` writes it at exit, and
    some imports made there (platform, tempfile, importlib.metadata, jinja2) turn python's
    death by SIGINT after a KeyboardInterrupt into exit status 1."""
    import datetime  # noqa: F401
    import json  # noqa: F401
    import platform  # noqa: F401
    import tempfile  # noqa: F401

    _version_of("tensorflow", _TF_DISTRIBUTIONS)  # importlib.metadata and what it reads with
    _keras_version()
    if html:
        from . import html_report

        html_report._environment()


def _python_version() -> str:
    import platform  # here: a run without a report never loads it (see prepare())

    return platform.python_version()


# the distributions that install the module ``tensorflow``
_TF_DISTRIBUTIONS = ("tensorflow", "tensorflow-cpu", "tf-nightly", "tf-nightly-cpu",
                     "tensorflow-macos", "tensorflow-intel")


def _keras_version() -> str | None:
    return _version_of("keras", ("keras",))


def _version_of(module: str, distributions) -> str | None:
    """The imported module's version, else its installed distribution's: never import a
    module (TensorFlow takes seconds) just to name its version."""
    import sys

    version = getattr(sys.modules.get(module), "__version__", None)
    if version is not None:
        return str(version)
    from importlib.metadata import version as dist_version

    for name in distributions:
        try:
            return dist_version(name)
        except Exception:  # noqa: BLE001 - not this distribution
            continue
    return None


def write(path: str, report: dict) -> None:
    """Write ``report`` to ``path`` atomically (a reader never sees half a file)."""
    import json

    _write_text(path, json.dumps(report, indent=2, default=str) + "\n")


def write_html(path: str, report: dict) -> str:
    """Write ``report`` as one self-contained HTML page (no network needed to view it).

    Returns the page.

    Example::

        tfdebug.report.write_html("run.html", tfdebug.report.load("run.json"))
    """
    from . import html_report

    page = html_report.render(report)
    _write_text(path, page)
    return page


def _write_text(path: str, text: str) -> None:
    """Write ``text`` to ``path`` atomically: a temporary file in the same folder, then
    ``os.replace``. A reader, a crash or a kill mid-write never sees half a file, and a
    failure leaves the previous file (if any) whole and no temporary file behind."""
    import tempfile

    folder, name = os.path.split(os.path.abspath(path))
    fd, tmp = tempfile.mkstemp(prefix=f".{name}.", suffix=".tmp", dir=folder)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            fh.write(text)
            fh.flush()
            os.fsync(fh.fileno())
        os.chmod(tmp, 0o666 & ~_umask())  # mkstemp makes it private; a report is not
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def load(path: str) -> Report:
    """Read a report written by ``tfdebug run --report``; ReportError says what is wrong.

    Any file gives a report or a ReportError: values of the wrong type, numbers that are
    not finite or not plausible (``NaN``, ``1e308``) and malformed entries are dropped
    (the page then shows what is left), so rendering never meets them.
    """
    import json

    try:
        with open(path, encoding="utf-8") as fh:
            data = json.load(fh)
    except FileNotFoundError:
        raise ReportError(f"no such report: {path}") from None
    except IsADirectoryError:
        raise ReportError(f"{path} is a directory; give the JSON file written by "
                          f"`tfdebug run --report FILE.json`") from None
    except UnicodeDecodeError:
        raise ReportError(f"{path} is not a JSON report (not UTF-8 text)") from None
    except json.JSONDecodeError as exc:
        raise ReportError(f"{path}:{exc.lineno}: not valid JSON ({exc.msg}); give the file "
                          f"written by `tfdebug run --report FILE.json`") from None
    except RecursionError:
        raise ReportError(f"{path}: not a tfdebug report (JSON nested too deeply to read)") from None
    except (ValueError, MemoryError) as exc:  # e.g. an integer of more digits than Python reads
        raise ReportError(f"{path}: not a JSON report this tool can read "
                          f"({_first_line(exc)})") from None
    except OSError as exc:
        raise ReportError(f"cannot read {path}: {exc.strerror or exc}") from None
    missing = [k for k in ("tfdebug", "status", "diagnostics", "traces")
               if not isinstance(data, dict) or k not in data]
    if missing:
        raise ReportError(f"{path} is not a tfdebug report (no {', '.join(missing)} key); "
                          f"give the file written by `tfdebug run --report FILE.json`")
    if not isinstance(data["diagnostics"], list) or not isinstance(data["traces"], list):
        raise ReportError(f"{path}: `diagnostics` and `traces` must be lists")
    return Report(_conform(data, _REPORT))


def _first_line(exc: BaseException) -> str:
    text = str(exc).strip().splitlines()
    return f"{type(exc).__name__}: {text[0][:200]}" if text else type(exc).__name__


# -- the schema a loaded report is conformed to ---------------------------------------------
# A field of the wrong type is dropped (readers fall back as for a report from an older
# version); lists keep their well-formed items. Only these known fields are ever read.

_MAX_SECONDS = 1e9       # ~30 years: beyond it a time is not a measurement
_MAX_INT = 2 ** 63

TEXT, INT, COUNT, SECONDS, FLAG = "text", "int", "count", "seconds", "flag"  # COUNT: never None

_DIAGNOSTIC = {"severity": TEXT, "recipe": TEXT, "category": TEXT, "file": TEXT, "line": INT,
               "function": TEXT, "code": TEXT, "message": TEXT, "time": SECONDS,
               "generic": FLAG, "context": ("pairs", INT, TEXT)}
_TRACE = {"function": TEXT, "file": TEXT, "line": INT, "count": COUNT,
          "reasons": ("list", TEXT), "retraces": COUNT, "variable_creation": COUNT, "recipes": ("list", TEXT),
          "call_file": TEXT, "call_line": INT, "suggestion": TEXT, "input_signature": TEXT,
          "tracing_seconds": SECONDS, "user_code": FLAG}
_REASON = {"text": TEXT, "recipe": TEXT, "kind": TEXT, "argument": TEXT}
_EVENT = {"index": INT, "function": TEXT, "file": TEXT, "line": INT, "kind": TEXT,
          "time": SECONDS, "duration": SECONDS, "signature": ("pairs", TEXT, TEXT),
          "reasons": ("dicts", _REASON), "call_file": TEXT, "call_line": INT,
          "call_function": TEXT, "depth": INT, "user_code": FLAG}
_STALE = {"label": TEXT, "kind": TEXT, "file": TEXT, "line": INT, "function": TEXT,
          "traced": TEXT, "before": TEXT, "after": TEXT, "recipe": TEXT, "message": TEXT}
_EXCEPTION = {"class": TEXT, "message": TEXT, "file": TEXT, "line": INT, "function": TEXT,
              "code": TEXT, "time": SECONDS, "context": ("pairs", INT, TEXT), "diagnosed": FLAG,
              "original": ("dict", {"class": TEXT, "message": TEXT})}
_REPORT = {"tfdebug": TEXT, "tensorflow": TEXT, "python": TEXT, "keras": TEXT, "script": TEXT,
           "status": TEXT, "started": TEXT, "wall_seconds": SECONDS, "exit_code": INT,
           "diagnostics": ("dicts", _DIAGNOSTIC), "traces": ("dicts", _TRACE),
           "events": ("dicts", _EVENT), "stale_captures": ("dicts", _STALE),
           "exception": ("dict", _EXCEPTION)}

_DROP = object()


def _conform(entry: dict, schema: dict) -> dict:
    """``entry`` with each known field conformed to ``schema`` (None stays None); unknown
    fields are kept as they are (nothing reads them)."""
    out = {}
    for key, value in entry.items():
        kind = schema.get(key) if isinstance(key, str) else None
        if kind is None or (value is None and kind != COUNT):
            out[key] = value
            continue
        value = _conform_value(value, kind)
        if value is not _DROP:
            out[key] = value
    return out


def _conform_value(value, kind):
    if kind == TEXT:
        # a lone surrogate ("\ud800" in the JSON) cannot be written as UTF-8: show it escaped
        return value.encode("utf-8", "backslashreplace").decode("utf-8") \
            if isinstance(value, str) else _DROP
    if kind == INT:
        return value if type(value) is int and -_MAX_INT < value < _MAX_INT else _DROP
    if kind == COUNT:
        return value if type(value) is int and 0 <= value < _MAX_INT else _DROP
    if kind == SECONDS:
        plausible = type(value) in (int, float) and -_MAX_SECONDS <= value <= _MAX_SECONDS
        return float(value) if plausible else _DROP   # NaN fails the comparison too
    if kind == FLAG:
        return value if isinstance(value, bool) else _DROP
    shape = kind[0]
    if shape == "dict":
        return _conform(value, kind[1]) if isinstance(value, dict) else _DROP
    if not isinstance(value, list):
        return _DROP
    if shape == "list":
        return [item for item in (_conform_value(v, kind[1]) for v in value) if item is not _DROP]
    if shape == "dicts":
        return [_conform(v, kind[1]) for v in value if isinstance(v, dict)]
    pairs = []  # "pairs": [first, second] items of two kinds
    for item in value:
        if isinstance(item, list) and len(item) == 2:
            first, second = _conform_value(item[0], kind[1]), _conform_value(item[1], kind[2])
            if first is not _DROP and second is not _DROP:
                pairs.append([first, second])
    return pairs
