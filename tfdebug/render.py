"""Diagnoses, recipes and tables as text (DESIGN.md's layout); JSON goes through ``Finding``.

Rendering is pure: it takes data and returns strings. Colour only when asked, and
:func:`use_color` says yes only for a TTY with ``NO_COLOR`` unset. Tables use tabulate,
imported when a table is drawn.

Example::

    from tfdebug import render
    print(render.table([["TFD101", "tensor-as-bool"]], ["id", "category"]))
"""
from __future__ import annotations

import os
import re
import sys
import textwrap

WIDTH = 88
_RESET, _BOLD, _RED, _CYAN, _DIM, _GREEN = "\x1b[0m", "\x1b[1m", "\x1b[31m", "\x1b[36m", "\x1b[2m", "\x1b[32m"


def use_color(stream=None) -> bool:
    """True when ``stream`` is a terminal and neither ``NO_COLOR`` nor ``TERM=dumb`` is set."""
    if os.environ.get("NO_COLOR") is not None or os.environ.get("TERM") == "dumb":
        return False
    try:
        return bool(stream is not None and stream.isatty())
    except Exception:  # noqa: BLE001 - closed or odd streams are not terminals
        return False


def _paint(text: str, code: str, color: bool) -> str:
    return f"{code}{text}{_RESET}" if color else text


def paint_finding(where: str, code: str, message: str, color: bool = True) -> str:
    """A lint line ``path:line:col: CODE message``: the place bold, the code bold red."""
    return f"{_paint(where, _BOLD, color)}: {_paint(code, _BOLD + _RED, color)} {message}"


def paint_summary(text: str, color: bool) -> str:
    return _paint(text, _BOLD, color)


def _paragraph(label: str, text: str, color: bool) -> str:
    """``  label: text`` wrapped to WIDTH, continuation lines under the text."""
    body = " ".join(text.split())
    head = f"  {label + ':':<7} "
    wrapped = textwrap.wrap(body, WIDTH - len(head)) or [""]
    lines = [_paint(head, _BOLD, color) + wrapped[0]]
    lines += [" " * len(head) + line for line in wrapped[1:]]
    return "\n".join(lines)


def display_path(path: str | None) -> str:
    """``path`` relative to the working directory when it lies below it; a notebook or
    IPython cell as ``cell N`` (its execution count, as ``tfdebug lint`` names cells)."""
    if not path:
        return "<unknown>"
    cell = ipython_cell(path)
    if cell is not None:
        return f"cell {cell}"
    try:
        rel = os.path.relpath(path)
        return path if rel.startswith("..") or os.path.isabs(rel) else rel
    except ValueError:  # other drive, odd names
        return path


def ipython_cell(path: str) -> int | None:
    """The execution count of the IPython cell compiled under ``path``, else None (IPython
    keeps the map; it is never imported just to ask)."""
    if "IPython" not in sys.modules or not isinstance(path, str):
        return None
    try:
        shell = sys.modules["IPython"].get_ipython()
        number = shell.compile._filename_map.get(path) if shell is not None else None
    except Exception:  # noqa: BLE001 - another IPython: the path as it is
        return None
    return number if isinstance(number, int) and number > 0 else None


