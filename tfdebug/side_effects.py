"""``side_effect_guard()``: report Python effects that run only while a tf.function traces.

In graph mode the Python body of a tf.function runs once per trace, not once per call: a
``print`` shows a symbolic tensor once, a global counter stops counting, ``list.append``
collects placeholders, ``random.random()`` is frozen into the graph. While the guard is
active, every trace is checked (static analysis of the user's source plus what the live
trace knows, see ``_effects``) and each effect is reported once, with the user's line, what
it is and the recipe's fix. Calling an already-traced function costs nothing extra.
"""
from __future__ import annotations

import contextlib
import logging
import os
import threading
import warnings
import weakref

from . import _effects, _frames, _tf, recipebook, report, tracing
from ._effects import running
from ._scope import Scope, run_all

log = logging.getLogger("tfdebug")

ACTIONS = ("warn", "raise", "log")
# effect kind -> recipe id (titles, causes and fixes live in recipes/*.toml)
RECIPES = {
    "print": "TFD300",
    "global": "TFD301",
    "container": "TFD302",
    "attribute": "TFD303",
    "random": "TFD304",
    "clock": "TFD305",
    "io": "TFD306",
    "input": "TFD307",
    "numpy-state": "TFD308",
    "tensor-array": "TFD311",
    "string-format": "TFD310",
    "training-flag": "TFD320",
    "replica-mean": "TFD321",
    "replica-rescaled": "TFD322",
    "iterator": "TFD312",
    "replayed-random": "TFD324",
}
# A trace-time effect in a tf.data function while run_functions_eagerly(True) is on: the
# cause is tf.data tracing it regardless (the effect is named in the message).
EAGER_DATA_RECIPE = "TFD323"
IGNORE_COMMENT = "# tfdebug: ignore"
_NOTHING: frozenset = frozenset()  # the usual allow=(): one object, not one per guard
_ALLOWABLE = frozenset({*RECIPES, *RECIPES.values(), EAGER_DATA_RECIPE, "trace-time-side-effect",
                        "string-format", "keras-training-flag", "distribute", "data-pipeline"})


class SideEffectWarning(UserWarning):
    """A Python side effect in a tf.function that runs only while it is traced."""


class SideEffectError(tracing.SubscriberError):
    """Raised at trace time by ``side_effect_guard(action="raise")``; ``.findings`` lists them."""

    def __init__(self, findings):
        self.findings = list(findings)
        lines = [_describe(f) for f in self.findings]
        super().__init__("trace-time side effect(s) found while tracing:\n" + "\n".join(lines))


