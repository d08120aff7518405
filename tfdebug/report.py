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
    """Write ``report`` to ``path`` atomically (a reader never sees half a file)."""
    tmp = f"{path}.{os.getpid()}.tmp"
    with open(tmp, "w", encoding="utf-8") as fh:
        json.dump(report, fh, indent=2, default=str)
        fh.write("\n")
    os.replace(tmp, path)
