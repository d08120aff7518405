"""trace_logger(): record every trace, explain every retrace, propose the fix.

Inside the scope every trace of every tf.function (plain functions, methods, Keras
train/predict functions, tf.data functions, nested functions; also ones defined before the
scope) becomes a :class:`TraceEvent`: which function, the user line that caused it, the
input signature, the time spent, and whether it was a first trace, a retrace, or the second
trace TensorFlow does when a function creates variables. Retraces carry their reasons in the
user's terms (``x: shape (32, 784) -> (16, 784)``), each citing its recipe, and the history
gives the fix (a ready-to-paste ``input_signature``). Python values the graphs froze at trace
time that changed later are reported as stale captures. Everything happens at trace time:
calling an already-traced function costs the same inside the scope as outside.

Example::

    with tfdebug.trace_logger() as log:
        for n in range(1, 8):
            encode(tf.range(n))           # retraces for every length
    print(log.table())
    # encode  7 (6 retraces)  tokens: shape (1,) -> (2,) -> … -> (7,)
    #         @tf.function(input_signature=[tf.TensorSpec(shape=[None], dtype=tf.int32)])

    with tfdebug.trace_logger(max_traces=3):   # RetracingError on the 4th trace, explained
        ...
"""
from __future__ import annotations

import ast
import builtins
import collections
import dataclasses
import inspect
import logging
import os
import sys
import threading
import warnings
import weakref

from . import _captures, _frames, _signatures, _source, _tf, report, tracing
from ._scope import Scope, run_all
from ._signatures import Reason
from .trace_views import LogViews, _location, _plural, _suggestion_for

log = logging.getLogger("tfdebug")

KINDS = ("first", "retrace", "variable-creation")
STALE_RECIPES = {"global": "TFD210", "closure": "TFD210", "attribute": "TFD211",
                 "trainable": "TFD214"}


class RetracingWarning(UserWarning):
    """A function keeps retracing (issued once per function, at the user's call site)."""


class StaleCaptureWarning(UserWarning):
    """A Python value a graph captured at trace time has changed since."""


class RetracingError(tracing.SubscriberError):
    """``trace_logger(max_traces=N)``: a function was about to be traced more than N times.

    Raised before the trace, at the call that caused it; the message explains why the
    function retraces and how to fix it. ``event`` is the trace that was refused. (The
    constructor is Exception's own, so when the refused trace is nested in another one,
    AutoGraph re-raises the same class with its "in user code" context.)
    """

    event: "TraceEvent | None" = None


@dataclasses.dataclass(frozen=True)
class TraceEvent:
    """One trace of one tf.function."""

    function: str                 # qualified name of the Python function
    file: str | None              # where it is defined
    line: int | None
    call_file: str | None         # the user line that caused this trace
    call_line: int | None
    call_function: str | None
    signature: tuple              # ((argument, description), ...)
    kind: str                     # "first" | "retrace" | "variable-creation"
    reasons: tuple[Reason, ...]   # why it retraced (empty otherwise)
    duration: float               # seconds spent tracing
    name: str                     # the tf.function's own name
    depth: int                    # 0 top level, 1+ traced inside another trace
    thread: str
    user_code: bool               # False for Keras / TensorFlow internal functions
    started: float = 0.0          # time.perf_counter() when the trace began

    @property
    def where(self) -> str:
        return _location(self.file, self.line)

    @property
    def call_site(self) -> str:
        return _location(self.call_file, self.call_line)

    @property
    def signature_text(self) -> str:
        return _signatures.signature_text(self.signature)

    def __str__(self) -> str:
        text = f"{self.kind} {self.function}({self.signature_text}) at {self.call_site}"
        if self.reasons:
            text += ": " + "; ".join(map(str, self.reasons))
        return f"{text} [{self.duration * 1000:.1f} ms]"


@dataclasses.dataclass(frozen=True)
class StaleCapture:
    """A Python value read while tracing that changed while the graph kept the old one."""

    label: str          # "THRESHOLD", "self.counter"
    kind: str           # "global" | "closure" | "attribute" | "trainable"
    file: str
    line: int           # the line that read it
    function: str       # the function that read it
    traced: str         # the tf.function whose graph holds the old value
    before: str
    after: str

    @property
    def recipe(self) -> str:
        return STALE_RECIPES[self.kind]

    def __str__(self) -> str:
        if self.kind == "trainable":  # the line is the assignment, proven run afterwards
            return (f"{self.label} was set to {self.after} at {_location(self.file, self.line)}"
                    f" after {self.traced} was traced with {self.before}, and the traced "
                    f"function ran again with the old flag")
        return (f"{self.label} (read at {_location(self.file, self.line)} while tracing "
                f"{self.traced}) is now {self.after}, but the graph still uses {self.before}")


@dataclasses.dataclass
class _Record:
    """A TraceEvent plus what the logger needs to compare it with later traces."""

    event: TraceEvent
    group: object        # one per source function (one per tf.function for library code)
    key: object          # the tf.function object
    scope: str           # TF's variable scope of the trace
    code: object
    instance: object     # weakref to the bound object, or None
    function: object = None   # weakref to the Python function, or None


@dataclasses.dataclass
class _Pending:
    event: TraceEvent
    record: _Record
    function: object
    instance: object