class side_effect_guard(Scope):
    """Report Python side effects that will run only at trace time, while functions are
    traced inside the scope: ``print``, writes to globals/nonlocals, mutation of captured
    lists/dicts/sets and attributes of captured objects, Python ``random`` /
    ``numpy.random`` / ``time`` / ``datetime.now`` / ``uuid``, file and network I/O,
    ``input()``, symbolic tensors formatted into strings, and Keras models with
    Dropout/BatchNormalization called without ``training=``.

    ``action``: "warn" (a ``SideEffectWarning`` at the user's line), "raise" (a
    ``SideEffectError`` at trace time) or "log" (the ``tfdebug`` logger). ``allow``: effect
    kinds, recipe ids or categories not to report; ``# tfdebug: ignore`` on a line silences it.
    ``follow_calls=True`` also checks every user function the trace runs that the source does
    not name (a function passed as an argument, ``super().call``, a context manager, a metric
    Keras calls), found by a Python trace hook set only while a function is traced: a trace
    then takes about 2-3x as long (calls cost nothing). ``tfdebug run`` turns it on.

    Example::

        @tf.function
        def step(x):
            history.append(x)        # reported: runs once, stores a symbolic tensor
            return x * 2

        with tfdebug.side_effect_guard() as guard:
            step(tf.constant(1.0))
        guard.findings               # [Finding(recipe='TFD302', line=..., ...)]
    """

    def __init__(self, action: str = "warn", *, allow=(), follow_calls: bool = False):
        if not isinstance(follow_calls, bool):
            raise TypeError(f"side_effect_guard(follow_calls=...) must be True or False, "
                            f"got {follow_calls!r}")
        if action not in ACTIONS:
            raise ValueError(f"side_effect_guard(action=...) must be one of {ACTIONS}, "
                             f"got {action!r}")
        if isinstance(allow, str):
            allow = (allow,)
        unknown = [a for a in allow if a not in _ALLOWABLE]
        if unknown:
            raise ValueError(f"side_effect_guard(allow=...) got unknown {unknown}; use effect "
                             f"kinds ({', '.join(RECIPES)}), recipe ids or categories")
        self.action = action
        self.allow = frozenset(allow) if allow else _NOTHING
        self.follow_calls = follow_calls
        self.findings: list[report.Finding] = []

    def __repr__(self) -> str:
        return f"side_effect_guard(action={self.action!r})"

    # -- scope --------------------------------------------------------------------------

    def _enter(self):
        state = _State(self)
        _tf.add_tensor_format_hook(state.on_format, observe_only=True)
        try:
            tracing.subscribe(state.on_trace)
        except BaseException:
            _tf.remove_tensor_format_hook(state.on_format)
            raise
        state.iterations = _tf.watch_iterations(state.on_iteration)  # pipelines iterated again
        state.declines = _tf.record_declines()  # for the explainer: AutoGraph's reasons
        state.hidden_frames = _tf.record_hidden_frames()  # ... and TensorFlow's raise sites
        return state

    def _exit(self, state, exc) -> None:
        run_all(lambda: tracing.unsubscribe(state.on_trace),
                lambda: _tf.remove_tensor_format_hook(state.on_format),
                lambda: state.iterations and _tf.unwatch_iterations(state.on_iteration),
                lambda: state.declines and _tf.stop_recording_declines(),
                lambda: state.hidden_frames and _tf.stop_recording_hidden_frames())

    # -- reporting ----------------------------------------------------------------------

    def _allowed(self, effect: _effects.Effect) -> bool:
        recipe_id = RECIPES[effect.kind]
        if self.allow & {effect.kind, recipe_id}:
            return True
        category = _recipe(recipe_id).category if self.allow else None
        return category in self.allow

    def _report(self, effects: list[_effects.Effect], seen: set,
                eager_data: bool = False) -> list[report.Finding]:
        __tracebackhide__ = True  # raises SideEffectError into the user's trace
        printed = {(e.file, e.line) for e in effects if e.kind == "print"}
        new = []
        for effect in effects:
            if effect.key() in seen:
                continue
            if effect.kind == "string-format" and (effect.file, effect.line) in printed:
                continue  # the print finding already says "use tf.print"
            if self._allowed(effect) or _suppressed(effect):
                continue
            if effect.still_relevant is not None:
                try:
                    if not effect.still_relevant():
                        continue
                except Exception:  # noqa: BLE001
                    log.debug("tfdebug: re-check of %r failed", effect, exc_info=True)
            seen.add(effect.key())
            recipe = _recipe(RECIPES[effect.kind])
            if eager_data and recipe.category == "trace-time-side-effect":
                recipe = _recipe(EAGER_DATA_RECIPE)
            finding = report.Finding.at(recipe, "warning", effect.file, effect.line,
                                        effect.function, f"{recipe.title}: {effect.detail}")
            self.findings.append(finding)
            report.emit(finding)
            new.append(finding)
        for finding in new:
            if self.action == "warn":
                warnings.warn_explicit(_describe(finding), SideEffectWarning,
                                       finding.file or "<unknown>", finding.line or 0,
                                       module=_module_name(finding.file))
            elif self.action == "log":
                log.warning("%s", _describe(finding))
        if new and self.action == "raise":
            raise SideEffectError(new)
        return new


