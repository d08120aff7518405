"""``compare(fn, *args)``: the same call eagerly and as a graph — same results? which faster?

Both runs start from the same variable values (saved first, restored before each run and at
the end), so the outputs and the variables after one call can be compared leaf by leaf.
What each mode prints (Python ``print`` and ``tf.print``) is captured per call, which shows
effects that happen in one mode only. Timing is the median per call after warm-up; traces
during the timed graph calls mean the function retraces on every call.
"""
from __future__ import annotations

import contextlib
import dataclasses
import io
import logging
import os
import statistics
import sys
import tempfile
import time

import numpy as np
import tensorflow as tf

from . import _tf, recipebook, report, tracing

log = logging.getLogger("tfdebug")

RESULTS_DIFFER = "TFD402"
GRAPH_SLOWER = "TFD403"
EFFECTS_DIFFER = "TFD404"


@dataclasses.dataclass
class LeafDiff:
    """One leaf of the outputs (or one variable) in both modes."""

    path: str
    match: bool
    max_abs: float | None = None
    max_rel: float | None = None
    note: str = ""


@dataclasses.dataclass(repr=False)
class CompareResult:
    """What ``compare()`` found; ``str()`` of it is a readable report, ``repr()`` one line,
    and as a notebook cell's last line it shows itself (the report; HTML in Jupyter)."""

    name: str
    outputs: list[LeafDiff]
    variables: list[LeafDiff]
    eager_prints: list[str]            # what each eager call printed
    graph_prints: list[str]            # the same for graph calls; [0] is the trace
    eager_time: float                  # median seconds per call
    graph_time: float
    repeats: int
    retraces: int                      # traces during the timed graph calls
    restored: bool
    recipes: list[str] = dataclasses.field(default_factory=list)
    verdict: str = ""

    @property
    def outputs_match(self) -> bool:
        return all(leaf.match for leaf in self.outputs)

    @property
    def variables_match(self) -> bool:
        return all(leaf.match for leaf in self.variables)

    @property
    def match(self) -> bool:
        """Outputs and the variables after one call are the same in both modes."""
        return self.outputs_match and self.variables_match

    @property
    def speedup(self) -> float:
        """Eager time / graph time: above 1 the graph is faster."""
        return self.eager_time / self.graph_time if self.graph_time else float("inf")

    @property
    def effects_differ(self) -> bool:
        eager_every_call = bool(self.eager_prints[-1].strip())
        graph_every_call = bool(self.graph_prints[-1].strip())
        return eager_every_call != graph_every_call

    def __repr__(self) -> str:
        same = "same results" if self.match else "results DIFFER"
        return (f"<CompareResult {self.name}: {same}, graph speed-up {self.speedup:.2f}x"
                f"{', ' + str(self.retraces) + ' retraces' if self.retraces else ''}>")

    def _repr_pretty_(self, printer, cycle: bool) -> None:
        printer.text(repr(self) if cycle else str(self))

    def _repr_html_(self) -> str:
        import html

        return f"<pre>{html.escape(str(self))}</pre>"

    def __str__(self) -> str:
        from tabulate import tabulate

        lines = [f"tfdebug.compare: {self.name}"]
        rows = [[leaf.path, "yes" if leaf.match else "NO", _num(leaf.max_abs),
                 _num(leaf.max_rel), leaf.note] for leaf in self.outputs]
        differing = [leaf for leaf in self.variables if not leaf.match]
        if self.variables and not differing:   # one row for many matching variables
            rows.append([f"{len(self.variables)} variables after one call", "yes",
                         _num(max(v.max_abs or 0.0 for v in self.variables)),
                         _num(max(v.max_rel or 0.0 for v in self.variables)), ""])
        rows += [[f"variable {leaf.path}", "NO", _num(leaf.max_abs), _num(leaf.max_rel),
                  leaf.note] for leaf in differing]
        lines.append(tabulate(rows, headers=["leaf", "match", "max abs diff", "max rel diff",
                                             "note"]))
        lines.append("")
        timing = [["eager", f"{self.eager_time * 1e6:,.1f}", self.repeats, ""],
                  ["graph", f"{self.graph_time * 1e6:,.1f}", self.repeats,
                   f"{self.retraces} retraces" if self.retraces else ""]]
        lines.append(tabulate(timing, headers=["mode", "median us/call", "calls", "note"]))
        lines.append(f"speed-up of graph over eager: {self.speedup:.2f}x")
        if self.effects_differ:
            lines.append("")
            lines.append("printed on a later call:  eager: " + _short(self.eager_prints[-1])
                         + "  |  graph: " + _short(self.graph_prints[-1]))
            if self.graph_prints[0].strip():
                lines.append("graph printed while tracing: " + _short(self.graph_prints[0]))
        lines.append("")
        lines.append(f"verdict: {self.verdict}")
        if not self.restored:
            lines.append("variables were left with the values of the last run "
                         "(restore_variables=False)")
        return "\n".join(lines)


