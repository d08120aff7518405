"""The run report (the JSON model of tfdebug.report) as one self-contained HTML page.

The page has a header (script, status, versions, wall time, counts, the exception that ended
the run), a timeline in inline SVG (one lane per tf.function, one mark per trace, the error
and the warnings on the same time axis; it starts at the first trace, the start-up before it
folded into one band), a section per function (traces, reasons, the ``input_signature`` to
paste), the uncaught exception and every diagnostic as the text renderer lays it out.
Everything is computed here and written into the page by Jinja2 templates with autoescaping
on, so the page is readable without JavaScript, needs no network, and shows every string
from the user's program as text. A small inline script adds tooltips on hover, zooming the
timeline, copy buttons and highlighting. Recipe prose renders its `inline code` as
``<code>``.

Example::

    from tfdebug import html_report, report
    page = html_report.render(report.load("r.json"))      # str: the whole page
    cell = html_report.render(report.load("r.json"), fragment=True)   # for a notebook
"""
from __future__ import annotations

import functools
import itertools
import math
import os

WIDTH, LABEL_WIDTH, RIGHT_PAD = 1000, 190, 16          # SVG user units
LANE_HEIGHT, AXIS_HEIGHT, TOP = 26, 22, 6
MIN_MARK_WIDTH = 3.0
FOLD_WIDTH, FOLD_GAP = 64, 6  # the band the time before the first mark is folded into
FOLD_AFTER = 0.05             # fold when more than this share of the run precedes the first mark
KIND_LABELS = {"first": "first trace", "retrace": "retrace",
               "variable-creation": "variable-creation trace"}
_fragment_ids = itertools.count(1)


def render(report: dict, fragment: bool = False, title: str | None = None) -> str:
    """The page for ``report`` (a dict in tfdebug.report's schema, e.g. ``report.load()``).

    ``fragment=True`` gives a ``<div>`` with scoped styles and no script, for Jupyter's
    ``_repr_html_`` (native SVG tooltips still work there). ``title`` replaces the heading.
    """
    prefix = f"tfd{next(_fragment_ids)}-" if fragment else ""
    view = _view(report, prefix)
    view["title"], view["fragment"] = title, fragment
    template = "fragment.html.j2" if fragment else "page.html.j2"
    return _environment().get_template(template).render(view=view, prefix=prefix)


def diagnosis_html(diagnosis) -> str:
    """A Diagnosis in :func:`render.diagnosis_text`'s layout as a styled ``<div>`` (notebooks).

    Every string from the user's program is escaped. Example::

        from IPython.display import HTML
        HTML(html_report.diagnosis_html(tfdebug.diagnose(exc)))
    """
    entry = diagnosis.finding().to_json()
    entry["context"] = [[number, text] for number, text in diagnosis.context]
    view = _diagnostic_view(entry, "d0", None)
    return _environment().get_template("diagnosis.html.j2").render(d=view)


@functools.lru_cache(maxsize=1)
def _environment():
    import jinja2  # heavy import: only when a page is drawn

    folder = os.path.join(os.path.dirname(os.path.abspath(__file__)), "templates")
    env = jinja2.Environment(loader=jinja2.FileSystemLoader(folder), autoescape=True,
                             undefined=jinja2.StrictUndefined, trim_blocks=True,
                             lstrip_blocks=True, keep_trailing_newline=True)
    env.filters["seconds"] = _seconds
    return env


def inline_code(text):
    """``text`` escaped, its `backticked` spans as ``<code>`` (recipe prose is Markdown-ish).

    Example: ``inline_code("use `tf.cond` <here>")`` is
    ``Markup('use <code>tf.cond</code> &lt;here&gt;')``. Unbalanced backticks stay as text.
    """
    from markupsafe import Markup, escape

    parts = str(text).split("`")
    if len(parts) % 2 == 0:  # an odd number of backticks: no span is sure
        return escape(text)
    return Markup("").join(escape(part) if n % 2 == 0 or not part
                           else Markup("<code>%s</code>") % part
                           for n, part in enumerate(parts))


# -- the view: everything the templates show, computed once ---------------------------------

def _view(report: dict, prefix: str) -> dict:
    diagnostics = [d for d in report.get("diagnostics") or [] if isinstance(d, dict)]
    diag_views = [_diagnostic_view(d, f"{prefix}d{n}", report.get("wall_seconds"))
                  for n, d in enumerate(diagnostics)]
    functions = _functions(report, prefix)
    events = [e for f in functions for e in f["events"]]
    exception = _exception_view(report.get("exception"), f"{prefix}exc", diag_views)
    return {
        "header": _header(report, functions, diag_views, exception),
        "timeline": _timeline(report, functions, diag_views, exception, prefix),
        "exception": exception,
        "functions": functions,
        "diagnostics": diag_views,
        "has_events": bool(events),
    }