RECENT_SIGNATURES = 64  # a retrace is explained against this many latest distinct signatures


class _KeyHistory:
    """What one tf.function object traced, kept so that a new trace is compared in constant
    time: each distinct signature once (is the new one a repeat? was it traced creating
    variables?) and the latest distinct signatures (which one is the new one closest to?)."""

    def __init__(self):
        self.seen: dict = {}   # signature key -> [a signature with that key, created variables?]
        self.recent: collections.OrderedDict = collections.OrderedDict()  # key -> signature

    def equal(self, sig) -> list | None:
        """The entry of an earlier signature equal to ``sig`` (as diff() sees it), or None."""
        entry = self.seen.get(_signature_key(sig))
        if entry is not None and not _signatures.diff(entry[0], sig):
            return entry
        return None

    def add(self, sig, variable_creation: bool) -> None:
        key = _signature_key(sig)
        entry = self.seen.get(key)
        if entry is None or _signatures.diff(entry[0], sig):
            self.seen[key] = entry = [sig, False]
        entry[1] = entry[1] or variable_creation
        self.recent.pop(key, None)
        self.recent[key] = sig
        if len(self.recent) > RECENT_SIGNATURES:
            self.recent.popitem(last=False)


class _History:
    """A source function's traces, summarised as they come (the per-trace work never reads
    the whole history): per tf.function object, counts, and the bound objects seen."""

    def __init__(self):
        self.by_key: dict = {}        # tf.function key -> _KeyHistory
        self.unhashable: list = []    # (key, _KeyHistory) for keys that cannot be hashed
        self.counted = 0              # traces max_traces counts (not variable-creation ones)
        self.retraces = 0
        self.instances: dict[int, list] = {}   # id(object) -> weak references to it
        self.has_instance = False

    def key_history(self, key) -> _KeyHistory | None:
        try:
            return self.by_key.get(key)
        except TypeError:  # a dead weak reference never hashed: compared one by one
            return next((h for k, h in self.unhashable if k == key), None)

    def saw_instance(self, instance) -> bool:
        return any(ref() is instance for ref in self.instances.get(id(instance), ()))

    def add(self, record: _Record) -> None:
        kind = record.event.kind
        self.counted += kind != "variable-creation"
        self.retraces += kind == "retrace"
        history = self.key_history(record.key)
        if history is None:
            history = _KeyHistory()
            try:
                self.by_key[record.key] = history
            except TypeError:
                self.unhashable.append((record.key, history))
        history.add(record.event.signature, record.scope == "VARIABLE_CREATION")
        if record.instance is not None:
            self.has_instance = True
            obj = record.instance()
            if obj is not None:
                refs = self.instances.setdefault(id(obj), [])
                if not any(ref() is obj for ref in refs):
                    refs.append(record.instance)


def _signature_key(sig):
    """A hashable key equal for signatures that diff() finds no difference in (a found
    match is still checked with diff()); the signature's identity when a value cannot be
    hashed."""
    try:
        key = frozenset((name, _value_key(value)) for name, value in sig)
        hash(key)
        return key
    except TypeError:
        return ("unhashable", id(sig))


def _value_key(value):
    if isinstance(value, _signatures.Tensor):
        return ("tensor", value.shape, value.dtype, value.replicas)
    if isinstance(value, _signatures.Value):
        raw = value.value
        return ("value", type(raw), "nan" if raw != raw else raw)
    if isinstance(value, _signatures.Object):
        return ("object", value.ident)
    if isinstance(value, _signatures.Nest):
        return ("nest", value.kind, tuple((k, _value_key(v)) for k, v in value.items))
    if isinstance(value, _signatures.Spec):
        return ("spec", value.text)
    return ("other", id(value))


class _State:
    """A logger's records. The containers most entries never fill are made on first use
    (``_LAZY``): a scope is often entered for a few traces, and each object made on entry is
    work, and garbage the collector counts."""

    _LAZY = {
        "warned": set,
        "snapshots": dict,      # group -> {read key: (Snapshot, tf.function key)}
        "stale": list,          # [StaleCapture]
        "stale_seen": set,
        "keras": dict,          # id(model) -> (weak model, weak train fn, flags, event)
        "assigned": dict,       # id(layer) -> (value, (file, line, fn), run marker)
        "flag_readers": set,    # call-count keys of traces that read `x.trainable_variables`
        "flag_set": dict,       # such a key -> (its calls when a `trainable` was last set, where)
        "local": threading.local,  # .outer: TF's call-count keys of the traces in progress
        "outer_traces": dict,   # call-count key -> outermost traces finished
        "streams": dict,        # tf.function key -> {(op type, seed, seed2)} of its graphs' ops
    }

    def __init__(self):
        self.lock = threading.RLock()
        self.records: list[_Record] = []
        self.groups: dict[object, list[_Record]] = {}
        self.history: dict[object, _History] = {}
        self.traced_name: dict[object, str] = {}
        self.watching = None  # the listener on Keras' `trainable` setter, once a model is seen
        self.entries = 0

    def __getattr__(self, name):
        factory = _State._LAZY.get(name)
        if factory is None:
            raise AttributeError(name)
        return self.__dict__.setdefault(name, factory())  # one winner if threads race


