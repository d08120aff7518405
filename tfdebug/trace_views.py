"""What a trace log shows: per-function summaries, the report's ``traces``, the table, the
HTML page and the text summary (the reading side of :class:`tfdebug.trace_log.TraceLogger`)."""
from __future__ import annotations

import collections
import inspect
import os

from . import _signatures, report
from ._signatures import Reason


class LogViews:
    """Views over a trace log's records (mixed into TraceLogger, which holds ``_state``)."""

    def functions(self, retraced_only: bool = False, library: bool = False) -> list[dict]:
        """One summary per traced function: counts, reasons, call sites, suggestion.

        TensorFlow's and Keras's own functions (tf.data plumbing, iterator functions) are
        left out unless they retraced, or ``library=True``.
        """
        with self._state.lock:
            groups = list(self._state.groups)
        out = [self._function_summary(g) for g in groups]
        return [f for f in out if (f["retraces"] or not retraced_only)
                and (f["user_code"] or f["retraces"] or library)]

    def _function_summary(self, group) -> dict:
        with self._state.lock:
            records = list(self._state.groups.get(group, ()))
        events = [r.event for r in records]
        retraces = [e for e in events if e.kind == "retrace"]
        reasons = [r for e in retraces for r in e.reasons]
        calls = collections.Counter((e.call_file, e.call_line, e.call_function)
                                    for e in (retraces or events))
        (call_file, call_line, call_function), _ = calls.most_common(1)[0]
        # one vote per retrace and kind (a shape retrace of two arguments is one retrace);
        # a tf.function made again more than once is the cause to fix first: each new
        # object retraces for every shape anyway
        kinds = collections.Counter(k for e in retraces for k in {r.kind for r in e.reasons})
        if kinds["new-function"] >= 2:
            kinds = collections.Counter({"new-function": kinds["new-function"]})
        suggestion = _suggestion_for(records) if retraces else _signatures.Suggestion()
        first = events[0]
        return {
            "function": first.function, "name": first.name, "file": first.file,
            "line": first.line, "count": len(events), "retraces": len(retraces),
            "variable_creation": sum(e.kind == "variable-creation" for e in events),
            "reasons": aggregate(reasons),
            "recipe": _signatures.RECIPES[kinds.most_common(1)[0][0]] if kinds else None,
            "recipes": sorted({r.recipe for r in reasons}),
            "call_file": call_file, "call_line": call_line, "call_function": call_function,
            "call_sites": sorted({_location(e.call_file, e.call_line) for e in retraces}),
            "suggestion": str(suggestion), "input_signature": suggestion.input_signature,
            "tracing_seconds": round(sum(e.duration for e in events), 6),
            "user_code": first.user_code,
        }

    def report_traces(self) -> list[dict]:
        """The ``traces`` entries of the ``tfdebug run`` JSON report (DESIGN schema)."""
        keys = ("function", "file", "line", "count", "reasons", "retraces", "variable_creation",
                "recipes", "call_file", "call_line", "suggestion", "input_signature",
                "tracing_seconds", "user_code")
        entries = [{k: f[k] for k in keys} for f in self.functions()]
        for entry in entries:  # the report names files by absolute path, as diagnostics do
            for key in ("file", "call_file"):
                if entry[key] and not entry[key].startswith("<"):
                    entry[key] = os.path.abspath(entry[key])
        return entries

    def table(self, retraced_only: bool = False, tablefmt: str = "simple_grid",
              width: int | None = None, color: bool = False) -> str:
        """A table: function, traces, retrace reasons, suggestion (one row per function).

        ``width``: fit in that many columns (a vertical layout when the table is wider).
        """
        from . import render

        rows = []
        for f in self.functions(retraced_only):
            traces = str(f["count"]) + (f" ({_plural(f['retraces'], 'retrace')})" if f["retraces"] else "")
            if f["variable_creation"]:
                traces += f"\n(+{f['variable_creation']} for variables)"
            rows.append([f"{f['function']}\n{_location(f['file'], f['line'])}", traces,
                         "\n".join(f["reasons"]) or "-",
                         f["suggestion"].replace("; ", "\n") or "-"])
        if not rows:
            return "no tf.function was traced" + (" more than once" if retraced_only else "")
        return render.table(rows, ["function", "traces", "retrace reasons", "suggestion"],
                            tablefmt, maxcolwidths=[32, 16, 48, 60], width=width, color=color)

    def to_html(self, path: str | None = None) -> str:
        """This log as one self-contained HTML page (timeline, functions); written to ``path``.

        Example::

            with tfdebug.trace_logger() as log:
                train(model, dataset)
            log.to_html("traces.html")
        """
        from . import html_report

        data = report.from_logger(self)
        return report.write_html(path, data) if path is not None else html_report.render(data)

    def _repr_html_(self) -> str:
        """Jupyter shows the table of traced functions, rendered."""
        from . import html_report

        return html_report.render(report.from_logger(self), fragment=True,
                                  title="tfdebug trace log")

    def summary(self) -> str:
        """A few lines per retracing function and per stale capture, for people."""
        funcs = self.functions()
        events = self.events
        retraced = [f for f in funcs if f["retraces"]]
        lines = [f"tfdebug trace log: {_plural(len(funcs), 'function')}, "
                 f"{_plural(len(events), 'trace')} "
                 f"({_plural(sum(f['retraces'] for f in funcs), 'retrace')}), "
                 f"{sum(e.duration for e in events):.2f} s tracing"]
        for f in retraced:
            lines.append(f"  {f['function']} ({_location(f['file'], f['line'])}): "
                         f"{_plural(f['count'], 'trace')}, {_plural(f['retraces'], 'retrace')} "
                         f"[{', '.join(f['recipes'])}]")
            lines.append(f"    caused at: {', '.join(f['call_sites'])}")
            lines += [f"    {r}" for r in f["reasons"]]
            if f["suggestion"]:
                lines.append(f"    fix: {f['suggestion']}")
        for stale in self.stale_captures:
            lines.append(f"  stale capture [{stale.recipe}]: {stale}")
        return "\n".join(lines)


