"""Jupyter notebooks: the code cells of a ``.ipynb`` as one module, findings mapped back to
``cell N`` and the line in that cell (ruff's ``notebook.ipynb:cell 3:2:5`` convention).

Cells are numbered as the notebook shows them, markdown cells included. Each cell is read
as IPython reads it, as ruff does: a cell whose first line is indented loses that indent;
IPython's escapes at the start of a statement (``%timeit``, ``!pip``, ``x = !ls``, ``obj?``,
also inside an ``if`` or ``try`` block, also continued with ``\\``) become ``pass``; a cell
magic (``%%bash``) hides its cell, except the ones whose body is Python (``%%time``). A cell
that still does not parse is reported alone (E999 at its line) and the other cells are
checked; a cell of automagic commands (``pip install x``, ``ls``) is skipped, as ruff does.
"""
from __future__ import annotations

import re
from collections import namedtuple

from .codes import SYNTAX_ERROR
from .findings import LintFinding

# cell magics whose body is Python that runs in the notebook's namespace (ruff's list)
TRANSPARENT_CELL_MAGICS = frozenset({"capture", "debug", "prun", "pypy", "python", "python3",
                                     "time", "timeit"})

# IPython's line magics that work without their ``%`` (automagic); ruff skips a cell that
# starts with one, since IPython does not mix such a line with Python in one cell
AUTOMAGICS = frozenset("""
alias alias_magic autoawait autocall automagic bookmark cd code_wrap colors conda config
debug dhist dirs doctest_mode edit env gui history killbgscripts load load_ext loadpy logoff
logon logstart logstate logstop lsmagic macro magic mamba matplotlib micromamba notebook page
pastebin pdb pdef pdoc pfile pinfo pinfo2 pip popd pprint precision prun psearch psource
pushd pwd pycat pylab quickref recall rehashx reload_ext rerun reset reset_selective run save
sc set_env sx system tb time timeit unalias unload_ext who who_ls whos xdel xmode ls
""".split())

_MAGIC_ASSIGN = re.compile(r"([A-Za-z_][\w.]*(?:\s*,\s*[A-Za-z_][\w.]*)*)\s*=\s*[%!]")
_HELP = re.compile(r"%{0,2}(?!\d)[\w*]+(?:\.(?!\d)[\w*]+|\[-?\d+\])*\?\??\s*(?:#.*)?")
_AUTOMAGIC_LINE = re.compile(r"([A-Za-z_]\w*)(?:\s+[^\s=]|\s*$)")


# what the cells are parsed as: Python places a syntax error's column by reading the named
# file, so it must not be the notebook's JSON
NOTEBOOK_FILENAME = "<notebook cells>"


class NotNotebook(ValueError):
    """The file is not a readable Jupyter notebook; the message says why."""


Cell = namedtuple("Cell", "number lines shift first_line")
Cell.__doc__ = """One code cell as Python: ``lines`` (IPython escapes neutralised), the columns
``shift`` its leading indent took away, and its ``first_line`` as written (for automagic)."""


def read_cells(text: str) -> list[Cell]:
    """The code cells of a notebook's JSON text, as Python; [] for a notebook whose declared
    language is not Python. Raises NotNotebook for anything that is not a notebook."""
    import json

    try:
        data = json.loads(text)
    except ValueError as exc:
        raise NotNotebook(f"not a Jupyter notebook (invalid JSON: {exc})") from None
    except RecursionError:
        raise NotNotebook("not a Jupyter notebook (its JSON is nested too deeply to read)") \
            from None
    cells = data.get("cells") if isinstance(data, dict) else None
    if not isinstance(cells, list):
        raise NotNotebook("not a Jupyter notebook (no `cells` list; nbformat 4 is read)")
    if not _is_python(data.get("metadata")):
        return []
    out = []
    for number, cell in enumerate(cells, 1):
        if not isinstance(cell, dict) or cell.get("cell_type") != "code":
            continue
        source = cell.get("source", "")
        source = "".join(s for s in source if isinstance(s, str)) if isinstance(
            source, list) else source if isinstance(source, str) else ""
        out.append(_python_cell(number, source.splitlines()))
    return out


def _is_python(metadata) -> bool:
    if not isinstance(metadata, dict):
        return True
    for key, field in (("language_info", "name"), ("kernelspec", "language")):
        entry = metadata.get(key)
        language = entry.get(field) if isinstance(entry, dict) else None
        if isinstance(language, str) and language:
            return language.lower() == "python"
    return True


def _python_cell(number: int, lines: list[str]) -> Cell:
    first_line = next((line for line in lines if line.strip()), "")
    indent = re.match(r"[ \t]*", lines[0]).group(0) if lines else ""
    if indent:  # IPython drops the first line's indent from every line that has it
        lines = [line[len(indent):] if line.startswith(indent) else line for line in lines]
    if lines and lines[0].startswith("%%"):
        name = lines[0][2:].split(maxsplit=1)[0] if lines[0][2:].strip() else ""
        if name not in TRANSPARENT_CELL_MAGICS:
            return Cell(number, [""] * len(lines), len(indent), first_line)
        lines = [""] + lines[1:]
    return Cell(number, neutralise(lines), len(indent), first_line)


