"""Which files to check and how to read them: walking folders, encodings, suppression
comments, and the per-file entry points (``lint_source``, ``lint_file``, ``lint_paths``)."""
from __future__ import annotations

import ast
import fnmatch
import os
import re
import stat
import tokenize

from .codes import INTERNAL_ERROR, READ_ERROR, SYNTAX_ERROR
from .config import Options, PerFileConfig
from .driver import analyse
from .findings import LintFinding, LintUsageError, debug

SOURCE_SUFFIXES = (".py", ".pyi", ".ipynb")

DEFAULT_EXCLUDE = (".git", ".hg", ".svn", "__pycache__", ".venv", "venv", ".tox", ".nox",
                   ".eggs", "*.egg-info", "build", "dist", "node_modules", ".mypy_cache",
                   ".pytest_cache", ".ruff_cache", ".ipynb_checkpoints")


_NOQA = re.compile(r"#\s*noqa(?::\s*(?P<codes>[\w\-]+(?:[\s,]+[\w\-]+)*))?", re.I)


_IGNORE = re.compile(r"#\s*tfdebug:\s*ignore(?:\[(?P<codes>[^\]]*)\])?", re.I)


def suppressed(line_text: str, code: str, category: str | None) -> bool:
    """Does the source line carry ``# noqa[: CODES]`` or ``# tfdebug: ignore[CODES]`` for code?"""
    if "#" not in line_text:
        return False
    for pattern in (_IGNORE, _NOQA):
        m = pattern.search(line_text)
        if m:
            codes = m.group("codes")
            if not codes:
                return True
            wanted = {c.strip() for c in re.split(r"[\s,]+", codes) if c.strip()}
            if code in {c.upper() for c in wanted} or (category and category in wanted):
                return True
    return False


def _read_regular_file(path: str) -> bytes | None:
    """The bytes of ``path``, or None when it is not a regular file (never blocks: a FIFO is
    opened without waiting for a writer, then refused)."""
    fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0))
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            return None
        with os.fdopen(fd, "rb", closefd=False) as fh:
            return fh.read()
    finally:
        os.close(fd)


def read_source(path: str) -> tuple[str | None, LintFinding | None]:
    """The text of ``path`` (PEP 263 encoding, default UTF-8), or a finding saying why not."""
    try:
        data = _read_regular_file(path)
    except OSError as exc:
        return None, LintFinding(path, 1, 1, READ_ERROR, f"cannot read file: {exc.strerror or exc}")
    if data is None:
        return None, LintFinding(path, 1, 1, READ_ERROR, "not a regular file (a FIFO, socket or "
                                 "device); tfdebug lint reads only regular files")
    try:
        import io
        encoding, _ = tokenize.detect_encoding(io.BytesIO(data).readline)
        text = data.decode(encoding)
    except (SyntaxError, LookupError) as exc:
        try:
            data.decode("utf-8")
        except UnicodeDecodeError as bad:
            line = data[:bad.start].count(b"\n") + 1
            return None, LintFinding(path, line, 1, READ_ERROR,
                                     f"not valid utf-8 text (byte 0x{data[bad.start]:02x}); "
                                     "save the file as UTF-8 or declare its encoding")
        return None, LintFinding(path, 1, 1, READ_ERROR, f"bad encoding declaration: {exc}")
    except UnicodeDecodeError as exc:
        line = data[:exc.start].count(b"\n") + 1
        return None, LintFinding(path, line, 1, READ_ERROR,
                                 f"not valid {exc.encoding} text (byte 0x{data[exc.start]:02x}); "
                                 "save the file as UTF-8 or declare its encoding")
    if text.startswith("\ufeff"):
        text = text[1:]
    return text, None


def lint_source(source: str, path: str = "<string>", header: str = "",
                enabled: frozenset | None = None, preview: bool = False) -> list[LintFinding]:
    """Findings for ``source`` (syntax errors become an E999 finding; never raises).

    ``header`` is prepended (e.g. imports) and line numbers are those of ``source``;
    ``preview`` adds inferred findings to the proven ones.
    """
    offset = header.count("\n")
    text = header + source
    tree, problem = _parse(text, path, offset)
    if problem is not None:
        return [problem]
    return _check(tree, text, path, enabled, offset, preview)


def _parse(text: str, path: str, offset: int = 0, filename: str | None = None):
    """``(tree, None)``, or ``(None, the E999 finding)`` when ``text`` does not parse.

    ``filename`` names text that is not the file's own (a notebook's cells): Python reads the
    named file to place a syntax error's column, so it must not be a real file then.
    """
    try:
        return ast.parse(text, filename=filename or path), None
    except (SyntaxError, ValueError) as exc:
        line = max(1, (getattr(exc, "lineno", None) or 1 + offset) - offset)
        col = getattr(exc, "offset", None) or 1
        return None, LintFinding(path, line, col, SYNTAX_ERROR,
                                 f"SyntaxError: {getattr(exc, 'msg', None) or exc}")
    except (RecursionError, MemoryError) as exc:
        return None, LintFinding(path, 1, 1, SYNTAX_ERROR, f"cannot parse: {type(exc).__name__} "
                                 "(nested or sized beyond what Python's parser takes)")


def _check(tree: ast.Module, text: str, path: str, enabled: frozenset | None,
           offset: int = 0, preview: bool = False) -> list[LintFinding]:
    """The unsuppressed findings of a parsed module (a checker bug becomes one finding)."""
    lines = text.splitlines()
    try:
        findings = analyse(tree, path, lines, enabled, preview)
    except Exception as exc:  # a checker bug must not stop the run: report it, keep going
        debug("tfdebug lint: internal error on %s", path)
        return [LintFinding(path, 1, 1, INTERNAL_ERROR,
                            f"tfdebug could not check this file ({type(exc).__name__}: {exc}); "
                            "please report it")]
    out = []
    for f in findings:
        text_line = lines[f.line - 1] if 0 < f.line <= len(lines) else ""
        if suppressed(text_line, f.code, f.category):
            continue
        out.append(f._replace(line=f.line - offset) if offset else f)
    return out