class TraceLogger(LogViews, Scope):
    """The scope ``trace_logger()`` returns; ``with trace_logger() as log`` gives this."""

    def __init__(self, *, warn_after: int | None = 4, max_traces: int | None = None,
                 stale: bool = True):
        for name, value in (("warn_after", warn_after), ("max_traces", max_traces)):
            if value is not None and (isinstance(value, bool) or not isinstance(value, int)
                                      or value < 1):
                raise ValueError(f"trace_logger({name}={value!r}): give a whole number >= 1, "
                                 f"or None to turn it off")
        self.warn_after, self.max_traces, self.stale = warn_after, max_traces, bool(stale)
        self._state = _State()

    def fresh(self) -> "TraceLogger":
        return TraceLogger(warn_after=self.warn_after, max_traces=self.max_traces,
                           stale=self.stale)

    def __repr__(self) -> str:
        return (f"trace_logger(warn_after={self.warn_after}, max_traces={self.max_traces}, "
                f"stale={self.stale}): {len(self._state.records)} traces")

    def __str__(self) -> str:
        """The table of every trace (``print(log)``); ``repr()`` is one line."""
        return self.table()

    def _repr_pretty_(self, printer, cycle: bool) -> None:
        printer.text(repr(self) if cycle else str(self))

    # -- scope ------------------------------------------------------------------------

    def _enter(self):
        with self._state.lock:
            self._state.entries += 1
            first = self._state.entries == 1
        if first:
            try:
                tracing.subscribe(self._on_trace)
            except BaseException:
                with self._state.lock:
                    self._state.entries -= 1
                raise
            _tf.tensorflow_logger().addFilter(self._tensorflow_warning)
        return first

    def _exit(self, token, exc) -> None:
        with self._state.lock:
            self._state.entries -= 1
            last = self._state.entries == 0
        if last:
            run_all(lambda: tracing.unsubscribe(self._on_trace),
                    lambda: _tf.tensorflow_logger().removeFilter(self._tensorflow_warning),
                    lambda: self._check_stale(None), self._unwatch_trainable)

    def _tensorflow_warning(self, record) -> bool:
        """A logging filter: False (dropped) for TensorFlow's own frequent-retracing warning
        about a function this logger has already warned about, with its reasons and fix."""
        try:
            function = _tf.warned_function(record)
            code = getattr(inspect.unwrap(function), "__code__", None) if function else None
            if code is None:
                return True
            with self._state.lock:
                warned = list(self._state.warned)
            if any(g is code or (isinstance(g, tuple) and g[0] is code) for g in warned):
                return False
            return not self._warn_library_objects(code)
        except Exception:  # noqa: BLE001 - a filter that fails keeps TensorFlow's record
            return True

    def _warn_library_objects(self, code) -> bool:
        """TensorFlow's detector counted frequent traces of library code (Keras' step
        function) that this logger keeps apart per tf.function object: when those objects
        were each traced from one user line, that line makes a new object (a model) per
        call. Warned there, once; True when warned."""
        with self._state.lock:
            groups = [g for g in self._state.groups if isinstance(g, tuple) and g[0] is code]
            records = [r for g in groups for r in self._state.groups[g]]
        latest = max(records, key=lambda r: r.event.started, default=None)
        if len(groups) < 2 or latest is None or latest.event.user_code or latest.event.call_file is None:
            return False
        site = (latest.event.call_file, latest.event.call_line)
        same_site = [r for r in records if (r.event.call_file, r.event.call_line) == site]
        objects = {r.group for r in same_site}
        if len(objects) < 2:
            return False
        with self._state.lock:
            if (code, "objects") in self._state.warned:
                return True
            self._state.warned.add((code, "objects"))
        recipe = _recipe("TFD209")
        # what made each new tf.function: a new model each time (several live ones, each its
        # own), or compile() on one model (it drops the step functions); read from closures
        models = [_tf.step_owner(r.function()) for r in same_site if r.function is not None]
        models = [m for m in models if m is not None]
        if len(models) >= 2 and len({id(m) for m in models}) == len(models):
            made = f"a new {type(models[-1]).__name__} each time"
        else:  # the earlier ones are gone (compile() drops them too): which, is not known
            made = "a new model, or compile() again, each time"
        message = (f"{latest.event.function} was traced {len(same_site)} times, for "
                   f"{len(objects)} different tf.function objects, all called at "
                   f"{_location(*site)}: {made}, and each traces its step function again. "
                   f"Fix: {' '.join(recipe.fix.split()) if recipe is not None else 'reuse one object'}")
        _warn(f"tfdebug TFD209 retracing: {message}", RetracingWarning, *site)
        if recipe is not None:
            report.emit(report.Finding.at(recipe, "warning", site[0], site[1],
                                          latest.event.call_function, message))
        return True

    # -- the subscriber: runs around each trace ------------------------------------------

    def _on_trace(self, trace):
        __tracebackhide__ = True  # pytest shows the user's call, not this raise
        if self.max_traces is None:
            # classified when the trace is over (the same stack above it, and the same
            # history, but with caches that the checks which ran just before it warmed)
            return _Recording(self, trace, None)
        pending = self._classify_safely(trace)
        if pending is None:
            return None
        if pending.event.kind != "variable-creation":
            with self._state.lock:
                history = self._state.history.get(pending.record.group)
                counted = history.counted if history is not None else 0
            if counted + 1 > self.max_traces:
                error = RetracingError(self._refusal(pending, counted + 1))
                error.event = pending.event
                raise error
        return _Recording(self, trace, pending)

    def _classify_safely(self, trace) -> _Pending | None:
        try:
            return self._classify(trace)
        except Exception:  # noqa: BLE001 - never break the user's trace
            log.debug("tfdebug: trace_logger could not classify a trace", exc_info=True)
            return None

    def _classify(self, trace) -> _Pending | None:
        fn, instance, kind = trace.target
        if _tf.is_internal_function(fn):
            return None
        code = getattr(fn, "__code__", None)
        user = bool(code) and _frames.is_user_file(code.co_filename)
        if not user:
            # a library's decorator wrapper (AutoGraph's do_not_convert) shares one code
            # object among all it wraps: the wrapped function's is the one TF counts
            code = _unwrapped_code(fn, code)
        key = _tf.tf_function_key(trace.tracing_options)
        scope = _tf.trace_scope(trace.tracing_options)
        sig = _signatures.signature(trace.parameters)
        if kind in ("data", "replica"):
            sig = _wrapper_argument_names(fn, sig)
        group = code if (user and kind != "data") else (code, key)
        name = _display_name(fn, trace.name, user, kind)
        call = _tf.traced_user_location()
        call_file, call_line, call_function = call if call else (None, None, None)
        with self._state.lock:
            event_kind, reasons = _compare(self._state.history.get(group), key, scope, sig,
                                           instance, name, call)
        event = TraceEvent(
            function=name, file=code.co_filename if code else None,
            line=code.co_firstlineno if code else None,
            call_file=call_file, call_line=call_line, call_function=call_function,
            signature=sig, kind=event_kind, reasons=tuple(reasons), duration=0.0,
            name=trace.name, depth=trace.depth, thread=threading.current_thread().name,
            user_code=user)
        record = _Record(event, group, key, scope, code, _weak(instance), _weak(fn))
        return _Pending(event, record, fn, instance)

    def _finish(self, trace, pending: _Pending) -> None:
        """After a successful trace: keep the event, check stale values, maybe warn."""
        record = pending.record
        # the event no one has seen yet gets its times (a frozen dataclass: replace() would
        # copy all of it, per trace)
        object.__setattr__(pending.event, "duration", trace.duration)
        object.__setattr__(pending.event, "started", trace.started)
        record.event = pending.event
        group = record.group
        with self._state.lock:
            self._state.records.append(record)
            self._state.groups.setdefault(group, []).append(record)
            history = self._state.history.get(group)
            if history is None:
                history = self._state.history[group] = _History()
            history.add(record)
            self._state.traced_name[group] = record.event.function
            retraces = history.retraces
            warn = (record.event.kind == "retrace" and self.warn_after is not None
                    and retraces >= self.warn_after and group not in self._state.warned)
            if warn:
                self._state.warned.add(group)
        if record.event.kind == "retrace":
            self._check_replayed_streams(trace, record)
        if self.stale:
            if record.event.kind == "retrace":
                self._check_stale(group)
            self._snapshot(group, pending)
            self._snapshot_trainable(pending)
        if warn:
            self._warn_retracing(group)

    # -- random streams replayed by another graph -----------------------------------------

    def _check_replayed_streams(self, trace, record) -> None:
        """A retrace made a graph whose seeded random op has the seeds one in an earlier graph
        of the same tf.function has: each graph starts that stream afresh, so both draw the
        same numbers (TFD220). Read on retraces only; the earlier graphs are read once per
        tf.function, then each new graph's ops are added."""
        try:
            new = _tf.seeded_random_ops(trace.concrete)
            with self._state.lock:
                known = self._state.streams.get(record.key)
            if not new and known is not None:
                return
            if known is None:
                known = {_stream_key(op) for concrete in _tf.traced_concretes(trace.tracing_options)
                         if concrete is not trace.concrete for op in _tf.seeded_random_ops(concrete)}
            with self._state.lock:
                known = self._state.streams.setdefault(record.key, known)
                replayed = [op for op in new if _stream_key(op) in known]
                known.update(map(_stream_key, new))
                first_report = replayed and ("streams", record.key) not in self._state.warned
                if first_report:
                    self._state.warned.add(("streams", record.key))
            if first_report:
                self._warn_replayed_stream(record.event, replayed[0])
        except Exception:  # noqa: BLE001 - a check must never break the trace
            log.debug("tfdebug: reading random streams failed", exc_info=True)

    def _warn_replayed_stream(self, event: TraceEvent, op) -> None:
        recipe = _recipe("TFD220")
        why = "; ".join(map(str, event.reasons[:2])) or "traced again"
        seeds = f"{op.get_attr('seed')}, {op.get_attr('seed2')}"
        site = _tf.op_user_site(op, _frames.is_user_file)
        made = f" (made at {_location(site[0], site[1])})" if site else ""
        message = (f"{event.function} was traced into another graph ({why}), and its {op.type}"
                   f"{made} has the seeds ({seeds}) of one in an earlier graph of the same "
                   "tf.function: each graph starts that stream afresh, so calls that go to "
                   "different graphs draw the same numbers")
        file, line = event.call_file or event.file, event.call_line or event.line
        _warn(f"tfdebug TFD220 retracing: {message}", RetracingWarning, file, line)
        if recipe is not None:
            report.emit(report.Finding.at(recipe, "warning", file, line,
                                          event.call_function or event.function, message))

    # -- stale captures -----------------------------------------------------------------

    def _snapshot(self, group, pending: _Pending) -> None:
        try:
            snaps = _captures.snapshot(_captures.reads(pending.function, pending.instance))
        except Exception:  # noqa: BLE001
            log.debug("tfdebug: stale-capture snapshot failed", exc_info=True)
            return
        if snaps:
            key = pending.record.key
            outer = getattr(self._state.local, "outer", None) or [None]
            with self._state.lock:
                # the function called from eager code (the outermost trace) and how many
                # traces of it had finished: later, TensorFlow's count of its calls since its
                # latest trace proves that this trace's graph ran again
                proof = (outer[0], self._state.outer_traces.get(outer[0], 0) + 1)
                self._state.snapshots.setdefault(group, {}).update(
                    (read_key, (snap, key, proof)) for read_key, snap in snaps.items())
                flags_read = outer[0] is not None and any(
                    snap.read.kind == "trainable" for snap in snaps.values())
                if flags_read:
                    self._state.flag_readers.add(outer[0])
            if flags_read:
                self._watch_trainable()

    def _snapshot_trainable(self, pending: _Pending) -> None:
        """Keras' train function is being traced: keep the ``trainable`` flags it sees."""
        try:
            model = _tf.trained_model(pending.function)
            if model is None:
                return
            entry = (weakref.ref(model), _tf.train_function_traced(model),
                     _tf.trainable_flags(model), pending.event)
        except Exception:  # noqa: BLE001
            log.debug("tfdebug: Keras trainable snapshot failed", exc_info=True)
            return
        with self._state.lock:
            self._state.keras[id(model)] = entry
        self._watch_trainable()

    def _watch_trainable(self) -> None:
        """Listen to Keras' ``trainable`` setter, once per scope."""
        with self._state.lock:
            watch = self._state.watching is None
            if watch:
                self._state.watching = self._on_trainable
        if watch and not _tf.watch_trainable(self._on_trainable):
            with self._state.lock:
                self._state.watching = False  # this Keras: no moment of change, no warning

    def _on_trainable(self, layer, value, frame) -> None:
        """``layer.trainable = value`` ran (Keras' setter): where, and how far each watched
        model's train function had run by then."""
        with self._state.lock:
            entries = [e for e in self._state.keras.values() if id(layer) in e[2]]
            readers = list(self._state.flag_readers)
        if readers:
            # a traced function that read a layer's trainable variables: how many calls its
            # graph had served when a flag changed (a later call ran with the old flags)
            where = _user_location(frame)
            counts = [(key, _tf.calls_since_trace(key)) for key in readers]
            with self._state.lock:
                self._state.flag_set.update((key, (calls, where)) for key, calls in counts
                                            if calls is not None and where is not None)
        for model_ref, traced, _flags, _event in entries:
            model, function = model_ref(), traced() if traced is not None else None
            if model is None or function is None:
                continue
            where = _user_location(frame)
            marker = _tf.run_marker(function, model)
            with self._state.lock:
                self._state.assigned[id(layer)] = (value, where, marker)

    def _unwatch_trainable(self) -> None:
        with self._state.lock:
            listener, self._state.watching = self._state.watching, None
        if listener:
            _tf.unwatch_trainable(listener)

    def _check_trainable(self) -> list[StaleCapture]:
        """Layers whose ``trainable`` was set after their model's train function was traced,
        while the model kept that function (recompiling drops it) and ran it afterwards: the
        graph trained with the old flags. Blamed at the line that set the flag."""
        with self._state.lock:
            entries = list(self._state.keras.values())
        found = []
        for model_ref, traced, flags, event in entries:
            model = model_ref()
            if model is None:
                continue
            by_name = {name: lid for lid, (_ref, name, _before) in flags.items()}
            for name, before, now in _tf.changed_flags(model, flags, traced):
                with self._state.lock:
                    value, where, marker = self._state.assigned.get(by_name.get(name),
                                                                    (None, None, None))
                if value != now or where is None or \
                        not _tf.ran_since(traced(), marker, model):
                    continue  # not seen set, or never trained with the old flags since
                stale = StaleCapture(f"layer {name!r}.trainable", "trainable", where[0], where[1],
                                     where[2], f"{type(model).__name__}.train_function",
                                     str(before), str(now))
                with self._state.lock:
                    key = ("trainable", id(model), name, now)
                    if key in self._state.stale_seen:
                        continue
                    self._state.stale_seen.add(key)
                    self._state.stale.append(stale)
                found.append(stale)
        return found

    def _flags_set_before_a_call(self, proof) -> tuple | None:
        """Where a ``trainable`` flag was last set, when the graph of the trace ``proof`` names
        served a call after that (no retrace since): it ran with the flags it was traced with."""
        outer_key, traces = proof
        with self._state.lock:
            moment = self._state.flag_set.get(outer_key)
            latest = self._state.outer_traces.get(outer_key, 0) == traces
        calls = _tf.calls_since_trace(outer_key) if latest and moment is not None else None
        return moment[1] if calls is not None and calls > moment[0] else None

    def _ran_again(self, proof) -> bool:
        """The graph of a trace served a call after the one that traced it: no later trace of
        its outermost function, and TensorFlow counted a call since that one."""
        outer_key, traces = proof
        with self._state.lock:
            latest = self._state.outer_traces.get(outer_key, 0) == traces
        calls = _tf.calls_since_trace(outer_key) if latest else None
        return calls is not None and calls >= 2

    def _check_stale(self, only_group) -> None:
        """Report values that changed since the trace that read them (once each)."""
        if not self.stale:
            return
        if only_group is None:
            try:
                for stale in self._check_trainable():
                    self._warn_stale(stale)
            except Exception:  # noqa: BLE001
                log.debug("tfdebug: Keras trainable check failed", exc_info=True)
        with self._state.lock:
            chosen = (self._state.snapshots.items() if only_group is None else
                      [(only_group, self._state.snapshots.get(only_group, {}))])
            items = [(g, s, key, proof) for g, snaps in chosen for s, key, proof in snaps.values()]
        found = []
        for group, snap, key, proof in items:
            if isinstance(key, weakref.ref) and key() is None:
                continue  # the tf.function that froze the value is gone: no graph uses it
            if only_group is None and not self._ran_again(proof):
                continue  # never called after that trace: the old value was never reused
            set_at = self._flags_set_before_a_call(proof) if snap.read.kind == "trainable" else None
            if snap.read.kind == "trainable" and set_at is None:
                continue  # no call since a flag was set: the graph never ran with old flags
            seen_key = (group, snap.read.key)
            if seen_key in self._state.stale_seen:
                continue
            try:
                now = _captures.changed(snap)
            except Exception:  # noqa: BLE001
                now = None
            if now is None:
                continue
            read = snap.read
            file, line, function = set_at or (read.file, read.line, read.function)
            stale = StaleCapture(read.label, read.kind, file, line, function,
                                 self._state.traced_name.get(group, "?"), snap.shown, now)
            with self._state.lock:
                # one report per line and change: Keras' nested train functions (and two
                # tf.functions sharing a helper) read the same value at the same line
                change_key = (read.key, snap.shown, now)
                if seen_key in self._state.stale_seen or change_key in self._state.stale_seen:
                    self._state.stale_seen.add(seen_key)
                    continue
                self._state.stale_seen.update((seen_key, change_key))
                self._state.stale.append(stale)
            found.append(stale)
        for stale in found:
            self._warn_stale(stale)

    # -- warnings, findings, errors ------------------------------------------------------

    def _warn_retracing(self, group) -> None:
        try:
            info = self._function_summary(group)
            recipe = _recipe(info["recipe"])
            message = (f"{info['function']} was traced {info['count']} times "
                       f"({_plural(info['retraces'], 'retrace')}): "
                       + "; ".join(info["reasons"][:3])
                       + (f". Fix: {info['suggestion']}" if info["suggestion"] else ""))
            file, line, function = info["call_file"], info["call_line"], info["call_function"]
            if info["recipe"] == _signatures.RECIPES["new-function"] and info["file"]:
                # a tf.function made again on every call: the fix is where it is made, the
                # one ``tf.function(f)`` of an undecorated ``f``'s module, else its def
                with self._state.lock:
                    latest = (self._state.groups.get(group) or [None])[-1]
                traced = latest.function() if latest is not None and latest.function else None
                file, line, function = _made_at(traced) or (info["file"], info["line"], info["function"])
            _warn(f"tfdebug {info['recipe']} retracing: {message}", RetracingWarning,
                  file or info["file"], line or info["line"])
            if recipe is not None:
                report.emit(report.Finding.at(recipe, "warning", file or info["file"],
                                              line or info["line"], function, message))
        except Exception:  # noqa: BLE001 - a warning must never break the program
            log.debug("tfdebug: retracing warning failed", exc_info=True)

    def _warn_stale(self, stale: StaleCapture) -> None:
        try:
            _warn(f"tfdebug {stale.recipe} stale-capture: {stale}", StaleCaptureWarning,
                  stale.file, stale.line)
            recipe = _recipe(stale.recipe)
            if recipe is not None:
                report.emit(report.Finding.at(recipe, "warning", stale.file, stale.line,
                                              stale.function, str(stale)))
        except Exception:  # noqa: BLE001
            log.debug("tfdebug: stale-capture warning failed", exc_info=True)

    def _refusal(self, pending: _Pending, number: int) -> str:
        event = pending.event
        lines = [f"tfdebug: {event.function} would be traced for the {_ordinal(number)} time, "
                 f"more than trace_logger(max_traces={self.max_traces}) allows.",
                 f"  this trace: {event.function}({event.signature_text}), "
                 f"called at {event.call_site}"]
        lines += [f"  why: {r} [{r.recipe}]" for r in event.reasons]
        with self._state.lock:
            records = list(self._state.groups.get(pending.record.group, ()))
        suggestion = _suggestion_for(records + [pending.record])
        lines += [f"  fix: {s}" for s in suggestion.lines()]
        for r in dict.fromkeys(r.recipe for r in event.reasons):
            lines.append(f"  docs: tfdebug explain {r}")
        return "\n".join(lines)

    # -- reading the log ------------------------------------------------------------------

    @property
    def events(self) -> list[TraceEvent]:
        """Every trace recorded so far, in order."""
        with self._state.lock:
            return [r.event for r in self._state.records]

    @property
    def stale_captures(self) -> list[StaleCapture]:
        """Stale captures found so far (at retraces and at scope exit)."""
        with self._state.lock:
            return list(self._state.stale)

    def count(self, fn, kind: str | None = None) -> int:
        """How many times ``fn`` was traced (all kinds, as TF counts; or only ``kind``).

        ``fn`` is a tf.function (also a bound one: ``model.step``), its Python function, a
        method, or a name.
        """
        if kind is not None and kind not in KINDS:
            raise ValueError(f"count(kind={kind!r}): kind is one of {', '.join(KINDS)}")
        return sum(1 for r in self._matching(fn) if kind is None or r.event.kind == kind)

    def retraces(self, fn) -> list[TraceEvent]:
        """The retrace events of ``fn`` (see ``count`` for what ``fn`` may be)."""
        return [r.event for r in self._matching(fn) if r.event.kind == "retrace"]

    def suggestion(self, fn) -> _signatures.Suggestion:
        """The fix for ``fn``'s retraces (``.input_signature`` is ready to paste)."""
        records = self._matching(fn)
        if not records:
            raise KeyError(f"{fn!r} was not traced inside this trace_logger()")
        return _suggestion_for(records)

    def input_signature(self, fn) -> str | None:
        """Ready-to-paste ``input_signature`` that stops ``fn`` retracing, or None."""
        return self.suggestion(fn).input_signature

    def _matching(self, fn) -> list[_Record]:
        with self._state.lock:
            records = list(self._state.records)
        if isinstance(fn, str):
            return [r for r in records if fn in (r.event.function, r.event.name)
                    or r.event.function.endswith("." + fn)]
        target, instance, key = _tf.function_target(fn)
        if key is not None:
            # A tf.function read off a class (``Model.step``) never traces itself: each
            # object gets its own copy. Then every object's traces of that code count.
            by_key = [r for r in records if r.key == key]
            if by_key:
                return by_key
        code = getattr(target, "__code__", None)
        if code is None:
            raise TypeError(f"count()/retraces() take a tf.function, a function, a method or a "
                            f"name; got {type(fn).__name__}")
        return [r for r in records if r.code is code
                and (instance is None or (r.instance is not None and r.instance() is instance))]


