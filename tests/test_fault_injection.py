"""Fault injection: every scope and the trace hook leave TensorFlow as they found it.

Each scenario (a scope around two traces of a fresh tf.function) first runs once counting
the internal steps it takes: tfdebug's calls into TensorFlow (``_tf``), TensorFlow's own
switches, the trace-hook multiplexer and each scope's trace subscriber. Then it runs once
per step with that step raising (``RuntimeError``, or ``KeyboardInterrupt``), with and
without a user error in the body. After each run TensorFlow's state must be what it was
(the eager flag, tf.data debug mode, the trace hook, tensor formatting, trace caches, the
Keras layer hook, ``print``) and tfdebug's books empty — except the one switch whose own
restore call was the step that failed, which the run is allowed (and expected) to leave.
"""
import builtins
import os
import contextlib

import keras
import pytest
import tensorflow as tf
from tensorflow.python.data.ops import debug_mode
from tensorflow.python.eager.polymorphic_function import tracing_compilation
from tensorflow.python.framework.ops import SymbolicTensor

import tfdebug
from tfdebug import _tf, report, tracing
from tfdebug import eager as eager_scope

import importlib

eager_module = importlib.import_module("tfdebug.modes")
printing = importlib.import_module("tfdebug.printing")
shapes = importlib.import_module("tfdebug.shapes")
trace_log = importlib.import_module("tfdebug.trace_log")
side_effects = importlib.import_module("tfdebug.side_effects")
explain_module = importlib.import_module("tfdebug.explainer")
diagnose_module = importlib.import_module("tfdebug.diagnosis")

_TF_STEPS = ["functions_run_eagerly", "set_functions_run_eagerly", "data_debug_mode",
             "set_data_debug_mode", "data_debug_mode_scopable", "install_trace_hook",
             "uninstall_trace_hook", "add_tensor_format_hook", "remove_tensor_format_hook",
             "redirect_trace_caches", "restore_trace_caches", "install_layer_call_hook",
             "uninstall_layer_call_hook", "traced_target", "traced_python_function",
             "evict_concrete", "trace_parameters"]
STEPS = ([(_tf, name) for name in _TF_STEPS]
         + [(tf.config, "run_functions_eagerly"), (debug_mode, "toggle_debug_mode"),
            (tracing, "subscribe"), (tracing, "unsubscribe"), (tracing, "_around_trace"),
            (tracing, "remember_graphs"), (tracing, "forget_graphs"), (tracing, "_remember"),
            (trace_log.TraceLogger, "_on_trace"), (side_effects._State, "on_trace"),
            (side_effects._State, "on_format"), (shapes.shape_probe, "_on_trace"),
            (explain_module, "annotate"), (diagnose_module, "diagnose")])

# The switch each restore step puts back: when that very call fails on exit, the switch
# cannot have been put back (and the failure is raised, or logged as a warning when the
# user's own exception is on its way out).
RESTORES = {"set_functions_run_eagerly": {"eager"}, "run_functions_eagerly": {"eager"},
            "set_data_debug_mode": {"data"}, "toggle_debug_mode": {"data"},
            "data_debug_mode_scopable": {"data"},
            "uninstall_trace_hook": {"trace hook"}, "unsubscribe": {"trace hook"},
            "forget_graphs": {"trace hook"},
            "remove_tensor_format_hook": {"formatters"}, "restore_trace_caches": {"trace caches"},
            "uninstall_layer_call_hook": {"layer call"}}


def snapshot() -> dict:
    """TensorFlow's switches and tfdebug's books, read without going through tfdebug."""
    return {
        "eager": tf.config.functions_run_eagerly(),
        "data": bool(debug_mode.DEBUG_MODE),
        "trace hook": tracing_compilation._create_concrete_function,
        "trace caches": tracing_compilation.trace_function,
        "formatters": tuple(SymbolicTensor.__dict__.get(n) for n in ("__format__", "__str__", "__repr__")),
        "layer call": keras.Layer.__call__,
        "print": builtins.print,
        "subscribers": tracing._subscribers,
        "remembering": (tracing._remembering, tracing._remember_hooked),
        "eager entries": len(eager_module._stack),
        "format hooks": _tf.formatting._format_hooks,
        "redirects": _tf.trace_hook._redirect_depth,
        "layer hooks": _tf.layer_hook._layer_hook["count"],
        "sinks": len(report._sinks),
        "print scopes": printing._depth,
        "probes": shapes._active,
        "trace depth": tracing.current_depth(),
    }


