"""What lint reports: a finding at ``path:line:col``, and the usage error."""
from __future__ import annotations

import dataclasses
import logging

log = logging.getLogger("tfdebug")


class LintUsageError(ValueError):
    """Bad options or configuration; the message says what was wrong and how to fix it."""


@dataclasses.dataclass(frozen=True, order=True)
class LintFinding:
    """One problem at ``path:line:col``; ``check`` is the internal check name."""

    path: str
    line: int
    col: int
    code: str
    message: str
    check: str = ""
    category: str | None = None

    def text(self) -> str:
        return f"{self.path}:{self.line}:{self.col}: {self.code} {self.message}"

    def to_json(self) -> dict:
        title = docs = None
        if self.code.startswith("TFD"):
            try:
                from .. import recipebook
                recipe = recipebook.get(self.code)
                title, docs = recipe.title, recipe.docs or None
            except Exception:  # a missing recipe must not break the report
                log.debug("tfdebug lint: no recipe %s", self.code, exc_info=True)
        return {"file": self.path, "line": self.line, "column": self.col, "code": self.code,
                "category": self.category, "check": self.check or None,
                "message": self.message, "title": title, "docs": docs}