class _Recording:
    """The context a trace runs in: keeps the event once the trace has succeeded (``pending``:
    the trace as classified before it ran, or None to classify it then)."""

    def __init__(self, logger: TraceLogger, trace, pending: _Pending):
        self.logger, self.trace, self.pending = logger, trace, pending

    def __enter__(self):
        state = self.logger._state
        outer = getattr(state.local, "outer", None)
        if outer is None:
            outer = state.local.outer = []
        outer.append(_tf.stats_key(self.trace.python_function))
        return self

    def __exit__(self, exc_type, exc, tb) -> bool:
        state = self.logger._state
        try:
            if exc is None and self.trace.error is None:
                pending = self.pending or self.logger._classify_safely(self.trace)
                if pending is not None:
                    self.logger._finish(self.trace, pending)
        finally:
            key = state.local.outer.pop()
            if not state.local.outer and exc is None and self.trace.error is None:
                with state.lock:
                    state.outer_traces[key] = state.outer_traces.get(key, 0) + 1
        return False


def trace_logger(*, warn_after: int | None = 4, max_traces: int | None = None,
                 stale: bool = True) -> TraceLogger:
    """Record every tf.function trace inside the scope; explain retraces; propose fixes.

    ``warn_after``: warn (RetracingWarning at the user's call site, and a ``tfdebug run``
    finding) once per function when it has retraced this many times; None: never.
    ``max_traces``: raise RetracingError, with the explanation, on the trace of a function
    that would pass this many traces (TF's variable-creation second trace is not counted).
    ``stale``: report Python values read while tracing that changed later.

    Example::

        with tfdebug.trace_logger() as log:
            train(model, dataset)
        print(log.table())
        log.count(train_step)           # traces of one function
        log.input_signature(train_step) # "[tf.TensorSpec(shape=[None, 784], ...)]"

    Also a decorator (a fresh logger per call)::

        @tfdebug.trace_logger(max_traces=2)
        def test_no_retracing(): ...
    """
    return TraceLogger(warn_after=warn_after, max_traces=max_traces, stale=stale)