def _header(report: dict, functions: list[dict], diagnostics: list[dict], exception) -> dict:
    events = [e for f in functions for e in f["events"]]
    traces = sum(f["count"] for f in functions)
    return {
        "script": str(report.get("script") or "?"),
        "status": str(report.get("status") or "?"),
        "versions": [(name, str(report[key])) for name, key in
                     (("tfdebug", "tfdebug"), ("TensorFlow", "tensorflow"), ("Keras", "keras"),
                      ("Python", "python")) if report.get(key)],
        "started": report.get("started"),
        "wall_seconds": report.get("wall_seconds"),
        "counts": [
            ("functions", len(functions)),
            ("traces", traces),
            ("retraces", sum(f["retraces"] for f in functions)),
            ("tracing time", _seconds(sum(e["duration"] for e in events))
             if events else _seconds(sum(f["tracing_seconds"] for f in functions))),
            ("errors", sum(d["severity"] == "error" for d in diagnostics)
             or int(exception is not None)),
            ("warnings", sum(d["severity"] != "error" for d in diagnostics)),
        ],
        "error": next((d for d in diagnostics if d["severity"] == "error"), None),
        "exception": exception,
    }


def _exception_view(entry, anchor: str, diagnostics: list[dict]) -> dict | None:
    """The report's ``exception`` (what ended the run, diagnosed or not), for the page."""
    from ._extract import short_message
    from .render import display_path

    if not isinstance(entry, dict):
        return None
    name, message = str(entry.get("class") or "exception"), str(entry.get("message") or "")
    original = entry.get("original") if isinstance(entry.get("original"), dict) else None
    if original is not None:
        original = {"class": str(original.get("class") or "?"),
                    "message": str(original.get("message") or "")}
    shown = original or {"class": name, "message": message}
    short = shown["class"].rpartition(".")[2]
    headline = short_message(shown["message"]) if shown["message"] else ""
    where = display_path(entry.get("file")) if entry.get("file") else None
    line = entry.get("line")
    diagnosis = next((d for d in diagnostics if d["severity"] == "error"), None)
    return {
        "id": anchor, "class": name, "message": message, "original": original,
        "headline": f"{short}: {headline}" if headline else short,
        "where": f"{where}:{line}" if where and line else where,
        "function": entry.get("function"), "line": line,
        "context": [(int(n), str(text)) for n, text in entry.get("context") or []],
        "code": str(entry.get("code") or ""),
        "time": entry.get("time"),
        "diagnosis": diagnosis,
    }


def _functions(report: dict, prefix: str) -> list[dict]:
    """One entry per traced function: the ``traces`` summary joined with its ``events``."""
    summaries = [t for t in report.get("traces") or [] if isinstance(t, dict)]
    by_key = {(t.get("function"), t.get("file"), t.get("line")): t for t in summaries}
    lanes: dict[tuple, list[dict]] = {}
    for event in report.get("events") or []:
        if isinstance(event, dict):
            lanes.setdefault((event.get("function"), event.get("file"), event.get("line")),
                             []).append(event)
    keys = list(lanes) + [k for k in by_key if k not in lanes]
    out = []
    for number, key in enumerate(keys):
        summary = by_key.get(key, {})
        events = lanes.get(key, [])
        name, file, line = key
        count = summary.get("count", len(events))
        anchor = f"{prefix}f{number}"
        suggestion = str(summary.get("suggestion") or "")
        signature = summary.get("input_signature")
        out.append({
            "id": anchor, "name": str(name or "?"), "where": _where(file, line),
            "count": count,
            "retraces": summary.get("retraces", sum(e.get("kind") == "retrace" for e in events)),
            "variable_creation": summary.get(
                "variable_creation", sum(e.get("kind") == "variable-creation" for e in events)),
            "reasons": [str(r) for r in summary.get("reasons") or []],
            "recipes": [str(r) for r in summary.get("recipes") or []],
            "decorator": f"@tf.function(input_signature={signature})" if signature else None,
            "suggestions": [s for s in suggestion.split("; ")
                            if s and not (signature and s.startswith("@tf.function(input_signature="))],
            "tracing_seconds": summary.get("tracing_seconds") or 0.0,
            "library": summary.get("user_code") is False
            or bool(events and not events[0].get("user_code", True)),
            "events": [_event_view(e, n, len(events), name, prefix) for n, e in enumerate(events, 1)],
        })
    return out