def _num(value) -> str:
    return "" if value is None else f"{value:.3g}"


def _short(text: str, limit: int = 80) -> str:
    text = " / ".join(line.strip() for line in text.strip().splitlines()) or "(nothing)"
    return repr(text if len(text) <= limit else text[:limit - 3] + "...")


def compare(fn, *args, rtol: float = 1e-5, atol: float = 1e-6, repeats: int = 30,
            warmup: int = 3, restore_variables: bool = True, **kwargs) -> CompareResult:
    """Run ``fn(*args, **kwargs)`` eagerly and as a tf.function; compare results and speed.

    ``fn`` may be a tf.function or a plain function (wrapped in ``tf.function`` for the graph
    run). Outputs are compared leaf by leaf (nested structures) with ``rtol``/``atol``; the
    variables the function uses are compared after one call in each mode. Timing is the
    median of ``repeats`` calls per mode after ``warmup`` calls. Variables are restored to
    their values before the comparison unless ``restore_variables=False``.

    Example::

        result = tfdebug.compare(train_step, x, y)
        print(result)             # leaves, max abs/rel diff, median time, speed-up, verdict
        assert result.match
    """
    _check(fn, rtol, atol, repeats, warmup, restore_variables)
    graph_fn = fn if _tf.is_tf_function(fn) else tf.function(fn)
    name = getattr(fn, "__name__", None) or getattr(fn, "name", None) or repr(fn)
    python_fn = getattr(graph_fn, "python_function", fn)

    from .modes import eager, graph

    with _captured() as trace_text:   # the first trace: what the graph prints while tracing
        with graph():
            concrete = graph_fn.get_concrete_function(*args, **kwargs)
    variables = list(getattr(concrete, "variables", ()))
    saved = [_value(v) for v in variables]

    def restore():
        for variable, value in zip(variables, saved):
            variable.assign(value)

    def run(mode):
        with (eager() if mode == "eager" else graph()):
            return graph_fn(*args, **kwargs)

    try:
        outputs, after, printed = {}, {}, {}
        for mode in ("eager", "graph"):
            restore()
            texts = [trace_text.getvalue()] if mode == "graph" else []
            with _captured() as first:
                outputs[mode] = _to_numpy(run(mode))
            after[mode] = [_value(v) for v in variables]
            with _captured() as second:
                run(mode)
            printed[mode] = texts + [first.getvalue(), second.getvalue()]

        restore()
        counter = _TraceCounter(python_fn)
        times = {}
        with _captured():
            for mode in ("eager", "graph"):
                # One scope around all the calls of a mode: only the calls are timed.
                with (eager() if mode == "eager" else graph()):
                    for _ in range(warmup):
                        graph_fn(*args, **kwargs)
                    with (tracing.subscribed(counter) if mode == "graph"
                          else contextlib.nullcontext()):
                        times[mode] = _median_call(lambda: graph_fn(*args, **kwargs), repeats)
    finally:
        if restore_variables:
            restore()

    result = CompareResult(
        name=name,
        outputs=_diff_structures(outputs["eager"], outputs["graph"], rtol, atol),
        variables=[_diff_leaf(_variable_name(v), a, b, rtol, atol)
                   for v, a, b in zip(variables, after["eager"], after["graph"])],
        eager_prints=printed["eager"], graph_prints=printed["graph"],
        eager_time=times["eager"], graph_time=times["graph"], repeats=repeats,
        retraces=counter.count, restored=restore_variables)
    _judge(result, python_fn)
    return result


