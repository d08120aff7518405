"""``shape_probe()`` and ``probe()``: static shapes seen while tracing vs shapes at run time.

Inside a ``shape_probe()`` scope every Keras layer call (inputs and outputs) and every
``probe(t)`` point is recorded: the dtype and static shape the trace saw (``None`` where a
dimension is unknown) and, through one small ``tf.numpy_function`` per point, the shapes that
actually flow on each call. An unknown rank, or a runtime shape the static shape does not
allow, is flagged with a recipe (category ``unknown-shape``).

The probe ops are part of the traces made inside the scope, so on exit those traces are
dropped from their tf.functions' caches: the next call traces a clean graph, and from then
on the function runs as if it had never been probed (DESIGN principle 3). Functions traced
*before* the scope are not re-traced and therefore not probed.
"""
from __future__ import annotations

import collections
import contextlib
import dataclasses
import logging
import os
import threading

import numpy as np
import tensorflow as tf

from . import _tf, recipebook, report, tracing
from ._scope import Scope, run_all

log = logging.getLogger("tfdebug")

UNKNOWN_RANK = "TFD400"
SHAPE_MISMATCH = "TFD401"

_active: tuple["shape_probe", ...] = ()   # copy-on-write: probe() reads it without a lock
_active_lock = threading.Lock()
_local = threading.local()                 # the stack of traces in progress on this thread


@dataclasses.dataclass
class ProbeRecord:
    """One probe point as one trace saw it, with the runtime shapes of every call."""

    file: str | None
    line: int | None
    function: str | None       # the user function the point is in
    name: str                  # probe name, or "<layer name>:in" / ":out"
    kind: str                  # "probe" | "layer"
    dtype: str
    static_shape: tuple | None  # None when the rank is unknown at trace time
    traced: bool               # False for eager calls (static shape = runtime shape)
    runtime: collections.Counter = dataclasses.field(default_factory=collections.Counter)
    observed: bool = True      # False under XLA, where no Python op can run

    @property
    def count(self) -> int:
        """How many times the point ran (calls of the function, loop iterations, ...)."""
        return sum(self.runtime.values())

    @property
    def where(self) -> str:
        return f"{os.path.basename(self.file)}:{self.line}" if self.file else "?"

    @property
    def flag(self) -> str | None:
        """The recipe id when this point is suspicious, else None."""
        if self.static_shape is None:
            return UNKNOWN_RANK
        if any(not _compatible(self.static_shape, shape) for shape in self.runtime):
            return SHAPE_MISMATCH
        return None


def _compatible(static: tuple, runtime: tuple) -> bool:
    return len(static) == len(runtime) and all(s is None or s == r for s, r in zip(static, runtime))


def format_shape(shape) -> str:
    if shape is None:
        return "<unknown rank>"
    inner = ", ".join("None" if d is None else str(d) for d in shape)
    return f"({inner},)" if len(shape) == 1 else f"({inner})"