# books that go with a switch: they are left with it
_BOOKS = {"trace hook": {"subscribers", "remembering"}, "formatters": {"format hooks"},
          "trace caches": {"redirects"}, "layer call": {"layer hooks"}}


def _reset(before: dict) -> None:
    """Put back what a failed restore step left (so the next run starts clean)."""
    tf.config.run_functions_eagerly(before["eager"])
    debug_mode.toggle_debug_mode(before["data"])
    tracing_compilation._create_concrete_function = before["trace hook"]
    _tf.trace_hook._original_create = None
    tracing_compilation.trace_function = before["trace caches"]
    _tf.trace_hook._redirect_depth, _tf.trace_hook._redirect_original = 0, None
    for name, original in zip(("__format__", "__str__", "__repr__"), before["formatters"]):
        if original is None:
            if name in SymbolicTensor.__dict__:
                delattr(SymbolicTensor, name)
        else:
            setattr(SymbolicTensor, name, original)
    _tf.formatting._format_hooks, _ = (), _tf.formatting._format_originals.clear()
    keras.Layer.__call__ = before["layer call"]
    _tf.layer_hook._layer_hook.update(count=0, original=None, cls=None)
    tracing._subscribers = before["subscribers"]
    tracing._remembering, tracing._remember_hooked = before["remembering"]


class Injected(Exception):
    pass


class Faults:
    """Wrap every step; count the calls; the ``fail_at``-th call raises ``error``."""

    def __init__(self, fail_at=None, error=Injected):
        self.calls, self.fail_at, self.error = 0, fail_at, error
        self.failed = None  # (step name, phase) of the injected failure
        self.phase = "enter"
        self._saved = []

    def __enter__(self):
        for owner, name in STEPS:
            original = owner.__dict__[name] if isinstance(owner, type) else getattr(owner, name)
            self._saved.append((owner, name, original))
            setattr(owner, name, self._wrap(name, original))
        return self

    def __exit__(self, *exc):
        for owner, name, original in reversed(self._saved):
            setattr(owner, name, original)
        return False

    def _wrap(self, name, original):
        def step(*args, **kwargs):
            self.calls += 1
            if self.calls == self.fail_at:
                self.failed = (name, self.phase)
                raise self.error(f"injected into {name}")
            return original(*args, **kwargs)
        return step


# The scenario's print is on purpose (the side-effect guard has something to report at each
# step); its SideEffectWarning is the guard working, asserted once below, not noise.
_OWN_PRINT = r"ignore:tfdebug TFD300 trace-time-side-effect:tfdebug.side_effects.SideEffectWarning"


def _traced_twice():
    @tf.function
    def double(x):
        print("tracing double")
        return x * 2
    return [int(double(tf.constant(1))), float(double(tf.constant(2.0)))]


def test_the_scenario_s_print_is_what_the_guard_reports():
    from tfdebug.side_effects import SideEffectWarning

    with pytest.warns(SideEffectWarning, match=r"^tfdebug TFD300 trace-time-side-effect: print\(\)"):
        with tfdebug.side_effect_guard():
            assert _traced_twice() == [2, 4.0]


class UserError(Exception):
    pass


@contextlib.contextmanager
def _nested():
    with tfdebug.side_effect_guard(), tfdebug.trace_logger(), tfdebug.eager(), tfdebug.graph():
        yield


SCOPES = {
    "eager": tfdebug.eager, "graph": tfdebug.graph,
    "eager-data": lambda: tfdebug.eager(data=True),
    "trace_logger": tfdebug.trace_logger, "side_effect_guard": tfdebug.side_effect_guard,
    "print_to_tfprint": tfdebug.print_to_tfprint, "shape_probe": tfdebug.shape_probe,
    "explain": tfdebug.explain, "nested": _nested,
}