def diagnosis_text(diagnosis, color: bool = False) -> str:
    """DESIGN.md's layout: title, location, source with the offending line marked, cause, fix.

    A generic diagnosis (no recipe) says so in its title and gives TensorFlow's message and
    where to read more instead of a cause and a fix it does not know.
    """
    recipe = diagnosis.recipe
    if recipe is None:
        title = (f"tfdebug generic {diagnosis.category or 'graph-mode-error'}: ",
                 f"no recipe explains this {diagnosis.error}")
    else:
        title = (f"tfdebug {recipe.id} {recipe.category}: ", recipe.title)
    lines = [_paint(title[0], _BOLD + _RED, color) + _paint(title[1], _BOLD, color)]
    lines.extend(_location_lines(diagnosis, color))
    symptom = getattr(diagnosis, "symptom", None)
    reason = getattr(diagnosis, "autograph", "")
    if reason:
        lines.append(_paragraph("autograph", f"ran {diagnosis.function or 'this function'} as plain "
                                f"Python: {reason}", color))
    if symptom is not None and reason:
        lines.append(_paragraph("symptom", f"{display_path(symptom.file)}:{symptom.line} "
                                f"({_source_line(symptom.file, symptom.line)}): {_first_sentence(diagnosis.message)}",
                                color))
    elif symptom is not None:
        lines.append(_paragraph("named", f"TensorFlow reported {display_path(symptom.file)}:{symptom.line}"
                                f" ({_source_line(symptom.file, symptom.line)}); the line above causes it",
                                color))
    for shape in getattr(diagnosis, "shapes", ())[:4]:
        lines.append(_paragraph("shape", shape, color))
    if recipe is None:
        lines.append(_paragraph("error", f"{diagnosis.error}: {diagnosis.message}", color))
        lines.append(_paragraph("note", "generic diagnosis: TensorFlow's own message at your line; "
                                "tfdebug knows no cause or fix for it", color))
        more = diagnosis.docs or "https://www.tensorflow.org/guide/function"
        if diagnosis.category:
            more += f" ; tfdebug recipes --category {diagnosis.category}"
        lines.append(_paragraph("docs", more, color))
        return "\n".join(lines)
    if getattr(diagnosis, "layer", "message") == "construct":
        lines.append(_paragraph("match", f"{diagnosis.error} at a line `tfdebug lint` flags {recipe.id}",
                                color))
    lines.append(_paragraph("cause", recipe.cause, color))
    lines.append(_paragraph("fix", recipe.fix, color))
    lines.append(_paragraph("docs", f"tfdebug explain {recipe.id}", color))
    return "\n".join(lines)


_TITLE = re.compile(r"^(tfdebug (?:TFD\d+|generic) [\w-]+: )(.*)$")
_ROW = re.compile(r"^  ([> ]) +\d+ \| ")
_LABEL = re.compile(r"^(  [a-z]+: +)(.*)$")


def paint_diagnoses(text: str, color: bool) -> str:
    """``text`` (a traceback) with the diagnoses tfdebug added as notes in colour, as
    :func:`diagnosis_text` paints them: the notes themselves stay plain text."""
    if not color or "tfdebug " not in text:
        return text
    out, inside = [], False
    for line in text.split("\n"):
        title = _TITLE.match(line)
        if title:
            inside = True
            out.append(_paint(title.group(1), _BOLD + _RED, True) + _paint(title.group(2), _BOLD, True))
            continue
        if not inside or not line.startswith("  "):
            inside = False
            out.append(line)
            continue
        row, label = _ROW.match(line), _LABEL.match(line)
        if line.startswith("  --> "):
            out.append("  --> " + _paint(line[6:], _CYAN, True))
        elif row:
            out.append(_paint(line, _BOLD if row.group(1) == ">" else _DIM, True))
        elif label:
            out.append(_paint(label.group(1), _BOLD, True) + label.group(2))
        else:
            out.append(line)
    return "\n".join(out)


def _first_sentence(text: str) -> str:
    head, dot, _ = text.partition(". ")
    return head + "." if dot else text


def _source_line(filename, line) -> str:
    from ._frames import source_line

    return source_line(filename, line) or "source unavailable"


def _location_lines(diagnosis, color: bool) -> list[str]:
    lines = []
    if diagnosis.file:
        where = f"{display_path(diagnosis.file)}:{diagnosis.line}"
        if diagnosis.function:
            where += f" in {diagnosis.function}"
        lines.append(f"  --> {_paint(where, _CYAN, color)}")
    if diagnosis.context:
        width = len(str(max(n for n, _ in diagnosis.context)))
        for number, text in diagnosis.context:
            mark = ">" if number == diagnosis.line else " "
            row = f"  {mark} {number:>{width}} | {text}".rstrip()
            lines.append(_paint(row, _BOLD, color) if mark == ">" else _paint(row, _DIM, color))
    elif diagnosis.code:
        lines.append(f"  > {diagnosis.code}")
    return lines


