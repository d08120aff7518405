"""What to check: options from the command line and ``[tool.tfdebug]`` in pyproject.toml."""
from __future__ import annotations

import dataclasses
import os
import re

from .codes import CHECKS, INTERNAL_ERROR, READ_ERROR, SYNTAX_ERROR
from .findings import LintUsageError


@dataclasses.dataclass
class Options:
    """What to check: ``select``/``ignore`` hold recipe ids, id prefixes or categories."""

    select: tuple[str, ...] = ()
    ignore: tuple[str, ...] = ()
    exclude: tuple[str, ...] = ()
    jobs: int = 0

    def wants(self, code: str, category: str | None) -> bool:
        def hit(patterns):
            return any(code.startswith(p) or p == category for p in patterns)
        if code in (READ_ERROR, SYNTAX_ERROR, INTERNAL_ERROR):
            return not hit(self.ignore) or not self.ignore
        if self.select and not hit(self.select):
            return False
        return not hit(self.ignore)


def check_selectors(values, what: str) -> tuple[str, ...]:
    """Validate --select/--ignore values: recipe ids, id prefixes (``TFD1``) or categories."""
    from ..recipebook import CATEGORIES

    out = []
    known_codes = {code for code, _ in CHECKS.values()} | {READ_ERROR, SYNTAX_ERROR, INTERNAL_ERROR}
    for raw in values:
        for value in (v.strip() for v in str(raw).split(",")):
            if not value:
                continue
            upper = value.upper()
            if upper in ("ALL",):
                out.append("TFD")
            elif value in CATEGORIES:
                out.append(value)
            elif upper.startswith(("TFD", "E9")) and any(c.startswith(upper) for c in known_codes):
                out.append(upper)
            elif re.fullmatch(r"TFD\d{3}", upper):
                out.append(upper)  # a real recipe id that lint does not check: harmless
            else:
                raise LintUsageError(
                    f"{what}: {value!r} is neither a recipe id (like TFD101), an id prefix "
                    f"(like TFD1) nor a category (like tensor-as-bool); "
                    f"`tfdebug recipes` lists them")
    return tuple(out)


def load_config(start: str | None = None) -> tuple[dict, str | None]:
    """``[tool.tfdebug]`` of the nearest pyproject.toml at or above ``start`` (default: cwd)."""
    import tomllib

    folder = os.path.abspath(start or os.getcwd())
    while True:
        candidate = os.path.join(folder, "pyproject.toml")
        if os.path.isfile(candidate):
            try:
                with open(candidate, "rb") as fh:
                    data = tomllib.load(fh)
            except (OSError, tomllib.TOMLDecodeError) as exc:
                raise LintUsageError(f"{candidate}: cannot read [tool.tfdebug]: {exc}") from None
            section = data.get("tool", {}).get("tfdebug", {})
            if not isinstance(section, dict):
                raise LintUsageError(f"{candidate}: [tool.tfdebug] must be a table")
            return section, candidate
        parent = os.path.dirname(folder)
        if parent == folder:
            return {}, None
        folder = parent


def options_from(config: dict, source: str | None, select=None, ignore=None, exclude=None,
                 jobs: int = 0) -> Options:
    """Merge ``[tool.tfdebug]`` with command-line values (the command line wins per key)."""
    def listed(key):
        value = config.get(key, [])
        if isinstance(value, str):
            value = [value]
        if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
            raise LintUsageError(f"{source}: [tool.tfdebug] {key} must be a list of strings, "
                                 f"like {key} = [\"TFD101\", \"retracing\"]")
        return value
    where = f"{source} [tool.tfdebug]"
    sel = check_selectors(select if select else listed("select"),
                          "--select" if select else f"{where} select")
    ign = check_selectors(ignore if ignore else listed("ignore"),
                          "--ignore" if ignore else f"{where} ignore")
    exc = tuple(exclude) if exclude else tuple(listed("exclude"))
    return Options(select=sel, ignore=ign, exclude=exc, jobs=jobs)