def _event_view(event: dict, number: int, total: int, function, prefix: str) -> dict:
    kind = str(event.get("kind") or "first")
    signature = ", ".join(f"{a}: {v}" for a, v in event.get("signature") or []) or "(no arguments)"
    reasons = [f"{r.get('text')} [{r.get('recipe')}]" if r.get("recipe") else str(r.get("text"))
               for r in event.get("reasons") or [] if isinstance(r, dict)]
    time, duration = event.get("time"), float(event.get("duration") or 0.0)
    call = _where(event.get("call_file"), event.get("call_line"))
    tip = [f"{function} · {KIND_LABELS.get(kind, kind)} ({number} of {total})",
           f"at {_seconds(time)}, traced in {_seconds(duration)}" if time is not None
           else f"traced in {_seconds(duration)}",
           f"called at {call}", f"inputs: {signature}"]
    tip += [f"why: {r}" for r in reasons]
    return {"id": f"{prefix}t{event.get('index', number)}", "kind": kind, "number": number,
            "time": time, "duration": duration, "signature": signature, "reasons": reasons,
            "call": call, "tip": "\n".join(tip)}


def _diagnostic_view(entry: dict, anchor: str, wall) -> dict:
    from . import recipebook
    from .render import display_path

    recipe = None
    if entry.get("recipe"):
        try:
            recipe = recipebook.get(str(entry["recipe"]))
        except KeyError:  # a report from another tfdebug version: show what it says
            recipe = None
    line = entry.get("line")
    context = [(int(n), str(text)) for n, text in entry.get("context") or []]
    docs = recipe.docs if recipe is not None and recipe.docs.startswith("https://") else None
    severity = "error" if entry.get("severity") == "error" else "warning"
    plain_title = recipe.title if recipe is not None else str(entry.get("message") or "")
    where = display_path(entry.get("file")) if entry.get("file") else None
    return {
        "id": anchor, "severity": severity,
        "recipe": str(entry.get("recipe") or ""), "category": str(entry.get("category") or ""),
        # a recipe's prose marks code with backticks; anything else is shown as it is
        "title": inline_code(recipe.title) if recipe is not None else plain_title,
        "plain_title": plain_title,
        "where": f"{where}:{line}" if where and line else where,
        "function": entry.get("function"),
        "context": context, "line": line, "code": str(entry.get("code") or ""),
        "message": str(entry.get("message") or ""),
        "cause": inline_code(recipe.cause) if recipe is not None else None,
        "fix": inline_code(recipe.fix) if recipe is not None else None,
        "docs": docs,
        "time": entry.get("time") if entry.get("time") is not None
        else (wall if severity == "error" else None),
        "stale": entry.get("category") == "stale-capture",
    }


# -- the timeline: SVG geometry -------------------------------------------------------------