def lint_file(path: str, enabled: frozenset | None = None,
              preview: bool = False) -> list[LintFinding]:
    """Findings for one ``.py`` file or Jupyter notebook (``.ipynb``); never raises."""
    text, problem = read_source(path)
    if problem is not None:
        return [problem]
    if path.endswith(".ipynb"):
        return _lint_notebook(text, path, enabled, preview)
    return lint_source(text, path, enabled=enabled, preview=preview)


def _lint_notebook(text: str, path: str, enabled: frozenset | None,
                   preview: bool = False) -> list[LintFinding]:
    """A notebook's cells checked as one module; a cell that does not parse is reported alone
    (E999 in that cell) and left out, and the other cells are still checked."""
    from .notebooks import (NOTEBOOK_FILENAME, NotNotebook, joined, read_cells, split_broken,
                            to_cells)  # here: a run without notebooks never loads them

    try:
        cells = read_cells(text)
    except NotNotebook as exc:
        return [LintFinding(path, 1, 1, READ_ERROR, str(exc))]
    source, where = joined(cells)
    tree, problem = _parse(source, path, filename=NOTEBOOK_FILENAME)
    broken = []
    if problem is not None:
        cells, broken = split_broken(cells, path)
        source, where = joined(cells)
        tree, problem = _parse(source, path, filename=NOTEBOOK_FILENAME)
        if problem is not None:  # each cell parses alone, not all together
            return sorted(broken + to_cells([problem], where))
    return sorted(broken + to_cells(_check(tree, source, path, enabled, 0, preview), where))


def _excluded(relpath: str, patterns) -> bool:
    """flake8's rule: a pattern matches the base name or the path (relative to the argument)."""
    norm = relpath.replace(os.sep, "/")
    name = norm.rstrip("/").rsplit("/", 1)[-1]
    for pattern in patterns:
        p = pattern.rstrip("/").removeprefix("./")
        if fnmatch.fnmatch(name, p) or fnmatch.fnmatch(norm, p) or fnmatch.fnmatch(norm, p + "/*"):
            return True
    return False


def _excluded_under(path: str, root: str, patterns) -> bool:
    """Is ``path``, or a folder between ``root`` and it, matched by ``patterns``?"""
    rel = os.path.relpath(os.path.abspath(path), root).replace(os.sep, "/")
    if rel.startswith("../"):
        return False
    parts = rel.split("/")
    return any(_excluded("/".join(parts[:i]), patterns) for i in range(1, len(parts) + 1))


def collect_files(paths, exclude=()) -> list[tuple[str, bool]]:
    """``(path, named)`` for the .py/.pyi/.ipynb files under ``paths``; ``named`` when the
    user gave the file by name (then it is always kept). Each file once, however many links
    or arguments lead to it; links to folders are not followed (no loops)."""
    patterns = tuple(DEFAULT_EXCLUDE) + tuple(exclude)
    files, seen = [], set()

    def add(path, named):
        key = os.path.realpath(path)
        if key not in seen:
            seen.add(key)
            files.append((path, named))

    for path in paths:
        if os.path.isdir(path):
            for root, dirs, names in os.walk(path):
                rel = os.path.relpath(root, path)
                rel = "" if rel == "." else rel + "/"
                dirs[:] = sorted(d for d in dirs if not _excluded(rel + d, patterns))
                for name in sorted(names):
                    if name.endswith(SOURCE_SUFFIXES) and not _excluded(rel + name, patterns):
                        add(os.path.normpath(os.path.join(root, name)), False)
        elif os.path.lexists(path):
            add(path, True)
        else:
            raise LintUsageError(f"{path}: no such file or directory")
    return files


def _lint_item(item) -> list[LintFinding]:
    path, options = item
    found = lint_file(path, options.enabled_checks(), options.preview)
    return [f for f in found if options.wants(f.code, f.category)]


def lint_paths(paths, options: Options | None = None,
               per_file: PerFileConfig | None = None) -> list[LintFinding]:
    """Lint files and folders; returns the selected, unsuppressed findings, sorted.

    ``options`` applies to every file; with ``per_file``, each file gets the options of the
    nearest ``[tool.tfdebug]`` above it instead (and its ``exclude``).

    Example::

        findings = lint_paths(["src/"], Options(select=("tensor-as-bool",)))
    """
    options = options or Options()
    items = []
    for path, named in collect_files(paths, options.exclude):
        file_options = options
        if per_file is not None:
            file_options, root = per_file.for_file(path)
            if not named and root and file_options.exclude and \
                    _excluded_under(path, root, file_options.exclude):
                continue
        items.append((path, file_options))
    jobs = options.jobs or (min(os.cpu_count() or 1, 8) if len(items) >= 64 else 1)
    results: list[LintFinding] = []
    if jobs > 1 and len(items) > 1:
        import multiprocessing

        chunk = max(1, len(items) // (jobs * 8))
        method = "fork" if "fork" in multiprocessing.get_all_start_methods() else None
        with multiprocessing.get_context(method).Pool(jobs) as pool:
            for found in pool.imap(_lint_item, items, chunksize=chunk):
                results.extend(found)
    else:
        for item in items:
            results.extend(_lint_item(item))
    return sorted(results)