def _check(fn, rtol, atol, repeats, warmup, restore_variables) -> None:
    if not callable(fn):
        raise TypeError(f"compare(fn, *args) needs a callable first; got {type(fn).__name__}")
    for label, value in (("rtol", rtol), ("atol", atol)):
        if isinstance(value, bool) or not isinstance(value, (int, float)) or value < 0:
            raise ValueError(f"compare({label}=...) must be a number >= 0; got {value!r}")
    for label, value, least in (("repeats", repeats, 1), ("warmup", warmup, 0)):
        if isinstance(value, bool) or not isinstance(value, int) or value < least:
            raise ValueError(f"compare({label}=...) must be an int >= {least}; got {value!r}")
    if not isinstance(restore_variables, bool):
        raise TypeError(f"compare(restore_variables=...) takes True or False; "
                        f"got {restore_variables!r}")


def _judge(result: CompareResult, python_fn) -> None:
    """Set the verdict and the recipes; emit findings for ``tfdebug run``'s report."""
    parts, recipes = [], []
    if not result.match:
        bad = [leaf.path for leaf in result.outputs + result.variables if not leaf.match]
        parts.append(f"results differ between eager and graph mode ({', '.join(bad[:4])})")
        recipes.append(RESULTS_DIFFER)
    if result.effects_differ:
        parts.append("prints happen on every call in one mode only")
        recipes.append(EFFECTS_DIFFER)
    if result.speedup < 1.0:
        why = (f"it retraced {result.retraces} times in {result.repeats} calls"
               if result.retraces else "the function is too small to pay for a graph call")
        parts.append(f"graph mode is slower ({result.speedup:.2f}x): {why}")
        recipes.append(GRAPH_SLOWER)
    else:
        parts.append(f"graph mode is {result.speedup:.2f}x faster")
    if result.match:
        parts.insert(0, "results match")
    result.recipes = recipes
    result.verdict = "; ".join(parts) + (f" [{', '.join(recipes)}]" if recipes else "")
    try:
        code = getattr(python_fn, "__code__", None)
        for recipe_id in recipes:
            recipe = recipebook.get(recipe_id)
            report.emit(report.Finding.at(
                recipe, "warning", code.co_filename if code else None,
                code.co_firstlineno if code else None, result.name,
                f"{recipe.title}: {result.verdict}"))
    except Exception:  # noqa: BLE001 - the result is what matters
        log.debug("tfdebug: compare findings failed", exc_info=True)


# -- running and measuring ------------------------------------------------------------

class _TraceCounter:
    def __init__(self, python_fn):
        self.python_fn, self.count = python_fn, 0

    def __call__(self, trace):
        if trace.python_function is self.python_fn and trace.depth == 0:
            self.count += 1
        return None


def _median_call(call, repeats: int) -> float:
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        call()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


@contextlib.contextmanager
def _captured():
    """Capture Python prints and what TensorFlow's C++ writes (``tf.print``) to fd 1/2."""
    buffer = io.StringIO()
    sys.stdout.flush()
    sys.stderr.flush()
    saved = []
    with tempfile.TemporaryFile(mode="w+b") as sink:
        try:
            for fd in (1, 2):
                try:
                    saved.append((fd, os.dup(fd)))
                    os.dup2(sink.fileno(), fd)
                except OSError:  # no such fd (some embedded interpreters): Python level only
                    pass
            with contextlib.redirect_stdout(buffer), contextlib.redirect_stderr(buffer):
                yield buffer
        finally:
            for fd, copy in saved:
                os.dup2(copy, fd)
                os.close(copy)
            sink.seek(0)
            native = sink.read().decode("utf-8", "replace")
            buffer.write("".join(line for line in native.splitlines(keepends=True)
                                 if not _is_tf_log(line)))


