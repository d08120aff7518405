"""What to check: options from the command line and ``[tool.tfdebug]`` in pyproject.toml.

As ruff does, each file gets the settings of the nearest ``pyproject.toml`` with a
``[tool.tfdebug]`` table at or above it; ``--config FILE`` applies one file to all; command-line
values win per key.
"""
from __future__ import annotations

from collections import namedtuple
import os
import re

from .codes import CHECKS, INTERNAL_ERROR, READ_ERROR, SYNTAX_ERROR, UNCHECKED
from .findings import LintUsageError

FILE_CODES = (READ_ERROR, SYNTAX_ERROR, INTERNAL_ERROR, UNCHECKED)


class Options(namedtuple("Options", "select ignore exclude jobs preview",
                         defaults=((), (), (), 0, False))):
    """What to check: ``select``/``ignore`` hold recipe ids, id prefixes or categories;
    ``exclude`` globs; ``jobs`` worker processes (0: automatic); ``preview`` adds the
    findings that rest on inference (``confidence: inferred``) to the proven ones."""

    __slots__ = ()

    def wants(self, code: str, category: str | None) -> bool:
        def hit(patterns):
            return any(code.startswith(p) or p == category for p in patterns)
        if code in FILE_CODES:
            return not hit(self.ignore) or not self.ignore
        if self.select and not hit(self.select):
            return False
        return not hit(self.ignore)

    def enabled_checks(self) -> frozenset | None:
        """The check names to run (None: every check)."""
        if not self.select and not self.ignore:
            return None
        return frozenset(name for name, (code, category) in CHECKS.items()
                         if self.wants(code, category))


def check_selectors(values, what: str) -> tuple[str, ...]:
    """Validate --select/--ignore values: recipe ids, id prefixes (``TFD1``) or categories."""
    out = []
    if not values:
        return ()
    from ..recipebook import CATEGORIES  # (imported only when there is something to check)

    known_codes = {code for code, _ in CHECKS.values()} | set(FILE_CODES)
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
            elif re.fullmatch(r"TFD\d{3}", upper) and _is_recipe(upper):
                out.append(upper)  # a real recipe id that lint does not check: harmless
            elif re.fullmatch(r"TFD\d{3}", upper):
                raise LintUsageError(f"{what}: {value!r} is no recipe id; `tfdebug recipes` "
                                     "lists them (lint checks TFD101-TFD320)")
            else:
                raise LintUsageError(
                    f"{what}: {value!r} is neither a recipe id (like TFD101), an id prefix "
                    f"(like TFD1) nor a category (like tensor-as-bool); "
                    f"`tfdebug recipes` lists them")
    return tuple(out)


def _is_recipe(code: str) -> bool:
    from .. import recipebook

    return any(recipe.id == code for recipe in recipebook.load())


def read_config(path: str) -> dict | None:
    """``[tool.tfdebug]`` of the pyproject.toml at ``path`` (None when it has no such table)."""
    import tomllib

    try:
        with open(path, "rb") as fh:
            data = tomllib.load(fh)
    except (OSError, tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
        raise LintUsageError(f"{path}: cannot read [tool.tfdebug]: {exc}") from None
    tool = data.get("tool", {})
    section = tool.get("tfdebug") if isinstance(tool, dict) else None
    if section is None:
        return None
    if not isinstance(section, dict):
        raise LintUsageError(f"{path}: [tool.tfdebug] must be a table")
    return section


def load_config(start: str | None = None) -> tuple[dict, str | None]:
    """``[tool.tfdebug]`` of the nearest pyproject.toml with one, at or above ``start``
    (default: the current folder); ``({}, None)`` when there is none."""
    folder = os.path.abspath(start or os.getcwd())
    while True:
        candidate = os.path.join(folder, "pyproject.toml")
        if os.path.isfile(candidate):
            section = read_config(candidate)
            if section is not None:
                return section, candidate
        parent = os.path.dirname(folder)
        if parent == folder:
            return {}, None
        folder = parent


def options_from(config: dict, source: str | None, select=None, ignore=None, exclude=None,
                 jobs: int = 0, preview: bool | None = None) -> Options:
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
    if preview is None:
        preview = config.get("preview", False)
        if not isinstance(preview, bool):
            raise LintUsageError(f"{where} preview must be true or false")
    return Options(select=sel, ignore=ign, exclude=exc, jobs=jobs, preview=preview)


class PerFileConfig:
    """Options for each file from the nearest ``[tool.tfdebug]`` above it (ruff's rule).

    A config's ``exclude`` patterns are matched against paths relative to its own folder.
    """

    def __init__(self, select=None, ignore=None, exclude=None, jobs: int = 0,
                 preview: bool | None = None):
        self.cli = (select, ignore, exclude)
        self.jobs, self.preview = jobs, preview
        self._by_folder: dict[str, tuple[Options, str | None]] = {}

    def for_file(self, path: str) -> tuple[Options, str | None]:
        """``(options, folder of the config or None)`` for ``path``."""
        folder = os.path.dirname(os.path.abspath(path))
        found = self._by_folder.get(folder)
        if found is None:
            section, source = load_config(folder)
            options = options_from(section, source, *self.cli, jobs=self.jobs,
                                   preview=self.preview)
            found = self._by_folder[folder] = (
                options, os.path.dirname(source) if source else None)
        return found


def config_file_options(config: str, select=None, ignore=None, exclude=None, jobs=0,
                        preview: bool | None = None) -> Options:
    """Options from the ``--config`` file, for every file."""
    if not os.path.isfile(config):
        raise LintUsageError(f"--config {config}: no such file")
    section = read_config(config)
    return options_from(section or {}, config, select, ignore, exclude, jobs, preview)