class shape_probe(Scope):
    """Record static vs runtime shapes of Keras layers and ``probe()`` points inside.

    ``layers=False`` records only explicit ``probe()`` points. The scope's object holds
    ``records`` (a list of :class:`ProbeRecord`), ``findings`` (flagged points, also
    emitted to ``tfdebug run``'s report) and ``table()``.

    Example::

        with tfdebug.shape_probe() as shapes:
            train_step(x, y)            # a tf.function first traced here
        print(shapes.table())           # where, name, dtype, static shape, runtime shapes, count
    """

    def __init__(self, *, layers: bool = True):
        if not isinstance(layers, bool):
            raise TypeError(f"shape_probe(layers=...) takes True or False, got {layers!r}")
        self.layers = layers
        self.records: list[ProbeRecord] = []
        self.findings: list[report.Finding] = []
        self._lock = threading.Lock()
        self._open = 0
        self._probed: list[tuple[object, object]] = []   # (function cache, concrete)

    def fresh(self) -> "shape_probe":
        return type(self)(layers=self.layers)

    def __repr__(self) -> str:
        return f"shape_probe(layers={self.layers}, records={len(self.records)})"

    # -- scope ----------------------------------------------------------------------

    def _enter(self):
        global _active
        token = object()
        with _active_lock:
            _active = _active + (self,)
            self._open += 1
        try:
            tracing.subscribe(self._on_trace)
            try:
                hooked = self.layers and _tf.install_layer_call_hook(_before_layer, _after_layer)
            except BaseException:
                tracing.unsubscribe(self._on_trace)
                raise
        except BaseException:
            self._deactivate()
            raise
        return token, hooked

    def _deactivate(self) -> None:
        global _active
        with _active_lock:
            items = list(_active)
            if self in items:
                items.remove(self)
            _active = tuple(items)
            self._open -= 1

    def _exit(self, state, exc) -> None:
        _token, hooked = state
        run_all(_tf.uninstall_layer_call_hook if hooked else (lambda: None),
                lambda: tracing.unsubscribe(self._on_trace), self._deactivate)
        if self._open > 0:
            return
        self._evict()
        try:
            self._flag()
        except Exception:  # noqa: BLE001 - a reporting bug must not hide the user's result
            log.debug("tfdebug: shape_probe findings failed", exc_info=True)

    def _evict(self) -> None:
        """Drop the traces that hold probe ops, so later calls run clean graphs."""
        for cache, concrete in self._probed:
            try:
                _tf.evict_concrete(cache, concrete)
            except Exception:  # noqa: BLE001
                log.debug("tfdebug: could not evict a probed trace", exc_info=True)
        self._probed.clear()

    def _flag(self) -> None:
        for record in self.records:
            recipe_id = record.flag
            if recipe_id is None:
                continue
            recipe = recipebook.get(recipe_id)
            runtime = ", ".join(format_shape(s) for s in record.runtime) or "not observed"
            message = (f"{recipe.title}: {record.name} is {format_shape(record.static_shape)} "
                       f"at trace time; at run time: {runtime}")
            finding = report.Finding.at(recipe, "warning", record.file, record.line,
                                        record.function, message)
            self.findings.append(finding)
            report.emit(finding)

    # -- tracing --------------------------------------------------------------------

    def _on_trace(self, trace):
        return _trace_frame(self, trace)

    # -- recording ------------------------------------------------------------------

    def _record(self, tensor, name: str, kind: str, where) -> None:
        file, line, function = where or (None, None, None)
        traced = _tf.inside_function()
        static = tuple(tensor.shape.as_list()) if tensor.shape.rank is not None else None
        frames = list(getattr(_local, "frames", ()))
        xla = any(f.xla for f in frames)
        record = ProbeRecord(file=file, line=line, function=function, name=name, kind=kind,
                             dtype=tensor.dtype.name, static_shape=static, traced=traced,
                             observed=not xla)
        with self._lock:
            record = self._merge(record)
        if not traced:
            with self._lock:
                record.runtime[tuple(tensor.shape.as_list())] += 1
            return None
        for frame in frames:
            frame.probed = True
        if xla:
            return None
        return _runtime_op(self, record, tensor)

    def _merge(self, record: ProbeRecord) -> ProbeRecord:
        for old in self.records:
            if (old.file, old.line, old.name, old.static_shape, old.dtype, old.traced,
                    old.function) == (record.file, record.line, record.name,
                                      record.static_shape, record.dtype, record.traced,
                                      record.function):
                return old
        self.records.append(record)
        return record

    def _observe(self, record: ProbeRecord, shape) -> None:
        if self._open <= 0:
            return  # a tf.data pipeline built inside the scope outlived it: stay quiet
        with self._lock:
            record.runtime[tuple(int(d) for d in shape)] += 1

    # -- output ---------------------------------------------------------------------

    def table(self) -> str:
        """The records as a text table (tabulate); flagged rows name their recipe."""
        from tabulate import tabulate

        rows = []
        for r in self.records:
            runtime = ", ".join(format_shape(s) for s in r.runtime) if r.observed else "(XLA)"
            rows.append([r.where, r.name, "graph" if r.traced else "eager", r.dtype,
                         format_shape(r.static_shape), runtime or "-", r.count, r.flag or ""])
        return tabulate(rows, headers=["where", "name", "mode", "dtype", "static shape",
                                       "runtime shapes", "count", "flag"])


