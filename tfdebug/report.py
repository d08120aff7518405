"""Findings and the report of a run.

A :class:`Finding` is one diagnostic: an uncaught error's diagnosis, or a warning from the
trace logger, the side-effect guard or another run-time check, each tied to a user line.
Checks ``emit()`` findings; whoever wants them (``tfdebug run``, the pytest plugin)
listens with ``collecting()``. The JSON layout is DESIGN.md's report schema: keys are only
ever added.
"""
from __future__ import annotations

import contextlib
import dataclasses
import json
import logging
import os
import platform
import threading

log = logging.getLogger("tfdebug")

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

    def to_json(self) -> dict:
        return dataclasses.asdict(self)

    def key(self) -> tuple:
        """Identity for de-duplication: the same problem at the same line."""
        return (self.severity, self.recipe, self.category, self.file, self.line)


_lock = threading.Lock()
_sinks: list[list[Finding]] = []


def emit(finding: Finding) -> None:
    """Hand ``finding`` to every active collector (a no-op when none listens)."""
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


def build(script: str, status: str, diagnostics: list[Finding], traces: list[dict]) -> dict:
    """The JSON report of ``tfdebug run`` (DESIGN.md schema)."""
    import tensorflow as tf

    from . import __version__

    errors = [f for f in diagnostics if f.severity == "error"]
    warnings_ = [f for f in diagnostics if f.severity != "error"]
    return {
        "tfdebug": __version__,
        "tensorflow": tf.__version__,
        "python": platform.python_version(),
        "script": script,
        "status": status,
        "diagnostics": [f.to_json() for f in errors + warnings_],
        "traces": traces,
    }


def write(path: str, report: dict) -> None:
    """Write ``report`` to ``path`` atomically: a temporary file in the same folder, then
    ``os.replace``. A reader, a crash or a kill mid-write never sees half a file, and a
    failure leaves the previous file (if any) whole and no temporary file behind."""
    import tempfile

    folder, name = os.path.split(os.path.abspath(path))
    fd, tmp = tempfile.mkstemp(prefix=f".{name}.", suffix=".tmp", dir=folder)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            json.dump(report, fh, indent=2, default=str)
            fh.write("\n")
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