# -- helpers ----------------------------------------------------------------------------

def _made_at(fn) -> tuple | None:
    """``(file, line, function)`` of the call that makes the tf.function of ``fn`` when the
    source proves it: ``fn``'s def has no decorator and its module has exactly one
    ``tf.function(f)`` (or ``tf.function(...)(f)``) naming it (``f`` or ``obj.f``); else None."""
    fn = getattr(fn, "__func__", fn)
    code = getattr(fn, "__code__", None)
    tf_function = getattr(sys.modules.get("tensorflow"), "function", None)
    if code is None or tf_function is None:
        return None
    node = _source.function_node(code)
    tree = _source.module_tree(code.co_filename)
    if node is None or tree is None or getattr(node, "decorator_list", None):
        return None
    names = getattr(fn, "__globals__", {})
    sites = [call for call in _source.source_index(tree).calls
             if _makes_tf_function(call, code.co_name, names, tf_function)]
    if len(sites) != 1:
        return None
    made_in = _source.enclosing_function(tree, sites[0].lineno)
    return code.co_filename, sites[0].lineno, getattr(made_in, "name", "<module>")


def _makes_tf_function(call, name: str, names: dict, tf_function) -> bool:
    func, args = call.func, call.args
    if isinstance(func, ast.Call):  # tf.function(jit_compile=True)(f)
        if func.args:
            return False
        func = func.func
    if len(args) != 1:
        return False
    given = args[0].id if isinstance(args[0], ast.Name) else \
        args[0].attr if isinstance(args[0], ast.Attribute) else None
    if given != name:
        return False
    chain = _source.dotted_tail(func).split(".")
    value = names.get(chain[0], getattr(builtins, chain[0], None))
    for attr in chain[1:]:
        value = getattr(value, attr, None)
    return value is tf_function


