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


def _paragraph(label: str, text: str, color: bool) -> str:
    """``  label: text`` wrapped to WIDTH, continuation lines under the text."""
    body = " ".join(text.split())
    head = f"  {label + ':':<7} "
    wrapped = textwrap.wrap(body, WIDTH - len(head)) or [""]
    lines = [_paint(head, _BOLD, color) + wrapped[0]]
    lines += [" " * len(head) + line for line in wrapped[1:]]
    return "\n".join(lines)


def display_path(path: str | None) -> str:
    """``path`` relative to the working directory when it lies below it."""
    if not path:
        return "<unknown>"
    try:
        rel = os.path.relpath(path)
        return path if rel.startswith("..") or os.path.isabs(rel) else rel
    except ValueError:  # other drive, odd names
        return path


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


def table(rows, headers, fmt: str = "simple") -> str:
    """A text table of ``rows`` (lists of cells) under ``headers`` (tabulate, imported lazily)."""
    from tabulate import tabulate

    return tabulate([list(r) for r in rows], headers=list(headers), tablefmt=fmt)


def recipes_table(recipes) -> str:
    """The ``tfdebug recipes`` listing: id, category, title."""
    return table([(r.id, r.category, r.title) for r in recipes], ["id", "category", "title"])