def _scenario(make_scope, faults: Faults, user_error: UserError | None):
    faults.phase = "enter"
    with make_scope():
        faults.phase = "body"
        result = _traced_twice()
        faults.phase = "exit"
        if user_error is not None:
            raise user_error
    return result


def _check_every_step(name, error, with_user_error):
    make_scope = SCOPES[name]
    with Faults() as counting:
        try:
            expected = _scenario(make_scope, counting, UserError() if with_user_error else None)
        except UserError:
            expected = _traced_twice()
    if counting.calls == 0:
        return 0  # explain() takes no step without an error
    runs = 0
    for step in range(1, counting.calls + 1):
        before = snapshot()
        user_error = UserError("mine") if with_user_error else None
        outcome = None
        with Faults(step, error) as faults:
            try:
                outcome = _scenario(make_scope, faults, user_error)
            except BaseException as exc:  # noqa: BLE001 - checked below
                outcome = exc
        if faults.failed is None:  # this run took fewer steps: nothing was injected
            continue
        runs += 1
        failed, phase = faults.failed
        after = snapshot()
        allowed = RESTORES.get(failed, set()) if phase == "exit" else set()
        allowed |= {book for switch in allowed for book in _BOOKS.get(switch, ())}
        changed = {key for key in before if before[key] != after[key]}
        where = f"{error.__name__} in {failed} ({phase}) of {name}"
        _reset(before)
        assert changed <= allowed, f"{where} left {sorted(changed - allowed)} changed"
        # what reaches the caller
        if phase == "enter" or error is KeyboardInterrupt and phase == "body" \
                or user_error is None and phase == "exit":
            if isinstance(outcome, error) or outcome == expected:
                continue  # injected error out; or one tfdebug's hook rightly absorbed
            pytest.fail(f"{where}: {outcome!r} came out")
        if user_error is not None:
            assert outcome is user_error, f"{where}: {outcome!r} instead of the user's error"
        else:
            assert outcome == expected, f"{where}: {outcome!r} instead of {expected}"
    assert runs >= counting.calls // 2
    return runs


@pytest.mark.filterwarnings(_OWN_PRINT)
@pytest.mark.parametrize("name", sorted(SCOPES))
def test_every_step_failing_leaves_tensorflow_as_it_was(name):
    runs = _check_every_step(name, Injected, with_user_error=False)
    runs += _check_every_step(name, Injected, with_user_error=True)
    runs += _check_every_step(name, KeyboardInterrupt, with_user_error=False)
    assert runs >= 2


@pytest.mark.smoke
@pytest.mark.filterwarnings(_OWN_PRINT)
def test_a_failing_restore_never_hides_the_user_s_error():
    # Only this one restore call fails; the user's error is what comes out, and every
    # other switch is back.
    before = snapshot()
    error = UserError("mine")
    with Faults() as counting:
        _scenario(tfdebug.side_effect_guard, counting, None)
    with Faults(counting.calls, Injected) as faults:
        with pytest.raises(UserError) as info:
            _scenario(tfdebug.side_effect_guard, faults, error)
    assert info.value is error and faults.failed[1] == "exit"
    _reset(before)


def test_a_green_run_of_these_tests_ends_without_warnings():
    # The summary of a passing run lists only warnings that signal a problem: the
    # scenario's own print is filtered above (and asserted in its own test).
    import subprocess
    import sys

    selected = "failing_restore or (every_step and explain) or (every_step and side_effect)"
    proc = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider",
                           "-n", "0", __file__, "-k", selected], capture_output=True, text=True, timeout=600,
                          cwd=os.path.dirname(__file__), env=dict(os.environ, TF_CPP_MIN_LOG_LEVEL="3"))
    last = proc.stdout.strip().splitlines()[-1]
    assert proc.returncode == 0 and " passed" in last, proc.stdout[-2000:]
    assert "warning" not in last and "warnings summary" not in proc.stdout, proc.stdout[-3000:]