def _timeline(report: dict, functions: list[dict], diagnostics: list[dict], exception,
              prefix: str) -> dict:
    """The SVG's geometry. The axis runs from just before the first mark to the end of the
    run; the time before it (imports, start-up) is one folded band at its left when it is
    more than FOLD_AFTER of the run. Every mark carries its time (``data-t``) for zooming."""
    lanes = [f for f in functions if f["events"]]
    starts = [e["time"] for f in lanes for e in f["events"] if e["time"] is not None]
    ends = [e["time"] + e["duration"] for f in lanes for e in f["events"] if e["time"] is not None]
    moments = [d["time"] for d in diagnostics if d["time"] is not None]
    error = _error_mark(diagnostics, exception)
    if error is not None and error["time"] is not None:
        moments.append(error["time"])
    end = max([float(report.get("wall_seconds") or 0.0), *ends, *moments, 1e-3])
    first = min([*starts, *moments], default=0.0)
    lo = max(0.0, first - 0.02 * max(end - first, 1e-3)) if first > FOLD_AFTER * end else 0.0
    end = max(end, lo + 1e-3)
    x0 = LABEL_WIDTH + (FOLD_WIDTH + FOLD_GAP if lo else 0)
    x1 = WIDTH - RIGHT_PAD
    plot = x1 - x0

    def x_of(t: float) -> float:
        return round(x0 + plot * (max(lo, min(t, end)) - lo) / (end - lo), 1)

    rows, marks = [], []
    for lane, function in enumerate(lanes):
        y = TOP + lane * LANE_HEIGHT
        rows.append({"y": y, "label": _short(function["name"], 26), "title":
                     f"{function['name']} ({function['where']})", "href": function["id"],
                     "count": function["count"]})
        for event in function["events"]:
            if event["time"] is None:
                continue
            width = max(MIN_MARK_WIDTH, plot * event["duration"] / (end - lo))
            marks.append({"x": x_of(event["time"]), "y": y + 4, "w": round(width, 1),
                          "h": LANE_HEIGHT - 8, "kind": event["kind"], "href": event["id"],
                          "tip": event["tip"], "t": event["time"], "d": event["duration"]})
    finding_y = TOP + len(lanes) * LANE_HEIGHT
    findings = []
    for d in diagnostics:
        if d["severity"] == "error" or d["time"] is None and not d["stale"]:
            continue
        t = d["time"] if d["time"] is not None else end
        findings.append({"x": x_of(t), "y": finding_y + 4, "href": d["id"], "t": t,
                         "kind": "stale" if d["stale"] else "warning",
                         "tip": f"{d['recipe']} {d['category']}"
                                + (f" at {_seconds(d['time'])}" if d["time"] is not None else
                                   " (found when the log closed)")
                                + f"\n{d['where'] or ''}\n{d['message']}"})
    height = finding_y + (LANE_HEIGHT if findings else 0)
    if error is not None:
        t = error["time"] if error["time"] is not None else end
        error = {"x": x_of(t), "t": t, "href": error["href"], "tip": error["tip"]}
    return {
        "width": WIDTH, "height": height + AXIS_HEIGHT, "plot_bottom": height,
        "label_width": LABEL_WIDTH, "lanes": rows, "marks": marks, "findings": findings,
        "finding_y": finding_y if findings else None, "error": error,
        "ticks": [{"x": x_of(t), "label": _tick_label(t, step, end)}
                  for t, step in _ticks(lo, end)],
        "lo": lo, "hi": end, "x0": x0, "x1": x1, "clip": f"{prefix}tfd-clip",
        "fold": None if not lo else {
            "x": LABEL_WIDTH, "w": FOLD_WIDTH, "label": f"0–{_seconds(lo)}",
            "tip": f"0 – {_seconds(lo)}: the run before the first trace (imports, start-up), "
                   f"folded"},
    }


def _error_mark(diagnostics: list[dict], exception) -> dict | None:
    """The error on the time axis: the uncaught exception, else an error diagnostic."""
    if exception is not None:
        where = f"\n{exception['where']}" if exception["where"] else ""
        return {"time": exception["time"], "href": exception["id"],
                "tip": f"uncaught {exception['headline']}{where}"}
    error = next((d for d in diagnostics if d["severity"] == "error"), None)
    if error is None:
        return None
    return {"time": error["time"], "href": error["id"],
            "tip": f"error {error['recipe']} {error['category']}\n{error['where'] or ''}\n"
                   f"{error['message']}"}


def _ticks(lo: float, hi: float) -> list[tuple[float, float]]:
    """Round tick values between ``lo`` and ``hi`` (about 5 of them), with their step."""
    raw = (hi - lo) / 5
    magnitude = 10 ** math.floor(math.log10(raw))
    step = next(m * magnitude for m in (1, 2, 2.5, 5, 10) if m * magnitude >= raw)
    first = math.ceil(lo / step - 1e-9)
    return [(round(i * step, 9), step) for i in range(first, int(hi / step + 1e-9) + 1)]


def _tick_label(t: float, step: float, hi: float) -> str:
    """``t`` with as many decimals as ``step`` needs (script.js's ``tickLabel`` is the same)."""
    unit, scale = ("ms", 1000) if hi < 1 else ("s", 1)
    step, t = step * scale, t * scale
    decimals = max(0, -math.floor(math.log10(step) + 1e-9))
    if abs(step * 10 ** decimals - round(step * 10 ** decimals)) > 1e-6:
        decimals += 1
    return f"{t:.{decimals}f} {unit}"


def _seconds(value) -> str:
    if value is None:
        return "?"
    value = float(value)
    if value < 1:
        return f"{value * 1000:.1f} ms"
    return f"{value:.2f} s"


def _where(file, line) -> str:
    if not file:
        return "?"
    name = os.path.basename(str(file))
    return f"{name}:{line}" if line else name


def _short(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"