class _State:
    """One entry of a guard: the traces in progress on each thread and what was reported."""

    def __init__(self, guard: side_effect_guard):
        self.guard = guard
        self.seen: set = set()
        self.local = threading.local()
        self.declines = self.iterations = False
        self.iterated = weakref.WeakKeyDictionary()  # dataset -> lines that made an iterator

    def on_iteration(self, dataset, where):
        """An eager iterator of ``dataset`` is being made at ``where`` (file, line): when the
        same line makes one a second time (a loop passing over the dataset again), the seeded
        random ops of its pipeline start their streams again (TFD324)."""
        __tracebackhide__ = True  # raises SideEffectError into the user's loop
        if self._stack():
            return  # iterated inside a trace: a graph's loop, not a new pass in Python
        try:
            lines = self.iterated.setdefault(dataset, set())
        except TypeError:  # not weakly referable: never followed
            return
        if lines is _READ:
            return  # its pipeline was read at an earlier pass
        if where not in lines:
            lines.add(where)
            return  # a first pass from this line
        self.iterated[dataset] = _READ
        effects = []
        for op in _tf.replayed_random_ops(dataset):
            site = _tf.op_user_site(op, _frames.is_user_file)
            if site is not None:
                effects.append(_effects.Effect(
                    "replayed-random", site[0], site[1], site[2],
                    f"`{_frames.source_line(site[0], site[1])}` ({op.type}, seeds "
                    f"{op.get_attr('seed')}/{op.get_attr('seed2')}) replays its numbers in "
                    "every new pass over the dataset"))
        if effects:
            self.guard._report(effects, self.seen)

    def _stack(self) -> list:
        stack = getattr(self.local, "stack", None)
        if stack is None:
            stack = self.local.stack = []
        return stack

    def on_trace(self, trace):
        return _TraceCheck(self, trace)

    def on_format(self, tensor, text, caller):
        """A symbolic tensor became Python text in user code during a trace."""
        stack = self._stack()
        if not stack:
            return None
        caller = _tf.past_converted_call(caller)  # `str(t)` in converted code: AutoGraph runs str
        if caller is None:
            return None
        filename = caller.f_code.co_filename
        if not (_frames.is_user_file(filename) or _tf.is_generated_file(filename)):
            return None
        where = _tf.mapped_location(caller)
        if where is None or not _frames.is_user_file(where[0]):
            return None
        stack[-1].append(_effects.Effect("string-format", where[0], where[1], where[2],
                                         f"`{_frames.source_line(*where[:2])}` makes the "
                                         f"text {text!r}"))
        return None


class _TraceCheck:
    def __init__(self, state: _State, trace):
        self.state, self.trace = state, trace

    def __enter__(self):
        self.state._stack().append([])
        # the user code this trace runs, wherever it is: a trace hook, so only when asked
        self.recorder = running.start() if self.state.guard.follow_calls else None
        return self

    def __exit__(self, exc_type, exc, tb):
        __tracebackhide__ = True
        ran = running.stop(self.recorder)
        dynamic = self.state._stack().pop()
        fn, instance, kind = self.trace.target
        if fn is None or _tf.is_internal_function(fn):
            return False
        effects = _effects.find(fn, instance, ran) + dynamic
        # the user asked for eager functions, and tf.data traced this one anyway
        eager_data = kind == "data" and _tf.functions_run_eagerly()
        if exc is not None:
            with contextlib.suppress(tracing.SubscriberError):
                self.state.guard._report(effects, self.state.seen, eager_data)
            return False
        self.state.guard._report(effects, self.state.seen, eager_data)
        return False


_READ = frozenset()  # a dataset whose pipeline was read: its later passes are not looked at


# -- helpers ---------------------------------------------------------------------------------

def _recipe(recipe_id: str):
    return recipebook.get(recipe_id)


def _suppressed(effect: _effects.Effect) -> bool:
    return IGNORE_COMMENT in _frames.source_line(effect.file, effect.line).replace("  ", " ")


def _describe(finding: report.Finding) -> str:
    recipe = _recipe(finding.recipe)
    where = f"{os.path.basename(finding.file or '?')}:{finding.line}"
    fix = " ".join(recipe.fix.split())
    return (f"tfdebug {recipe.id} {recipe.category}: {finding.message} "
            f"(in {finding.function}() at {where})\n  fix: {fix}")


def _module_name(filename: str | None) -> str:
    if not filename:
        return "<unknown>"
    return os.path.splitext(os.path.basename(filename))[0]