def _compare(history: _History | None, key, scope, sig, instance, name, call):
    """(kind, reasons) of a trace given the earlier traces of the same source function.

    Constant in the number of earlier traces: a repeat is found by its signature's key, and
    a retrace is explained against the latest RECENT_SIGNATURES distinct signatures.
    """
    if history is None:
        return "first", []
    same = history.key_history(key)
    if same is None:
        where = _location(call[0], call[1]) if call else "?"
        if instance is not None and history.has_instance and not history.saw_instance(instance):
            text = (f"a new {type(instance).__name__} object, called at {where}: each object "
                    f"gets its own tf.function for {name} and traces it again")
        else:
            text = (f"a new tf.function object for {name}, called at {where} — "
                    f"tf.function created inside a loop or a function?")
        return "retrace", [Reason("new-function", None, None, where, text)]
    equal = same.equal(sig)
    if equal is not None and scope == "NO_VARIABLE_CREATION" and equal[1]:
        return "variable-creation", []
    if equal is not None:
        return "retrace", [Reason("context", None, None, None,
                                  "same inputs, traced again in a different context (device, "
                                  "distribution strategy, graph or captured tensors)")]
    # a hashable key differs from every earlier one (no repeat): each differs in something
    fewest = 1 if isinstance(_signature_key(sig), frozenset) else 0
    _, reasons = _signatures.closest(list(same.recent.values()), sig, fewest)
    return "retrace", reasons


