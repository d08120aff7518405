"""Jupyter notebooks: the code cells of a ``.ipynb`` as one module, findings mapped back to
``cell N`` and the line in that cell (ruff's ``notebook.ipynb:cell 3:2:5`` convention).

Cells are numbered as the notebook shows them, markdown cells included. IPython magics
(``%timeit``, ``!pip``) become blank lines; a cell magic (``%%bash``) blanks its cell.
"""
from __future__ import annotations

from .findings import LintFinding


class NotNotebook(ValueError):
    """The file is not a readable Jupyter notebook; the message says why."""


def notebook_source(text: str) -> tuple[str, list[tuple[int, int]]]:
    """``(source, where)``: the code cells joined, and ``where[i]`` = (cell, line in cell)
    of source line ``i + 1``."""
    import json

    try:
        data = json.loads(text)
    except ValueError as exc:
        raise NotNotebook(f"not a Jupyter notebook (invalid JSON: {exc})") from None
    cells = data.get("cells") if isinstance(data, dict) else None
    if not isinstance(cells, list):
        raise NotNotebook("not a Jupyter notebook (no `cells` list; nbformat 4 is read)")
    lines, where = [], []
    for number, cell in enumerate(cells, 1):
        if not isinstance(cell, dict) or cell.get("cell_type") != "code":
            continue
        source = cell.get("source", "")
        source = "".join(source) if isinstance(source, list) else str(source)
        cell_lines = source.splitlines()
        blank = bool(cell_lines) and cell_lines[0].lstrip().startswith("%%")
        for line_number, line in enumerate(cell_lines, 1):
            stripped = line.lstrip()
            if blank or stripped.startswith(("%", "!")) or (stripped.endswith("?") and
                                                            "#" not in stripped):
                line = ""
            lines.append(line)
            where.append((number, line_number))
    return "\n".join(lines) + "\n", where


def to_cells(findings, where) -> list[LintFinding]:
    """Findings on the joined source, re-pointed at their cells."""
    out = []
    for f in findings:
        if 0 < f.line <= len(where):
            cell, line = where[f.line - 1]
            out.append(f._replace(line=line, cell=cell))
        else:
            out.append(f)
    return out