def recipe_text(recipe, color: bool = False) -> str:
    """A recipe in full, for ``tfdebug explain ID``: cause, fix, before/after, docs."""
    lines = [_paint(f"{recipe.id} {recipe.category}: ", _BOLD + _RED, color) + _paint(recipe.title, _BOLD, color)]
    if recipe.errors:
        lines.append(_paragraph("errors", ", ".join(recipe.errors), color))
    lines.append(_paragraph("cause", recipe.cause, color))
    lines.append(_paragraph("fix", recipe.fix, color))
    for label, code, paint in (("before", recipe.before, _RED), ("after", recipe.after, _GREEN)):
        if code.strip():
            lines.append(_paint(f"  {label}:", _BOLD, color))
            lines.extend(_paint("    " + line, paint, color) if line else "" for line in code.strip("\n").splitlines())
    if recipe.docs:
        lines.append(_paragraph("docs", recipe.docs, color))
    return "\n".join(lines)


def terminal_width(stream=None) -> int | None:
    """The width to fit text to: ``COLUMNS`` when set, else the terminal's when ``stream``
    (default stdout) is one (``shutil.get_terminal_size``); None for a pipe or a file."""
    import shutil
    import sys

    columns = os.environ.get("COLUMNS", "")
    if columns.isdigit() and int(columns) > 0:
        return int(columns)
    try:
        if (stream if stream is not None else sys.stdout).isatty():
            return shutil.get_terminal_size().columns
    except Exception:  # noqa: BLE001 - closed or odd streams are not terminals
        pass
    return None


def table(rows, headers, fmt: str = "simple", *, maxcolwidths=None, width: int | None = None,
          color: bool = False) -> str:
    """A text table of ``rows`` (lists of cells) under ``headers`` (tabulate, imported lazily).

    ``width``: the columns it must fit in (e.g. :func:`terminal_width`); a table wider than
    that is laid out vertically, one block of ``key: value`` lines per row. ``color``: bold
    headers. Example::

        print(render.table(rows, ["id", "title"], width=render.terminal_width()))
    """
    from tabulate import tabulate

    rows = [["" if cell is None else cell for cell in row] for row in rows]
    shown = [_paint(str(h), _BOLD, color) for h in headers]
    text = tabulate(rows, headers=shown, tablefmt=fmt, maxcolwidths=maxcolwidths)
    if width is None or max(map(_visible_len, text.splitlines() or [""])) <= width:
        return text
    return vertical(rows, headers, width, color)


def _visible_len(line: str) -> int:
    import re

    return len(re.sub(r"\x1b\[[0-9;]*m", "", line))


def vertical(rows, headers, width: int, color: bool = False) -> str:
    """``rows`` as blocks of ``key: value`` lines (a cell's own lines kept, long ones wrapped
    under the value), a blank line between blocks: the layout for a narrow terminal."""
    keys = [f"{h}:" for h in headers]
    pad = max(map(len, keys), default=0) + 1
    room = max(width - pad, 20)
    blocks = []
    for row in rows:
        lines = []
        for key, cell in zip(keys, row):
            wrapped = [piece for line in str(cell).splitlines() or [""]
                       for piece in (textwrap.wrap(line, room, break_long_words=True) or [""])]
            lines.append(_paint(f"{key:<{pad}}", _BOLD, color) + wrapped[0])
            lines += [" " * pad + piece for piece in wrapped[1:]]
        blocks.append("\n".join(line.rstrip() for line in lines))
    return "\n\n".join(blocks)


def recipes_table(recipes, width: int | None = None, color: bool = False) -> str:
    """The ``tfdebug recipes`` listing: id, category, title."""
    return table([(r.id, r.category, r.title) for r in recipes], ["id", "category", "title"],
                 width=width, color=color)