def _is_tf_log(line: str) -> bool:
    """TensorFlow's own C++ log lines (I0000 ..., W0000 ...) are not the function's prints."""
    return len(line) > 5 and line[0] in "IWEF" and line[1:5].isdigit()


# -- comparing ------------------------------------------------------------------------

def _value(variable):
    return variable.read_value().numpy() if hasattr(variable, "read_value") else \
        np.asarray(variable)


def _variable_name(variable) -> str:
    return getattr(variable, "path", None) or getattr(variable, "name", "variable")


def _to_numpy(value):
    if isinstance(value, tf.Tensor) or isinstance(value, tf.Variable):
        return value.numpy()
    if isinstance(value, dict):
        return {k: _to_numpy(v) for k, v in value.items()}
    if isinstance(value, tuple) and hasattr(value, "_fields"):
        return type(value)(*[_to_numpy(v) for v in value])
    if isinstance(value, (list, tuple)):
        return type(value)(_to_numpy(v) for v in value)
    return value


def _flatten(value, path="output"):
    if isinstance(value, dict):
        for key in sorted(value, key=repr):
            yield from _flatten(value[key], f"{path}[{key!r}]")
    elif isinstance(value, tuple) and hasattr(value, "_fields"):
        for key in value._fields:
            yield from _flatten(getattr(value, key), f"{path}.{key}")
    elif isinstance(value, (list, tuple)):
        for index, item in enumerate(value):
            yield from _flatten(item, f"{path}[{index}]")
    else:
        yield path, value


def _diff_structures(eager_out, graph_out, rtol, atol) -> list[LeafDiff]:
    eager_leaves, graph_leaves = dict(_flatten(eager_out)), dict(_flatten(graph_out))
    diffs = []
    for path in list(eager_leaves) + [p for p in graph_leaves if p not in eager_leaves]:
        if path not in graph_leaves:
            diffs.append(LeafDiff(path, False, note="only in eager output"))
        elif path not in eager_leaves:
            diffs.append(LeafDiff(path, False, note="only in graph output"))
        else:
            diffs.append(_diff_leaf(path, eager_leaves[path], graph_leaves[path], rtol, atol))
    return diffs


def _diff_leaf(path, eager_value, graph_value, rtol, atol) -> LeafDiff:
    try:
        a, b = np.asarray(eager_value), np.asarray(graph_value)
    except Exception:  # noqa: BLE001 - objects numpy cannot hold: compare them as they are
        same = eager_value == graph_value
        return LeafDiff(path, bool(same), note="" if same else "values differ")
    if a.shape != b.shape:
        return LeafDiff(path, False, note=f"shape {a.shape} eager vs {b.shape} graph")
    if a.dtype != b.dtype:
        return LeafDiff(path, False, note=f"dtype {a.dtype} eager vs {b.dtype} graph")
    if not (np.issubdtype(a.dtype, np.number) or a.dtype == bool):
        same = bool(np.array_equal(a, b))
        return LeafDiff(path, same, note="" if same else "values differ")
    a64, b64 = a.astype(np.float64), b.astype(np.float64)
    if a.size == 0:
        return LeafDiff(path, True, 0.0, 0.0)
    with np.errstate(invalid="ignore", divide="ignore"):
        abs_diff = np.abs(a64 - b64)
        abs_diff = np.where(np.isnan(a64) & np.isnan(b64), 0.0, abs_diff)
        rel = abs_diff / np.maximum(np.abs(a64), np.finfo(np.float64).tiny)
    same = bool(np.allclose(a64, b64, rtol=rtol, atol=atol, equal_nan=True))
    max_abs, max_rel = float(np.nanmax(abs_diff)), float(np.nanmax(rel))
    note = "" if same else f"{int(np.sum(~np.isclose(a64, b64, rtol, atol, True)))} of " \
                           f"{a.size} elements differ"
    return LeafDiff(path, same, max_abs, max_rel, note)