def neutralise(lines: list[str]) -> list[str]:
    """``lines`` with each IPython escape that starts a statement replaced by ``pass`` (or
    ``target = None``), the lines it continues with ``\\`` blanked; line count unchanged.
    Lines inside strings and brackets are left alone."""
    out, scanner, continued = [], _Scanner(), False
    for line in lines:
        if continued:
            out.append("")
            continued = line.rstrip().endswith("\\")
            continue
        replaced = _escape(line) if scanner.at_statement_start() else None
        if replaced is not None:
            out.append(replaced)
            continued = line.rstrip().endswith("\\")
            continue
        out.append(line)
        scanner.feed(line)
    return out


def _escape(line: str) -> str | None:
    """The Python that stands for an IPython escape line, or None for a Python line."""
    stripped = line.lstrip()
    if not stripped:
        return None
    indent = line[:len(line) - len(stripped)]
    if stripped[0] in "%!?/,;":
        return indent + "pass"
    assign = _MAGIC_ASSIGN.match(stripped)
    if assign:
        return f"{indent}{assign.group(1)} = None"
    if _HELP.fullmatch(stripped.rstrip()):
        return indent + "pass"
    return None


class _Scanner:
    """Follows strings, brackets and ``\\`` continuations line by line, to tell whether the
    next line starts a statement (only there is an IPython escape an escape)."""

    def __init__(self):
        self.quote = None   # the open string's quote: ' " ''' or """
        self.depth = 0      # open brackets
        self.backslash = False

    def at_statement_start(self) -> bool:
        return self.quote is None and self.depth <= 0 and not self.backslash

    def feed(self, line: str) -> None:
        i, n, comment_at = 0, len(line), None
        while i < n:
            char = line[i]
            if self.quote:
                if char == "\\":
                    i += 2
                    continue
                if line.startswith(self.quote, i):
                    i += len(self.quote)
                    self.quote = None
                    continue
                i += 1
                continue
            if char == "#":
                comment_at = i
                break
            if char in "'\"":
                triple = char * 3
                self.quote = triple if line.startswith(triple, i) else char
                i += len(self.quote)
                continue
            if char in "([{":
                self.depth += 1
            elif char in ")]}":
                self.depth -= 1
            i += 1
        self.depth = max(self.depth, 0)
        self.backslash = self.quote is None and line[:comment_at].rstrip().endswith("\\")
        if self.quote in ("'", '"') and not line.endswith("\\"):
            self.quote = None  # an unclosed one-line string ends with its line (a syntax error)


def split_broken(cells: list[Cell], path: str) -> tuple[list[Cell], list[LintFinding]]:
    """Cells that parse alone, and an E999 finding for each other cell (none for a cell of
    automagic commands, which ruff skips too); called when the joined cells do not parse."""
    import ast

    kept, errors = [], []
    for cell in cells:
        try:
            ast.parse("\n".join(cell.lines) + "\n", filename=NOTEBOOK_FILENAME)
        except (SyntaxError, ValueError) as exc:
            blank = cell._replace(lines=[""] * len(cell.lines))
            kept.append(blank)
            magic = _AUTOMAGIC_LINE.match(cell.first_line.strip())
            if magic and magic.group(1) in AUTOMAGICS:
                continue
            line = getattr(exc, "lineno", None) or 1
            col = (getattr(exc, "offset", None) or 1) + cell.shift
            errors.append(LintFinding(path, line, col, SYNTAX_ERROR,
                                      f"SyntaxError: {getattr(exc, 'msg', None) or exc}",
                                      cell=cell.number))
        except (RecursionError, MemoryError) as exc:
            kept.append(cell._replace(lines=[""] * len(cell.lines)))
            errors.append(LintFinding(path, 1, 1, SYNTAX_ERROR,
                                      f"cannot parse: {type(exc).__name__}", cell=cell.number))
        else:
            kept.append(cell)
    return kept, errors


def joined(cells: list[Cell]) -> tuple[str, list[tuple[int, int, int]]]:
    """``(source, where)``: the cells as one module, and ``where[i]`` = (cell, line in cell,
    column shift) of source line ``i + 1``."""
    lines, where = [], []
    for cell in cells:
        lines.extend(cell.lines)
        where.extend((cell.number, line, cell.shift) for line in range(1, len(cell.lines) + 1))
    return "\n".join(lines) + "\n", where


def to_cells(findings, where) -> list[LintFinding]:
    """Findings on the joined source, re-pointed at their cells."""
    out = []
    for f in findings:
        if 0 < f.line <= len(where):
            cell, line, shift = where[f.line - 1]
            out.append(f._replace(line=line, cell=cell, col=f.col + shift))
        else:
            out.append(f)
    return out