def _suggestion_for(records: list) -> _signatures.Suggestion:
    if not records:
        return _signatures.Suggestion()
    latest_key = records[-1].key
    sigs = [r.event.signature for r in records
            if r.key == latest_key and r.event.kind != "variable-creation"]
    reasons = [x for r in records if r.event.kind == "retrace" for x in r.event.reasons]
    event = records[-1].event
    return _signatures.suggest(
        sigs, reasons, user_function=event.user_code and records[-1].code is not None
        and not event.name.startswith("Dataset_"),
        defaults=_defaults(records[-1]), name=event.function,
        definition=event.where if event.file else None)


def _defaults(record) -> dict:
    """The Python function's parameter defaults (an input_signature may leave those out)."""
    fn = record.function() if record.function is not None else None
    try:
        params = inspect.signature(fn).parameters if fn is not None else {}
    except (TypeError, ValueError):
        return {}
    return {n: p.default for n, p in params.items() if p.default is not inspect.Parameter.empty}


def aggregate(reasons: list[Reason]) -> list[str]:
    """Condense many retrace reasons into one line per argument and kind.

    Shape, dtype and Python-value changes list the distinct values in the order they were
    first seen (``tokens: 7 shapes (1,), (2,), (3,), …, (7,)``); other reasons are counted.
    """
    chains: dict[tuple, list] = {}
    for r in reasons:
        key = (r.kind, r.argument, _chain_label(r))
        chain = chains.setdefault(key, [])
        values = (r.before, r.after) if key[2] is not None else (r.text,)
        chain.extend(v for v in values if key[2] is None or v not in chain)
    out = []
    for (kind, arg, label), chain in chains.items():
        if label is not None:
            shown = chain if len(chain) <= 5 else chain[:3] + ["…"] + chain[-1:]
            out.append(f"{arg}: {len(chain)} {label}s " + ", ".join(shown))
        else:
            counts = collections.Counter(chain)
            out.extend(text + (f" (×{n})" if n > 1 else "") for text, n in counts.items())
    return out


def _chain_label(r: Reason) -> str | None:
    """The word a chain of values is printed after, for reasons that chain (else None)."""
    for kind, label in (("shape", "shape"), ("dtype", "dtype"), ("value", "Python value")):
        if r.kind == kind and r.argument and r.text.startswith(f"{r.argument}: {label} "):
            return label
    return None


def _location(file, line) -> str:
    return f"{os.path.basename(file)}:{line}" if file and line else (file or "?")


def _plural(n: int, word: str) -> str:
    return f"{n} {word}" + ("" if n == 1 else "s")