class _Frame:
    __slots__ = ("probe", "trace", "probed", "xla")

    def __init__(self, probe, trace):
        self.probe, self.trace, self.probed = probe, trace, False
        self.xla = _tf.trace_uses_xla(trace.tracing_options)


@contextlib.contextmanager
def _trace_frame(owner: shape_probe, trace):
    frame = _Frame(owner, trace)
    stack = getattr(_local, "frames", None)
    if stack is None:
        stack = _local.frames = []
    stack.append(frame)
    try:
        yield
    finally:
        stack.remove(frame)
        cache = getattr(trace.tracing_options, "function_cache", None)
        if frame.probed and trace.concrete is not None and cache is not None:
            owner._probed.append((cache, trace.concrete))


def _runtime_op(owner: shape_probe, record: ProbeRecord, tensor):
    """A stateful op that reports ``tensor``'s runtime shape to ``record`` on every run."""
    def observe(shape):
        owner._observe(record, shape)
        return np.zeros((), np.int32)

    return tf.numpy_function(observe, [tf.shape(tensor, out_type=tf.int64)], tf.int32,
                             stateful=True, name="tfdebug_shape_probe")


@tf.autograph.experimental.do_not_convert
def probe(t, name: str | None = None):
    """Record ``t``'s static and runtime shape in every active ``shape_probe()``; return ``t``.

    Outside a ``shape_probe()`` scope it returns ``t`` at once and adds nothing to the graph.
    Inside, in a traced function, the returned tensor is ``t``'s value, computed after the
    shape is recorded (so the record happens even if only the result is used).

    Example::

        h = tfdebug.probe(tf.py_function(parse, [x], tf.float32), "parsed")
    """
    if not _active:
        return t
    if not isinstance(t, tf.Tensor):
        raise TypeError(f"probe(t) takes a tf.Tensor; got {type(t).__name__}. Convert it "
                        f"with tf.convert_to_tensor first.")
    if name is not None and not isinstance(name, str):
        raise TypeError(f"probe(t, name) takes a str name; got {type(name).__name__}")
    try:
        where = _tf.traced_user_location()
        label = name or (f"probe@{where[1]}" if where else "probe")
        ops = [p._record(t, label, "probe", where) for p in _active]
    except Exception:  # noqa: BLE001 - a probe never breaks the user's function
        log.debug("tfdebug: probe() failed", exc_info=True)
        return t
    ops = [op for op in ops if op is not None]
    if not ops:
        return t
    with tf.control_dependencies(ops):
        return tf.identity(t)


# -- Keras layers -----------------------------------------------------------------------

def _layer_tensors(value) -> list:
    try:
        return [v for v in tf.nest.flatten(value) if isinstance(v, tf.Tensor)]
    except Exception:  # noqa: BLE001
        return []


def _record_layer(layer, value, suffix: str) -> None:
    probes = _active
    if not probes:
        return
    try:
        tensors = _layer_tensors(value)
        if not tensors:
            return
        where = _tf.traced_user_location()
        base = f"{getattr(layer, 'name', type(layer).__name__)}:{suffix}"
        for index, tensor in enumerate(tensors):
            label = base if len(tensors) == 1 else f"{base}[{index}]"
            for p in probes:
                if p.layers:
                    p._record(tensor, label, "layer", where)
    except Exception:  # noqa: BLE001 - the user's layer call goes on regardless
        log.debug("tfdebug: layer probe failed", exc_info=True)


def _before_layer(layer, args, kwargs) -> None:
    if _active:
        _record_layer(layer, args[0] if args else kwargs.get("inputs"), "in")


def _after_layer(layer, outputs) -> None:
    if _active:
        _record_layer(layer, outputs, "out")