def _stream_key(op) -> tuple:
    return op.type, op.get_attr("seed"), op.get_attr("seed2")


def _unwrapped_code(fn, code):
    try:
        return getattr(inspect.unwrap(fn), "__code__", None) or code
    except ValueError:  # a __wrapped__ cycle
        return code


def _wrapper_argument_names(fn, sig):
    """tf.data and strategy.run pass args_0, args_1...; use the user's names when they fit."""
    try:
        params = [p for p in inspect.signature(fn).parameters.values()
                  if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
    except (TypeError, ValueError):
        return sig
    if len(params) != len(sig) or not all(n == f"args_{i}" for i, (n, _) in enumerate(sig)):
        return sig
    return tuple((p.name, value) for p, (_, value) in zip(params, sig))


def _display_name(fn, tf_name: str, user: bool, kind: str) -> str:
    qualname = getattr(fn, "__qualname__", None) or tf_name
    qualname = qualname.replace(".<locals>", "")
    if kind == "data":
        return f"{qualname} (tf.data)"
    if kind == "replica":
        return f"{qualname} (per replica)"
    if not user:
        package = (getattr(fn, "__module__", "") or "").split(".")[0]
        return f"{tf_name} ({package})" if package else tf_name
    return qualname


def _weak(obj):
    if obj is None:
        return None
    try:
        return weakref.ref(obj)
    except TypeError:
        return lambda: obj


def _user_location(frame) -> tuple[str, int, str] | None:
    """(file, line, function) of the innermost user frame at or above ``frame``."""
    while frame is not None:
        where = _tf.mapped_location(frame)
        if where is not None and _frames.is_user_file(where[0]):
            return where
        frame = frame.f_back
    return None


def _recipe(recipe_id):
    from . import recipebook
    try:
        return recipebook.get(recipe_id) if recipe_id else None
    except KeyError:
        return None


def _warn(message: str, category, file, line) -> None:
    """A warning at the user's line, and the same on the tfdebug logger when it has a handler."""
    warnings.warn_explicit(message, category, filename=file or "<unknown>", lineno=line or 0,
                           module=os.path.splitext(os.path.basename(file or "tfdebug"))[0])
    if log.handlers or logging.getLogger().handlers:   # logging configured: say it there too
        log.warning("%s (%s)", message, _location(file, line))


def _ordinal(n: int) -> str:
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"
