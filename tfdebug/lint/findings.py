"""What lint reports: a finding at ``path:line:col``, and the usage error."""
from __future__ import annotations

from collections import namedtuple


def debug(message: str, *args) -> None:
    """Log at debug level with the traceback being handled (logging is imported only here:
    a clean run never pays for it)."""
    import logging

    logging.getLogger("tfdebug").debug(message, *args, exc_info=True)


class LintUsageError(ValueError):
    """Bad options or configuration; the message says what was wrong and how to fix it."""


class LintFinding(namedtuple("LintFinding",
                             "path line col code message check category cell confidence",
                             defaults=("", None, None, None))):
    """One problem at ``path:line:col``; ``check`` is the internal check name.

    In a notebook, ``cell`` is the cell's number and ``line`` the line in that cell.
    ``confidence``: ``proven`` (the analysis shows it) or ``inferred`` (it rests on the
    project's usual shape; reported only with ``preview``); None for file codes (E9xx).
    (An immutable named tuple: the linter's values avoid dataclasses, whose import costs
    more than checking a file.)
    """

    __slots__ = ()

    def sort_key(self) -> tuple:
        return (self.path, self.cell or 0, self.line, self.col, self.code, self.message)

    def __lt__(self, other: "LintFinding") -> bool:
        return self.sort_key() < other.sort_key()

    def where(self) -> str:
        """``path:line:col``, or ``path:cell N:line:col`` in a notebook."""
        cell = f"cell {self.cell}:" if self.cell else ""
        return f"{self.path}:{cell}{self.line}:{self.col}"

    def text(self) -> str:
        return f"{self.where()}: {self.code} {self.message}"

    def recipe(self) -> tuple[str | None, str | None]:
        """The cited recipe's ``(title, docs)``, or Nones."""
        if self.code.startswith("TFD"):
            try:
                from .. import recipebook
                recipe = recipebook.get(self.code)
                return recipe.title, recipe.docs or None
            except Exception:  # a missing recipe must not break the report
                debug("tfdebug lint: no recipe %s", self.code)
        return None, None

    def to_json(self) -> dict:
        title, docs = self.recipe()
        out = {"file": self.path, "line": self.line, "column": self.col, "code": self.code,
               "category": self.category, "check": self.check or None,
               "message": self.message, "title": title, "docs": docs}
        if self.cell:
            out["cell"] = self.cell
        if self.confidence:
            out["confidence"] = self.confidence
        return out
