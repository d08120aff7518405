"""The single trace hook: refcounted subscribers, safe failures, a tested fallback."""
import os
import warnings

import pytest
import tensorflow as tf

from tfdebug import _tf, tracing

pytestmark = pytest.mark.smoke  # also run on the oldest supported TensorFlow


def _square():
    return tf.function(lambda x: x * x)


def test_hook_installed_with_first_subscriber_and_removed_after_last():
    seen_a, seen_b = [], []
    a, b = (lambda t: seen_a.append(t.name)), (lambda t: seen_b.append(t.name))
    assert not _tf.trace_hook_installed()
    tracing.subscribe(a)
    tracing.subscribe(b)
    try:
        assert _tf.trace_hook_installed()
        tracing.unsubscribe(a)
        assert _tf.trace_hook_installed()
        _square()(tf.constant(2.0))
    finally:
        tracing.unsubscribe(b)
        tracing.unsubscribe(a)   # a second removal changes nothing
    assert not _tf.trace_hook_installed()
    assert seen_a == [] and len(seen_b) == 1


def test_trace_record_has_function_signature_depth_and_duration():
    traces = []

    @tf.function
    def inner(x):
        return x + 1

    @tf.function
    def outer(x, n):
        return inner(x) * n

    with tracing.subscribed(traces.append):
        outer(tf.ones([2, 3]), 4)
    by_name = {t.name: t for t in traces}
    assert set(by_name) == {"outer", "inner"}
    assert by_name["outer"].python_function.__name__ == "outer"
    assert by_name["outer"].depth == 0 and by_name["inner"].depth == 1
    params = dict(by_name["outer"].parameters)
    assert params["x"].shape == tf.TensorShape([2, 3])
    assert by_name["outer"].duration > 0 and by_name["outer"].concrete is not None


def test_already_traced_function_does_not_reach_subscribers():
    traces = []
    fn = _square()
    fn(tf.constant(1.0))
    with tracing.subscribed(traces.append):
        fn(tf.constant(2.0))
    assert traces == []


def test_a_broken_subscriber_never_breaks_the_trace(caplog):
    def broken(trace):
        raise ZeroDivisionError("tfdebug bug")

    with caplog.at_level("DEBUG", logger="tfdebug"), tracing.subscribed(broken):
        assert float(_square()(tf.constant(3.0))) == 9.0
    assert "failed on entry" in caplog.text


def test_subscriber_error_reaches_the_user_and_user_errors_pass_through():
    class Stop(tracing.SubscriberError):
        pass

    def stopper(trace):
        raise Stop("too many traces")

    with tracing.subscribed(stopper), pytest.raises(Stop):
        _square()(tf.constant(1.0))

    seen = []

    class Observer:
        def __init__(self, trace):
            self.trace = trace

        def __enter__(self):
            return self

        def __exit__(self, *exc):
            seen.append(type(self.trace.error))
            return True   # must not swallow the user's error

    error = ValueError("user bug")

    @tf.function(autograph=False)   # AutoGraph would re-wrap the error itself
    def fails(x):
        raise error

    with tracing.subscribed(Observer), pytest.raises(ValueError) as info:
        fails(tf.constant(1))
    assert info.value is error
    assert seen == [ValueError]


def test_the_hooks_own_frames_are_left_out_of_the_users_traceback():
    @tf.function
    def fails(x):
        raise ValueError("boom")

    with tracing.subscribed(lambda t: None), pytest.raises(ValueError) as info:
        fails(tf.constant(1))
    package = os.path.dirname(os.path.abspath(tracing.__file__)) + os.sep
    shown = [str(entry.path) for entry in info.traceback]
    assert any(path == os.path.abspath(__file__) for path in shown)
    assert not [path for path in shown if path.startswith(package)]


def test_fallback_without_hook_point_warns_once_and_runs(monkeypatch):
    monkeypatch.setattr(_tf.trace_hook, "_tracing_module", lambda: None)
    monkeypatch.setattr(_tf.versions, "_warned", set())
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        with tracing.subscribed(lambda t: None):
            assert float(_square()(tf.constant(2.0))) == 4.0
        with tracing.subscribed(lambda t: None):
            pass
    messages = [str(w.message) for w in caught]
    assert len(messages) == 1 and "trace hooks unavailable on TensorFlow" in messages[0]


def test_unsupported_version_warns_but_hooks(monkeypatch):
    monkeypatch.setattr(_tf.versions, "tf_version", lambda: (2, 99))
    monkeypatch.setattr(_tf.versions, "_warned", set())
    traces = []
    with pytest.warns(RuntimeWarning, match="TensorFlow 2.99 is not a supported version"):
        with tracing.subscribed(traces.append):
            _square()(tf.constant(2.0))
    assert traces   # the hook point exists, so it still observes


def test_a_library_module_imported_anew_moves_the_library_folders(monkeypatch, tmp_path):
    """The library folders are kept while every library package is the module it was; one
    put in ``sys.modules`` anew (a re-import) is seen at the next question."""
    import sys
    import types

    from tfdebug import _frames

    user_file = str(tmp_path / "pkg" / "code.py")
    assert _frames.is_user_file(user_file)
    module = types.ModuleType("icecream")
    module.__file__ = str(tmp_path / "pkg" / "__init__.py")
    monkeypatch.setitem(sys.modules, "icecream", module)
    assert not _frames.is_user_file(user_file)
    monkeypatch.undo()
    assert _frames.is_user_file(user_file)


class _Stepper:
    def step(self, x):
        return x * 2.0


@tf.function
def _run_steps(step_fn, dataset):
    total = tf.constant(0.0)
    for x in dataset:  # AutoGraph makes this loop a tf.data function: a library-made trace
        total += step_fn(x)
    return total


def test_observing_keeps_no_argument_alive_so_tensorflow_traces_as_it_would():
    # TensorFlow matches an argument that is still alive to the trace made for it (a bound
    # method equals the next one made from the same object): anything tfdebug held after
    # the call, even garbage waiting for the collector, would stop these retraces
    import gc
    import weakref

    import tfdebug

    dataset = tf.data.Dataset.range(3).map(lambda i: tf.cast(i, tf.float32))
    stepper = _Stepper()

    def traces(*scopes):
        before = _run_steps.experimental_get_tracing_count()
        alive = []
        for scope in scopes:
            scope.__enter__()
        gc.disable()
        try:
            for _ in range(3):
                step = stepper.step  # a new bound method each time
                _run_steps(step, dataset)
                alive.append(weakref.ref(step))
                del step
        finally:
            gc.enable()
            for scope in reversed(scopes):
                scope.__exit__(None, None, None)
        return _run_steps.experimental_get_tracing_count() - before, sum(r() is not None for r in alive)

    plain = traces()
    observed = traces(tfdebug.trace_logger(warn_after=None),
                      tfdebug.side_effect_guard(action="log", follow_calls=True))
    assert plain == (3, 0)
    assert observed == plain
