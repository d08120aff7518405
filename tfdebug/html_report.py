"""The run report (the JSON model of tfdebug.report) as one self-contained HTML page.

The page has a header (script, status, versions, wall time, counts), a timeline in inline
SVG (one lane per tf.function, one mark per trace, the error and the warnings on the same
time axis), a section per function (traces, reasons, the ``input_signature`` to paste) and
every diagnostic as the text renderer lays it out. Everything is computed here and written
into the page by Jinja2 templates with autoescaping on, so the page is readable without
JavaScript, needs no network, and shows every string from the user's program as text. A
small inline script adds tooltips on hover, copy buttons and highlighting.

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


def diagnosis_fragment(entry: dict) -> str:
    """One diagnostic (a report ``diagnostics`` entry) as a styled ``<div>``, for notebooks."""
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


# -- the view: everything the templates show, computed once ---------------------------------

def _view(report: dict, prefix: str) -> dict:
    diagnostics = [d for d in report.get("diagnostics") or [] if isinstance(d, dict)]
    diag_views = [_diagnostic_view(d, f"{prefix}d{n}", report.get("wall_seconds"))
                  for n, d in enumerate(diagnostics)]
    functions = _functions(report, prefix)
    events = [e for f in functions for e in f["events"]]
    return {
        "header": _header(report, functions, diag_views),
        "timeline": _timeline(report, functions, diag_views),
        "functions": functions,
        "diagnostics": diag_views,
        "has_events": bool(events),
    }


def _header(report: dict, functions: list[dict], diagnostics: list[dict]) -> dict:
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
            ("errors", sum(d["severity"] == "error" for d in diagnostics)),
            ("warnings", sum(d["severity"] != "error" for d in diagnostics)),
        ],
        "error": next((d for d in diagnostics if d["severity"] == "error"), None),
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
    from . import recipebook, render

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
    where = render.display_path(entry.get("file")) if entry.get("file") else None
    return {
        "id": anchor, "severity": severity,
        "recipe": str(entry.get("recipe") or ""), "category": str(entry.get("category") or ""),
        "title": recipe.title if recipe is not None else str(entry.get("message") or ""),
        "where": f"{where}:{line}" if where and line else where,
        "function": entry.get("function"),
        "context": context, "line": line, "code": str(entry.get("code") or ""),
        "message": str(entry.get("message") or ""),
        "cause": recipe.cause if recipe is not None else None,
        "fix": recipe.fix if recipe is not None else None,
        "docs": docs,
        "time": entry.get("time") if entry.get("time") is not None
        else (wall if severity == "error" else None),
        "stale": entry.get("category") == "stale-capture",
    }


# -- the timeline: SVG geometry -------------------------------------------------------------

def _timeline(report: dict, functions: list[dict], diagnostics: list[dict]) -> dict:
    lanes = [f for f in functions if f["events"]]
    ends = [e["time"] + e["duration"] for f in lanes for e in f["events"] if e["time"] is not None]
    ends += [d["time"] for d in diagnostics if d["time"] is not None]
    span = max([float(report.get("wall_seconds") or 0.0), *ends, 1e-3])
    plot = WIDTH - LABEL_WIDTH - RIGHT_PAD

    def x_of(t: float) -> float:
        return round(LABEL_WIDTH + plot * max(0.0, min(t, span)) / span, 1)

    rows, marks = [], []
    for lane, function in enumerate(lanes):
        y = TOP + lane * LANE_HEIGHT
        rows.append({"y": y, "label": _short(function["name"], 26), "title":
                     f"{function['name']} ({function['where']})", "href": function["id"],
                     "count": function["count"]})
        for event in function["events"]:
            if event["time"] is None:
                continue
            width = max(MIN_MARK_WIDTH, plot * event["duration"] / span)
            marks.append({"x": x_of(event["time"]), "y": y + 4, "w": round(width, 1),
                          "h": LANE_HEIGHT - 8, "kind": event["kind"], "href": event["id"],
                          "tip": event["tip"]})
    finding_y = TOP + len(lanes) * LANE_HEIGHT
    findings = []
    for d in diagnostics:
        if d["severity"] == "error" or d["time"] is None and not d["stale"]:
            continue
        t = d["time"] if d["time"] is not None else span
        findings.append({"x": x_of(t), "y": finding_y + 4, "href": d["id"],
                         "kind": "stale" if d["stale"] else "warning",
                         "tip": f"{d['recipe']} {d['category']}"
                                + (f" at {_seconds(d['time'])}" if d["time"] is not None else
                                   " (found when the log closed)")
                                + f"\n{d['where'] or ''}\n{d['message']}"})
    height = finding_y + (LANE_HEIGHT if findings else 0)
    error = next((d for d in diagnostics if d["severity"] == "error"), None)
    return {
        "width": WIDTH, "height": height + AXIS_HEIGHT, "plot_bottom": height,
        "label_width": LABEL_WIDTH, "lanes": rows, "marks": marks, "findings": findings,
        "finding_y": finding_y if findings else None,
        "error": None if error is None else {
            "x": x_of(error["time"] if error["time"] is not None else span), "href": error["id"],
            "tip": f"error {error['recipe']} {error['category']}\n{error['where'] or ''}\n"
                   f"{error['message']}"},
        "ticks": [{"x": x_of(t), "label": _tick_label(t, span)} for t in _ticks(span)],
        "span": span,
    }


def _ticks(span: float) -> list[float]:
    """Round tick values from 0 to ``span`` (about 5 of them)."""
    raw = span / 5
    magnitude = 10 ** math.floor(math.log10(raw))
    step = next(m * magnitude for m in (1, 2, 2.5, 5, 10) if m * magnitude >= raw)
    return [round(i * step, 9) for i in range(int(span / step) + 1)]


def _tick_label(t: float, span: float) -> str:
    return f"{t * 1000:g} ms" if span < 1 else f"{t:g} s"


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
